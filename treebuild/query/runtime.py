"""The runtime that owns the walk: resolution, document selection, single pass or beam, budgets,
timeouts, cancellation, id checks, stop reasons and passages. Navigators only judge one step.

Nothing here reads a PDF: stored trees carry their unit text, so documents navigated concurrently
(asyncio tasks on one thread) never touch PyMuPDF.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..errors import TreebuildError
from ..settings import ModelConfig
from ..store import Store
from .access import AccessFilter, TreeReader
from .first_stage import FirstStage, printed_name, section_scores
from .limits import Limits, Spend, remaining, single_pass_chars
from .outline import Cut, TreeView, cut_pages, cut_text
from .results import DocumentNavigation, Passage, PathStop, QueryResult, SelectionRecord, Step
from .spi import (
    CancellationToken,
    Cancelled,
    Decision,
    DocumentCandidate,
    Navigator,
    ProviderSource,
    Selection,
    SelectionRequest,
    StepRequest,
    StopReason,
    resolve,
)

__all__ = ["navigate", "navigate_async", "resolve_navigator", "DEFAULT_NAVIGATOR", "Seeds"]

DEFAULT_NAVIGATOR = "lexical"
"""The offline default: deterministic BM25 over titles and summaries, not a language model."""

POLL_SECONDS = 0.05
"""How often a pending navigator answer is checked against the cancellation token and the clock."""

Seeds = Mapping[str, Sequence[str | int]]
"""Hybrid seam: doc_id -> node ids (str) or physical pages (int) another retriever found."""

T = TypeVar("T")


class _Outcome(Exception):
    """A step that produced no answer: timeout, error or cancelled."""

    def __init__(self, reason: StopReason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def resolve_navigator(navigator: str | Navigator, config: ModelConfig | None = None, *,
                      providers: ProviderSource | Sequence[tuple[str, Any]] | None = None) -> Navigator:
    """A navigator instance for a name (resolved among installed providers) or the instance given."""
    if isinstance(navigator, str) or navigator is None:
        provider = resolve(navigator, providers=providers)
        return provider.create(navigator.strip(), config or ModelConfig())
    if not isinstance(navigator, Navigator):
        raise TreebuildError(f"not a navigator: {navigator!r}", hint="pass a name such as 'lexical' or a Navigator")
    return navigator


async def _ask(call: Callable[[], Awaitable[T]], cancel: CancellationToken, seconds: float | None) -> T:
    """Await a navigator answer, giving up on cancellation or when ``seconds`` run out."""
    if cancel.cancelled:
        raise _Outcome(StopReason.CANCELLED, cancel.reason)
    if seconds is not None and seconds <= 0:
        raise _Outcome(StopReason.TIMEOUT, "no time left before the step")
    deadline = None if seconds is None else time.monotonic() + seconds
    task: asyncio.Future[T] = asyncio.ensure_future(call())
    try:
        while True:
            wait = POLL_SECONDS if deadline is None else max(0.0, min(POLL_SECONDS, deadline - time.monotonic()))
            done, _ = await asyncio.wait({task}, timeout=wait)
            if done:
                try:
                    return task.result()
                except Cancelled as exc:
                    raise _Outcome(StopReason.CANCELLED, str(exc) or cancel.reason) from exc
                except Exception as exc:  # the navigator's failure ends this walk, never the query
                    raise _Outcome(StopReason.ERROR, f"{type(exc).__name__}: {exc}"[:500]) from exc
            if cancel.cancelled:
                raise _Outcome(StopReason.CANCELLED, cancel.reason)
            if deadline is not None and time.monotonic() >= deadline:
                raise _Outcome(StopReason.TIMEOUT, f"no answer within {seconds:.3g} s")
    finally:
        if not task.done():
            task.cancel()


def _ids(values: Sequence[Any]) -> list[str]:
    return list(dict.fromkeys(str(v) for v in values))


@dataclass
class _Query:
    question: str
    navigator: Navigator
    limits: Limits
    reader: TreeReader
    spend: Spend
    cancel: CancellationToken


@dataclass
class _Walk:
    """One document's navigation: the state the runtime keeps while the navigator judges steps."""

    q: _Query
    view: TreeView
    record: DocumentNavigation
    spend: Spend
    chosen: list[tuple[str, StopReason]] = field(default_factory=list)
    visits: int = 0
    pages: int = 0
    hidden: frozenset[str] = frozenset()  # nodes never offered: they only list the document's sections
    doc_name: str = ""  # the question's words naming the document as it prints its name (StepRequest.doc_name)

    # ------------------------------------------------------------------ bookkeeping
    def remaining(self) -> Any:
        lim = self.q.limits
        pages = None if lim.max_pages is None else max(0, lim.max_pages - self.pages)
        return remaining(self.spend, self.q.spend, visits=lim.max_visits - self.visits,
                         nodes=lim.max_nodes - len(self.chosen), pages=pages, zoom_pages=lim.zoom_pages)

    def cost(self, node_id: str) -> int:
        """Pages of the budget a chosen node takes (a long one only its best ``zoom_pages``)."""
        return self.remaining().cost(self.view.candidate(node_id))

    def stop(self, node_id: str | None, reason: StopReason, detail: str = "") -> None:
        self.record.stops.append(PathStop(node_id, reason, detail))

    def choose(self, node_id: str, reason: StopReason, detail: str = "") -> bool:
        """Take a node for reading; False when the per-document node cap is reached."""
        chosen_ids = {i for i, _ in self.chosen}
        if node_id in chosen_ids or any(a in chosen_ids for a in self.view.ancestors(node_id)):
            return True  # already covered by a chosen node's text
        if len(self.chosen) >= self.q.limits.max_nodes:
            self.stop(node_id, StopReason.BUDGET_EXHAUSTED, f"max_nodes={self.q.limits.max_nodes} reached")
            return False
        inside = [i for i, _ in self.chosen if node_id in self.view.ancestors(i)]
        if inside:  # a chosen ancestor's text contains its chosen descendants
            self.chosen = [(i, r) for i, r in self.chosen if i not in inside]
            self.pages -= sum(self.cost(i) for i in inside)
        self.chosen.append((node_id, reason))
        self.pages += self.cost(node_id)
        self.stop(node_id, reason, detail)
        return True

    def exhausted(self) -> str | None:
        lim = self.q.limits
        if (why := self.spend.exhausted() or self.q.spend.exhausted()) is not None:
            return why
        if self.visits >= lim.max_visits:
            return f"max_visits={lim.max_visits} spent"
        if len(self.chosen) >= lim.max_nodes:
            return f"max_nodes={lim.max_nodes} chosen"
        if lim.max_pages is not None and self.pages >= lim.max_pages:
            return f"max_pages={lim.max_pages} chosen"
        return None

    def seconds_left(self) -> float | None:
        a, b = self.spend.seconds_left(), self.q.spend.seconds_left()
        return b if a is None else a if b is None else min(a, b)

    def finish(self, pending: list[str], reason: StopReason, detail: str = "") -> None:
        """End the walk: nodes still marked for expansion are read whole."""
        for node_id in pending:
            if not self.choose(node_id, reason, detail):
                break
        if not pending:
            self.stop(None, reason, detail)

    async def step(self, request: StepRequest) -> tuple[Decision | None, Step]:
        record = Step(step=len(self.record.steps) + 1, shown=[c.node_id for c in request.candidates])
        self.record.steps.append(record)
        started = time.monotonic()
        # a model step holds one call of the document's and the query's budget while it runs, so
        # documents navigated concurrently cannot all spend the query's last call
        held = 1 if self.q.navigator.is_language_model else 0
        self.spend.in_flight += held
        self.q.spend.in_flight += held
        try:
            decision = await _ask(lambda: self.q.navigator.decide(request), self.q.cancel, self.seconds_left())
        except _Outcome as out:
            record.outcome = f"{out.reason.value}: {out.detail}"
            record.seconds = time.monotonic() - started
            raise
        finally:
            self.spend.in_flight -= held
            self.q.spend.in_flight -= held
        record.seconds = time.monotonic() - started
        record.reasoning = (decision.reasoning or "")[: self.q.limits.max_reasoning_chars]
        record.stop = decision.stop
        record.usage = decision.usage
        for spend in (self.spend, self.q.spend):
            spend.usage.add(decision.usage)
        self.record.usage.add(decision.usage)
        return decision, record

    def request(self, mode: Any, step: int, current: list[str], offered: list[str], max_choices: int) -> StepRequest:
        return StepRequest(question=self.q.question, doc_id=self.record.doc_id, doc_title=self.record.title,
                           mode=mode, step=step, max_steps=self.q.limits.max_steps if mode == "beam" else 1,
                           current=self.view.candidates(current), candidates=self.view.candidates(offered),
                           max_choices=max_choices, remaining=self.remaining(), cancel=self.q.cancel,
                           doc_name=self.doc_name)

    def split(self, decision: Decision, record: Step, offered: set[str], width: int) -> tuple[list[str], list[str]]:
        """Checked ids: (read, expand) within the ids offered, the step's width and the visits left."""
        named = _ids([*decision.read, *decision.expand])
        record.unknown = [i for i in named if i not in offered]
        for node_id in record.unknown:
            self.stop(node_id, StopReason.UNKNOWN_NODE, "named by the navigator but not offered; not followed")
        read = [i for i in _ids(decision.read) if i in offered]
        expand = [i for i in _ids(decision.expand) if i in offered and i not in read]
        kept_read: list[str] = []
        kept_expand: list[str] = []
        for node_id in [*read, *expand]:
            if len(kept_read) + len(kept_expand) >= width or self.visits >= self.q.limits.max_visits:
                record.ignored.append(node_id)
                continue
            self.visits += 1
            (kept_read if node_id in read else kept_expand).append(node_id)
        if record.ignored and self.visits >= self.q.limits.max_visits:
            self.stop(None, StopReason.BUDGET_EXHAUSTED, f"max_visits={self.q.limits.max_visits} spent")
        record.read, record.expanded = kept_read, kept_expand
        return kept_read, kept_expand

    # ------------------------------------------------------------------ modes
    async def single_pass(self, offered: list[str]) -> None:
        lim = self.q.limits
        if self.q.cancel.cancelled:
            self.stop(None, StopReason.CANCELLED, self.q.cancel.reason)
            return
        if (why := self.exhausted()) is not None:
            self.stop(None, StopReason.BUDGET_EXHAUSTED, why)
            return
        request = self.request("single_pass", 1, [], offered, lim.max_nodes)
        try:
            decision, record = await self.step(request)
        except _Outcome as out:
            self.stop(None, out.reason, out.detail)
            return
        assert decision is not None
        # in one pass there is nothing to open later: a node marked for expansion is read whole
        merged = Decision(read=(*decision.read, *decision.expand), stop=decision.stop)
        read, _ = self.split(merged, record, set(offered), lim.max_nodes)
        for node_id in read:
            leaf = self.view.candidate(node_id).is_leaf
            if not self.choose(node_id, StopReason.LEAF if leaf else StopReason.NAVIGATOR_STOP):
                break
        if not read:
            self.stop(None, StopReason.NAVIGATOR_STOP, "the navigator chose no node")

    async def beam(self, offered: list[str]) -> None:
        lim = self.q.limits
        pending: list[str] = []
        for step_no in range(1, lim.max_steps + 1):
            if self.q.cancel.cancelled:
                self.finish(pending, StopReason.CANCELLED, self.q.cancel.reason)
                return
            if (why := self.exhausted()) is not None:
                self.finish(pending, StopReason.BUDGET_EXHAUSTED, why)
                return
            request = self.request("beam", step_no, pending, offered, lim.beam_width)
            try:
                decision, record = await self.step(request)
            except _Outcome as out:
                self.finish(pending, out.reason, out.detail)
                return
            assert decision is not None
            read, expand = self.split(decision, record, set(offered), lim.beam_width)
            for node_id in read:
                leaf = self.view.candidate(node_id).is_leaf
                self.choose(node_id, StopReason.LEAF if leaf else StopReason.NAVIGATOR_STOP)
            pending = []
            for node_id in expand:
                candidate = self.view.candidate(node_id)
                if candidate.is_leaf:
                    self.choose(node_id, StopReason.LEAF)
                elif candidate.depth >= lim.max_depth:
                    self.choose(node_id, StopReason.MAX_DEPTH, f"max_depth={lim.max_depth}")
                else:
                    pending.append(node_id)
            if decision.stop:
                self.finish(pending, StopReason.NAVIGATOR_STOP, "the navigator stopped")
                return
            if not pending:
                if not read:
                    self.stop(None, StopReason.NAVIGATOR_STOP, "the navigator chose no node")
                return
            if step_no == lim.max_steps:
                self.finish(pending, StopReason.MAX_DEPTH, f"last beam step ({lim.max_steps}) reached")
                return
            offered = [c for node_id in pending for c in self.view.children(node_id) if c not in self.hidden]


def _seed_ids(view: TreeView, seeds: Sequence[str | int], walk: _Walk,
              scores: Mapping[str, float]) -> tuple[list[str], list[str]]:
    """The nodes seeds name: a node id names that node (its sections are offered too); a page names
    the node printed on it (:meth:`TreeView.nodes_on_page`: the end of one section, the heading of
    the next) whose text matches the question best (first-stage ``scores``; ties: the first), the one
    that made the page match. Returns (named by id, named by page)."""
    by_id: list[str] = []
    by_page: list[str] = []
    for seed in seeds:
        if isinstance(seed, int):
            printed = view.nodes_on_page(seed)
            if printed:
                by_page.append(max(printed, key=lambda i: (scores.get(i, 0.0), -view.order[i])))
                continue
        elif str(seed) in view.nodes:
            by_id.append(str(seed))
            continue
        walk.stop(str(seed), StopReason.UNKNOWN_NODE, "seed not in this tree; not followed")
    return list(dict.fromkeys(by_id)), list(dict.fromkeys(by_page))


def _load(q: _Query, candidate: DocumentCandidate) -> tuple[DocumentNavigation, TreeView | None]:
    record = DocumentNavigation(doc_id=candidate.doc_id, version=candidate.version, title=candidate.title,
                                mode=None)
    started = time.monotonic()
    try:
        view = TreeView(q.reader.tree(candidate))
    except TreebuildError as exc:
        record.error = str(exc)
        return record, None
    finally:
        record.seconds = time.monotonic() - started
    return record, view


async def _navigate_document(q: _Query, record: DocumentNavigation, view: TreeView,
                             seeds: Sequence[str | int] | None, stage: FirstStage) -> tuple[DocumentNavigation, _Walk]:
    started = time.monotonic()
    walk = _Walk(q, view, record, Spend.document(q.limits), doc_name=printed_name(q.question, view))
    listing = frozenset(i for i in view.nodes if stage.listing_only(record.doc_id, i))
    if len(listing) < len(view.nodes):  # a contents or index page is offered only when it is all there is
        walk.hidden = listing
    lim = q.limits
    if not seeds and lim.seed_nodes is not None:
        seeds = stage.best_nodes(record.doc_id, lim.seed_nodes)  # first stage; none match: the whole outline
    if seeds:
        named, printed = _seed_ids(view, seeds, walk, stage.node_scores.get(record.doc_id, {}))
        hits = list(dict.fromkeys([*named, *printed]))
        record.seeds = hits
        above = {a for h in hits for a in view.ancestors(h)}
        below = {d.node_id for h in named for d in view.nodes[h].walk()} | set(printed)
        single_ids = sorted((above | below) - walk.hidden, key=view.order.__getitem__)
        beam_ids = sorted((above | set(hits)) - walk.hidden, key=view.order.__getitem__)
    else:
        single_ids = [i for i in view.nodes if i not in walk.hidden]
        beam_ids = [i for i in view.roots() if i not in walk.hidden]
    chars = sum(len(view.candidate(i).title) + len(view.candidate(i).summary or "") + 24 for i in single_ids)
    record.outline_chars = view.outline_chars() if not seeds else chars
    if seeds and not single_ids:
        walk.stop(None, StopReason.UNKNOWN_NODE, "no seed of this document is in its tree")
    elif (cap := single_pass_chars(lim, q.navigator)) is None or record.outline_chars <= cap:
        record.mode = "single_pass"
        await walk.single_pass(single_ids)
    else:
        record.mode = "beam"
        await walk.beam(beam_ids)
    record.chosen = [i for i, _ in walk.chosen]
    record.seconds += time.monotonic() - started
    return record, walk


def _rank_documents(q: _Query, candidates: list[DocumentCandidate]) -> list[DocumentCandidate]:
    """Candidates scored by what is inside them (their best section title and summary, one index over
    every candidate) and by their own row (title, names, tags, description), best first."""
    from .navigators.lexical import rank_documents

    sections = section_scores(q.question, q.reader.sections(candidates))
    scored = [dataclasses.replace(c, section_score=sections.get(c.doc_id, 0.0)) for c in candidates]
    return rank_documents(q.question, scored)


async def _select(q: _Query, candidates: list[DocumentCandidate]) -> tuple[list[DocumentCandidate], SelectionRecord]:
    lim = q.limits
    ranked = _rank_documents(q, candidates)
    shown = ranked[: lim.max_selection_candidates]
    record = SelectionRecord(candidates=len(candidates), shown=[c.doc_id for c in shown])
    by_id = {c.doc_id: c for c in shown}
    request = SelectionRequest(question=q.question, candidates=tuple(shown), max_documents=lim.max_documents,
                               remaining=remaining(q.spend, q.spend, visits=0, nodes=0, pages=lim.max_pages),
                               cancel=q.cancel)
    started = time.monotonic()
    try:
        selection: Selection = await _ask(lambda: q.navigator.select_documents(request), q.cancel,
                                          q.spend.seconds_left())
    except _Outcome as out:
        record.seconds = time.monotonic() - started
        record.outcome = f"{out.reason.value}: {out.detail}"
        if out.reason is StopReason.CANCELLED:
            return [], record
        fallback = ranked[: lim.max_documents]
        record.selected = [c.doc_id for c in fallback]
        return fallback, record
    record.seconds = time.monotonic() - started
    q.spend.usage.add(selection.usage)
    record.usage = selection.usage
    record.reasoning = (selection.reasoning or "")[: lim.max_reasoning_chars]
    named = _ids(selection.doc_ids)
    record.unknown = [d for d in named if d not in by_id]
    record.selected = [d for d in named if d in by_id][: lim.max_documents]
    return [by_id[d] for d in record.selected], record


@dataclass
class _Choice:
    """A chosen node waiting for its share of the query's page and character budget."""

    score: float
    doc_rank: int
    position: int
    record: DocumentNavigation
    walk: _Walk
    node_id: str
    reason: StopReason


def _ranked_choices(q: _Query, walks: list[tuple[DocumentNavigation, _Walk]], stage: FirstStage) -> list[_Choice]:
    """Every chosen node of every document, best first: by its first-stage score, made non-increasing
    along its navigator's order (a navigator's earlier choice never ranks below its later one), so
    documents interleave by the evidence of their choices. A document whose best node scores below
    ``document_cutoff`` of the query's best document is cut (``cut_off``) when several are navigated."""
    best = max((stage.best_score(record.doc_id) for record, _ in walks), default=0.0)
    cutoff = q.limits.document_cutoff * best
    choices: list[_Choice] = []
    for doc_rank, (record, walk) in enumerate(walks):
        doc_best = stage.best_score(record.doc_id)
        if len(walks) > 1 and doc_best < cutoff:
            record.dropped.extend(i for i, _ in walk.chosen)
            walk.stop(None, StopReason.CUT_OFF, f"best section score {doc_best:.2f} < {q.limits.document_cutoff:g} "
                                                f"x the best document's {best:.2f}")
            continue
        scores = stage.node_scores.get(record.doc_id, {})
        floor = 0.0
        ranked: list[_Choice] = []
        for position, (node_id, reason) in reversed(list(enumerate(walk.chosen))):
            floor = max(floor, scores.get(node_id, 0.0))
            ranked.append(_Choice(floor, doc_rank, position, record, walk, node_id, reason))
        choices.extend(reversed(ranked))
    return sorted(choices, key=lambda c: (-c.score, c.doc_rank, c.position))


def _cuts(q: _Query, choice: _Choice, stage: FirstStage, chars: int, pages: int | None) -> list[tuple[Cut, bool]]:
    """The text a chosen node returns: when ``zoom_pages`` is set, a section longer than the pages it
    may take (``zoom_pages``, or fewer when less of the budget is left) returns its best pages (runs of
    consecutive pages), else its text from the start; each cut within what is left."""
    lim = q.limits
    view, tree = choice.walk.view, choice.walk.view.tree
    node = view.nodes[choice.node_id]
    candidate = view.candidate(choice.node_id)
    room = min(p for p in (lim.zoom_pages, pages) if p is not None) if lim.zoom_pages is not None else None
    if room is None or node.start_page is None or candidate.pages <= room:
        cut = cut_text(tree, node, max_units=lim.max_units_per_node, max_chars=min(lim.max_passage_chars, chars),
                       max_pages=pages if node.start_page is not None else None)
        return [(cut, False)]
    best = stage.best_pages(choice.record.doc_id, node.start_page, node.end_page or node.start_page, room)
    runs: list[list[int]] = []
    for page in best:
        if runs and page == runs[-1][-1] + 1:
            runs[-1].append(page)
        else:
            runs.append([page])
    out: list[tuple[Cut, bool]] = []
    for run in runs:
        if chars <= 0:
            break
        cut = cut_pages(tree, node, run[0], run[-1], max_chars=min(lim.max_passage_chars, chars))
        out.append((cut, True))
        chars -= len(cut.text)
    return out


def _passages(q: _Query, walks: list[tuple[DocumentNavigation, _Walk]], stage: FirstStage) -> list[Passage]:
    """The page and character budget spent on the best choices of the whole query first."""
    lim = q.limits
    chars_left = lim.max_context_chars
    pages_left = lim.max_pages
    covered: set[tuple[str, int]] = set()
    out: list[Passage] = []
    for choice in _ranked_choices(q, walks, stage):
        record, view = choice.record, choice.walk.view
        node = view.nodes[choice.node_id]
        paged = node.start_page is not None
        if chars_left <= 0 or (paged and pages_left is not None and pages_left <= 0):
            record.dropped.append(choice.node_id)
            continue
        for cut, zoomed in _cuts(q, choice, stage, chars_left, pages_left if paged else None):
            passage = Passage(doc_id=record.doc_id, version=view.tree.version or 0, node_id=choice.node_id,
                              title=node.title, path=view.path(choice.node_id), text=cut.text,
                              start_page=cut.start_page, end_page=cut.end_page, start_label=cut.start_label,
                              end_label=cut.end_label, node_end_page=node.end_page, truncated=cut.truncated,
                              stop_reason=choice.reason, score=choice.score, best_pages=zoomed)
            out.append(passage)
            chars_left -= len(cut.text)
            if pages_left is not None and paged:
                new = _pages_of(passage) - covered
                pages_left -= len(new)  # a page two passages share (one ends, the next starts on it) is read once
                covered |= new
    fill = lim.fill_pages if lim.fill_pages is not None else not q.navigator.is_language_model
    if fill and pages_left is not None and pages_left > 0 and chars_left > 0:
        out.extend(_fill(q, walks, stage, out, pages_left, chars_left))
    return out


def _pages_of(p: Passage) -> set[tuple[str, int]]:
    if p.start_page is None:
        return set()
    return {(p.doc_id, page) for page in range(p.start_page, (p.end_page or p.start_page) + 1)}


def _fill(q: _Query, walks: list[tuple[DocumentNavigation, _Walk]], stage: FirstStage, taken: list[Passage],
          pages_left: int, chars_left: int) -> list[Passage]:
    """Passages for the pages the choices left of ``max_pages``: the best pages by first-stage page BM25
    of each document a passage came from (so never of a document cut off), not yet returned, taken in
    turn from each document (best document first), each in the deepest section holding it; consecutive
    pages of one section are one passage."""
    lim = q.limits
    covered = {key for p in taken for key in _pages_of(p)}
    order = list(dict.fromkeys(p.doc_id for p in taken if p.start_page is not None))
    by_doc = {record.doc_id: walk for record, walk in walks}
    ranked: dict[str, list[int]] = {}
    for doc_id in order:
        scores = stage.page_scores(doc_id)
        ranked[doc_id] = [p for p in sorted(scores, key=lambda p: (-scores[p], p))
                          if scores[p] > 0 and (doc_id, p) not in covered]
    picked: dict[str, list[int]] = {}
    for rank in range(max((len(r) for r in ranked.values()), default=0)):
        for doc_id in order:
            if rank < len(ranked[doc_id]) and pages_left > 0:
                picked.setdefault(doc_id, []).append(ranked[doc_id][rank])
                pages_left -= 1
    out: list[Passage] = []
    for doc_id in order:
        walk = by_doc[doc_id]
        view = walk.view
        runs: list[tuple[str, list[int]]] = []
        for page in sorted(picked.get(doc_id, [])):
            node_id = view.node_for_page(page)
            if node_id is None:
                continue
            if runs and runs[-1][0] == node_id and page == runs[-1][1][-1] + 1:
                runs[-1][1].append(page)
            else:
                runs.append((node_id, [page]))
        for node_id, pages in runs:
            if chars_left <= 0:
                break
            node = view.nodes[node_id]
            cut = cut_pages(view.tree, node, pages[0], pages[-1], max_chars=min(lim.max_passage_chars, chars_left))
            if not cut.text.strip():
                continue
            detail = f"page(s) {pages[0]}-{pages[-1]}: best by first-stage page BM25, in budget the choices left"
            walk.stop(node_id, StopReason.FIRST_STAGE, detail)
            out.append(Passage(doc_id=doc_id, version=view.tree.version or 0, node_id=node_id, title=node.title,
                               path=view.path(node_id), text=cut.text, start_page=cut.start_page,
                               end_page=cut.end_page, start_label=cut.start_label, end_label=cut.end_label,
                               node_end_page=node.end_page, truncated=cut.truncated,
                               stop_reason=StopReason.FIRST_STAGE, score=stage.node_scores[doc_id].get(node_id, 0.0),
                               best_pages=True))
            chars_left -= len(cut.text)
    return out


async def navigate_async(question: str, store: Store | str | Path, docs: Sequence[str] | None = None,
                         filter: AccessFilter | Mapping[str, Any] | None = None,
                         navigator: str | Navigator = DEFAULT_NAVIGATOR, *, config: ModelConfig | None = None,
                         seeds: Seeds | None = None, cancel: CancellationToken | None = None,
                         providers: ProviderSource | Sequence[tuple[str, Any]] | None = None,
                         **limits: Any) -> QueryResult:
    """:func:`navigate` for async callers."""
    started = time.monotonic()
    if not question or not question.strip():
        raise TreebuildError("the question is blank", hint="ask something, e.g. treebuild query \"What is ...?\"")
    lim = Limits.of(limits)
    access = AccessFilter.of(filter)
    nav = resolve_navigator(navigator, config, providers=providers)  # before any tree is read
    st = store if isinstance(store, Store) else Store(store, create=False)
    q = _Query(question=question.strip(), navigator=nav, limits=lim, reader=TreeReader(st, access),
               spend=Spend.query(lim), cancel=cancel or CancellationToken())
    missing: list[DocumentNavigation] = []
    selection: SelectionRecord | None = None
    names = list(dict.fromkeys([*(docs or []), *(seeds or {})]))
    targets: list[DocumentCandidate] = []
    if names:
        for doc_id in names:
            found = q.reader.candidate(doc_id)
            if found is None:
                missing.append(DocumentNavigation(doc_id=doc_id, version=None, title=None, mode=None,
                                                  error="no such document within the query's filter"))
            else:
                targets.append(found)
    else:
        candidates = q.reader.candidates()
        if len(candidates) <= lim.max_documents:
            targets = candidates
        else:
            targets, selection = await _select(q, candidates)
    loaded = [_load(q, c) for c in targets]
    views = {record.doc_id: view for record, view in loaded if view is not None}
    stage = FirstStage(q.question, views)
    for doc_id, view in views.items():
        view.set_text_scores(stage.node_scores[doc_id])
    semaphore = asyncio.Semaphore(lim.concurrency)

    async def one(record: DocumentNavigation, view: TreeView) -> tuple[DocumentNavigation, _Walk]:
        async with semaphore:
            return await _navigate_document(q, record, view, (seeds or {}).get(record.doc_id), stage)

    walks = list(await asyncio.gather(*(one(record, view) for record, view in loaded if view is not None)))
    passages = _passages(q, walks, stage)
    documents = [record for record, _ in loaded] + missing
    return QueryResult(question=q.question, navigator=nav.name, is_language_model=bool(nav.is_language_model),
                       passages=passages, documents=documents, selection=selection, usage=q.spend.usage,
                       seconds=time.monotonic() - started, filter=access.to_dict(), limits=lim.to_dict(),
                       cancelled=q.cancel.cancelled)


def navigate(question: str, store: Store | str | Path, docs: Sequence[str] | None = None,
             filter: AccessFilter | Mapping[str, Any] | None = None,
             navigator: str | Navigator = DEFAULT_NAVIGATOR, *, config: ModelConfig | None = None,
             seeds: Seeds | None = None, cancel: CancellationToken | None = None,
             providers: ProviderSource | Sequence[tuple[str, Any]] | None = None,
             **limits: Any) -> QueryResult:
    """Navigate stored trees for ``question`` and return passages with the audit record.

    ``docs`` names documents (else all that pass ``filter``; with more than ``max_documents`` the
    navigator selects among them). ``filter`` restricts every tree read: ``{"doc_id": [...],
    "format": "pdf", "meta": {"fy": "2022"}}``. ``navigator`` is a registered name (default
    ``lexical``, offline and not a language model; ``litellm`` with ``config`` naming the model) or a
    :class:`~treebuild.query.spi.Navigator`. ``seeds`` (hybrid seam) maps doc_id to node ids or
    pages from another retriever: navigation starts from them and their ancestors (a page stands for the
    section printed on it whose text matches the question best). ``limits``
    override :class:`~treebuild.query.limits.Limits` (``max_pages=10``, ``max_documents=5`` ...).
    Budgets, timeouts, unknown ids and cancellation never fail the query: what was chosen is returned.
    """
    from ..llm.runner import run_sync

    return run_sync(navigate_async(question, store, docs, filter, navigator, config=config, seeds=seeds,
                                   cancel=cancel, providers=providers, **limits))
