"""Marks from a PDF's embedded outline (bookmarks).

The destination's y decides where on a shared page a section begins: at the first text block
whose bottom lies below the destination point. Blocks above it in the running-header band do
not count, so a section that starts at the top of a page owns the whole page.
"""

from __future__ import annotations

from ..model import Mark, Pos, SourceDoc, Unit

__all__ = ["outline_marks", "pos_from_y", "HEADER_BAND"]

HEADER_BAND = 0.10
"""Fraction of page height treated as running-header zone when snapping to a page top."""
HEADER_CHARS = 80
"""At most this much text above a destination may be a running header rather than content."""


def outline_marks(doc: SourceDoc) -> list[Mark]:
    """One mark per outline entry that points at a page of the document, in outline order."""
    marks: list[Mark] = []
    n = len(doc.units)
    entries = [e for e in doc.outline if 1 <= e.page <= n]  # others point outside this file
    positions = [pos_from_y(doc.units[e.page - 1], e.y) for e in entries]
    # A bookmark that points back before its predecessor but has children (one entry per
    # merged file, all aimed at page 1) starts where its first child starts.
    for i in range(len(entries) - 2, -1, -1):
        if i > 0 and positions[i] < positions[i - 1] and entries[i + 1].level > entries[i].level:
            positions[i] = positions[i + 1]
    for entry, pos in zip(entries, positions, strict=True):
        title = entry.title.strip() or "(untitled)"
        marks.append(Mark(title=title, level=entry.level, pos=pos, origin="outline"))
    return marks


def pos_from_y(unit: Unit, y: float | None) -> Pos:
    """Character position on a page where content at or below ``y`` starts."""
    if y is None or not unit.blocks:
        return Pos(unit.index, 0)
    height = unit.height or 792.0
    below = [b for b in unit.blocks if b[1] > y + 1.0]
    if not below:
        return Pos(unit.index, len(unit.text))
    first = min(below, key=lambda b: (b[0], b[2]))
    before = [b for b in unit.blocks if b[2] < first[2]]
    lead = unit.text[: first[2]]
    if len(lead.strip()) <= HEADER_CHARS and all(b[1] <= height * HEADER_BAND for b in before):
        return Pos(unit.index, 0)
    return Pos(unit.index, first[2])
