"""Commands that read the store: ``show`` (a tree's outline), ``text`` (a section's exact text), ``list``,
``versions`` and ``sql`` (read-only DuckDB SQL over the store's views)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from ..errors import TreebuildError
from .options import (
    WIDTH,
    CatalogOpt,
    DocIdArg,
    OutputFormat,
    StoreOpt,
    VersionOpt,
    app,
    cell_text,
    err,
    fail,
    load_tree,
    open_store,
    out,
    print_lines,
    print_table,
    print_warnings,
    unknown_document,
    unknown_node,
    unknown_version,
)

if TYPE_CHECKING:
    import duckdb

    from ..store import Store

__all__ = ["show", "text", "list_documents", "versions", "sql"]


@app.command()
def show(
    doc_id: DocIdArg,
    version: VersionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="PageIndex-format JSON.")] = False,
    depth: Annotated[int | None, typer.Option("--depth", "-d", min=1,
                                              help="Show levels 1..N only (also with --json).")] = None,
    summaries: Annotated[bool, typer.Option("--summaries", "-s",
                                            help="Print each node's summary under it.")] = False,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Show a stored tree as an indented outline with page ranges (or paragraphs and headings)."""
    from ..interop.export import outline_lines, to_pageindex

    try:
        st = open_store(store, catalog)
        tree = load_tree(st, doc_id, version)
    except TreebuildError as exc:
        fail(exc)
    if as_json:
        data = to_pageindex(tree, max_depth=depth)
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")
        return
    out.print(f"[bold]{escape(tree.doc_id or '')}[/] v{tree.version}  {tree.method}  "
              f"{escape(Path(tree.doc.path).name)}", highlight=False)
    if tree.description:
        out.print(tree.description, highlight=False, markup=False)
    for line in outline_lines(tree, max_depth=depth, summaries=summaries):
        out.print(line, highlight=False, markup=False)
    print_warnings(tree.doc_id or tree.doc.path, tree.warnings)


@app.command()
def text(
    doc_id: DocIdArg,
    node_id: Annotated[str, typer.Argument(help="Node id (see `treebuild show DOC_ID`).")],
    version: VersionOpt = None,
    exact: Annotated[bool, typer.Option("--exact", help="The exact text span, tables as the reader read their "
                                                           "cells, not as Markdown tables.")] = False,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Print the text of one section (children included), its tables as Markdown tables."""
    try:
        st = open_store(store, catalog)
        tree = load_tree(st, doc_id, version)
        try:
            node = tree.node(node_id)
        except KeyError:
            raise unknown_node(doc_id, node_id, st, version) from None
    except TreebuildError as exc:
        fail(exc)
    sys.stdout.write(node.text(tables=not exact).rstrip("\n") + "\n")


LIST_PAGE = 50  # documents `treebuild list` prints by default: one screen, read from one slice of `trees`


@app.command("list")
def list_documents(
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=0,
                                       help=f"Documents per page (default {LIST_PAGE}; 0: all).")] = LIST_PAGE,
    offset: Annotated[int, typer.Option("--offset", min=0, help="Skip the first N documents (by doc_id).")] = 0,
) -> None:
    """List stored documents with their latest version, by doc_id, one page at a time."""
    try:
        st = open_store(store, catalog)
        docs = st.documents(limit=limit or None, offset=offset)
        total = st.document_count() if limit and (offset or len(docs) == limit) else None
    except TreebuildError as exc:
        fail(exc)
    rows = [(d.doc_id, d.version, d.node_count, d.method, d.source_name, d.created_at.strftime("%Y-%m-%d %H:%M"))
            for d in docs]
    print_table(["doc_id", "version", "nodes", "method", "source", "created"], rows)
    if total is not None:
        shown = f"{offset + 1}-{offset + len(docs)}" if docs else "none"
        more = f"; next page: --offset {offset + len(docs)}" if offset + len(docs) < total else ""
        err.print(f"documents {shown} of {total}{more} (--limit 0 lists all)", highlight=False)


@app.command()
def versions(doc_id: DocIdArg, store: StoreOpt = None, catalog: CatalogOpt = None) -> None:
    """List every stored version of one document (oldest first)."""
    try:
        st = open_store(store, catalog)
        found = st.versions(doc_id)
        if not found:
            raise unknown_document(doc_id, st)
    except TreebuildError as exc:
        fail(exc)
    rows = [(v.version, v.created_at.strftime("%Y-%m-%d %H:%M:%S"), v.sha256[:12], v.settings_hash, v.node_count,
             v.method, v.source_name) for v in found]
    print_table(["version", "created", "sha256", "settings", "nodes", "method", "source"], rows)


_SQL_HINT = ("views: trees, nodes, units, latest_trees, latest_nodes; "
             "macros: subtree(doc, id), node_path(doc, id), node_text(doc, id)")
_ID_MACROS = frozenset({"subtree", "node_path", "node_text"})


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="Read-only SQL over views trees, nodes, units, tables, latest_trees, "
                                              "latest_nodes, latest_tables and macros subtree, node_path, "
                                              "node_text.")],
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
    fmt: Annotated[OutputFormat, typer.Option(
        "--format", "-f", help="auto: a table, or one 'column = value' line per field when rows are too wide "
                               "for the terminal; table, line, csv or json to choose.")] = OutputFormat.auto,
) -> None:
    """Run read-only DuckDB SQL against the store and print the result."""
    import duckdb

    try:
        st = open_store(store, catalog)
        _check_macro_ids(st.connect(), query, st)  # a statement that is not a query calls no macro here
        columns, rows = st.fetch(query)  # read-only: anything that could change the store is refused
    except TreebuildError as exc:
        fail(exc)
    except duckdb.Error as exc:
        fail(TreebuildError(f"SQL error: {exc}".splitlines()[0], hint=_SQL_HINT))
    if fmt is OutputFormat.json:
        sys.stdout.write(json.dumps([dict(zip(columns, r, strict=True)) for r in rows], default=str,
                                    ensure_ascii=False, indent=1) + "\n")
    elif fmt is OutputFormat.csv:
        import csv

        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows(rows)
    else:
        if fmt is OutputFormat.line or (fmt is OutputFormat.auto and not _fits(columns, rows)):
            print_lines(columns, rows)
        else:
            print_table(columns, rows)
        err.print(f"{len(rows)} row(s)")


def _macro_calls(con: duckdb.DuckDBPyConnection, query: str) -> list[tuple[Any, Any, Any]]:
    """(doc, node, version) of every subtree/node_path/node_text call in the query, wherever it is (joins,
    subqueries, UNION), read from DuckDB's own parse tree. An argument written as a constant is its value,
    a computed one (a column, ``'a' || 'b'``, a parameter) is ``_COMPUTED``; an omitted version is None."""
    try:
        row = con.execute("SELECT json_serialize_sql(?)", [query]).fetchone()
        parsed = json.loads(row[0]) if row else {}
    except (duckdb.Error, ValueError):
        return []
    calls: list[tuple[Any, Any, Any]] = []

    def value(arg: dict[str, Any] | None) -> Any:
        if arg is None:
            return None
        if arg.get("class") != "CONSTANT" or arg["value"].get("is_null"):
            return _COMPUTED
        return arg["value"].get("value")

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("class") == "FUNCTION" and str(node.get("function_name", "")).lower() in _ID_MACROS:
                args = node.get("children") or []
                positional = [a for a in args if not a.get("alias")]
                named = {a["alias"].lower(): a for a in args if a.get("alias")}
                if len(positional) >= 2:
                    version = positional[2] if len(positional) > 2 else named.get("v")
                    calls.append((value(positional[0]), value(positional[1]), value(version)))
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    if not parsed.get("error"):  # only SELECT statements serialise; EXPLAIN/DESCRIBE run no macro
        walk(parsed.get("statements"))
    return calls


_COMPUTED = object()  # an argument the query computes: known only while it runs


def _check_macro_ids(con: duckdb.DuckDBPyConnection, query: str, st: Store) -> None:
    """Before the query runs: every doc, version and node id written as a constant in a subtree/node_path/
    node_text call must exist (else the same error as `show` and `text`); in SQL itself, and for ids the
    query computes, an unknown id is the documented empty result."""
    for doc, node, number in _macro_calls(con, query):
        if doc is _COMPUTED:
            continue
        doc = str(doc)
        versions = [v.version for v in st.versions(doc)]
        if not versions:
            raise unknown_document(doc, st)
        if number is _COMPUTED:
            continue
        given = int(number) if number not in (None, 0) else None  # 0 or omitted: the latest version
        version = given if given is not None else versions[-1]
        if version not in versions:
            raise unknown_version(doc, version, versions, st)
        if node is _COMPUTED:
            continue
        row = con.execute("SELECT count(*) FROM nodes WHERE doc_id = $1 AND version = $2 AND node_id = $3",
                          [doc, version, str(node)]).fetchone()
        if row is None or not row[0]:
            raise unknown_node(doc, str(node), st, given)


def _fits(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> bool:
    """Whether a table of these rows fits the terminal without squeezing cells (capped at 60 chars)."""
    widths = [len(c) for c in columns]
    for r in rows[:200]:
        for i, v in enumerate(r):
            widths[i] = max(widths[i], min(60, max((len(x) for x in cell_text(v).splitlines()), default=0)))
    return sum(widths) + 3 * len(columns) + 1 <= WIDTH
