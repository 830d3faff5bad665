"""Versioned trees in a DuckLake (catalog + Parquet files) with DuckDB views (see ``schemas/README.md``)."""

from __future__ import annotations

from typing import Any

from .catalog import view_sql
from .lake import CATALOG_FILE, Location
from .schema import SCHEMA_VERSION
from .store import (
    CommitResult,
    DocVersion,
    Store,
    StoreSummaryCache,
    default_store_path,
    doc_id_for,
    matching_version,
    valid_doc_id,
)

__all__ = [
    "Store",
    "DocVersion",
    "CommitResult",
    "StoreSummaryCache",
    "matching_version",
    "default_store_path",
    "doc_id_for",
    "valid_doc_id",
    "view_sql",
    "CATALOG_FILE",
    "Location",
    "SCHEMA_VERSION",
    "TREES",
    "NODES",
    "UNITS",
    "GRIDS",
]


def __getattr__(name: str) -> Any:
    if name in {"TREES", "NODES", "UNITS", "GRIDS"}:  # Arrow schemas, built on first use (see schema.py)
        from . import schema

        return getattr(schema, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
