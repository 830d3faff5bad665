"""Turn section starts (marks) from any structure source into a tree of nodes.

Every source (outline, printed TOC, headings, windows, model) proposes marks in document
order; this one function decides nesting, spans, page ranges and node ids, so all trees obey
the same rules: a parent covers its children, siblings are in order, ids are preorder.
"""

from __future__ import annotations

from ..model import Mark, Node, Pos, SourceDoc

__all__ = ["assemble", "PREFACE_TITLE", "number_nodes", "set_pages"]

PREFACE_TITLE = "Preface"


def assemble(doc: SourceDoc, marks: list[Mark], *, preface: bool = True) -> tuple[list[Node], int]:
    """Build root nodes from marks given in document order.

    A mark that would start before its predecessor is moved to the predecessor's position
    (never reordered), and counted in the second return value. Text before the first mark
    becomes a preface node when it holds anything but white space.
    """
    end = doc.end()
    roots: list[Node] = []
    stack: list[tuple[int, Node]] = []  # (mark level, node)
    clamped = 0
    last = Pos(0, 0)
    if marks and preface:
        first = marks[0].pos
        if first > Pos(0, 0) and doc.span_text(Pos(0, 0), first).strip():
            node = Node(node_id="", title=PREFACE_TITLE, depth=1, ordinal=0, start=Pos(0, 0),
                        end=first, origin="preface", _doc=doc)
            roots.append(node)
    for mark in marks:
        pos = mark.pos
        if pos < last:
            pos = last
            clamped += 1
        if pos > end:
            pos = end
        last = pos
        while stack and stack[-1][0] >= mark.level:
            stack.pop()
        parent = stack[-1][1] if stack else None
        siblings = parent.children if parent is not None else roots
        node = Node(
            node_id="", title=mark.title, depth=len(stack) + 1, ordinal=len(siblings),
            start=pos, end=end, origin=mark.origin, confidence=mark.confidence,
            parent=parent, _doc=doc,
        )
        siblings.append(node)
        stack.append((mark.level, node))
    if not marks:
        roots.append(Node(node_id="", title=doc.title or _stem(doc.path), depth=1, ordinal=0,
                          start=Pos(0, 0), end=end, origin="single", _doc=doc))
    _set_ends(roots, end)
    number_nodes(roots)
    set_pages(doc, roots)
    return roots, clamped


def _set_ends(siblings: list[Node], end: Pos) -> None:
    for i, node in enumerate(siblings):
        node.end = siblings[i + 1].start if i + 1 < len(siblings) else end
        _set_ends(node.children, node.end)


def number_nodes(roots: list[Node]) -> None:
    """PageIndex-style 4-digit ids in preorder, from 0000."""
    counter = 0
    for root in roots:
        for node in root.walk():
            node.node_id = f"{counter:04d}"
            counter += 1


def set_pages(doc: SourceDoc, roots: list[Node]) -> None:
    """1-based inclusive page ranges from spans; a parent's range covers its children."""
    if not doc.paged:
        return
    for root in roots:
        for node in root.walk():
            node.start_page = _page_at(doc, node.start)
            node.end_page = max(node.start_page, _last_page(doc, node.start, node.end))
        _cover(root)


def _cover(node: Node) -> None:
    """Widen a parent's page range to its children's (an empty child may sit on a later page)."""
    for child in node.children:
        _cover(child)
        assert node.end_page is not None and child.end_page is not None
        node.end_page = max(node.end_page, child.end_page)


def _page_at(doc: SourceDoc, pos: Pos) -> int:
    unit = doc.units[min(pos.unit, len(doc.units) - 1)]
    return unit.page or pos.unit + 1


def _last_page(doc: SourceDoc, start: Pos, end: Pos) -> int:
    """Page of the last non-blank character in ``[start, end)``."""
    unit, char = end
    while (unit, char) > tuple(start):
        if char == 0:
            unit -= 1
            if unit < start.unit:
                break
            char = len(doc.units[unit].text)
            continue
        lo = start.char if unit == start.unit else 0
        if doc.units[unit].text[lo:char].strip():
            return _page_at(doc, Pos(unit, 0))
        char = 0
        if unit == start.unit:
            break
    return _page_at(doc, start)


def _stem(path: str) -> str:
    from pathlib import Path

    return Path(path).stem
