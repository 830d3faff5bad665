"""What navigators see of a tree (candidates: titles, ancestor titles, pages, summaries) and what
a query returns of it (a node's text with its tables as Markdown, capped, with its pages and printed
labels)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ..model import Node, Pos, Tree
from .results import PathEntry
from .spi import Candidate

__all__ = ["TreeView", "outline_line", "Cut", "cut_text", "cut_pages"]


def outline_line(c: Candidate) -> str:
    """One line of a rendered outline; its length is what ``single_pass_max_chars`` measures."""
    pages = ""
    if c.start_page is not None:
        pages = f" p.{c.start_page}" if c.end_page in (None, c.start_page) else f" p.{c.start_page}-{c.end_page}"
    summary = f" :: {c.summary}" if c.summary else ""
    return f"{'  ' * (c.depth - 1)}[{c.node_id}] {c.title}{pages}{summary}"


class TreeView:
    """A loaded tree indexed for navigation: candidates by id, children, ancestors, preorder."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.nodes: dict[str, Node] = {}
        self.order: dict[str, int] = {}
        for i, node in enumerate(tree.walk()):
            self.nodes[node.node_id] = node
            self.order[node.node_id] = i
        units = tree.doc.units
        self._on_page: dict[int, list[str]] | None = None
        self._candidates: dict[str, Candidate] = {}
        for node in tree.walk():
            label = None
            if node.start_page is not None and node.start.unit < len(units):
                label = units[node.start.unit].label
            self._candidates[node.node_id] = Candidate(
                node_id=node.node_id, title=node.title, depth=node.depth,
                ancestors=tuple(a.title for a in node.path()[:-1]), summary=node.summary,
                start_page=node.start_page, end_page=node.end_page, page_label=label,
                child_count=len(node.children), parent_id=node.parent_id)

    def candidate(self, node_id: str) -> Candidate:
        return self._candidates[node_id]

    def set_text_scores(self, scores: Mapping[str, float]) -> None:
        """Give every candidate its first-stage score (0.0 for a node ``scores`` does not name)."""
        self._candidates = {i: dataclasses.replace(c, text_score=scores.get(i, 0.0))
                            for i, c in self._candidates.items()}

    def candidates(self, ids: list[str] | None = None) -> tuple[Candidate, ...]:
        """Candidates of ``ids`` (default: every node) in document order."""
        chosen = self._candidates if ids is None else {i: self._candidates[i] for i in ids}
        return tuple(sorted(chosen.values(), key=lambda c: self.order[c.node_id]))

    def roots(self) -> list[str]:
        return [n.node_id for n in self.tree.roots]

    def children(self, node_id: str) -> list[str]:
        return [c.node_id for c in self.nodes[node_id].children]

    def ancestors(self, node_id: str) -> list[str]:
        return [a.node_id for a in self.nodes[node_id].path()[:-1]]

    def path(self, node_id: str) -> tuple[PathEntry, ...]:
        return tuple(PathEntry(n.node_id, n.title) for n in self.nodes[node_id].path())

    def outline_chars(self) -> int:
        return sum(len(outline_line(c)) + 1 for c in self._candidates.values())

    def nodes_on_page(self, page: int) -> list[str]:
        """The nodes whose own text (before their first child) is printed on ``page``, in document
        order: every section a page shows part of (the end of one, the heading and lead of the next),
        not only the deepest one holding it."""
        if self._on_page is None:
            units = self.tree.doc.units
            on: dict[int, list[str]] = {}
            for node in self.tree.walk():
                start, end = node.start, node.own_end()
                if end <= start or start.unit >= len(units):
                    continue
                last = min(end.unit if end.char > 0 else end.unit - 1, len(units) - 1)
                for page_no in dict.fromkeys(u.page for u in units[start.unit:last + 1] if u.page is not None):
                    on.setdefault(page_no, []).append(node.node_id)
            self._on_page = on
        return list(self._on_page.get(page, []))

    def node_for_page(self, page: int) -> str | None:
        """The deepest node whose pages contain ``page`` (the first in document order on ties)."""
        best: Node | None = None
        for node in self.tree.walk():
            if node.start_page is None or not node.start_page <= page <= (node.end_page or node.start_page):
                continue
            if best is None or node.depth > best.depth:
                best = node
        return best.node_id if best is not None else None


@dataclass(frozen=True, slots=True)
class Cut:
    text: str
    start_page: int | None
    end_page: int | None
    start_label: str | None
    end_label: str | None
    truncated: bool


def cut_text(tree: Tree, node: Node, *, max_units: int, max_chars: int, max_pages: int | None) -> Cut:
    """The node's text from its start (tables as Markdown), cut at ``max_units`` units, ``max_pages``
    pages and ``max_chars`` characters of that text, whichever comes first; the pages are those of the
    text returned."""
    doc = tree.doc
    units = doc.units
    start, end = node.start, node.end
    limit_unit = start.unit + max_units
    if max_pages is not None and node.start_page is not None:
        # first unit whose page lies past the allowed pages
        for i in range(start.unit, min(end.unit + 1, len(units))):
            page = units[i].page
            if page is not None and page >= node.start_page + max_pages:
                limit_unit = min(limit_unit, i)
                break
    if Pos(limit_unit, 0) < end:
        end = Pos(limit_unit, 0)
    truncated = end != node.end
    text, end, cut = _fit(tree, start, end, max_chars)
    truncated = truncated or cut
    last_unit = end.unit if end.char > 0 else end.unit - 1
    last_unit = max(start.unit, min(last_unit, len(units) - 1))
    paged = node.start_page is not None and units
    start_unit = units[start.unit] if paged and start.unit < len(units) else None
    end_u = units[last_unit] if paged else None
    end_page = node.end_page if not truncated else (end_u.page if end_u is not None else None)
    if paged and end_page is None:
        end_page = node.start_page
    return Cut(text=text, start_page=node.start_page, end_page=end_page,
               start_label=start_unit.label if start_unit is not None else None,
               end_label=end_u.label if end_u is not None else None, truncated=truncated)


def cut_pages(tree: Tree, node: Node, first: int, last: int, *, max_chars: int) -> Cut:
    """The node's text on physical pages ``first..last`` (within the node's pages; tables as Markdown),
    cut at ``max_chars`` characters: a long section's best pages instead of its first ones."""
    units = tree.doc.units
    inside = [u.index for u in units if u.page is not None and first <= u.page <= last]
    start = max(node.start, Pos(inside[0], 0)) if inside else node.start
    end = min(node.end, Pos(inside[-1] + 1, 0)) if inside else node.start
    truncated = True
    text, end, _ = _fit(tree, start, end, max_chars)
    last_unit = end.unit if end.char > 0 else end.unit - 1
    last_unit = max(start.unit, min(last_unit, len(units) - 1))
    start_u = units[start.unit] if start.unit < len(units) else None
    end_u = units[last_unit] if units else None
    return Cut(text=text, start_page=start_u.page if start_u is not None else first,
               end_page=end_u.page if end_u is not None else last,
               start_label=start_u.label if start_u is not None else None,
               end_label=end_u.label if end_u is not None else None, truncated=truncated)


def _fit(tree: Tree, start: Pos, end: Pos, max_chars: int) -> tuple[str, Pos, bool]:
    """The text of ``[start, end)`` as a person or a model reads it (tables as Markdown), cut to at most
    ``max_chars`` characters: ``(text, where it ends, whether it was cut)``. A cut never falls inside a
    table: a table that does not fit whole is left out, unless it is the first thing of the span (then
    its exact text, cut, is all there is to read)."""
    doc = tree.doc
    text = doc.span_text(start, end, tables=True)
    if len(text) <= max_chars:
        return text, end, False
    stop = _pos_after(tree, start, end, max_chars)
    return doc.span_text(start, stop, tables=True), stop, True


def _pos_after(tree: Tree, start: Pos, end: Pos, chars: int) -> Pos:
    """The last position in ``[start, end]`` whose text from ``start`` with tables as Markdown
    (:meth:`SourceDoc.span_text` with ``tables=True``) is at most ``chars`` characters long, moved back
    to the start of a table it would cut; the rendered length grows with the position, so it is found
    by bisection over the exact characters of the span."""
    doc = tree.doc
    tables = doc.tables_between(start, end)
    if not tables:
        return _exact_pos_after(tree, start, chars)

    def rendered(k: int, whole_tables: bool) -> tuple[int, Pos]:
        pos = _exact_pos_after(tree, start, k)
        if whole_tables:
            inside = next((t for t in tables if t.unit == pos.unit and t.start < pos.char < t.end), None)
            if inside is not None:
                pos = Pos(inside.unit, inside.start)
        return len(doc.span_text(start, pos, tables=True)), pos

    total = len(doc.span_text(start, end))
    for whole_tables in (True, False):
        lo, hi = 0, total  # rendered(lo) fits; the largest k that fits is looked for in [lo, hi]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if rendered(mid, whole_tables)[0] <= chars:
                lo = mid
            else:
                hi = mid - 1
        size, pos = rendered(lo, whole_tables)
        if size:
            return pos
    return pos


def _exact_pos_after(tree: Tree, start: Pos, chars: int) -> Pos:
    """The position ``chars`` characters of span text after ``start`` (units joined by one newline)."""
    units = tree.doc.units
    unit, offset, left = start.unit, start.char, chars
    while unit < len(units):
        available = len(units[unit].text) - offset
        if left <= available:
            return Pos(unit, offset + left)
        left -= available + 1  # the joining newline
        unit, offset = unit + 1, 0
        if left <= 0:
            return Pos(unit, 0)
    return Pos(len(units), 0)
