"""Structure sources as plug-ins: each proposes section starts (marks) for a document.

A source reads the document and its :class:`~treebuild.structure.layout.Layout` and returns a
:class:`Proposal`: marks in document order, each with its origin and confidence, the role the
proposal can play in the combination (``sections``: a whole tree; ``skeleton``: top levels that
finer headings nest under; ``headings``: typographic headings to nest) and its warnings. The
combine policy (``treebuild.structure.policy``) chooses and merges proposals; SEC filings have
their own source in ``treebuild.structure.filing``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Protocol

from ..model import Mark, Pos, SourceDoc, StructureSource, Usage
from ..settings import ModelConfig
from .combine import levels_from_numbering
from .declared import declared_marks
from .heuristics import HEURISTICS as H
from .layout import Layout
from .outline.marks import outline_marks
from .outline.quality import assess_outline
from .typography.headings import Heading, to_marks
from .windows import window_marks

__all__ = ["Proposal", "Source", "OutlineSource", "DeclaredSource", "TocSource", "HeadingsSource", "ModelSource",
           "WindowsSource"]


@dataclass
class Proposal:
    """What one source proposes: marks (document order) and how they may be used."""

    origin: StructureSource  # the source's name, used in the tree's ``method``
    marks: list[Mark] = field(default_factory=list)
    role: str = "sections"  # "sections" | "skeleton" | "headings"
    warnings: list[str] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)  # role "headings": with their typography
    partial: bool = False  # a skeleton that leaves finer sections to other sources

    def __bool__(self) -> bool:
        return bool(self.marks)


class Source(Protocol):
    """A structure source: ``propose(doc, layout)`` returns its marks as a :class:`Proposal`."""

    name: StructureSource

    def propose(self, doc: SourceDoc, layout: Layout) -> Proposal: ...




class OutlineSource:
    """The PDF outline, when ``outline.quality`` finds it trustworthy."""

    name = StructureSource.outline

    def propose(self, doc: SourceDoc, layout: Layout) -> Proposal:
        if not doc.outline:
            return Proposal(self.name)
        verdict = assess_outline(doc.outline, len(doc.units))
        warnings = list(verdict.reasons)
        if not verdict.usable:
            warnings.append("outline ignored: it does not describe the document's sections")
            return Proposal(self.name, warnings=warnings)
        marks = outline_marks(dataclasses.replace(doc, outline=verdict.entries), layout.furniture)
        n = len(doc.units)
        partial = bool(marks) and doc.paged and (
            verdict.kind == "relevelled" or len(marks) < max(H.min_outline_entries, n // H.partial_outline_pages)
            or (n > H.flat_outline_pages and max(m.level for m in marks) == 1))
        return Proposal(self.name, marks, warnings=warnings, partial=partial)


class DeclaredSource:
    """Headings the format declares (DOCX styles and outline levels, Markdown ``#``)."""

    name = StructureSource.headings

    def propose(self, doc: SourceDoc, layout: Layout) -> Proposal:
        return Proposal(self.name, declared_marks(doc))


class TocSource:
    """The printed table of contents, placed on the body pages; dotted numbers fix its levels."""

    name = StructureSource.toc

    def propose(self, doc: SourceDoc, layout: Layout) -> Proposal:
        toc = layout.toc()
        if toc is None:
            return Proposal(self.name, role="skeleton")
        marks = levels_from_numbering(toc.marks) if toc.marks else []
        sparse = len(toc.marks) < H.sparse_toc * len(doc.units)
        return Proposal(self.name, marks, role="skeleton", warnings=list(toc.warnings), partial=sparse)


class HeadingsSource:
    """Typographic headings and numbering (minor run-in heads left out)."""

    name = StructureSource.headings

    def propose(self, doc: SourceDoc, layout: Layout) -> Proposal:
        headings = layout.scan().major()
        return Proposal(self.name, to_marks(headings), role="headings", headings=headings)


class ModelSource:
    """Opt-in: sections proposed by the model over page windows, each title verified on its page."""

    name = StructureSource.model

    def __init__(self, config: ModelConfig, usage: Usage):
        self.config, self.usage = config, usage

    def propose(self, doc: SourceDoc, layout: Layout) -> Proposal:
        from .model_fallback import model_structure

        proposed = model_structure(doc, self.config, self.usage, furniture=layout.furniture)
        warnings: list[str] = []
        if proposed.marks and proposed.dropped:
            warnings.append(f"model structure: {len(proposed.dropped)} of {proposed.proposed} proposed "
                            f"section(s) not found on their pages and dropped")
        if not proposed.marks:
            warnings.append("the model proposed no section that could be verified on its page")
        return Proposal(self.name, proposed.marks, warnings=warnings)


class WindowsSource:
    """Page windows: the last resort, so that no section is too large to read."""

    name = StructureSource.windows

    def __init__(self, max_pages: int, max_tokens: int):
        self.max_pages, self.max_tokens = max_pages, max_tokens

    def propose(self, doc: SourceDoc, layout: Layout) -> Proposal:
        return Proposal(self.name, window_marks(doc, Pos(0, 0), doc.end(), max_pages=self.max_pages,
                                                max_tokens=self.max_tokens, level=1, title=doc.display_title))
