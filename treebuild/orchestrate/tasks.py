"""The unit of work: one document read, built and committed by :func:`treebuild.ingest`.

``ingest_document`` is a Prefect task with

* a cache key of (doc_id, source sha256, build settings hash, store), so a re-run finds every
  committed document in Prefect's cache and skips it without rebuilding (the run shows it as
  ``Cached``); the key is only given to versions the store holds, and a document committed but
  not yet cached (a resumed run) costs only a hash, because ``ingest`` finds the stored version;
* retries for transient failures only (I/O hiccups, timeouts, a lock held too long), never for
  a broken document, which fails at once with the library's message naming the file;
* the model gate: every model request of every worker process waits on the Prefect global
  concurrency or rate limit named in :class:`~flows.settings.FlowSettings`, so N workers never
  exceed the provider's limit together.

The build itself (:func:`flows.build.build_document`) runs in a worker process of the active
:mod:`treebuild.orchestrate.pool` (any number of workers, so the task run's bookkeeping runs on another core), or
in the task run's own thread when no pool is active (a Dask worker, a direct call).
"""

from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath
from typing import Any

from prefect import task
from prefect.context import TaskRunContext
from prefect.settings import get_current_settings

from treebuild.errors import TreebuildError
from treebuild.orchestrate.build import ModelLimit, build_document, install_model_gate, is_transient
from treebuild.orchestrate.pool import active_pool
from treebuild.orchestrate.sources import is_url
from treebuild.readers.common import file_digest
from treebuild.settings import BuildSettings
from treebuild.store import Store, doc_id_for

__all__ = ["ingest_document", "document_cache_key", "prestarted", "run_environment", "is_transient",
           "install_model_gate", "ModelLimit",
           "TRANSIENT_RETRIES"]

TRANSIENT_RETRIES = 2
"""Attempts after the first for a transient failure; a third I/O error in a row is not transient."""
RETRY_DELAYS: list[float] = [2.0, 10.0]
"""Seconds before each retry: long enough for a file server or lock holder to recover."""


def _retry_condition(task: Any, task_run: Any, state: Any) -> bool:
    exc = state.result(raise_on_failure=False)
    return isinstance(exc, BaseException) and is_transient(exc)


def _source_key(location: str) -> str:
    """sha256 of a local file; for a URL, the filesystem's unique key (an ETag or checksum), hashed."""
    if not is_url(location):
        p = Path(location)
        return file_digest(p)[0] if p.is_file() else "missing"
    import fsspec

    fs, path = fsspec.core.url_to_fs(location)
    return hashlib.sha256(f"{location}|{fs.ukey(path)}".encode()).hexdigest()


def document_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str | None:
    """(doc_id, source sha256, build settings hash, store): equal keys mean the same stored version.

    A cached result is only used for a version the store really holds: a store deleted or replaced
    under the same path never makes the cache skip a document it lost (the task runs, and ``ingest``
    builds it). The store is only asked when there is a cached result, so a fresh backfill pays
    nothing for the check.
    """
    location = parameters["location"]
    try:
        source = _source_key(location)
    except OSError:
        return None  # unreadable now: no cache entry, the build reports the cause
    settings = BuildSettings(**(parameters.get("settings") or {})).hash()
    did = doc_id_for(PurePosixPath(location).name)
    store = hashlib.sha256(str(Path(parameters["store"]).resolve()).encode()).hexdigest()[:16]
    key = f"treebuild-{did[:80]}-{source[:32]}-{settings}-{store}"
    if is_url(location) or not _cached(key):  # nothing to skip: the task runs (``ingest`` finds a stored version)
        return key
    return key if _stored(parameters["store"], did, source, settings) else None


def _cached(key: str) -> bool:
    """A cached result under ``key`` (a small file read); only then is the store asked whether it holds it."""
    from prefect.results import get_result_store

    try:
        return get_result_store().exists(key)
    except Exception:  # an unreadable result storage: ask the store
        return True


def _stored(store: str, doc_id: str, sha256: str, settings_hash: str) -> bool:
    try:
        return Store(store, create=False).find_version(doc_id, sha256, settings_hash) is not None
    except TreebuildError:  # no store yet, or an invalid doc_id: nothing stored
        return False


@task(name="ingest-document", task_run_name="ingest {location}", retries=TRANSIENT_RETRIES,
      retry_delay_seconds=RETRY_DELAYS, retry_condition_fn=_retry_condition, cache_key_fn=document_cache_key,
      persist_result=True)
def ingest_document(location: str, store: str, settings: dict[str, Any] | None = None,
                    meta: dict[str, str] | None = None, api_base: str | None = None,
                    model_limit: ModelLimit | None = None) -> dict[str, Any]:
    """Read, build and commit one document; returns its :class:`~treebuild.IngestResult` as a dict.

    Raises the library's error (naming the file and cause) when the document cannot be built, so
    the task run is Failed and the backfill reports it; secrets (API keys) come from the worker's
    ``TREEBUILD_*`` environment, never from parameters.
    """
    pool = active_pool()
    args = (location, store, settings, meta, api_base, model_limit)
    return pool.call(build_document, *args) if pool is not None else build_document(*args)


def prestarted(location: str) -> bool:
    """True when the active pool already builds ``location`` (:meth:`~flows.pool.BuildPool.prestart`): its
    task run must not take a cached result of an earlier store at the same path for the version this
    build commits, so it runs with ``refresh_cache`` and collects the build."""
    pool = active_pool()
    return pool is not None and any(fn is build_document and args[0] == location for fn, args in pool.prestarted())


def run_environment() -> dict[str, str]:
    """Prefect's current settings as ``PREFECT_*`` variables (a profile or test harness sets them
    without the environment), so a worker's model gate talks to this run's API. Computed once per run
    (:func:`flows.pool.build_pool`): serialising every settings model costs tens of milliseconds, and
    each task run sees its own copy of the settings, so a per-call cache missed every time."""
    return get_current_settings().to_environment_variables(exclude_unset=True)


def describe(result: dict[str, Any]) -> str:
    """One log line per document: ``created ADOBE_2022_10K v2, 83 nodes``."""
    if result["status"] == "failed":
        return f"failed {result['doc_id']}: {result.get('error')}"
    return f"{result['status']} {result['doc_id']} v{result['version']}, {result['nodes']} nodes"
