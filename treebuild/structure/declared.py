"""Marks from headings the format itself declares (DOCX heading styles and outline levels,
Markdown ``#`` and Setext headings)."""

from __future__ import annotations

from ..model import Mark, Origin, Pos, SourceDoc

__all__ = ["declared_marks"]


def declared_marks(doc: SourceDoc) -> list[Mark]:
    return [
        Mark(title=" ".join(u.text.split()) or "(untitled)", level=u.heading_level, pos=Pos(u.index, 0),
             origin=Origin.heading)
        for u in doc.units
        if u.heading_level is not None and u.text.strip()
    ]
