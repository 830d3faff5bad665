"""Filings pass 6 (issue 8): a larger title set tight under the previous paragraph and followed by its
own first sub-head (not by text), on a 10-K generated in the test."""

from __future__ import annotations

from pathlib import Path

from structgen import LOREM, Writer, ten_k_with_item_one

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)


def _node(roots: list[Node], title: str) -> Node:
    return next(n for r in roots for n in r.walk() if n.title == title)


def _tight(w: Writer, title: str, size: float) -> None:
    """``title`` right under the paragraph above, as close as the paragraph's own lines."""
    assert w.page is not None
    w.y -= 6  # the paragraph's gap taken back: the title's box touches the last line's
    w.page.insert_text((72, w.y + size), title, fontsize=size, fontname="helv")
    w.y += size + 8


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
            _tight(w, head, 14)
            w.y += 4
        else:
            w.heading(head, size=14, bold=False)
        w.heading("Fiscal Year 2022 versus 2021", size=12, bold=False, space=4)
        w.para(LOREM * 3)
        w.fill_pages(2)

    roots, _ = build_nodes(read(ten_k_with_item_one(tmp_path / "tenk.pdf", heads, section)), DETECT)
    assert [c.title for c in _node(roots, "Item 1. Business").children] == heads
