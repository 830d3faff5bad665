"""Build and commit documents to a store: one call per file, or a batch that goes on past
bad files and reports each one's outcome."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import TreebuildError
from .pipeline import build_doc
from .readers import SUPPORTED_SUFFIXES, read
from .readers.common import file_digest
from .settings import BuildSettings, ModelConfig, resolve_settings
from .store import DocVersion, Store, doc_id_for, valid_doc_id

__all__ = ["IngestResult", "ingest", "ingest_many", "expand_paths", "StoreSummaryCache"]


@dataclass
class IngestResult:
    """What happened to one document: ``status`` is created, unchanged or error."""

    path: str
    doc_id: str
    status: str
    version: int | None = None
    seconds: float = 0.0
    nodes: int = 0
    pages: int | None = None
    method: str | None = None
    error: str | None = None
    calls: int = 0  # model requests of this build (0 when unchanged or offline)
    tokens: int = 0  # model prompt + completion tokens of this build


class StoreSummaryCache:
    """Summaries from earlier versions of the same document, keyed by ``summary_key``."""

    def __init__(self, store: Store, doc_id: str):
        self._map = store.summaries(doc_id)

    def get(self, key: str) -> str | None:
        return self._map.get(key)


def _store(store: Store | str | Path | None) -> Store:
    return store if isinstance(store, Store) else Store(store)


def ingest(path: str | Path, store: Store | str | Path | None = None, *, doc_id: str | None = None,
           meta: dict[str, str] | None = None, settings: BuildSettings | None = None,
           model_config: ModelConfig | None = None, force: bool = False) -> IngestResult:
    """Build ``path`` and commit it as a new version, unless the same bytes and settings are stored.

    Raises :class:`~treebuild.errors.TreebuildError` for expected failures (unreadable file,
    bad doc_id); ``ingest_many`` turns those into per-document error results.
    """
    t0 = time.perf_counter()
    st = _store(store)
    p = Path(path)
    settings, model_config = resolve_settings(settings, model_config)
    did = valid_doc_id(doc_id) if doc_id else doc_id_for(p)
    shash = settings.hash()
    if not p.is_file():
        read(p)  # raises a ReadError naming the file
    sha, _size = file_digest(p)
    existing = st.find_version(did, sha, shash)
    if existing is not None and not force:
        return _unchanged(p, did, existing, t0)
    with st.lock(did):  # one build per document at a time: a second process waits, then finds it stored
        existing = st.find_version(did, sha, shash)
        if existing is not None and not force:
            return _unchanged(p, did, existing, t0)
        doc = read(p)
        read_seconds = time.perf_counter() - t0
        cache = StoreSummaryCache(st, did)
        tree = build_doc(doc, settings, model_config=model_config, cache=cache, read_seconds=read_seconds)
        tree.meta = dict(meta or {})
        result = st.commit(tree, doc_id=did, settings_hash=shash, force=force)
    return IngestResult(str(p), did, "created" if result.created else "unchanged", result.version,
                        time.perf_counter() - t0, tree.stats.get("nodes", 0), doc.page_count, tree.method,
                        calls=tree.usage.calls, tokens=tree.usage.prompt_tokens + tree.usage.completion_tokens)


def _unchanged(p: Path, did: str, existing: DocVersion, t0: float) -> IngestResult:
    return IngestResult(str(p), did, "unchanged", existing.version, time.perf_counter() - t0,
                        existing.node_count, method=existing.method)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, and supported files found recursively in folders, in sorted order."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUPPORTED_SUFFIXES
                              and not f.name.startswith(("~$", "."))))  # editor lock files, hidden files
        else:
            out.append(p)
    return out


def ingest_many(paths: Iterable[str | Path], store: Store | str | Path | None = None, *,
                doc_id: str | None = None, meta: dict[str, str] | None = None,
                settings: BuildSettings | None = None, model_config: ModelConfig | None = None,
                force: bool = False,
                on_result: Callable[[IngestResult], None] | None = None) -> list[IngestResult]:
    """Ingest every file; a bad document yields an error result naming it and the batch goes on."""
    st = _store(store)
    files = expand_paths(paths)
    if doc_id and len(files) > 1:
        raise TreebuildError("--doc-id names one document but several files were given",
                             hint="ingest them one by one, or let doc_ids come from file names")
    results: list[IngestResult] = []
    seen: dict[str, Path] = {}
    for f in files:
        t0 = time.perf_counter()
        did = doc_id or doc_id_for(f)
        if did in seen:
            res = IngestResult(str(f), did, "error", error=(
                f"{f}: doc_id {did!r} is also derived from {seen[did]} in this batch; ingest one of them "
                "with --doc-id to keep both"))
            results.append(res)
            if on_result is not None:
                on_result(res)
            continue
        seen[did] = f
        try:
            res = ingest(f, st, doc_id=doc_id, meta=meta, settings=settings, model_config=model_config, force=force)
        except TreebuildError as exc:
            res = IngestResult(str(f), doc_id or doc_id_for(f), "error", seconds=time.perf_counter() - t0,
                               error=str(exc))
        except Exception as exc:  # an unexpected bug must not stop a backfill; keep the cause
            last = traceback.extract_tb(exc.__traceback__)[-1]
            res = IngestResult(str(f), doc_id or doc_id_for(f), "error", seconds=time.perf_counter() - t0,
                               error=f"{f}: unexpected {type(exc).__name__}: {exc} "
                                     f"(at {Path(last.filename).name}:{last.lineno}; please report)")
        results.append(res)
        if on_result is not None:
            on_result(res)
    return results
