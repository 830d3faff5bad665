"""Backfill flows: ingest many documents in parallel worker processes, resumable, with a report.

* :func:`backfill` (flow ``treebuild-backfill``): the documents named by folders, globs, list
  files or fsspec URLs, one ``ingest-document`` task run each, in threads of this process that
  hand the builds to ``workers`` processes (:mod:`treebuild.orchestrate.pool`, default one per core; PyMuPDF is
  not thread-safe, so builds never share a process), or on Dask (``executor="dask"``: a local
  cluster, or a running one at ``dask_address``). At most
  ``workers * in_flight_per_worker`` documents are in flight; a failed document fails only its
  task; a crashed run is resumed by running it again (committed documents come from the cache).
  The run ends Failed, naming the failed documents, when any failed (after all others
  committed), otherwise Completed; either way with table, summary and progress artifacts.
* :func:`backfill_in_batches` (flow ``treebuild-backfill-batches``): for corpora too large for one
  machine, splits the manifest into batches and starts one ``backfill`` flow run per batch with
  ``run_deployment``, so workers of a work pool on many machines share the load.

Run ``treebuild backfill SOURCE...`` for the command line, or deploy them (``deploy/README.md``).
No postponed annotations here: Prefect validates flow parameters against the signatures.
"""

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import PurePosixPath
from typing import Any, Literal

from prefect import flow, get_run_logger
from prefect.futures import PrefectFuture, as_completed
from prefect.states import Completed, Failed, State
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from treebuild.errors import TreebuildError
from treebuild.orchestrate.build import build_settings
from treebuild.orchestrate.pool import build_pool
from treebuild.orchestrate.report import Progress, Report
from treebuild.orchestrate.settings import FlowSettings, default_workers
from treebuild.orchestrate.sources import build_order, manifest, split_duplicates
from treebuild.orchestrate.tasks import ModelLimit, describe, ingest_document, prestarted, run_environment
from treebuild.settings import BuildSettings
from treebuild.store import doc_id_for

__all__ = ["backfill", "backfill_in_batches", "build_settings", "run_documents", "final_state", "listen",
           "task_runner", "Executor", "DOCUMENT_LINE"]

Executor = Literal["process", "dask"]
"""Where documents are built; flow signatures spell it out, since Prefect resolves parameter types by name."""
DOCUMENT_LINE = "treebuild_document"
"""Set on the log record of each document's outcome line, so a front end showing its own rows can skip it."""
Listener = Callable[[str, dict[str, Any]], None]
"""Called with ("start", {"total": n}) and then ("document", row) as each document finishes."""

_listeners: list[Listener] = []


@contextlib.contextmanager
def listen(listener: Listener) -> Iterator[None]:
    """Receive progress events of backfills run in this process (the CLI's progress bar)."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)


def _emit(event: str, payload: dict[str, Any]) -> None:
    for listener in list(_listeners):
        listener(event, payload)


def task_runner(workers: int, executor: Executor = "process", dask_address: str | None = None,
                in_flight: int | None = None) -> TaskRunner[Any]:
    """Where ``ingest-document`` task runs go: threads of this process, or Dask workers of one thread each.

    With the process executor, task runs are threads of the flow's process (``in_flight`` of them,
    default ``workers``) and each hands its build to the active :mod:`treebuild.orchestrate.pool` of ``workers``
    processes (PyMuPDF is not thread-safe; one worker too, so the task runs' bookkeeping runs on
    another core than the build).
    """
    if executor == "dask":
        try:
            from prefect_dask import DaskTaskRunner
        except ImportError:
            raise TreebuildError("the Dask executor needs prefect-dask",
                                 hint="pip install 'treebuild[dask]'") from None
        if dask_address:
            return DaskTaskRunner(address=dask_address)
        from treebuild.readers.ocr import thread_share

        return DaskTaskRunner(cluster_kwargs={"n_workers": workers, "threads_per_worker": 1, "processes": True,
                                              "env": thread_share(workers)})  # each worker's share of OCR threads
    return ThreadPoolTaskRunner(max_workers=in_flight or workers)


def _model_limit(model: str, name: str) -> ModelLimit | None:
    """The named global limit as (name, kind) if it exists; model requests of all workers wait on it."""
    from treebuild.settings import OFFLINE_MODEL

    if model == OFFLINE_MODEL or not name:
        return None
    from prefect.client.orchestration import get_client
    from prefect.exceptions import ObjectNotFound

    logger = get_run_logger()
    try:
        with get_client(sync_client=True) as client:
            limit = client.read_global_concurrency_limit_by_name(name)
    except ObjectNotFound:
        logger.warning("no Prefect global concurrency limit named %r: model requests are bounded per worker "
                       "only (create one: prefect gcl create %s --limit 8)", name, name)
        return None
    kind = "rate" if (limit.slot_decay_per_second or 0) > 0 else "concurrency"
    logger.info("model requests of all workers share the %s limit %r (%d slots)", kind, name, limit.limit)
    return (name, kind)


def _outcome(fut: PrefectFuture[Any], location: str) -> dict[str, Any]:
    """The task's result dict; a cached run is ``unchanged``; a failed one carries its error."""
    fut.wait()
    state = fut.state
    value = fut.result(raise_on_failure=False)
    if isinstance(value, BaseException) or not isinstance(value, dict):
        error = str(value) if isinstance(value, BaseException) else ((state and state.message) or "no result")
        return _failed(location, error)
    if state is not None and state.name == "Cached":
        value = {**value, "status": "unchanged", "seconds": 0.0, "pages": None, "calls": 0, "tokens": 0}
    return value


def _failed(location: str, error: str) -> dict[str, Any]:
    return {"path": location, "doc_id": doc_id_for(PurePosixPath(location).name), "status": "failed", "error": error}


def run_documents(locations: list[str], *, store: str, settings: BuildSettings, meta: dict[str, str] | None,
                  api_base: str | None, workers: int, executor: Executor, dask_address: str | None,
                  refresh_cache: bool, title: str, duplicates: dict[str, str] | None = None) -> Report:
    """Ingest ``locations`` on the chosen runner and return the report (artifacts published)."""
    if not store.strip():  # an unset ``{{ $TREEBUILD_STORE }}`` in a deployment renders as ""
        raise TreebuildError("no store given (the store parameter is empty)",
                             hint="pass store=..., or set TREEBUILD_STORE before `prefect deploy`")
    logger = get_run_logger()
    flow_settings = FlowSettings()
    report = Report(total=len(locations) + len(duplicates or {}))
    _emit("start", {"total": report.total})
    progress = Progress(report.total, title, flow_settings.progress_interval)

    def finish(result: dict[str, Any]) -> None:
        r = report.add(result)
        (logger.error if r["status"] == "failed" else logger.info)("%s", describe(result), extra={DOCUMENT_LINE: True})
        _emit("document", r)
        progress.update(len(report.rows))

    for location, error in (duplicates or {}).items():
        finish(_failed(location, error))
    limit = _model_limit(settings.model, flow_settings.model_limit)
    refreshing = ingest_document.with_options(refresh_cache=True)
    params = {"store": store, "settings": settings.model_dump(), "meta": meta, "api_base": api_base,
              "model_limit": limit}
    max_in_flight = workers * flow_settings.in_flight_per_worker
    logger.info("%s: %d document(s) on %d %s worker(s)", title, len(locations), workers, executor)
    pool = build_pool(workers, run_environment()) if executor == "process" else contextlib.nullcontext()
    with pool, task_runner(workers, executor, dask_address, in_flight=max_in_flight) as runner:
        pending: dict[PrefectFuture[Any], str] = {}
        for location in build_order(locations):
            while len(pending) >= max_in_flight:
                done = next(iter(as_completed(list(pending))))
                finish(_outcome(done, pending.pop(done)))
            task = refreshing if refresh_cache or prestarted(location) else ingest_document
            pending[runner.submit(task, {"location": location, **params})] = location
        for done in as_completed(list(pending)):
            finish(_outcome(done, pending.pop(done)))
    progress.update(len(report.rows), force=True)
    report.publish(title)
    t = report.totals()
    logger.info("%s: %d created, %d unchanged, %d failed, %d pages in %.1f s (%.1f pages/s)", title,
                t["created"], t["unchanged"], t["failed"], t["pages"], t["seconds"], t["pages_per_second"])
    return report


def final_state(report: Report) -> State[Any]:
    """Failed naming the failed documents when any failed, else Completed; the report is the data."""
    if report.failures:
        return Failed(message=report.failure_message(), data=report.as_dict())
    return Completed(message=f"{len(report.rows)} document(s): {report.count('created')} created, "
                             f"{report.count('unchanged')} unchanged", data=report.as_dict())


@flow(name="treebuild-backfill", log_prints=False)
def backfill(sources: list[str], store: str = "treestore", workers: int | None = None,
             meta: dict[str, str] | None = None, limit: int | None = None, model: str | None = None,
             api_base: str | None = None, ignore_outline: bool = False, subdivide: bool = True,
             executor: Literal["process", "dask"] = "process", dask_address: str | None = None,
             refresh_cache: bool = False, structure_fallback: bool = False) -> State[Any]:
    """Ingest every document the sources name (folders, globs, list files, fsspec URLs) into ``store``.

    ``workers`` processes (default one per core) build documents in parallel; ``limit`` takes the
    first N of the manifest. Re-running skips committed documents. The run is Failed when any
    document failed, with a message naming them.
    """
    started = time.perf_counter()
    settings = build_settings(model, ignore_outline=ignore_outline, subdivide=subdivide,
                              structure_fallback=structure_fallback)
    locations, duplicates = split_duplicates(manifest(sources))
    if limit is not None:
        locations = locations[:limit]
    get_run_logger().info("manifest: %d document(s) from %d source(s) in %.2f s", len(locations), len(sources),
                          time.perf_counter() - started)
    report = run_documents(locations, store=store, settings=settings, meta=meta, api_base=api_base,
                           workers=workers or default_workers(), executor=executor, dask_address=dask_address,
                           refresh_cache=refresh_cache, title="backfill", duplicates=duplicates)
    return final_state(report)


@flow(name="treebuild-backfill-batches")
def backfill_in_batches(sources: list[str], store: str = "treestore", batch_size: int | None = None,
                        deployment: str = "treebuild-backfill/backfill", workers: int | None = None,
                        meta: dict[str, str] | None = None, limit: int | None = None, model: str | None = None,
                        api_base: str | None = None) -> State[Any]:
    """Split the manifest into batches and run each as a ``backfill`` flow run of ``deployment``.

    The batch runs go to the deployment's work pool, so every worker polling it (on any machine
    that sees the sources and the store) takes batches; this run waits for all of them and is
    Failed, naming the failed batches, if any failed.
    """
    from prefect.deployments import run_deployment

    logger = get_run_logger()
    size = batch_size or FlowSettings().batch_size
    locations, duplicates = split_duplicates(manifest(sources))
    if limit is not None:
        locations = locations[:limit]
    for error in duplicates.values():
        logger.error("%s", error)
    batches = [locations[i:i + size] for i in range(0, len(locations), size)]
    logger.info("%d document(s) in %d batch(es) of up to %d for deployment %s", len(locations), len(batches), size,
                deployment)
    runs = []
    for i, batch in enumerate(batches, 1):
        params: dict[str, Any] = {"sources": batch, "store": store, "workers": workers, "meta": meta,
                                  "model": model, "api_base": api_base}
        run = run_deployment(deployment, parameters={k: v for k, v in params.items() if v is not None},
                             timeout=0, flow_run_name=f"batch {i} of {len(batches)}")
        runs.append((i, run))
    failed: list[str] = []
    for i, state in _wait_all(runs):
        line = f"batch {i} ({len(batches[i - 1])} documents): {state.name}"
        if state.message:
            line += f": {state.message}"
        (logger.info if state.is_completed() else logger.error)("%s", line)
        if not state.is_completed():
            failed.append(line)
    if duplicates:
        failed.extend(duplicates.values())
    if failed:
        return Failed(message=f"{len(failed)} of {len(batches)} batch(es) failed: " + " | ".join(failed))
    return Completed(message=f"{len(locations)} document(s) in {len(batches)} batch(es)")


BATCH_POLL_SECONDS = 2.0
"""How often the parent reads its batch runs' states (one API call per unfinished batch)."""


def _wait_all(runs: list[tuple[int, Any]]) -> Iterator[tuple[int, State[Any]]]:
    """(batch number, final state) of each run, as they finish."""
    from prefect.client.orchestration import get_client

    waiting = dict(runs)
    with get_client(sync_client=True) as client:
        while waiting:
            for i, run in list(waiting.items()):
                state = client.read_flow_run(run.id).state
                if state is not None and state.is_final():
                    del waiting[i]
                    yield i, state
            if waiting:
                time.sleep(BATCH_POLL_SECONDS)
