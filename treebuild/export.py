"""Export a tree as JSON in the PageIndex format plus our own audit fields.

PageIndex fields: ``doc_name``, ``doc_description`` and ``structure`` (``title``, ``node_id``,
``start_index``, ``end_index`` = 1-based physical pages, ``summary``, ``nodes``). Ours:
``source``, ``method``, ``model``, ``usage``, ``stats`` and per node ``origin``,
``confidence`` and the unit span.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from .model import Node, Tree

__all__ = ["to_pageindex", "outline_lines"]


def _node(node: Node, paged: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"title": node.title, "node_id": node.node_id}
    if paged:
        out["start_index"] = node.start_page
        out["end_index"] = node.end_page
    out["summary"] = node.summary
    out["origin"] = node.origin
    out["confidence"] = round(node.confidence, 3)
    out["span"] = {"start_unit": node.start.unit, "start_char": node.start.char,
                   "end_unit": node.end.unit, "end_char": node.end.char}
    if node.children:
        out["nodes"] = [_node(c, paged) for c in node.children]
    return out


def to_pageindex(tree: Tree) -> dict[str, Any]:
    doc = tree.doc
    return {
        "doc_name": Path(doc.path).name,
        "doc_description": tree.description,
        "structure": [_node(r, doc.paged) for r in tree.roots],
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
        "meta": tree.meta,
    }


def outline_lines(tree: Tree, *, max_depth: int | None = None, summaries: bool = False) -> list[str]:
    """An indented outline: id, title and page range (or unit range for unpaged formats),
    down to ``max_depth`` levels, optionally with each node's summary on the next line."""
    lines = []
    for node in tree.walk():
        if max_depth is not None and node.depth > max_depth:
            continue
        indent = "  " * (node.depth - 1)
        if node.start_page is not None:
            where = f"p. {node.start_page}" if node.start_page == node.end_page else \
                f"pp. {node.start_page}-{node.end_page}"
        else:
            where = f"units {node.start.unit}-{node.end.unit}"
        lines.append(f"{indent}{node.node_id}  {node.title}  [{where}]")
        if summaries and node.summary:
            lines.append(f"{indent}      {' '.join(node.summary.split())}")
    return lines
