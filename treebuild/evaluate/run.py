"""Measure retrieval on your own questions: the configured navigator, BM25 over whole pages, and the two
together, each with the same page budget.

- ``nav``: the navigator (``lexical`` by default, ``litellm`` with a model) over the question's documents;
- ``bm25``: BM25 over the documents' whole pages (the ``lexical`` navigator's tokenizer and scorer), taking the
  best ``max_pages`` pages; a document without pages (DOCX, Markdown) is scored block by block;
- ``hybrid``: the navigator seeded with page BM25's pages through the hybrid seam (their sections and
  ancestors are what it sees).

A question is a hit for a method when a page it returns is an evidence page (of the right document), or,
for questions given answer strings instead, when the text it returns prints one of them. Per question:
hits, pages returned, and the navigator's calls, tokens, cost and seconds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..answer.numbers import NUMBER, numbers
from ..errors import TreebuildError
from ..query import AccessFilter, Navigator, QueryResult, navigate
from ..query.terms import score_texts
from ..settings import ModelConfig
from ..store import Store
from .questions import EvalQuestion

__all__ = ["METHODS", "MethodResult", "EvalRow", "EvalReport", "evaluate", "PageTexts", "prepare_documents",
           "answer_found"]

METHODS = ("nav", "bm25", "hybrid")
"""The retrievers compared, in the order they are printed."""

Key = tuple[str, int]  # (doc_id, page)


@dataclass(slots=True)
class MethodResult:
    hit: bool
    pages: int  # pages returned (blocks for documents without pages)
    returned: list[str] = field(default_factory=list)  # node:pages for navigations, doc:page for BM25


@dataclass(slots=True)
class EvalRow:
    question: EvalQuestion
    methods: dict[str, MethodResult]
    calls: int = 0  # the navigator's model calls, input and output tokens, cost and seconds ("nav" only)
    tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0
    error: str | None = None  # the question could not be measured (counted as a miss everywhere)

    def to_dict(self) -> dict[str, Any]:
        q = self.question
        return {"id": q.id, "question": q.question, "docs": list(q.docs), "type": q.qtype,
                "evidence": [{"doc_id": e.doc_id, "page": e.page} for e in q.evidence], "answers": list(q.answers),
                **{m: {"hit": r.hit, "pages": r.pages, "returned": r.returned} for m, r in self.methods.items()},
                "calls": self.calls, "tokens": self.tokens, "cost_usd": self.cost_usd,
                "seconds": round(self.seconds, 4), "error": self.error}


@dataclass(slots=True)
class EvalReport:
    rows: list[EvalRow]
    navigator: str
    is_language_model: bool
    max_pages: int
    limits: dict[str, Any]
    methods: tuple[str, ...] = METHODS
    source: str | None = None  # the questions file
    seconds: float = 0.0

    @property
    def types(self) -> list[str]:
        return sorted({r.question.qtype for r in self.rows if r.question.qtype})

    def totals(self, rows: Sequence[EvalRow] | None = None) -> dict[str, Any]:
        """Questions, then per method: hits, hit rate and mean pages returned; the navigator's spending."""
        rows = self.rows if rows is None else rows
        n = len(rows)
        out: dict[str, Any] = {"questions": n}
        for m in self.methods:
            hits = sum(r.methods[m].hit for r in rows)
            out[m] = {"hits": hits, "rate": hits / n if n else 0.0,
                      "mean_pages": sum(r.methods[m].pages for r in rows) / n if n else 0.0}
        out.update(calls=sum(r.calls for r in rows), tokens=sum(r.tokens for r in rows),
                   cost_usd=sum(r.cost_usd for r in rows), seconds=sum(r.seconds for r in rows),
                   errors=sum(r.error is not None for r in rows))
        return out

    def by_type(self) -> dict[str, dict[str, Any]]:
        """Totals per question type (only when the questions have types), then ``all``."""
        out = {t: self.totals([r for r in self.rows if r.question.qtype == t]) for t in self.types}
        out["all"] = self.totals()
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "navigator": self.navigator, "is_language_model": self.is_language_model,
                "max_pages": self.max_pages, "limits": self.limits, "methods": list(self.methods),
                "totals": self.by_type(), "seconds": round(self.seconds, 3),
                "rows": [r.to_dict() for r in self.rows]}


class PageTexts:
    """Whole pages of stored documents, read once per evaluation: physical pages for paged formats, the
    blocks (numbered from 1) of documents without pages."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pages: dict[str, dict[int, str]] = {}
        self._paged: dict[str, bool] = {}

    def of(self, doc_id: str) -> dict[int, str]:
        if doc_id not in self._pages:
            doc = self.store.tree(doc_id).doc
            pages: dict[int, list[str]] = {}
            paged = any(u.page is not None for u in doc.units)
            for i, unit in enumerate(doc.units):
                key = unit.page if paged else i + 1
                if key is not None:
                    pages.setdefault(key, []).append(unit.text)
            self._pages[doc_id] = {p: "\n".join(t) for p, t in pages.items()}
            self._paged[doc_id] = paged
        return self._pages[doc_id]

    def paged(self, doc_id: str) -> bool:
        self.of(doc_id)
        return self._paged[doc_id]

    def best(self, question: str, docs: Sequence[str], budget: int) -> list[Key]:
        """The ``budget`` pages of ``docs`` BM25 scores best for ``question`` (ties: document, then page order)."""
        keys = [(d, p) for d in docs for p in sorted(self.of(d))]
        scores = score_texts(question, [self.of(d)[p] for d, p in keys])
        ranked = sorted(range(len(keys)), key=lambda i: (-scores[i], keys[i]))
        return [keys[i] for i in ranked[:budget]]


def _flat(text: str) -> str:
    return " ".join(text.split()).casefold()


def answer_found(answer: str, text: str) -> bool:
    """Whether ``text`` prints ``answer``: a lone figure by value (``17606`` finds ``17,606``, never ``176,060``),
    other strings as whole words, case and spacing aside."""
    figures = numbers(answer)
    if len(figures) == 1 and not NUMBER.sub("", answer).strip(" $€£%()-–—.,"):
        return figures[0][1] in {value for _, value in numbers(text)}
    words = re.escape(_flat(answer))
    return re.search(rf"(?<!\w){words}(?!\w)", _flat(text)) is not None


def _covered(result: QueryResult) -> set[Key]:
    return {(p.doc_id, page) for p in result.passages if p.start_page is not None
            for page in range(p.start_page, (p.end_page or p.start_page) + 1)}


def _hit(q: EvalQuestion, pages: set[Key], texts: Iterable[str]) -> bool:
    if q.evidence:
        single = q.docs[0] if len(q.docs) == 1 else None
        for e in q.evidence:
            doc = e.doc_id or single  # None: the question names no single document, any one's page counts
            if any(page == e.page and doc in (None, d) for d, page in pages):
                return True
        return False
    joined = "\n".join(texts)
    return any(answer_found(a, joined) for a in q.answers)


def _navigation(q: EvalQuestion, result: QueryResult) -> MethodResult:
    pages = _covered(result)
    one = len({p.doc_id for p in result.passages}) <= 1 and len(q.docs) == 1
    returned = [("" if one else f"{p.doc_id}:") + f"{p.node_id}:{p.start_page}-{p.end_page}" for p in result.passages]
    counted = len(pages) or sum(1 for p in result.passages if p.start_page is None)
    return MethodResult(_hit(q, pages, (p.text for p in result.passages)), counted, returned)


def _documents(store: Store, access: AccessFilter, q: EvalQuestion) -> list[str]:
    if q.docs:
        return list(q.docs)
    return sorted(r["doc_id"] for r in store.tree_rows(columns=["doc_id", "format", "meta"]) if access.allows(r))


def _row(q: EvalQuestion, store: Store, access: AccessFilter, navigator: str | Navigator, config: ModelConfig | None,
         pages: PageTexts, max_pages: int, limits: dict[str, Any], methods: Sequence[str]) -> EvalRow:
    row = EvalRow(q, {})
    docs = _documents(store, access, q)
    if "nav" in methods:
        started = time.perf_counter()
        result = navigate(q.question, store, docs=list(q.docs) or None, filter=access, navigator=navigator,
                          config=config, max_pages=max_pages, **limits)
        row.seconds = time.perf_counter() - started
        row.methods["nav"] = _navigation(q, result)
        u = result.usage
        row.calls, row.tokens, row.cost_usd = u.calls, u.input_tokens + u.output_tokens, u.cost_usd
    best = pages.best(q.question, docs, max_pages) if {"bm25", "hybrid"} & set(methods) else []
    if "bm25" in methods:
        returned = [f"{d}:{p}" if len(docs) > 1 else str(p) for d, p in best]
        row.methods["bm25"] = MethodResult(_hit(q, set(best), (pages.of(d)[p] for d, p in best)), len(best),
                                           returned)
    if "hybrid" in methods:
        seeds: dict[str, list[str | int]] = {}
        for d, p in best:
            if pages.paged(d):
                seeds.setdefault(d, []).append(p)
        hybrid = navigate(q.question, store, filter=access, navigator=navigator, config=config, seeds=seeds,
                          max_pages=max_pages, **limits) if seeds else None
        row.methods["hybrid"] = _navigation(q, hybrid) if hybrid is not None else MethodResult(False, 0)
    return row


def evaluate(questions: Sequence[EvalQuestion], store: Store | str | Path, *, navigator: str | Navigator = "lexical",
             config: ModelConfig | None = None, max_pages: int = 10, limits: Mapping[str, Any] | None = None,
             filter: AccessFilter | Mapping[str, Any] | None = None, methods: Sequence[str] = METHODS,
             source: str | None = None, on_row: Callable[[EvalRow], None] | None = None) -> EvalReport:
    """Measure each question with each of ``methods`` at ``max_pages`` pages; ``limits`` are further query
    limits (:class:`treebuild.query.Limits`). A question that cannot be measured (an unknown document) is a
    miss with its error recorded; the rest go on."""
    from ..query import resolve_navigator

    unknown = sorted(set(methods) - set(METHODS))
    if unknown:
        raise TreebuildError(f"unknown method(s): {', '.join(unknown)}", hint=f"known: {', '.join(METHODS)}")
    started = time.perf_counter()
    st = store if isinstance(store, Store) else Store(store, create=False)
    nav = resolve_navigator(navigator, config)
    access = AccessFilter.of(filter)
    extra = dict(limits or {})
    pages = PageTexts(st)
    rows: list[EvalRow] = []
    for q in questions:
        try:
            row = _row(q, st, access, navigator, config, pages, max_pages, extra, methods)
        except TreebuildError as exc:
            row = EvalRow(q, {m: MethodResult(False, 0) for m in methods}, error=str(exc))
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return EvalReport(rows=rows, navigator=nav.name, is_language_model=bool(nav.is_language_model),
                      max_pages=max_pages, limits={"max_pages": max_pages, **extra}, methods=tuple(methods),
                      source=source, seconds=time.perf_counter() - started)


def prepare_documents(questions: Sequence[EvalQuestion], store: Store, corpus: Path | None,
                      on_ingest: Callable[[str, Any], None] | None = None) -> list[str]:
    """Make sure every document the questions name is in ``store``: with ``corpus``, each is built from
    ``<doc_id>.<suffix>`` found in that folder (reused when unchanged, offline defaults), and every document
    of the folder when a question names none (it is asked of them all); without one, a document missing from
    the store is an error naming it. Returns the documents built or checked."""
    from ..ingestion import ingest
    from ..readers import SUPPORTED_SUFFIXES

    names = sorted({d for q in questions for d in q.docs})
    if corpus is not None:
        if not corpus.is_dir():
            raise TreebuildError("not a folder", path=str(corpus), hint="pass the folder that holds the documents")
        files: dict[str, Path] = {}
        for path in sorted(corpus.rglob("*")):
            if path.suffix.lower() in SUPPORTED_SUFFIXES and path.is_file():
                files.setdefault(path.stem, path)
        if any(not q.docs for q in questions):
            names = sorted(set(names) | set(files))
        missing = [d for d in names if d not in files]
        if missing:
            raise TreebuildError(f"{len(missing)} document(s) named by the questions are not in {corpus}: "
                                 f"{', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}",
                                 hint=f"the folder must hold <doc_id> with a suffix of {', '.join(SUPPORTED_SUFFIXES)}")
        for doc_id in names:
            result = ingest(files[doc_id], store, doc_id=doc_id)
            if result.status == "error":
                raise TreebuildError(f"document {doc_id!r} could not be built: {result.error}")
            if on_ingest is not None:
                on_ingest(doc_id, result)
        return names
    stored = {r["doc_id"] for r in store.tree_rows(columns=["doc_id"])}
    missing = [d for d in names if d not in stored]
    if missing:
        raise TreebuildError(f"{len(missing)} document(s) named by the questions are not in the store: "
                             f"{', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}", path=str(store.root),
                             hint="ingest them first, or pass --corpus DIR (the folder holding <doc_id>.pdf ...)")
    return names
