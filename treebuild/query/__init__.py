"""Navigate stored trees: a navigator reads titles and summaries, the runtime owns the walk.

See :mod:`treebuild.query.spi` for how a navigator plugs in.
"""

from __future__ import annotations

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
