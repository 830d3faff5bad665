"""Rows repeated page after page in filings generated in the test: a table's row of years is no running
header but the folio is, a running header with its chapter number stays furniture, a statement titled on
each of its pages is one section, a reworded TOC entry found only in its running footer titles its pages
(issue 8)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from structgen import FILING_STATEMENTS, filing_with_tail

from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes
from treebuild.text.furniture import furniture

YEARS = ("2023", "2022", "2021")


def _tables_opening_pages(path: Path, pages: int = 6) -> Path:
    """Pages that each open with a table: its column headers of years at the same height near the top
    of every page (where a running header would sit), rows of figures under them, a folio at the foot."""
    pdf = pymupdf.open()
    for number in range(1, pages + 1):
        page = pdf.new_page(width=612, height=792)
        for x, year in zip((400.0, 460.0, 520.0), YEARS, strict=True):
            page.insert_text((x, 60), year, fontsize=10, fontname="hebo")
        for k, label in enumerate(("Net sales", "Cost of sales", "Operating profit")):
            y = 120 + 14 * k  # below the top band
            page.insert_text((72, y), f"{label} of segment {number}", fontsize=10, fontname="helv")
            for x in (400.0, 460.0, 520.0):
                page.insert_text((x, y), f"{number},{k}00", fontsize=10, fontname="helv")
        page.insert_text((72, 180), "The segment's results are discussed in the paragraphs below.", fontsize=10)
        page.insert_text((300, 760), str(number + 20), fontsize=9, fontname="helv")
    pdf.save(path)
    return path


def test_a_years_row_opening_many_pages_is_no_furniture_but_the_folio_is(tmp_path: Path) -> None:
    """A table's row of years that opens page after page at one height is the table's column headers,
    not a running header: every stage then sees it above the table's rows (a bold row label under it is
    a label inside the table). Each year alone reads like a folio; a folio stands alone on its row."""
    doc = read(_tables_opening_pages(tmp_path / "tables.pdf"))
    found, suspects = furniture(doc)
    texts = {doc.lines(u)[j].text for u, j in found | suspects}
    assert texts == {str(n + 20) for n in range(1, 7)}



def test_a_running_header_row_with_its_chapter_number_and_folio_stays_furniture(tmp_path: Path) -> None:
    """A running header printed as a row of three (chapter number, chapter title, folio) has two lines
    of figures side by side, like a table's years; text between them tells the header apart."""
    pdf = pymupdf.open()
    for number in range(1, 7):
        page = pdf.new_page(width=612, height=792)
        page.insert_text((72, 60), "2", fontsize=10, fontname="helv")
        page.insert_text((90, 60), "RESULTS OF OPERATIONS", fontsize=10, fontname="helv")
        page.insert_text((520, 60), str(number + 20), fontsize=10, fontname="helv")
        for k in range(8):
            page.insert_text((72, 140 + 14 * k), f"Line {k} of page {number} says what the segment did.", fontsize=10)
    pdf.save(tmp_path / "report.pdf")
    doc = read(tmp_path / "report.pdf")
    found, _ = furniture(doc)
    folios = {str(n + 20) for n in range(1, 7)}
    assert {doc.lines(u)[j].text for u, j in found} == {"2", "RESULTS OF OPERATIONS"} | folios


@pytest.mark.parametrize("in_item8", [False, True], ids=["after-signatures", "in-item-8"])
def test_a_statement_titled_on_each_of_its_pages_is_one_section_wherever_it_is_found(
        tmp_path: Path, in_item8: bool) -> None:
    """Statements without an index, each over two pages with its title on both: one section each,
    whether the statements follow the signatures (found from the headings alone) or sit in Item 8
    (headings nested under the Item): one rule (``statements.printed_once``) for both."""
    path, pages = filing_with_tail(tmp_path / "tenk.pdf", index=False, statements_in_item8=in_item8,
                                   continued=True)
    roots, _ = build_nodes(read(path), BuildSettings(ignore_outline=True, subdivide=False))
    titles = [n.title for r in roots for n in r.walk()]
    for title in FILING_STATEMENTS:
        assert titles.count(title) == 1
        node = next(n for r in roots for n in r.walk() if n.title == title)
        assert (node.start_page, node.end_page) == (pages[title], pages[title] + 1)


REPORT = "Report of Independent Registered Public Accounting Firm"
BODY = "The company states the facts of this section in several sentences of ordinary text here."


def _report_with_section_footers(path: Path) -> Path:
    """An annual report with a printed TOC that names its sections in its own words (``Auditor's
    Reports`` for the auditor's report) and prints each section's name at the foot of its pages, over
    the folio; in the body the report's page opens with its own title, set like the statements'."""
    toc = [(0, "Overview", 2), (0, "Financial Statements", 6), (1, "Auditor's Reports", 7),
           (1, "Balance Sheets", 10), (1, "Statements of Cash Flows", 11), (0, "Other Information", 12)]
    pages = [("Overview", 16, "Overview", 4), ("Financial Statements", 16, "Financial Statements", 1),
             (REPORT, 13, "Auditor's Reports", 3), ("Balance Sheets", 13, "Financial Statements", 1),
             ("Statements of Cash Flows", 13, "Financial Statements", 1),
             ("Other Information", 16, "Other Information", 4)]
    pdf = pymupdf.open()
    page = pdf.new_page(width=612, height=792)
    page.insert_text((72, 80), "Contents", fontsize=16, fontname="hebo")
    for k, (indent, title, ref) in enumerate(toc):
        y = 120 + 20 * k
        page.insert_text((72 + 20 * indent, y), title, fontsize=10)
        page.insert_text((520, y), str(ref), fontsize=10)
    for title, size, footer, count in pages:
        for n in range(count):
            page = pdf.new_page(width=612, height=792)
            y = 90.0
            if n == 0:
                page.insert_text((72, y), title, fontsize=size, fontname="hebo")
                y += 30
            for k in range(12):
                page.insert_text((72, y + 16 * k), f"{BODY} ({k})", fontsize=10)
            page.insert_text((72, 750), footer, fontsize=8)
            page.insert_text((300, 765), str(len(pdf)), fontsize=8)
    pdf.save(path)
    return path


def test_a_reworded_toc_entry_found_only_in_its_running_footer_is_its_pages_printed_title(tmp_path: Path) -> None:
    """The TOC's ``Auditor's Reports`` appears on its pages only in their running footer. Placed there,
    the report's own title at the top of the page became a sibling one level up that swallowed the
    statements after it; now the entry starts at the page top and takes the title printed there, and
    the statements stay its siblings under ``Financial Statements``."""
    roots, _ = build_nodes(read(_report_with_section_footers(tmp_path / "annual.pdf")),
                           BuildSettings(ignore_outline=True, subdivide=False))
    fs = next(n for n in roots if n.title == "Financial Statements")
    assert [c.title for c in fs.children] == [REPORT, "Balance Sheets", "Statements of Cash Flows"]
    report = fs.children[0]
    assert (report.start_page, report.end_page) == (7, 9) and report.start.char == 0
