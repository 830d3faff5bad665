"""Commands that open the store to people and agents: ``view`` (HTML tree view), ``export`` and
``import-pageindex`` (PageIndex JSON) and ``mcp`` (a read-only MCP server)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ..errors import TreebuildError
from .options import (
    ApiBaseOpt,
    ApiKeyOpt,
    CatalogOpt,
    ModelOpt,
    StoreOpt,
    app,
    err,
    fail,
    model_config,
    out,
    parse_meta,
    print_warnings,
)

__all__ = ["view", "export", "import_pageindex_cmd", "mcp"]

VersionOpt = Annotated[int | None, typer.Option("--version", "-v", help="Version (default latest).")]


@app.command()
def view(
    doc_id: Annotated[str, typer.Argument(help="Document id (see `treebuild list`).")],
    version: VersionOpt = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="HTML file to write (default "
                                                "<doc_id>.html).")] = None,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Write a stored tree as one self-contained HTML file: collapsible tree, text, page thumbnails."""
    from ..store import Store
    from ..view import write_view

    try:
        tree = Store(store, create=False, catalog=catalog).tree(doc_id, version)
        target = output or Path(f"{doc_id}.html")
        result = write_view(tree, target)
    except TreebuildError as exc:
        fail(exc)
    size = target.stat().st_size
    err.print(f"wrote {target} ({result.nodes} sections, {result.thumbnails} page thumbnails, "
              f"{size / 1024:,.0f} KiB)", markup=False, highlight=False)
    for note in result.notes:
        err.print(f"  note: {note}", markup=False, highlight=False)
    out.print(str(target.resolve()), markup=False, highlight=False)


@app.command()
def export(
    doc_id: Annotated[str, typer.Argument(help="Document id.")],
    version: VersionOpt = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write JSON here instead of stdout.")] = None,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Write a stored tree as PageIndex-format JSON (the same shape `build -o` writes)."""
    from ..interop.export import to_pageindex
    from ..store import Store

    try:
        tree = Store(store, create=False, catalog=catalog).tree(doc_id, version)
    except TreebuildError as exc:
        fail(exc)
    text = json.dumps(to_pageindex(tree), indent=2, ensure_ascii=False, default=str) + "\n"
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(TreebuildError(f"cannot write output: {exc.strerror}", path=str(output)))
    err.print(f"wrote {output} ({doc_id} v{tree.version}, {sum(1 for _ in tree.walk())} nodes)", markup=False)


@app.command("import-pageindex")
def import_pageindex_cmd(
    tree_json: Annotated[Path, typer.Argument(help="PageIndex JSON tree (from PageIndex or `treebuild export`).")],
    source: Annotated[Path, typer.Option("--source", help="The document the tree describes (PDF, DOCX, MD).")],
    doc_id: Annotated[str | None, typer.Option("--doc-id", help="doc_id (default from the source file name).")]
    = None,
    meta: Annotated[list[str] | None, typer.Option("--meta", help="Tag as key=value; repeatable.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Make a new version even if unchanged.")] = False,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Store a PageIndex tree as a version of a document (origin `imported`), with text spans from the source."""
    from ..interop.pageindex import import_pageindex
    from ..store import Store

    try:
        result = import_pageindex(tree_json, source, Store(store, catalog=catalog), doc_id=doc_id,
                                  meta=parse_meta(meta), force=force)
    except TreebuildError as exc:
        fail(exc)
    word = "[green]created[/]  " if result.created else "[dim]unchanged[/]"
    out.print(f"{word} {escape(result.doc_id)} v{result.version}  (imported from {escape(tree_json.name)})",
              highlight=False)
    print_warnings(str(source), [f.text for f in result.findings])


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


@app.command()
def mcp(
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
    filter: Annotated[list[str] | None, typer.Option("--filter", help="Only documents with key=value: a --meta "
                                                     "tag, doc_id or format; repeatable (a repeated key accepts any "
                                                     "of its values). Restricts every tool.")] = None,
    transport: Annotated[Transport, typer.Option("--transport", help="stdio (launched by the agent) or http "
                                                 "(streamable HTTP at http://HOST:PORT/mcp).")] = Transport.stdio,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (http).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on (http; 0: any free "
                                                   "port, printed once bound).")] = 8000,
    navigator: Annotated[str | None, typer.Option("--navigator", help="Navigator of the navigate tool: 'lexical' "
                                                  "(offline, not a language model; the default) or 'litellm' (the "
                                                  "default when --model names a model).")] = None,
    model: ModelOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
) -> None:
    """Serve the store read-only to agents over MCP (tools list_documents, get_structure, get_section, ...)."""
    try:
        import mcp as _sdk  # noqa: F401
    except ImportError:
        fail(TreebuildError("the MCP SDK is not installed", hint="pip install 'treebuild[mcp]'"))
    from ..agents.mcp_server import serve
    from ..query import resolve_navigator
    from ..query.access import parse_filter_items
    from ..store import Store

    try:
        scope = parse_filter_items(filter or [])
        st = Store(store, create=False, catalog=catalog)
        config = model_config(model, api_base=api_base, api_key=api_key)
        name = navigator or ("lexical" if config.offline else "litellm")
        resolve_navigator(name, config)
    except TreebuildError as exc:
        fail(exc)
    shown = json.dumps(scope.to_dict()) if not scope.empty else "all documents"

    def listening(url: str) -> None:
        err.print(f"treebuild MCP server on {url}  (store {st.root}; {shown}; navigator {name})", markup=False,
                  highlight=False)

    serve(st, scope, transport="stdio" if transport is Transport.stdio else "http", host=host, port=port,
          navigator=name, config=config, on_listening=listening)
