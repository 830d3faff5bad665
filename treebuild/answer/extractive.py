"""The offline answer: NOT a language model. The sentences of the passages that best match the question
(BM25, the ``lexical`` navigator's scorer), each quoted as it is printed and cited to its passage.

Lines are read as the reader printed them: a table row (a label, then lines of figures only) is one
piece, a short line without end punctuation before a capitalised line is a heading, and the rest is
prose, cut into sentences at ``. ``, ``! `` or ``? `` before a capital or a figure; a piece longer than
``max_claim_chars`` is cut at word boundaries. Whitespace is collapsed; nothing else changes, so every
figure of a claim is the passage's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..query.terms import score_texts
from .citations import check_claim
from .limits import AnswerLimits
from .result import AnswerPassage, Claim

__all__ = ["extractive_claims", "sentences", "MIN_SENTENCE_WORDS"]

MIN_SENTENCE_WORDS = 4
"""Shorter pieces (a page number, a heading of two words) say nothing on their own."""
HEADING_WORDS = 8
"""A line of at most this many words, without end punctuation, before a capitalised line is a heading."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9$])")
_FIGURES = re.compile(r"[\s$€£¥()\d,.%\-–—]+")
_END_PUNCTUATION = tuple(".!?:;,")
_WORDS = re.compile(r"[^\W\d_]+")


def _is_heading(line: str, following: str) -> bool:
    return (len(line.split()) <= HEADING_WORDS and not line.endswith(_END_PUNCTUATION)
            and following[:1].isupper())


def _blocks(text: str) -> list[str]:
    """Lines joined into table rows, headings and runs of prose."""
    blocks: list[list[str]] = []
    current: list[str] = []
    row = False  # the current block holds figures: it is a table row, and a line of words starts the next
    for line in (raw.strip() for raw in text.splitlines()):
        if not line:
            continue
        if _FIGURES.fullmatch(line):
            current.append(line)
            row = True
            continue
        if current and (row or _is_heading(current[-1], line)):
            blocks.append(current)
            current, row = [], False
        current.append(line)
    if current:
        blocks.append(current)
    return [" ".join(" ".join(b).split()) for b in blocks]


def sentences(text: str, max_chars: int) -> list[str]:
    """``text`` as sentences of at most ``max_chars`` characters (longer ones in pieces at word boundaries)."""
    out: list[str] = []
    for sentence in (s for block in _blocks(text) for s in _SENTENCE_END.split(block)):
        while len(sentence) > max_chars:
            cut = sentence.rfind(" ", 0, max_chars + 1)
            cut = cut if cut > max_chars // 2 else max_chars
            out.append(sentence[:cut].strip())
            sentence = sentence[cut:].strip()
        if sentence:
            out.append(sentence)
    return [s for s in out if len(s.split()) >= MIN_SENTENCE_WORDS]


def extractive_claims(question: str, passages: Sequence[AnswerPassage], limits: AnswerLimits) -> list[Claim]:
    """The best-matching sentences, best first, each a claim citing its passage (checked like any claim)."""
    pieces: list[tuple[str, str]] = []  # (passage id, sentence)
    for p in passages:
        pieces += [(p.id, s) for s in sentences(p.shown_text, limits.max_claim_chars)]
    if not pieces:
        return []
    scores = score_texts(question, [s for _, s in pieces])
    ranked = sorted((i for i in range(len(pieces)) if scores[i] > 0), key=lambda i: (-scores[i], i))
    claims: list[Claim] = []
    seen: set[str] = set()
    for i in ranked:
        passage_id, sentence = pieces[i]
        words = _WORDS.findall(sentence.casefold())  # rows of one label with other figures say the same thing
        if " ".join(words) in seen:
            continue
        seen.add(" ".join(words))
        claims.append(check_claim(len(claims) + 1, sentence, [passage_id], passages))
        if len(claims) >= limits.extractive_sentences:
            break
    return claims
