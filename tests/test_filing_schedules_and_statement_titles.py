"""Statement schedules and titles in filings, each class on a filing generated in the test: the schedules
printed after the signatures, title blocks over statements and printed TOCs, table pages titled under the
company name, column headers and large unnumbered titles (first found in the filings' misses, issue 8)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from structgen import LOREM, Writer, filing_with_tail, ten_k_with_item_one

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)


def _tree(roots: list[Node]) -> list[tuple[int, str, int]]:
    """(depth, title, start page) of every detected section."""
    return [(n.depth, n.title, n.start_page or 0) for r in roots for n in r.walk() if n.origin != "preface"]


def _ten_k(w: Writer) -> None:
    """Cover, Parts and Items up to Item 16, and the Signatures page."""
    w.centred("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 17)
    w.heading("FORM 10-K", size=17, space=40)
    w.paras(2)
    w.new_page()
    for part, items in (("PART I", ["Item 1. Business", "Item 1A. Risk Factors", "Item 2. Properties"]),
                        ("PART IV", ["Item 15. Exhibits and Financial Statement Schedules",
                                     "Item 16. Form 10-K Summary"])):
        w.heading(part, size=10, bold=True, space=14)
        for item in items:
            w.heading(item, size=10, bold=True, space=14)
            w.paras(2)
    w.new_page()
    w.centred("SIGNATURES", 10)
    w.paras(1)


def _schedule_page(w: Writer, label: str, name: str, part: str, period: str) -> None:
    """A schedule page's title block, centred in bold: company, label and name, the statement, the
    period; then a table's rows."""
    w.new_page()
    w.centred("EXAMPLE CORPORATION", 10)
    w.centred(f"{label} {name}" if name else label, 10)
    w.centred(part, 10)
    w.centred(period, 10)
    for row in ("Cash and cash equivalents    70    84", "Accounts receivable    12    15"):
        w.line(row, 8)


def test_schedules_after_the_signatures_are_sections_with_their_statements(tmp_path: Path) -> None:
    """Schedule I prints the parent's balance sheet, statements and notes after the signatures, one
    page each under a title block, behind the auditor's report on the schedules; a lone Schedule II
    follows. They are a ``Financial Statement Schedules`` section with the report, one section per
    schedule (label and name, not the company or the period) and the statements and numbered notes
    inside it. (Each page's title block used to be one heading, ``SCHEDULE I CONDENSED FINANCIAL
    INFORMATION OF PARENT BALANCE SHEETS DECEMBER 31, 2022 AND 2021``, under the Signatures.)"""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _ten_k(w)
    w.new_page()
    w.centred("Report of Independent Registered Public Accounting Firm", 10)
    w.para("To the Stockholders and the Board of Directors of Example Corporation")
    w.paras(2)
    name = "CONDENSED FINANCIAL INFORMATION OF PARENT"
    _schedule_page(w, "SCHEDULE I", name, "BALANCE SHEETS", "DECEMBER 31, 2022 AND 2021")
    _schedule_page(w, "SCHEDULE I", name, "STATEMENTS OF OPERATIONS", "YEARS ENDED DECEMBER 31, 2022 AND 2021")
    w.new_page()
    w.centred("EXAMPLE CORPORATION", 10)
    w.centred("SCHEDULE I", 10)
    w.centred("NOTES TO SCHEDULE I", 10)
    w.line("1. Application of Significant Accounting Principles", bold=True)
    w.para(LOREM)
    w.line("2. Guarantees and Letters of Credit", bold=True)
    w.para(LOREM)
    _schedule_page(w, "SCHEDULE II", "", "VALUATION AND QUALIFYING ACCOUNTS", "FOR THE YEARS ENDED DECEMBER 31, 2022")
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    tree = _tree(roots)
    sig = next(i for i, (_, t, _) in enumerate(tree) if t == "SIGNATURES")
    assert tree[sig + 1:] == [
        (1, "Financial Statement Schedules", 5),
        (2, "Report of Independent Registered Public Accounting Firm", 5),
        (2, "SCHEDULE I CONDENSED FINANCIAL INFORMATION OF PARENT", 6),
        (3, "BALANCE SHEETS", 6),
        (3, "STATEMENTS OF OPERATIONS", 7),
        (3, "NOTES TO SCHEDULE I", 8),
        (4, "1. Application of Significant Accounting Principles", 8),
        (4, "2. Guarantees and Letters of Credit", 8),
        (2, "SCHEDULE II VALUATION AND QUALIFYING ACCOUNTS", 9),
    ]


def test_a_lone_schedule_after_the_signatures_is_top_level(tmp_path: Path) -> None:
    """One schedule after the signatures (``Schedule II - Valuation and Qualifying Accounts`` under
    the company's name) is a top-level section of its own, titled without the company's name (it
    used to be the Signatures' sub-section, company name first)."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _ten_k(w)
    w.new_page()
    w.line("Example Corporation and Subsidiaries", bold=True)
    w.line("Schedule II - Valuation and Qualifying Accounts", bold=True)
    w.line("In Millions", 8, bold=True)
    w.line("Allowance for doubtful accounts:    12    15", 8)
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert _tree(roots)[-2:] == [(1, "SIGNATURES", 4), (1, "Schedule II - Valuation and Qualifying Accounts", 5)]


def test_the_printed_tocs_title_is_not_merged_with_the_title_block_above_it(tmp_path: Path) -> None:
    """The contents page opens with a centred bold title block (form, fiscal year) and ``TABLE OF
    CONTENTS`` right under it in the same type: the TOC's own title is the section, alone (it used
    to be one title with the block above it, ``Form 10-K For the Fiscal Year Ended ... TABLE OF
    CONTENTS``)."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    w.centred("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 17)
    w.heading("FORM 10-K", size=17, space=40)
    w.paras(2)
    w.new_page()
    w.new_page()  # page 2 is the contents page, filled in below
    rows: list[tuple[str, int]] = []
    for part, items in (("Part I", ["Item 1. Business", "Item 1A. Risk Factors", "Item 2. Properties"]),
                        ("Part II", ["Item 7. Management's Discussion and Analysis", "Item 8. Financial Statements"])):
        rows.append((part, w.heading(part, size=10, bold=True, space=14)))
        for item in items:
            rows.append((item, w.heading(item, size=10, bold=True, space=14)))
            w.fill_pages(1)
    contents = w.doc[1]
    y = 100.0
    for line in ("Example Corp", "Form 10-K", "For the Fiscal Year Ended December 31, 2022", "TABLE OF CONTENTS"):
        width = pymupdf.get_text_length(line, fontname="hebo", fontsize=10)
        contents.insert_text(((612 - width) / 2, y), line, fontsize=10, fontname="hebo")
        y += 22 if line == "Example Corp" else 12
    y += 20
    for title, page in rows:
        contents.insert_text((72, y), title, fontsize=9, fontname="hebo" if title.startswith("Part") else "helv")
        contents.insert_text((520, y), str(page), fontsize=9, fontname="helv")
        y += 14
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert [(d, t, p) for d, t, p in _tree(roots) if p == 2] == [(1, "TABLE OF CONTENTS", 2)]


def test_a_company_name_over_a_statements_title_is_not_part_of_it(tmp_path: Path) -> None:
    """An earnings release's statement pages print the registrant's name on the line above the
    statement's title, in the same bold type: the section is ``Consolidated Balance Sheets`` (it
    used to be ``Example Corporation Consolidated Balance Sheets``, which a reader, or an outline,
    does not call it)."""
    w = Writer(header=None)
    w.heading("Example Corporation Reports Fourth Quarter Results", size=16)
    w.paras(3)
    w.heading("Segment Results", size=11)
    w.paras(3)
    for title in ("Consolidated Statements of Earnings", "Consolidated Balance Sheets"):
        w.new_page()
        w.line("Example Corporation", 11, bold=True)
        w.line(title, 11, bold=True)
        w.line("(unaudited; in millions)", 11, bold=True)
        w.y += 10
        for row in ("Net sales    17,000    16,000", "Cost of sales    15,000    14,000"):
            w.line(row, 8)
    roots, _ = build_nodes(read(w.save(tmp_path / "release.pdf")), DETECT)
    titles = [t for _, t, _ in _tree(roots)]
    assert titles[-2:] == ["Consolidated Statements of Earnings", "Consolidated Balance Sheets"]


def test_an_index_row_naming_the_audit_firm_finds_the_report(tmp_path: Path) -> None:
    """Item 8's index of the statements names the audit firm in the report's row (``Report of
    Example Audit LLP, Independent Registered Public Accounting Firm``); the report's page prints
    the title without it. The report is still one of Item 8's sections (its row used to find no
    line on the pages, and the report was missing from the tree)."""
    from structgen import filing_with_tail

    path, pages = filing_with_tail(tmp_path / "tenk.pdf", statements_in_item8=True,
                                   auditor_in_index="Example Audit LLP")
    roots, _ = build_nodes(read(path), DETECT)
    item8 = next(n for r in roots for n in r.walk() if n.title.startswith("Item 8."))
    report = "Report of Independent Registered Public Accounting Firm"
    assert [(c.title, c.start_page) for c in item8.children][0] == (report, pages[report])


def test_table_pages_titled_under_the_company_name_are_sections(tmp_path: Path) -> None:
    """An earnings release prints its statements and supplemental tables one per page, each under
    the registrant's name (repeated atop every such page) in a bold type smaller than the release's
    11-point text: every page's title is a section (they used to be dropped as body-size bold lines,
    minor next to the release's larger headings)."""
    w = Writer(header=None)
    for head in ("Example Corporation Reports Fourth Quarter Results", "Division Results", "Guidance and Outlook"):
        w.heading(head, size=14)
        w.paras(4, text=LOREM)
        w.para(LOREM * 3, size=11)
        w.new_page()
    tables = ["Consolidated Statement of Income", "Supplemental Financial Information",
              "Consolidated Statement of Cash Flows", "Consolidated Balance Sheet"]
    for n, title in enumerate(tables):
        if n:
            w.new_page()
        w.centred("Example Corporation and Subsidiaries", 10)
        w.centred(title, 10)
        w.centred("(in millions)", 10)
        w.y += 10
        for row in ("Net revenue    27,996    25,248", "Cost of sales    13,420    12,130", "Gross profit    14,576"):
            w.line(row, 9)
    roots, _ = build_nodes(read(w.save(tmp_path / "release.pdf")), DETECT)
    found = [(t, p) for _, t, p in _tree(roots)]
    assert found[-4:] == [(t, 4 + n) for n, t in enumerate(tables)]


def test_two_column_headers_on_one_row_are_not_a_heading(tmp_path: Path) -> None:
    """A release's summary table groups its columns under two bold headers on one row, far apart
    (``Revenue`` over the growth columns, ``Volume`` over the volume ones), set larger than the
    text: not a section titled ``Revenue Volume`` (it used to be one, on every such page)."""
    w = Writer(header=None)
    for head in ("Example Corporation Reports Fourth Quarter Results", "Division Results", "Guidance and Outlook"):
        w.heading(head, size=14)
        w.paras(2)
        w.y += 20
        assert w.page is not None
        w.page.insert_text((280, w.y), "Revenue", fontsize=12, fontname="hebo")
        w.page.insert_text((470, w.y), "Volume", fontsize=12, fontname="hebo")
        w.y += 20
        for row in ("Frito-Lay North America    25    1    18", "Quaker Foods North America    16    1    10"):
            w.line(row, 9)
        w.paras(2)
        w.new_page()
    roots, _ = build_nodes(read(w.save(tmp_path / "release.pdf")), DETECT)
    assert not any("Revenue" in t for _, t, _ in _tree(roots))


def test_a_large_unnumbered_title_set_tight_under_text_starts_a_section(tmp_path: Path) -> None:
    """Item 1's sub-sections are 16-point titles over 10-point text; one of them follows the previous
    paragraph's last line with less than half its size of space, in the same text block: it is a
    section like the others (it used to be read as a line of that paragraph, and its pages went to the
    sub-section before it)."""
    heads = ["Overview", "Customers", "Environmental Regulation", "Human Capital"]

    def section(w: Writer, n: int, head: str) -> None:
        assert w.page is not None
        if n == 2:  # no gap: the title's line follows the paragraph's like its next line
            w.y -= 3
            w.page.insert_text((72, w.y + 16), head, fontsize=16, fontname="helv")
            w.y += 22
        else:
            w.heading(head, size=16, bold=False)
        w.fill_pages(2)

    roots, _ = build_nodes(read(ten_k_with_item_one(tmp_path / "tenk.pdf", heads, section)), DETECT)
    item1 = next(n for r in roots for n in r.walk() if n.title == "Item 1. Business")
    assert [c.title for c in item1.children] == heads


QUARTER_STATEMENTS = ["CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)",
                      "CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)",
                      "CONDENSED CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY (Unaudited)",
                      "CONDENSED CONSOLIDATED STATEMENTS OF CASH FLOWS (Unaudited)"]


def _quarter(path: Path, heads: list[str], lower_equity: bool = True) -> tuple[Path, dict[str, int]]:
    """A 10-Q whose statements are titled in a bold type smaller than its text, under the company's
    name set a line space above them in a row of its own; ``heads`` (Part and Item lines) open the
    first statement's page above the name. Returns the PDF and each statement's 1-based page."""
    w = Writer(header=None)
    w.heading("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", size=14)
    w.heading("FORM 10-Q", size=16)
    w.paras(2)
    w.new_page()
    for head in heads:
        w.line(head, size=8, bold=True)
    pages = {}
    for k, title in enumerate(QUARTER_STATEMENTS):
        if k:
            w.new_page()
            w.y += 10 if lower_equity and title.endswith("EQUITY (Unaudited)") else 0  # the name set lower
        w.centred("Example Inc.", 8)
        w.y += 12
        pages[title] = w.centred(title, 8)
        w.centred("(In millions, except per share amounts)", 8, bold=False)
        w.row([(72, ""), (420, "2023"), (500, "2022")], size=7)
        for i, label in enumerate(["Net sales", "Cost of sales", "Gross margin", "Research", "Operating income",
                                   "Other income", "Taxes", "Net income"]):
            w.row([(72, label), (420, f"{(i + 3) * 1234 + k:,}"), (500, f"{(i + 2) * 1111:,}")], size=8)
    w.new_page()
    w.line("Example Inc.", size=8, bold=True)
    w.line("Notes to Condensed Consolidated Financial Statements (Unaudited)", size=8, bold=True)
    w.para(LOREM * 3, size=9)
    w.new_page()
    for item in ("Item 2.    Management's Discussion and Analysis of Financial Condition and Results of Operations",
                 "Item 3.    Quantitative and Qualitative Disclosures About Market Risk",
                 "Item 4.    Controls and Procedures"):
        w.line(item, size=8, bold=True)
        w.fill_pages(2)
    return w.save(path), pages


def test_a_statement_title_under_the_company_name_in_a_row_of_its_own_starts_a_section(tmp_path: Path) -> None:
    """A 10-Q's statements titled in a bold type smaller than the text, under the company's name set
    a line space above them in a row of its own: where the name is the page's running furniture (the
    same place on most pages) the title block was found; where a page sets the name lower (its own
    row first on the page), the title under it is the page's title all the same."""
    path, pages = _quarter(tmp_path / "quarter.pdf", ["PART I - FINANCIAL INFORMATION",
                                                      "Item 1.    Financial Statements"])
    roots, _ = build_nodes(read(path), DETECT)
    starts = {title: page for _, title, page in _tree(roots)}
    for title in QUARTER_STATEMENTS[1:]:
        name = title.removesuffix(" (Unaudited)")
        assert starts.get(name) == pages[title], (name, _tree(roots))


@pytest.mark.parametrize("heads", [["PART I - FINANCIAL INFORMATION", "Item 1.    Financial Statements"],
                                   ["Item 1. Financial Statements"]])
def test_a_statement_under_the_items_heading_on_its_page_is_a_section_from_the_company_name(
        tmp_path: Path, heads: list[str]) -> None:
    """The first statement printed on the page that opens ``Item 1. Financial Statements`` (its Part
    and Item headings above the company's name and the statement's title, the table under them) is
    a section of its own: it starts on that page at the company's name, mid-page, after the Item's
    heading, and the Item keeps its own start above it (the statement used to be no section: the
    Item's page had no title block at its top)."""
    path, pages = _quarter(tmp_path / "quarter.pdf", heads, lower_equity=False)
    doc = read(path)
    roots, _ = build_nodes(doc, DETECT)
    first = QUARTER_STATEMENTS[0].removesuffix(" (Unaudited)")
    node = next((n for r in roots for n in r.walk() if n.title == first), None)
    assert node is not None, _tree(roots)
    page = pages[QUARTER_STATEMENTS[0]]
    text = doc.units[page - 1].text
    assert node.start_page == page and node.start.char == text.index("Example Inc.") > text.index("Item 1.")
    item = next(n for r in roots for n in r.walk() if n.title.startswith("Item 1."))
    assert item.start_page == page and item.start.char == text.index("Item 1.")
    assert node in item.children and [c.title for c in item.children][:len(QUARTER_STATEMENTS)] == \
        [t.removesuffix(" (Unaudited)") for t in QUARTER_STATEMENTS]


@pytest.mark.parametrize("equity", ["Consolidated Statements of Total Equity and Redeemable Interest",
                                    "Consolidated Statements of Shareowners' Equity"])
def test_equity_statements_worded_by_what_they_total_are_statements(tmp_path: Path, equity: str) -> None:
    """An equity statement titled by what it totals (``... of Total Equity and Redeemable Interest``)
    or by the holders a filer calls shareowners is a statement like the others: its page starts a
    section, found from the headings alone (no index)."""
    titles = ["Consolidated Statements of Income", "Consolidated Balance Sheets", equity,
              "Consolidated Statements of Cash Flows"]
    path, pages = filing_with_tail(tmp_path / "tenk.pdf", index=False, statement_titles=titles)
    roots, _ = build_nodes(read(path), DETECT)
    starts = {title: page for _, title, page in _tree(roots)}
    for title in titles:
        assert starts.get(title) == pages[title], (title, _tree(roots))
