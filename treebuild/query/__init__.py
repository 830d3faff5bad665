"""Navigate stored trees: a navigator reads titles and summaries, the runtime owns the walk.

See :mod:`treebuild.query.spi` for how a navigator plugs in; the query as an agent's function tool is
:mod:`treebuild.agents` (``tool_schema``, ``run_tool``).
"""

from __future__ import annotations

from .access import AccessFilter
from .limits import Limits
from .results import DocumentNavigation, Passage, PathEntry, PathStop, QueryResult, SelectionRecord, Step
from .runtime import DEFAULT_NAVIGATOR, navigate, navigate_async, resolve_navigator
from .spi import (
    ENTRY_POINT_GROUP,
    CancellationToken,
    Cancelled,
    Candidate,
    Decision,
    DocumentCandidate,
    Mode,
    Navigator,
    NavigatorProvider,
    NavigatorResolutionError,
    NavigatorUsage,
    Remaining,
    Selection,
    SelectionRequest,
    StepRequest,
    StopReason,
    resolve,
)

__all__ = [
    "navigate",
    "navigate_async",
    "resolve_navigator",
    "DEFAULT_NAVIGATOR",
    "AccessFilter",
    "Limits",
    "QueryResult",
    "Passage",
    "PathEntry",
    "PathStop",
    "Step",
    "DocumentNavigation",
    "SelectionRecord",
    "ENTRY_POINT_GROUP",
    "Cancelled",
    "CancellationToken",
    "Candidate",
    "Decision",
    "DocumentCandidate",
    "Mode",
    "Navigator",
    "NavigatorProvider",
    "NavigatorResolutionError",
    "NavigatorUsage",
    "Remaining",
    "Selection",
    "SelectionRequest",
    "StepRequest",
    "StopReason",
    "resolve",
]
