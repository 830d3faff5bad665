"""``lexical``: the offline default navigator. NOT a language model.

It scores what any navigator may see of a node: its title and summary, with BM25
(:mod:`~treebuild.query.terms`: English stemming and stop words), and the runtime's first-stage score of the node's text
(``Candidate.text_score``); the two rankings are fused (reciprocal rank fusion), so a section is
found by what it is called and by what it says. Statements a question asks about
(:mod:`~treebuild.query.navigators.statements`: "operating margin" asks for the income
statement) are read first. In one pass (any outline size unless the query sets
``single_pass_max_chars``) it takes the best nodes until the page budget is spent; in a beam step
it reads the best leaves and opens the best sections. Same budgets, same audit, no network, no tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...settings import ModelConfig
from ..spi import (
    Candidate,
    Decision,
    DocumentCandidate,
    Selection,
    SelectionRequest,
    StepRequest,
)
from ..terms import NAME_SEPARATORS, score_texts
from .statements import statement_nodes

__all__ = ["LexicalNavigator", "LexicalProvider", "NAME", "score_texts", "rank_documents", "fused_scores"]

NAME = "lexical"

TITLE_WEIGHT = 2
"""A title names what a whole section is about; its words count twice against a summary's."""

LARGE_NODE_PAGES = 10
"""A section longer than this is taken only when nothing smaller matches: nearly every answer sits in
a node of at most 10 pages, and a large ancestor crowds out the specific sections it contains."""

RRF_K = 60
"""Reciprocal rank fusion's constant (Cormack, Clarke and Buettcher 2009): a node's fused score is
the sum of 1 / (RRF_K + rank) over the rankings it appears in; 60 keeps the first few ranks of
either ranking close, so agreement between them decides."""

MAX_REASONS = 8
"""Scored candidates listed in the reasoning of one step."""


def node_text(c: Candidate) -> str:
    """What the navigator scores of a node: title (weighted) and summary. Ancestor titles are left
    out: each ancestor is scored as a candidate of its own, and copying its words into every
    descendant lifts a whole subtree alike (all of ``Item 8. Financial Statements`` for any question
    naming a statement) while telling its sections apart no better (measured: bench/README.md)."""
    return " ".join([*([c.title] * TITLE_WEIGHT), c.summary or ""])


def document_text(c: DocumentCandidate) -> str:
    names = " ".join(NAME_SEPARATORS.split(f"{c.doc_id} {c.source_name or ''}"))
    tags = " ".join(f"{k} {v}" for k, v in sorted(c.meta.items()))
    return " ".join([*([c.title or ""] * TITLE_WEIGHT), names, tags, c.description or ""])


def rank_documents(question: str, candidates: Sequence[DocumentCandidate]) -> list[DocumentCandidate]:
    """Candidates by what is inside them (``section_score``: their best section title and summary)
    and by their own row (BM25 over title, names, tags and description), each score a share of its
    best among the candidates, added; ties keep doc_id order."""
    rows = score_texts(question, [document_text(c) for c in candidates])
    best_row = max(rows, default=0.0) or 1.0
    best_section = max((c.section_score for c in candidates), default=0.0) or 1.0
    scores = [r / best_row + c.section_score / best_section for r, c in zip(rows, candidates, strict=True)]
    order = sorted(range(len(candidates)), key=lambda i: (-scores[i], candidates[i].doc_id))
    return [candidates[i] for i in order]


def _ranks(scores: dict[str, float]) -> dict[str, int]:
    ordered = sorted((i for i, s in scores.items() if s > 0), key=lambda i: -scores[i])
    return {node_id: rank for rank, node_id in enumerate(ordered)}


def fused_scores(question: str, candidates: Sequence[Candidate], *, ignore: str = "") -> dict[str, float]:
    """Reciprocal rank fusion of two rankings of the offered nodes: BM25 over title and summary, and
    the runtime's first-stage ``text_score``; a node in neither (no shared term) scores 0."""
    titles = score_texts(question, [node_text(c) for c in candidates], ignore=ignore)
    by_title = _ranks({c.node_id: s for c, s in zip(candidates, titles, strict=True)})
    by_text = _ranks({c.node_id: c.text_score for c in candidates})
    return {c.node_id: sum(1 / (RRF_K + r[c.node_id]) for r in (by_title, by_text) if c.node_id in r)
            for c in candidates}


def _reasons(scored: Sequence[tuple[float, Candidate]], statements: Sequence[Candidate]) -> str:
    listed = "; ".join(f"{c.node_id} {c.title[:60]!r} {s * 1000:.1f}" for s, c in scored[:MAX_REASONS])
    found = f"best (fused x1000): {listed}" if listed else "no offered node matched"
    asked = (f"; statements the question asks for, read first: "
             f"{', '.join(f'{c.node_id} {c.title[:60]!r}' for c in statements)}") if statements else ""
    return (f"lexical (not a language model): BM25 over titles and summaries fused with the first stage's "
            f"BM25 over node text{asked}; {found}")


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
        own_name = f"{request.doc_id} {request.doc_title or ''} {request.doc_name}"
        fused = fused_scores(request.question, candidates, ignore=own_name)
        scored = sorted(((fused[c.node_id], c) for c in candidates if fused[c.node_id] > 0), key=lambda sc: -sc[0])
        statements = statement_nodes(request.question, candidates)
        if request.mode == "single_pass":
            if not scored and not statements:
                return Decision.stop_here("lexical (not a language model): no node shares a term with the question")
            return Decision(read=tuple(self._fit(statements, scored, request)), reasoning=_reasons(scored, statements))
        best = [*statements, *(c for _, c in scored if c not in statements)][: request.max_choices]
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
        return Decision(expand=expand, read=read, reasoning=_reasons(scored, statements) + opened)

    @staticmethod
    def _fit(statements: Sequence[Candidate], scored: Sequence[tuple[float, Candidate]],
             request: StepRequest) -> list[str]:
        """The statements asked for, then the best nodes in score order, skipping ones whose text
        another choice already covers, until ``max_choices`` nodes or the pages left are taken (a
        long node costs only the pages the runtime returns of it). A node longer than the pages
        left is still taken, last: its passage is cut to them, so a better section is never passed
        over for a worse one that happens to fit."""
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
        small = [c for _, c in scored if c.pages <= LARGE_NODE_PAGES]
        for c in [*statements, *(small or [c for _, c in scored])]:
            if len(chosen) >= min(request.max_choices, request.remaining.nodes):
                break
            if pages_left is not None and pages_left <= 0:
                break
            if c.node_id in chosen or any(a in chosen for a in lineage(c.node_id)) \
                    or any(c.node_id in lineage(x) for x in chosen):
                continue
            chosen.append(c.node_id)
            if pages_left is not None:
                pages_left -= request.remaining.cost(c)
        return chosen

    async def select_documents(self, request: SelectionRequest) -> Selection:
        request.cancel.raise_if_cancelled()
        ranked = rank_documents(request.question, request.candidates)
        picked = ranked[: request.max_documents]
        listed = ", ".join(c.doc_id for c in picked)
        return Selection(doc_ids=tuple(c.doc_id for c in picked),
                         reasoning=f"lexical (not a language model): BM25 over titles, names, tags and "
                                   f"descriptions, and over the section titles and summaries inside each "
                                   f"document; best: {listed}")


class LexicalProvider:
    """Provides ``lexical`` (registered under the ``treebuild.navigators`` entry-point group)."""

    def supports(self, name: str) -> bool:
        return name.strip().casefold() == NAME

    def create(self, name: str, config: ModelConfig) -> LexicalNavigator:
        return LexicalNavigator()
