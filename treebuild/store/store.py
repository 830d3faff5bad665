"""Versioned trees in a DuckLake: a catalog database plus Parquet data files.

A local store is one folder: ``catalog.sqlite`` (the DuckLake catalog: snapshots, file lists,
statistics, views and macros, and small inserts inlined), ``data/main/{trees,nodes,units,grids}/*.parquet``
and ``locks/``. An ``s3://`` store keeps the Parquet files under the prefix and its catalog in a
local SQLite file or a shared PostgreSQL database (see ``lake.py``).

A commit inserts the units, tables, nodes and tree row of one version in ONE DuckLake transaction (one
snapshot): a reader sees the whole version or nothing, and a process killed at any point leaves at
most Parquet files no snapshot references, which ``Store.gc`` removes. Versions of one document are
serialised by a per-document lock file; on a SQLite catalog, write transactions also take a short
store-wide lock (SQLite allows one writer; without it writers fail with "database is locked"
instead of waiting). Conflicts the format reports are retried.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
from filelock import FileLock

from ..errors import NotFound, StoreError
from ..model import Method, Tree
from .catalog import CATALOG_FORMAT, SORT_KEYS, catalog_format, install
from .lake import LAKE, Location, shared_lake
from .maintenance import cleanup_scheduled, expire_superseded, rewrite_small_files, scheduled_files
from .readonly import check_read_only
from .rows import grid_rows, load_tree, map_column, node_rows, tree_rows, unit_rows

if TYPE_CHECKING:  # pyarrow (with numpy, ~0.1 s) is imported only by writes and Arrow results, not by `list`/`show`
    import pyarrow as pa

__all__ = ["Store", "DocVersion", "CommitResult", "StoreSummaryCache", "matching_version", "default_store_path",
           "valid_doc_id", "doc_id_for"]

_DOC_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$")
COMMIT_ATTEMPTS = 8  # write transactions retried after a conflict or a busy catalog, with growing waits
RETRY_WAIT_S = 0.2
# Words in DuckDB/DuckLake errors that mean "someone else committed first: try again".
_RETRYABLE = ("database is locked", "conflict", "retry count", "busy")
# Document locks share this many lock files (by a hash of the doc_id), so `locks/` stays small at millions of
# documents; two documents wait for each other only if they share a slot while one of them is being built.
LOCK_SLOTS = 4096
DEFAULT_GRACE = timedelta(hours=1)  # gc keeps files younger than this: a running commit or reader may need them



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
    method: Method


@dataclass(frozen=True)
class CommitResult:
    doc_id: str
    version: int
    created: bool  # False: the same bytes and settings were already stored


# Points in a commit where tests may inject a crash; None in production.
CrashHook = Callable[[str], None]


def _lock_slot(doc_id: str) -> str:
    return f"doc-{int(hashlib.sha256(doc_id.encode()).hexdigest()[:8], 16) % LOCK_SLOTS:04d}"


def matching_version(versions: list[DocVersion], sha256: str, settings_hash: str) -> DocVersion | None:
    """The newest of ``versions`` built from these bytes with these settings, if any."""
    for v in reversed(versions):
        if v.sha256 == sha256 and v.settings_hash == settings_hash:
            return v
    return None


class StoreSummaryCache:
    """Summaries from earlier versions of the same document, keyed by ``summary_key``: what a build reuses
    instead of asking the model again (a :class:`~treebuild.summarize.SummaryCache`)."""

    def __init__(self, store: Store, doc_id: str, *, stored: bool = True):
        self._map = store.summaries(doc_id) if stored else {}  # stored=False: no version to reuse from

    def get(self, key: str) -> str | None:
        return self._map.get(key)


class Store:
    """Versioned trees in a local folder (default ``./treestore`` or ``$TREEBUILD_STORE``), or under an
    ``s3://bucket/prefix`` with ``catalog=`` (or ``$TREEBUILD_CATALOG``) naming its catalog."""

    def __init__(self, path: str | Path | None = None, *, create: bool = True, catalog: str | None = None,
                 _legacy_ok: bool = False):
        self.location = Location.parse(path if path is not None else default_store_path(), catalog)
        self.root = self.location.root
        self._writable = create
        self._locks: dict[str, FileLock] = {}
        self._con: duckdb.DuckDBPyConnection | None = None
        self._local = threading.local()
        self._crash_hook: CrashHook | None = None
        loc = self.location
        if not (loc.is_remote and loc.shared_catalog):  # a folder holds the catalog file, the locks or the data
            self._check_folder(create)
        if not _legacy_ok and (self.root / "trees").is_dir():
            raise StoreError("this store uses the folder layout of schema version 1", path=str(self.root),
                             hint=f"convert it once with `treebuild migrate --store {self.root}`")
        if not create and not loc.exists():
            raise StoreError("not a treebuild store (no catalog)", path=str(self.root),
                             hint="ingest a document first, or pass the right --store")
        if create:
            self._setup()
        else:
            self._connection()

    def __repr__(self) -> str:
        return f"Store({self.location.display()!r})"

    # ------------------------------------------------------------------ opening
    def _check_folder(self, create: bool) -> None:
        if not self.root.exists():
            if not create:
                raise StoreError("store folder does not exist", path=str(self.root),
                                 hint="ingest a document first, or pass --store")
            try:
                self.root.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the store folder: {exc.strerror or exc}", path=str(self.root),
                                 hint="check permissions, or pass another --store") from exc
        elif not self.root.is_dir():
            raise StoreError("store path is not a folder", path=str(self.root))

    def _setup(self) -> None:
        """Create the catalog's tables, views and macros if missing or from an older catalog format."""
        try:
            if not self.location.shared_catalog:
                (self.root / "locks").mkdir(exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot initialise store: {exc.strerror or exc}", path=str(self.root),
                             hint="check permissions and free space") from exc
        with self._write_guard():
            con = self._connection()
            if catalog_format(con) == CATALOG_FORMAT:  # checked by every writable Store: a catalog may change
                return
            self._retry(lambda: install(self._cursor()), what="set up the catalog")

    def _connection(self) -> duckdb.DuckDBPyConnection:
        if self._con is None:
            self._con = shared_lake(self.location, read_only=not self._writable)
        return self._con

    def _new_cursor(self) -> duckdb.DuckDBPyConnection:
        """A connection of its own (thread-safe) on the same database, with the store selected."""
        cur = self._connection().cursor()
        cur.execute(f"USE {LAKE}")
        return cur

    def _cursor(self) -> duckdb.DuckDBPyConnection:
        """This thread's connection for the store's own reads and writes (kept: opening one costs ~10 ms)."""
        cur: duckdb.DuckDBPyConnection | None = getattr(self._local, "cur", None)
        if cur is None or self._local.base is not self._con:
            cur = self._new_cursor()
            self._local.cur, self._local.base = cur, self._con
        return cur

    def close(self) -> None:
        """Let go of the store's connection (shared with other Store objects on the same store in this process)."""
        self._con = None
        self._local = threading.local()

    @property
    def catalog_path(self) -> Path:
        """The SQLite catalog file (for a PostgreSQL catalog, a path that does not exist)."""
        return Path(self.location.catalog)

    # ------------------------------------------------------------------ locks
    def _lock(self, name: str) -> contextlib.AbstractContextManager[Any]:
        """The lock for one document (or ``_commit``); one re-entrant instance per name."""
        if self.location.shared_catalog:
            return contextlib.nullcontext()  # many machines: the format's own conflict checks (see schemas/README)
        if name not in self._locks:
            (self.root / "locks").mkdir(exist_ok=True)
            self._locks[name] = FileLock(str(self.root / "locks" / f"{name}.lock"), timeout=3600)
        return self._locks[name]

    def lock(self, doc_id: str) -> contextlib.AbstractContextManager[Any]:
        """Hold while building and committing ``doc_id`` so two processes never build it twice."""
        return self._lock(_lock_slot(valid_doc_id(doc_id)))

    def _write_guard(self) -> contextlib.AbstractContextManager[Any]:
        """SQLite takes one writer at a time: queue write transactions instead of failing on a busy file."""
        return self._lock("_commit")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """One write transaction (one DuckLake snapshot) under the write guard; rolled back on any error."""
        with self._write_guard():
            cur = self._cursor()
            cur.execute("BEGIN")
            try:
                yield cur
                cur.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(duckdb.Error):
                    cur.execute("ROLLBACK")
                raise

    def _retry(self, fn: Callable[[], Any], *, what: str) -> Any:
        for attempt in range(COMMIT_ATTEMPTS):
            try:
                return fn()
            except duckdb.Error as exc:
                text = str(exc).lower()
                if attempt + 1 < COMMIT_ATTEMPTS and any(w in text for w in _RETRYABLE):
                    time.sleep(RETRY_WAIT_S * (1.5 ** attempt))
                    continue
                raise StoreError(f"cannot {what}: {str(exc).splitlines()[0]}", path=self.location.display(),
                                 hint="nothing partial is visible; run the command again") from exc
        raise AssertionError("unreachable")

    # ------------------------------------------------------------------ reading
    def _rows(self, query: str, params: list[Any] | None = None) -> pa.Table:
        cur = self._cursor()
        try:
            return cur.execute(query, params or []).to_arrow_table()
        except duckdb.Error as exc:
            raise self._read_error(exc) from exc

    def _records(self, query: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        """Rows as dicts without going through Arrow (the read paths of quick commands never import pyarrow)."""
        cur = self._cursor()
        try:
            res = cur.execute(query, params or [])
            names = [d[0] for d in res.description or []]
            return [dict(zip(names, r, strict=True)) for r in res.fetchall()]
        except duckdb.Error as exc:
            raise self._read_error(exc) from exc

    def _read_error(self, exc: duckdb.Error) -> StoreError:
        return StoreError(f"cannot read the store: {str(exc).splitlines()[0]}", path=self.location.display(),
                          hint="a data file may be missing or damaged; see `treebuild gc --help`")

    def versions(self, doc_id: str) -> list[DocVersion]:
        """Committed versions of one document, oldest first."""
        rows = self._records(f"SELECT {_DOC_VERSION_COLS} FROM trees WHERE doc_id = ? ORDER BY version", [doc_id])
        return [_doc_version(r) for r in rows]

    def documents(self, *, limit: int | None = None, offset: int = 0) -> list[DocVersion]:
        """The latest version of every document, by doc_id (``limit``/``offset`` page through them).

        A page reads the doc_id column of ``trees`` to find its ids, then only the tree rows in their
        doc_id range (file and row-group pruning), instead of ranking every version of every document.
        """
        if limit is None:
            rows = self._records(f"SELECT {_DOC_VERSION_COLS} FROM latest_trees ORDER BY doc_id")
            return [_doc_version(r) for r in rows]
        page = f"LIMIT {int(limit)} OFFSET {int(offset)}"
        ids = self._records(f"SELECT DISTINCT doc_id FROM trees ORDER BY doc_id {page}")
        if not ids:
            return []
        rows = self._records(f"SELECT {_DOC_VERSION_COLS} FROM trees WHERE doc_id BETWEEN ? AND ? "
                             "QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY version DESC) = 1 "
                             "ORDER BY doc_id",
                             [ids[0]["doc_id"], ids[-1]["doc_id"]])
        return [_doc_version(r) for r in rows]

    def document_count(self) -> int:
        """How many documents the store holds (reads the doc_id column of ``trees`` only)."""
        return int(self._records("SELECT count(DISTINCT doc_id) AS n FROM trees")[0]["n"])

    def tree_rows(self, doc_id: str | None = None, columns: list[str] | None = None) -> list[dict[str, Any]]:
        """The latest tree row of every document (or of ``doc_id`` only), by doc_id; reads tree rows only.

        ``columns`` (which must include ``doc_id`` and ``version``) limits what is read.
        """
        cols = ", ".join(columns) if columns is not None else "*"
        if doc_id is None:
            return self._records(f"SELECT {cols} FROM latest_trees ORDER BY doc_id")
        return self._records(f"SELECT {cols} FROM latest_trees WHERE doc_id = ?", [doc_id])

    def node_rows(self, versions: list[tuple[str, int]], columns: list[str]) -> list[dict[str, Any]]:
        """``columns`` of every node of the given ``(doc_id, version)`` pairs, in one scan and without
        their text (units are not read): what document selection scores of many trees."""
        if not versions:
            return []
        cols = ", ".join(f"n.{c}" for c in columns)
        keys = ", ".join("(?, ?)" for _ in versions)
        params = [value for pair in versions for value in pair]
        return self._records(f"SELECT {cols} FROM nodes n JOIN (VALUES {keys}) AS k(doc_id, version) "
                             "ON n.doc_id = k.doc_id AND n.version = k.version ORDER BY n.doc_id, n.node_id", params)

    def tree(self, doc_id: str, version: int | None = None) -> Tree:
        """Load a stored tree (latest version unless ``version`` is given)."""
        # The tree row first, in one query for the latest version too; created_at is not part of a Tree (and
        # reading a TIMESTAMPTZ would import pytz).
        found = self._records("SELECT * EXCLUDE (created_at) FROM trees WHERE doc_id = $1 AND version = "
                              "coalesce($2, (SELECT max(version) FROM trees WHERE doc_id = $1))", [doc_id, version])
        if not found:
            versions = self.versions(doc_id)
            if not versions:
                raise NotFound(f"no document {doc_id!r} in store", path=self.location.display(),
                               hint="see `treebuild list`")
            raise NotFound(f"document {doc_id!r} has no version {version}", path=self.location.display(),
                           hint=f"versions: {', '.join(str(v.version) for v in versions)}")
        row = found[0]
        version = row["version"]
        key = [doc_id, version]
        nodes = self._records("SELECT * FROM nodes WHERE doc_id = ? AND version = ? ORDER BY node_id", key)
        units = self._records("SELECT * FROM units WHERE doc_id = ? AND version = ? ORDER BY unit_index", key)
        if len(nodes) != row["node_count"] or len(units) != row["unit_count"]:
            raise StoreError(f"version {version} of {doc_id!r} is incomplete ({len(nodes)}/{row['node_count']} "
                             f"nodes, {len(units)}/{row['unit_count']} units)", path=self.location.display(),
                             hint="ingest the document again with --force")
        return load_tree(row, nodes, units, self._grids(key))

    def _grids(self, key: list[Any]) -> list[dict[str, Any]]:
        """A version's tables; none from a store of catalog format 3 or older opened read-only (no writer has
        given it the ``grids`` table yet, and its documents were built without tables)."""
        try:
            return self._records("SELECT * EXCLUDE (markdown) FROM grids WHERE doc_id = ? AND version = ?", key)
        except StoreError as exc:
            if isinstance(exc.__cause__, duckdb.CatalogException):
                return []
            raise

    def tags(self, doc_id: str) -> dict[str, str]:
        """The ``--meta`` tags of the document's latest version ({} when it has none or is not stored)."""
        rows = self._records("SELECT meta FROM trees WHERE doc_id = ? ORDER BY version DESC LIMIT 1", [doc_id])
        return map_column(rows[0]["meta"]) if rows else {}

    def find_version(self, doc_id: str, sha256: str, settings_hash: str) -> DocVersion | None:
        return matching_version(self.versions(doc_id), sha256, settings_hash)

    def summaries(self, doc_id: str) -> dict[str, str]:
        """``summary_key -> summary`` (and description keys) from every stored version of a document."""
        out: dict[str, str] = {}
        trees = self._rows("SELECT description_key, description FROM trees WHERE doc_id = ? ORDER BY version",
                           [doc_id])
        nodes = self._rows("SELECT summary_key, summary FROM nodes WHERE doc_id = ? ORDER BY version", [doc_id])
        for table, key_col, text_col in [(trees, "description_key", "description"),
                                         (nodes, "summary_key", "summary")]:
            for key, text in zip(table[key_col].to_pylist(), table[text_col].to_pylist(), strict=True):
                if key and text:
                    out[key] = text
        return out

    # ------------------------------------------------------------------ writing
    def commit(self, tree: Tree, *, doc_id: str, settings_hash: str, force: bool = False) -> CommitResult:
        """Store ``tree`` as the next version of ``doc_id`` unless identical bytes+settings exist."""
        valid_doc_id(doc_id)
        self._require_writable()
        with self.lock(doc_id):
            version, created = self._retry(lambda: self._commit_once(tree, doc_id, settings_hash, force),
                                           what=f"commit {doc_id!r}")
            return CommitResult(doc_id, version, created=created)

    def _commit_once(self, tree: Tree, doc_id: str, settings_hash: str, force: bool) -> tuple[int, bool]:
        with self._transaction() as cur:
            row = cur.execute("SELECT coalesce(max(version), 0), max(version) FILTER (WHERE sha256 = ? AND "
                              "settings_hash = ?) FROM trees WHERE doc_id = ?",
                              [tree.doc.sha256, settings_hash, doc_id]).fetchone()
            latest, same = (int(row[0]), row[1]) if row else (0, None)
            if same is not None and not force:
                return int(same), False  # committing a transaction that wrote nothing makes no snapshot
            version = latest + 1
            load_id = uuid.uuid4().hex
            tree.doc_id, tree.version = doc_id, version
            self._insert(cur, "units", unit_rows(tree, doc_id=doc_id, version=version, load_id=load_id))
            self._crash("after_units")
            if tree.doc.tables:
                self._insert(cur, "grids", grid_rows(tree, doc_id=doc_id, version=version, load_id=load_id))
            self._insert(cur, "nodes", node_rows(tree, doc_id=doc_id, version=version, load_id=load_id))
            self._crash("after_nodes")
            self._insert(cur, "trees", tree_rows(tree, doc_id=doc_id, version=version, load_id=load_id,
                                                 created_at=datetime.now(UTC), settings_hash=settings_hash))
            self._crash("before_commit")
        return version, True

    @staticmethod
    def _insert(cur: duckdb.DuckDBPyConnection, table: str, rows: pa.Table) -> None:
        name = f"_new_{table}"
        cur.register(name, rows)
        try:
            cur.execute(f"INSERT INTO {table} BY NAME SELECT * FROM {name}")
        finally:
            cur.unregister(name)

    def insert_versions(self, trees: pa.Table, nodes: pa.Table, units: pa.Table) -> None:
        """Insert already-formed rows of whole versions in one transaction (used by ``migrate``).

        The caller guarantees that every (doc_id, version) is complete and new.
        """
        self._require_writable()

        def run() -> None:
            with self._transaction() as cur:
                for name, rows in (("units", units), ("nodes", nodes), ("trees", trees)):
                    self._insert(cur, name, rows)

        self._retry(run, what="insert versions")

    def _require_writable(self) -> None:
        if not self._writable:
            raise StoreError("the store was opened read-only", path=self.location.display())

    def _crash(self, point: str) -> None:
        if self._crash_hook is not None:
            self._crash_hook(point)

    def verify(self) -> list[str]:
        """Problems a reader could see: a version with missing or extra nodes or units, rows of a version
        without a tree row, or a version number used twice. An empty list means every version is whole."""
        rows = self._rows("""
            WITH n AS (SELECT doc_id, version, count(*) AS c FROM nodes GROUP BY ALL),
                 u AS (SELECT doc_id, version, count(*) AS c FROM units GROUP BY ALL),
                 t AS (SELECT doc_id, version, any_value(node_count) AS nodes, any_value(unit_count) AS units,
                              count(*) AS rows FROM trees GROUP BY ALL)
            SELECT doc_id, version, t.rows, t.nodes, coalesce(n.c, 0) AS n, t.units, coalesce(u.c, 0) AS u
            FROM t FULL JOIN n USING (doc_id, version) FULL JOIN u USING (doc_id, version)
            WHERE t.rows IS DISTINCT FROM 1 OR t.nodes IS DISTINCT FROM coalesce(n.c, 0)
               OR t.units IS DISTINCT FROM coalesce(u.c, 0)
            ORDER BY doc_id, version""")
        out = []
        for r in rows.to_pylist():
            what = f"{r['doc_id']} v{r['version']}"
            if not r["rows"]:
                out.append(f"{what}: {r['n']} nodes and {r['u']} units without a tree row")
            elif r["rows"] > 1:
                out.append(f"{what}: {r['rows']} tree rows")
            else:
                out.append(f"{what}: {r['n']}/{r['nodes']} nodes, {r['u']}/{r['units']} units")
        return out

    # ------------------------------------------------------------------ maintenance
    def compact(self) -> dict[str, int]:
        """Merge small data files (and rows inlined in the catalog) into larger, doc_id-sorted files.

        Each table's merge is one ordinary write transaction (see ``maintenance.py``): readers and writers
        may run meanwhile, and a reader inside a transaction keeps reading its snapshot's files. The
        replaced files are removed by :meth:`gc` once no snapshot within the grace period needs them.
        Returns data-file counts before and after.
        """
        self._require_writable()
        before = self._file_count()

        def run() -> None:
            with self._write_guard():
                cur = self._new_cursor()  # a session of its own: merged rows go to files, never back inline
                try:
                    cur.execute("SET ducklake_default_data_inlining_row_limit = 0")
                    for table, keys in SORT_KEYS.items():
                        rewrite_small_files(cur, table, keys)
                finally:
                    cur.close()

        self._retry(run, what="compact the store")
        return {"files_before": before, "files_after": self._file_count()}

    def gc(self, *, keep_versions: int | None = None, grace: timedelta = DEFAULT_GRACE) -> dict[str, int]:
        """Apply retention and remove files no snapshot within the grace period needs.

        ``keep_versions=N`` deletes every version of a document but its N newest (the latest is always
        kept). Snapshots that stopped being the latest more than ``grace`` ago are expired; files only they
        referenced are deleted (files replaced by ``compact`` included, whose earlier snapshots are superseded
        by the compaction's own); files no snapshot ever referenced (left by killed commits) are deleted once
        older than ``grace``. So a commit, or a reader's transaction, younger than ``grace`` keeps what it uses.
        """
        self._require_writable()
        if keep_versions is not None and keep_versions < 1:
            raise StoreError("--keep-versions must be at least 1: the latest version is always kept")
        out = {"versions_deleted": 0, "files_deleted": 0}
        if keep_versions is not None:
            out["versions_deleted"] = self._retry(lambda: self._apply_retention(keep_versions),
                                                  what="apply retention")
        files_before = self._disk_files()
        cutoff = datetime.now(UTC) - grace

        def run() -> None:
            with self._write_guard():
                cur = self._cursor()
                earlier = scheduled_files(cur)
                expire_superseded(cur, cutoff)
                cleanup_scheduled(cur, cutoff, earlier)
                cur.execute(f"CALL ducklake_delete_orphaned_files('{LAKE}', "
                            f"older_than => TIMESTAMPTZ '{cutoff.isoformat(sep=' ')}')")

        self._retry(run, what="collect garbage")
        if files_before >= 0:
            out["files_deleted"] = max(0, files_before - self._disk_files())
        return out

    def _apply_retention(self, keep: int) -> int:
        with self._transaction() as cur:
            cur.execute("CREATE OR REPLACE TEMP TABLE _old AS SELECT doc_id, version FROM trees "
                        "QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY version DESC) > ?", [keep])
            row = cur.execute("SELECT count(*) FROM _old").fetchone()
            n = int(row[0]) if row else 0
            if n:
                for table in ("trees", "nodes", "units", "grids"):  # one snapshot: a version disappears whole
                    cur.execute(f"DELETE FROM {table} WHERE (doc_id, version) IN (SELECT doc_id, version FROM _old)")
            cur.execute("DROP TABLE _old")
        return n

    def _file_count(self) -> int:
        row = self._rows(f"SELECT count(*) AS n FROM ducklake_list_files('{LAKE}', 'trees') UNION ALL "
                         f"SELECT count(*) FROM ducklake_list_files('{LAKE}', 'nodes') UNION ALL "
                         f"SELECT count(*) FROM ducklake_list_files('{LAKE}', 'units') UNION ALL "
                         f"SELECT count(*) FROM ducklake_list_files('{LAKE}', 'grids')")
        return int(sum(row["n"].to_pylist()))

    def _disk_files(self) -> int:
        """Parquet files under a local data folder (-1 for object storage)."""
        if self.location.is_remote:
            return -1
        return sum(1 for _ in Path(self.location.data).rglob("*.parquet"))

    # ------------------------------------------------------------------ SQL
    def connect(self) -> duckdb.DuckDBPyConnection:
        """A DuckDB connection with the store attached (as ``tb``) and selected: its tables, views and macros.

        Nothing run on it is checked: on a store opened with ``create=True`` (the default) a statement can
        change the catalog and delete files. For read-only SQL use :meth:`sql` or :meth:`fetch`; a store
        opened with ``create=False`` attaches its catalog read-only as well."""
        return self._new_cursor()

    def sql(self, query: str, params: list[Any] | None = None, *, read_only: bool = True) -> pa.Table:
        """Run SQL against the store's views; returns an Arrow table (empty for a statement without rows).

        Read-only unless ``read_only=False``: a statement that could change the store (``CREATE``,
        ``INSERT``, ``COPY``, ``ATTACH``, ``SET``, ``CHECKPOINT``, DuckLake's maintenance functions ...)
        raises :class:`~treebuild.errors.TreebuildError` before anything runs (see ``readonly.py``)."""
        with self._relation(query, params, read_only) as rel:
            if rel is None:
                import pyarrow as pa

                return pa.table({})
            return rel.to_arrow_table()

    def fetch(self, query: str, params: list[Any] | None = None, *,
              read_only: bool = True) -> tuple[list[str], list[tuple[Any, ...]]]:
        """:meth:`sql` as column names and Python rows, without Arrow (``treebuild sql`` prints these)."""
        with self._relation(query, params, read_only) as rel:
            return ([], []) if rel is None else (list(rel.columns), rel.fetchall())

    @contextlib.contextmanager
    def _relation(self, query: str, params: list[Any] | None,
                  read_only: bool) -> Iterator[duckdb.DuckDBPyRelation | None]:
        con = self.connect()
        try:
            if read_only:
                check_read_only(con, query)
            yield con.sql(query, params=params or None)
        finally:
            con.close()


# created_at as UTC wall-clock time: a TIMESTAMPTZ result would import pytz (~0.05 s) in every `list`.
_DOC_VERSION_COLS = ("doc_id, version, sha256, settings_hash, created_at AT TIME ZONE 'UTC' AS created_at, "
                     "source_name, node_count, method")


def _doc_version(r: dict[str, Any]) -> DocVersion:
    created = r["created_at"]
    if isinstance(created, datetime):
        created = created.replace(tzinfo=UTC) if created.tzinfo is None else created.astimezone(UTC)
    return DocVersion(r["doc_id"], r["version"], r["sha256"], r["settings_hash"], created, r["source_name"],
                      r["node_count"], Method(r["method"]))
