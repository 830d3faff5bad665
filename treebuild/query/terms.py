"""Words as BM25 sees them, for every lexical score of a query: the ``lexical`` navigator's
title-and-summary scores, the runtime's first stage over node and page text, document selection.

One tokenizer (lower case, words of two or more letters or digits, Lucene's English stop words,
the Snowball English stemmer of ``PyStemmer``) and one BM25 (Lucene's: IDF ``ln(1 + (N - df +
0.5) / (df + 0.5))``, ``k1`` 1.5, ``b`` 0.75, as ``bm25s`` computes it). :func:`bm25` scores term counts prepared once
(:class:`TermCounts`): a stored tree's text is scored query after query without tokenizing it
again, and the nodes of several documents are scored with one set of term statistics.
Written here rather than taken from ``bm25s`` (which the first version used, same tokenizer and
formula): importing it and numpy cost 0.15-0.8 s in every cold ``treebuild query``, for scoring
a few hundred texts that plain Python scores in milliseconds.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

__all__ = ["QUESTION_WORDS", "DOCUMENT_WORDS", "TEMPLATE_WORDS", "EMPHASIS_WORDS", "STOP_WORDS", "NAME_SEPARATORS",
           "tokenize", "name_terms", "query_terms",
           "score_texts", "TermCounts", "counts", "bm25", "K1", "B"]

DOCUMENT_WORDS = frozenset(
    "report reports reported reporting filing filings filed document documents section sections "
    "latest recent most".split())
"""Words by which a question names the document it is asked of, or a part of it ("in the latest 10-Q
report", "the most recent filing", "how is it reported", "the supply chain section"). Like the document's
own name (see :func:`query_terms`) they tell nothing about where in it to look; kept, they find the
text in which a document names itself: certifications ("I have reviewed this quarterly report"), the
cover ("quarterly report pursuant to Section 13"), signatures ("caused this report to be signed"), the
exhibit index, pages whose words recur in every filing and which the page budget was spent on
(bench/README.md, "Issue 24, navigation pass 2")."""

TEMPLATE_WORDS = frozenset(
    "analyze analyse analysis compare compared comparison relate relates related correlate correlation "
    "correspond corresponds align combine examine discuss discussed discussion outline outlined mention "
    "mentioned disclose disclosed detail details indicate indicated suggest suggests reflect reflected".split())
"""Verbs (and their nouns) of a question's template ("analyze how X relates to Y", "what do the levels
suggest", "the discussion of ...") that ask for reasoning over what is found, not for a topic."""

EMPHASIS_WORDS = frozenset(
    "key chief main primary principal major significant significantly notable important primarily mainly "
    "factor factors driver drivers reason reasons affect affected affecting affects influence influenced "
    "influencing influences".split())
"""Words by which a question asks for what mattered most or what caused something ("the key factors
influencing net income", "the chief factor affecting operating income", "any significant announcements"):
they ask for judgement over what is found, not for a topic, and kept they find the text that uses them
for its own ends: officers' titles ("Chief Executive Officer") in every certification, "Risk Factors",
"could materially affect" in the controls and the forward-looking legend."""

QUESTION_WORDS = frozenset(
    "what which who whom whose when where why how does did do is are was were has have had can could "
    "would should will much many any there their "
    # instructions about the answer, not about the topic
    "explain describe state provide respond response answer question please round decimal place places "
    "unit units percent percents useful relevant".split()) | DOCUMENT_WORDS | TEMPLATE_WORDS | EMPHASIS_WORDS
"""Words that shape a question or its answer but name no topic; dropped on top of :data:`STOP_WORDS`
(unless nothing else is left)."""

STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these "
    "they this to was will with".split())
"""Lucene's English stop words (its ``EnglishAnalyzer`` default), dropped from every text."""

K1 = 1.5
"""BM25 term-frequency saturation (Lucene's default)."""
B = 0.75
"""BM25 length normalisation (Lucene's default)."""

NAME_SEPARATORS = re.compile(r"[_\-./]+")
"""Separators of words in a doc_id or file name (``BOEING_2022_10K``)."""

_WORD = re.compile(r"(?u)\b\w\w+\b")


@cache
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


def tokenize(texts: Sequence[str]) -> list[list[str]]:
    """Stemmed terms of each text, stop words dropped (each distinct word is stemmed once)."""
    words = [[w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS] for text in texts]
    vocabulary = list({w: None for ws in words for w in ws})
    stems = dict(zip(vocabulary, _stemmer().stemWords(vocabulary), strict=True))
    return [[stems[w] for w in ws] for ws in words]


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
    """BM25 score of each text for the question, the texts' own term statistics (0.0 when nothing
    matches); see :func:`query_terms`."""
    return bm25(query_terms(question, ignore=ignore), counts(texts))


TermCounts = Counter[str]
"""A text's stemmed terms and how often each occurs."""


def counts(texts: Sequence[str]) -> list[TermCounts]:
    """Term counts of each text (one tokenizer call for all of them)."""
    return [Counter(tokens) for tokens in tokenize(texts)] if texts else []


def bm25(query: Iterable[str], docs: Sequence[TermCounts]) -> list[float]:
    """BM25 of each of ``docs`` for the query terms (a term the question repeats counts again),
    with the term statistics of ``docs`` together: texts from several documents scored in one call
    compare with each other. Lucene's form, as ``bm25s`` computes it: the sum over query terms of
    ``idf * tf / (tf + K1 * (1 - B + B * length / average length))``."""
    n = len(docs)
    weights = Counter(query)
    if not n or not weights:
        return [0.0] * n
    lengths = [sum(d.values()) for d in docs]
    average = (sum(lengths) / n) or 1.0
    scores = [0.0] * n
    for term, weight in weights.items():
        holding = [i for i, d in enumerate(docs) if term in d]
        if not holding:
            continue
        idf = math.log(1 + (n - len(holding) + 0.5) / (len(holding) + 0.5))
        for i in holding:
            tf = docs[i][term]
            scores[i] += weight * idf * tf / (tf + K1 * (1 - B + B * lengths[i] / average))
    return scores
