"""Window nodes named by what is on their pages (issue 24 item 4), on generated PDFs: a section too
long to read whole and without finer headings is cut into page windows, each named by its first line
set apart as a title (a risk factor's bold caption sentence, a note's run-in head in capitals), else
by its first table's title; ``"<section> (continued)"`` only when nothing on its pages names it, and
never a page range."""

from __future__ import annotations

from pathlib import Path

from structgen import LOREM, Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes
from treebuild.structure.subdivide import subdivide
from treebuild.structure.windows import CONTINUED_SUFFIX

SETTINGS = BuildSettings(max_node_pages=10)


def _windows(w: Writer, path: Path, section: str) -> tuple[Node, list[tuple[str, int, int]]]:
    doc = read(w.save(path))
    roots, _ = build_nodes(doc, SETTINGS)
    subdivide(doc, roots, SETTINGS)
    node = next(n for r in roots for n in r.walk() if n.title == section)
    assert node.children and all(k.origin == "window" for k in node.children)
    for k in node.children:
        assert "page" not in k.title
    return node, [(k.title, k.start_page, k.end_page) for k in node.children]


def _opening(w: Writer) -> None:
    w.heading("Short Opening", size=14)
    w.paras(2)
    w.new_page()


def test_windows_are_named_by_their_first_caption_sentence(tmp_path: Path) -> None:
    """Risk factors: bold caption sentences at the text's size, each over pages of text. A window is
    named by the first caption on its pages (its closing stop dropped); the section's own heading,
    printed with a number where the first window starts, is not a window's name (the outline names the
    section without it)."""
    w = Writer()
    _opening(w)
    w.heading("7. Long Risk Factors", size=14)
    captions = ["Adverse economic conditions may harm our business.",
                "We depend on a small number of suppliers for key parts.",
                "Changes in tax law could raise our effective rate."]
    at = []
    for caption in captions:
        w.para(caption, bold=True)
        at.append(w.page_number)
        w.fill_pages(6)
    doc = read(w.save(tmp_path / "risk.pdf", toc=[[1, "Short Opening", 1], [1, "Long Risk Factors", 2]]))
    roots, _ = build_nodes(doc, SETTINGS)
    section = next(n for n in roots if n.title == "Long Risk Factors")  # the outline's title, no number
    assert section.is_leaf  # the captions are no headings of the tree ...
    subdivide(doc, roots, SETTINGS)
    windows = section.children
    assert len(windows) >= 2
    for k in windows:  # ... but each window is named by the first caption printed in it
        inside = [c for c, p in zip(captions, at, strict=True) if k.start_page <= p and c in k.text()]
        assert k.title == (inside[0].rstrip(".") if inside else section.title + CONTINUED_SUFFIX)
    assert windows[0].title == captions[0].rstrip(".")


def test_windows_are_named_by_a_run_in_head_in_capitals(tmp_path: Path) -> None:
    """Notes set their policies as run-in heads in capitals, a dash, then the text: a window is named
    by the first such head on its pages."""
    w = Writer()
    _opening(w)
    w.heading("Notes to Financial Statements", size=14)
    heads = ["PRINCIPLES OF CONSOLIDATION", "USE OF ESTIMATES", "REVENUE RECOGNITION", "INCOME TAXES"]
    for head in heads:
        w.para(f"{head} - {LOREM}")
        w.fill_pages(6)
    node, windows = _windows(w, tmp_path / "notes.pdf", "Notes to Financial Statements")
    assert windows[0][0] == heads[0]
    named = [title for title, _, _ in windows if not title.endswith(CONTINUED_SUFFIX)]
    assert len(named) >= 2 and named == [h for h in heads if h in named]  # in the document's order
    for k in node.children:
        if not k.title.endswith(CONTINUED_SUFFIX):
            assert k.text().find(k.title) >= 0


def _table_section(path: Path, title: list[tuple[float, str]]) -> tuple[list[tuple[str, int, int]], int]:
    """A long section of plain text with a table of figures on a page of its own, ``title`` (pieces
    at their x) printed over its columns."""
    w = Writer()
    _opening(w)
    w.heading("Long Results", size=14)
    w.fill_pages(10)
    w.new_page()
    w.row(title)
    w.row([(72, ""), (420, "2023"), (500, "2022")])
    for i, label in enumerate(["Cloud", "Devices", "Services", "Licensing", "Hardware", "Other", "Total"]):
        w.row([(72, label), (420, f"{(i + 3) * 1234:,}"), (500, f"{(i + 2) * 1111:,}")])
    table_page = w.page_number
    w.new_page()
    w.fill_pages(10)
    _, windows = _windows(w, path, "Long Results")
    return windows, table_page


def test_a_window_without_a_title_line_is_named_by_its_first_table(tmp_path: Path) -> None:
    """A window whose pages hold no line set apart but a table with a title (a line of text over its
    columns) is named by that title; the windows around it with neither are the section continued."""
    windows, table_page = _table_section(tmp_path / "table.pdf", [(72, "Revenue by product line")])
    assert windows[0][0] == "Long Results"  # the first window opens the section: its own name
    [holder] = [t for t in windows if t[1] <= table_page <= t[2] and t[1] > windows[0][1]]
    assert holder[0] == "Revenue by product line"
    assert [t[0] for t in windows if t is not holder and t is not windows[0]] == [
        "Long Results" + CONTINUED_SUFFIX] * (len(windows) - 2)


def test_a_tables_column_headings_read_as_its_title_name_no_window(tmp_path: Path) -> None:
    """The line over a table is its column headings (``Product`` ... ``Description``, pieces columns
    apart), not a title: the window holding it is the section continued."""
    windows, _ = _table_section(tmp_path / "heads.pdf", [(72, "Product"), (250, "Description")])
    assert [t[0] for t in windows] == ["Long Results"] + ["Long Results" + CONTINUED_SUFFIX] * (len(windows) - 1)


def test_windows_with_nothing_to_name_them_continue_their_section(tmp_path: Path) -> None:
    w = Writer()
    _opening(w)
    w.heading("Long Appendix", size=14)
    w.fill_pages(30)
    _, windows = _windows(w, tmp_path / "plain.pdf", "Long Appendix")
    assert [t[0] for t in windows] == ["Long Appendix"] + ["Long Appendix" + CONTINUED_SUFFIX] * (len(windows) - 1)


def test_rows_set_in_columns_name_no_window(tmp_path: Path) -> None:
    """A bold row whose pieces stand columns apart is a table's header or a contents entry, not a
    title: the window is named by the caption after it."""
    w = Writer()
    _opening(w)
    w.heading("Long Reference", size=14)
    w.paras(2)
    w.row([(72, "Name"), (300, "Page"), (480, "Explanation")], bold=True)
    w.paras(1)
    w.para("Limits of the reference tables are shown here.", bold=True)
    w.fill_pages(25)
    _, windows = _windows(w, tmp_path / "columns.pdf", "Long Reference")
    assert windows[0][0] == "Limits of the reference tables are shown here"


def test_a_window_of_code_listings_is_measured_against_the_whole_documents_text(tmp_path: Path) -> None:
    """A manual's long listing section: code in a smaller monospace type with a line of prose between
    the listings. Measured alone, the section's text would be the code and the prose would look larger
    than the text, so a window would be named by a sentence of prose; against the document's text
    (prose everywhere else) it is not, and the window is the section continued."""
    w = Writer()
    w.heading("Short Opening", size=14)
    w.fill_pages(30)
    w.heading("Long Listing", size=14)
    for k in range(60):
        w.para(f"The listing below sets up part {k} of the example.")
        for i in range(18):
            w.line(f"    call setup_{k}_{i}(value, option)  # step {i}", size=8, font="cour")
    _, windows = _windows(w, tmp_path / "code.pdf", "Long Listing")
    assert len(windows) >= 2
    assert [t[0] for t in windows] == ["Long Listing"] + ["Long Listing" + CONTINUED_SUFFIX] * (len(windows) - 1)
