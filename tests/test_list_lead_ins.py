"""A list item's bold lead-in is no section title (issue 24 item 3), on generated PDFs; the headings around
the list stay."""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import LEFT, Writer

from treebuild.readers import read
from treebuild.structure.typography.filters import list_glyph
from treebuild.structure.typography.headings import scan_headings

LEADS = ["Centralization of manufacturing and supply technology platforms",
         "Expansion of the retail network in new markets"]
TEXT = "We consolidated our plants and moved the supply platforms into one organisation during the year. "


def _titles(path: Path) -> list[str]:
    return [h.title for h in scan_headings(read(path)).headings]


@pytest.mark.parametrize("glyph_x", [LEFT, LEFT - 30], ids=["glyph-beside", "glyph-in-the-margin"])
def test_a_bullets_bold_lead_in_is_no_section_title(tmp_path: Path, glyph_x: float) -> None:
    """A strategy's bullets, each opened by a bold lead-in on a line of its own, the bullet set in the bold
    face (read back as ``·``), beside the lead-in or out in the margin: the lead-ins are no sections; the
    headings over and after the list are."""
    w = Writer(header="Example Corp Annual Report")
    w.heading("Business Overview", size=12)
    w.paras(2)
    w.heading("Our Strategy", size=12)
    w.paras(1)
    for lead in LEADS:
        w.y += 6
        assert w.page is not None
        w.page.insert_text((glyph_x, w.y + 10), "\u2022", fontsize=10, fontname="hebo")
        w.page.insert_text((LEFT + 18, w.y + 10), lead, fontsize=10, fontname="hebo")
        w.y += 13
        w.para(TEXT * 2)
    w.heading("Results of Operations", size=12)
    w.paras(2)
    titles = _titles(w.save(tmp_path / "strategy.pdf"))
    assert ["Business Overview", "Our Strategy", "Results of Operations"] == \
        [t for t in titles if t != "Example Corp Annual Report"]


def test_list_glyphs() -> None:
    """The glyphs that open a list item, as readers give them: a bullet, a middle dot (WinAnsi's reading
    of a bold bullet), a dash, a symbol font's private-use glyph, a text face's ``o``; not a word, a
    section sign or a number."""
    for glyph in ("\u2022", "\u00b7", "\u25aa", "\u2013", "-", "\uf0b7", "\uf0a7", "o", "\u2022Centralization"):
        assert list_glyph(glyph), glyph
    for token in ("on", "Overview", "\u00a7", "1.", "(a)", "--"):
        assert not list_glyph(token), token
