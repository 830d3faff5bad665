"""What every ``treebuild`` command shares: the Typer app, the consoles, the option types, the build and
model flags, one wording for unknown ids and failures, and the per-document and table output.

A command module (``treebuild/cli/<area>.py``) imports from here only (``from .options import app, out, err,
StoreOpt, fail, ...``), registers its commands with ``@app.command()``, and is listed in
``treebuild/cli/__init__.py``; this module imports no command module.

Expected failures (a missing file, a broken PDF, an unknown doc_id, bad SQL) print one line
naming the file and cause to stderr and exit 1 (:func:`fail`); they never show a traceback. Heavy
modules (PyMuPDF, DuckDB, pyarrow, litellm, pydantic-settings, Prefect) are imported inside the
commands that need them, so ``--help``, ``list``, ``show`` and ``sql`` start quickly
(``bench/startup.py`` measures it).
"""

from __future__ import annotations

import functools
import inspect
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from ..errors import NotFound, UsageError

if TYPE_CHECKING:

    from ..ingestion import IngestResult, Scan
    from ..model import Tree
    from ..settings import BuildSettings, ModelConfig
    from ..store import Store

__all__ = ["app", "out", "err", "WIDTH", "fail", "OutputFormat", "StoreOpt", "CatalogOpt", "DocIdArg", "VersionOpt",
           "ModelOpt", "ApiBaseOpt", "ApiKeyOpt", "DocsOpt", "FilterOpt", "NavigatorOpt", "MaxDocumentsOpt",
           "BuildOptions", "build_options", "model_config", "parse_meta",
           "open_store", "load_tree", "unknown_document", "unknown_node", "unknown_version", "print_result",
           "print_warnings", "print_summary", "print_table", "print_lines", "cell_text"]

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,  # plain click help: no `<bool>` placeholders after flags
                  context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110},
                  help="Turn long documents into table-of-contents trees stored as versioned Parquet.")
WIDTH = shutil.get_terminal_size(fallback=(200, 24)).columns  # wide tables when piped
out = Console(soft_wrap=True, width=WIDTH)
err = Console(stderr=True, soft_wrap=True)


class OcrChoice(StrEnum):
    """``--ocr``: the values of :class:`treebuild.readers.ocr.OcrMode` (not imported: the CLI starts without
    pydantic)."""

    auto = "auto"
    off = "off"
    force = "force"


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


USAGE_EXIT = 2
"""Exit code of a command line that cannot be understood (as click's own usage errors); 1 is a document or
data error, 0 success (docs/exit-codes.md)."""


def fail(exc: BaseException) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
    raise typer.Exit(USAGE_EXIT if isinstance(exc, UsageError) else 1)


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
    from ..store import Store

    return Store(store, create=False, catalog=catalog)


def load_tree(st: Store, doc_id: str, version: int | None) -> Tree:
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
    ocr: OcrChoice | None = None
    note_subheadings: bool | None = None

    def resolve(self) -> tuple[BuildSettings, ModelConfig]:
        """Build settings and model connection through the library's one settings path: flags given
        here, then ``TREEBUILD_*`` environment variables, then defaults."""
        from ..settings import BuildSettings, resolve_settings

        config = model_config(self.model, api_base=self.api_base, api_key=self.api_key, max_calls=self.max_calls,
                               max_tokens=self.max_tokens, max_seconds=self.max_seconds,
                               concurrency=self.concurrency, timeout=self.timeout)
        given: dict[str, Any] = {"ocr": self.ocr.value} if self.ocr else {}  # else TREEBUILD_OCR or the default
        if self.note_subheadings is not None:  # else TREEBUILD_NOTE_SUBHEADINGS or the default
            given["note_subheadings"] = self.note_subheadings
        settings = BuildSettings(ignore_outline=self.ignore_outline, subdivide=not self.no_subdivide,
                                 structure_fallback=self.model_structure, **given)
        return resolve_settings(settings, config)


def model_config(model: str | None, **given: Any) -> ModelConfig:
    """ModelConfig from the flags actually given; everything else from TREEBUILD_* env or defaults.
    (Commands that take only some model flags, e.g. ``query``, call this directly.)"""
    from pydantic import ValidationError

    from ..settings import ModelConfig

    values = {k: v for k, v in given.items() if v is not None}
    if model is not None:
        values["model"] = model
    try:
        return ModelConfig(**values)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"invalid model setting {where}: {first['msg']}",
                             hint="check the flag or the TREEBUILD_* environment variable") from None


ModelOpt = Annotated[str | None, typer.Option("--model", help="litellm model id; default 'extractive' "
                                              "(offline, non-LLM; env TREEBUILD_MODEL).")]
ApiBaseOpt = Annotated[str | None, typer.Option("--api-base", help="Base URL of an OpenAI-compatible server "
                                                "(env TREEBUILD_API_BASE).")]
ApiKeyOpt = Annotated[str | None, typer.Option("--api-key", show_default=False, help="API key (better: env "
                                               "TREEBUILD_API_KEY or the provider's own variable).")]
# the query commands' flags (query, ask, eval)
DocsOpt = Annotated[list[str] | None, typer.Option("--doc", help="Only this doc_id; repeatable (default: all "
                                                   "documents, selected when more than 3).")]
FilterOpt = Annotated[list[str] | None, typer.Option("--filter", help="Only documents with key=value: format, doc_id "
                                                     "or a --meta tag; repeatable (a repeated key accepts any of its "
                                                     "values).")]
NavigatorOpt = Annotated[str | None, typer.Option("--navigator", help="Navigator name: 'lexical' (offline, not a "
                                                  "language model; the default) or 'litellm' (the default when "
                                                  "--model names a model).")]
MaxDocumentsOpt = Annotated[int | None, typer.Option("--max-documents", min=1,
                                                     help="Documents navigated when none are named.")]
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
    "ocr": Annotated[OcrChoice | None, typer.Option("--ocr", show_default=False, help="OCR of PDF pages: auto "
                                                    "(the default: pages without usable text), off, or force (every "
                                                    "page); env TREEBUILD_OCR.")],
    "note_subheadings": Annotated[bool | None, typer.Option(
        "--note-subheadings/--no-note-subheadings", show_default=False,
        help="Sub-headings set at the body size inside a filing's notes as sections (off by default; env "
             "TREEBUILD_NOTE_SUBHEADINGS).")],
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
    print_warnings(res.path, res.warnings)


def print_warnings(document: str, warnings: Sequence[str]) -> None:
    """One line per warning, each naming its ``document`` (a file path, or a stored document's id), so a log
    of a batch can be traced: ``warning   report.pdf: no text layer on 2 of 2 pages: ...``."""
    for w in warnings:
        err.print(f"[yellow]warning[/]   {escape(document)}: {escape(' '.join(w.split()))}", highlight=False)


def print_summary(results: Sequence[IngestResult], scan: Scan | None = None) -> None:
    """The batch's last line: counts by outcome, warnings, and the files no reader takes."""
    from ..ingestion import summary_line

    err.print(summary_line(results, scan), highlight=False, markup=False)


# ---------------------------------------------------------------------- tags
def parse_meta(items: list[str] | None) -> dict[str, str]:
    """``--meta key=value`` items as a dict (a malformed one is an expected failure)."""
    meta: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--meta expects key=value, got {item!r}")
        meta[key.strip()] = value
    return meta


# ---------------------------------------------------------------------- tables
def cell_text(v: Any) -> str:
    return "" if v is None else str(v)


def print_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Table cells as plain text: document titles and paths may contain Rich markup characters."""
    from rich.table import Table
    from rich.text import Text

    table = Table()
    for c in columns:
        table.add_column(Text(c))
    for r in rows:
        table.add_row(*(Text(cell_text(v)) for v in r))
    out.print(table)


def print_lines(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """One ``column = value`` line per field, a blank line between rows (sqlite's ``.mode line``)."""
    width = max((len(c) for c in columns), default=0)
    chunks = []
    for r in rows:
        lines = []
        for c, v in zip(columns, r, strict=True):
            value = cell_text(v).replace("\n", "\n" + " " * (width + 3))
            lines.append(f"{c.rjust(width)} = {value}")
        chunks.append("\n".join(lines))
    if chunks:
        sys.stdout.write("\n\n".join(chunks) + "\n")
