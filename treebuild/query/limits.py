"""Every bound of a query, with its default and why; all configurable through ``navigate(**limits)``."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

from ..errors import TreebuildError
from .spi import NavigatorUsage, Remaining

__all__ = ["Limits", "Spend", "MODEL_SINGLE_PASS_CHARS", "single_pass_chars"]

MODEL_SINGLE_PASS_CHARS = 40_000
"""An outline this size (~10k tokens) is judged by a model in one call; larger trees are walked as a beam."""


_AT_LEAST_ONE = frozenset({"beam_width", "max_steps", "max_nodes", "max_visits", "max_depth", "max_documents",
                           "max_selection_candidates", "concurrency", "max_units_per_node", "max_pages",
                           "zoom_pages", "seed_nodes"})
"""Structural bounds below one would make every query empty; budgets may be zero (no model calls)."""


@dataclass(frozen=True)
class Limits:
    """Bounds of one query. ``None`` means unbounded."""

    # modes
    # an outline this size is judged in one call; None: the navigator's own ``single_pass_chars``
    # (MODEL_SINGLE_PASS_CHARS for a model; any size for a navigator that is not a language model)
    single_pass_max_chars: int | None = None
    beam_width: int = 4  # nodes expanded or read per beam step
    max_steps: int = 4  # beam levels; nodes still marked for expansion at the last one are read whole
    max_nodes: int = 8  # nodes returned per document (a 10-page budget holds 8 one- to three-page sections)
    max_visits: int = 15  # nodes expanded or read per document walk, across all of its roots
    max_depth: int = 6  # deepest node a path may expand
    # per-document budget of one navigation
    max_calls: int | None = 6
    max_input_tokens: int | None = 60_000
    max_output_tokens: int | None = 4_000
    max_seconds: float | None = 60.0
    # per-query budget (selection plus every document); room for selection and three full documents
    query_max_calls: int | None = 24
    query_max_input_tokens: int | None = 240_000
    query_max_output_tokens: int | None = 16_000
    query_max_seconds: float | None = 180.0
    # passages
    max_passage_chars: int = 12_000  # characters of text per returned node
    max_units_per_node: int = 25  # units (pages, DOCX/Markdown blocks) per returned node
    max_context_chars: int = 48_000  # characters across all passages of the query (~12k tokens)
    max_pages: int | None = None  # physical pages across all passages of the query
    # a chosen section longer than this (or than the pages left) returns its best pages (first-stage
    # BM25 of each page), that many, in page order, instead of its first pages; None: from its start
    zoom_pages: int | None = 3
    # pages of ``max_pages`` the navigators' choices leave unspent go to the best pages (first-stage BM25 of
    # each page) of the documents they read, not yet returned, as passages of the sections holding them
    # (stop reason ``first_stage``); False: only what the navigators chose; None: True for a navigator that
    # is not a language model (a model's choices come back as it made them). Nothing is added without max_pages
    fill_pages: bool | None = None
    # first stage: the walk starts from the N nodes whose text matches best and their ancestors (as
    # ``seeds`` do) instead of the whole outline; None: the whole outline
    seed_nodes: int | None = None
    # a document whose best node scores below this share of the query's best document returns nothing
    # (scores of one index over every navigated document); 0: never cut
    document_cutoff: float = 0.25
    # documents
    max_documents: int = 3  # documents navigated when none are named and more pass the filter
    max_selection_candidates: int = 200  # documents shown to selection, at most
    concurrency: int = 3  # documents navigated at once
    max_reasoning_chars: int = 2_000  # navigator reasoning kept verbatim in the audit, per step

    @classmethod
    def of(cls, values: dict[str, Any]) -> Limits:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - names)
        if unknown:
            raise TreebuildError(f"unknown query limit(s): {', '.join(unknown)}",
                                 hint=f"known: {', '.join(sorted(names))}")
        limits = cls(**values)
        for f in dataclasses.fields(cls):
            value = getattr(limits, f.name)
            least = 1 if f.name in _AT_LEAST_ONE else 0
            if value is not None and value < least:
                raise TreebuildError(f"query limit {f.name} must be at least {least}, got {value}")
        if limits.document_cutoff > 1:
            raise TreebuildError(f"query limit document_cutoff is a share of the best document's score, "
                                 f"at most 1, got {limits.document_cutoff}")
        return limits

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _left(limit: float | None, spent: float) -> float | None:
    return None if limit is None else limit - spent


def _min(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


@dataclass
class Spend:
    """Model work spent against limits (one document's or the query's), and its clock."""

    max_calls: int | None
    max_input_tokens: int | None
    max_output_tokens: int | None
    max_seconds: float | None
    usage: NavigatorUsage = dataclasses.field(default_factory=NavigatorUsage)
    started: float = dataclasses.field(default_factory=time.monotonic)
    in_flight: int = 0  # model steps asked and not yet answered: each holds one call of the budget

    @classmethod
    def document(cls, limits: Limits) -> Spend:
        return cls(limits.max_calls, limits.max_input_tokens, limits.max_output_tokens, limits.max_seconds)

    @classmethod
    def query(cls, limits: Limits) -> Spend:
        return cls(limits.query_max_calls, limits.query_max_input_tokens, limits.query_max_output_tokens,
                   limits.query_max_seconds)

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def seconds_left(self) -> float | None:
        return _left(self.max_seconds, self.seconds())

    def exhausted(self) -> str | None:
        """Which limit is spent, if one is (seconds are reported as timeouts, not here)."""
        u = self.usage
        if self.max_calls is not None and u.calls + self.in_flight >= self.max_calls:
            return f"max_calls={self.max_calls} spent"
        if self.max_input_tokens is not None and u.input_tokens >= self.max_input_tokens:
            return f"max_input_tokens={self.max_input_tokens} spent"
        if self.max_output_tokens is not None and u.output_tokens >= self.max_output_tokens:
            return f"max_output_tokens={self.max_output_tokens} spent"
        return None


def remaining(doc: Spend, query: Spend, *, visits: int, nodes: int, pages: int | None,
              zoom_pages: int | None = None) -> Remaining:
    """The tighter of a document's and the query's remaining budget."""
    def left(attr: str, used: str) -> Any:
        held = (lambda s: s.in_flight) if used == "calls" else (lambda s: 0)
        a = _left(getattr(doc, attr), getattr(doc.usage, used) + held(doc))
        b = _left(getattr(query, attr), getattr(query.usage, used) + held(query))
        value = _min(a, b)
        return None if value is None else max(0, value)

    seconds = _min(doc.seconds_left(), query.seconds_left())
    return Remaining(calls=left("max_calls", "calls"), input_tokens=left("max_input_tokens", "input_tokens"),
                     output_tokens=left("max_output_tokens", "output_tokens"),
                     seconds=None if seconds is None else max(0.0, seconds), visits=max(0, visits),
                     nodes=max(0, nodes), pages=pages, zoom_pages=zoom_pages)


def single_pass_chars(limits: Limits, navigator: object) -> int | None:
    """The largest outline judged in one pass: the query's limit, else the navigator's own
    ``single_pass_chars`` attribute (``None``: any size), else :data:`MODEL_SINGLE_PASS_CHARS`."""
    if limits.single_pass_max_chars is not None:
        return limits.single_pass_max_chars
    own = getattr(navigator, "single_pass_chars", MODEL_SINGLE_PASS_CHARS)
    return own if own is None or isinstance(own, int) else MODEL_SINGLE_PASS_CHARS
