"""Titles set tight under text in 10-Ks generated in the test: a larger title set tight under the previous
paragraph and followed by its own first sub-head (not by text), and items and MD&A sections walked through
by heads larger than the body (issue 8)."""

from __future__ import annotations

from pathlib import Path

from structgen import LOREM, Writer, ten_k_opening, ten_k_with_item_one, tight_title

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)


def _node(roots: list[Node], title: str) -> Node:
    return next(n for r in roots for n in r.walk() if n.title == title)


def test_a_title_set_tight_under_text_over_its_own_sub_head_starts_a_section(tmp_path: Path) -> None:
    """Item 1's sub-sections are 14-point titles over 10-point text, each opening with a 12-point
    sub-head (``Fiscal Year 2022 versus 2021``); one title follows the previous paragraph's last line as
    closely as that paragraph's own lines. The row under it is its sub-head, a type between the text
    above and the title, not text in the type of the paragraph above: the title is a section like the
    others (it used to be read as the last line of the paragraph above, its pages going to the section
    before)."""
    heads = ["Operating Activities", "Investing Activities", "Financing Activities", "Parent Liquidity"]

    def section(w: Writer, n: int, head: str) -> None:
        if n == 2:
            tight_title(w, head, 14)
            w.y += 4
        else:
            w.heading(head, size=14, bold=False)
        w.heading("Fiscal Year 2022 versus 2021", size=12, bold=False, space=4)
        w.para(LOREM * 3)
        w.fill_pages(2)

    roots, _ = build_nodes(read(ten_k_with_item_one(tmp_path / "tenk.pdf", heads, section)), DETECT)
    assert [c.title for c in _node(roots, "Item 1. Business").children] == heads


RISKS = ("Market Risks", "Operational Risks", "Regulatory Risks")


def _short_item_ten_k(path: Path, size: float, bold: bool, pages_apart: bool,
                      heads: tuple[str, ...] = RISKS) -> Path:
    """A 50-page 10-K whose ``Item 1A. Risk Factors`` is three pages (a section that short is read
    whole) holding ``heads`` in ``size`` points, each on a page of its own or all on one page."""
    w = ten_k_opening()
    w.fill_pages(14)
    w.heading("Item 1A. Risk Factors", size=10, bold=True, space=14)
    for head in heads:
        w.heading(head, size=size, bold=bold)
        if pages_apart:
            w.fill_pages(1)
        else:
            w.para()
    w.heading("Item 2. Properties", size=10, bold=True, space=14)
    w.fill_pages(30)
    return w.save(path)


def test_a_short_item_keeps_heads_set_larger_than_the_body_on_pages_of_their_own(tmp_path: Path) -> None:
    """A short Item is read whole (its bold paragraph heads are noise in a table of contents), but heads
    set larger than the body text, each opening a page of the Item, are a printed level of the filing's
    outline: they are the Item's sub-sections. Bold heads in the body's size, larger heads crowded on
    one page, or a single larger row (a statement page's period line) stay out."""
    item = "Item 1A. Risk Factors"
    roots, _ = build_nodes(read(_short_item_ten_k(tmp_path / "a.pdf", 12, False, True)), DETECT)
    assert [c.title for c in _node(roots, item).children] == ["Market Risks", "Operational Risks",
                                                             "Regulatory Risks"]
    roots, _ = build_nodes(read(_short_item_ten_k(tmp_path / "b.pdf", 10, True, True)), DETECT)
    assert _node(roots, item).children == []
    roots, _ = build_nodes(read(_short_item_ten_k(tmp_path / "c.pdf", 12, False, False)), DETECT)
    assert _node(roots, item).children == []
    roots, _ = build_nodes(read(_short_item_ten_k(tmp_path / "d.pdf", 12, False, True, RISKS[:1])), DETECT)
    assert _node(roots, item).children == []


def _mdna_walk_ten_k(path: Path) -> Path:
    """A 10-K whose MD&A is divided by 14-point heads over 10-point text; under ``Results of
    Operations`` five 12-point heads walk through the income statement line by line, under
    ``Critical Accounting Estimates`` three 12-point heads, under ``Segment Results`` the same two
    12-point heads for each of three segments."""
    w = ten_k_opening()
    w.fill_pages(8)
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading("Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
              size=10, bold=True, space=14)
    w.para()
    sections = {
        "Overview": [],
        "Results of Operations": ["Revenue", "Cost of Revenue", "Operating Expenses", "Interest Expense",
                                  "Income Taxes"],
        "Critical Accounting Estimates": ["Revenue Recognition", "Goodwill", "Income Taxes"],
        "Segment Results": ["Revenue Summary", "Operating Income Summary"] * 3,
    }
    for title, heads in sections.items():
        w.heading(title, size=14, bold=False)
        w.paras(2)
        for head in heads:
            w.heading(head, size=12, bold=False)
            w.paras(2)
        w.new_page()
    w.heading("Item 8. Financial Statements and Supplementary Data", size=10, bold=True, space=14)
    w.fill_pages(10)
    return w.save(path)


def test_an_mdna_section_walked_through_head_by_head_keeps_its_heads(tmp_path: Path) -> None:
    """Inside MD&A a section with five or more heads of one look below its own, each title once, is
    walked through line by line: the heads are its sub-sections (they used to be dropped as MD&A's
    second rank). Three heads are paragraph heads, and the same heads repeated for each segment are a
    repeated layout, not sub-sections: both stay out."""
    roots, _ = build_nodes(read(_mdna_walk_ten_k(tmp_path / "tenk.pdf")), DETECT)
    mdna = _node(roots, "Item 7. Management's Discussion and Analysis of Financial Condition and Results of "
                        "Operations")
    assert [c.title for c in mdna.children] == ["Overview", "Results of Operations",
                                                "Critical Accounting Estimates", "Segment Results"]
    assert [c.title for c in _node(roots, "Results of Operations").children] == \
        ["Revenue", "Cost of Revenue", "Operating Expenses", "Interest Expense", "Income Taxes"]
    assert _node(roots, "Critical Accounting Estimates").children == []
    assert _node(roots, "Segment Results").children == []
