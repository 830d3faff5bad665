"""Earnings releases (issue 8): the statement and table pages a release prints after its text, each
titled by a block under the registrant's name, are sections of their own, at the top level; on a
release generated in the test."""

from __future__ import annotations

from pathlib import Path

import pymupdf
from structgen import LOREM, Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)
COMPANY = "Example Corporation and Subsidiaries"
RELEASE_HEADS = ("Example Corporation Reports Fourth Quarter Results", "Division Results", "Guidance and Outlook")
ROWS = ("Net revenue    27,996    25,248", "Cost of sales    13,420    12,130", "Gross profit    14,576    13,118")


def _release(w: Writer) -> None:
    """Three pages of release text: 14-point headings over 11-point paragraphs."""
    for head in RELEASE_HEADS:
        w.heading(head, size=14)
        w.paras(3, text=LOREM)
        w.para(LOREM * 3, size=11)
        w.new_page()


def _table_page(w: Writer, block: list[str], first: bool = False) -> None:
    """A table page: its title block (bold, 10 points, centred), then rows of figures."""
    if not first:
        w.new_page()
    for line in block:
        w.centred(line, 10)
    w.y += 10
    for row in ROWS:
        w.line(row, 9)


def _sections(path: Path) -> list[Node]:
    roots, _ = build_nodes(read(path), DETECT)
    return [n for r in roots for n in r.walk() if n.origin != "preface"]


def test_a_title_block_names_its_page_without_its_period_and_legend_lines(tmp_path: Path) -> None:
    """A reconciliation page's block holds the registrant's name, two title rows, the period
    (``Quarter and Year Ended December 31, 2022``) and a legend (``(unaudited)``): the page is a
    top-level section titled by the two title rows (the block used to be too many rows for a
    heading, and the page went to the section before)."""
    w = Writer(header=None)
    _release(w)
    _table_page(w, [COMPANY, "Consolidated Statement of Income", "(in millions)"], first=True)
    _table_page(w, [COMPANY, "Reconciliation of GAAP and Non-GAAP Information", "Organic Revenue Growth Rates",
                    "Quarter and Year Ended December 31, 2022", "(unaudited)"])
    found = _sections(w.save(tmp_path / "release.pdf"))
    assert [(n.depth, n.title, n.start_page, n.end_page) for n in found[-2:]] == [
        (1, "Consolidated Statement of Income", 4, 4),
        (1, "Reconciliation of GAAP and Non-GAAP Information Organic Revenue Growth Rates", 5, 5)]


def test_a_continued_title_leaves_the_page_to_the_title_under_it(tmp_path: Path) -> None:
    """Pages that continue a reconciliation repeat its title with ``(continued)`` and name their own
    table under it (``Certain Line Items``): each page is a section titled by the row under the
    continued title, not by the repeated title (those pages used to be no section at all and went to
    the statement page before them)."""
    w = Writer(header=None)
    _release(w)
    _table_page(w, [COMPANY, "Consolidated Balance Sheet", "(in millions)"], first=True)
    subtitles = ["Year over Year Growth Rates", "Certain Line Items", "Operating Profit by Division",
                 "Gross Margin Performance"]
    for sub in subtitles:
        _table_page(w, [COMPANY, "Reconciliation of GAAP and Non-GAAP Information (continued)", sub,
                        "Quarters Ended December 31, 2022 and December 25, 2021", "(in millions, unaudited)"])
    found = _sections(w.save(tmp_path / "release.pdf"))
    assert [(n.depth, n.title, n.start_page, n.end_page) for n in found[-5:]] == [
        (1, "Consolidated Balance Sheet", 4, 4)] + [(1, sub, 5 + k, 5 + k) for k, sub in enumerate(subtitles)]


def test_a_title_block_last_in_the_text_stream_still_titles_its_page(tmp_path: Path) -> None:
    """A release's table pages written figures first and their title block (registrant, title and
    legend in 9-point capitals, not bold) last, though it prints at the top: each page is a section
    from its first line, and the release's last section ends before the tables (the titles used to
    be missed, the release's last section running over every table page)."""
    w = Writer(header=None)
    _release(w)
    titles = ["CONSOLIDATED STATEMENTS OF INCOME", "RECONCILIATIONS OF GAAP REPORTED TO NON-GAAP ADJUSTED INFORMATION",
              "NOTES TO REVENUES TABLE INFORMATION"]
    for k, title in enumerate(titles):
        if k:
            w.new_page()
        w.y += 60
        for _ in range(3):
            for row in ROWS:
                w.line(row, 9)
        page = w.page
        assert page is not None
        y = 50.0
        for line in ("EXAMPLE INC. AND SUBSIDIARY COMPANIES", title, "(UNAUDITED)"):
            width = pymupdf.get_text_length(line, fontname="helv", fontsize=9)
            page.insert_text(((612 - width) / 2, y), line, fontsize=9, fontname="helv")
            y += 11
    found = _sections(w.save(tmp_path / "release.pdf"))
    assert [(n.depth, n.title, n.start_page, n.end_page) for n in found[-4:]] == [
        (1, RELEASE_HEADS[-1], 3, 3)] + [(1, t, 4 + k, 4 + k) for k, t in enumerate(titles)]
