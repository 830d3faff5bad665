"""Sub-sections below the first level of MD&A (issue 8), each class on a 10-K generated
in the test: the sections a printed TOC lists inside MD&A keep their own heads (unless the heads crowd
one page), and a larger title set tight under the previous paragraph, the text below it a block of its
own, starts a section."""

from __future__ import annotations

from pathlib import Path

from structgen import LOREM, Writer, ten_k_with_item_one, tight_title

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)


def _node(roots: list[Node], title: str) -> Node:
    return next(n for r in roots for n in r.walk() if n.title == title)


def _cover(w: Writer) -> None:
    w.centred("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 17)
    w.heading("FORM 10-K", size=17, space=40)
    w.paras(2)
    w.new_page()


def _contents(w: Writer, rows: list[tuple[str, int, int]]) -> None:
    """The contents page (page 2): one row per entry, indented by level, with its page number."""
    page = w.doc[1]
    page.insert_text((250, 100), "TABLE OF CONTENTS", fontsize=10, fontname="hebo")
    y = 130.0
    for title, level, number in rows:
        page.insert_text((72 + 14 * (level - 1), y), title, fontsize=9, fontname="hebo" if level == 1 else "helv")
        page.insert_text((520, y), str(number), fontsize=9, fontname="helv")
        y += 14


def _mdna_ten_k(path: Path, own_look: str = "") -> Path:
    """A 10-K whose printed TOC lists MD&A's sections; each is 2-3 pages (read whole by the page limit),
    ``Liquidity and Capital Resources`` divided by 14-point heads on pages of their own (with
    ``own_look``, one more head set like the listed sections, 16 points), ``Cash Flows`` by three heads
    a few lines apart on one page."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.new_page()  # page 2: the contents, filled in at the end
    rows: list[tuple[str, int, int]] = []

    def entry(title: str, level: int, size: float = 10.0, bold: bool = True) -> None:
        rows.append((title, level, w.heading(title, size=size, bold=bold, space=14)))

    entry("PART I", 1)
    entry("Item 1. Business", 2)
    w.fill_pages(8)
    entry("Item 1A. Risk Factors", 2)
    w.fill_pages(6)
    entry("PART II", 1)
    entry("Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations", 2)
    w.para()
    entry("Results of Operations", 3, size=16, bold=False)
    w.fill_pages(2)
    entry("Liquidity and Capital Resources", 3, size=16, bold=False)
    for head in ("Sources of Liquidity", "Long-Term Debt", "Contractual Obligations"):
        w.heading(head, size=14, bold=False)
        w.paras(3)
        w.new_page()
        if head == "Long-Term Debt" and own_look:
            w.heading(own_look, size=16, bold=False)
            w.paras(3)
            w.new_page()
    entry("Cash Flows", 3, size=16, bold=False)
    for head in ("Operating Activities", "Investing Activities", "Financing Activities"):
        w.heading(head, size=14, bold=False)
        w.para()
    w.fill_pages(2)
    entry("Item 8. Financial Statements and Supplementary Data", 2)
    w.fill_pages(8)
    _contents(w, rows)
    return w.save(path)


def test_sections_listed_inside_mdna_keep_their_own_heads(tmp_path: Path) -> None:
    """MD&A's outline runs a level below the sections its TOC lists: ``Liquidity and Capital
    Resources`` (3 pages, shorter than the page limit) keeps its three heads (short sections used to
    be read whole, inside MD&A too); the three heads of ``Cash Flows`` that crowd one page are
    paragraph heads and stay out, and so do the sub-heads of a short section outside MD&A."""
    roots, _ = build_nodes(read(_mdna_ten_k(tmp_path / "tenk.pdf")), DETECT)
    liquidity = _node(roots, "Liquidity and Capital Resources")
    assert [c.title for c in liquidity.children] == ["Sources of Liquidity", "Long-Term Debt",
                                                    "Contractual Obligations"]
    assert _node(roots, "Cash Flows").children == []
    assert [c.title for c in _node(roots, "Item 7. Management's Discussion and Analysis of Financial Condition "
                                          "and Results of Operations").children] == \
        ["Results of Operations", "Liquidity and Capital Resources", "Cash Flows"]


def test_a_title_set_tight_under_text_over_a_block_of_its_own_starts_a_section(tmp_path: Path) -> None:
    """Item 1's sub-sections are 14-point titles over 10-point text (1.4 times its size, less than a
    display title's step); one follows the previous paragraph's last line as closely as that
    paragraph's own lines, and its text is a new paragraph: it is a section like the others (it used
    to be read as the last line of the paragraph above, its pages going to the section before)."""
    heads = ["Overview", "Customers", "Environmental Regulation", "Human Capital"]

    def section(w: Writer, n: int, head: str) -> None:
        if n == 2:
            tight_title(w, head, 14)
            w.y += 4
        else:
            w.heading(head, size=14, bold=False)
        w.para(LOREM * 3)
        w.fill_pages(2)

    roots, _ = build_nodes(read(ten_k_with_item_one(tmp_path / "tenk.pdf", heads, section)), DETECT)
    assert [c.title for c in _node(roots, "Item 1. Business").children] == heads


def test_a_head_set_like_its_sections_title_does_not_outrank_the_sections_heads(tmp_path: Path) -> None:
    """Inside ``Liquidity and Capital Resources`` (a 16-point section the TOC lists) one head is set in
    16 points too, the others in 14: it ranks with them, all four are the section's sub-sections (it
    used to be the section's most prominent look, its only sub-section, and the 14-point heads were
    dropped as sub-sub-heads)."""
    roots, _ = build_nodes(read(_mdna_ten_k(tmp_path / "tenk.pdf", own_look="Consolidated Cash Flows")), DETECT)
    assert [c.title for c in _node(roots, "Liquidity and Capital Resources").children] == \
        ["Sources of Liquidity", "Long-Term Debt", "Consolidated Cash Flows", "Contractual Obligations"]
