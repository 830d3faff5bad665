"""Build and commit documents to a store: one call per file, or a batch that goes on past
bad files and reports each one's outcome, its warnings and the files it skipped."""

from __future__ import annotations

import os
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from .errors import TreebuildError
from .findings import Finding, texts
from .model import Method
from .readers import SUPPORTED_SUFFIXES, preflight, read
from .readers.common import file_digest
from .readers.ocr import OcrRequest
from .settings import BuildSettings, Limits, ModelConfig, resolve_settings
from .store import DocVersion, Store, StoreSummaryCache, doc_id_for, matching_version, valid_doc_id

__all__ = ["IngestResult", "IngestStatus", "Scan", "ingest", "ingest_many", "expand_paths", "scan_paths",
           "doc_id_for_path", "summary_line", "IdentityConflict"]


class IngestStatus(StrEnum):
    """What happened to one document (stored and compared as the plain strings)."""

    created = "created"
    unchanged = "unchanged"
    error = "error"


class IdentityConflict(TreebuildError):
    """A file would become a new version of a document that came from another file."""


@dataclass
class IngestResult:
    """What happened to one document: ``status`` is created, unchanged or error; ``findings`` are
    the build's (no text layer, ignored outline, model failures ...), ``warnings`` their text lines."""

    path: str
    doc_id: str
    status: IngestStatus
    version: int | None = None
    seconds: float = 0.0
    nodes: int = 0
    pages: int | None = None
    method: Method | None = None
    error: str | None = None
    calls: int = 0  # model requests of this build (0 when unchanged or offline)
    tokens: int = 0  # model prompt + completion tokens of this build
    findings: list[Finding] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """The text form of :attr:`findings`, one line each."""
        return texts(self.findings)


@dataclass
class Scan:
    """Files to ingest (with the folder each was found under, for path-derived ids) and the files
    that folders held but no reader takes."""

    files: list[Path] = field(default_factory=list)
    bases: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)

    def skipped_line(self) -> str | None:
        """``skipped 3 files: .txt x2, .xlsx`` (most common suffix first), or None."""
        if not self.skipped:
            return None
        counts = Counter(p.suffix.lower() or "(no suffix)" for p in self.skipped)
        parts = [s if n == 1 else f"{s} x{n}" for s, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
        noun = "file" if len(self.skipped) == 1 else "files"
        return f"skipped {len(self.skipped)} {noun} with no reader: {', '.join(parts)}"


def _store(store: Store | str | Path | None) -> Store:
    return store if isinstance(store, Store) else Store(store)


def ingest(path: str | Path, store: Store | str | Path | None = None, *, doc_id: str | None = None,
           meta: dict[str, str] | None = None, settings: BuildSettings | None = None,
           model_config: ModelConfig | None = None, force: bool = False, limits: Limits | None = None,
           password: str | None = None) -> IngestResult:
    """Build ``path`` and commit it as a new version, unless the same bytes and settings are stored.

    Without ``doc_id`` the id comes from the file name; if that id already holds a different file
    from another path, :class:`IdentityConflict` is raised instead of silently adding a version
    (pass ``doc_id`` to add it anyway). Raises :class:`~treebuild.errors.TreebuildError` for
    expected failures (unreadable file, over a limit, bad doc_id); ``ingest_many`` turns those into
    per-document error results.

    ``meta`` are the new version's tags; without it (None) a new version keeps the latest version's tags
    (``{}`` records none), so ``--force`` or a changed file does not silently drop them.
    """
    t0 = time.perf_counter()
    st = _store(store)
    p = Path(path)
    settings, model_config = resolve_settings(settings, model_config)
    did = valid_doc_id(doc_id) if doc_id else doc_id_for(p)
    shash = settings.hash()
    limits = preflight(p, limits)  # missing, empty, unsupported, misnamed or too big: before hashing or locking
    sha, _size = file_digest(p)
    # Store reads per document: its versions before and again under the lock (another process may have
    # committed it meanwhile), the summaries of earlier versions only if there are any, and the commit.
    versions = st.versions(did)
    existing = matching_version(versions, sha, shash)
    if existing is not None and not force:
        return _unchanged(p, did, existing, t0)
    if doc_id is None:
        _check_identity(st, did, p, versions)
    with st.lock(did):  # one build per document at a time: a second process waits, then finds it stored
        versions = st.versions(did)
        existing = matching_version(versions, sha, shash)
        if existing is not None and not force:
            return _unchanged(p, did, existing, t0)
        doc = read(p, limits=limits, password=password, ocr=OcrRequest.from_settings(settings, limits))
        read_seconds = time.perf_counter() - t0
        cache = StoreSummaryCache(st, did, stored=bool(versions))
        from .pipeline import build_doc  # imported on first build: a backfill's flow process never builds

        tree = build_doc(doc, settings, model_config=model_config, cache=cache, read_seconds=read_seconds)
        tree.meta = dict(meta) if meta is not None else _latest_tags(st, did, versions)
        result = st.commit(tree, doc_id=did, settings_hash=shash, force=force)
    return IngestResult(str(p), did, IngestStatus.created if result.created else IngestStatus.unchanged,
                        result.version, time.perf_counter() - t0, tree.stats.get("nodes", 0), doc.page_count,
                        tree.method, calls=tree.usage.calls,
                        tokens=tree.usage.prompt_tokens + tree.usage.completion_tokens,
                        findings=list(tree.findings) if result.created else [])


def _latest_tags(st: Store, did: str, versions: list[DocVersion]) -> dict[str, str]:
    """The tags of the document's latest stored version ({} for a new document)."""
    return st.tags(did) if versions else {}


def _check_identity(st: Store, did: str, p: Path, versions: list[DocVersion]) -> None:
    """Refuse to version a file under an id derived from its name when that id holds another file."""
    if not versions:
        return
    sources = st.sql("SELECT DISTINCT source_uri FROM trees WHERE doc_id = ?", [did]).column("source_uri").to_pylist()
    if p.resolve().as_uri() in sources:
        return  # a version of this document already came from this path
    stored = Path(st.tree(did, versions[-1].version).doc.path)
    raise IdentityConflict(
        f"doc_id {did!r} already holds {stored} (v{versions[-1].version}); this is a different file "
        "with the same name", path=str(p),
        hint=f"pass --doc-id-from-path to keep both (ids from folder paths), or --doc-id {did} to make it "
             "the next version of that document")


def _unchanged(p: Path, did: str, existing: DocVersion, t0: float) -> IngestResult:
    return IngestResult(str(p), did, IngestStatus.unchanged, existing.version, time.perf_counter() - t0,
                        existing.node_count, method=existing.method)


def _hidden(f: Path) -> bool:
    return f.name.startswith(("~$", "."))  # editor lock files, hidden files


def scan_paths(paths: Iterable[str | Path], *, exclude: Iterable[str | Path] = ()) -> Scan:
    """Files as given, and supported files found recursively in folders, in sorted order; files in
    folders that no reader takes are listed as skipped. Hidden files and folders, editor lock files
    and the ``exclude`` folders (the store being written, when it lies inside a folder) are passed over."""
    scan = Scan()
    excluded = {Path(e).resolve() for e in exclude}
    for raw in paths:
        p = Path(raw)
        if not p.is_dir():
            scan.files.append(p)
            scan.bases.append(p.parent)
            continue
        found: list[Path] = []
        for folder, dirs, names in os.walk(p):
            here = Path(folder)
            dirs[:] = [d for d in dirs if not d.startswith(".") and (here / d).resolve() not in excluded]
            found.extend(here / name for name in names)
        for f in sorted(found):
            if _hidden(f):
                continue
            if not f.is_file() and not (f.is_symlink() and not f.exists()):
                continue  # a broken link or link loop stays in, so its error is reported
            if f.suffix.lower() in SUPPORTED_SUFFIXES:
                scan.files.append(f)
                scan.bases.append(p)
            else:
                scan.skipped.append(f)
    return scan


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, and supported files found recursively in folders, in sorted order."""
    return scan_paths(paths).files


def doc_id_for_path(path: str | Path, base: str | Path) -> str:
    """A doc_id from the file's path relative to ``base``, folders joined by ``--``
    (``2022/q1/report.pdf`` -> ``2022--q1--report``), so equal names in different folders differ."""
    rel = Path(path).relative_to(base) if Path(path).is_relative_to(base) else Path(Path(path).name)
    parts = [doc_id_for(part) for part in rel.parts[:-1]] + [doc_id_for(rel)]
    return valid_doc_id("--".join(parts)[-200:].lstrip("-._") or doc_id_for(rel))


def ingest_many(paths: Iterable[str | Path] | Scan, store: Store | str | Path | None = None, *,
                doc_id: str | None = None, meta: dict[str, str] | None = None,
                settings: BuildSettings | None = None, model_config: ModelConfig | None = None,
                force: bool = False, doc_id_from_path: bool = False, limits: Limits | None = None,
                password: str | None = None,
                on_result: Callable[[IngestResult], None] | None = None) -> list[IngestResult]:
    """Ingest every file; a bad document yields an error result naming it and the batch goes on.

    ``doc_id_from_path`` derives each id from the file's path relative to the folder it was found
    in (see :func:`doc_id_for_path`) instead of its name alone.
    """
    st = _store(store)
    scan = paths if isinstance(paths, Scan) else scan_paths(paths)
    if doc_id and len(scan.files) > 1:
        raise TreebuildError("--doc-id names one document but several files were given",
                             hint="ingest them one by one, or let doc_ids come from file names")
    results: list[IngestResult] = []
    seen: dict[str, Path] = {}
    for f, base in zip(scan.files, scan.bases, strict=True):
        t0 = time.perf_counter()
        explicit = doc_id or (doc_id_for_path(f, base) if doc_id_from_path else None)
        did = explicit or doc_id_for(f)
        if did in seen:
            res = IngestResult(str(f), did, IngestStatus.error, error=(
                f"{f}: doc_id {did!r} is also derived from {seen[did]} in this batch (pass --doc-id-from-path "
                "to derive ids from folder paths, or ingest one of them with --doc-id)"))
        else:
            seen[did] = f
            try:
                res = ingest(f, st, doc_id=explicit, meta=meta, settings=settings, model_config=model_config,
                             force=force, limits=limits, password=password)
            except TreebuildError as exc:
                res = IngestResult(str(f), did, IngestStatus.error, seconds=time.perf_counter() - t0,
                                   error=str(exc))
            except Exception as exc:  # an unexpected bug must not stop a backfill; keep the cause
                last = traceback.extract_tb(exc.__traceback__)[-1]
                res = IngestResult(str(f), did, IngestStatus.error, seconds=time.perf_counter() - t0,
                                   error=f"{f}: unexpected {type(exc).__name__}: {exc} "
                                         f"(at {Path(last.filename).name}:{last.lineno}; please report)")
        results.append(res)
        if on_result is not None:
            on_result(res)
    return results


def summary_line(results: Iterable[IngestResult], skipped: Scan | None = None) -> str:
    """One line for the end of a batch: ``3 created, 1 unchanged, 1 failed, 4 warnings; skipped ...``."""
    results = list(results)
    counts = Counter(str(r.status) for r in results)
    warnings = sum(len(r.warnings) for r in results)
    parts = [f"{counts[s.value]} {'failed' if s is IngestStatus.error else s.value}"
             for s in IngestStatus if counts[s.value]]
    parts.append(f"{warnings} warning{'' if warnings == 1 else 's'}")
    line = f"{len(results)} document{'' if len(results) == 1 else 's'}: " + ", ".join(parts)
    extra = skipped.skipped_line() if skipped is not None else None
    return f"{line}; {extra}" if extra else line
