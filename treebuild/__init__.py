"""treebuild: long documents into table-of-contents trees, stored as versioned Parquet."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

from .errors import NotFound, ReadError, StoreError, TreebuildError, UnsupportedFormat  # noqa: E402
from .export import outline_lines, to_pageindex  # noqa: E402
from .model import Line, Mark, Node, OutlineEntry, Pos, SourceDoc, Tree, Unit, Usage  # noqa: E402
from .query import QueryResult, navigate  # noqa: E402
from .settings import OFFLINE_MODEL, BuildSettings, ModelConfig  # noqa: E402
from .store import CommitResult, DocVersion, Store  # noqa: E402

if TYPE_CHECKING:
    from .ingestion import IngestResult, ingest, ingest_many
    from .pipeline import build, build_doc
    from .readers import read

# The readers and the pipeline (PyMuPDF, pdfplumber, python-docx: about a second of imports) load on
# first use, so commands that only read the store (query, show, sql) start fast.
_LAZY = {"IngestResult": "ingestion", "ingest": "ingestion", "ingest_many": "ingestion",
         "build": "pipeline", "build_doc": "pipeline", "read": "readers"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'treebuild' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "__version__",
    "build",
    "build_doc",
    "read",
    "ingest",
    "ingest_many",
    "IngestResult",
    "Store",
    "navigate",
    "QueryResult",
    "DocVersion",
    "CommitResult",
    "to_pageindex",
    "outline_lines",
    "BuildSettings",
    "ModelConfig",
    "OFFLINE_MODEL",
    "Tree",
    "Node",
    "Mark",
    "Pos",
    "Unit",
    "SourceDoc",
    "OutlineEntry",
    "Line",
    "Usage",
    "TreebuildError",
    "ReadError",
    "UnsupportedFormat",
    "StoreError",
    "NotFound",
]
