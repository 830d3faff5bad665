"""Turn section starts (marks) from any structure source into a tree of nodes.

Every source (outline, printed TOC, headings, windows, model) proposes marks in document
order; this one function decides nesting, spans, page ranges and node ids, so all trees obey
the same rules: a parent covers its children, siblings are in order, ids are preorder.
"""

from __future__ import annotations

from ..model import Mark, Node, Origin, Pos, SourceDoc

__all__ = ["assemble", "attach", "PREFACE_TITLE", "FRONT_MATTER_TITLE", "number_nodes", "set_pages"]

ID_DIGITS = 4
"""Node ids have at least this many digits (PageIndex's ``0000``), more in a larger tree."""

PREFACE_TITLE = "Preface"
"""Title of the node that holds the text before the first section."""
FRONT_MATTER_TITLE = "Front matter"
"""... when the document has a section of its own titled like that node (no two "Preface" nodes)."""


def assemble(doc: SourceDoc, marks: list[Mark], *, preface: bool = True) -> tuple[list[Node], int]:
    """Build root nodes from marks given in document order.

    A mark that would start before its predecessor is never reordered: it is moved forward to
    the next mark that does not (or the document end), so the predecessor keeps its text and
    the misplaced section comes out empty; such marks are counted in the second return value.
    Text before the first mark becomes a preface node when it holds anything but white space.
    """
    end = doc.end()
    roots: list[Node] = []
    starts, clamped = _forward_starts([min(m.pos, end) for m in marks], end)
    if marks and preface:
        first = starts[0]
        if first > Pos(0, 0) and doc.span_text(Pos(0, 0), first).strip():
            node = Node(node_id="", title=_preface_title(marks), depth=1, ordinal=0, start=Pos(0, 0),
                        end=first, origin=Origin.preface, _doc=doc)
            roots.append(node)
    _grow(doc, marks, starts, end, None, roots)
    if not marks:
        roots.append(Node(node_id="", title=doc.display_title, depth=1, ordinal=0,
                          start=Pos(0, 0), end=end, origin=Origin.single, _doc=doc))
    _set_ends(roots, end)
    number_nodes(roots)
    set_pages(doc, roots)
    return roots, clamped


def _preface_title(marks: list[Mark]) -> str:
    top = min(m.level for m in marks)  # once: asked per mark it made this quadratic in the marks
    own = {" ".join(m.title.casefold().split()).strip(" .:") for m in marks if m.level == top}
    return FRONT_MATTER_TITLE if PREFACE_TITLE.casefold() in own else PREFACE_TITLE


def attach(doc: SourceDoc, parent: Node, marks: list[Mark]) -> None:
    """Nest ``marks`` (inside ``parent``'s span, in order) under ``parent`` by the same rules as
    :func:`assemble`: subdivision proposes marks inside a span and reuses this builder."""
    starts, _ = _forward_starts([min(m.pos, parent.end) for m in marks], parent.end)
    _grow(doc, marks, starts, parent.end, parent, parent.children)
    _set_ends(parent.children, parent.end)


def _grow(doc: SourceDoc, marks: list[Mark], starts: list[Pos], end: Pos, parent: Node | None,
          top: list[Node]) -> None:
    """Nodes for ``marks`` nested by level below ``parent`` (``top`` holds its children); a node's confidence is
    its source's, times how sure the reader was of its title's line (an OCR'd title read with 0.6: at most 0.6)."""
    stack: list[tuple[int, Node]] = []  # (mark level, node)
    for mark, pos in zip(marks, starts, strict=True):
        while stack and stack[-1][0] >= mark.level:
            stack.pop()
        owner = stack[-1][1] if stack else parent
        siblings = owner.children if owner is not None else top
        node = Node(
            node_id="", title=mark.title, depth=owner.depth + 1 if owner is not None else 1,
            ordinal=len(siblings), start=pos, end=end, origin=mark.origin,
            confidence=mark.confidence * doc.text_confidence(mark.pos), parent=owner, _doc=doc,
        )
        siblings.append(node)
        stack.append((mark.level, node))


def _set_ends(siblings: list[Node], end: Pos) -> None:
    for i, node in enumerate(siblings):
        node.end = siblings[i + 1].start if i + 1 < len(siblings) else end
        _set_ends(node.children, node.end)


def _forward_starts(starts: list[Pos], end: Pos) -> tuple[list[Pos], int]:
    """Starts made non-decreasing by moving each one that lies before its predecessor forward to
    the next start that does not (or ``end``); returns them with the number moved.

    Moving it back to the predecessor's start instead would give it the predecessor's text.
    """
    out = list(starts)
    moved = 0
    i = 0
    last = Pos(0, 0)
    while i < len(out):
        if out[i] < last:
            j = i + 1
            while j < len(out) and out[j] < last:
                j += 1
            target = out[j] if j < len(out) else end
            out[i:j] = [target] * (j - i)
            moved += j - i
            i = j
            continue
        last = out[i]
        i += 1
    return out, moved


def number_nodes(roots: list[Node]) -> None:
    """PageIndex-style ids in preorder, from ``0000``: 4 digits, more when the tree has over
    10,000 nodes, the same width for every node so that string order is preorder."""
    nodes = [node for root in roots for node in root.walk()]
    width = max(ID_DIGITS, len(str(len(nodes) - 1)))
    for counter, node in enumerate(nodes):
        node.node_id = f"{counter:0{width}d}"


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
    """Last page of ``[start, end)``, pages without text included.

    A section that ends where the next starts at the top of a unit takes the page before it, blank
    (scanned, figure-only) or not; one that ends mid-unit takes that unit's page when text precedes
    the end there, else the page before; the last section runs to the last page.
    """
    last = len(doc.units) - 1
    if last < 0:
        return 1
    if end >= doc.end():
        return _page_at(doc, Pos(last, 0))
    unit, char = end
    if char > 0:
        lo = start.char if unit == start.unit else 0
        if doc.units[unit].text[lo:char].strip():
            return _page_at(doc, Pos(unit, 0))
    return _page_at(doc, Pos(max(unit - 1, 0), 0))

