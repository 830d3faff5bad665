"""Reading stores of schema version 1 (one folder per document) and migrating them to the DuckLake layout.

Version 1 kept ``trees/<doc_id>/v000001.parquet`` (the commit point), ``nodes/<doc_id>/...`` and
``units/<doc_id>/...``, zero-row ``_schema/empty.parquet`` files, ``locks/`` and ``catalog.duckdb``.
Only versions whose tree file exists were committed; nodes and units files without one are orphans
of killed commits and are not migrated.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import StoreError
from .schema import TABLES
from .store import Store

__all__ = ["is_legacy", "migrate", "MigrationReport", "LEGACY_DIRS", "BACKUP_DIR"]

LEGACY_DIRS = ("trees", "nodes", "units")
BACKUP_DIR = "v1-backup"  # the old folders are moved here (not deleted) once the new catalog holds every version
BATCH_DOCS = 200  # documents per migration transaction: bounded memory, few snapshots


@dataclass(frozen=True)
class MigrationReport:
    documents: int
    versions: int
    nodes: int
    units: int
    orphans_skipped: int
    backup: Path


def is_legacy(root: Path) -> bool:
    return (root / "trees").is_dir() and any(p.name != "_schema" for p in (root / "trees").iterdir())


def _read(path: Path, table: str) -> pa.Table:
    try:
        t = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        raise StoreError(f"cannot read {table} file: {exc}", path=str(path),
                         hint="restore it from a backup, or delete this version's three files and migrate "
                              "again") from exc
    schema = TABLES[table]
    for field in schema:  # files written before a column existed get it as nulls
        if field.name not in t.column_names:
            t = t.append_column(field, pa.nulls(t.num_rows, field.type))
    return t.select(schema.names).cast(schema)


def _versions(root: Path) -> Iterator[tuple[str, int, Path]]:
    for doc_dir in sorted((root / "trees").iterdir()):
        if not doc_dir.is_dir() or doc_dir.name == "_schema":
            continue
        for f in sorted(doc_dir.glob("v*.parquet")):
            yield doc_dir.name, int(f.stem[1:]), f


def migrate(root: Path, *, on_progress: Callable[[int, int], None] | None = None) -> MigrationReport:
    """Convert the version-1 store at ``root`` in place: every committed version goes into a new DuckLake
    catalog in the same folder (same rows, same load_ids), then the old folders move to ``v1-backup/``.

    Safe to run again after an interruption: versions already in the catalog are skipped.
    """
    root = Path(root)
    if not is_legacy(root):
        raise StoreError("no version-1 store here (no trees/<doc_id>/ folders)", path=str(root),
                         hint="nothing to migrate")
    store = Store(root, _legacy_ok=True)
    done = {(v["doc_id"], v["version"]) for v in store.sql("SELECT doc_id, version FROM trees").to_pylist()}
    todo = [(d, v, f) for d, v, f in _versions(root) if (d, v) not in done]
    total = len(todo)
    counts = {"versions": 0, "nodes": 0, "units": 0}
    docs = {d for d, _, _ in _versions(root)}
    for start in range(0, total, BATCH_DOCS):
        batch = todo[start:start + BATCH_DOCS]
        parts: dict[str, list[pa.Table]] = {name: [] for name in LEGACY_DIRS}
        for doc_id, version, tree_file in batch:
            parts["trees"].append(_read(tree_file, "trees"))
            for name in ("nodes", "units"):
                f = root / name / doc_id / tree_file.name
                if not f.exists():
                    raise StoreError(f"version {version} of {doc_id!r} has a tree row but no {name} file",
                                     path=str(f), hint="this version was damaged before migration; delete "
                                                       f"{tree_file} and migrate again")
                parts[name].append(_read(f, name))
        tables = {name: pa.concat_tables(ts) for name, ts in parts.items()}
        store.insert_versions(tables["trees"], tables["nodes"], tables["units"])
        counts["versions"] += len(batch)
        counts["nodes"] += tables["nodes"].num_rows
        counts["units"] += tables["units"].num_rows
        if on_progress is not None:
            on_progress(min(start + BATCH_DOCS, total), total)
    committed = {(d, v) for d, v, _ in _versions(root)}
    orphans = sum(1 for name in ("nodes", "units") for d in (root / name).glob("*/v*.parquet")
                  if d.parent.name != "_schema" and (d.parent.name, int(d.stem[1:])) not in committed)
    stored = store.sql("SELECT count(*) AS n FROM trees").to_pylist()[0]["n"]
    if stored < len(committed):
        raise StoreError(f"migration incomplete: {stored} of {len(committed)} versions in the new catalog",
                         path=str(root), hint="run `treebuild migrate` again; the old files are untouched")
    store.close()
    backup = root / BACKUP_DIR
    backup.mkdir(exist_ok=True)
    for name in (*LEGACY_DIRS, "catalog.duckdb"):
        src = root / name
        if src.exists():
            shutil.move(str(src), str(backup / name))
    return MigrationReport(documents=len(docs), versions=counts["versions"], nodes=counts["nodes"],
                           units=counts["units"], orphans_skipped=orphans, backup=backup)
