"""Versioned Parquet storage with DuckDB views (see ``schemas/README.md`` for the contract)."""

from __future__ import annotations

from .catalog import CATALOG_NAME, view_sql
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
    "CATALOG_NAME",
    "SCHEMA_VERSION",
    "TREES",
    "NODES",
    "UNITS",
]
