"""Versioned trees in a DuckLake (catalog + Parquet files) with DuckDB views (see ``schemas/README.md``)."""

from __future__ import annotations

from .catalog import view_sql
from .lake import CATALOG_FILE, Location
from .schema import NODES, SCHEMA_VERSION, TREES, UNITS
from .store import CommitResult, DocVersion, Store, default_store_path, doc_id_for, valid_doc_id

__all__ = [
    "Store",
    "DocVersion",
    "CommitResult",
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
]
