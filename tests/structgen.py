"""PDF generators for structure-detection tests: real PDFs written with PyMuPDF.

``Writer`` lays text out top-down (headings, wrapped paragraphs, page breaks) with Helvetica
(``helv``) for body text and Helvetica-Bold (``hebo``) for bold, and stamps a running header and a
page-number footer on every page, so tests see the same furniture real documents have.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf

WIDTH, HEIGHT = 612, 792
LEFT, RIGHT = 72, 540
TOP, BOTTOM = 90, 720
BODY = 10.0

LOREM = (
    "The committee reviewed the program in detail and found that the controls operate as designed. "
    "Each unit reports its figures every quarter and the figures are checked against the ledger. "
    "Exceptions are recorded, explained and closed within thirty days of the review. "
)


class Writer:
    """Flowing layout: ``heading`` and ``para`` advance a cursor; pages break automatically."""

    def __init__(self, header: str | None = "Annual Program Manual", footer: bool = True, header_size: float = 12.0):
        self._doc = pymupdf.open()
        self.header = header
        self.header_size = header_size
        self.footer = footer
        self._page: pymupdf.Page | None = None
        # The writer's own lines go into one Shape per page, committed when the page is left or read
        # (``page``, ``doc``, ``save``): the same text operators page.insert_text writes, without a
        # Shape, a font lookup of the page and a commit per line (most of a generated 10-K's time).
        self._shape: pymupdf.Shape | None = None
        self.y = TOP
        self.new_page()

    def _flush(self) -> None:
        if self._shape is not None:
            self._shape.commit()
            self._shape = None

    @property
    def page(self) -> pymupdf.Page | None:
        """The current page, with every line written so far on it (a direct write lands after them)."""
        self._flush()
        return self._page

    @property
    def doc(self) -> pymupdf.Document:
        self._flush()
        return self._doc

    def _text(self, point: tuple[float, float], text: str, size: float, fontname: str) -> None:
        if self._shape is None:
            assert self._page is not None
            self._shape = self._page.new_shape()
        self._shape.insert_text(point, text, fontsize=size, fontname=fontname)

    def new_page(self) -> None:
        self._page = self.doc.new_page(width=WIDTH, height=HEIGHT)
        n = self._doc.page_count
        if self.header:
            # bold and larger than the body: only its repetition tells it from a heading
            self._text((LEFT, 40), self.header, self.header_size, "hebo")
        if self.footer:
            self._text((WIDTH / 2 - 5, 760), str(n), 9, "helv")
        self.y = TOP

    @property
    def page_number(self) -> int:
        return self._doc.page_count

    def _line(self, text: str, size: float, bold: bool, x: float = LEFT, font: str | None = None) -> None:
        if self.y + size > BOTTOM:
            self.new_page()
        self._text((x, self.y + size), text, size, font or ("hebo" if bold else "helv"))
        self.y += size * 1.25

    def heading(self, text: str, size: float = 14.0, bold: bool = True, space: float = 10.0) -> int:
        """Write a heading; returns its 1-based page number."""
        if self.y + size * 3 > BOTTOM:
            self.new_page()
        self.y += space
        self._line(text, size, bold)
        self.y += 4
        return self.page_number

    def para(self, text: str = LOREM, size: float = BODY, bold: bool = False) -> None:
        """A wrapped paragraph of body text followed by a gap."""
        width = int((RIGHT - LEFT) / (size * 0.5))
        words = text.split()
        line: list[str] = []
        for w in words:
            if line and len(" ".join(line + [w])) > width:
                self._line(" ".join(line), size, bold)
                line = []
            line.append(w)
        if line:
            self._line(" ".join(line), size, bold)
        self.y += size * 0.8

    def paras(self, n: int, text: str = LOREM) -> None:
        for _ in range(n):
            self.para(text * 2)

    def fill_pages(self, pages: int) -> None:
        """Body text until ``pages`` more pages have started."""
        target = self.page_number + pages
        while self.page_number < target:
            self.para(LOREM * 3)

    def save(self, path: Path, toc: list[list[object]] | None = None) -> Path:
        if toc:
            self.doc.set_toc(toc)
        self.doc.save(path)
        self.doc.close()
        return path

    def line(self, text: str, size: float = BODY, bold: bool = False, x: float = LEFT, font: str | None = None) -> int:
        """One line at ``x`` (no wrapping; ``font``: a base-14 name such as ``cour``, else Helvetica);
        returns its 1-based page number."""
        self._line(text, size, bold, x, font)
        return self.page_number

    def row(self, cells: list[tuple[float, str]], size: float = BODY, bold: bool = False) -> int:
        """One row of a table: each cell's text set flush right at its ``x`` (figures), the first cell
        flush left at ``x`` (the row label); returns its 1-based page number."""
        if self.y + size > BOTTOM:
            self.new_page()
        for k, (x, text) in enumerate(cells):
            font = "hebo" if bold else "helv"
            width = 0.0 if k == 0 else pymupdf.get_text_length(text, fontname=font, fontsize=size)
            self._text((x - width, self.y + size), text, size, font)
        self.y += size * 1.5
        return self.page_number

    def right(self, text: str, size: float = BODY, bold: bool = True) -> int:
        """One line set flush right (an exhibit label); returns its 1-based page number."""
        width = pymupdf.get_text_length(text, fontname="hebo" if bold else "helv", fontsize=size)
        return self.line(text, size, bold, x=RIGHT - width)

    def centred(self, text: str, size: float = BODY, bold: bool = True) -> int:
        width = pymupdf.get_text_length(text, fontname="hebo" if bold else "helv", fontsize=size)
        return self.line(text, size, bold, x=(LEFT + RIGHT - width) / 2)


FILING_NOTES = ["Summary of Significant Accounting Policies", "Revenue", "Income Taxes", "Debt",
                "Shareholders' Equity", "Reportable Segments"]
FILING_STATEMENTS = ["Consolidated Statements of Income", "Consolidated Balance Sheets",
                     "Consolidated Statements of Cash Flows"]
BODY_LINE = "(iv) requires payment of an Employee's benefit to an Alternate Payee in a form that maintains value;"
PLAN_ARTICLES = ["ARTICLE ONE Definitions", "ARTICLE TWO Eligibility", "ARTICLE THREE Benefits",
                 "ARTICLE FOUR Administration"]


def filing_with_tail(path: Path, *, index: bool = True, statements_in_item8: bool = False,
                     auditor_in_index: str = "", continued: bool = False,
                     statement_titles: list[str] | None = None) -> tuple[Path, dict[str, int]]:
    """A 10-K whose tail follows Item 16 the way filings print it: Signatures (with a "Signature
    Capacity" table), the financial statements (an "Index to Financial Statements" page with page
    numbers, the auditor's report, the statements, numbered notes, one of them not bold), then the
    exhibits, each labelled at the top right of its page: a plan in a larger body size with
    ARTICLE headings, numbered definitions and a list item that reads like a heading, a list of
    subsidiaries and a certification.

    With ``statements_in_item8`` the statements (index page included) are printed inside Item 8
    instead and the tail has Signatures and the exhibits only. With ``auditor_in_index`` the index
    names the audit firm in the report's row (``Report of <firm>, Independent ...``), as some
    filers print it, and the report's own page does not. With ``continued`` every statement runs
    over two pages with its title printed on both. ``statement_titles`` replaces
    :data:`FILING_STATEMENTS`. Returns the path and the start page of every section by title.
    """
    titles = statement_titles if statement_titles is not None else FILING_STATEMENTS
    w = Writer(header="Example Corp 2022 Form 10-K")
    pages: dict[str, int] = {}
    w.heading("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", size=14)
    w.heading("FORM 10-K", size=16)
    w.paras(2)
    w.new_page()

    def item(label: str, title: str, n: int = 2) -> None:
        pages[label] = w.heading(f"{label}. {title}", size=10, bold=True)
        w.paras(n)

    def statements() -> None:
        index_page = 0
        if index:
            pages["Index"] = w.page_number
            w.centred("Example Corporation", 10)
            w.centred("Index to Financial Statements", 10)
            index_page = w.page_number
            w.new_page()
        pages["Report of Independent Registered Public Accounting Firm"] = \
            w.heading("Report of Independent Registered Public Accounting Firm", size=10, bold=True)
        w.paras(3)
        for title in titles:
            for part in range(2 if continued else 1):
                w.new_page()
                page = w.centred(title, 10)
                pages.setdefault(title, page)
                w.centred("Example Corporation and Subsidiary Companies", 10, bold=False)
                for row in ("Net sales", "Cost of sales", "Gross margin", "Operating income"):
                    w.line(f"{row} {part + 1}" if part else row)
                    w.y -= 12.5
                    w.line("1,234", x=470)
        w.new_page()
        pages["Notes to Consolidated Financial Statements"] = \
            w.centred("Notes to Consolidated Financial Statements", 10)
        for n, title in enumerate(FILING_NOTES, start=1):
            key = f"{n}. {title}"
            pages[key] = w.heading(key, size=10, bold=n != 5)  # note 5 is set in the body type
            w.paras(4)
        if index:
            page = w.doc[index_page - 1]
            y = 150.0
            page.insert_text((480, y), "Page", fontsize=10, fontname="hebo")
            rows = [("Report of Independent Registered Public Accounting Firm", 72.0)]
            rows += [(t, 72.0) for t in titles]
            rows += [("Notes to Consolidated Financial Statements", 72.0)]
            rows += [(f"{n}. {t}", 96.0) for n, t in enumerate(FILING_NOTES, start=1)]
            for title, x in rows:
                y += 15
                shown = title.replace("Report of ", f"Report of {auditor_in_index}, ") if auditor_in_index else title
                page.insert_text((x, y), shown, fontsize=10, fontname="helv")
                page.insert_text((490, y), str(pages[title]), fontsize=10, fontname="helv")

    pages["PART I"] = w.heading("PART I", size=10, bold=True, space=14)
    item("Item 1", "Business")
    w.fill_pages(6)  # a filing's statements lie far beyond where a printed TOC is looked for
    item("Item 1A", "Risk Factors")
    w.fill_pages(4)
    pages["PART II"] = w.heading("PART II", size=10, bold=True, space=14)
    item("Item 7", "Management's Discussion and Analysis")
    w.fill_pages(4)
    pages["Item 8"] = w.heading("Item 8. Financial Statements and Supplementary Data", size=10, bold=True)
    if statements_in_item8:
        w.new_page()
        statements()
        w.new_page()
    else:
        w.para("The financial statements are set forth after the signatures of this report.")
    item("Item 9", "Changes in and Disagreements with Accountants")
    pages["PART IV"] = w.heading("PART IV", size=10, bold=True, space=14)
    item("Item 15", "Exhibits, Financial Statement Schedules")
    item("Item 16", "Form 10-K Summary", 1)
    w.new_page()
    pages["Signatures"] = w.centred("Signatures", 10)
    w.para("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused "
           "this report to be signed on its behalf by the undersigned, thereunto duly authorized.")
    assert w.page is not None
    w.page.insert_text((150, w.y + 10), "Signature", fontsize=10, fontname="hebo")
    w.page.insert_text((400, w.y + 10), "Capacity", fontsize=10, fontname="hebo")
    w.y += 24
    w.line("/s/ Jane Doe    Chief Executive Officer", x=150)
    if not statements_in_item8:
        w.new_page()
        statements()
    plan = 11.5
    w.new_page()
    pages["Exhibit 10.40"] = w.right("Exhibit 10.40", 10)
    w.centred("EXAMPLE CORPORATION", plan)
    w.centred("SUPPLEMENTAL INVESTMENT PLAN", plan)
    w.centred("(As Amended and Restated Effective January 1, 2023)", plan)
    for a, article in enumerate(PLAN_ARTICLES, start=1):
        w.y += 10
        pages[article] = w.centred(article, plan)
        for d in range(1, 4):
            w.line(f"{a}.{d} \u201cTerm {d}\u201d means the thing defined in this section of the plan.", plan)
            w.para(LOREM, size=plan)
        if a == 2:
            w.line(BODY_LINE, plan)
            w.line("and", plan)
        w.para(LOREM * 2, size=plan)
    w.new_page()
    pages["Exhibit 21"] = w.right("Exhibit 21", 10)
    w.centred("Subsidiaries of Example Corporation", 10)
    w.line("Example Holdings LLC    Delaware")
    w.new_page()
    pages["Exhibit 31.1"] = w.right("Exhibit 31.1", 10)
    w.centred("CERTIFICATION PURSUANT TO SECTION 302 OF THE SARBANES-OXLEY ACT OF 2002", 10, bold=False)
    w.para("I, Jane Doe, certify that: 1. I have reviewed this Annual Report on Form 10-K of Example Corporation.")
    return w.save(path), pages


def ten_k_opening(header: str = "Example Corp 2022 Form 10-K") -> Writer:
    """A writer holding a 10-K's cover page, then ``PART I`` and ``Item 1. Business`` in 10-point bold;
    ``header`` runs on every page."""
    w = Writer(header=header)
    w.centred("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 17)
    w.heading("FORM 10-K", size=17, space=40)
    w.paras(2)
    w.new_page()
    w.heading("PART I", size=10, bold=True, space=14)
    w.heading("Item 1. Business", size=10, bold=True, space=14)
    return w


def tight_title(w: Writer, title: str, size: float) -> None:
    """``title`` right under the paragraph above, as close as the paragraph's own lines."""
    assert w.page is not None
    w.y -= 6  # the paragraph's gap taken back: the title's box touches the last line's
    w.page.insert_text((72, w.y + size), title, fontsize=size, fontname="helv")
    w.y += size + 8


def ten_k_with_item_one(path: Path, heads: list[str], section: Callable[[Writer, int, str], None]) -> Path:
    """A 10-K (cover page, ``PART I``) whose ``Item 1. Business`` holds ``heads``, each written with its
    text by ``section(writer, index, head)``, then Items 1A and 2."""
    w = ten_k_opening()
    for n, head in enumerate(heads):
        section(w, n, head)
    w.heading("Item 1A. Risk Factors", size=10, bold=True, space=14)
    w.paras(2)
    w.heading("Item 2. Properties", size=10, bold=True, space=14)
    w.paras(2)
    return w.save(path)
