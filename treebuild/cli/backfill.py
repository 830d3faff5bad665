"""``treebuild backfill`` and ``treebuild serve``: the Prefect flows of :mod:`treebuild.orchestrate` from the
command line.

``backfill`` runs the backfill flow in this process (worker processes build the documents) with
a progress bar and the run's summary, and exits 1 listing the failed files; ``serve`` serves the
scheduled inbox flow on a cron schedule from one long-running process (``flow.serve``), for
users without a work pool. Without ``PREFECT_API_URL`` Prefect starts a temporary local server.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..errors import TreebuildError
from .options import (
    BuildOptions,
    CatalogOpt,
    StoreOpt,
    app,
    build_options,
    err,
    fail,
    out,
    parse_meta,
    print_warnings,
)

__all__ = ["backfill", "serve", "ocr_bars"]

WorkersOpt = Annotated[int | None, typer.Option("--workers", "-w", min=1,
                                                help="Worker processes building documents (default: one per core).")]
MetaOpt = Annotated[list[str] | None, typer.Option("--meta", help="Tag as key=value; repeatable.")]


TEMPORARY_SERVER_TIMEOUT = 120
"""Seconds to wait for Prefect's temporary local server (it starts in 15-25 s on an idle machine)."""


def _prefect_environment() -> None:
    """Keep Prefect's INFO lines off the terminal, in this process and its workers (the progress bar
    says it; they still reach the Prefect API), and give a temporary server time to start. Must run
    before prefect is imported."""
    os.environ.setdefault("PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "WARNING")
    # Without PREFECT_API_URL Prefect starts a temporary server; on a busy machine it needs more than
    # Prefect's default 20 s to answer.
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", str(TEMPORARY_SERVER_TIMEOUT))
    if not os.environ.get("PREFECT_API_URL"):
        # The temporary server is this command's own: it sends Prefect no usage telemetry (offline, every run
        # logged "ERROR | prefect.server.services.telemetry - Failed to send telemetry"). A user's setting wins.
        os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")


def _prepare(meta: list[str] | None, opts: BuildOptions, catalog: str | None = None) -> dict[str, str]:
    """The --meta tags (exit 1 on a malformed one). Secrets (API key, password), the catalog location
    (it may hold connection details) and the per-document model budget go to the worker processes
    through the ``TREEBUILD_*`` environment, which the library's one settings path reads; never as
    (recorded) flow parameters."""
    from ..readers import PASSWORD_ENV

    try:
        tags = parse_meta(meta)
    except TreebuildError as exc:
        fail(exc)
    passed = {"TREEBUILD_API_KEY": opts.api_key, "TREEBUILD_CATALOG": catalog, PASSWORD_ENV: opts.password,
              "TREEBUILD_MAX_CALLS": opts.max_calls, "TREEBUILD_MAX_TOKENS": opts.max_tokens,
              "TREEBUILD_MAX_SECONDS": opts.max_seconds, "TREEBUILD_CONCURRENCY": opts.concurrency,
              "TREEBUILD_TIMEOUT": opts.timeout, "TREEBUILD_OCR": opts.ocr and opts.ocr.value}
    for name, value in passed.items():
        if value is not None:
            os.environ[name] = str(value)
    return tags


@app.command()
@build_options
def backfill(
    sources: Annotated[list[str], typer.Argument(help="Folders, globs, list files (.txt, one path per line) or "
                                                      "fsspec URLs (s3://bucket/prefix/ with the s3 extra).")],
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
    workers: WorkersOpt = None,
    meta: MetaOpt = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N documents.")] = None,
    dask: Annotated[bool, typer.Option("--dask", help="Run on Dask (needs the dask extra): a local cluster, "
                                                      "or the scheduler at --dask-address.")] = False,
    dask_address: Annotated[str | None, typer.Option("--dask-address", help="tcp://host:8786 of a running "
                                                                            "Dask scheduler.")] = None,
    refresh_cache: Annotated[bool, typer.Option("--refresh-cache", help="Ignore Prefect's cache of committed "
                                                                        "documents (the store still skips "
                                                                        "unchanged ones).")] = False,
    *,
    opts: BuildOptions,
) -> None:
    """Ingest many documents in parallel as a Prefect flow run: resumable, with a report and artifacts."""
    started = time.perf_counter()  # the summary's pages/s is over the command's wall-clock time
    tags = _prepare(meta, opts, catalog)
    _nothing_to_do(sources)
    _prefect_environment()
    from ..orchestrate.settings import default_workers
    from ..store import default_store_path

    store_path = str(store or default_store_path())
    with _ocr_progress_folder():
        if not (dask or dask_address):  # builds start while Prefect is imported and the flow run is created
            _start_early(sources, store_path, workers or default_workers(), tags or None, limit, opts)
        try:
            state = _run_backfill(sources, store_path, workers, tags, limit, dask, dask_address, refresh_cache,
                                  opts)
            _finish(state, sources, started)
        finally:
            from ..orchestrate.pool import discard_early

            discard_early()  # only when the flow run never started (it takes the pool over)


@contextlib.contextmanager
def _ocr_progress_folder() -> Iterator[None]:
    """A folder where the workers keep the OCR progress of the scans they read (``TREEBUILD_OCR_PROGRESS``),
    which :func:`_ocr_bars` shows; removed at the end."""
    from ..readers.ocr_pages import PROGRESS_ENV

    previous = os.environ.get(PROGRESS_ENV)
    with tempfile.TemporaryDirectory(prefix="treebuild-ocr-progress-") as folder:
        os.environ[PROGRESS_ENV] = folder
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop(PROGRESS_ENV, None)
            else:
                os.environ[PROGRESS_ENV] = previous


OCR_BAR_INTERVAL = 0.5
"""Seconds between looks at the workers' OCR progress."""


def ocr_bars(progress: Progress, folder: Path, stop: threading.Event) -> None:
    """Until ``stop``, a bar for each document the workers are reading by OCR (a scan of many pages), from the
    files they keep in ``folder``; a bar goes when its document is read."""
    from ..readers.ocr_pages import progress_files

    bars: dict[str, TaskID] = {}
    while True:
        seen = set()
        for path, done, total in progress_files(folder):
            seen.add(path)
            if path not in bars:
                bars[path] = progress.add_task(f"OCR {Path(path).name}", total=total, pages="", rate="")
            progress.update(bars[path], completed=done, total=total)
        for path in bars.keys() - seen:
            progress.remove_task(bars.pop(path))
        if stop.wait(OCR_BAR_INTERVAL):
            break
    for task in bars.values():
        progress.remove_task(task)


def _nothing_to_do(sources: list[str]) -> None:
    """Local sources that name no document: the error ``ingest`` gives (exit 1), before Prefect starts."""
    from ..orchestrate.sources import is_url, manifest

    if any(is_url(s) for s in sources):
        return  # listed by the flow run; an empty listing ends it with the same error
    try:
        empty = not manifest(sources)
    except (OSError, ValueError):
        return  # the flow run reports what is wrong with the sources
    if empty:
        fail(TreebuildError("no supported documents found", path=", ".join(sources)))


def _start_early(sources: list[str], store: str, workers: int, meta: dict[str, str] | None, limit: int | None,
                 opts: BuildOptions) -> None:
    """Start the build pool now, and with the offline default (no model requests, so no Prefect limit to
    wait on) the first documents' builds: the task runs of those documents collect them. Only local
    sources are listed here; anything unexpected leaves the flow to report it."""
    from ..orchestrate.build import build_document, build_settings
    from ..orchestrate.pool import BuildPool, start_early
    from ..orchestrate.settings import FlowSettings
    from ..orchestrate.sources import build_order, is_url, manifest, split_duplicates
    from ..settings import OFFLINE_MODEL

    try:
        settings = build_settings(opts.model, ignore_outline=opts.ignore_outline, subdivide=not opts.no_subdivide,
                                  structure_fallback=opts.model_structure)
        offline = settings.model == OFFLINE_MODEL and not any(is_url(s) for s in sources)
        locations = split_duplicates(manifest(sources))[0][:limit] if offline else []
    except (TreebuildError, OSError, ValueError):
        locations = []
    first = build_order(locations)[:workers * FlowSettings().in_flight_per_worker]

    def prestart(pool: BuildPool) -> None:
        for location in first:
            pool.prestart(build_document, location, store, settings.model_dump(), meta, opts.api_base, None)

    start_early(workers, prestart)  # in the background: the fork server preloads while Prefect is imported


def _run_backfill(sources: list[str], store: str, workers: int | None, tags: dict[str, str], limit: int | None,
                  dask: bool, dask_address: str | None, refresh_cache: bool, opts: BuildOptions) -> Any:
    from prefect.states import State

    from ..orchestrate.backfill import backfill as backfill_flow
    from ..orchestrate.backfill import listen

    _without_document_lines()
    # Prefect's import leaves a large heap that every full collection would scan again: frozen, the
    # collections of a 9-document backfill take 0.5 s instead of 1.0 s (bench/README.md, backfill).
    gc.freeze()

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[pages]} pages"), TextColumn("{task.fields[rate]}"),
                  TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=err,
                  transient=True) as progress:
        bar = progress.add_task("starting", total=None, pages=0, rate="")
        failed = [0]  # shown on the bar as they happen; listed with their errors at the end

        def on_event(event: str, payload: dict[str, Any]) -> None:
            if event == "start":
                progress.update(bar, total=payload["total"], description="documents")
                return
            task = progress.tasks[bar]
            pages = task.fields["pages"] + (payload["pages"] or 0 if payload["status"] == "created" else 0)
            elapsed = task.elapsed or 1e-9
            failed[0] += payload["status"] == "failed"
            progress.update(bar, advance=1, pages=pages, description=f"documents ({failed[0]} failed)" if failed[0]
                            else "documents",
                            rate=f"{(task.completed + 1) / elapsed:.2f} docs/s, {pages / elapsed:.0f} pages/s")
            _print_row(payload)

        from ..readers.ocr_pages import PROGRESS_ENV

        stop = threading.Event()
        bars = threading.Thread(target=ocr_bars, args=(progress, Path(os.environ[PROGRESS_ENV]), stop), daemon=True,
                                name="treebuild-ocr-bars") if os.environ.get(PROGRESS_ENV) else None
        if bars is not None:
            bars.start()
        with listen(on_event):
            state: State[Any] = backfill_flow(
                sources, store=store, workers=workers, meta=tags or None, limit=limit,
                model=opts.model, api_base=opts.api_base, ignore_outline=opts.ignore_outline,
                subdivide=not opts.no_subdivide, structure_fallback=opts.model_structure,
                executor="dask" if dask or dask_address else "process", dask_address=dask_address,
                refresh_cache=refresh_cache, return_state=True)
        stop.set()
        if bars is not None:
            bars.join()
    return state


def _without_document_lines() -> None:
    """Each document's outcome is shown once by this command: keep Prefect's console from printing it
    too (its flow-run line and the task run's final state); retries, warnings and other errors still show."""
    import logging

    from prefect.logging.handlers import PrefectConsoleHandler

    for name in ("", "prefect", "prefect.flow_runs", "prefect.task_runs"):
        for handler in logging.getLogger(name).handlers:
            if isinstance(handler, PrefectConsoleHandler) and _not_a_document_line not in handler.filters:
                handler.addFilter(_not_a_document_line)


def _not_a_document_line(record: logging.LogRecord) -> bool:
    from ..orchestrate.backfill import DOCUMENT_LINE

    if getattr(record, DOCUMENT_LINE, False):
        return False
    return not (record.name == "prefect.task_runs" and record.getMessage().startswith("Finished in state"))


def _print_row(r: dict[str, Any]) -> None:
    name = escape(Path(r["document"]).name)
    if r["status"] == "failed":
        return  # listed once, with its error, after the summary
    n = len(r.get("warnings") or [])
    warned = f", {n} warning{'s' if n > 1 else ''}" if n else ""
    if r["status"] == "created":
        out.print(f"[green]created[/]   {name} v{r['version']}  ({r['nodes']} nodes, {r['method']}, "
                  f"{r['seconds']:.2f}s{warned})", highlight=False)
    else:
        out.print(f"[dim]unchanged[/] {name} v{r['version']}", highlight=False)
    print_warnings(r["document"], r.get("warnings") or [])  # each names its file, as `ingest` does


def _finish(state: Any, sources: list[str], started: float) -> None:
    """The summary line; exit 1 naming the failed files when the run is not Completed. Pages per second are
    over the command's wall-clock time: documents built while Prefect started count, and so does its start."""
    report = state.result(raise_on_failure=False)
    if not isinstance(report, dict) or "totals" not in report:
        fail(TreebuildError(f"backfill run ended {state.name}: {state.message or report}"))
    t = report["totals"]
    if not t["documents"]:
        fail(TreebuildError("no supported documents found", path=", ".join(sources)))
    wall = max(time.perf_counter() - started, 1e-9)
    err.print(f"backfill: {t['documents']} document(s): {t['created']} created, {t['unchanged']} unchanged, "
              f"{t['failed']} failed; {t['pages']} pages built in {wall:.1f} s wall-clock ({t['documents'] / wall:.2f} "
              f"documents/s, {t['pages'] / wall:.1f} pages/s); {t['calls']} model calls, {t['tokens']} tokens; "
              f"{t.get('warnings', 0)} warnings",
              highlight=False, markup=False)
    failed = [r for r in report["rows"] if r["status"] == "failed"]
    if failed or not state.is_completed():
        err.print(f"[bold red]{len(failed)} of {t['documents']} document(s) failed:[/]", highlight=False)
        for r in failed:
            error = r["error"] or "no error recorded"
            shown = error if r["document"] in error else f"{r['document']}: {error}"  # errors name their file
            err.print(f"  [red]failed[/] {escape(shown)}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)


@app.command()
@build_options
def serve(
    inbox: Annotated[str, typer.Argument(help="Folder, glob or URL to pick new and changed documents up from.")],
    cron: Annotated[str, typer.Option("--cron", help="Cron schedule (UTC), e.g. '0 2 * * *'.")] = "0 2 * * *",
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
    workers: WorkersOpt = None,
    meta: MetaOpt = None,
    name: Annotated[str, typer.Option("--name", help="Deployment name shown in Prefect.")] = "scheduled-ingest",
    *,
    opts: BuildOptions,
) -> None:
    """Serve the scheduled inbox ingest from this process until interrupted (Prefect's flow.serve)."""
    tags = _prepare(meta, opts, catalog)
    _prefect_environment()
    from ..orchestrate.inbox import scheduled_ingest
    from ..store import default_store_path

    params: dict[str, Any] = {"inbox": inbox, "store": str(store or default_store_path()), "workers": workers,
                              "meta": tags or None, "model": opts.model, "api_base": opts.api_base,
                              "ignore_outline": opts.ignore_outline or None, "subdivide": False if opts.no_subdivide
                              else None, "structure_fallback": opts.model_structure or None}
    err.print(f"serving {name}: ingest {escape(inbox)} on '{escape(cron)}' (Ctrl-C stops)", highlight=False)
    scheduled_ingest.serve(name=name, cron=cron, parameters={k: v for k, v in params.items() if v is not None})
