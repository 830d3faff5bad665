"""Recursive subdivision: no leaf stays too large to read whole.

A leaf longer than ``max_node_pages`` pages or ``max_node_tokens`` tokens (characters / 4) is
split at the finer headings found inside it (minor headings included: run-in bold heads are fine
cut points even when they do not belong in a table of contents); a leaf with no such headings, or
a piece that is still too large, is cut into page windows at paragraph boundaries. A parent whose
lead text (before its first child) is too large gets window children for that lead. Afterwards
ids are renumbered in preorder and page ranges recomputed, so parents still cover children.
"""

from __future__ import annotations

import weakref

from ..model import Mark, Node, Pos, SourceDoc
from ..settings import BuildSettings
from .assemble import number_nodes, set_pages
from .combine import same_heading
from .headings import HeadingScan, scan_headings, to_marks
from .windows import CHARS_PER_TOKEN, span_chars, window_marks

__all__ = ["subdivide", "too_large", "remember_scan"]

_SCANS: dict[int, tuple[weakref.ref[SourceDoc], HeadingScan]] = {}
_ECHO_TEXT = 40


def remember_scan(doc: SourceDoc, scan: HeadingScan) -> None:
    """Keep the structure stage's heading scan for this document so subdivision does not redo it."""
    key = id(doc)

    def forget(_ref: weakref.ref[SourceDoc]) -> None:
        _SCANS.pop(key, None)

    _SCANS[key] = (weakref.ref(doc, forget), scan)


def _cached_scan(doc: SourceDoc) -> HeadingScan | None:
    hit = _SCANS.get(id(doc))
    if hit is not None and hit[0]() is doc:
        return hit[1]
    return None


class _InnerHeadings:
    """Headings inside oversized leaves. The structure stage's whole-document scan is reused when
    it ran; otherwise (a tree from the outline) only the pages of the oversized leaf are scanned,
    since typography costs ~1.5 ms a page and most of a well-bookmarked document never needs it."""

    def __init__(self, doc: SourceDoc):
        self.doc = doc
        scan = _cached_scan(doc)
        self.whole = sorted(to_marks(scan.headings), key=lambda m: m.pos) if scan is not None else None

    def within(self, start: Pos, end: Pos) -> list[Mark]:
        if self.whole is not None:
            marks = self.whole
        else:
            last = end.unit if end.char > 0 else end.unit - 1
            scan = scan_headings(self.doc, range(start.unit, max(start.unit, last) + 1))
            marks = sorted(to_marks(scan.headings), key=lambda m: m.pos)
        return [m for m in marks if start < m.pos < end]


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


def subdivide(doc: SourceDoc, roots: list[Node], settings: BuildSettings) -> list[str]:
    """Split nodes larger than the page/token limits in place; returns warnings."""
    if not settings.subdivide or not doc.units:
        return []
    split = 0
    windows = 0
    stack = list(roots)
    inner_headings: _InnerHeadings | None = None
    while stack:
        node = stack.pop()
        if node.children:
            lead_end = node.children[0].start
            if too_large(doc, node.start, lead_end, settings):
                lead = _window_children(doc, node, node.start, lead_end, settings)
                if lead:
                    node.children[:0] = lead
                    windows += len(lead)
            stack.extend(node.children)
            continue
        if not too_large(doc, node.start, node.end, settings):
            continue
        if doc.paged:
            if inner_headings is None:
                inner_headings = _InnerHeadings(doc)
            head = Mark(node.title, 1, node.start, node.origin)
            inner = [m for m in inner_headings.within(node.start, node.end) if not same_heading(m, head)]
            # a heading found just before the node's end with (next to) no text of its own is the
            # next section's heading seen from the page top, not a subsection
            while inner and len(doc.span_text(inner[-1].pos, node.end).strip()) < _ECHO_TEXT:
                inner.pop()
            if inner:
                _attach(doc, node, inner)
                split += 1
                stack.extend(node.children)
                continue
        kids = _window_children(doc, node, node.start, node.end, settings)
        windows += len(kids)
    for i, r in enumerate(roots):
        r.ordinal = i
    _reorder(roots)
    number_nodes(roots)
    set_pages(doc, roots)
    warnings: list[str] = []
    if windows:
        warnings.append(f"{windows} window node(s) cut where sections had no finer headings")
    return warnings


def _attach(doc: SourceDoc, parent: Node, marks: list[Mark]) -> None:
    """Nest ``marks`` (inside ``parent``'s span, in order) under ``parent`` by their levels."""
    stack: list[tuple[int, Node]] = []
    for m in marks:
        while stack and stack[-1][0] >= m.level:
            stack.pop()
        owner = stack[-1][1] if stack else parent
        node = Node(node_id="", title=m.title, depth=owner.depth + 1, ordinal=len(owner.children), start=m.pos,
                    end=parent.end, origin=m.origin, confidence=m.confidence, parent=owner, _doc=doc)
        owner.children.append(node)
        stack.append((m.level, node))
    _set_ends(parent.children, parent.end)


def _set_ends(siblings: list[Node], end: Pos) -> None:
    for i, node in enumerate(siblings):
        node.end = siblings[i + 1].start if i + 1 < len(siblings) else end
        _set_ends(node.children, node.end)


def _window_children(doc: SourceDoc, parent: Node, start: Pos, end: Pos, settings: BuildSettings) -> list[Node]:
    marks = window_marks(doc, start, end, max_pages=settings.max_node_pages, max_tokens=settings.max_node_tokens,
                         level=parent.depth + 1, title=parent.title)
    if not marks:
        return []
    kids: list[Node] = []
    for i, m in enumerate(marks):
        stop = marks[i + 1].pos if i + 1 < len(marks) else end
        kids.append(Node(node_id="", title=m.title, depth=parent.depth + 1, ordinal=i, start=m.pos, end=stop,
                         origin="window", confidence=m.confidence, parent=parent, _doc=doc))
    if not parent.children:
        parent.children = kids
    return kids


def _reorder(nodes: list[Node]) -> None:
    """Ordinals and depths after insertion."""
    for i, n in enumerate(nodes):
        n.ordinal = i
        n.depth = (n.parent.depth + 1) if n.parent is not None else 1
        _reorder(n.children)
