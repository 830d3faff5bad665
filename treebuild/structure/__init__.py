"""Structure stage: choose the section starts of a document, then assemble the tree.

The stage reads as layout + sources + combine + assemble. The orchestration lives at this
package's top; each kind of evidence has its own subpackage:

- ``toc/``: the printed table of contents (``detect`` its pages, ``parse`` its rows, ``pagemap``
  printed pages to physical ones, ``place`` each entry on its page, ``marks`` the pipeline);
- ``outline/``: the PDF's bookmarks (``quality`` decides whether to trust them, ``marks``);
- ``typography/``: headings read from the type (``headings``: the scan and its marks);
- ``filing/``: SEC filings (Parts/Items, statements, schedules, the tail after the last Item, a
  statement page's title block as the typography scan's hook); the only place SEC wording lives
  (``filing.patterns``);
- ``layout``: one analysis per document (page furniture from ``treebuild.text.furniture``, printed
  TOC and TOC-like pages from ``toc.detect``, body size, typographic headings), computed on first
  use and carried in the build context to subdivision and summaries; thresholds live in
  ``heuristics``; shared text patterns, section numbering and title keys in the text layer below
  (``treebuild.text``);
- ``sources``: plug-ins behind the ``Source`` protocol, each proposing marks in a role (sections,
  skeleton, headings, fallback) with origin and confidence: the PDF outline, declared headings
  (``declared``: DOCX, Markdown), the printed TOC, SEC filings (a skeleton source that claims the
  document: its proposal's hooks lay out the headings under it), typographic headings and
  numbering, the model (opt-in, ``model_fallback`` asking with the ``prompt``,
  ``settings.structure_fallback``) and page windows (``windows``);
- ``policy``: the cascade, read top to bottom (sections, skeleton, headings, fallback), every
  source behind a guard (one that raises is recorded and the cascade goes on); ``combine`` merges
  skeletons and nests headings; ``deepen`` nests the sub-headings the type sets apart below the leaf
  sections of a shallow outline or printed TOC; the tree's ``method`` names the sources used;
- ``assemble``: the one tree builder (``subdivide`` reuses it inside a span, for finer headings
  and for page windows alike).

``settings.ignore_outline`` leaves the outline out.
"""

from __future__ import annotations

import dataclasses

from .. import collector
from ..findings import Finding
from ..findings import Stage as FindingStage
from ..model import Mark, Method, Node, Origin, SourceDoc, StructureSource, Usage
from ..settings import BuildSettings, ModelConfig
from ..text.normalize import normalize_title
from .assemble import assemble
from .heuristics import HEURISTICS as H
from .layout import Layout
from .outline.marks import find_title_line
from .policy import StructureResult, combine
from .registry import title_block

__all__ = ["StructureResult", "detect_marks", "build_nodes", "drop_echoes", "Layout", "analyze", "label_pages",
           "assemble", "find_title_line"]


def label_pages(doc: SourceDoc) -> None:
    """Label the pages of a document whose reader asked for it (``SourceDoc.folio_labels``: HTML laid out
    at its page breaks, text with form feeds) with the page numbers they print, where neighbouring pages
    agree (:func:`.toc.pagemap.folio_labels`); pages that print none keep no label."""
    if not doc.folio_labels or not doc.paged or any(u.label for u in doc.units):
        return
    from .toc.pagemap import folio_labels

    for i, label in folio_labels([u.text for u in doc.units]).items():
        doc.units[i].label = label


def analyze(doc: SourceDoc) -> Layout:
    """The (lazy) layout analysis of ``doc``, with the installed sources' title-block hook."""
    return Layout(doc, title_block())


def detect_marks(doc: SourceDoc, settings: BuildSettings, model_config: ModelConfig | None = None,
                 usage: Usage | None = None, layout: Layout | None = None) -> StructureResult:
    """Section starts for ``doc`` from its most trustworthy structure sources (``policy``).

    The model is asked for structure only when ``settings.structure_fallback`` is on, a real
    model is configured and no deterministic source found sections; its calls go into ``usage``.
    """
    if not doc.paged and doc.layout_view is not None \
            and sum(1 for u in doc.units if u.heading_level) < MIN_DECLARED_HEADINGS:
        return _from_view(doc, settings, model_config, usage)
    return combine(doc, layout if layout is not None else analyze(doc), settings, model_config, usage)


MIN_DECLARED_HEADINGS = 2
"""Fewer declared headings than this (none, or a lone ``<h1>`` naming the page over styled sub-heads, as a
wiki exports it) declare no structure: the layout view is read instead."""


def _from_view(doc: SourceDoc, settings: BuildSettings, model_config: ModelConfig | None,
               usage: Usage | None) -> StructureResult:
    """A document without pages or declared headings (HTML without page breaks or ``<h1>``-``<h6>``, a lone
    one aside; text without form feeds): the paged rules read its layout view
    (:class:`~treebuild.model.LayoutView`: its blocks laid out on pages) and the marks they find map back
    to its blocks. Page windows are no sections of such a document (its pages are the layout's): without
    headings it stays one section, which subdivision cuts by size."""
    assert doc.layout_view is not None
    view = doc.layout_view()
    if not view.doc.units:
        return StructureResult([], Method([StructureSource.single]))
    result = combine(view.doc, analyze(view.doc), settings, model_config, usage)
    marks: list[Mark] = []
    for m in result.marks:
        if m.origin == Origin.window:
            continue
        pos = view.to_unit(m.pos)
        if marks and pos <= marks[-1].pos:
            continue  # two starts in one block: the first stands
        marks.append(dataclasses.replace(m, pos=pos))
    sources = [s for s in result.method.sources if s != StructureSource.windows] if marks else []
    method = Method(sources or [StructureSource.single])
    # a finding about a page names a sheet of the view, which the reader never showed: left out
    return StructureResult(marks, method, [w for w in result.warnings if w.page is None])


def build_nodes(doc: SourceDoc, settings: BuildSettings, model_config: ModelConfig | None = None,
                usage: Usage | None = None, layout: Layout | None = None) -> tuple[list[Node], StructureResult]:
    """The tree's root nodes for ``doc``; ``layout`` (made here when not given) is reused by later stages.

    Runs with the cyclic garbage collector paused (:func:`treebuild.collector.paused`): the stage
    makes tens of thousands of lines, rows and marks and no cycles, and full collections walking
    them took 5-8% of its time (filings, manuals)."""
    with collector.paused():
        result = detect_marks(doc, settings, model_config, usage, layout)
        roots, clamped = assemble(doc, drop_echoes(result.marks))
    if clamped:
        result.warnings.append(Finding("starts_moved_forward", FindingStage.structure,
                                       f"{clamped} section start(s) pointed before the previous one and were "
                                       "moved forward"))
    return roots, result




def drop_echoes(marks: list[Mark]) -> list[Mark]:
    """One section per heading: when two detected marks in a row name the same heading at (nearly)
    the same place, as when a body heading and the SEC Item pattern both find "Item 1A. Risk
    Factors", keep the shallower one. Marks that both come from the author's outline are kept."""
    out: list[Mark] = []
    for m in marks:
        prev = out[-1] if out else None
        if (prev is not None and not (prev.origin == m.origin == "outline") and prev.pos.unit == m.pos.unit
                and abs(prev.pos.char - m.pos.char) <= H.echo_chars
                and normalize_title(prev.title) == normalize_title(m.title)):
            if m.level < prev.level:
                out[-1] = dataclasses.replace(m, pos=min(prev.pos, m.pos))
            continue
        out.append(m)
    return out
