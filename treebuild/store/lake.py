"""Where a store lives and how DuckDB opens it: a DuckLake catalog plus Parquet data files.

A *location* is a local folder (the default: ``catalog.sqlite`` and ``data/`` inside it) or an
object-store prefix (``s3://bucket/prefix``) whose catalog lives elsewhere: a local SQLite file
or a shared PostgreSQL database (``postgres:dbname=... host=...``). DuckDB's extensions come
from their PyPI wheels (``duckdb-extension-*``), loaded by file path, so nothing is downloaded
at run time. Secrets (S3 keys, PostgreSQL passwords) are read from the environment for each
connection and never written to the store.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ..errors import StoreError

__all__ = ["Location", "LAKE", "CATALOG_FILE", "DATA_DIR", "load_extension", "open_lake", "shared_lake",
           "catalog_identity"]

LAKE = "tb"  # the name every treebuild connection attaches the store under
CATALOG_FILE = "catalog.sqlite"  # SQLite: several local processes may write (a DuckDB-file catalog allows one)
DATA_DIR = "data"
# How long a SQLite catalog waits for another writer before failing (ms); commits hold it for milliseconds.
BUSY_TIMEOUT_MS = 60_000
# DuckDB re-hashes an extension's whole binary (35 MB each) to check its signature on every LOAD: ~0.2-0.4 s of
# every command's start. The signature guards extensions downloaded over plain HTTP; ours are loaded by path from
# pinned PyPI wheels in the same environment as DuckDB's own (unsigned) native library, so the check adds no
# protection there. The connection's SQL never reaches LOAD from a user (`treebuild sql` refuses it), and
# autoloading is off, so no other extension file (e.g. one in ~/.duckdb/extensions) is ever loaded unchecked.
_CONNECT_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "allow_unsigned_extensions": True, "autoload_known_extensions": False, "autoinstall_known_extensions": False}

_EXTENSION_WHEELS = {
    "ducklake": "duckdb_extension_ducklake",
    "sqlite_scanner": "duckdb_extension_sqlite_scanner",
    "httpfs": "duckdb_extension_httpfs",
    "postgres_scanner": "duckdb_extension_postgres_scanner",
}


def load_extension(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Load a DuckDB extension from its PyPI wheel (version-matched to ``duckdb``)."""
    module_name = _EXTENSION_WHEELS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        pkg = module_name.replace("_", "-")
        raise StoreError(f"DuckDB extension {name!r} is not installed",
                         hint=f"pip install '{pkg}=={duckdb.__version__}'") from exc
    base = Path(module.__file__ or "").parent / "extensions"
    path = base / f"v{duckdb.__version__}" / f"{name}.duckdb_extension"
    if not path.exists():
        found = sorted(p.name for p in base.glob("v*"))
        raise StoreError(f"DuckDB extension {name!r} is built for DuckDB {', '.join(found) or '?'}, "
                         f"not {duckdb.__version__}", path=str(path),
                         hint=f"install the matching wheel: pip install '{module_name.replace('_', '-')}=="
                              f"{duckdb.__version__}'")
    con.execute(f"LOAD {_q(str(path))}")


def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


@dataclass(frozen=True)
class Location:
    """A store's data path and catalog.

    ``root`` is the local folder that holds the SQLite catalog and the lock files (for a local
    store, the store folder itself). ``data`` is the folder or ``s3://`` prefix of the Parquet files.
    ``catalog`` is a SQLite file path or a ``postgres:...`` connection string.
    """

    root: Path
    data: str
    catalog: str

    @classmethod
    def parse(cls, store: str | Path, catalog: str | None = None) -> Location:
        text = str(store)
        if text.startswith("s3:/") and not text.startswith("s3://"):
            raise StoreError("an s3 location lost a slash (was it passed through pathlib.Path?)", path=text,
                             hint="pass the store location as a string: s3://bucket/prefix")
        catalog = catalog or os.environ.get("TREEBUILD_CATALOG") or None
        if "://" in text:
            if not text.startswith("s3://"):
                raise StoreError("unsupported store location", path=text,
                                 hint="use a local folder or s3://bucket/prefix")
            if not catalog:
                raise StoreError("an s3:// store needs a catalog location", path=text,
                                 hint="pass --catalog FILE.sqlite or postgres:..., or set TREEBUILD_CATALOG")
            data = text.rstrip("/") + "/"
        else:
            data = ""
        if catalog and catalog.startswith("postgres:"):
            root = Path(text) if not data else Path.home() / ".treebuild"
            return cls(root=root.absolute(), data=data or str((Path(text) / DATA_DIR).absolute()) + "/",
                       catalog=catalog)
        if data:
            cat = Path(catalog or "").absolute()
            return cls(root=cat.parent, data=data, catalog=str(cat))
        root = Path(text).absolute()
        cat = Path(catalog).absolute() if catalog else root / CATALOG_FILE
        return cls(root=root, data=str(root / DATA_DIR) + "/", catalog=str(cat))

    @property
    def is_remote(self) -> bool:
        return self.data.startswith("s3://")

    @property
    def shared_catalog(self) -> bool:
        return self.catalog.startswith("postgres:")

    @property
    def local_default(self) -> bool:
        """Catalog and data inside one local folder: the relocatable, zero-set-up layout."""
        return not self.is_remote and not self.shared_catalog and Path(self.catalog).parent == self.root

    def exists(self) -> bool:
        if self.shared_catalog:
            return True  # the database decides; attaching creates the DuckLake tables if missing
        return Path(self.catalog).exists()

    def display(self) -> str:
        return self.data.rstrip("/") if self.is_remote else str(self.root)


def _s3_secret_sql() -> str:
    """A temporary (in-memory) S3 secret from the standard AWS environment variables."""
    parts = ["TYPE s3"]
    env = os.environ
    for key, var in [("KEY_ID", "AWS_ACCESS_KEY_ID"), ("SECRET", "AWS_SECRET_ACCESS_KEY"),
                     ("SESSION_TOKEN", "AWS_SESSION_TOKEN")]:
        if env.get(var):
            parts.append(f"{key} {_q(env[var])}")
    region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    if region:
        parts.append(f"REGION {_q(region)}")
    endpoint = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
    if endpoint:
        scheme, _, host = endpoint.partition("://")
        parts.append(f"ENDPOINT {_q(host.rstrip('/'))}")
        parts.append(f"USE_SSL {'true' if scheme == 'https' else 'false'}")
        parts.append("URL_STYLE 'path'")  # S3-compatible servers (MinIO, moto, Ceph) expect path-style URLs
    return f"CREATE OR REPLACE TEMPORARY SECRET treebuild_s3 ({', '.join(parts)})"


def open_lake(loc: Location, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the store attached as ``tb`` and selected with ``USE``."""
    # The catalog answers many tiny queries: one thread per SQLite scan halves their latency; Parquet footers
    # of immutable data files are cached.
    con = duckdb.connect(config=_CONNECT_CONFIG)
    try:
        load_extension(con, "ducklake")
        if loc.shared_catalog:
            load_extension(con, "postgres_scanner")
        else:
            load_extension(con, "sqlite_scanner")
            con.execute("SET sqlite_disable_multithreaded_scans = true")
        con.execute("SET parquet_metadata_cache = true")
        if loc.is_remote:
            load_extension(con, "httpfs")
            con.execute(_s3_secret_sql())
        if loc.shared_catalog:
            meta = f"ducklake:{loc.catalog}"
            options = [f"DATA_PATH {_q(loc.data)}"]
        else:
            meta = f"ducklake:sqlite:{loc.catalog}"
            options = [f"DATA_PATH {_q(loc.data)}", f"META_BUSY_TIMEOUT {BUSY_TIMEOUT_MS}"]
            if not read_only:
                options.append("META_JOURNAL_MODE 'WAL'")
        if loc.exists():
            options.append("OVERRIDE_DATA_PATH true")  # the folder may have moved: data is where the store is now
        elif loc.local_default:
            # The persisted data path stays relative ('data/'), so any DuckDB client attaching the
            # catalog of a moved or copied store finds the files next to it.
            _create_relative(con, meta, loc)
            options.append("OVERRIDE_DATA_PATH true")
        if read_only:
            options.append("READ_ONLY")
        con.execute(f"ATTACH {_q(meta)} AS {LAKE} ({', '.join(options)})")
        con.execute(f"USE {LAKE}")
    except duckdb.Error as exc:
        con.close()
        raise StoreError(f"cannot open the store catalog: {str(exc).splitlines()[0]}", path=loc.catalog,
                         hint="check the catalog location and, for s3:// or PostgreSQL, the credentials in "
                              "the environment") from exc
    except BaseException:
        con.close()
        raise
    return con


_OPEN: OrderedDict[tuple[str, str, bool, int | None], duckdb.DuckDBPyConnection] = OrderedDict()
_OPEN_LOCK = threading.Lock()
OPEN_CACHE = 4  # stores kept attached per process (a backfill writes to one)


def catalog_identity(loc: Location) -> int | None:
    """A local catalog file's inode: a store deleted and created again at the same path is another
    store, never read through a connection to the old file. None for a database catalog."""
    if loc.shared_catalog:
        return None
    try:
        return Path(loc.catalog).stat().st_ino
    except OSError:
        return None


def shared_lake(loc: Location, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    """``open_lake``, reusing this process's connection to the same store (loading the extensions and
    attaching costs ~0.05-0.1 s; each new transaction still reads the catalog's latest snapshot).

    The one cache of open stores in a process: every :class:`~treebuild.store.Store` object on a store
    (``ingest(path, "store")`` in a loop, each document of a backfill worker, the CLI, the MCP server) shares
    its connection. Keyed on the catalog's identity, so a store deleted and created again at the same path
    is opened anew, never read or written through a connection to the old catalog."""
    with _OPEN_LOCK:
        con = _OPEN.get(key := (loc.catalog, loc.data, read_only, catalog_identity(loc)))
        if con is not None:
            _OPEN.move_to_end(key)
            return con
    con = open_lake(loc, read_only=read_only)
    key = (loc.catalog, loc.data, read_only, catalog_identity(loc))
    with _OPEN_LOCK:
        _OPEN[key] = con
        while len(_OPEN) > OPEN_CACHE:
            _OPEN.popitem(last=False)  # not closed: a Store may still use it; freed with its last user
    return con


def _create_relative(con: duckdb.DuckDBPyConnection, meta: str, loc: Location) -> None:
    con.execute(f"ATTACH {_q(meta)} AS {LAKE}_init (DATA_PATH '{DATA_DIR}/', META_JOURNAL_MODE 'WAL')")
    con.execute(f"DETACH {LAKE}_init")
