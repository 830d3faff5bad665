"""Export a tree as JSON in the PageIndex format plus our own audit fields.

PageIndex fields: ``doc_name``, ``doc_description`` and ``structure`` (``title``, ``node_id``,
``start_index``, ``end_index`` = 1-based physical pages, ``summary``, ``nodes``). Ours:
``source``, ``method``, ``model``, ``usage``, ``stats`` and per node ``origin``,
``confidence``, the unit span and, for formats without pages (DOCX, Markdown), a readable
``position``: the 1-based paragraph range and the heading path, e.g.
``paragraphs 162-195 under 'Chapter 3 > Eligibility'``.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..model import Node, Tree

__all__ = ["to_pageindex", "outline_lines", "paragraph_range", "heading_path", "position"]


def paragraph_range(node: Node) -> tuple[int, int]:
    """1-based first and last block (paragraph, heading, table) of a node's span."""
    last = node.end.unit - 1 if node.end.char == 0 and node.end.unit > node.start.unit else node.end.unit
    return node.start.unit + 1, max(node.start.unit, last) + 1


def heading_path(node: Node) -> list[str]:
    """Titles from the top-level section down to this node."""
    return [n.title for n in node.path()]


def position(node: Node) -> str:
    """Where a node is, in words: ``pp. 3-7``, or ``paragraphs 162-195 under 'Chapter 3 > Eligibility'``
    for formats without pages."""
    if node.start_page is not None:
        if node.start_page == node.end_page:
            return f"p. {node.start_page}"
        return f"pp. {node.start_page}-{node.end_page}"
    first, last = paragraph_range(node)
    where = f"paragraph {first}" if first == last else f"paragraphs {first}-{last}"
    return f"{where} under '{' > '.join(heading_path(node))}'"


def _node(node: Node, paged: bool, max_depth: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {"title": node.title, "node_id": node.node_id}
    if paged:
        out["start_index"] = node.start_page
        out["end_index"] = node.end_page
    else:
        first, last = paragraph_range(node)
        out["position"] = position(node)
        out["paragraphs"] = [first, last]
        out["heading_path"] = heading_path(node)
    out["summary"] = node.summary
    out["origin"] = node.origin
    out["confidence"] = round(node.confidence, 3)
    out["span"] = {"start_unit": node.start.unit, "start_char": node.start.char,
                   "end_unit": node.end.unit, "end_char": node.end.char}
    if node.children and (max_depth is None or node.depth < max_depth):
        out["nodes"] = [_node(c, paged, max_depth) for c in node.children]
    return out


def to_pageindex(tree: Tree, *, max_depth: int | None = None) -> dict[str, Any]:
    """The tree as PageIndex JSON; ``max_depth`` keeps levels 1..N of ``structure`` only."""
    doc = tree.doc
    return {
        "doc_name": Path(doc.path).name,
        "doc_description": tree.description,
        "structure": [_node(r, doc.paged, max_depth) for r in tree.roots],
        "source": {"uri": Path(doc.path).resolve().as_uri() if "://" not in doc.path else doc.path,
                   "sha256": doc.sha256, "size": doc.size,
                   "format": doc.format, "page_count": doc.page_count, "title": doc.title,
                   "metadata": doc.metadata},
        "doc_id": tree.doc_id,
        "version": tree.version,
        "method": tree.method,
        "model": tree.model,
        "usage": asdict(tree.usage),
        "settings": tree.settings,
        "stats": tree.stats,
        "warnings": tree.warnings,
        "findings": [f.as_record() for f in tree.findings],
        "meta": tree.meta,
    }


def outline_lines(tree: Tree, *, max_depth: int | None = None, summaries: bool = False) -> list[str]:
    """An indented outline: id, title and page range (or paragraph range and heading path for
    unpaged formats), down to ``max_depth`` levels, optionally with each node's summary on the next line."""
    lines = []
    for node in tree.walk():
        if max_depth is not None and node.depth > max_depth:
            continue
        indent = "  " * (node.depth - 1)
        lines.append(f"{indent}{node.node_id}  {node.title}  [{position(node)}]")
        if summaries and node.summary:
            lines.append(f"{indent}      {' '.join(node.summary.split())}")
    return lines
