"""Trees from PDF outlines: the outline reproduced exactly (titles, nesting, start pages,
preorder ids), sections that share a page split at the destination y, exact node text,
page ranges where parents cover children. PDFs are written with PyMuPDF per test."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pymupdf
import pytest
from docgen import (
    BODY_TOP,
    LaidOut,
    Section,
    Text,
    dest_y,
    layout_sections,
    page_text,
    rewrite_destinations,
    toc_row,
    write_pdf,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import treebuild
from treebuild.model import Mark, Node, Pos, Tree
from treebuild.readers import read
from treebuild.structure.assemble import PREFACE_TITLE, assemble

DATA = Path(__file__).parent / "data"


def _check_against_layout(tree: Tree, laid: LaidOut, preface: list[str]) -> None:
    nodes = list(tree.walk())
    assert [n.node_id for n in nodes] == [f"{k:04d}" for k in range(len(nodes))]
    if preface:
        head = nodes.pop(0)
        assert (head.title, head.origin, head.depth) == (PREFACE_TITLE, "preface", 1)
        assert head.text() == page_text(preface)
        assert (head.start_page, head.end_page) == (1, 1)
    assert tree.method == "outline"
    assert [n.title for n in nodes] == [s.title for s in laid.sections]
    for i, (node, section) in enumerate(zip(nodes, laid.sections, strict=True)):
        assert node.depth == section.level
        parent = laid.parent(i)
        assert node.parent is (nodes[parent] if parent is not None else None)
        assert [p.title for p in node.path()] == [n.title for n in _chain(nodes, laid, i)]
        assert node.text() == laid.text(i)
        assert (node.start_page, node.end_page) == laid.pages_of(i)
        assert node.origin == "outline"
        for child in node.children:
            assert node.start <= child.start and child.end <= node.end
            assert node.start_page is not None and node.end_page is not None
            assert child.start_page is not None and child.end_page is not None
            assert node.start_page <= child.start_page and child.end_page <= node.end_page
        for left, right in zip(node.children, node.children[1:], strict=False):
            assert left.end == right.start and left.ordinal + 1 == right.ordinal


def _chain(nodes: list[Node], laid: LaidOut, i: int) -> list[Node]:
    out = [nodes[i]]
    while (p := laid.parent(i)) is not None:
        out.append(nodes[p])
        i = p
    return out[::-1]


SHAPES = {
    1: [1, 1, 1],
    2: [1, 2, 2, 1, 2],
    3: [1, 2, 3, 3, 2, 1, 2, 3],
    4: [1, 2, 3, 4, 4, 3, 2, 1, 2, 3, 4, 1],
}


@pytest.mark.parametrize("depth", sorted(SHAPES))
def test_outline_of_each_depth_is_reproduced(tmp_path: Path, depth: int) -> None:
    sections = [Section(level, f"Heading {i} at level {level}", body=(i * 7) % 23) for i, level in
                enumerate(SHAPES[depth])]
    laid = layout_sections(tmp_path / f"depth{depth}.pdf", sections)
    tree = treebuild.build(laid.path)
    assert tree.stats["max_depth"] == depth
    _check_against_layout(tree, laid, [])


@st.composite
def _outlines(draw: st.DrawFn) -> tuple[list[Section], list[str]]:
    n = draw(st.integers(1, 12))
    levels = [1]
    for _ in range(n - 1):
        levels.append(draw(st.integers(1, min(levels[-1] + 1, 5))))
    bodies = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    preface = draw(st.sampled_from([[], ["Cover page", "A subtitle on the cover"]]))
    return [Section(lv, f"Title {i} (L{lv})", b) for i, (lv, b) in enumerate(zip(levels, bodies, strict=True))], preface


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_outlines())
def test_any_outline_shape_gives_the_same_tree(case: tuple[list[Section], list[str]]) -> None:
    sections, preface = case
    with tempfile.TemporaryDirectory() as tmp:
        laid = layout_sections(Path(tmp) / "random.pdf", sections, preface=preface)
        _check_against_layout(treebuild.build(laid.path), laid, preface)


def test_sections_sharing_a_page_split_at_the_destination(tmp_path: Path) -> None:
    a_head = Text("A. First part", BODY_TOP, 16, bold=True)
    b_head = Text("B. Second part", 400, 16, bold=True)
    page1: list[Text | str] = [a_head, "a line 1", "a line 2", b_head, "b line 1"]
    page2: list[Text | str] = ["b line 2"]
    toc = [toc_row(1, "A. First part", 1, dest_y(a_head)), toc_row(1, "B. Second part", 1, dest_y(b_head))]
    tree = treebuild.build(write_pdf(tmp_path / "shared.pdf", [page1, page2], toc=toc))
    a, b = tree.roots
    assert a.text() == "A. First part\na line 1\na line 2\n"  # stops where B's heading begins
    assert b.text() == "B. Second part\nb line 1\n\nb line 2\n"
    assert a.end == b.start and a.end.unit == 0 and a.end.char > 0
    assert (a.start_page, a.end_page) == (1, 1)
    assert (b.start_page, b.end_page) == (1, 2)  # both ranges include the shared page


def test_section_starting_at_page_top_owns_the_page(tmp_path: Path) -> None:
    header = Text("Running header", 40, 9)
    footer1, footer2 = Text("page 1", 770, 9), Text("page 2", 770, 9)
    b_head = Text("B. Starts a page", BODY_TOP, 16, bold=True)
    a_head = Text("A. Part", BODY_TOP, 16, bold=True)
    page1: list[Text | str] = [header, a_head, "a text", footer1]
    page2: list[Text | str] = [header, b_head, "b text", footer2]
    toc = [toc_row(1, "A. Part", 1, dest_y(a_head)), toc_row(1, "B. Starts a page", 2, dest_y(b_head))]
    tree = treebuild.build(write_pdf(tmp_path / "top.pdf", [page1, page2], toc=toc))
    a, b = tree.roots
    assert b.start == Pos(1, 0)  # the running header above the heading belongs to B's page
    assert (a.start_page, a.end_page) == (1, 1)  # A ends on the page before
    assert (b.start_page, b.end_page) == (2, 2)
    assert a.text() == page_text(page1)
    assert b.text() == page_text(page2)


def test_destination_without_point_starts_at_page_top(tmp_path: Path) -> None:
    pages = [["Intro text that is long enough to be more than a running header line", "more intro"],
             ["Chapter on page two", "text"]]
    toc = [toc_row(1, "Intro", 1), toc_row(1, "Chapter", 2)]
    tree = treebuild.build(write_pdf(tmp_path / "nopoint.pdf", pages, toc=toc))
    assert [(n.title, n.start, n.start_page, n.end_page) for n in tree.roots] == [
        ("Intro", Pos(0, 0), 1, 1), ("Chapter", Pos(1, 0), 2, 2)]


def test_text_above_a_mid_page_destination_is_not_a_header(tmp_path: Path) -> None:
    """Content lines above a heading stay with the previous section, even near the top."""
    long_line = Text("the previous section continues with a long line at the top of this page", 60)
    head = Text("Next", 200, 16, bold=True)
    pages: list[list[Text | str]] = [["Prev", "prev text"], [long_line, "and another line", head, "next text"]]
    toc = [toc_row(1, "Prev", 1, dest_y(Text("Prev", BODY_TOP))), toc_row(1, "Next", 2, dest_y(head))]
    prev, nxt = treebuild.build(write_pdf(tmp_path / "mid.pdf", pages, toc=toc)).roots
    assert prev.text().endswith(long_line.text + "\nand another line\n")
    assert (prev.end_page, nxt.start_page) == (2, 2)
    assert nxt.text() == "Next\nnext text\n"


def test_roman_front_matter_labels_on_units(tmp_path: Path) -> None:
    pages: list[list[Text | str]] = [["Title page"], ["Contents"], ["Chapter 1"], ["more"], ["Chapter 2"]]
    labels = [{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
              {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1}]
    toc = [toc_row(1, "Contents", 2), toc_row(1, "Chapter 1", 3), toc_row(1, "Chapter 2", 5)]
    tree = treebuild.build(write_pdf(tmp_path / "roman.pdf", pages, toc=toc, labels=labels))
    assert [u.label for u in tree.doc.units] == ["i", "ii", "1", "2", "3"]
    got = [(n.title, n.start_page, n.end_page, tree.doc.units[(n.start_page or 0) - 1].label) for n in tree.walk()]
    assert got == [(PREFACE_TITLE, 1, 1, "i"), ("Contents", 2, 2, "ii"), ("Chapter 1", 3, 4, "1"),
                   ("Chapter 2", 5, 5, "3")]


def test_outline_entries_outside_the_document_are_skipped(tmp_path: Path) -> None:
    src = write_pdf(tmp_path / "src.pdf", [["one"], ["two"], ["three"]],
                    toc=[toc_row(1, "One", 1), toc_row(1, "Two", 2), toc_row(2, "Two sub", 3), toc_row(1, "Gone", 3)])
    doc = pymupdf.open(src)
    doc.delete_page(2)  # bookmarks to page 3 now point nowhere (page -1)
    path = tmp_path / "cut.pdf"
    doc.save(path)
    assert [row[2] for row in doc.get_toc()] == [1, 2, -1, -1]
    tree = treebuild.build(path)
    assert [(n.title, n.depth, n.start_page, n.end_page) for n in tree.walk()] == [("One", 1, 1, 1), ("Two", 1, 2, 2)]
    assert [n.node_id for n in tree.walk()] == ["0000", "0001"]


def test_merged_file_bookmark_pointing_back_starts_at_its_first_child(tmp_path: Path) -> None:
    pages: list[list[Text | str]] = [["Part one"], ["part one text"], ["Part two"], ["part two text"]]
    toc = [toc_row(1, "File A", 1), toc_row(2, "A1", 1), toc_row(2, "A2", 2),
           toc_row(1, "File B", 1), toc_row(2, "B1", 3), toc_row(2, "B2", 4)]  # File B aims at page 1
    tree = treebuild.build(write_pdf(tmp_path / "merged.pdf", pages, toc=toc))
    file_a, file_b = tree.roots
    assert (file_b.start_page, file_b.end_page) == (3, 4)
    assert (file_a.start_page, file_a.end_page) == (1, 2)
    assert [c.title for c in file_b.children] == ["B1", "B2"]
    assert not tree.warnings


def test_backward_entry_without_children_is_moved_forward_with_a_warning(tmp_path: Path) -> None:
    pages: list[list[Text | str]] = [["first"], ["second"], ["third"]]
    toc = [toc_row(1, "First", 1), toc_row(1, "Third", 3), toc_row(1, "Back to two", 2)]
    tree = treebuild.build(write_pdf(tmp_path / "back.pdf", pages, toc=toc))
    assert [n.title for n in tree.roots] == ["First", "Third", "Back to two"]
    third, back = tree.roots[1], tree.roots[2]
    assert third.text() == "third\n"  # keeps its page: the misplaced entry does not take it
    assert back.start == back.end == tree.doc.end() and back.text() == ""
    assert (back.start_page, back.end_page) == (3, 3)
    assert any("1 section start(s)" in w and "moved forward" in w for w in tree.warnings)


def test_node_path_and_lookup(tmp_path: Path) -> None:
    laid = layout_sections(tmp_path / "path.pdf", [Section(1, "Root", 1), Section(2, "Mid", 1), Section(3, "Leaf", 2)])
    tree = treebuild.build(laid.path)
    leaf = tree.node("0002")
    assert [n.title for n in leaf.path()] == ["Root", "Mid", "Leaf"]
    assert leaf.parent_id == "0001" and leaf.is_leaf and not tree.node("0000").is_leaf
    assert tree.find("mid") == [tree.node("0001")]
    assert leaf.own_text() == leaf.text() == "Leaf\ns2 body line 0\ns2 body line 1\n"
    assert tree.node("0000").own_text() == "Root\ns0 body line 0\n"


def test_real_pdf_outline_tree_splits_shared_pages_at_headings() -> None:
    """ODF 1.4 Part 2, pages 1-12 (LibreOffice export): several sections share each page."""
    tree = treebuild.build(DATA / "odf-packages-p1-12.pdf")
    assert tree.method == "outline"
    nodes = [n for n in tree.walk() if n.origin == "outline"]
    assert [n.title for n in nodes] == [e.title for e in tree.doc.outline]
    for node, entry in zip(nodes, tree.doc.outline, strict=True):
        assert node.depth == entry.level and node.start_page == entry.page
        assert " ".join(node.text().split()).startswith(entry.title)  # starts exactly at its heading
    intro = tree.find("1 Introduction")[0]
    assert [c.title for c in intro.children][:2] == ["1.1 Introduction", "1.2 Terminology"]
    assert intro.children[0].start_page == intro.children[1].start_page == 8


def _spans(tree: Tree) -> list[tuple[str, int, Pos, Pos, int | None, int | None, str]]:
    return [(n.title, n.depth, n.start, n.end, n.start_page, n.end_page, n.text()) for n in tree.walk()]


# Most sections share pages (bodies of 0-9 lines, 27 lines a page); after a 30-line body, one is
# alone on its page, mid-page.
SHARED = [Section(lv, f"Heading {i} at level {lv}", body=30 if i % 5 in (3, 4) else (i * 5) % 10)
          for i, lv in enumerate(SHAPES[3] * 2)]


def test_named_destinations_split_shared_pages_like_goto(tmp_path: Path) -> None:
    """LaTeX/hyperref, Sphinx and Texinfo bookmarks use named destinations: same tree as GoTo ones."""
    laid = layout_sections(tmp_path / "goto.pdf", SHARED)
    named = rewrite_destinations(Path(shutil.copy(laid.path, tmp_path / "named.pdf")), "named")
    assert {row[3]["kind"] for row in pymupdf.open(named).get_toc(simple=False)} == {pymupdf.LINK_NAMED}
    goto_tree, named_tree = treebuild.build(laid.path), treebuild.build(named)
    assert sum(1 for n in named_tree.walk() if n.start.char > 0) >= 5  # many sections start mid-page
    alone = [i for i, (p, line) in enumerate(laid.heading_at)
             if line > 0 and [q for q, _ in laid.heading_at].count(p) == 1]
    assert alone  # only its destination's y tells where such a section starts
    _check_against_layout(named_tree, laid, [])
    assert _spans(named_tree) == _spans(goto_tree)
    assert not named_tree.warnings


def test_page_only_destinations_sharing_a_page_start_at_their_headings(tmp_path: Path) -> None:
    """ReportLab writes ``[page /Fit]`` bookmarks: entries sharing a page are placed at their printed
    titles (not at a mention in a sentence), and a lone one owns its whole page, even when the page's
    running head comes last in the text stream."""
    head = Text("Running head", 40, 9)
    a, b, c = Text("1 Alpha", BODY_TOP, 16, bold=True), Text("1.1 Beta", 300, 14, bold=True), Text("1.2 Gamma", 500)
    page1: list[Text | str] = [head, a, Text("alpha text", 150), b, Text("beta text", 350),
                               Text("mentions 1.2 Gamma in a sentence", 400), c, Text("gamma text", 550)]
    page2: list[Text | str] = ["2 Delta", "delta text", head]  # the head is drawn last
    toc = [toc_row(1, "Alpha", 1), toc_row(2, "Beta", 1), toc_row(2, "Gamma", 1), toc_row(1, "Delta", 2)]
    path = rewrite_destinations(write_pdf(tmp_path / "fit.pdf", [page1, page2], toc=toc), "fit")
    tree = treebuild.build(path)
    assert tree.doc.units[1].text == "2 Delta\ndelta text\nRunning head\n"
    alpha, delta = tree.roots
    beta, gamma = alpha.children
    assert alpha.own_text() == "Running head\n1 Alpha\nalpha text\n"
    assert beta.text() == "1.1 Beta\nbeta text\nmentions 1.2 Gamma in a sentence\n"
    assert gamma.text() == "1.2 Gamma\ngamma text\n"
    assert delta.start == Pos(1, 0) and delta.text() == tree.doc.units[1].text
    assert [(n.start_page, n.end_page) for n in tree.walk()] == [(1, 1), (1, 1), (1, 1), (2, 2)]
    assert not tree.warnings


def test_page_only_destination_below_the_previous_sections_end_starts_at_its_heading(tmp_path: Path) -> None:
    """A ``/Fit`` bookmark alone on its page, whose heading sits below the end of the previous
    section (which ran over from the page before), starts at its heading, not at the page top."""
    page1: list[Text | str] = [Text("1 Alpha", BODY_TOP, 16, bold=True), "alpha text"]
    page2: list[Text | str] = [Text("alpha continues on the next page", BODY_TOP),
                               Text("and ends here.", BODY_TOP + 24), Text("2 Beta", 300, 16, bold=True),
                               Text("beta text", 330)]
    toc = [toc_row(1, "Alpha", 1), toc_row(1, "Beta", 2)]
    path = rewrite_destinations(write_pdf(tmp_path / "fit-alone.pdf", [page1, page2], toc=toc), "fit")
    alpha, beta = treebuild.build(path).roots
    assert beta.text() == "2 Beta\nbeta text\n"
    assert alpha.text().endswith("alpha continues on the next page\nand ends here.\n")
    assert (alpha.start_page, alpha.end_page, beta.start_page) == (1, 2, 2)


def test_entries_sharing_a_point_are_searched_below_it(tmp_path: Path) -> None:
    """Two bookmarks aimed at the same point: their headings are looked for below it, not in the
    chapter's mini table of contents above it."""
    top, beta, gamma = Text("1 Alpha", BODY_TOP, 16, bold=True), Text("1.1 Beta", 300, 14), Text("1.2 Gamma", 400, 14)
    page: list[Text | str] = [top, Text("1.1 Beta", 150), Text("1.2 Gamma", 175), Text("alpha text", 200), beta,
                              Text("beta text", 330), gamma, Text("gamma text", 430)]
    point = dest_y(beta)
    toc = [toc_row(1, "Alpha", 1, dest_y(top)), toc_row(2, "Beta", 1, point), toc_row(2, "Gamma", 1, point)]
    tree = treebuild.build(write_pdf(tmp_path / "minitoc.pdf", [page], toc=toc))
    (alpha,) = tree.roots
    assert alpha.own_text() == "1 Alpha\n1.1 Beta\n1.2 Gamma\nalpha text\n"
    assert [c.text() for c in alpha.children] == ["1.1 Beta\nbeta text\n", "1.2 Gamma\ngamma text\n"]


def test_page_top_anchor_below_its_predecessor_is_placed_at_its_heading(tmp_path: Path) -> None:
    """Texinfo anchors some subsections at the top of the page their heading is on, above the
    previous section's heading: the entry starts at its printed title instead."""
    top = Text("1 Support", BODY_TOP, 16, bold=True)
    p_head, s_head = Text("1.3 Reporting Bugs", 200, 14, bold=True), Text("1.3.1 How to Report", 500, 12, bold=True)
    page1: list[Text | str] = [top, "support text", p_head, Text("reporting text", 250), s_head, Text("how text", 550)]
    toc = [toc_row(1, "1 Support", 1, dest_y(top)), toc_row(2, "Reporting Bugs", 1, dest_y(p_head)),
           toc_row(3, "How to Report", 1, 36.0), toc_row(1, "2 Next", 2, 36.0)]
    tree = treebuild.build(write_pdf(tmp_path / "anchor.pdf", [page1, ["2 Next", "next text"]], toc=toc))
    assert [e.y for e in tree.doc.outline][2] == pytest.approx(36.0)  # above "Reporting Bugs"
    reporting = tree.find("Reporting Bugs")[0]
    how = reporting.children[0]
    assert reporting.own_text() == "1.3 Reporting Bugs\nreporting text\n"
    assert how.text() == "1.3.1 How to Report\nhow text\n"
    assert not tree.warnings


def test_backward_entry_keeps_the_previous_sections_text(tmp_path: Path) -> None:
    """The 2nd of 4 bookmarks points back to page 1 (no children): it comes out empty, with a
    warning, and the 1st keeps its whole text instead of handing it over."""
    pages: list[list[Text | str]] = [["Cover page text"], ["One", "one text", "more one text"], ["Three", "three text"],
                                     ["Four", "four text"]]
    toc = [toc_row(1, "One", 2), toc_row(1, "Back", 1), toc_row(1, "Three", 3), toc_row(1, "Four", 4)]
    tree = treebuild.build(write_pdf(tmp_path / "back4.pdf", pages, toc=toc))
    preface, one, back, three, four = tree.roots
    assert preface.title == PREFACE_TITLE and preface.text() == page_text(pages[0])
    assert one.text() == page_text(pages[1]) and (one.start_page, one.end_page) == (2, 2)
    assert back.start == back.end == three.start and back.text() == ""
    assert three.text() == page_text(pages[2]) and four.text() == page_text(pages[3])
    assert [(f.code, f.stage, f.text) for f in tree.findings if "moved forward" in f.text] == [
        ("starts_moved_forward", "structure",
         "1 section start(s) pointed before the previous one and were moved forward")]


def test_pages_without_text_belong_to_the_section_they_follow(tmp_path: Path) -> None:
    """Figure-only and empty pages (2-5, 7-10) stay in the page ranges of the sections around them."""
    pages: list[list[Text | str]] = [[] for _ in range(10)]
    pages[0], pages[5] = ["Chapter 1", "intro text"], ["Chapter 2", "text"]
    toc = [toc_row(1, "Chapter 1", 1), toc_row(2, "Section 1.1", 3), toc_row(1, "Chapter 2", 6)]
    tree = treebuild.build(write_pdf(tmp_path / "figures.pdf", pages, toc=toc, figures=(1, 3, 7)))
    ch1, ch2 = tree.roots
    sec = ch1.children[0]
    assert [(n.title, n.start_page, n.end_page) for n in tree.walk()] == [
        ("Chapter 1", 1, 5), ("Section 1.1", 3, 5), ("Chapter 2", 6, 10)]
    covered = {p for n in tree.roots for p in range(n.start_page or 0, (n.end_page or 0) + 1)}
    assert covered == set(range(1, 11))
    # spans are unchanged: units are joined by a newline, the blank pages add nothing else
    assert ch1.text() == page_text(pages[0]) + "\n" * 4 and sec.text() == "\n" * 2
    assert ch2.text() == page_text(pages[5]) + "\n" * 3  # the document ends where the last page's text does


def test_end_page_of_a_section_ending_mid_page(tmp_path: Path) -> None:
    """A section ending mid-page ends on that page when text precedes the end there, else on the page before."""
    pages: list[list[Text | str]] = [["One", "one text"], [Text("   ", 60), "Two", "two text"], []]
    doc = read(write_pdf(tmp_path / "mid.pdf", pages))
    blank_lead = doc.units[1].text.index("Two")  # after the whitespace-only block
    assert blank_lead > 0 and not doc.units[1].text[:blank_lead].strip()
    marks = [Mark("One", 1, Pos(0, 0), "heading"), Mark("Two", 1, Pos(1, blank_lead), "heading")]
    one, two = assemble(doc, marks)[0]
    assert (one.start_page, one.end_page, two.start_page, two.end_page) == (1, 1, 2, 3)
    after_text = doc.units[1].text.index("two text")
    one, two = assemble(doc, [marks[0], Mark("Two text", 1, Pos(1, after_text), "heading")])[0]
    assert (one.start_page, one.end_page, two.start_page, two.end_page) == (1, 2, 2, 3)


def test_ids_of_a_tree_over_10000_nodes_keep_string_order(tmp_path: Path) -> None:
    """Ids widen to 5 digits for every node once a tree passes 9,999 nodes, so string order stays preorder."""
    levels = [1 + (k % 7 > 2) + (k % 7 > 4) for k in range(10_050)]
    md = "".join(f"{'#' * lv} Heading {k}\n\nbody {k}\n\n" for k, lv in enumerate(levels))
    (path := tmp_path / "big.md").write_text(md)
    tree = treebuild.build(path, treebuild.BuildSettings(subdivide=False))
    nodes = list(tree.walk())
    ids = [n.node_id for n in nodes]
    assert len(nodes) == 10_050 and [n.title for n in nodes] == [f"Heading {k}" for k in range(10_050)]
    assert {len(i) for i in ids} == {5} and len(set(ids)) == len(ids)
    assert sorted(ids) == ids and ids[0] == "00000" and ids[-1] == "10049"
    assert max(n.depth for n in nodes) == 3
