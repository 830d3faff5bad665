"""treebuild: long documents into table-of-contents trees, stored as versioned Parquet.

Names are imported on first use (PEP 562), so ``import treebuild`` and the CLI start without
loading PyMuPDF, DuckDB, pyarrow or litellm until a command needs them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "build": ".pipeline", "build_doc": ".pipeline",
    "read": ".readers",
    "ingest": ".ingestion", "ingest_many": ".ingestion", "IngestResult": ".ingestion",
    "Store": ".store", "DocVersion": ".store", "CommitResult": ".store",
    "to_pageindex": ".interop.export", "outline_lines": ".interop.export",
    "BuildSettings": ".settings", "ModelConfig": ".settings", "Limits": ".settings", "OFFLINE_MODEL": ".settings",
    "Tree": ".model", "Node": ".model", "Mark": ".model", "Pos": ".model", "Unit": ".model",
    "SourceDoc": ".model", "OutlineEntry": ".model", "Line": ".model", "Usage": ".model", "Format": ".model",
    "UnitKind": ".model", "Origin": ".model", "StructureSource": ".model", "Method": ".model",
    "IngestStatus": ".ingestion",
    "TreebuildError": ".errors", "ReadError": ".errors", "UnsupportedFormat": ".errors",
    "StoreError": ".errors", "NotFound": ".errors",
    "navigate": ".query", "QueryResult": ".query",
    "ask": ".answer", "Answer": ".answer", "AnswerLimits": ".answer",
}

__all__ = [
    "__version__", "build", "build_doc", "read", "ingest", "ingest_many", "IngestResult", "Store", "DocVersion",
    "CommitResult", "to_pageindex", "outline_lines", "BuildSettings", "ModelConfig", "Limits", "OFFLINE_MODEL",
    "Tree", "Node", "Mark", "Pos", "Unit", "SourceDoc", "OutlineEntry", "Line", "Usage", "TreebuildError",
    "ReadError", "UnsupportedFormat", "StoreError", "NotFound", "Format", "UnitKind", "Origin",
    "StructureSource", "Method", "IngestStatus",
    "navigate", "QueryResult", "ask", "Answer", "AnswerLimits",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from .answer import Answer, AnswerLimits, ask
    from .errors import NotFound, ReadError, StoreError, TreebuildError, UnsupportedFormat
    from .ingestion import IngestResult, IngestStatus, ingest, ingest_many
    from .interop.export import outline_lines, to_pageindex
    from .model import (
        Format,
        Line,
        Mark,
        Method,
        Node,
        Origin,
        OutlineEntry,
        Pos,
        SourceDoc,
        StructureSource,
        Tree,
        Unit,
        UnitKind,
        Usage,
    )
    from .pipeline import build, build_doc
    from .query import QueryResult, navigate
    from .readers import read
    from .settings import OFFLINE_MODEL, BuildSettings, Limits, ModelConfig
    from .store import CommitResult, DocVersion, Store
