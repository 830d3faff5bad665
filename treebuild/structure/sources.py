"""Structure sources as plug-ins: each proposes section starts (marks) for a document, in a role.

A source reads the document and a :class:`SourceContext` (the layout analysis, computed once and
shared; the build settings; the model seam, for opt-in sources) and returns a :class:`Proposal`:
marks in document order, each with its origin and confidence, the role the proposal plays in the
cascade (``treebuild.structure.policy``) and its warnings:

- ``sections``: the whole structure, as the document declares it (the PDF outline, DOCX and
  Markdown headings). The first source of this role that proposes marks wins;
- ``skeleton``: top levels that finer headings nest under (the printed TOC, a filing's Parts and
  Items). Skeletons are merged; a source that *claims* the document (it knows the document's
  form: an SEC filing) lays out the headings under the skeleton through its hooks;
- ``headings``: headings found in the text (typography and numbering), nested under a skeleton
  or standing alone;
- ``fallback``: last resorts in rank order (the model, opt-in; page windows).

Hooks (the skeleton's and the refinement's) are methods of :class:`Proposal` whose defaults are the
generic rules; a claiming source's proposal overrides them, so the cascade never names a source.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Protocol, runtime_checkable

from ..findings import Finding
from ..findings import Stage as FindingStage
from ..model import Mark, Pos, SourceDoc, StructureSource, Usage
from ..settings import BuildSettings, ModelConfig
from .combine import levels_from_numbering, nest
from .declared import declared_marks
from .heuristics import HEURISTICS as H
from .layout import Layout
from .outline.marks import outline_marks
from .outline.quality import assess_outline
from .typography.headings import Heading, to_marks
from .windows import content_namer, window_marks

__all__ = ["Role", "Proposal", "Source", "SourceContext", "OutlineSource", "DeclaredSource", "TocSource",
           "HeadingsSource", "ModelSource", "WindowsSource"]


class Role(StrEnum):
    """The part a source's proposal plays in the cascade (see the module docstring)."""

    sections = "sections"
    skeleton = "skeleton"
    headings = "headings"
    fallback = "fallback"


@dataclass(frozen=True)
class SourceContext:
    """What a source reads besides the document: the layout analysis (furniture, printed TOC,
    typographic headings; each part computed on first use and shared by every source), the build
    settings, and the model seam for opt-in sources (``model_config`` ``None``: no model)."""

    layout: Layout
    settings: BuildSettings
    model_config: ModelConfig | None = None
    usage: Usage | None = None


@dataclass
class Proposal:
    """What one source proposes: marks (document order), its role, and the hooks the cascade calls.

    The hook methods' defaults are the generic rules; a source that ``claims`` the document (it
    knows its form) returns a subclass that overrides them."""

    origin: StructureSource  # the source's kind, named in the tree's ``method``
    marks: list[Mark] = field(default_factory=list)
    role: Role = Role.sections
    warnings: list[Finding] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)  # role "headings": with their typography
    partial: bool = False  # a skeleton (or an outline) that leaves finer sections to other sources
    claims: bool = False  # a skeleton source that knows the document's form: its hooks lay the headings out

    closing: ClassVar[re.Pattern[str] | None] = None
    """Titles that close the document at the top level, never nested (a claiming source's)."""

    def __bool__(self) -> bool:
        return bool(self.marks)

    # skeleton hooks: how headings go under a skeleton (generic: finer headings fill long sections)
    def own_headings(self, headings: list[Heading]) -> list[Heading]:
        """The headings left to nest (the claiming source drops what its skeleton already reads)."""
        return headings

    def nest(self, skeleton: list[Mark], headings: list[Heading], min_pages: int) -> list[Mark]:
        """``skeleton`` with ``headings`` nested under it: in sections longer than ``min_pages``, headings
        finer than the skeleton's, each level as the peers already in the skeleton are set."""
        return nest(skeleton, headings, finer_only=True, min_pages=min_pages, peers=True)

    def nest_alone(self, headings: list[Heading]) -> list[Mark]:
        """The headings as the whole structure, when no skeleton was found."""
        return to_marks(headings)

    # refine hook: the claiming source's last word on the combined marks
    def refine(self, doc: SourceDoc, layout: Layout, marks: list[Mark]) -> list[Mark]:
        return marks


@runtime_checkable
class Source(Protocol):
    """A structure source: its kind (``name``), its ``role`` and ``rank`` (order among the sources of
    its role, lower first), and ``propose(doc, context)``. A source that does not apply to a
    document proposes no marks; one that raises is recorded as failed and the cascade goes on."""

    name: StructureSource
    role: Role
    rank: int

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal: ...


class OutlineSource:
    """The PDF outline, when ``outline.quality`` finds it trustworthy (``settings.ignore_outline``: none)."""

    name = StructureSource.outline
    role = Role.sections
    rank = 10

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        if not doc.outline or context.settings.ignore_outline:
            return Proposal(self.name)
        verdict = assess_outline(doc.outline, len(doc.units))
        warnings = list(verdict.reasons)
        if not verdict.usable:
            warnings.append(Finding("outline_ignored", FindingStage.structure,
                                    "outline ignored: it does not describe the document's sections"))
            return Proposal(self.name, warnings=warnings)
        marks = outline_marks(dataclasses.replace(doc, outline=verdict.entries), context.layout.furniture)
        n = len(doc.units)
        partial = bool(marks) and doc.paged and (
            verdict.kind == "relevelled" or len(marks) < max(H.min_outline_entries, n // H.partial_outline_pages)
            or (n > H.flat_outline_pages and max(m.level for m in marks) == 1))
        return Proposal(self.name, marks, warnings=warnings, partial=partial)


class DeclaredSource:
    """Headings the format declares (DOCX styles and outline levels, Markdown ``#``)."""

    name = StructureSource.headings
    role = Role.sections
    rank = 20

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        return Proposal(self.name, declared_marks(doc))


class TocSource:
    """The printed table of contents, placed on the body pages; dotted numbers fix its levels."""

    name = StructureSource.toc
    role = Role.skeleton
    rank = 10

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        toc = context.layout.toc()
        if toc is None:
            return Proposal(self.name, role=self.role)
        marks = levels_from_numbering(toc.marks) if toc.marks else []
        sparse = len(toc.marks) < H.sparse_toc * len(doc.units)
        return Proposal(self.name, marks, role=self.role, warnings=list(toc.warnings), partial=sparse)


class HeadingsSource:
    """Typographic headings and numbering (minor run-in heads left out)."""

    name = StructureSource.headings
    role = Role.headings
    rank = 10

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        headings = context.layout.scan().major()
        return Proposal(self.name, to_marks(headings), role=self.role, headings=headings)


class ModelSource:
    """Opt-in (``settings.structure_fallback`` and a real model): sections proposed by the model over
    page windows, each title verified on its page."""

    name = StructureSource.model
    role = Role.fallback
    rank = 10

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        config = context.model_config
        if not context.settings.structure_fallback or config is None or config.offline:
            return Proposal(self.name, role=self.role)
        from .model_fallback import model_structure

        usage = context.usage if context.usage is not None else Usage()
        proposed = model_structure(doc, config, usage, furniture=context.layout.furniture)
        warnings: list[Finding] = []
        if proposed.marks and proposed.dropped:
            warnings.append(Finding("model_sections_dropped", FindingStage.structure,
                                    f"model structure: {len(proposed.dropped)} of {proposed.proposed} proposed "
                                    "section(s) not found on their pages and dropped"))
        if not proposed.marks:
            warnings.append(Finding("model_sections_unverified", FindingStage.structure,
                                    "the model proposed no section that could be verified on its page"))
        return Proposal(self.name, proposed.marks, role=self.role, warnings=warnings)


class WindowsSource:
    """Page windows: the last resort, so that no section is too large to read."""

    name = StructureSource.windows
    role = Role.fallback
    rank = 90

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        settings = context.settings
        return Proposal(self.name, window_marks(doc, Pos(0, 0), doc.end(), max_pages=settings.max_node_pages,
                                                max_tokens=settings.max_node_tokens, level=1,
                                                title=doc.display_title, namer=content_namer(doc, context.layout)),
                        role=self.role)
