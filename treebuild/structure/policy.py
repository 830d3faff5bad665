"""The combine policy: which structure sources to ask, in what order, and how to merge them.

1. The outline, when trustworthy; a partial one (a few entries, all level 1, re-levelled from
   numbering) is completed from the printed TOC when that is much richer.
2. Headings the format declares (DOCX, Markdown). Non-paged formats stop here.
3. A skeleton, the printed TOC merged with a filing's Parts/Items, with the typographic headings
   nested under it where the skeleton leaves finer sections to find (a filing, a sparse TOC); a
   complete TOC stands alone. A filing's own rules then lay out its statements and tail.
4. Typographic headings alone (in a filing: its most prominent style and numbered heads).
5. Opt-in: the model's verified proposals. 6. Page windows.

The tree's ``method`` names the sources whose marks were used, joined with ``+``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Mark, Method, SourceDoc, StructureSource, Usage
from ..settings import BuildSettings, ModelConfig
from .combine import enrich_outline, merge_skeletons, nest
from .filing.source import FilingSource
from .layout import Layout
from .sources import DeclaredSource, HeadingsSource, ModelSource, OutlineSource, Proposal, TocSource, WindowsSource
from .typography.headings import to_marks

__all__ = ["StructureResult", "combine"]

SHORT_DOC_PARTS = 10
"""In a short document, a section longer than this fraction of it (a tenth) gets finer headings."""


@dataclass
class StructureResult:
    marks: list[Mark]
    method: Method
    warnings: list[str] = field(default_factory=list)


def combine(doc: SourceDoc, layout: Layout, settings: BuildSettings, model_config: ModelConfig | None = None,
            usage: Usage | None = None) -> StructureResult:
    """Marks for ``doc`` from the most trustworthy sources available (see the module docstring)."""
    warnings: list[str] = []

    def done(marks: list[Mark], *used: Proposal | StructureSource) -> StructureResult:
        return StructureResult(marks, Method(u if isinstance(u, StructureSource) else u.origin for u in used),
                               warnings)

    if doc.outline and not settings.ignore_outline:
        outline = OutlineSource().propose(doc, layout)
        warnings.extend(outline.warnings)
        if outline:
            toc = TocSource().propose(doc, layout) if outline.partial else None
            richer = enrich_outline(outline.marks, toc.marks) if toc else None
            return done(richer, outline, toc) if richer is not None and toc else done(outline.marks, outline)
    declared = DeclaredSource().propose(doc, layout)
    if declared or not doc.paged:
        return done(declared.marks, declared) if declared else done([], StructureSource.single)
    toc = TocSource().propose(doc, layout)
    warnings.extend(toc.warnings)
    filing = FilingSource().propose(doc, layout)
    headings = HeadingsSource().propose(doc, layout)
    fine = filing.own_headings(headings.headings)
    closing = filing.closing if filing.filing else None
    if toc and not (filing.filing or toc.partial):
        return done(toc.marks, toc)
    if toc or filing:
        skeleton = merge_skeletons(toc.marks, filing.marks, closing) if filing else toc.marks
        min_pages = _min_pages(doc, settings)
        marks = filing.nest(skeleton, fine, min_pages) if filing.filing else \
            nest(skeleton, fine, finer_only=True, min_pages=min_pages, peers=True)
        used = [p for p in (toc, filing) if p] + [headings] if len(marks) > len(skeleton) else [toc, filing]
        return done(filing.refine(doc, layout, marks), *[p for p in used if p])
    if fine:
        marks = nest([], fine, top_rank_only=True, closing=closing) if filing.filing else to_marks(fine)
        return done(marks, headings)
    if settings.structure_fallback and model_config is not None and not model_config.offline:
        model = ModelSource(model_config, usage if usage is not None else Usage()).propose(doc, layout)
        warnings.extend(model.warnings)
        if model:
            return done(model.marks, model)
    windows = WindowsSource(settings.max_node_pages, settings.max_node_tokens).propose(doc, layout)
    return done(windows.marks, windows) if windows else done([], StructureSource.single)


def _min_pages(doc: SourceDoc, settings: BuildSettings) -> int:
    """Sections longer than this get finer headings from the body: the node page limit, or a tenth
    of a short document (a 40-page 10-Q's 5-page section is long for it)."""
    return max(1, min(settings.max_node_pages, len(doc.units) // SHORT_DOC_PARTS))
