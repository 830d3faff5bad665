"""The unit of work: one document read, built and committed by :func:`treebuild.ingest`.

``ingest_document`` is a Prefect task with

* a cache key of (doc_id, source sha256, build settings hash, store), so a re-run finds every
  committed document in Prefect's cache and skips it without rebuilding (the run shows it as
  ``Cached``); the key is only given to versions the store holds, and a document committed but
  not yet cached (a resumed run) costs only a hash, because ``ingest`` finds the stored version;
* retries for transient failures only (I/O hiccups, timeouts, a lock held too long), never for
  a broken document, which fails at once with the library's message naming the file;
* the model gate: every model request of this worker process waits on the Prefect global
  concurrency or rate limit named in :class:`~flows.settings.FlowSettings`, so N workers never
  exceed the provider's limit together.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict
from pathlib import Path, PurePosixPath
from typing import Any

from prefect import get_run_logger, task
from prefect.context import TaskRunContext

from flows.sources import fetch, is_url
from treebuild.errors import TreebuildError
from treebuild.ingestion import ingest
from treebuild.llm import set_request_gate
from treebuild.readers.common import file_digest
from treebuild.settings import BuildSettings, ModelConfig
from treebuild.store import Store, doc_id_for

__all__ = ["ingest_document", "document_cache_key", "is_transient", "install_model_gate", "ModelLimit",
           "TRANSIENT_RETRIES"]

TRANSIENT_RETRIES = 2
"""Attempts after the first for a transient failure; a third I/O error in a row is not transient."""
RETRY_DELAYS: list[float] = [2.0, 10.0]
"""Seconds before each retry: long enough for a file server or lock holder to recover."""

STORES_PER_WORKER = 4
"""Open stores a worker process keeps (a backfill writes to one)."""

ModelLimit = tuple[str, str]
"""(name, kind) of a Prefect global concurrency limit; kind is ``concurrency`` or ``rate``."""

_PERMANENT_OS_ERRORS = (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)


def is_transient(exc: BaseException) -> bool:
    """True for failures a retry can fix: timeouts, connection drops, other I/O errors, lock timeouts.

    A :class:`~treebuild.errors.TreebuildError` is never transient: it names a document or setting
    that is wrong, and retrying would only repeat it.
    """
    if isinstance(exc, TreebuildError) or isinstance(exc, _PERMANENT_OS_ERRORS):
        return False
    from filelock import Timeout

    return isinstance(exc, TimeoutError | ConnectionError | OSError | Timeout)


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

    Only a version the store really holds gets a key: a store deleted or replaced under the same
    path never makes the cache skip a document it lost (the task runs, and ``ingest`` builds it).
    """
    location = parameters["location"]
    try:
        source = _source_key(location)
    except OSError:
        return None  # unreadable now: no cache entry, the build reports the cause
    settings = BuildSettings(**(parameters.get("settings") or {})).hash()
    did = doc_id_for(PurePosixPath(location).name)
    if not is_url(location) and not _stored(parameters["store"], did, source, settings):
        return None
    store = hashlib.sha256(str(Path(parameters["store"]).resolve()).encode()).hexdigest()[:16]
    return f"treebuild-{did[:80]}-{source[:32]}-{settings}-{store}"


def _stored(store: str, doc_id: str, sha256: str, settings_hash: str) -> bool:
    try:
        return Store(store, create=False).find_version(doc_id, sha256, settings_hash) is not None
    except TreebuildError:  # no store yet, or an invalid doc_id: nothing stored
        return False


def install_model_gate(limit: ModelLimit | None) -> None:
    """Make every model request in this process wait on ``limit`` (``None``: no shared limit)."""
    if limit is None:
        set_request_gate(None)
        return
    name, kind = limit

    @asynccontextmanager
    async def gate() -> AsyncIterator[None]:
        from prefect.concurrency.asyncio import concurrency, rate_limit

        if kind == "rate":
            await rate_limit(name)
            yield
        else:
            async with concurrency(name, occupy=1):
                yield

    set_request_gate(gate)


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
    install_model_gate(model_limit)
    build = BuildSettings(**(settings or {}))
    given: dict[str, Any] = {"api_base": api_base} if api_base else {}
    config = ModelConfig(model=build.model, **given)
    tags = dict(meta or {})
    failure: BaseException | None = None
    try:
        with fetch(location) as local:
            if is_url(location):
                tags.setdefault("source_url", location)
            res = ingest(local, _worker_store(store), doc_id=doc_id_for(local.name), meta=tags, settings=build,
                         model_config=config)
    except Exception as exc:
        failure = _detached(exc, location)
    if failure is not None:  # raised outside the handler: no chained context to serialise
        raise failure
    out = asdict(res)
    out["path"] = location
    get_run_logger().info("%s", describe(out))
    return out


_STORES: dict[str, tuple[Store, int | str | None]] = {}  # per worker process: path -> (store, catalog identity)


def _catalog_identity(st: Store) -> int | str | None:
    """The catalog file's inode (a shared database catalog is always the same one); None: gone."""
    if st.location.shared_catalog:
        return "shared"
    catalog = Path(st.location.catalog)
    return catalog.stat().st_ino if catalog.exists() else None


def _worker_store(path: str) -> Store:
    """One :class:`Store` per store and worker process: opening one checks its layout and catalog
    (about 0.1 s), which plain ``ingest`` of a folder pays once, not once per document. A store
    whose catalog file was removed or replaced since (deleted and created again at the same path)
    is opened anew, never written through a connection to the old one."""
    cached = _STORES.get(path)
    if cached is not None:
        if cached[1] is not None and _catalog_identity(cached[0]) == cached[1]:
            return cached[0]
        del _STORES[path]
        cached[0].close()
    if len(_STORES) >= STORES_PER_WORKER:
        for old, _ in _STORES.values():
            old.close()
        _STORES.clear()
    st = Store(path)
    _STORES[path] = (st, _catalog_identity(st))
    return st


def _detached(exc: Exception, location: str) -> Exception:
    """The same failure without its traceback and cause chain.

    Prefect serialises a failed task's exception with its frames, and a reader's frames hold
    native PyMuPDF objects that cannot be pickled across processes; the message (which names the
    file and the cause) and the type (which decides retries) are what the report needs.
    """
    if isinstance(exc, TreebuildError):
        return TreebuildError(str(exc))
    if is_transient(exc):
        return type(exc)(*exc.args) if isinstance(exc, OSError) else TimeoutError(f"{location}: {exc}")
    return RuntimeError(f"{location}: unexpected {type(exc).__name__}: {exc} (please report)")


def describe(result: dict[str, Any]) -> str:
    """One log line per document: ``created ADOBE_2022_10K v2, 83 nodes``."""
    if result["status"] == "failed":
        return f"failed {result['doc_id']}: {result.get('error')}"
    return f"{result['status']} {result['doc_id']} v{result['version']}, {result['nodes']} nodes"
