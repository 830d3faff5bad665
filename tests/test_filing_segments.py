"""Segment results in MD&A as sections named by their segment (issue 24 item 2), on 10-Ks generated in
the test: the filing names its segments (a sentence listing them, or ``<name> segment`` in the text),
MD&A discusses each under a head of its own set in italics at the body size (or bold), and a table of
MD&A and the segment note print the same names as row labels."""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import LOREM, Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

SEGMENTS = ["Cloud Services", "Devices and Gaming", "Consumer Health"]
DETECT = BuildSettings(ignore_outline=True, subdivide=False)
ITALIC, BOLD = "heit", "hebo"


def _ten_k(path: Path, *, head_font: str = ITALIC, listed: bool = True) -> tuple[Path, dict[str, list[int]]]:
    """A 10-K: Item 1 names the segments (``listed``: in a sentence listing them; else only as
    ``<name> segment`` in the text), MD&A's results walk through them under heads in ``head_font`` at
    the body size (an overview and a results discussion each), with a revenue table whose row labels are
    the segments' names and an italic head that is no segment (``Product``); then Liquidity, Item 8
    with a segment note whose table lists the names again. Returns each segment head's pages."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    pages: dict[str, list[int]] = {s: [] for s in SEGMENTS}
    w.centred("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 14)
    w.heading("FORM 10-K", size=16)
    w.paras(2)
    w.new_page()
    w.heading("PART I", size=10, bold=True, space=14)
    w.heading("Item 1. Business", size=10, bold=True)
    if listed:
        w.para("Our business is organized into three reportable segments: Cloud Services, Devices and Gaming, "
               "and Consumer Health. " + LOREM)
    else:
        w.para("The Cloud Services segment sells subscriptions. The Devices and Gaming segment sells hardware. "
               "Our Consumer Health segment sells over-the-counter products. " + LOREM)
    w.fill_pages(2)
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading("Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
              size=10, bold=True)
    w.paras(2)
    w.heading("Overview", size=12, bold=True)
    for s in SEGMENTS:
        pages[s].append(w.line(s, font=head_font))
        w.paras(2)
    w.new_page()
    w.heading("Results of Operations", size=12, bold=True)
    w.para("Revenue by reportable segment was as follows (in millions):")
    for s in SEGMENTS:
        w.row([(72, s), (400, "1,234"), (480, "1,100")])
    w.line("Product", font=ITALIC)  # an italic head naming no segment: a paragraph head
    w.paras(1)
    for s in SEGMENTS:
        w.new_page()
        pages[s].append(w.line(s, font=head_font))
        w.paras(3)
    w.heading("Liquidity and Capital Resources", size=12, bold=True)
    w.paras(3)
    w.new_page()
    w.heading("Item 8. Financial Statements and Supplementary Data", size=10, bold=True)
    w.new_page()
    w.heading("Notes to Consolidated Financial Statements", size=12, bold=True)
    w.heading("Note 1 — Segment Information", size=10, bold=True)
    w.para("We report our results in three reportable segments.")
    for s in SEGMENTS:
        w.row([(72, s), (400, "1,234"), (480, "1,100")])
    w.paras(1)
    return w.save(path), pages


def _nodes(path: Path) -> list[Node]:
    roots, _ = build_nodes(read(path), DETECT)
    return [n for r in roots for n in r.walk()]


def _parent(nodes: list[Node], node: Node) -> Node:
    return next(p for p in nodes if node in p.children)


@pytest.mark.unit
@pytest.mark.parametrize("font", [ITALIC, BOLD])
def test_each_segments_discussion_in_mdna_is_a_section_named_by_the_segment(tmp_path: Path, font: str) -> None:
    path, pages = _ten_k(tmp_path / "segments.pdf", head_font=font)
    nodes = _nodes(path)
    for name, at in pages.items():
        found = [n for n in nodes if n.title == name]
        assert [n.start_page for n in found] == at, (name, [(n.title, n.start_page) for n in nodes])
        for n in found:
            ancestors = []
            p = n
            while any(p in q.children for q in nodes):
                p = _parent(nodes, p)
                ancestors.append(p.title)
            assert any("Management's Discussion" in t for t in ancestors), (name, ancestors)
    # the results' segments are children of "Results of Operations", and the last one ends at Liquidity
    results = next(n for n in nodes if n.title == "Results of Operations")
    assert [c.title for c in results.children] == SEGMENTS
    liquidity = next(n for n in nodes if n.title == "Liquidity and Capital Resources")
    assert liquidity not in results.children[-1].children


@pytest.mark.unit
def test_segments_named_only_as_name_segment_in_the_text(tmp_path: Path) -> None:
    path, pages = _ten_k(tmp_path / "named.pdf", listed=False)
    nodes = _nodes(path)
    assert sorted((n.title, n.start_page) for n in nodes if n.title in SEGMENTS) == \
        sorted((s, p) for s, at in pages.items() for p in at)


@pytest.mark.unit
def test_segment_names_in_tables_and_heads_naming_no_segment_are_not_sections(tmp_path: Path) -> None:
    path, pages = _ten_k(tmp_path / "rows.pdf")
    nodes = _nodes(path)
    # one node per head printed in MD&A: the row labels of MD&A's table and of the segment note are not heads
    assert len([n for n in nodes if n.title in SEGMENTS]) == sum(len(at) for at in pages.values())
    assert not any(n.title == "Product" for n in nodes)
    note = next(n for n in nodes if n.title.startswith("Note 1"))
    assert not any(c.title in SEGMENTS for c in note.walk())


@pytest.mark.unit
def test_an_oblique_face_named_obl_is_italic() -> None:
    """Apple's 10-K sets its segments' heads in ``HelveticaLTStd-Obl``: an oblique face by its name."""
    from treebuild.readers.fonts import italic_font
    assert italic_font("HelveticaLTStd-Obl") and italic_font("ABCDEF+HelveticaLTStd-BoldObl")
    assert not italic_font("HelveticaLTStd-Roman") and not italic_font("HelveticaLTStd-Bd")
