"""The version-1 store writer (one folder per document), kept to test ``treebuild migrate`` on a store
written the way treebuild wrote it before the DuckLake layout (schema version 1)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from treebuild.model import Tree
from treebuild.store.legacy import LEGACY_DIRS
from treebuild.store.rows import node_rows, tree_rows, unit_rows
from treebuild.store.schema import TABLES

__all__ = ["write_v1"]


def _stamp_v1(table: pa.Table) -> pa.Table:
    i = table.schema.get_field_index("schema_version")
    return table.set_column(i, "schema_version", pa.array([1] * table.num_rows, pa.int16()))


def _write(path: Path, table: pa.Table) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".{uuid.uuid4().hex[:8]}.tmp")
    pq.write_table(table, tmp, compression="zstd")
    tmp.replace(path)


def write_v1(root: Path, tree: Tree, *, doc_id: str, settings_hash: str, with_tree_row: bool = True) -> int:
    """Commit ``tree`` as the next version of ``doc_id`` in the version-1 layout; returns the version.

    ``with_tree_row=False`` leaves what a commit killed before its commit point left: orphan files.
    """
    for name, schema in TABLES.items():
        if name not in LEGACY_DIRS:
            continue  # tables added after version 1
        empty = root / name / "_schema" / "empty.parquet"
        if not empty.exists():
            _write(empty, schema.empty_table())
    (root / "locks").mkdir(parents=True, exist_ok=True)
    existing = sorted((root / "trees" / doc_id).glob("v*.parquet"))
    version = (int(existing[-1].stem[1:]) if existing else 0) + 1
    load_id = uuid.uuid4().hex

    def file(table: str) -> Path:
        return root / table / doc_id / f"v{version:06d}.parquet"

    _write(file("units"), _stamp_v1(unit_rows(tree, doc_id=doc_id, version=version, load_id=load_id)))
    _write(file("nodes"), _stamp_v1(node_rows(tree, doc_id=doc_id, version=version, load_id=load_id)))
    if with_tree_row:
        _write(file("trees"), _stamp_v1(tree_rows(tree, doc_id=doc_id, version=version, load_id=load_id,
                                                  created_at=datetime.now(UTC), settings_hash=settings_hash)))
    return version
