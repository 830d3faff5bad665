"""``lexical``: the offline default navigator. NOT a language model.

It scores what any navigator may see (a node's title and its summary; a document's title,
description and tags) with BM25 (``bm25s``, English stemming and stop words)
and answers each step deterministically: in one pass (any outline size unless the query sets
``single_pass_max_chars``) it takes the best nodes until the page budget is spent; in a beam step
it reads the best leaves and opens the best sections. Same budgets, same audit, no network, no tokens.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from ...settings import ModelConfig
from ..spi import (
    Candidate,
    Decision,
    DocumentCandidate,
    Selection,
    SelectionRequest,
    StepRequest,
)

__all__ = ["LexicalNavigator", "LexicalProvider", "NAME", "score_texts", "rank_documents"]

NAME = "lexical"

TITLE_WEIGHT = 2
"""A title names what a whole section is about; its words count twice against a summary's."""

QUESTION_WORDS = frozenset(
    "what which who whom whose when where why how does did do is are was were has have had can could "
    "would should will much many any there their "
    # instructions about the answer, not about the topic
    "explain describe state provide respond response answer question please round decimal place places "
    "unit units percent percents useful relevant".split())
"""Words that shape a question or its answer but name no topic; dropped on top of English stop words."""

LARGE_NODE_PAGES = 10
"""A section longer than this is taken only when nothing smaller matches: nearly every answer sits in
a node of at most 10 pages, and a large ancestor crowds out the specific sections it contains."""

MAX_REASONS = 8
"""Scored candidates listed in the reasoning of one step."""

_SPLIT = re.compile(r"[_\-./]+")


@cache
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


def _tokens(texts: Sequence[str]) -> list[list[str]]:
    import bm25s

    tokens: list[list[str]] = bm25s.tokenize(list(texts), stopwords="en", stemmer=_stemmer(), return_ids=False,
                                             show_progress=False)
    return tokens


def score_texts(question: str, texts: Sequence[str], *, ignore: str = "") -> list[float]:
    """BM25 score of each text for the question (0.0 when nothing matches); words of ``ignore``
    (the document's own name, which tells nothing about where in it to look) are not scored."""
    import bm25s

    if not texts:
        return []
    words = [w for w in question.split() if w.casefold().strip("?,.;:!'\"") not in QUESTION_WORDS]
    query = _tokens([" ".join(words) or question])[0]
    if ignore:
        dropped = set(_tokens([" ".join(_SPLIT.split(ignore))])[0])
        query = [t for t in query if t not in dropped] or query
    corpus = _tokens(texts)
    if not query or not any(corpus):
        return [0.0] * len(texts)
    # bm25s cannot index an all-empty document list; an empty text simply scores 0
    retriever = bm25s.BM25()
    retriever.index([doc or ["\x00"] for doc in corpus], show_progress=False)
    return [float(s) for s in retriever.get_scores(query)]


def node_text(c: Candidate) -> str:
    """What the navigator scores of a node: title (weighted) and summary. Ancestor titles are left
    out: each ancestor is scored as a candidate of its own, and copying its words into every
    descendant lifts a whole subtree alike (all of ``Item 8. Financial Statements`` for any question
    naming a statement) while telling its sections apart no better (measured: bench/README.md)."""
    return " ".join([*([c.title] * TITLE_WEIGHT), c.summary or ""])


def document_text(c: DocumentCandidate) -> str:
    names = " ".join(_SPLIT.split(f"{c.doc_id} {c.source_name or ''}"))
    tags = " ".join(f"{k} {v}" for k, v in sorted(c.meta.items()))
    return " ".join([*([c.title or ""] * TITLE_WEIGHT), names, tags, c.description or ""])


def rank_documents(question: str, candidates: Sequence[DocumentCandidate]) -> list[DocumentCandidate]:
    """Candidates by BM25 score over title, names, tags and description; ties keep doc_id order."""
    scores = score_texts(question, [document_text(c) for c in candidates])
    order = sorted(range(len(candidates)), key=lambda i: (-scores[i], candidates[i].doc_id))
    return [candidates[i] for i in order]


def _reasons(scored: Sequence[tuple[float, Candidate]]) -> str:
    listed = "; ".join(f"{c.node_id} {c.title[:60]!r} {s:.2f}" for s, c in scored[:MAX_REASONS])
    found = f"best: {listed}" if listed else "no offered node matched"
    return f"lexical (not a language model): BM25 over titles and summaries; {found}"


class LexicalNavigator:
    """Deterministic BM25 navigator; ``is_language_model`` is False."""

    name = NAME
    is_language_model = False
    single_pass_chars: int | None = None
    """Any outline is scored in one pass: the runtime's outline limit bounds a model's context, and
    BM25 over a 250-node outline takes milliseconds; a beam would only hide deep sections from it."""

    async def decide(self, request: StepRequest) -> Decision:
        request.cancel.raise_if_cancelled()
        candidates = request.candidates
        own_name = f"{request.doc_id} {request.doc_title or ''}"
        scores = score_texts(request.question, [node_text(c) for c in candidates], ignore=own_name)
        scored = sorted(((s, c) for s, c in zip(scores, candidates, strict=True) if s > 0),
                        key=lambda sc: -sc[0])
        if request.mode == "single_pass":
            if not scored:
                return Decision.stop_here("lexical (not a language model): no node shares a term with the question")
            return Decision(read=tuple(self._fit(scored, request)), reasoning=_reasons(scored))
        best = [c for _, c in scored[: request.max_choices]]
        # a section's title and summary show little of what it holds: when too few offered nodes
        # match, the beam is filled with the largest unmatched sections rather than left empty
        unmatched = sorted((c for c in candidates if not c.is_leaf and all(c is not b for b in best)),
                           key=lambda c: -c.pages)
        fill = [c for c in unmatched if all(c.node_id != b.node_id for _, b in scored)]
        filled = fill[: max(0, request.max_choices - len(best))]
        best += filled
        if not best:
            return Decision.stop_here("lexical (not a language model): no offered node shares a term with the "
                                      "question and none has sections to open")
        read = tuple(c.node_id for c in best if c.is_leaf)
        expand = tuple(c.node_id for c in best if not c.is_leaf)
        opened = f"; opened unmatched: {', '.join(c.node_id for c in filled)}" if filled else ""
        return Decision(expand=expand, read=read, reasoning=_reasons(scored) + opened)

    @staticmethod
    def _fit(scored: Sequence[tuple[float, Candidate]], request: StepRequest) -> list[str]:
        """The best nodes in score order, skipping ones whose text another choice already covers,
        until ``max_choices`` nodes or the pages left are taken. A node longer than the pages left
        is still taken, last: its passage is cut to them (a section's first pages hold its heading
        and lead), so a better section is never passed over for a worse one that happens to fit."""
        parents = {c.node_id: c.parent_id for c in request.candidates}

        def lineage(node_id: str) -> set[str]:
            out = set()
            parent = parents.get(node_id)
            while parent is not None:
                out.add(parent)
                parent = parents.get(parent)
            return out

        pages_left = request.remaining.pages
        chosen: list[str] = []
        small = [(s, c) for s, c in scored if c.pages <= LARGE_NODE_PAGES]
        for _, c in small or scored:
            if len(chosen) >= min(request.max_choices, request.remaining.nodes):
                break
            if pages_left is not None and pages_left <= 0:
                break
            if any(a in chosen for a in lineage(c.node_id)) or any(c.node_id in lineage(x) for x in chosen):
                continue
            chosen.append(c.node_id)
            if pages_left is not None:
                pages_left -= c.pages
        return chosen

    async def select_documents(self, request: SelectionRequest) -> Selection:
        request.cancel.raise_if_cancelled()
        ranked = rank_documents(request.question, request.candidates)
        picked = ranked[: request.max_documents]
        listed = ", ".join(c.doc_id for c in picked)
        return Selection(doc_ids=tuple(c.doc_id for c in picked),
                         reasoning=f"lexical (not a language model): BM25 over titles, names, tags and "
                                   f"descriptions; best: {listed}")


class LexicalProvider:
    """Provides ``lexical`` (registered under the ``treebuild.navigators`` entry-point group)."""

    def supports(self, name: str) -> bool:
        return name.strip().casefold() == NAME

    def create(self, name: str, config: ModelConfig) -> LexicalNavigator:
        return LexicalNavigator()
