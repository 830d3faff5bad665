"""What a query returns: passages to cite and the audit record of how they were chosen."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .spi import Mode, NavigatorUsage, StopReason

__all__ = ["PathEntry", "Passage", "Step", "PathStop", "DocumentNavigation", "SelectionRecord", "QueryResult"]


@dataclass(frozen=True, slots=True)
class PathEntry:
    node_id: str
    title: str


@dataclass(frozen=True, slots=True)
class Passage:
    """The text of a chosen section (tables as Markdown; capped), with everything needed to cite it."""

    doc_id: str
    version: int
    node_id: str
    title: str
    path: tuple[PathEntry, ...]  # from the top-level section down to this node
    text: str
    start_page: int | None  # physical pages of the returned text; always set for paged formats
    end_page: int | None
    start_label: str | None  # printed page labels, when the PDF has them
    end_label: str | None
    node_end_page: int | None  # the section's own last page (differs from end_page when truncated)
    truncated: bool  # text was cut by a per-node or per-query cap, or is the section's best pages only
    stop_reason: StopReason  # why the path ended at this node
    # first-stage BM25 of the node for the question (one index over every navigated document, so it compares
    # across documents), never more than an earlier choice of the same document's navigator: the query's rank
    score: float = 0.0
    best_pages: bool = False  # the section's best-matching pages (``zoom_pages``), not its first ones

    @property
    def pages(self) -> int:
        if self.start_page is None:
            return 0
        return (self.end_page or self.start_page) - self.start_page + 1


@dataclass(slots=True)
class Step:
    """One navigator call for one document (or document selection)."""

    step: int
    shown: list[str]
    expanded: list[str] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # ids named but not offered: recorded, never followed
    ignored: list[str] = field(default_factory=list)  # offered ids beyond the step's width or the node cap
    stop: bool = False
    reasoning: str = ""  # verbatim, capped
    usage: NavigatorUsage = field(default_factory=NavigatorUsage)
    seconds: float = 0.0
    outcome: str | None = None  # set when the step did not answer: timeout, error or cancelled


@dataclass(frozen=True, slots=True)
class PathStop:
    """Where one path of the walk ended and why."""

    node_id: str | None  # None when the walk stopped before reaching a node
    reason: StopReason
    detail: str = ""


@dataclass(slots=True)
class DocumentNavigation:
    """The audit record of navigating one document."""

    doc_id: str
    version: int | None
    title: str | None
    mode: Mode | None
    outline_chars: int = 0
    seeds: list[str] = field(default_factory=list)  # nodes the walk started from (hybrid seeds or first stage)
    steps: list[Step] = field(default_factory=list)
    stops: list[PathStop] = field(default_factory=list)
    chosen: list[str] = field(default_factory=list)  # node ids in the order they were chosen
    dropped: list[str] = field(default_factory=list)  # chosen but not returned (page or context cap)
    usage: NavigatorUsage = field(default_factory=NavigatorUsage)
    seconds: float = 0.0
    error: str | None = None  # the document could not be navigated at all (not found, unreadable)


@dataclass(slots=True)
class SelectionRecord:
    """How documents were chosen when none were named."""

    candidates: int  # documents that passed the filter
    shown: list[str]  # doc_ids offered to the navigator (at most max_selection_candidates)
    selected: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    reasoning: str = ""
    usage: NavigatorUsage = field(default_factory=NavigatorUsage)
    seconds: float = 0.0
    outcome: str | None = None  # timeout, error or cancelled: the deterministic pre-ranking was used


@dataclass(slots=True)
class QueryResult:
    """Passages best first (across documents, by ``Passage.score``) plus the audit record: navigator,
    limits, documents, totals."""

    question: str
    navigator: str
    is_language_model: bool
    passages: list[Passage]
    documents: list[DocumentNavigation]
    selection: SelectionRecord | None
    usage: NavigatorUsage
    seconds: float
    filter: dict[str, Any]
    limits: dict[str, Any]
    cancelled: bool = False

    @property
    def pages(self) -> int:
        return sum(p.pages for p in self.passages)

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-ready (stop reasons as their string values)."""
        return _plain(dataclasses.asdict(self))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, StopReason):
        return value.value
    return value
