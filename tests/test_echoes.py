"""One section per heading: the same heading found twice (by two detectors, or by subdivision
from the top of the next section's page) never becomes two nodes."""

from __future__ import annotations

from pathlib import Path

from docgen import BODY_TOP, LINE_GAP, Text, write_pdf

import treebuild
from treebuild.model import Mark, Pos
from treebuild.structure import drop_echoes
from treebuild.structure.assemble import assemble
from treebuild.structure.subdivide import subdivide


def test_same_heading_twice_in_a_row_keeps_the_shallower() -> None:
    marks = [
        Mark("Item 1. Business", 2, Pos(1, 40), "sec"),
        Mark("Item 1A. Risk Factors", 3, Pos(12, 0), "heading"),
        Mark("ITEM 1A. RISK FACTORS", 2, Pos(12, 18), "sec"),
        Mark("Item 1B. Unresolved Staff Comments", 2, Pos(19, 0), "sec"),
    ]
    out = drop_echoes(marks)
    assert [(m.title, m.level, m.pos) for m in out] == [
        ("Item 1. Business", 2, Pos(1, 40)), ("ITEM 1A. RISK FACTORS", 2, Pos(12, 0)),
        ("Item 1B. Unresolved Staff Comments", 2, Pos(19, 0))]


def test_echo_rules_leave_real_sections_alone() -> None:
    far = [Mark("Overview", 1, Pos(1, 0), "heading"), Mark("Overview", 2, Pos(1, 900), "heading")]
    assert drop_echoes(far) == far  # same title, but far apart: two sections
    authored = [Mark("Part I", 1, Pos(2, 0), "outline"), Mark("Part I", 2, Pos(2, 0), "outline")]
    assert drop_echoes(authored) == authored  # the author's outline is reproduced as it is


def test_subdivision_ignores_the_next_sections_heading_under_a_running_header(tmp_path: Path) -> None:
    header = Text("Table of Contents", 40, 9)
    pages: list[list[Text | str]] = []
    for p in range(13):
        lines: list[Text | str] = [header]
        if p == 0:
            lines.append(Text("Item 1. Business", BODY_TOP, 16, bold=True))
        if p == 5:
            lines.append(Text("Competition", BODY_TOP, 14, bold=True))
        if p == 12:
            lines.append(Text("Item 1A. Risk Factors", BODY_TOP, 16, bold=True))
        lines += [Text(f"Body sentence {k} of page {p + 1} about the business.", BODY_TOP + LINE_GAP * (k + 1))
                  for k in range(20)]
        pages.append(lines)
    doc = treebuild.read(write_pdf(tmp_path / "tenk.pdf", pages))
    item1a = doc.units[12].text.index("Item 1A")
    assert item1a > 0  # the running header comes first on the page
    marks = [Mark("Item 1. Business", 1, Pos(0, doc.units[0].text.index("Item 1.")), "sec"),
             Mark("Item 1A. Risk Factors", 1, Pos(12, item1a), "sec")]
    roots, _ = assemble(doc, marks, preface=False)
    subdivide(doc, roots, treebuild.BuildSettings())
    item1 = roots[0]
    assert [c.title for c in item1.children] == ["Competition"]
    assert [r.title for r in roots] == ["Item 1. Business", "Item 1A. Risk Factors"]
