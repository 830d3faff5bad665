"""Words as BM25 sees them, for every lexical score of a query: the ``lexical`` navigator's
title-and-summary scores, the runtime's first stage over node and page text, document selection.

One tokenizer (``bm25s``'s: lower case, words of two or more characters, English stop words,
Snowball stemmer) and one BM25 (``bm25s``'s defaults, Lucene's IDF). ``score_texts`` indexes a
list of texts for one question; ``bm25`` scores term counts prepared once (:class:`TermCounts`),
which is how a stored tree's text is scored query after query without tokenizing it again, and
how the nodes of several documents are scored with one set of term statistics.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

__all__ = ["QUESTION_WORDS", "NAME_SEPARATORS", "tokenize", "name_terms", "query_terms", "score_texts",
           "TermCounts", "counts", "bm25", "K1", "B"]

QUESTION_WORDS = frozenset(
    "what which who whom whose when where why how does did do is are was were has have had can could "
    "would should will much many any there their "
    # instructions about the answer, not about the topic
    "explain describe state provide respond response answer question please round decimal place places "
    "unit units percent percents useful relevant".split())
"""Words that shape a question or its answer but name no topic; dropped on top of English stop words."""

K1 = 1.5
"""BM25 term-frequency saturation (``bm25s``'s default, so both scorers agree)."""
B = 0.75
"""BM25 length normalisation (``bm25s``'s default)."""

NAME_SEPARATORS = re.compile(r"[_\-./]+")
"""Separators of words in a doc_id or file name (``BOEING_2022_10K``)."""


@cache
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


def tokenize(texts: Sequence[str]) -> list[list[str]]:
    """Stemmed tokens of each text, stop words dropped."""
    import bm25s

    tokens: list[list[str]] = bm25s.tokenize(list(texts), stopwords="en", stemmer=_stemmer(), return_ids=False,
                                             show_progress=False)
    return tokens


def name_terms(name: str) -> set[str]:
    """The terms of a document's name (doc_id, title): ``BOEING_2022_10K`` -> boe, 2022, 10k."""
    return set(tokenize([" ".join(NAME_SEPARATORS.split(name))])[0])


def query_terms(question: str, *, ignore: str = "", drop: Iterable[str] = ()) -> list[str]:
    """The terms of a question that name its topic: question and answer-format words dropped, and the
    terms of ``ignore`` (a document's own name, which tells nothing about where in it to look) and
    ``drop`` (terms already stemmed) unless nothing else is left."""
    words = [w for w in question.split() if w.casefold().strip("?,.;:!'\"") not in QUESTION_WORDS]
    query = tokenize([" ".join(words) or question])[0]
    dropped = set(drop) | (name_terms(ignore) if ignore else set())
    if dropped:
        query = [t for t in query if t not in dropped] or query
    return query


def score_texts(question: str, texts: Sequence[str], *, ignore: str = "") -> list[float]:
    """BM25 score of each text for the question (0.0 when nothing matches); see :func:`query_terms`."""
    import bm25s

    if not texts:
        return []
    query = query_terms(question, ignore=ignore)
    corpus = tokenize(texts)
    if not query or not any(corpus):
        return [0.0] * len(texts)
    # bm25s cannot index an all-empty document list; an empty text simply scores 0
    retriever = bm25s.BM25()
    retriever.index([doc or ["\x00"] for doc in corpus], show_progress=False)
    return [float(s) for s in retriever.get_scores(query)]


TermCounts = Counter[str]
"""A text's stemmed terms and how often each occurs."""


def counts(texts: Sequence[str]) -> list[TermCounts]:
    """Term counts of each text (one tokenizer call for all of them)."""
    return [Counter(tokens) for tokens in tokenize(texts)] if texts else []


def bm25(query: Iterable[str], docs: Sequence[TermCounts]) -> list[float]:
    """BM25 of each of ``docs`` for the query terms, with the term statistics of ``docs`` together:
    scores of texts from several documents scored in one call compare with each other."""
    n = len(docs)
    terms = list(dict.fromkeys(query))
    if not n or not terms:
        return [0.0] * n
    lengths = [sum(d.values()) for d in docs]
    average = (sum(lengths) / n) or 1.0
    scores = [0.0] * n
    for term in terms:
        holding = [i for i, d in enumerate(docs) if term in d]
        if not holding:
            continue
        idf = math.log(1 + (n - len(holding) + 0.5) / (len(holding) + 0.5))
        for i in holding:
            tf = docs[i][term]
            scores[i] += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[i] / average))
    return scores
