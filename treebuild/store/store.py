"""A folder of versioned, source-linked Parquet trees.

Layout: ``trees/<doc_id>/v000001.parquet`` (one row), ``nodes/<doc_id>/v000001.parquet``,
``units/<doc_id>/v000001.parquet``, zero-row ``_schema/empty.parquet`` files that pin each
table's columns, ``locks/`` and ``catalog.duckdb``.

A commit writes units, then nodes, then the tree row, each to ``*.parquet.tmp`` and renamed
into place; the tree row is the commit point, and every reader (views and the Python API)
ignores nodes and units of versions without one. A crash at any point therefore leaves
nothing half-visible, and the next commit of that document simply overwrites the orphans.
Per-document file locks let several processes ingest different (or the same) documents.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock

from ..errors import NotFound, StoreError
from ..model import Tree
from .catalog import CATALOG_FORMAT, CATALOG_NAME, connect, write_catalog
from .rows import load_tree, node_rows, tree_rows, unit_rows
from .schema import TABLES

__all__ = ["Store", "DocVersion", "CommitResult", "default_store_path", "valid_doc_id", "doc_id_for"]

_DOC_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
_GLOB_CHARS = re.compile(r"[\[\]*?{}]")


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable: the tree row must not survive a power loss that its nodes did not."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def default_store_path() -> Path:
    return Path(os.environ.get("TREEBUILD_STORE", "treestore"))


def valid_doc_id(doc_id: str) -> str:
    if not _DOC_ID.match(doc_id) or doc_id in {".", ".."}:
        raise StoreError(f"invalid doc_id {doc_id!r}",
                         hint="use letters, digits, '.', '_' or '-', starting with a letter or digit")
    return doc_id


def doc_id_for(path: str | Path) -> str:
    """Default doc_id: the file name without suffix, reduced to safe characters.

    Accents are transliterated (``Übersicht`` -> ``Ubersicht``); a name that loses letters it
    cannot transliterate (CJK, Cyrillic) gets a short hash of the original name so two such
    names do not collide.
    """
    stem = Path(path).stem
    ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_stem).strip("-._")
    lost = sum(1 for ch in unicodedata.normalize("NFKD", stem) if ch.isalnum() and not ch.isascii())
    if lost or not slug:
        digest = hashlib.sha256(stem.encode()).hexdigest()[:8]
        slug = f"{slug}-{digest}" if slug else f"doc-{digest}"
    return slug[:200]


@dataclass(frozen=True)
class DocVersion:
    doc_id: str
    version: int
    sha256: str
    settings_hash: str
    created_at: datetime
    source_name: str
    node_count: int
    method: str


@dataclass(frozen=True)
class CommitResult:
    doc_id: str
    version: int
    created: bool  # False: the same bytes and settings were already stored


# Points in a commit where tests may inject a crash; None in production.
CrashHook = Callable[[str], None]


class Store:
    """Versioned trees in a local folder (default ``./treestore`` or ``$TREEBUILD_STORE``)."""

    def __init__(self, path: str | Path | None = None, *, create: bool = True):
        self.root = Path(path) if path is not None else default_store_path()
        if _GLOB_CHARS.search(str(self.root.resolve())):
            raise StoreError("store path contains a glob character ([, ], *, ? or {)", path=str(self.root),
                             hint="DuckDB reads the store through glob patterns; choose a folder without them")
        self._locks: dict[str, FileLock] = {}
        if not self.root.exists():
            if not create:
                raise StoreError("store folder does not exist", path=str(self.root),
                                 hint="ingest a document first, or pass --store")
            self.root.mkdir(parents=True, exist_ok=True)
        elif not self.root.is_dir():
            raise StoreError("store path is not a folder", path=str(self.root))
        self._crash_hook: CrashHook | None = None
        if create:
            self._init_layout()
        elif not (self.root / "trees").is_dir():
            raise StoreError("not a treebuild store (no trees/ folder)", path=str(self.root),
                             hint="ingest a document first, or pass the right --store")

    def __repr__(self) -> str:
        return f"Store({str(self.root)!r})"

    # ------------------------------------------------------------------ layout
    def _init_layout(self) -> None:
        try:
            for name, schema in TABLES.items():
                folder = self.root / name / "_schema"
                folder.mkdir(parents=True, exist_ok=True)
                empty = folder / "empty.parquet"
                if not empty.exists():
                    self._write_atomic(empty, schema.empty_table())
            (self.root / "locks").mkdir(exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot initialise store: {exc}", path=str(self.root),
                             hint="check permissions and free space") from exc
        self._ensure_catalog()

    def _ensure_catalog(self) -> None:
        path = self.root / CATALOG_NAME
        try:
            with self._lock("_catalog"):
                if path.exists() and self._catalog_current(path):
                    return
                try:
                    write_catalog(self.root)
                except duckdb.Error as exc:  # another client holds it open: it stays usable, refresh later
                    if not path.exists():
                        raise StoreError(f"cannot write {CATALOG_NAME}: {exc}", path=str(path)) from exc
        except OSError as exc:
            raise StoreError(f"cannot write the catalog: {exc.strerror or exc}", path=str(path),
                             hint="the store is not writable; read it with `treebuild sql`/`show`") from exc

    def _catalog_current(self, path: Path) -> bool:
        try:
            con = duckdb.connect(str(path), read_only=True)
        except duckdb.Error as exc:
            # held open by another client: leave it alone; anything else (corrupt file): rewrite it
            return "lock" in str(exc).lower()
        try:
            row = con.execute("SELECT root, format FROM treebuild_catalog").fetchone()
        except duckdb.Error:
            return False
        finally:
            con.close()
        return row is not None and row[0] == str(self.root.resolve()) and row[1] == CATALOG_FORMAT

    @property
    def catalog_path(self) -> Path:
        return self.root / CATALOG_NAME

    def _file(self, table: str, doc_id: str, version: int) -> Path:
        return self.root / table / doc_id / f"v{version:06d}.parquet"

    def _write_atomic(self, path: Path, table: pa.Table) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{uuid.uuid4().hex[:8]}.tmp")
        pq.write_table(table, tmp, compression="zstd")
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        self._crash(f"before_replace:{path.parent.parent.name}")
        os.replace(tmp, path)
        _fsync_dir(path.parent)

    def _lock(self, name: str) -> FileLock:
        """The lock for one document (or ``_catalog``); one re-entrant instance per name."""
        if name not in self._locks:
            self._locks[name] = FileLock(str(self.root / "locks" / f"{name}.lock"), timeout=3600)
        return self._locks[name]

    def lock(self, doc_id: str) -> FileLock:
        """Hold while building and committing ``doc_id`` so two processes never build it twice."""
        return self._lock(valid_doc_id(doc_id))

    # ------------------------------------------------------------------ reading
    def _tree_files(self, doc_id: str | None = None) -> list[Path]:
        base = self.root / "trees"
        if doc_id is not None:
            return sorted((base / doc_id).glob("v*.parquet"))
        return sorted(p for p in base.glob("*/v*.parquet") if p.parent.name != "_schema")

    def _tree_table(self, doc_id: str | None = None) -> pa.Table:
        files = self._tree_files(doc_id)
        if not files:
            return TABLES["trees"].empty_table()
        return pa.concat_tables([pq.read_table(f) for f in files], promote_options="default")

    def versions(self, doc_id: str) -> list[DocVersion]:
        """Committed versions of one document, oldest first."""
        rows = self._tree_table(doc_id).to_pylist()
        out = [DocVersion(r["doc_id"], r["version"], r["sha256"], r["settings_hash"], r["created_at"],
                          r["source_name"], r["node_count"], r["method"]) for r in rows]
        return sorted(out, key=lambda v: v.version)

    def documents(self) -> list[DocVersion]:
        """The latest version of every document, by doc_id."""
        latest: dict[str, DocVersion] = {}
        for r in self._tree_table().to_pylist():
            v = DocVersion(r["doc_id"], r["version"], r["sha256"], r["settings_hash"], r["created_at"],
                           r["source_name"], r["node_count"], r["method"])
            if v.doc_id not in latest or v.version > latest[v.doc_id].version:
                latest[v.doc_id] = v
        return [latest[k] for k in sorted(latest)]

    def tree_rows(self, doc_id: str | None = None, columns: list[str] | None = None) -> list[dict[str, Any]]:
        """The latest tree row of every document (or of ``doc_id`` only), by doc_id; reads tree rows only.

        ``columns`` (which must include ``doc_id`` and ``version``) limits what is read; the files of
        many documents are then read in one DuckDB scan instead of one Parquet read each.
        """
        files = self._tree_files(doc_id)
        if columns is not None and len(files) > 1:
            con = duckdb.connect()
            try:
                table = con.sql(f"SELECT {', '.join(columns)} FROM read_parquet($files, union_by_name = true)",
                                params={"files": [str(f) for f in files]}).to_arrow_table()
            finally:
                con.close()
        else:
            table = self._tree_table(doc_id)
            if columns is not None:
                table = table.select(columns)
        latest: dict[str, dict[str, Any]] = {}
        for r in table.to_pylist():
            if r["doc_id"] not in latest or r["version"] > latest[r["doc_id"]]["version"]:
                latest[r["doc_id"]] = r
        return [latest[k] for k in sorted(latest)]

    def tree(self, doc_id: str, version: int | None = None) -> Tree:
        """Load a stored tree (latest version unless ``version`` is given)."""
        versions = self.versions(doc_id)
        if not versions:
            raise NotFound(f"no document {doc_id!r} in store", path=str(self.root),
                           hint="list documents with `treebuild sql \"SELECT doc_id FROM latest_trees\"`")
        if version is None:
            version = versions[-1].version
        elif version not in {v.version for v in versions}:
            raise NotFound(f"document {doc_id!r} has no version {version}", path=str(self.root),
                           hint=f"versions: {', '.join(str(v.version) for v in versions)}")
        tables = {}
        for name in ("trees", "nodes", "units"):
            path = self._file(name, doc_id, version)
            try:
                tables[name] = pq.read_table(path)
            except (OSError, pa.ArrowException) as exc:
                raise StoreError(f"cannot read {name} of version {version} of {doc_id!r}: {exc}", path=str(path),
                                 hint="the file is damaged or missing; ingest the document again with --force") from exc
        row = tables["trees"].to_pylist()[0]
        nodes, units = tables["nodes"], tables["units"]
        return load_tree(row, nodes, units)

    def find_version(self, doc_id: str, sha256: str, settings_hash: str) -> DocVersion | None:
        for v in reversed(self.versions(doc_id)):
            if v.sha256 == sha256 and v.settings_hash == settings_hash:
                return v
        return None

    def summaries(self, doc_id: str) -> dict[str, str]:
        """``summary_key -> summary`` (and description keys) from every stored version of a document."""
        out: dict[str, str] = {}
        trees = self._tree_table(doc_id)
        if "description_key" in trees.column_names:
            for key, text in zip(trees["description_key"].to_pylist(), trees["description"].to_pylist(),
                                 strict=True):
                if key and text:
                    out[key] = text
        for v in self.versions(doc_id):
            path = self._file("nodes", doc_id, v.version)
            table = pq.read_table(path, columns=["summary_key", "summary"])
            for key, summary in zip(table["summary_key"].to_pylist(), table["summary"].to_pylist(), strict=True):
                if key and summary:
                    out[key] = summary
        return out

    # ------------------------------------------------------------------ writing
    def commit(self, tree: Tree, *, doc_id: str, settings_hash: str, force: bool = False) -> CommitResult:
        """Store ``tree`` as the next version of ``doc_id`` unless identical bytes+settings exist."""
        valid_doc_id(doc_id)
        with self._lock(doc_id):
            existing = self.find_version(doc_id, tree.doc.sha256, settings_hash)
            if existing is not None and not force:
                return CommitResult(doc_id, existing.version, created=False)
            versions = self.versions(doc_id)
            version = (versions[-1].version if versions else 0) + 1
            load_id = uuid.uuid4().hex
            now = datetime.now(UTC)
            tree.doc_id, tree.version = doc_id, version
            try:
                self._write_atomic(self._file("units", doc_id, version),
                                   unit_rows(tree, doc_id=doc_id, version=version, load_id=load_id))
                self._crash("after_units")
                self._write_atomic(self._file("nodes", doc_id, version),
                                   node_rows(tree, doc_id=doc_id, version=version, load_id=load_id))
                self._crash("after_nodes")
                self._write_atomic(self._file("trees", doc_id, version),
                                   tree_rows(tree, doc_id=doc_id, version=version, load_id=load_id,
                                             created_at=now, settings_hash=settings_hash))
            except OSError as exc:
                raise StoreError(f"cannot write version {version} of {doc_id!r}: {exc}", path=str(self.root),
                                 hint="check free space and permissions; nothing partial is visible") from exc
            self._clean_tmp(doc_id)
            return CommitResult(doc_id, version, created=True)

    def _crash(self, point: str) -> None:
        if self._crash_hook is not None:
            self._crash_hook(point)

    def _clean_tmp(self, doc_id: str) -> None:
        for table in TABLES:
            for tmp in (self.root / table / doc_id).glob("*.tmp"):
                try:
                    tmp.unlink()
                except OSError:
                    pass

    # ------------------------------------------------------------------ navigation
    def query(self, question: str, docs: list[str] | None = None, filter: Any = None,
              navigator: Any = "lexical", **limits: Any) -> Any:
        """Navigate this store's trees for ``question``; see :func:`treebuild.query.navigate`."""
        from ..query.runtime import navigate

        return navigate(question, self, docs=docs, filter=filter, navigator=navigator, **limits)

    # ------------------------------------------------------------------ SQL
    def connect(self) -> duckdb.DuckDBPyConnection:
        """An in-memory DuckDB connection with the store's views and macros."""
        return connect(self.root)

    def sql(self, query: str, params: list[Any] | None = None) -> pa.Table:
        """Run SQL against the store's views; returns an Arrow table."""
        con = self.connect()
        try:
            return con.sql(query, params=params or None).to_arrow_table()
        finally:
            con.close()
