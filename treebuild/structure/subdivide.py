"""Recursive subdivision: no leaf stays too large to read whole.

A leaf longer than ``max_node_pages`` pages or ``max_node_tokens`` tokens (characters / 4) is
split at the finer headings found inside it (minor headings included: run-in bold heads are fine
cut points even when they do not belong in a table of contents); a leaf with no such headings, or
a piece that is still too large, is cut into page windows at paragraph boundaries. A parent whose
lead text (before its first child) is too large gets window children for that lead. Afterwards
ids are renumbered in preorder and page ranges recomputed, so parents still cover children.
"""

from __future__ import annotations

from ..findings import Finding, Stage
from ..model import Mark, Node, Origin, Pos, SourceDoc
from ..settings import BuildSettings
from .assemble import attach, number_nodes, set_pages
from .combine import same_heading
from .heuristics import HEURISTICS as H
from .layout import Layout
from .windows import CHARS_PER_TOKEN, content_namer, span_chars, window_marks

__all__ = ["subdivide", "too_large"]



def _pages(doc: SourceDoc, start: Pos, end: Pos) -> int:
    if not doc.paged:
        return 1
    last = end.unit if end.char > 0 else end.unit - 1
    return max(1, last - start.unit + 1)


def too_large(doc: SourceDoc, start: Pos, end: Pos, settings: BuildSettings) -> bool:
    """More pages or more (estimated) tokens than a reader should take in one go."""
    if span_chars(doc, start, end) > settings.max_node_tokens * CHARS_PER_TOKEN:
        return True
    return doc.paged and _pages(doc, start, end) > settings.max_node_pages


def subdivide(doc: SourceDoc, roots: list[Node], settings: BuildSettings,
              layout: Layout | None = None) -> list[Finding]:
    """Split nodes larger than the page/token limits in place; returns what it noticed (findings).

    ``layout`` is the structure stage's analysis of ``doc``: its heading scan is reused when it ran."""
    if not settings.subdivide or not doc.units:
        return []
    split = 0
    windows = 0
    stack = list(roots)
    layout = layout if layout is not None and layout.doc is doc else Layout(doc)
    while stack:
        node = stack.pop()
        if node.children:
            lead_end = node.children[0].start
            if too_large(doc, node.start, lead_end, settings):
                lead = _window_children(doc, node, node.start, lead_end, settings, layout)
                if lead:
                    node.children[:0] = lead
                    windows += len(lead)
            stack.extend(node.children)
            continue
        if not too_large(doc, node.start, node.end, settings):
            continue
        if doc.paged:
            head = Mark(node.title, 1, node.start, node.origin)
            inner = [m for m in layout.headings_within(node.start, node.end) if not same_heading(m, head)]
            # a heading found just before the node's end with (next to) no text of its own is the
            # next section's heading seen from the page top, not a subsection
            while inner and len(doc.span_text(inner[-1].pos, node.end).strip()) < H.echo_text:
                inner.pop()
            if inner:
                attach(doc, node, inner)
                split += 1
                stack.extend(node.children)
                continue
        kids = _window_children(doc, node, node.start, node.end, settings, layout)
        windows += len(kids)
    for i, r in enumerate(roots):
        r.ordinal = i
    _reorder(roots)
    number_nodes(roots)
    set_pages(doc, roots)
    warnings: list[Finding] = []
    if windows:
        warnings.append(Finding("window_nodes", Stage.subdivide,
                                f"{windows} window node(s) cut where sections had no finer headings"))
    return warnings


def _window_children(doc: SourceDoc, parent: Node, start: Pos, end: Pos, settings: BuildSettings,
                     layout: Layout) -> list[Node]:
    """Window nodes for ``[start, end)`` of ``parent``, named by their content, built by the assembler: a
    leaf's windows become its children; windows of a parent's lead are returned for the caller to put
    before its children."""
    marks = window_marks(doc, start, end, max_pages=settings.max_node_pages, max_tokens=settings.max_node_tokens,
                         level=parent.depth + 1, title=parent.title,
                         namer=content_namer(doc, layout, exclude=parent.title))
    if not marks:
        return []
    if not parent.children:
        attach(doc, parent, marks)
        return parent.children
    lead = Node(node_id="", title=parent.title, depth=parent.depth, ordinal=0, start=start, end=end,
                origin=Origin.window, _doc=doc)
    attach(doc, lead, marks)
    for kid in lead.children:
        kid.parent = parent
    return lead.children


def _reorder(nodes: list[Node]) -> None:
    """Ordinals and depths after insertion."""
    for i, n in enumerate(nodes):
        n.ordinal = i
        n.depth = (n.parent.depth + 1) if n.parent is not None else 1
        _reorder(n.children)
