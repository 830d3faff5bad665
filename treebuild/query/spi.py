"""The navigator SPI: a navigator judges one step, the runtime owns the walk.

How a navigator plugs in
------------------------
1. Write a class that satisfies :class:`Navigator`: two ``async`` methods,
   ``decide(StepRequest) -> Decision`` (one step of one document's walk) and
   ``select_documents(SelectionRequest) -> Selection`` (pick documents from their titles,
   descriptions and metadata), plus the attributes ``name`` and ``is_language_model``.
2. Write a provider that satisfies :class:`NavigatorProvider`: a class with a no-argument
   constructor, ``supports(name) -> bool`` and ``create(name, config) -> Navigator``
   (``config`` is the :class:`~treebuild.settings.ModelConfig` of the query: model, api base,
   timeouts).
3. Register the provider class in ``pyproject.toml`` and reinstall (``./scripts/setup``)::

       [project.entry-points."treebuild.navigators"]
       mine = "my_package.module:MyProvider"

   Built-ins are registered the same way. :func:`resolve` loads every provider of the
   ``treebuild.navigators`` group and asks each whether it supports the name: exactly one
   must. A blank name, no provider, or two or more providers are :class:`NavigatorResolutionError`
   (naming them); install order never picks a winner. Resolution happens before any walk.

What a navigator sees and may answer
------------------------------------
A :class:`StepRequest` carries the question, the nodes being opened (``current``; empty at the
top level and in single-pass mode, where ``candidates`` is the whole outline), the
:class:`Candidate` nodes offered (ids, titles, ancestor titles, pages, summaries, depth and
``text_score``, the runtime's first-stage BM25 of the question over the node's text; never body
text), the remaining :class:`Remaining` budget and a :class:`CancellationToken` to observe before
and after blocking work. The :class:`Decision` names ids to ``expand`` (their children
are offered next step), ids to ``read`` (returned as passages), or ``stop``, with the
navigator's ``reasoning`` and the :class:`NavigatorUsage` it spent. The runtime checks every id
against the ids just offered: an unknown id is recorded (``unknown_node``) and never followed.
Titles and summaries are data written by documents, not instructions: a navigator must present
them as quoted data. Raising from ``decide`` ends that document's walk with ``error`` (what was
chosen so far is kept); it never fails the query.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import metadata
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from ..errors import TreebuildError

if TYPE_CHECKING:
    from ..settings import ModelConfig

__all__ = [
    "ENTRY_POINT_GROUP",
    "StopReason",
    "Mode",
    "Candidate",
    "DocumentCandidate",
    "Remaining",
    "NavigatorUsage",
    "CancellationToken",
    "Cancelled",
    "StepRequest",
    "Decision",
    "SelectionRequest",
    "Selection",
    "Navigator",
    "NavigatorProvider",
    "NavigatorResolutionError",
    "ProviderSource",
    "entry_point_providers",
    "resolve",
]

ENTRY_POINT_GROUP = "treebuild.navigators"
"""The entry-point group navigator providers register under (built-ins too)."""

Mode = Literal["single_pass", "beam"]


class StopReason(StrEnum):
    """Why one path of a walk stopped. None of these fails the query."""

    LEAF = "leaf"  # the node has no children
    NAVIGATOR_STOP = "navigator_stop"  # the navigator read the node or stopped here
    UNKNOWN_NODE = "unknown_node"  # the navigator named an id that was not offered
    BUDGET_EXHAUSTED = "budget_exhausted"  # calls, tokens, visits or nodes per document were spent
    MAX_DEPTH = "max_depth"  # the depth bound or the last beam step was reached
    TIMEOUT = "timeout"  # the document's seconds ran out
    ERROR = "error"  # the navigator raised
    CANCELLED = "cancelled"  # the caller cancelled the query
    CUT_OFF = "cut_off"  # the document matched the question far less than the best document of the query
    FIRST_STAGE = "first_stage"  # not a navigator's choice: a best page by page BM25, in budget the walk left


@dataclass(frozen=True, slots=True)
class Candidate:
    """A node as a navigator may see it: no body text, only what describes it."""

    node_id: str
    title: str
    depth: int  # 1 for a top-level section
    ancestors: tuple[str, ...] = ()  # titles from the top level down to the parent
    summary: str | None = None
    start_page: int | None = None  # physical pages, 1-based; None for page-less formats
    end_page: int | None = None
    page_label: str | None = None  # printed page label of start_page, when the PDF has one
    child_count: int = 0
    parent_id: str | None = None
    # BM25 of the question over the node's title, summary and own text, from the runtime's first stage:
    # one index over every document of the query, so it compares across documents (0.0: no shared term)
    text_score: float = 0.0

    @property
    def is_leaf(self) -> bool:
        return self.child_count == 0

    @property
    def pages(self) -> int:
        """Physical pages the node spans (0 for page-less formats)."""
        if self.start_page is None:
            return 0
        return (self.end_page or self.start_page) - self.start_page + 1


@dataclass(frozen=True, slots=True)
class DocumentCandidate:
    """A stored document as document selection sees it."""

    doc_id: str
    version: int
    title: str | None
    description: str | None
    format: str
    page_count: int | None
    meta: Mapping[str, str] = field(default_factory=dict)
    source_name: str | None = None
    # best BM25 of the question over the document's section titles and summaries (one index over
    # every candidate), set for document selection; selection is pre-ranked by it and the row's text
    section_score: float = 0.0


@dataclass(frozen=True, slots=True)
class Remaining:
    """What is left of one document's budget when a step is asked (``None``: unbounded)."""

    calls: int | None
    input_tokens: int | None
    output_tokens: int | None
    seconds: float | None
    visits: int  # nodes that may still be expanded or read
    nodes: int  # nodes that may still be returned for this document
    pages: int | None = None  # physical pages passages may still take (``max_pages``), None: unbounded
    # a node longer than this costs this many pages: the runtime returns its best pages (``zoom_pages``)
    zoom_pages: int | None = None

    def cost(self, candidate: Candidate) -> int:
        """Pages of the budget that choosing ``candidate`` takes."""
        if self.zoom_pages is None or candidate.start_page is None:
            return candidate.pages
        return min(candidate.pages, self.zoom_pages)


@dataclass(slots=True)
class NavigatorUsage:
    """Model work one answer cost; a non-model navigator reports zeros."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    retries: int = 0
    failures: dict[str, int] = field(default_factory=dict)

    def add(self, other: NavigatorUsage) -> None:
        self.calls += other.calls
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cost_usd += other.cost_usd
        self.retries += other.retries
        for kind, n in other.failures.items():
            self.failures[kind] = self.failures.get(kind, 0) + n


class Cancelled(Exception):
    """Raised by :meth:`CancellationToken.raise_if_cancelled`; the runtime records ``cancelled``."""


class CancellationToken:
    """Cancels a query from any thread. Cancellation is not a failure: what was chosen is kept."""

    __slots__ = ("_event", "_reason")

    def __init__(self) -> None:
        self._event = threading.Event()
        self._reason = ""

    @classmethod
    def none(cls) -> CancellationToken:
        """A token nobody cancels."""
        return cls()

    def cancel(self, reason: str = "cancelled by the caller") -> None:
        if not self._event.is_set():
            self._reason = reason
            self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    @property
    def reason(self) -> str:
        return self._reason

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled(self._reason)


@dataclass(frozen=True, slots=True)
class StepRequest:
    """One step of one document's walk, as the runtime asks it."""

    question: str
    doc_id: str
    doc_title: str | None
    mode: Mode
    step: int  # 1-based
    max_steps: int  # 1 in single-pass mode
    current: tuple[Candidate, ...]  # the nodes whose children are offered; empty at the top and in single pass
    candidates: tuple[Candidate, ...]  # in single-pass mode: the whole outline in document order
    max_choices: int  # ids worth naming this step (beam width, or nodes per document in single pass)
    remaining: Remaining
    cancel: CancellationToken
    # the question's words that name the document as it prints its own name (its cover, its title page):
    # "Amazon" over a filing titled "FORM 10-Q"; they tell nothing about where in it to look
    doc_name: str = ""

    @property
    def offered(self) -> frozenset[str]:
        return frozenset(c.node_id for c in self.candidates)


@dataclass(frozen=True, slots=True)
class Decision:
    """A navigator's answer to one step. Ids are checked against the ids just offered."""

    expand: tuple[str, ...] = ()
    read: tuple[str, ...] = ()
    stop: bool = False
    reasoning: str = ""
    usage: NavigatorUsage = field(default_factory=NavigatorUsage)

    @classmethod
    def stop_here(cls, reasoning: str = "", usage: NavigatorUsage | None = None) -> Decision:
        return cls(stop=True, reasoning=reasoning, usage=usage or NavigatorUsage())


@dataclass(frozen=True, slots=True)
class SelectionRequest:
    """Pick up to ``max_documents`` of ``candidates`` for the question."""

    question: str
    candidates: tuple[DocumentCandidate, ...]
    max_documents: int
    remaining: Remaining
    cancel: CancellationToken


@dataclass(frozen=True, slots=True)
class Selection:
    doc_ids: tuple[str, ...]
    reasoning: str = ""
    usage: NavigatorUsage = field(default_factory=NavigatorUsage)


@runtime_checkable
class Navigator(Protocol):
    """Judges one step; never walks, never reads body text, never touches the store."""

    name: str
    is_language_model: bool  # False for deterministic navigators such as ``lexical``

    async def decide(self, request: StepRequest) -> Decision: ...

    async def select_documents(self, request: SelectionRequest) -> Selection: ...


@runtime_checkable
class NavigatorProvider(Protocol):
    """Registered under ``treebuild.navigators``; constructed with no arguments."""

    def supports(self, name: str) -> bool: ...

    def create(self, name: str, config: ModelConfig) -> Navigator: ...


class NavigatorResolutionError(TreebuildError):
    """A navigator name no installed provider uniquely serves (a configuration error)."""


ProviderSource = Callable[[], Iterable[tuple[str, Callable[[], Any]]]]
"""Yields ``(label, load)`` pairs; ``load()`` returns a provider class or instance."""


def entry_point_providers() -> list[tuple[str, Callable[[], Any]]]:
    """Providers registered under :data:`ENTRY_POINT_GROUP` as ``(label, load)``, sorted by label."""
    found = []
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        label = f"{ep.name} ({ep.value})"
        found.append((label, ep.load))
    return sorted(found, key=lambda pair: pair[0])


def _constant(value: Any) -> Callable[[], Any]:
    return lambda: value


def _instantiate(loaded: Any) -> NavigatorProvider:
    provider = loaded() if isinstance(loaded, type) else loaded
    if not isinstance(provider, NavigatorProvider):
        raise TypeError("not a navigator provider (needs supports(name) and create(name, config))")
    return provider


def resolve(name: str | None, *, providers: ProviderSource | Sequence[tuple[str, Any]] | None = None
            ) -> NavigatorProvider:
    """The one provider that supports ``name``; deterministic, independent of install order.

    ``providers`` replaces the installed entry points (tests, embedding applications): a
    callable yielding ``(label, load)`` pairs, or a sequence of ``(label, provider)`` pairs.
    """
    if name is None or not name.strip():
        raise NavigatorResolutionError("a navigator name is required and was blank",
                                       hint="pass --navigator lexical (offline, not a language model) or litellm")
    if providers is None:
        pairs: list[tuple[str, Callable[[], Any]]] = entry_point_providers()
    elif callable(providers):
        pairs = list(providers())
    else:
        pairs = [(label, _constant(p)) for label, p in providers]
    matches: list[tuple[str, NavigatorProvider]] = []
    broken: list[str] = []
    for label, load in sorted(pairs, key=lambda pair: pair[0]):
        try:
            provider = _instantiate(load())
            if provider.supports(name):
                matches.append((label, provider))
        except Exception as exc:  # a broken plugin must not hide the others; it is named below
            broken.append(f"{label}: {type(exc).__name__}: {exc}")
    if not matches:
        detail = f"; providers that failed to load: {'; '.join(broken)}" if broken else ""
        installed = ", ".join(label for label, _ in pairs) or "none"
        raise NavigatorResolutionError(f"no navigator provider supports {name!r} (installed: {installed}){detail}",
                                       hint=f"install a provider registered under the {ENTRY_POINT_GROUP!r} "
                                            "entry-point group, or pass --navigator lexical")
    if len(matches) > 1:
        names = ", ".join(label for label, _ in matches)
        raise NavigatorResolutionError(f"{len(matches)} navigator providers support {name!r}: {names}",
                                       hint="uninstall all but one; install order never picks a winner")
    return matches[0][1]
