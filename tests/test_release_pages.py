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


def _block_last(w: Writer, block: list[str], first: bool = False) -> None:
    """A table page written figures first and its title block (9-point capitals, not bold, centred) last,
    though it prints at the top."""
    if not first:
        w.new_page()
    w.y += 60
    for _ in range(3):
        for row in ROWS:
            w.line(row, 9)
    page = w.page
    assert page is not None
    y = 50.0
    for line in block:
        width = pymupdf.get_text_length(line, fontname="helv", fontsize=9)
        page.insert_text(((612 - width) / 2, y), line, fontsize=9, fontname="helv")
        y += 11


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
    table under it (``Certain Line Items``): each page is a section titled by both title rows without
    ``(continued)`` (those pages used to be no section at all and went to the statement page before
    them; then they were titled by the row under the continued title alone, which does not say what it
    reconciles)."""
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
        (1, "Consolidated Balance Sheet", 4, 4)] + [
        (1, f"Reconciliation of GAAP and Non-GAAP Information {sub}", 5 + k, 5 + k) for k, sub in enumerate(subtitles)]


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
        _block_last(w, ["EXAMPLE INC. AND SUBSIDIARY COMPANIES", title, "(UNAUDITED)"], first=not k)
    found = _sections(w.save(tmp_path / "release.pdf"))
    assert [(n.depth, n.title, n.start_page, n.end_page) for n in found[-4:]] == [
        (1, RELEASE_HEADS[-1], 3, 3)] + [(1, t, 4 + k, 4 + k) for k, t in enumerate(titles)]


def test_a_page_repeating_the_title_block_continues_its_section(tmp_path: Path) -> None:
    """Two pages of notes under one title block (``NOTES TO ... - (UNAUDITED)`` under the registrant's
    name, printed atop both) are one section over both pages, titled without the legend and the dash
    before it; the table page after them starts its own (the second page used to be a second section of
    the same title, ``NOTES TO CONSOLIDATED STATEMENTS OF INCOME -``)."""
    w = Writer(header=None)
    _release(w)
    company = "EXAMPLE INC. AND SUBSIDIARY COMPANIES"
    notes = "NOTES TO CONSOLIDATED STATEMENTS OF INCOME - (UNAUDITED)"
    _block_last(w, [company, "CONSOLIDATED STATEMENTS OF INCOME", "(UNAUDITED)"], first=True)
    _block_last(w, [company, notes])
    _block_last(w, [company, notes])
    _block_last(w, [company, "NON-GAAP FINANCIAL MEASURE: ADJUSTED INCOME"])
    found = _sections(w.save(tmp_path / "release.pdf"))
    assert [(n.title, n.start_page, n.end_page) for n in found[-3:]] == [
        ("CONSOLIDATED STATEMENTS OF INCOME", 4, 4), ("NOTES TO CONSOLIDATED STATEMENTS OF INCOME", 5, 6),
        ("NON-GAAP FINANCIAL MEASURE: ADJUSTED INCOME", 7, 7)]


def test_tables_of_one_title_for_two_periods_are_two_sections_named_by_their_period(tmp_path: Path) -> None:
    """Revenue tables titled on the registrant's line (``EXAMPLE INC. - REVENUES``) for the quarter and
    for the half year, a regional table after each: four sections, each titled by its table's title and,
    since two pages share each title, its period (the pages titled on the registrant's line used to be
    no section, and the two regional pages two sections of one title)."""
    w = Writer(header=None)
    _release(w)
    periods = ["SECOND-QUARTER 2023 and 2022 - (UNAUDITED)", "SIX MONTHS 2023 and 2022 - (UNAUDITED)"]
    for k, period in enumerate(periods):
        _block_last(w, ["EXAMPLE INC. - REVENUES", period], first=not k)
        _block_last(w, ["EXAMPLE INC.", "INTERNATIONAL REVENUES BY GEOGRAPHIC REGION", period])
    found = _sections(w.save(tmp_path / "release.pdf"))
    assert [(n.title, n.start_page, n.end_page) for n in found[-4:]] == [
        ("REVENUES, SECOND-QUARTER 2023 and 2022", 4, 4),
        ("INTERNATIONAL REVENUES BY GEOGRAPHIC REGION, SECOND-QUARTER 2023 and 2022", 5, 5),
        ("REVENUES, SIX MONTHS 2023 and 2022", 6, 6),
        ("INTERNATIONAL REVENUES BY GEOGRAPHIC REGION, SIX MONTHS 2023 and 2022", 7, 7)]


def test_a_continued_title_over_the_same_block_continues_and_over_another_period_does_not(tmp_path: Path) -> None:
    """A cash flow statement's second page (``(continued)``, same legend) continues its section; two
    reconciliation pages of ``Certain Line Items`` (both ``(continued)``), one for the quarters and one
    for the years, are two sections named by their periods, and a last page with no table title of its
    own under the continued title is a section of its own (the title block decides, not the word
    ``(continued)``; such pages used to be no section and went to the page before)."""
    w = Writer(header=None)
    _release(w)
    _table_page(w, [COMPANY, "Consolidated Statement of Cash Flows", "(in millions)"], first=True)
    _table_page(w, [COMPANY, "Consolidated Statement of Cash Flows (continued)", "(in millions)"])
    recon = "Reconciliation of GAAP and Non-GAAP Information (continued)"
    for period in ("Quarters Ended December 31, 2022 and December 25, 2021",
                   "Years Ended December 31, 2022 and December 25, 2021"):
        _table_page(w, [COMPANY, recon, "Certain Line Items", period, "(in millions, unaudited)"])
    _table_page(w, [COMPANY, recon, "(unaudited)"])
    found = _sections(w.save(tmp_path / "release.pdf"))
    title = "Reconciliation of GAAP and Non-GAAP Information"
    assert [(n.title, n.start_page, n.end_page) for n in found[-4:]] == [
        ("Consolidated Statement of Cash Flows", 4, 5),
        (f"{title} Certain Line Items, Quarters Ended December 31, 2022 and December 25, 2021", 6, 6),
        (f"{title} Certain Line Items, Years Ended December 31, 2022 and December 25, 2021", 7, 7),
        (title, 8, 8)]


DIVISIONS = ("North America Foods", "Latin America", "Europe", "Asia Pacific")


def _results_page(w: Writer, period: str) -> None:
    """A period's results: a page opening with its bold summary head in the text's size, over a table whose
    right-hand columns are spanned by a larger bold row (a column group's header, not a section); then a
    page opening with a bold head ending in a colon, each division's results under its name in bold (the
    same names for every period)."""
    w.line(f"Summary of {period} Performance", 11, bold=True)
    w.y += 6
    w.line("Operating Profit and EPS", 12, bold=True, x=360)
    w.row([(LEFT_CELL, ""), (400, "Reported"), (470, "Core"), (540, "Currency")], 9, bold=True)
    for name in DIVISIONS:
        w.row([(LEFT_CELL, name), (400, "12"), (470, "9"), (540, "(2)")], 9)
    w.y += 12
    w.para("Net revenue rose in every division, and operating profit in all but one. " * 8, size=11)
    w.new_page()
    w.line(f"Discussion of {period} Reported Division Results:", 11, bold=True)
    for name in DIVISIONS:
        w.y += 8
        w.line(name, 11, bold=True)
        w.para("Operating profit increased, reflecting effective net pricing and productivity savings, partially "
               "offset by higher commodity costs and operating cost increases in the period. " * 3, size=11)


LEFT_CELL = 72.0


def test_a_release_head_opening_its_page_is_a_section_and_a_column_header_is_not(tmp_path: Path) -> None:
    """A release sets its section heads in bold at its text's size, each opening its page (``Summary of
    Fourth-Quarter Performance``, ``Discussion of ... Results:``, ``Guidance and Outlook``), beside division
    names in the same bold printed again for every period and a larger bold row over a table's right-hand
    columns; its
    back pages set ``Cautionary Statement`` in bold at their own smaller text size. The page heads are
    sections (the page before the first is left short: the release breaks its pages before its parts),
    the back page's head one after the statement; the division names and the columns' header are not
    (the page heads used to be minor headings, the columns' header a section of each results page, and
    the back page's head unread)."""
    w = Writer(header=None)
    w.heading("Example Corporation Reports Fourth Quarter Results", size=14)
    w.para(LOREM, size=11)
    w.new_page()  # the release breaks its page before each part, the page above left short
    _results_page(w, "Fourth-Quarter")
    w.new_page()
    _results_page(w, "Full-Year")
    w.new_page()
    w.line("Guidance and Outlook", 11, bold=True)
    w.para(LOREM * 2, size=11)
    _table_page(w, [COMPANY, "Consolidated Statement of Income", "(in millions)"])
    w.new_page()
    w.line("Cautionary Statement", 10, bold=True)
    w.para(LOREM * 3, size=10)
    found = _sections(w.save(tmp_path / "release.pdf"))
    assert [(n.depth, n.title, n.start_page, n.end_page) for n in found] == [
        (1, "Summary of Fourth-Quarter Performance", 2, 2),
        (1, "Discussion of Fourth-Quarter Reported Division Results", 3, 3),
        (1, "Summary of Full-Year Performance", 4, 4),
        (1, "Discussion of Full-Year Reported Division Results", 5, 5),
        (1, "Guidance and Outlook", 6, 6), (1, "Consolidated Statement of Income", 7, 7),
        (1, "Cautionary Statement", 8, 8)]


def test_a_bold_head_opening_a_page_after_a_full_one_stays_a_sub_head(tmp_path: Path) -> None:
    """A report with larger section headings whose bold sub-heads at the text's size run on from page to
    page: the sub-head the flow happens to put atop a page, after a full page, is a sub-head like its
    siblings, not a section (no page before it is left short)."""
    w = Writer(header=None)
    for k, title in enumerate(("Operations Review", "Risk Factors", "Properties")):
        w.heading(title, size=14)
        for sub in range(3):
            w.line(f"{title} Topic {'ABC'[sub]}", 11, bold=True)
            w.para(LOREM * 4, size=11)
        if k == 0:
            while w.y < 700:  # fill the page, then a sub-head opens the next one
                w.para("The figures are checked against the ledger every quarter.", size=11)
            w.new_page()
            w.line("Capital Expenditures", 11, bold=True)
            w.para(LOREM * 4, size=11)
    found = _sections(w.save(tmp_path / "report.pdf"))
    assert "Capital Expenditures" not in [n.title for n in found]
    assert [n.title for n in found if n.depth == 1] == ["Operations Review", "Risk Factors", "Properties"]
