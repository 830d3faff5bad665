"""Converting trees to the store's tables (trees, nodes, units, grids) and back.

Loading rebuilds real :class:`~treebuild.model.Tree` objects over the stored unit text, so a
stored node's ``text()`` is the same exact span the builder cut.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..findings import from_records
from ..model import Format, Method, Node, Origin, Pos, SourceDoc, Table, Tree, Unit, UnitKind, Usage
from .schema import SCHEMA_VERSION, arrow_schema

if TYPE_CHECKING:  # the writers import pyarrow when they run; loading a tree (`show`) never needs it
    import pyarrow as pa

__all__ = ["tree_rows", "node_rows", "unit_rows", "grid_rows", "load_tree", "load_table", "map_column"]


def _map(d: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(k), str(v)) for k, v in sorted(d.items())]


def tree_rows(tree: Tree, *, doc_id: str, version: int, load_id: str, created_at: datetime,
              settings_hash: str) -> pa.Table:
    doc = tree.doc
    nodes = list(tree.walk())
    u = tree.usage
    row = {
        "doc_id": doc_id,
        "version": version,
        "created_at": created_at,
        "source_uri": Path(doc.path).resolve().as_uri(),
        "source_name": Path(doc.path).name,
        "sha256": doc.sha256,
        "size_bytes": doc.size,
        "format": doc.format,
        "page_count": doc.page_count,
        "unit_count": len(doc.units),
        "title": doc.title,
        "file_metadata": _map(doc.metadata),
        "meta": _map(tree.meta),
        "settings": json.dumps(tree.settings, sort_keys=True),
        "settings_hash": settings_hash,
        "builder_version": str(tree.stats.get("builder_version", "")),
        "method": tree.method,
        "description": tree.description,
        "description_key": tree.description_key,
        "model": tree.model,
        "calls": u.calls,
        "prompt_tokens": u.prompt_tokens,
        "completion_tokens": u.completion_tokens,
        "cost_usd": u.cost_usd,
        "retries": u.retries,
        "failures": _map(u.failures),
        "reused_summaries": u.reused,
        "build_seconds": float(tree.stats.get("seconds", 0.0)),
        "node_count": len(nodes),
        "max_depth": max((n.depth for n in nodes), default=0),
        "stats": json.dumps(tree.stats, sort_keys=True, default=str),
        "warnings": tree.warnings,
        "schema_version": SCHEMA_VERSION,
        "load_id": load_id,
        "findings": [f.as_record() for f in tree.findings],
    }
    import pyarrow as pa

    return pa.Table.from_pylist([row], schema=arrow_schema("trees"))


def node_rows(tree: Tree, *, doc_id: str, version: int, load_id: str) -> pa.Table:
    rows = []
    for n in tree.walk():
        own_end = n.own_end()
        rows.append({
            "doc_id": doc_id, "version": version, "node_id": n.node_id, "parent_id": n.parent_id,
            "depth": n.depth, "ordinal": n.ordinal, "title": n.title, "origin": n.origin,
            "confidence": n.confidence, "start_page": n.start_page, "end_page": n.end_page,
            "start_unit": n.start.unit, "start_char": n.start.char,
            "end_unit": n.end.unit, "end_char": n.end.char,
            "own_end_unit": own_end.unit, "own_end_char": own_end.char,
            "path_ids": [p.node_id for p in n.path()[:-1]], "child_count": len(n.children),
            "text_chars": len(n.text()) if n._doc is not None else None, "text_sha256": n.text_sha256,
            "summary": n.summary, "summary_origin": n.summary_origin, "summary_key": n.summary_key,
            "schema_version": SCHEMA_VERSION, "load_id": load_id,
        })
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=arrow_schema("nodes"))


def unit_rows(tree: Tree, *, doc_id: str, version: int, load_id: str) -> pa.Table:
    units = tree.doc.units
    n = len(units)
    columns = {
        "doc_id": [doc_id] * n, "version": [version] * n,
        "unit_index": [u.index for u in units], "kind": [u.kind for u in units],
        "page": [u.page for u in units], "label": [u.label for u in units],
        "heading_level": [u.heading_level for u in units], "style": [u.style for u in units],
        "text": [u.text for u in units],
        "schema_version": [SCHEMA_VERSION] * n, "load_id": [load_id] * n,
    }
    import pyarrow as pa

    return pa.Table.from_pydict(columns, schema=arrow_schema("units"))


def grid_rows(tree: Tree, *, doc_id: str, version: int, load_id: str) -> pa.Table:
    """One row per table of the document, with the deepest node whose span holds it (its whole span)."""
    rows = []
    holders = _holders(tree)
    for i, t in enumerate(tree.doc.tables):
        rows.append({
            "doc_id": doc_id, "version": version, "table_index": i, "node_id": holders(t),
            "unit_index": t.unit, "start_char": t.start, "end_char": t.end, "page": t.page,
            "bbox": list(t.bbox) if t.bbox is not None else None, "title": t.title,
            "header_rows": t.header_rows, "label_columns": t.label_columns, "n_rows": len(t.rows), "n_cols": t.width,
            "header": [list(r) for r in t.header], "rows": [list(r) for r in t.body], "row_labels": t.row_labels,
            "markdown": t.markdown(), "schema_version": SCHEMA_VERSION, "load_id": load_id,
        })
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=arrow_schema("grids"))


def _holders(tree: Tree) -> Any:
    """``table -> node_id`` of the deepest node whose span holds the table's whole span (None: no node does)."""

    def holder(t: Table) -> str | None:
        first, last = Pos(t.unit, t.start), Pos(t.unit, t.end)
        found: Node | None = None
        level = tree.roots
        while True:
            inside = next((n for n in level if n.start <= first and last <= n.end), None)
            if inside is None:
                return found.node_id if found is not None else None
            found, level = inside, inside.children

    return holder


def load_table(r: Mapping[str, Any]) -> Table:
    """A stored ``grids`` row as a :class:`Table`."""
    header = [list(x) for x in r["header"] or []]
    bbox = r["bbox"]
    return Table(unit=r["unit_index"], start=r["start_char"], end=r["end_char"],
                 rows=tuple(tuple(x) for x in header + [list(x) for x in r["rows"] or []]),
                 header_rows=len(header), label_columns=r["label_columns"] or 0, title=r["title"], page=r["page"],
                 bbox=(bbox[0], bbox[1], bbox[2], bbox[3]) if bbox is not None and len(bbox) == 4 else None)


def map_column(value: Mapping[str, str] | Sequence[tuple[str, str]] | None) -> dict[str, str]:
    """A MAP column as a dict: DuckDB returns a dict, Arrow a list of (key, value) pairs."""
    if not value:
        return {}
    return dict(value.items() if isinstance(value, Mapping) else value)


def load_tree(tree_row: dict[str, Any], nodes: Sequence[dict[str, Any]], units: Sequence[dict[str, Any]],
              grids: Sequence[dict[str, Any]] = ()) -> Tree:
    """Rebuild a Tree (with its SourceDoc of stored units and tables) from table rows (dicts, in any order)."""
    unit_list = [
        Unit(index=r["unit_index"], kind=UnitKind(r["kind"]), text=r["text"], page=r["page"], label=r["label"],
             heading_level=r["heading_level"], style=r["style"])
        for r in sorted(units, key=lambda r: r["unit_index"])
    ]
    source_uri = tree_row["source_uri"]
    doc = SourceDoc(
        path=_uri_path(source_uri), format=_format(tree_row["format"]), units=unit_list, sha256=tree_row["sha256"],
        size=tree_row["size_bytes"], title=tree_row["title"], metadata=map_column(tree_row["file_metadata"]),
        page_count=tree_row["page_count"],
        tables=[load_table(r) for r in sorted(grids, key=lambda r: r["table_index"])],
    )
    by_id: dict[str, Node] = {}
    roots: list[Node] = []
    for r in sorted(nodes, key=lambda r: r["node_id"]):
        node = Node(
            node_id=r["node_id"], title=r["title"], depth=r["depth"], ordinal=r["ordinal"],
            start=Pos(r["start_unit"], r["start_char"]), end=Pos(r["end_unit"], r["end_char"]),
            origin=Origin(r["origin"]), confidence=r["confidence"], start_page=r["start_page"], end_page=r["end_page"],
            summary=r["summary"], summary_origin=r["summary_origin"], summary_key=r["summary_key"],
            text_sha256=r["text_sha256"], _doc=doc,
        )
        by_id[node.node_id] = node
        parent = by_id.get(r["parent_id"]) if r["parent_id"] else None
        node.parent = parent
        (parent.children if parent is not None else roots).append(node)
    for siblings in [roots, *(n.children for n in by_id.values())]:
        siblings.sort(key=lambda n: n.ordinal)
    failures = {k: int(v) for k, v in map_column(tree_row["failures"]).items()}
    usage = Usage(calls=tree_row["calls"] or 0, prompt_tokens=tree_row["prompt_tokens"] or 0,
                  completion_tokens=tree_row["completion_tokens"] or 0, cost_usd=tree_row["cost_usd"] or 0.0,
                  failures=failures, reused=tree_row["reused_summaries"] or 0, retries=tree_row.get("retries") or 0)
    return Tree(
        doc=doc, roots=roots, method=Method(tree_row["method"]), settings=json.loads(tree_row["settings"] or "{}"),
        stats=json.loads(tree_row["stats"] or "{}"), description=tree_row["description"],
        description_key=tree_row.get("description_key"), model=tree_row["model"],
        usage=usage, findings=from_records(tree_row.get("findings"), tree_row["warnings"] or []),
        doc_id=tree_row["doc_id"],
        version=tree_row["version"], meta=map_column(tree_row["meta"]),
    )


def _uri_path(uri: str) -> str:
    from urllib.parse import unquote, urlparse

    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _format(name: str) -> Format | str:
    """A stored format: a built-in one as :class:`Format`, a plug-in reader's as its name."""
    try:
        return Format(name)
    except ValueError:
        return name
