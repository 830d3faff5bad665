"""One document read, built and committed: the work of an ``ingest-document`` task run.

Runs in a worker process of :mod:`treebuild.orchestrate.pool` (or in the task run's own thread, on a Dask worker),
so it imports no Prefect at module level (:mod:`treebuild.orchestrate.preload` is what the pool's fork server
loads once for all workers). Failures are raised without traceback or cause chain, so they
cross process boundaries (a reader's frames hold native PyMuPDF objects that cannot be pickled).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict
from typing import Any

from treebuild.errors import TreebuildError
from treebuild.ingestion import ingest
from treebuild.llm import set_request_gate
from treebuild.orchestrate.sources import fetch, is_url
from treebuild.settings import BuildSettings, ModelConfig, resolve_settings
from treebuild.store import Store, doc_id_for

__all__ = ["build_document", "build_settings", "is_transient", "install_model_gate", "ModelLimit"]

ModelLimit = tuple[str, str]
"""(name, kind) of a Prefect global concurrency limit; kind is ``concurrency`` or ``rate``."""

_PERMANENT_OS_ERRORS = (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)


def is_transient(exc: BaseException) -> bool:
    """True for failures a retry can fix: timeouts, connection drops, other I/O errors, lock timeouts,
    a worker process that died.

    A :class:`~treebuild.errors.TreebuildError` is never transient: it names a document or setting
    that is wrong, and retrying would only repeat it.
    """
    if isinstance(exc, TreebuildError) or isinstance(exc, _PERMANENT_OS_ERRORS):
        return False
    from filelock import Timeout

    return isinstance(exc, TimeoutError | ConnectionError | OSError | Timeout)


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


def build_settings(model: str | None, **options: Any) -> BuildSettings:
    """The build settings of a run through the library's one settings path: a model given here, else
    ``TREEBUILD_MODEL`` and the other ``TREEBUILD_*`` variables, as ``treebuild ingest`` resolves them."""
    chosen: dict[str, Any] = {"model": model} if model else {}
    given = BuildSettings(**options, **chosen)
    return resolve_settings(given, None)[0]


def build_document(location: str, store: str, settings: dict[str, Any] | None, meta: dict[str, str] | None,
                   api_base: str | None, model_limit: ModelLimit | None) -> dict[str, Any]:
    """Read, build and commit one document; its :class:`~treebuild.IngestResult` as a dict (plus ``path``).

    Raises the library's error (naming the file and cause) when the document cannot be built;
    secrets (API keys) come from the ``TREEBUILD_*`` environment, never from parameters.
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
            res = ingest(local, Store(store), doc_id=doc_id_for(local.name), meta=tags or None, settings=build,
                         model_config=config)
    except Exception as exc:
        failure = _detached(exc, location)
    if failure is not None:  # raised outside the handler: no chained context to serialise
        raise failure
    out = asdict(res)
    out["path"] = location
    return out


def _detached(exc: Exception, location: str) -> Exception:
    """The same failure without its traceback and cause chain.

    The message (which names the file and the cause) and the type (which decides retries) are
    what the report needs.
    """
    if isinstance(exc, TreebuildError):
        return TreebuildError(str(exc))
    if is_transient(exc):
        return type(exc)(*exc.args) if isinstance(exc, OSError) else TimeoutError(f"{location}: {exc}")
    return RuntimeError(f"{location}: unexpected {type(exc).__name__}: {exc} (please report)")
