"""Sub-headings below a printed TOC's or an outline's depth (``structure.deepen``), in real PDFs
written with PyMuPDF: the placed entries stay, the headings set finer than them nest below them, and
running heads, bold words in running text and table rows do not."""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import LEFT, RIGHT, Writer

from treebuild.model import Node, Origin
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

pytestmark = pytest.mark.unit

CHAPTERS = {
    "1 Planning": ["Budget Review", "Staffing Levels", "Schedule Risks"],
    "2 Operations": ["Daily Controls", "Exception Handling", "Record Keeping"],
    "3 Reporting": ["Quarterly Figures", "Ledger Checks", "Audit Trail"],
    "4 Compliance": ["Regulatory Filings", "Internal Audits", "Corrective Actions"],
    "5 Training": ["New Staff", "Annual Refreshers", "Assessments"],
    "6 Review": ["Program Metrics", "Lessons Learned", "Next Steps"],
}
SHORT = "The unit checks its figures against the ledger every quarter and records each exception. "
OUTLINE_ONLY = BuildSettings(subdivide=False, prompt_version="eval")
DETECT = BuildSettings(ignore_outline=True, subdivide=False, prompt_version="eval")


def _manual(path: Path, *, contents: bool, noise: bool = False) -> tuple[Path, dict[str, int]]:
    """A manual whose chapters (16 pt bold) each fill one page with three sub-headings (12 pt bold)
    over body text (10 pt), a running head (12 pt bold) on every page; ``contents``: a printed contents
    page listing the chapters only; ``noise``: a bold word opening a paragraph, and a table whose bold
    header row is set like the sub-headings, in every chapter, a chart's title in a type of its own once,
    a list's bold numbered step and a figure's label printed twice, set like the sub-headings. Returns the
    file and each chapter's page."""
    w = Writer()
    w.heading("Program Manual", size=24)
    w.para("Prepared by the program office.")
    first = 3 if contents else 2
    pages = {title: first + k for k, title in enumerate(CHAPTERS)}
    if contents:
        w.new_page()
        w.heading("Contents", size=16)
        for title, page in pages.items():
            w.line(f"{title} {'.' * 60} {page}")
    for title, heads in CHAPTERS.items():
        w.new_page()
        w.heading(title, size=16)
        w.para(SHORT)
        for k, head in enumerate(heads):
            w.heading(head, size=12)
            w.para(SHORT * 2)
            if noise and k == 1:
                w.line("Note", bold=True)
                w.para(SHORT)
                w.row([(LEFT, "Region"), (LEFT + 200, "2022"), (RIGHT, "2023")], size=12, bold=True)
                for region in ("North", "South", "West"):
                    w.row([(LEFT, region), (LEFT + 200, "1,204"), (RIGHT, "1,377")])
            if noise and k == 0 and title.startswith("2"):
                for _ in range(2):  # a figure's label, drawn in each of two figures
                    w.heading("Input and output", size=12)
                    w.para(SHORT)
            if noise and k == 2 and title.startswith("3"):
                w.heading("Chart of quarterly exceptions", size=13)
                w.para(SHORT)
                w.heading("1. Confirm the totals", size=12)
                w.para(SHORT)
    toc = None if contents else [[1, title, page] for title, page in pages.items()]
    return w.save(path, toc=toc), pages


def _tree(roots: list[Node]) -> list[tuple[str, int, int]]:
    return [(n.title, n.depth, n.start_page or 0) for r in roots for n in r.walk() if n.origin != Origin.preface]


def _expected(pages: dict[str, int]) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for title, heads in CHAPTERS.items():
        out.append((title, 1, pages[title]))
        out.extend((head, 2, pages[title]) for head in heads)
    return out


def test_a_contents_of_chapters_only_gets_the_sub_headings_its_pages_set_apart(tmp_path: Path) -> None:
    path, pages = _manual(tmp_path / "toc.pdf", contents=True)
    roots, result = build_nodes(read(path), DETECT)
    assert _tree(roots) == _expected(pages)
    assert str(result.method) == "toc+headings"
    chapters = [n for r in roots for n in r.walk() if n.depth == 1 and n.origin != Origin.preface]
    assert {n.origin for n in chapters} == {Origin.toc}  # the contents' entries stay the contents'
    assert {k.origin for n in chapters for k in n.children} == {Origin.heading}  # found by typography


def test_an_outline_of_depth_one_gets_the_sub_headings_under_its_leaves(tmp_path: Path) -> None:
    path, pages = _manual(tmp_path / "outline.pdf", contents=False)
    roots, result = build_nodes(read(path), OUTLINE_ONLY)
    assert _tree(roots) == _expected(pages)
    assert str(result.method) == "outline+headings"
    for n in (n for r in roots for n in r.walk() if n.origin != Origin.preface):
        assert n.origin == (Origin.outline if n.depth == 1 else Origin.heading)  # the author's, or the type's


@pytest.mark.parametrize("contents", [True, False])
def test_running_heads_bold_words_and_table_rows_are_not_sub_headings(tmp_path: Path, contents: bool) -> None:
    path, pages = _manual(tmp_path / "noise.pdf", contents=contents, noise=True)
    settings = DETECT if contents else OUTLINE_ONLY
    roots, _ = build_nodes(read(path), settings)
    titles = [t for t, _, _ in _tree(roots)]
    assert "Annual Program Manual" not in titles  # the running head, bold and in the sub-headings' size
    assert "Note" not in titles
    assert not any(t.startswith(("Region", "North", "South", "West")) for t in titles)
    assert "Chart of quarterly exceptions" not in titles  # a type printed once is no level of the outline
    assert "Input and output" not in titles  # a section's sub-sections are named apart
    assert "1. Confirm the totals" not in titles  # a list's step is no section of chapter 3
    assert _tree(roots) == _expected(pages)


def test_an_outline_that_lists_the_sub_sections_is_left_as_it_is(tmp_path: Path) -> None:
    """An outline deeper than ``deepen.SHALLOW`` is complete: nothing is added under its leaves."""
    w = Writer()
    toc: list[list[object]] = []
    for title, heads in CHAPTERS.items():
        w.new_page()
        toc.append([1, title, w.heading(title, size=16)])
        for head in heads:
            toc.append([2, head, w.heading(head, size=12)])
            w.para(SHORT)
            toc.append([3, f"{head} in detail", w.heading(f"{head} in detail", size=11)])
            for k in range(3):
                w.heading(f"Step {k + 1} of {head.lower()}", size=10.5)
                w.para(SHORT)
    roots, result = build_nodes(read(w.save(tmp_path / "deep.pdf", toc=toc)), OUTLINE_ONLY)
    assert str(result.method) == "outline"
    assert len([n for r in roots for n in r.walk() if n.origin != Origin.preface]) == len(toc)
