"""The ``treebuild`` command: a thin layer over the library (build, ingest, show, text, sql, list).

Expected failures (a missing file, a broken PDF, an unknown doc_id, bad SQL) print one line
naming the file and cause to stderr and exit 1; they never show a traceback. Heavy modules
(PyMuPDF, DuckDB, pyarrow, litellm, pydantic-settings, Prefect) are imported inside the
commands that need them, so ``--help``, ``list``, ``show`` and ``sql`` start quickly
(``bench/startup.py`` measures it).

Other modules add commands with ``from .cli import app, out, err, StoreOpt, _fail`` (plus
``build_options``/``BuildOptions`` for the shared build and model flags, ``print_result`` and
``print_summary`` for per-document outcomes and warnings) and one import line at the end of
this file.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from .errors import NotFound, TreebuildError

if TYPE_CHECKING:
    import duckdb

    from .ingestion import IngestResult, Scan
    from .model import Tree
    from .settings import BuildSettings, ModelConfig
    from .store import Store

__all__ = ["app", "main", "out", "err", "StoreOpt", "CatalogOpt", "ModelOpt", "ApiBaseOpt", "ApiKeyOpt",
           "BuildOptions",
           "build_options", "print_result", "print_warnings", "print_summary", "unknown_document", "unknown_node",
           "unknown_version", "open_store"]

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,  # plain click help: no `<bool>` placeholders after flags
                  context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110},
                  help="Turn long documents into table-of-contents trees stored as versioned Parquet.")
_WIDTH = shutil.get_terminal_size(fallback=(200, 24)).columns  # wide tables when piped
out = Console(soft_wrap=True, width=_WIDTH)
err = Console(stderr=True, soft_wrap=True)


class OutputFormat(StrEnum):
    auto = "auto"
    table = "table"
    line = "line"
    csv = "csv"
    json = "json"


# A string end to end: a Path would collapse s3://bucket/prefix to s3:/bucket/prefix.
StoreOpt = Annotated[str | None, typer.Option("--store", envvar="TREEBUILD_STORE",
                                               help="Store folder or s3://bucket/prefix (default ./treestore; "
                                                    "env TREEBUILD_STORE).")]
CatalogOpt = Annotated[str | None, typer.Option(
    "--catalog", envvar="TREEBUILD_CATALOG",
    help="Catalog of an s3:// store or a shared one: a SQLite file, or postgres:dbname=... host=... "
         "(password from PGPASSWORD). Default: catalog.sqlite in the store folder.")]
DocIdArg = Annotated[str, typer.Argument(help="Document id (see `treebuild list`).")]
VersionOpt = Annotated[int | None, typer.Option("--version", "-v", min=1, help="Version (default: the latest).")]


def _fail(exc: BaseException) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
    raise typer.Exit(1)


# ---------------------------------------------------------------------- unknown ids, one wording
def unknown_document(doc_id: str, store: Store) -> NotFound:
    """The error every command gives for a doc_id the store does not hold."""
    return NotFound(f"no document {doc_id!r} in store", path=str(store.root), hint="see `treebuild list`")


def unknown_node(doc_id: str, node_id: str, store: Store, version: int | None = None) -> NotFound:
    """The error every command gives for a node_id the document does not have."""
    which = f" version {version}" if version is not None else ""
    return NotFound(f"document {doc_id!r}{which} has no node {node_id!r}", path=str(store.root),
                    hint=f"see `treebuild show {doc_id}`")


def unknown_version(doc_id: str, version: int, versions: Sequence[int], store: Store) -> NotFound:
    """The error every command gives for a version the document does not have."""
    return NotFound(f"document {doc_id!r} has no version {version}", path=str(store.root),
                    hint=f"versions: {', '.join(map(str, versions))}")


def open_store(store: str | None, catalog: str | None = None) -> Store:
    from .store import Store

    return Store(store, create=False, catalog=catalog)


def _load_tree(st: Store, doc_id: str, version: int | None) -> Tree:
    try:
        return st.tree(doc_id, version)
    except NotFound:  # say which: the document or the version (the versions are read only on this path)
        versions = [v.version for v in st.versions(doc_id)]
        if not versions:
            raise unknown_document(doc_id, st) from None
        if version is not None and version not in versions:
            raise unknown_version(doc_id, version, versions, st) from None
        raise


# ---------------------------------------------------------------------- build and model options
@dataclass(frozen=True)
class BuildOptions:
    """The flags shared by every command that builds trees (build, ingest, backfill ...)."""

    ignore_outline: bool = False
    no_subdivide: bool = False
    model: str | None = None
    api_base: str | None = None
    api_key: str | None = None
    max_calls: int | None = None
    max_tokens: int | None = None
    max_seconds: float | None = None
    concurrency: int | None = None
    timeout: float | None = None
    model_structure: bool = False
    password: str | None = None

    def resolve(self) -> tuple[BuildSettings, ModelConfig]:
        """Build settings and model connection through the library's one settings path: flags given
        here, then ``TREEBUILD_*`` environment variables, then defaults."""
        from .settings import BuildSettings, resolve_settings

        config = _model_config(self.model, api_base=self.api_base, api_key=self.api_key, max_calls=self.max_calls,
                               max_tokens=self.max_tokens, max_seconds=self.max_seconds,
                               concurrency=self.concurrency, timeout=self.timeout)
        settings = BuildSettings(ignore_outline=self.ignore_outline, subdivide=not self.no_subdivide,
                                 structure_fallback=self.model_structure)
        return resolve_settings(settings, config)


def _model_config(model: str | None, **given: Any) -> ModelConfig:
    """ModelConfig from the flags actually given; everything else from TREEBUILD_* env or defaults.
    (Commands that take only some model flags, e.g. ``query``, call this directly.)"""
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


ModelOpt = Annotated[str | None, typer.Option("--model", help="litellm model id; default 'extractive' "
                                              "(offline, non-LLM; env TREEBUILD_MODEL).")]
ApiBaseOpt = Annotated[str | None, typer.Option("--api-base", help="Base URL of an OpenAI-compatible server "
                                                "(env TREEBUILD_API_BASE).")]
ApiKeyOpt = Annotated[str | None, typer.Option("--api-key", show_default=False, help="API key (better: env "
                                               "TREEBUILD_API_KEY or the provider's own variable).")]
MaxCallsOpt = Annotated[int | None, typer.Option("--max-calls", min=0, help="Model requests per document.")]
MaxTokensOpt = Annotated[int | None, typer.Option("--max-tokens", min=0, help="Model tokens per document.")]
MaxSecondsOpt = Annotated[float | None, typer.Option("--max-seconds", min=0.001,
                                                     help="Seconds of model work per document.")]
ConcurrencyOpt = Annotated[int | None, typer.Option("--concurrency", min=1, help="Model requests in flight.")]
TimeoutOpt = Annotated[float | None, typer.Option("--timeout", min=0.001, help="Seconds per model request.")]
ModelStructureOpt = Annotated[bool, typer.Option("--model-structure", help="Ask the model for "
                                                 "sections when the document has no outline, TOC or headings "
                                                 "(verified on pages).")]

_BUILD_OPTIONS: dict[str, Any] = {
    "ignore_outline": Annotated[bool, typer.Option("--ignore-outline",
                                                   help="Build as if the PDF had no bookmarks.")],
    "no_subdivide": Annotated[bool, typer.Option("--no-subdivide",
                                                 help="Keep large leaves whole.")],
    "model": ModelOpt,
    "api_base": ApiBaseOpt,
    "api_key": ApiKeyOpt,
    "max_calls": MaxCallsOpt,
    "max_tokens": MaxTokensOpt,
    "max_seconds": MaxSecondsOpt,
    "concurrency": ConcurrencyOpt,
    "timeout": TimeoutOpt,
    "model_structure": ModelStructureOpt,
    "password": Annotated[str | None, typer.Option("--password", show_default=False, help="Password of encrypted "
                                                   "PDF and DOCX files (better: env TREEBUILD_PDF_PASSWORD).")],
}
F = TypeVar("F", bound=Callable[..., Any])


def build_options(fn: F) -> F:
    """Give a command the shared build and model flags; it receives them as ``opts: BuildOptions``.

    Typer reads a command's parameters from its signature, so the flags are declared once here and
    appended to the signature of each command that takes them.
    """
    sig = inspect.signature(fn, eval_str=True)
    own = [p for name, p in sig.parameters.items() if name != "opts"]
    defaults = {f.name: f.default for f in fields(BuildOptions)}
    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults[name], annotation=annotation)
             for name, annotation in _BUILD_OPTIONS.items()]

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        opts = BuildOptions(**{name: kwargs.pop(name, defaults[name]) for name in _BUILD_OPTIONS})
        return fn(*args, opts=opts, **kwargs)

    params = sorted(own + extra, key=lambda p: p.kind)  # keyword-only after the command's own
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper  # type: ignore[return-value]


# ---------------------------------------------------------------------- per-document reporting
def print_result(res: IngestResult) -> None:
    """One line per document (created / unchanged / error), then one line per warning."""
    if res.status == "error":
        err.print(f"[red]error[/]     {escape(res.error or '')}", highlight=False)
    else:
        word = "[green]created[/]  " if res.status == "created" else "[dim]unchanged[/]"
        warned = f", {len(res.warnings)} warning{'s' if len(res.warnings) > 1 else ''}" if res.warnings else ""
        out.print(f"{word} {escape(res.doc_id)} v{res.version}  ({res.nodes} nodes, {res.method}, "
                  f"{res.seconds:.2f}s{warned})", highlight=False)
    print_warnings(res.warnings)


def print_warnings(warnings: Sequence[str]) -> None:
    for w in warnings:
        err.print(f"[yellow]warning[/]   {escape(' '.join(w.split()))}", highlight=False)


def print_summary(results: Sequence[IngestResult], scan: Scan | None = None) -> None:
    """The batch's last line: counts by outcome, warnings, and the files no reader takes."""
    from .ingestion import summary_line

    err.print(summary_line(results, scan), highlight=False, markup=False)


# ---------------------------------------------------------------------- commands
def _parse_meta(items: list[str] | None) -> dict[str, str]:
    meta: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise TreebuildError(f"--meta expects key=value, got {item!r}")
        meta[key.strip()] = value
    return meta


@app.command()
@build_options
def build(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="PDF, DOCX or Markdown file.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write JSON here instead of stdout.")] = None,
    *,
    opts: BuildOptions,
) -> None:
    """Build one tree without a store and print it as PageIndex-format JSON."""
    from .export import to_pageindex
    from .pipeline import build_doc
    from .readers import read

    try:
        settings, config = opts.resolve()
        with err.status(f"building {file.name}…"):
            doc = read(file, password=opts.password)
            tree = build_doc(doc, settings, model_config=config)
    except TreebuildError as exc:
        _fail(exc)
    print_warnings(tree.warnings)
    text = json.dumps(to_pageindex(tree), indent=2, ensure_ascii=False, default=str)
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        try:
            output.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            _fail(TreebuildError(f"cannot write output: {exc.strerror}", path=str(output)))
        n = len(tree.warnings)
        err.print(f"wrote {output} ({tree.stats.get('nodes')} nodes, method {tree.method}, "
                  f"{n} warning{'' if n == 1 else 's'})", markup=False)


@app.command()
@build_options
def ingest(
    paths: Annotated[list[Path], typer.Argument(metavar="PATH", help="Files or folders (searched recursively).")],
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
    doc_id: Annotated[str | None, typer.Option("--doc-id", help="doc_id for a single file.")] = None,
    doc_id_from_path: Annotated[bool, typer.Option(
        "--doc-id-from-path",
        help="Derive doc_ids from each file's path relative to the folder given (a/b/x.pdf -> a--b--x), "
             "so equal file names in different folders stay separate documents.")] = False,
    meta: Annotated[list[str] | None, typer.Option("--meta", metavar="KEY=VALUE",
                                                   help="Tag as key=value; repeatable.")] = None,
    force: Annotated[bool, typer.Option("--force",
                                        help="Make a new version even if unchanged.")] = False,
    *,
    opts: BuildOptions,
) -> None:
    """Build documents and commit them to the store as new versions (unchanged ones are skipped)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .ingestion import ingest_many, scan_paths
    from .store import Store

    if doc_id and doc_id_from_path:
        _fail(TreebuildError("--doc-id and --doc-id-from-path exclude each other"))
    try:
        st = Store(store, catalog=catalog)
        scan = scan_paths(paths, exclude=[st.root])
        tags = _parse_meta(meta)
        settings, config = opts.resolve()
    except TreebuildError as exc:
        _fail(exc)
    if not scan.files:
        extra = scan.skipped_line()
        _fail(TreebuildError("no supported documents found" + (f" ({extra})" if extra else ""),
                             path=", ".join(map(str, paths))))
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("ingesting", total=len(scan.files))

        def report(res: IngestResult) -> None:
            progress.advance(task)
            print_result(res)

        try:
            results = ingest_many(scan, st, doc_id=doc_id, meta=tags, settings=settings, model_config=config,
                                  force=force, doc_id_from_path=doc_id_from_path, password=opts.password,
                                  on_result=report)
        except TreebuildError as exc:
            _fail(exc)
    print_summary(results, scan)
    failed = sum(1 for r in results if r.status == "error")
    if failed:
        err.print(f"{failed} of {len(results)} document(s) failed")
        raise typer.Exit(1)


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
    from .export import outline_lines, to_pageindex

    try:
        st = open_store(store, catalog)
        tree = _load_tree(st, doc_id, version)
    except TreebuildError as exc:
        _fail(exc)
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
    print_warnings(tree.warnings)


@app.command()
def text(
    doc_id: DocIdArg,
    node_id: Annotated[str, typer.Argument(help="Node id (see `treebuild show DOC_ID`).")],
    version: VersionOpt = None,
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
) -> None:
    """Print the exact text of one section (children included)."""
    try:
        st = open_store(store, catalog)
        tree = _load_tree(st, doc_id, version)
        try:
            node = tree.node(node_id)
        except KeyError:
            raise unknown_node(doc_id, node_id, st, version) from None
    except TreebuildError as exc:
        _fail(exc)
    sys.stdout.write(node.text().rstrip("\n") + "\n")


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
        _fail(exc)
    rows = [(d.doc_id, d.version, d.node_count, d.method, d.source_name, d.created_at.strftime("%Y-%m-%d %H:%M"))
            for d in docs]
    _print_table(["doc_id", "version", "nodes", "method", "source", "created"], rows)
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
        _fail(exc)
    rows = [(v.version, v.created_at.strftime("%Y-%m-%d %H:%M:%S"), v.sha256[:12], v.settings_hash, v.node_count,
             v.method, v.source_name) for v in found]
    _print_table(["version", "created", "sha256", "settings", "nodes", "method", "source"], rows)


# Statement types `treebuild sql` runs: queries only (DESCRIBE, SHOW and SUMMARIZE parse as SELECT).
# CALL is refused too: CHECKPOINT parses as CALL, and on a DuckLake store CHECKPOINT and the maintenance
# functions rewrite or delete files, which they can also do from a SELECT, hence the second list.
_READ_ONLY = frozenset({"SELECT", "EXPLAIN"})
_WRITING_FUNCTION = re.compile(r"\bducklake[._](?:expire_snapshots|merge_adjacent_files|rewrite_data_files|"
                               r"cleanup_old_files|delete_orphaned_files|flush_inlined_data|set_option|"
                               r"add_data_files|set_commit_message)\b", re.IGNORECASE)
_SQL_HINT = ("views: trees, nodes, units, latest_trees, latest_nodes; "
             "macros: subtree(doc, id), node_path(doc, id), node_text(doc, id)")
_ID_MACROS = frozenset({"subtree", "node_path", "node_text"})


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="Read-only SQL over views trees, nodes, units, latest_trees, "
                                              "latest_nodes and macros subtree, node_path, node_text.")],
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
        con = st.connect()
        _check_read_only(con, query)
        _check_macro_ids(con, query, st)
        rel = con.sql(query)
        if rel is None:
            return
        columns = rel.columns
        rows = rel.fetchall()
    except TreebuildError as exc:
        _fail(exc)
    except duckdb.Error as exc:
        _fail(TreebuildError(f"SQL error: {exc}".splitlines()[0], hint=_SQL_HINT))
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
            _print_lines(columns, rows)
        else:
            _print_table(columns, rows)
        err.print(f"{len(rows)} row(s)")


def _check_read_only(con: duckdb.DuckDBPyConnection, query: str) -> None:
    hint = "query the views with SELECT; the store changes only through `treebuild ingest`"
    for stmt in con.extract_statements(query):
        kind = stmt.type.name
        if kind not in _READ_ONLY:
            raise TreebuildError(f"`treebuild sql` is read-only: {kind} statements are refused; nothing was changed",
                                 hint=hint)
    found = _WRITING_FUNCTION.search(query)
    if found:
        raise TreebuildError(f"`treebuild sql` is read-only: {found.group(0)} changes the store; nothing was changed",
                             hint=hint)


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


def _text(v: Any) -> str:
    return "" if v is None else str(v)


def _fits(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> bool:
    """Whether a table of these rows fits the terminal without squeezing cells (capped at 60 chars)."""
    widths = [len(c) for c in columns]
    for r in rows[:200]:
        for i, v in enumerate(r):
            widths[i] = max(widths[i], min(60, max((len(x) for x in _text(v).splitlines()), default=0)))
    return sum(widths) + 3 * len(columns) + 1 <= _WIDTH


def _print_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Table cells as plain text: document titles and paths may contain Rich markup characters."""
    from rich.table import Table
    from rich.text import Text

    table = Table()
    for c in columns:
        table.add_column(Text(c))
    for r in rows:
        table.add_row(*(Text(_text(v)) for v in r))
    out.print(table)


def _print_lines(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """One ``column = value`` line per field, a blank line between rows (sqlite's ``.mode line``)."""
    width = max((len(c) for c in columns), default=0)
    chunks = []
    for r in rows:
        lines = []
        for c, v in zip(columns, r, strict=True):
            value = _text(v).replace("\n", "\n" + " " * (width + 3))
            lines.append(f"{c.rjust(width)} = {value}")
        chunks.append("\n".join(lines))
    if chunks:
        sys.stdout.write("\n\n".join(chunks) + "\n")


def _version_callback(value: bool) -> None:
    if value:
        from . import __version__

        out.print(f"treebuild {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version_callback, is_eager=True,
                                          help="Print the version and exit.")] = False,
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
# command modules register themselves on `app`
from . import cli_agents, cli_flows, cli_query, cli_store  # noqa: E402,F401,I001
