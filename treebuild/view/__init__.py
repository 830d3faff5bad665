"""A stored tree as one self-contained HTML file, for checking a tree against its document.

The page needs no server and loads nothing from the network (a Content-Security-Policy forbids
it): the tree, the text and the PDF page thumbnails are embedded. Titles and text come from
documents and are untrusted: they travel as JSON inside a ``<script type="application/json">``
block with ``<``, ``>`` and ``&`` escaped, and the page's script only ever puts them into the
DOM as text. Big documents stay bounded: text per node and the number of thumbnails are capped,
and the page says what was capped.
"""

from __future__ import annotations

import html
import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import TreebuildError
from ..model import Format, Node, Tree
from .template import PAGE
from .thumbnails import render_thumbnails, source_problem

__all__ = ["ViewLimits", "ViewResult", "render_view", "write_view"]


@dataclass(frozen=True)
class ViewLimits:
    """Size bounds of one view file."""

    node_text_chars: int = 4_000  # the most text shown for one node
    min_node_text_chars: int = 400  # the least, however many nodes the tree has
    text_budget_chars: int = 1_500_000  # all node text together (~1.5 MB of HTML)
    summary_chars: int = 1_200  # summaries are short; a runaway one is cut
    thumb_pages_per_node: int = 2  # first pages of a section
    max_thumbnails: int = 150  # distinct pages rendered (~1 MB), shallow nodes first


@dataclass
class ViewResult:
    """What went into a view: its HTML and what was capped or missing."""

    html: str
    nodes: int
    thumbnails: int
    notes: list[str] = field(default_factory=list)


def _node_text_cap(count: int, limits: ViewLimits) -> int:
    return max(limits.min_node_text_chars, min(limits.node_text_chars, limits.text_budget_chars // max(count, 1)))


def _thumb_pages(tree: Tree, limits: ViewLimits) -> tuple[dict[str, list[int]], set[int], int]:
    """Pages to show per node, breadth-first so top-level sections get theirs before deep ones;
    returns them, the distinct pages to render and how many nodes lost theirs to the cap."""
    per_node: dict[str, list[int]] = {}
    chosen: set[int] = set()
    skipped = 0
    queue: deque[Node] = deque(tree.roots)
    while queue:
        node = queue.popleft()
        queue.extend(node.children)
        if node.start_page is None:
            continue
        last = node.end_page if node.end_page is not None else node.start_page
        pages = list(range(node.start_page, min(last, node.start_page + limits.thumb_pages_per_node - 1) + 1))
        new = [p for p in pages if p not in chosen]
        if len(chosen) + len(new) > limits.max_thumbnails:
            skipped += 1
            continue
        chosen.update(new)
        per_node[node.node_id] = pages
    return per_node, chosen, skipped


def _cut(text: str, cap: int) -> tuple[str, bool]:
    return (text, False) if len(text) <= cap else (text[:cap], True)


def render_view(tree: Tree, *, limits: ViewLimits | None = None, thumbnails: bool = True) -> ViewResult:
    """The HTML page for ``tree`` (a stored or freshly built one)."""
    limits = limits or ViewLimits()
    doc = tree.doc
    nodes = list(tree.walk())
    notes: list[str] = []
    cap = _node_text_cap(len(nodes), limits)
    thumbs: dict[int, str] = {}
    per_node: dict[str, list[int]] = {}
    if doc.format == Format.pdf and thumbnails:
        problem = source_problem(doc.path, doc.sha256)
        if problem is None:
            per_node, pages, skipped = _thumb_pages(tree, limits)
            thumbs, problem = render_thumbnails(doc.path, sorted(pages))
            if skipped:
                notes.append(f"page thumbnails capped at {limits.max_thumbnails} pages: {skipped} deeper "
                             "section(s) show none")
        if problem:
            notes.append(f"{problem}; page thumbnails are not shown")
    elif doc.format != Format.pdf:
        notes.append(f"page thumbnails are shown for PDFs only (this is {doc.format})")
    rows: list[dict[str, Any]] = []
    cut_count = 0
    for n in nodes:
        text, cut = _cut(n.own_text(tables=True), cap)
        cut_count += cut
        summary = _cut(n.summary, limits.summary_chars)[0] if n.summary else None
        rows.append({
            "id": n.node_id, "parent": n.parent_id, "depth": n.depth, "title": n.title,
            "sp": n.start_page, "ep": n.end_page, "origin": n.origin, "conf": round(n.confidence, 3),
            "summary": summary, "summaryOrigin": n.summary_origin, "text": text, "cut": cut,
            "chars": len(n.text()), "ownChars": len(n.own_text()), "children": len(n.children),
            "thumbs": [p for p in per_node.get(n.node_id, []) if p in thumbs],
        })
    if cut_count:
        notes.append(f"text capped at {cap:,} characters per section: {cut_count} of {len(nodes)} section(s) "
                     "are cut (`treebuild show` or the store hold the full text)")
    data = {
        "doc": {"docId": tree.doc_id, "version": tree.version, "title": doc.display_title,
                "description": tree.description, "method": tree.method, "model": tree.model,
                "source": doc.path, "format": doc.format, "pages": doc.page_count, "nodes": len(nodes),
                "sha256": doc.sha256, "meta": tree.meta, "findings": [f.as_record() for f in tree.findings]},
        "notes": notes,
        "nodes": rows,
        "thumbs": {str(p): uri for p, uri in thumbs.items()},
    }
    title = f"{tree.doc_id or doc.display_title} v{tree.version}" if tree.version else doc.display_title
    page = PAGE.replace("{{TITLE}}", html.escape(title)).replace("{{DATA}}", _script_json(data))
    return ViewResult(html=page, nodes=len(nodes), thumbnails=len(thumbs), notes=notes)


def _script_json(data: dict[str, Any]) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>``, comment or entity can form."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def write_view(tree: Tree, output: str | Path, *, limits: ViewLimits | None = None) -> ViewResult:
    """Write the view of ``tree`` to ``output`` (one HTML file) and return what went into it."""
    result = render_view(tree, limits=limits)
    out = Path(output)
    try:
        out.write_text(result.html, encoding="utf-8")
    except OSError as exc:
        raise TreebuildError(f"cannot write the view: {exc.strerror or exc}", path=str(out),
                             hint="choose a writable path with -o") from None
    return result
