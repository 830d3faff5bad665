"""Structure stage: choose the section starts of a document, then assemble the tree.

Sources, in order of trust:

1. the PDF outline, when it is trustworthy (``outline_quality``: file-name bookmarks dropped, a
   flat outline re-levelled from its numbering, a junk outline rejected) and completed from the
   printed TOC when that is much richer;
2. headings the format declares (DOCX styles, Markdown ``#``);
3. the printed TOC (``toc``), with SEC Parts/Items fixed at levels 1/2 and, for a filing or a
   sparse TOC, the finer headings found inside its sections;
4. typographic headings and numbering (``headings``), with SEC Parts/Items as the top levels;
   a filing's tail after its last Item (Signatures, financial statements placed from their own
   index page, Exhibits one by one) becomes top-level sections, and statements inside an Item
   are laid out from their index page (``filing_tail``, ``statements``);
5. opt-in (``settings.structure_fallback``): sections proposed by the model over page windows,
   each title verified on its page (``model_fallback``);
6. page windows.

The method that produced the marks is recorded on the tree; every node carries its origin and
confidence through its mark. ``settings.ignore_outline`` skips step 1.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..model import Mark, Node, Pos, SourceDoc, Usage
from ..settings import BuildSettings, ModelConfig
from .assemble import assemble
from .combine import enrich_outline, levels_from_numbering, merge_skeletons, nest, sec_skeleton
from .declared import declared_marks
from .filing_tail import restructure_filing
from .headings import scan_headings, to_marks
from .outline import outline_marks
from .outline_quality import assess_outline
from .sec import is_filing, sec_headings
from .subdivide import remember_scan
from .text import normalize_title
from .toc import TocResult, toc_marks
from .windows import window_marks

__all__ = ["StructureResult", "detect_marks", "build_nodes", "drop_echoes", "SPARSE_TOC"]

SPARSE_TOC = 0.6
"""A printed TOC with fewer entries per page than this leaves finer headings to be added."""


@dataclass
class StructureResult:
    marks: list[Mark]
    method: str
    warnings: list[str] = field(default_factory=list)


def detect_marks(doc: SourceDoc, settings: BuildSettings, model_config: ModelConfig | None = None,
                 usage: Usage | None = None) -> StructureResult:
    """Pick the most trustworthy structure source available for ``doc``.

    The model is asked for structure only when ``settings.structure_fallback`` is on, a real
    model is configured and no deterministic source found sections; its calls go into ``usage``.
    """
    warnings: list[str] = []
    toc: TocResult | None = None
    toc_done = False
    if doc.outline and not settings.ignore_outline:
        verdict = assess_outline(doc.outline, len(doc.units))
        warnings.extend(verdict.reasons)
        if verdict.usable:
            marks = outline_marks(dataclasses.replace(doc, outline=verdict.entries))
            if marks:
                method = "outline"
                if doc.paged and (verdict.kind == "relevelled" or _partial(doc, marks)):
                    toc, toc_done = toc_marks(doc), True
                    richer = enrich_outline(marks, toc.marks) if toc is not None and toc.marks else None
                    if richer is not None:
                        marks, method = richer, "outline+toc"
                return StructureResult(marks, method, warnings)
        else:
            warnings.append("outline ignored: it does not describe the document's sections")
    marks = declared_marks(doc)
    if marks:
        return StructureResult(marks, "headings", warnings)
    if not doc.paged:
        return StructureResult([], "single", warnings)
    if not toc_done:
        toc = toc_marks(doc)
    if toc is not None:
        warnings.extend(toc.warnings)
    toc_pages = set(toc.toc_pages) if toc is not None else set()
    scan = scan_headings(doc, skip_pages=toc_pages)
    remember_scan(doc, scan)
    sec = sec_headings(doc, skip_pages=scan.toc_pages | toc_pages, skip_lines=scan.furniture,
                       body_size=scan.body_size)
    headings = scan.major()
    filing = bool(sec) or is_filing(doc)
    if filing:
        headings = [h for h in headings if h.unit > 0]  # the cover page names the form, not a section
    if sec:
        sec_lines = {(h.unit, j) for h in sec for j in h.lines}
        headings = [h for h in headings if not any((h.unit, j) in sec_lines for j in h.lines)]
    if toc is not None and toc.marks:
        toc_skeleton = levels_from_numbering(toc.marks)
        skeleton = merge_skeletons(toc_skeleton, sec_skeleton(sec)) if sec else toc_skeleton
        sparse = len(toc.marks) < SPARSE_TOC * len(doc.units)
        if filing or sparse:
            marks = nest(skeleton, headings, finer_only=not filing, min_pages=_min_pages(doc, settings),
                         top_rank_only=filing)
            if sec:
                marks = restructure_filing(doc, marks, sec, scan)
            return StructureResult(marks, "toc+headings", warnings)
        return StructureResult(skeleton, "toc", warnings)
    if sec:
        marks = nest(sec_skeleton(sec), headings, min_pages=_min_pages(doc, settings), top_rank_only=True)
        return StructureResult(restructure_filing(doc, marks, sec, scan), "headings+sec", warnings)
    if headings and filing:
        return StructureResult(nest([], headings, top_rank_only=True), "headings", warnings)
    if headings:
        return StructureResult(to_marks(headings), "headings", warnings)
    if settings.structure_fallback and model_config is not None and not model_config.offline:
        from .model_fallback import model_structure

        proposed = model_structure(doc, model_config, usage if usage is not None else Usage())
        if proposed.marks:
            if proposed.dropped:
                warnings.append(f"model structure: {len(proposed.dropped)} of {proposed.proposed} proposed "
                                f"section(s) not found on their pages and dropped")
            return StructureResult(proposed.marks, "model", warnings)
        warnings.append("the model proposed no section that could be verified on its page")
    marks = window_marks(doc, Pos(0, 0), doc.end(), max_pages=settings.max_node_pages,
                         max_tokens=settings.max_node_tokens, level=1, title=doc.display_title)
    if marks:
        return StructureResult(marks, "windows", warnings)
    return StructureResult([], "single", warnings)


def _partial(doc: SourceDoc, marks: list[Mark]) -> bool:
    """An outline of a few entries for a long document (or all at one level) may be completed by the TOC."""
    return len(marks) < max(3, len(doc.units) // 20) or (len(doc.units) > 30 and max(m.level for m in marks) == 1)



def build_nodes(doc: SourceDoc, settings: BuildSettings, model_config: ModelConfig | None = None,
                usage: Usage | None = None) -> tuple[list[Node], StructureResult]:
    result = detect_marks(doc, settings, model_config, usage)
    roots, clamped = assemble(doc, drop_echoes(result.marks))
    if clamped:
        result.warnings.append(f"{clamped} section start(s) pointed before the previous one and were moved forward")
    return roots, result


_ECHO_CHARS = 200


def drop_echoes(marks: list[Mark]) -> list[Mark]:
    """One section per heading: when two detected marks in a row name the same heading at (nearly)
    the same place, as when a body heading and the SEC Item pattern both find "Item 1A. Risk
    Factors", keep the shallower one. Marks that both come from the author's outline are kept."""
    out: list[Mark] = []
    for m in marks:
        prev = out[-1] if out else None
        if (prev is not None and not (prev.origin == m.origin == "outline") and prev.pos.unit == m.pos.unit
                and abs(prev.pos.char - m.pos.char) <= _ECHO_CHARS
                and normalize_title(prev.title) == normalize_title(m.title)):
            if m.level < prev.level:
                out[-1] = dataclasses.replace(m, pos=min(prev.pos, m.pos))
            continue
        out.append(m)
    return out


def _min_pages(doc: SourceDoc, settings: BuildSettings) -> int:
    """Sections longer than this get finer headings from the body: the node page limit, or a tenth
    of a short document (a 40-page 10-Q's 5-page section is long for it)."""
    return max(1, min(settings.max_node_pages, len(doc.units) // 10))
