"""A backfill's manifest: the documents named by folders, globs, list files and fsspec URLs.

``manifest`` turns what a user typed into one sorted, de-duplicated list of document locations
(local paths, or URLs such as ``s3://bucket/prefix/`` through fsspec; ``s3://`` needs the ``s3``
extra). ``fetch`` makes a remote document a local file for the readers, keeping its file name
so its doc_id is the same on every machine.
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from treebuild.errors import TreebuildError
from treebuild.ingestion import expand_paths
from treebuild.readers import SUPPORTED_SUFFIXES
from treebuild.store import doc_id_for

__all__ = ["LIST_SUFFIXES", "manifest", "is_url", "fetch", "split_duplicates", "build_order"]

LIST_SUFFIXES = (".txt", ".lst", ".list")
"""A source with one of these suffixes is a list file: one location per line, ``#`` comments. A ``.txt``
is a plain-text document too: it is read as a list only when every line names a location (a URL, a
glob, a folder or a file of a supported format), else it is a document to build."""
_LIST_PROBE = 64 * 1024
"""Bytes of a ``.txt`` source read to tell a list of locations from a document."""

_GLOB_CHARS = set("*?[")


def is_url(location: str) -> bool:
    """True for ``scheme://...`` locations, which fsspec reads (``file://``, ``s3://``, ...)."""
    scheme, sep, _ = location.partition("://")
    return bool(sep) and scheme.isidentifier()


def _supported(name: str) -> bool:
    base = PurePosixPath(name).name
    return PurePosixPath(base).suffix.lower() in SUPPORTED_SUFFIXES and not base.startswith(("~$", "."))


def _remote(url: str) -> list[str]:
    try:
        import fsspec
    except ImportError:  # pragma: no cover - fsspec comes with prefect
        raise TreebuildError("reading URLs needs fsspec", path=url, hint="pip install 'treebuild[s3]'") from None
    try:
        fs, root = fsspec.core.url_to_fs(url)
    except ImportError as exc:
        raise TreebuildError(f"no filesystem for this URL: {exc}", path=url,
                             hint="for s3:// install the s3 extra: pip install 'treebuild[s3]'") from None
    try:
        if any(c in root for c in _GLOB_CHARS):
            found = [p for p in fs.glob(root) if fs.isfile(p)]
        elif fs.isdir(root):
            found = fs.find(root)
        elif fs.isfile(root):
            return [url]
        else:
            raise TreebuildError("nothing found at this URL", path=url, hint="check the bucket and prefix")
    except OSError as exc:
        raise TreebuildError(f"cannot list: {exc}", path=url, hint="check the URL and your credentials") from None
    return sorted(fs.unstrip_protocol(p) for p in found if _supported(p))


def _is_list(path: Path) -> bool:
    """A list file (see :data:`LIST_SUFFIXES`): ``.lst``/``.list`` always, a ``.txt`` whose lines all
    name locations."""
    if path.suffix.lower() != ".txt":
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read(_LIST_PROBE).splitlines()
    except OSError:
        return True  # reading it again as a list reports the error
    entries = [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    return bool(entries) and all(is_url(e) or any(c in e for c in _GLOB_CHARS) or _supported(e)
                                 or (path.parent / e).is_dir() for e in entries)


def _list_file(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise TreebuildError(f"cannot read list file: {exc.strerror}", path=str(path)) from None
    entries = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    return [e if is_url(e) or Path(e).is_absolute() else str(path.parent / e) for e in entries]


def manifest(sources: Iterable[str]) -> list[str]:
    """Every document the sources name, in order given (folders and globs sorted), each once.

    A local path that does not exist is kept, so its build fails with a clear error naming it.
    """
    out: list[str] = []
    for raw in sources:
        if is_url(raw):
            out.extend(_remote(raw))
        elif any(c in raw for c in _GLOB_CHARS):
            out.extend(sorted(p for p in glob.glob(raw, recursive=True) if Path(p).is_file() and _supported(p)))
        elif Path(raw).suffix.lower() in LIST_SUFFIXES and Path(raw).is_file() and _is_list(Path(raw)):
            out.extend(manifest(_list_file(Path(raw))))
        else:
            out.extend(str(p) for p in expand_paths([raw]))
    return list(dict.fromkeys(out))


def split_duplicates(locations: list[str]) -> tuple[list[str], dict[str, str]]:
    """Locations with distinct doc_ids, and ``location -> error`` for later ones that repeat a doc_id."""
    seen: dict[str, str] = {}
    keep: list[str] = []
    dupes: dict[str, str] = {}
    for loc in locations:
        did = doc_id_for(PurePosixPath(loc).name)
        if did in seen:
            dupes[loc] = (f"{loc}: doc_id {did!r} is also derived from {seen[did]} in this backfill; rename one "
                          "of them or ingest it with `treebuild ingest --doc-id`")
        else:
            seen[did] = loc
            keep.append(loc)
    return keep, dupes


def build_order(locations: list[str]) -> list[str]:
    """Big files first (URLs keep their order): with several workers no worker starts the longest
    document when the others are done, and with any number the documents the CLI builds while Prefect
    starts (:meth:`flows.pool.BuildPool.prestart`) outlast that start instead of leaving the worker idle."""
    def size(location: str) -> int:
        try:
            return os.stat(location).st_size if not is_url(location) else 0
        except OSError:
            return 0

    return sorted(locations, key=size, reverse=True)


@contextmanager
def fetch(location: str) -> Iterator[Path]:
    """A local file for ``location``: the path itself, or a temporary copy of a URL (same file name)."""
    if not is_url(location):
        yield Path(location)
        return
    import fsspec

    folder = Path(tempfile.mkdtemp(prefix="treebuild-fetch-"))
    try:
        local = folder / PurePosixPath(location).name
        try:
            with fsspec.open(location, "rb") as src, open(local, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        except FileNotFoundError:
            raise TreebuildError("not found", path=location, hint="check the URL") from None
        yield local
    finally:
        shutil.rmtree(folder, ignore_errors=True)
