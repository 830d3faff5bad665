"""The storage contract as Arrow schemas: one table each for trees, nodes, units and the grids of tables.

``SCHEMA_VERSION`` is stamped on every row (with the commit's ``load_id``) so a reader can
tell which contract wrote it; ``schemas/README.md`` documents every column and a test keeps
the two in step. The schemas are built on first use (``TREES``, ``NODES``, ``UNITS``, ``TABLES``
or :func:`arrow_schema`): importing pyarrow costs ~0.1 s that read-only commands never need.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

    TREES: pa.Schema
    NODES: pa.Schema
    UNITS: pa.Schema
    GRIDS: pa.Schema
    TABLES: dict[str, pa.Schema]

__all__ = ["SCHEMA_VERSION", "TREES", "NODES", "UNITS", "GRIDS", "TABLES", "arrow_schema"]

SCHEMA_VERSION = 2  # 2: DuckLake catalog + Parquet data files (1: one folder per document)


@functools.cache
def _tables() -> dict[str, pa.Schema]:
    import pyarrow as pa

    _STR = pa.string()
    _MAP = pa.map_(pa.string(), pa.string())
    # treebuild.findings.Finding as stored (columns added later go last: a store made before them gains them as
    # NULL for its earlier rows, see catalog.install)
    FINDING = pa.struct([("code", _STR), ("stage", _STR), ("message", _STR), ("page", pa.int32()),
                         ("count", pa.int32())])

    TREES = pa.schema([
        ("doc_id", _STR),
        ("version", pa.int32()),
        ("created_at", pa.timestamp("us", tz="UTC")),
        ("source_uri", _STR),
        ("source_name", _STR),
        ("sha256", _STR),
        ("size_bytes", pa.int64()),
        ("format", _STR),
        ("page_count", pa.int32()),
        ("unit_count", pa.int32()),
        ("title", _STR),
        ("file_metadata", _MAP),
        ("meta", _MAP),
        ("settings", _STR),
        ("settings_hash", _STR),
        ("builder_version", _STR),
        ("method", _STR),
        ("description", _STR),
        ("description_key", _STR),
        ("model", _STR),
        ("calls", pa.int32()),
        ("prompt_tokens", pa.int64()),
        ("completion_tokens", pa.int64()),
        ("cost_usd", pa.float64()),
        ("retries", pa.int32()),
        ("failures", _MAP),
        ("reused_summaries", pa.int32()),
        ("build_seconds", pa.float64()),
        ("node_count", pa.int32()),
        ("max_depth", pa.int32()),
        ("stats", _STR),
        ("warnings", pa.list_(_STR)),
        ("schema_version", pa.int16()),
        ("load_id", _STR),
        ("findings", pa.list_(FINDING)),
    ])

    NODES = pa.schema([
        ("doc_id", _STR),
        ("version", pa.int32()),
        ("node_id", _STR),
        ("parent_id", _STR),
        ("depth", pa.int16()),
        ("ordinal", pa.int32()),
        ("title", _STR),
        ("origin", _STR),
        ("confidence", pa.float32()),
        ("start_page", pa.int32()),
        ("end_page", pa.int32()),
        ("start_unit", pa.int32()),
        ("start_char", pa.int32()),
        ("end_unit", pa.int32()),
        ("end_char", pa.int32()),
        ("own_end_unit", pa.int32()),
        ("own_end_char", pa.int32()),
        ("path_ids", pa.list_(_STR)),
        ("child_count", pa.int32()),
        ("text_chars", pa.int64()),
        ("text_sha256", _STR),
        ("summary", _STR),
        ("summary_origin", _STR),
        ("summary_key", _STR),
        ("schema_version", pa.int16()),
        ("load_id", _STR),
    ])

    UNITS = pa.schema([
        ("doc_id", _STR),
        ("version", pa.int32()),
        ("unit_index", pa.int32()),
        ("kind", _STR),
        ("page", pa.int32()),
        ("label", _STR),
        ("heading_level", pa.int16()),
        ("style", _STR),
        ("text", _STR),
        ("schema_version", pa.int16()),
        ("load_id", _STR),
    ])

    # one row per table kept as data (treebuild.model.Table); added in catalog format 4, so a store written
    # before has no rows here and its documents read as having no tables
    GRIDS = pa.schema([
        ("doc_id", _STR),
        ("version", pa.int32()),
        ("table_index", pa.int32()),
        ("node_id", _STR),
        ("unit_index", pa.int32()),
        ("start_char", pa.int32()),
        ("end_char", pa.int32()),
        ("page", pa.int32()),
        ("bbox", pa.list_(pa.float32())),
        ("title", _STR),
        ("header_rows", pa.int16()),
        ("label_columns", pa.int16()),
        ("n_rows", pa.int32()),
        ("n_cols", pa.int32()),
        ("header", pa.list_(pa.list_(_STR))),
        ("rows", pa.list_(pa.list_(_STR))),
        ("row_labels", pa.list_(_STR)),
        ("markdown", _STR),
        ("schema_version", pa.int16()),
        ("load_id", _STR),
    ])

    return {"trees": TREES, "nodes": NODES, "units": UNITS, "grids": GRIDS}


def arrow_schema(table: str) -> pa.Schema:
    """The Arrow schema of ``trees``, ``nodes``, ``units`` or ``grids``."""
    return _tables()[table]


def __getattr__(name: str) -> Any:
    if name == "TABLES":
        return dict(_tables())
    if name in {"TREES", "NODES", "UNITS", "GRIDS"}:
        return _tables()[name.lower()]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
