"""Heads inside items and table rows that are not heads, on 10-Ks generated in the test: a short item
walked through by larger heads, a statement titled again on its next page, a row label under column headers
of years, run-in heads in a heading size (issue 8)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
from structgen import Writer, ten_k_opening

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes
from treebuild.structure.filing.items import sec_headings

DETECT = BuildSettings(ignore_outline=True, subdivide=False)

ITEM_5 = "Item 5. Market for Registrant's Common Equity and Related Stockholder Matters"
ITEM_5_HEADS = ["Market Information", "Holders", "Dividends", "Recent Sales of Unregistered Securities",
                "Purchases of Equity Securities by the Issuer"]


def _node(roots: list[Node], title: str) -> Node:
    return next(n for r in roots for n in r.walk() if n.title == title)


def _short_item_five(path: Path, heads: list[str]) -> Path:
    """A 10-K whose ``Item 5`` fits on one page: ``heads`` in 12 points over 10-point text, each
    with a short paragraph, all on that page; long Items before and after it."""
    w = ten_k_opening()
    w.fill_pages(12)
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading(ITEM_5, size=10, bold=True, space=14)
    for head in heads:
        w.heading(head, size=12, bold=False)
        w.line("The registrant states the facts this paragraph of the Item asks for.")
        w.y += 6
    w.new_page()
    w.heading("Item 7. Management's Discussion and Analysis", size=10, bold=True, space=14)
    w.fill_pages(12)
    return w.save(path)


def test_a_short_item_walked_through_by_larger_heads_keeps_them(tmp_path: Path) -> None:
    """A short Item is read whole and heads crowded on one page are paragraph heads, but five or
    more heads set larger than the body, each title once, walk through the Item one by one (Item 5's
    ``Market Information``, ``Holders``, ``Dividends`` ...): they are its sub-sections (they used to be
    dropped with the Item read whole). Three such heads on one page stay paragraph heads."""
    roots, _ = build_nodes(read(_short_item_five(tmp_path / "five.pdf", ITEM_5_HEADS)), DETECT)
    assert [c.title for c in _node(roots, ITEM_5).children] == ITEM_5_HEADS
    roots, _ = build_nodes(read(_short_item_five(tmp_path / "three.pdf", ITEM_5_HEADS[:3])), DETECT)
    assert _node(roots, ITEM_5).children == []


ITEM_8 = "Item 8. Financial Statements and Supplementary Data"
STATEMENTS = ["CONSOLIDATED BALANCE SHEETS", "CONSOLIDATED BALANCE SHEETS", "CONSOLIDATED STATEMENTS OF INCOME",
              "CONSOLIDATED STATEMENTS OF CASH FLOWS"]


def _statements_ten_k(path: Path) -> Path:
    """A 10-K whose Item 8 holds its statements, one page each, titled in 12-point bold capitals; the
    balance sheet runs over two pages (assets; liabilities and equity) with its title on both."""
    w = ten_k_opening()
    w.fill_pages(12)
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading(ITEM_8, size=10, bold=True, space=14)
    w.paras(2)
    for title in STATEMENTS:
        w.new_page()
        w.heading(title, size=12, bold=True)
        for row in ("Cash and equivalents", "Receivables", "Inventories", "Total"):
            w.line(row)
            w.y -= 12.5
            w.line("1,234", x=470)
    w.new_page()
    w.heading("Item 9. Changes in and Disagreements with Accountants", size=10, bold=True, space=14)
    w.fill_pages(3)
    return w.save(path)


def test_a_statement_titled_again_on_its_next_page_is_one_section(tmp_path: Path) -> None:
    """A balance sheet printed over two pages under the same title is one statement: the title on
    its second page opens no second ``CONSOLIDATED BALANCE SHEETS`` section (it used to)."""
    roots, _ = build_nodes(read(_statements_ten_k(tmp_path / "tenk.pdf")), DETECT)
    item = _node(roots, ITEM_8)
    assert [c.title for c in item.children] == STATEMENTS[1:]
    assert (item.children[0].start_page, item.children[0].end_page) == (item.start_page + 1, item.start_page + 2)


ITEM_7 = "Item 7. Management's Discussion and Analysis"
MDNA_HEADS = ["Results of Operations", "Segment Results", "Liquidity", "Capital Resources", "Contractual Obligations",
              "Critical Accounting Estimates"]
GROUPS = ["Net sales", "Operating profit", "Cash flows", "Total debt", "Commitments", "Pension cost"]


def _mdna_opening() -> Writer:
    """A writer holding a 10-K's cover, a 6-page Item 1, ``PART II`` and the MD&A's Item heading."""
    w = ten_k_opening()
    w.fill_pages(6)
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading(ITEM_7, size=10, bold=True, space=14)
    return w


def _item_8_and_save(w: Writer, path: Path) -> Path:
    """Item 8 on a new page, six pages long, then the file saved."""
    w.new_page()
    w.heading("Item 8. Financial Statements and Supplementary Data", size=10, bold=True, space=14)
    w.fill_pages(6)
    return w.save(path)


def _tables_ten_k(path: Path) -> Path:
    """A 10-K whose MD&A sections each open a page with a table: years as column headers at the same
    height on every such page, a bold row label in the body's size (``Net sales``) over rows of figures;
    the sections' own heads are set like the labels, bold in the body's size, under a wider gap."""
    w = _mdna_opening()
    w.paras(2)
    for head, group in zip(MDNA_HEADS, GROUPS, strict=True):
        w.new_page()
        w.y = 56.0  # the table opens the page, its years in the band where running headers sit
        for x, year in ((430.0, "2022"), (480.0, "2021"), (530.0, "2020")):
            w.line(year, bold=True, x=x)
            w.y -= 12.5
        w.y += 14
        w.line(group, bold=True)
        for row in ("Aeronautics", "Missiles", "Space"):
            w.line(row, x=84)
            for x in (430.0, 480.0, 530.0):
                w.y -= 12.5
                w.line("1,234", x=x)
        w.heading(head, size=10, bold=True, space=14)
        w.paras(3)
    return _item_8_and_save(w, path)


def test_a_table_row_label_under_column_headers_of_years_is_no_heading(tmp_path: Path) -> None:
    """A bold label in the body's size between a table's column headers of years and its rows of
    figures is a group label inside the table, not a sub-section, even where the years row repeats at
    one height page after page and is taken for page furniture (the labels used to become MD&A's
    sub-sections beside its real heads)."""
    roots, _ = build_nodes(read(_tables_ten_k(tmp_path / "tenk.pdf")), DETECT)
    assert [c.title for c in _node(roots, ITEM_7).children] == MDNA_HEADS


COUNTRIES = ["Argentina", "Chile", "Puerto Rico", "Reference Rate Reform"]


def _run_in(w: Writer, head: str, size: float, bold: bool = False) -> None:
    """A paragraph opened by ``head`` in ``size`` points, a dash and the text running on in the body's
    10 points on the same line."""
    assert w.page is not None
    font = "hebo" if bold else "helv"
    w.y += 8
    w.page.insert_text((72, w.y + 10), head, fontsize=size, fontname=font)
    x = 72 + pymupdf.get_text_length(head, fontname=font, fontsize=size)
    w.page.insert_text((x, w.y + 10), " - In the year the currency devalued and the", fontsize=10,
                       fontname="helv")
    w.y += 12.5
    w.para("subsidiaries there saw their revenue fall while their costs rose with inflation. " * 3)


def _run_in_ten_k(path: Path) -> Path:
    """A 10-K whose MD&A sections are 14-point heads; under ``Macroeconomic and Political`` four
    paragraphs open with a 12-point run-in head (``Argentina - In the year ...``) and a fifth section
    has a 12-point head of its own line; under ``Liquidity`` the paragraphs open with bold run-in heads
    in the body's size."""
    w = _mdna_opening()
    w.paras(1)
    w.heading("Overview", size=14, bold=False)
    w.paras(3)
    w.heading("Macroeconomic and Political", size=14, bold=False)
    w.paras(1)
    for head in COUNTRIES:
        _run_in(w, head, 12)
    w.heading("United States", size=12, bold=False)
    w.paras(2)
    w.heading("Liquidity", size=14, bold=False)
    for head in ("Stock Repurchase Program", "Dividends", "Credit Facilities"):
        _run_in(w, head, 10, bold=True)
    w.paras(2)
    return _item_8_and_save(w, path)


def test_run_in_heads_in_a_heading_size_are_sub_sections(tmp_path: Path) -> None:
    """A head set in a heading size at the start of its paragraph's first line, the text running on
    after a dash in the body's size, is a heading of that size: with the head of its own line in that
    size they walk through ``Macroeconomic and Political`` (the reader used to keep one size per line,
    the paragraph's, and the run-in heads were lost). Bold run-in heads in the body's size stay
    paragraph heads."""
    roots, _ = build_nodes(read(_run_in_ten_k(tmp_path / "tenk.pdf")), DETECT)
    mdna = _node(roots, ITEM_7)
    assert [c.title for c in mdna.children] == ["Overview", "Macroeconomic and Political", "Liquidity"]
    assert [c.title for c in _node(roots, "Macroeconomic and Political").children] == COUNTRIES + ["United States"]
    assert _node(roots, "Liquidity").children == []


def _part_over_item_rows(path: Path) -> Path:
    """A 10-K whose Parts are centred in 10-point bold, each over its first Item's row: the label at the
    left margin and the title in a column of its own (``ITEM 1.`` | ``Business``), as many filings print."""
    w = ten_k_opening()
    w.fill_pages(2)
    w.new_page()
    parts = [("PART II", [("ITEM 5.", "Market for Registrant's Common Equity"),
                          ("ITEM 7.", "Management's Discussion and Analysis")]),
             ("PART III", [("ITEM 10.", "Directors, Executive Officers and Corporate Governance"),
                           ("ITEM 11.", "Executive Compensation")])]
    for part, items in parts:
        w.centred(part, size=10, bold=True)
        w.y += 2  # the Item's row a point or two under the Part's line
        for label, title in items:
            assert w.page is not None
            for x, text in ((72.0, label), (130.0, title)):
                w.page.insert_text((x, w.y + 10), text, fontsize=10, fontname="hebo")
            w.y += 15
            w.paras(2)
    return w.save(path)


def test_a_part_over_its_first_items_row_is_not_titled_with_the_items_title(tmp_path: Path) -> None:
    """``PART III`` centred over ``ITEM 10.`` | ``Directors, ...``: the title beside the Item's label is the
    Item's, never the Part's (the Part was titled ``PART III Directors, ...``, and a contents' bare ``PART III``
    took that title)."""
    heads = sec_headings(read(_part_over_item_rows(tmp_path / "parts.pdf")))
    assert [h.title for h in heads if h.kind == "part"] == ["PART I", "PART II", "PART III"]
    items = [h.title for h in heads if h.kind == "item"]
    assert "ITEM 5. Market for Registrant's Common Equity" in items
    assert "ITEM 10. Directors, Executive Officers and Corporate Governance" in items
