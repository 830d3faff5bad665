"""treebuild: long documents into table-of-contents trees, stored as versioned Parquet."""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import NotFound, ReadError, StoreError, TreebuildError, UnsupportedFormat  # noqa: E402
from .export import outline_lines, to_pageindex  # noqa: E402
from .ingestion import IngestResult, ingest, ingest_many  # noqa: E402
from .model import Line, Mark, Node, OutlineEntry, Pos, SourceDoc, Tree, Unit, Usage  # noqa: E402
from .pipeline import build, build_doc  # noqa: E402
from .query import QueryResult, navigate  # noqa: E402
from .readers import read  # noqa: E402
from .settings import OFFLINE_MODEL, BuildSettings, ModelConfig  # noqa: E402
from .store import CommitResult, DocVersion, Store  # noqa: E402

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
