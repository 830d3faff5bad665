"""Worker processes that build documents for ``ingest-document`` task runs of this process.

PyMuPDF is not thread-safe and building is CPU-bound, so builds run in processes (one
worker too); Prefect's own bookkeeping of each task run (cache key, states, retries, result, logs)
stays in a thread of the flow's process, where it costs a few milliseconds. Measured on this
corpus (``bench/README.md``), running the whole task run in a process of Prefect's
``ProcessPoolTaskRunner`` instead costs about 0.3 CPU s per document (the run's settings and
context rebuilt, an API client with its TLS context made, per task run) plus 3 CPU s per spawned
process (Prefect, treebuild and PyMuPDF imported in each).

The workers are forked from a ``forkserver`` that imported treebuild and PyMuPDF once, so starting
one costs milliseconds; the server is started once per process and kept for later pools.

Every process-executor backfill builds in a pool, one worker included: the flow's bookkeeping then
runs on another core than the build. The CLI starts its pool in a background thread
before importing Prefect (:func:`start_early`) and hands it the first documents
(:meth:`BuildPool.prestart`), so the fork server's preload overlaps Prefect's import and those
documents are built while the flow run is created; the backfill takes that pool over, and
the task runs of those documents collect the builds already under way instead of starting them.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

__all__ = ["BuildPool", "WorkerDied", "active_pool", "build_pool", "start_early", "discard_early",
           "start_fork_server", "PRELOAD"]

T = TypeVar("T")

PRELOAD = ["__main__", "treebuild.orchestrate.preload"]
"""Imported once by the fork server (the CLI or test runner; treebuild, PyMuPDF, the tokenizer); workers
inherit them."""

FORWARDED_ENV_PREFIXES = ("TREEBUILD_", "PREFECT_", "OPENAI_", "ANTHROPIC_", "AWS_", "LITELLM_")
"""Settings a build may read from the environment: the caller's current values go with every document,
since workers are forked from a server started earlier (possibly by an earlier backfill)."""


class WorkerDied(OSError):
    """A worker process ended while building (out of memory, a crash in native code): transient, retried."""


def _forwarded_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k.startswith(FORWARDED_ENV_PREFIXES)}


def _call_with_env(env: dict[str, str], fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    """Run ``fn(*args)`` in a worker with the caller's settings in the environment, restored afterwards."""
    stale = {k: v for k, v in os.environ.items() if k.startswith(FORWARDED_ENV_PREFIXES)}
    for k in stale.keys() - env.keys():
        del os.environ[k]
    os.environ.update(env)
    try:
        return fn(*args)
    finally:
        for k in env.keys() - stale.keys():
            os.environ.pop(k, None)
        os.environ.update(stale)


_registered = threading.Event()


def _stop_fork_server_at_exit() -> None:
    """Stop and reap the fork server when this process exits, so its CPU time and its workers' is
    accounted to this process (``getrusage``, ``time``) rather than lost with an orphan."""
    if _registered.is_set():
        return
    _registered.set()
    from multiprocessing import forkserver

    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)  # CPython's, not public API
    if stop is not None:
        atexit.register(stop)


def start_fork_server() -> multiprocessing.context.ForkServerContext:
    """Start the fork server now (it preloads in its own process, in parallel with the caller, e.g.
    while Prefect creates the flow run); the context pools fork their workers from."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)  # takes effect when the server starts (once per process)
    _stop_fork_server_at_exit()
    from multiprocessing import forkserver

    forkserver.ensure_running()
    return ctx


def _ready() -> int:
    return os.getpid()


class BuildPool:
    """``workers`` processes forked from a preloaded fork server; :meth:`call` runs a function in one.

    A worker that dies breaks the executor: every call then in flight raises :class:`WorkerDied`
    (a transient error, so Prefect retries those documents) and the next call gets a fresh executor.
    """

    def __init__(self, workers: int):
        from ..readers.ocr import thread_share

        self.workers = workers
        self.env: dict[str, str] = {}
        """Variables every call of the current run adds (set once per run by :func:`build_pool`)."""
        self.defaults = thread_share(workers)
        """Variables every call gets unless the caller sets them: each worker's share of the OCR threads."""
        self._lock = threading.Lock()
        self._executor = self._start()
        self._early: list[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]] = []

    def _start(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=start_fork_server())
        for _ in range(self.workers):  # start every worker now, while the first task runs are created
            executor.submit(_ready)
        return executor

    def prestart(self, fn: Callable[..., Any], *args: Any) -> None:
        """Start ``fn(*args)`` now, before anyone asks for it (with this process's settings variables):
        the first :meth:`call` of the same function with equal arguments collects this run instead of
        starting another."""
        with self._lock:
            self._early.append((fn, args, self._executor.submit(_call_with_env, {**self.defaults, **_forwarded_env()},
                                                                   fn, args)))

    def prestarted(self) -> list[tuple[Callable[..., Any], tuple[Any, ...]]]:
        """The (function, arguments) of prestarted runs no :meth:`call` has collected yet."""
        with self._lock:
            return [(fn, args) for fn, args, _ in self._early]

    def _take_early(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Future[Any] | None:
        for i, (f, a, future) in enumerate(self._early):
            if f is fn and a == args:
                del self._early[i]
                return future
        return None

    def call(self, fn: Callable[..., T], *args: Any, env: Mapping[str, str] | None = None) -> T:
        """``fn(*args)`` in a worker process (``fn`` and the arguments must be picklable), with this
        process's settings variables, the run's :attr:`env` and ``env`` in the worker's environment; the result of a
        :meth:`prestart` of the same call if there is one."""
        with self._lock:
            executor = self._executor
            future = self._take_early(fn, args)
        try:
            if future is None:
                variables = {**self.defaults, **_forwarded_env(), **self.env, **(env or {})}
                future = executor.submit(_call_with_env, variables, fn, args)
            result: T = future.result()
            return result
        except BrokenProcessPool as exc:
            with self._lock:
                if self._executor is executor:
                    executor.shutdown(wait=False, cancel_futures=True)
                    self._executor = self._start()
            raise WorkerDied(f"a worker process died while building this document or one built next to it "
                             f"({exc})") from None

    def close(self, wait: bool = True) -> None:
        """Stop the workers once their current builds end; ``wait``: until then."""
        with self._lock:
            self._executor.shutdown(wait=wait, cancel_futures=True)


_active: ContextVar[BuildPool | None] = ContextVar("treebuild_build_pool", default=None)


def active_pool() -> BuildPool | None:
    """The pool this task run hands its build to (Prefect copies the context into task threads);
    None: build in the task run's own thread or process."""
    return _active.get()


_early_pool: BuildPool | None = None
_early_thread: threading.Thread | None = None
_early_lock = threading.Lock()


def start_early(workers: int, then: Callable[[BuildPool], None] | None = None) -> None:
    """Start, in a background thread, the pool the next :func:`build_pool` of ``workers`` in this
    process takes over, and call ``then(pool)`` there once it runs (the CLI's
    :meth:`~BuildPool.prestart` of the first documents). Starting a worker waits until the fork
    server has imported :data:`PRELOAD`; in the background, the caller imports Prefect meanwhile (the
    CLI's main thread used to wait for the preload first, about a second, before its own imports)."""
    global _early_thread
    discard_early()

    def run() -> None:
        global _early_pool
        pool = BuildPool(workers)
        with _early_lock:
            _early_pool = pool
        if then is not None:
            try:
                then(pool)
            except Exception:  # nothing prestarted: the task runs build those documents themselves
                pass

    with _early_lock:
        _early_thread = threading.Thread(target=run, name="treebuild-early-pool", daemon=True)
        _early_thread.start()


def _join_early() -> None:
    """Wait until the background start of :func:`start_early` (and its prestarts) is over."""
    global _early_thread
    with _early_lock:
        thread, _early_thread = _early_thread, None
    if thread is not None:
        thread.join()


def discard_early(wait: bool = True) -> None:
    """Stop an early pool no backfill took over (the flow run could not start); ``wait``: for the
    builds it started (they commit, as any build does)."""
    global _early_pool
    _join_early()
    with _early_lock:
        pool, _early_pool = _early_pool, None
    if pool is not None:
        pool.close(wait=wait)


def _take_over(workers: int) -> BuildPool:
    global _early_pool
    _join_early()
    with _early_lock:
        pool, _early_pool = _early_pool, None
    if pool is not None and pool.workers == workers:
        return pool
    if pool is not None:
        pool.close()
    return BuildPool(workers)


@contextmanager
def build_pool(workers: int, env: Mapping[str, str] | None = None) -> Iterator[BuildPool]:
    """Start a pool (or take over the one :func:`start_early` started), make it the active one for
    task runs submitted inside, and stop it at the end; ``env``: variables every build of the run gets
    (computed once per run, not once per document)."""
    pool = _take_over(workers)
    pool.env = dict(env or {})
    token = _active.set(pool)
    try:
        yield pool
    except BaseException:  # interrupted or crashed: do not wait for builds nobody will collect
        pool.close(wait=False)
        raise
    else:  # every build is collected: the workers exit in the background while the run reports
        pool.close(wait=False)
    finally:
        _active.reset(token)
