"""The ``treebuild`` command: a thin layer over the library (build, ingest, show, sql, list).

Expected failures (a missing file, a broken PDF, an unknown doc_id, bad SQL) print one line
naming the file and cause to stderr and exit 1; they never show a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from . import __version__
from .errors import TreebuildError

__all__ = ["app", "main"]

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Turn long documents into table-of-contents trees stored as versioned Parquet.")
_WIDTH = shutil.get_terminal_size(fallback=(200, 24)).columns  # wide tables when piped
out = Console(soft_wrap=True, width=_WIDTH)
err = Console(stderr=True, soft_wrap=True)

class OutputFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


StoreOpt = Annotated[Path | None, typer.Option("--store", envvar="TREEBUILD_STORE",
                                                help="Store folder (default ./treestore).")]
ModelOpt = Annotated[str | None, typer.Option("--model", envvar="TREEBUILD_MODEL",
                                              help="litellm model id; default 'extractive' (offline, non-LLM).")]
ApiBaseOpt = Annotated[str | None, typer.Option("--api-base", help="Base URL of an OpenAI-compatible server "
                                                "(env TREEBUILD_API_BASE).")]
ApiKeyOpt = Annotated[str | None, typer.Option("--api-key", help="API key (better: env TREEBUILD_API_KEY or the "
                                               "provider's own variable).", show_default=False)]
MaxCallsOpt = Annotated[int | None, typer.Option("--max-calls", min=0, help="Model requests per document.")]
MaxTokensOpt = Annotated[int | None, typer.Option("--max-tokens", min=0, help="Model tokens per document.")]
MaxSecondsOpt = Annotated[float | None, typer.Option("--max-seconds", min=0.001,
                                                     help="Seconds of model work per document.")]
ConcurrencyOpt = Annotated[int | None, typer.Option("--concurrency", min=1, help="Model requests in flight.")]
TimeoutOpt = Annotated[float | None, typer.Option("--timeout", min=0.001, help="Seconds per model request.")]
ModelStructureOpt = Annotated[bool, typer.Option("--model-structure", help="Ask the model for sections when the "
                                                 "document has no outline, TOC or headings (verified on pages).")]


def _fail(exc: BaseException) -> None:
    err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
    raise typer.Exit(1)


def _settings(ignore_outline: bool, model: str, no_subdivide: bool, model_structure: bool) -> Any:
    from .settings import BuildSettings

    return BuildSettings(ignore_outline=ignore_outline, model=model, subdivide=not no_subdivide,
                         structure_fallback=model_structure)


def _model_config(model: str | None, **given: Any) -> Any:
    """ModelConfig from the flags actually given; everything else from TREEBUILD_* env or defaults."""
    from pydantic import ValidationError

    from .settings import ModelConfig

    values = {k: v for k, v in given.items() if v is not None}
    if model is not None:
        values["model"] = model
    try:
        return ModelConfig(**values)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise TreebuildError(f"invalid model setting {where}: {first['msg']}",
                             hint="check the flag or the TREEBUILD_* environment variable") from None


def _parse_meta(items: list[str] | None) -> dict[str, str]:
    meta: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise TreebuildError(f"--meta expects key=value, got {item!r}")
        meta[key.strip()] = value
    return meta


@app.command()
def build(
    file: Annotated[Path, typer.Argument(help="PDF, DOCX or Markdown file.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write JSON here instead of stdout.")] = None,
    ignore_outline: Annotated[bool, typer.Option("--ignore-outline", help="Build as if the PDF had no bookmarks.")]
    = False,
    no_subdivide: Annotated[bool, typer.Option("--no-subdivide", help="Keep large leaves whole.")] = False,
    model: ModelOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    max_calls: MaxCallsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_seconds: MaxSecondsOpt = None,
    concurrency: ConcurrencyOpt = None,
    timeout: TimeoutOpt = None,
    model_structure: ModelStructureOpt = False,
) -> None:
    """Build one tree without a store and print it as PageIndex-format JSON."""
    from .export import to_pageindex
    from .pipeline import build as build_tree

    try:
        config = _model_config(model, api_base=api_base, api_key=api_key, max_calls=max_calls,
                               max_tokens=max_tokens, max_seconds=max_seconds, concurrency=concurrency,
                               timeout=timeout)
        settings = _settings(ignore_outline, config.model, no_subdivide, model_structure)
        with err.status(f"building {file.name}…"):
            tree = build_tree(file, settings, model_config=config)
    except TreebuildError as exc:
        _fail(exc)
    text = json.dumps(to_pageindex(tree), indent=2, ensure_ascii=False, default=str)
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        try:
            output.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            _fail(TreebuildError(f"cannot write output: {exc.strerror}", path=str(output)))
        err.print(f"wrote {output} ({tree.stats.get('nodes')} nodes, method {tree.method})", markup=False)


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders (searched recursively).")],
    store: StoreOpt = None,
    doc_id: Annotated[str | None, typer.Option("--doc-id", help="doc_id for a single file.")] = None,
    meta: Annotated[list[str] | None, typer.Option("--meta", help="Tag as key=value; repeatable.")] = None,
    ignore_outline: Annotated[bool, typer.Option("--ignore-outline")] = False,
    no_subdivide: Annotated[bool, typer.Option("--no-subdivide")] = False,
    force: Annotated[bool, typer.Option("--force", help="Make a new version even if unchanged.")] = False,
    model: ModelOpt = None,
    api_base: ApiBaseOpt = None,
    api_key: ApiKeyOpt = None,
    max_calls: MaxCallsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_seconds: MaxSecondsOpt = None,
    concurrency: ConcurrencyOpt = None,
    timeout: TimeoutOpt = None,
    model_structure: ModelStructureOpt = False,
) -> None:
    """Build documents and commit them to the store as new versions (unchanged ones are skipped)."""
    from .ingestion import expand_paths, ingest_many
    from .store import Store

    try:
        st = Store(store)
        files = expand_paths(paths)
        tags = _parse_meta(meta)
        config = _model_config(model, api_base=api_base, api_key=api_key, max_calls=max_calls,
                               max_tokens=max_tokens, max_seconds=max_seconds, concurrency=concurrency,
                               timeout=timeout)
        settings = _settings(ignore_outline, config.model, no_subdivide, model_structure)
    except TreebuildError as exc:
        _fail(exc)
    if not files:
        _fail(TreebuildError("no supported documents found", path=", ".join(map(str, paths))))
    failed = 0
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("ingesting", total=len(files))

        def report(res: Any) -> None:
            nonlocal failed
            progress.advance(task)
            if res.status == "error":
                failed += 1
                err.print(f"[red]error[/]    {escape(res.error or '')}", highlight=False)
            else:
                word = "[green]created[/]  " if res.status == "created" else "[dim]unchanged[/]"
                out.print(f"{word} {escape(res.doc_id)} v{res.version}  ({res.nodes} nodes, {res.method}, "
                          f"{res.seconds:.2f}s)", highlight=False)

        try:
            ingest_many(files, st, doc_id=doc_id, meta=tags, settings=settings, model_config=config, force=force,
                        on_result=report)
        except TreebuildError as exc:
            _fail(exc)
    if failed:
        err.print(f"{failed} of {len(files)} document(s) failed")
        raise typer.Exit(1)


@app.command()
def show(
    doc_id: Annotated[str, typer.Argument(help="Document id (see `treebuild list`).")],
    version: Annotated[int | None, typer.Option("--version", "-v", help="Version (default latest).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="PageIndex-format JSON.")] = False,
    depth: Annotated[int | None, typer.Option("--depth", "-d", min=1, help="Show levels 1..N only.")] = None,
    summaries: Annotated[bool, typer.Option("--summaries", "-s", help="Print each node's summary under it.")]
    = False,
    store: StoreOpt = None,
) -> None:
    """Show a stored tree as an indented outline with page ranges."""
    from .export import outline_lines, to_pageindex
    from .store import Store

    try:
        tree = Store(store, create=False).tree(doc_id, version)
    except TreebuildError as exc:
        _fail(exc)
    if as_json:
        sys.stdout.write(json.dumps(to_pageindex(tree), indent=2, ensure_ascii=False, default=str) + "\n")
        return
    out.print(f"[bold]{escape(tree.doc_id or '')}[/] v{tree.version}  {tree.method}  "
              f"{escape(Path(tree.doc.path).name)}", highlight=False)
    if tree.description:
        out.print(tree.description, highlight=False, markup=False)
    for line in outline_lines(tree, max_depth=depth, summaries=summaries):
        out.print(line, highlight=False, markup=False)


@app.command("list")
def list_documents(store: StoreOpt = None) -> None:
    """List stored documents with their latest version."""
    from .store import Store

    try:
        docs = Store(store, create=False).documents()
    except TreebuildError as exc:
        _fail(exc)
    table = Table("doc_id", "version", "nodes", "method", "source", "created")
    for d in docs:
        table.add_row(*_cells(d.doc_id, d.version, d.node_count, d.method, d.source_name,
                              d.created_at.strftime("%Y-%m-%d %H:%M")))
    out.print(table)


@app.command()
def versions(
    doc_id: Annotated[str, typer.Argument(help="Document id.")],
    store: StoreOpt = None,
) -> None:
    """List every stored version of one document (oldest first)."""
    from .errors import NotFound
    from .store import Store

    try:
        st = Store(store, create=False)
        found = st.versions(doc_id)
        if not found:
            raise NotFound(f"no document {doc_id!r} in store", path=str(st.root),
                           hint="see `treebuild list`")
    except TreebuildError as exc:
        _fail(exc)
    table = Table("version", "created", "sha256", "settings", "nodes", "method", "source")
    for v in found:
        table.add_row(*_cells(v.version, v.created_at.strftime("%Y-%m-%d %H:%M:%S"), v.sha256[:12], v.settings_hash,
                              v.node_count, v.method, v.source_name))
    out.print(table)


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="SQL over views trees, nodes, units, latest_trees, latest_nodes.")],
    store: StoreOpt = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="Output format.")] = OutputFormat.table,
) -> None:
    """Run DuckDB SQL against the store and print the result."""
    import duckdb

    from .store import Store

    try:
        con = Store(store, create=False).connect()
        rel = con.sql(query)
        if rel is None:
            return
        columns = rel.columns
        rows = rel.fetchall()
    except TreebuildError as exc:
        _fail(exc)
    except duckdb.Error as exc:
        _fail(TreebuildError(f"SQL error: {exc}".splitlines()[0],
                             hint="views: trees, nodes, units, latest_trees, latest_nodes; "
                                  "macros: subtree(doc, id), node_path(doc, id), node_text(doc, id)"))
    if fmt is OutputFormat.json:
        sys.stdout.write(json.dumps([dict(zip(columns, r, strict=True)) for r in rows], default=str,
                                    ensure_ascii=False, indent=1) + "\n")
    elif fmt is OutputFormat.csv:
        import csv

        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows(rows)
    else:
        table = Table()
        for c in columns:
            table.add_column(Text(c))
        for r in rows:
            table.add_row(*_cells(*r))
        out.print(table)
        err.print(f"{len(rows)} row(s)")


def _cells(*values: Any) -> list[Text]:
    """Table cells as plain text: document titles and paths may contain Rich markup characters."""
    return [Text("" if v is None else str(v)) for v in values]


def _version_callback(value: bool) -> None:
    if value:
        out.print(f"treebuild {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version_callback, is_eager=True)] = False,
) -> None:
    pass


def main() -> None:
    """Entry point: expected failures exit 1 with one line; a bug exits 2 with one line and where
    it happened (set TREEBUILD_DEBUG=1 for the full traceback)."""
    try:
        app()
    except Exception as exc:
        if os.environ.get("TREEBUILD_DEBUG"):
            raise
        import traceback

        last = traceback.extract_tb(exc.__traceback__)[-1]
        err.print(f"unexpected error: {type(exc).__name__}: {exc} (at {Path(last.filename).name}:{last.lineno}; "
                  "set TREEBUILD_DEBUG=1 for the traceback and please report it)", markup=False, highlight=False)
        sys.exit(2)
from . import cli_agents  # noqa: E402,F401,I001  (registers commands)
from . import cli_query  # noqa: E402,F401  (registers commands)
