"""Numbered notes printed in the body's own type are sections (issue 24 item 2), on 10-Qs generated in the
test: ``NOTE 1: ACCOUNTING POLICIES`` set in plain capitals at the text's size (or smaller than it)
under a bold ``Notes to Financial Statements`` is no heading to the type scan, but the filing's notes
are numbered one by one; a note named inside a paragraph, or a paragraph opening with ``Note 3
describes ...``, is not a note."""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import LOREM, Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

NOTES = ["ACCOUNTING POLICIES", "EARNINGS PER SHARE", "INVESTMENTS", "DEBT", "SEGMENT INFORMATION"]
DETECT = BuildSettings(ignore_outline=True, subdivide=False)


def _ten_q(path: Path, size: float = 10.0) -> tuple[Path, dict[str, int]]:
    """A 10-Q: Part I, Item 1 with two statements and the notes, each note's title a plain line in
    ``size`` points (the text is 10 points) opening its paragraph, the second note's text naming Note 4
    at a line's start inside a paragraph and a paragraph of its own opening with ``Note 3 describes``;
    then Item 2. Returns each note's page by title."""
    w = Writer(header="Example Corp Form 10-Q")
    pages: dict[str, int] = {}
    w.centred("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 14)
    w.heading("FORM 10-Q", size=16)
    w.heading("QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", size=10)
    w.paras(2)
    w.new_page()
    w.heading("PART I", size=10, bold=True, space=14)
    w.heading("Item 1. Financial Statements", size=10, bold=True)
    for title in ("INCOME STATEMENTS", "BALANCE SHEETS"):
        w.new_page()
        w.centred(title, 10)
        for row in ("Revenue", "Cost of revenue", "Net income"):
            w.row([(72, row), (480, "1,234")])
    w.new_page()
    w.heading("NOTES TO FINANCIAL STATEMENTS", size=10, bold=True)
    for n, title in enumerate(NOTES, 1):
        w.y += 8
        full = f"NOTE {n}: {title}"
        pages[full] = w.line(full, size=size)
        w.para(LOREM)
        if n == 2:
            w.para("The fair value of these instruments is described in the notes that follow, and our investments in")
            w.line("Note 4: Debt and the credit facility are discussed with the borrowings of the quarter and the")
            w.para("periods presented; the amounts are unaudited.")
            w.para("Note 3 describes our investments and their fair values by level in detail for every period.")
        w.paras(2)
    w.new_page()
    w.heading("Item 2. Management's Discussion and Analysis", size=10, bold=True)
    w.paras(3)
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading("Item 1. Legal Proceedings", size=10, bold=True)
    w.paras(2)
    return w.save(path), pages


def _nodes(path: Path) -> list[Node]:
    roots, _ = build_nodes(read(path), DETECT)
    return [n for r in roots for n in r.walk()]


@pytest.mark.unit
@pytest.mark.parametrize("size", [10.0, 8.5])
def test_notes_set_in_the_body_type_are_sections_under_the_notes(tmp_path: Path, size: float) -> None:
    path, pages = _ten_q(tmp_path / "tenq.pdf", size)
    nodes = _nodes(path)
    notes_to = next(n for n in nodes if n.title == "NOTES TO FINANCIAL STATEMENTS")
    assert [(c.title, c.start_page) for c in notes_to.children] == list(pages.items())


@pytest.mark.unit
def test_a_note_named_in_running_text_is_not_a_note(tmp_path: Path) -> None:
    path, _ = _ten_q(tmp_path / "tenq.pdf")
    titles = [n.title for n in _nodes(path)]
    assert not any(t.startswith(("Note 4: Debt and", "Note 3 describes")) for t in titles), titles
    assert titles.count("NOTE 4: DEBT") == 1
