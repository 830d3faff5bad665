"""Printed table-of-contents detection (placeholder until issue 3's TOC work lands)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Mark, SourceDoc

__all__ = ["TocResult", "toc_marks"]


@dataclass
class TocResult:
    """Verified marks from a printed TOC plus counts for the tree's audit record."""

    marks: list[Mark]
    toc_pages: list[int] = field(default_factory=list)  # 0-based unit indexes of the TOC itself
    entries: int = 0  # entries parsed from the TOC
    placed: int = 0  # entries verified on a page and kept
    dropped: list[str] = field(default_factory=list)  # titles that could not be placed
    warnings: list[str] = field(default_factory=list)


def toc_marks(doc: SourceDoc) -> TocResult | None:
    """Find, parse and place the printed TOC of ``doc``; ``None`` when there is none."""
    return None
