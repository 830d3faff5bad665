"""Structure stage: choose the section starts of a document, then assemble the tree.

Sources are tried in a fixed order of trust: the PDF outline, headings the format declares,
then (issue 3) printed TOC, typographic headings and numbering, and page windows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Mark, Node, SourceDoc
from ..settings import BuildSettings
from .assemble import assemble
from .declared import declared_marks
from .outline import outline_marks

__all__ = ["StructureResult", "detect_marks", "build_nodes"]


@dataclass
class StructureResult:
    marks: list[Mark]
    method: str
    warnings: list[str] = field(default_factory=list)


def detect_marks(doc: SourceDoc, settings: BuildSettings) -> StructureResult:
    """Pick the most trustworthy structure source available for ``doc``."""
    if doc.outline and not settings.ignore_outline:
        marks = outline_marks(doc)
        if marks:
            return StructureResult(marks, "outline")
    marks = declared_marks(doc)
    if marks:
        return StructureResult(marks, "headings")
    return StructureResult([], "single")


def build_nodes(doc: SourceDoc, settings: BuildSettings) -> tuple[list[Node], StructureResult]:
    result = detect_marks(doc, settings)
    roots, clamped = assemble(doc, result.marks)
    if clamped:
        result.warnings.append(f"{clamped} section start(s) pointed before the previous one and were moved forward")
    return roots, result
