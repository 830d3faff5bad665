"""What ``ask`` returns: numbered claims citing passage ids, each citation checked, and the audit of
navigation and answer."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..query import NavigatorUsage, Passage, QueryResult

__all__ = ["AnswerStatus", "ClaimFlag", "Claim", "AnswerPassage", "AnswerAudit", "Answer", "NOT_FOUND_TEXT",
           "EXTRACTIVE", "pages_text"]

NOT_FOUND_TEXT = "Not found in these documents."
EXTRACTIVE = "extractive"
"""The offline answerer's name: sentences of the passages, not a language model."""


class AnswerStatus(StrEnum):
    ANSWERED = "answered"  # at least one claim
    NOT_FOUND = "not_found"  # the passages do not answer the question (or navigation returned none)
    FAILED = "failed"  # no usable answer: model failure, refusal, budget, timeout or cancellation (see outcome)


class ClaimFlag(StrEnum):
    """Why a claim is not verified by its citations. A flagged claim is kept, never hidden."""

    NO_CITATION = "no_citation"  # it cites no passage that was given
    UNKNOWN_CITATION = "unknown_citation"  # it names an id that was not given (not counted as a citation)
    NUMBER_NOT_IN_PASSAGE = "number_not_in_passage"  # a number it states is printed in none of its cited passages
    NO_STATEMENT = "no_statement"  # it states nothing: empty, or the answer template's placeholder echoed


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement of the answer and the passages it cites."""

    n: int  # 1-based, in the answer's order
    text: str
    citations: tuple[str, ...]  # ids of passages given (``P1``...)
    unknown_citations: tuple[str, ...] = ()  # ids named that no passage had
    unsupported_numbers: tuple[str, ...] = ()  # numbers as the claim prints them, found in no cited passage
    flags: tuple[ClaimFlag, ...] = ()

    @property
    def verified(self) -> bool:
        """It states something, every citation names a passage given and every number is printed in a cited
        passage."""
        return not self.flags


@dataclass(frozen=True, slots=True)
class AnswerPassage:
    """A passage as the answerer saw it: its id and how much of its text was shown."""

    id: str  # P1, P2 ... in the order navigation returned them
    passage: Passage
    shown_chars: int  # characters of ``passage.text`` shown (a prefix); 0: left out to fit the budget

    @property
    def shown_text(self) -> str:
        return self.passage.text[: self.shown_chars]

    def citation(self) -> dict[str, Any]:
        p = self.passage
        return {"id": self.id, "doc_id": p.doc_id, "version": p.version, "node_id": p.node_id, "title": p.title,
                "path": [e.title for e in p.path], "pages": pages_text(p), "printed_pages": labels_text(p)}


def pages_text(p: Passage) -> str | None:
    """``54`` or ``54-55`` (physical pages), None for formats without pages."""
    if p.start_page is None:
        return None
    return str(p.start_page) if p.end_page in (None, p.start_page) else f"{p.start_page}-{p.end_page}"


def labels_text(p: Passage) -> str | None:
    """The printed page labels (``F-3`` or ``F-3-F-4``), when the document has them."""
    if p.start_label is None:
        return None
    return p.start_label if p.end_label in (None, p.start_label) else f"{p.start_label}-{p.end_label}"


@dataclass(slots=True)
class AnswerAudit:
    """How the answer was written: by whom, with which prompt and schema, what it cost, what went wrong."""

    answerer: str  # the model id, or ``extractive`` (not a language model)
    is_language_model: bool
    prompt_version: str | None = None  # None for the extractive answerer
    schema: str | None = None  # "json_schema" (ids an enum of the passages given), "json_object", None
    usage: NavigatorUsage = field(default_factory=NavigatorUsage)
    seconds: float = 0.0
    outcome: str | None = None  # why there is no answer (status failed), e.g. "timeout: ..."
    notes: list[str] = field(default_factory=list)  # what was adjusted: passages cut to fit, claims over the cap
    raw: str | None = None  # the model's last answer when it could not be used (capped)


@dataclass(slots=True)
class Answer:
    """The answer, its passages and the audit of navigation and answer."""

    question: str
    status: AnswerStatus
    claims: list[Claim]
    passages: list[AnswerPassage]
    navigation: QueryResult
    audit: AnswerAudit

    @property
    def text(self) -> str:
        """The answer as text: each claim followed by its citations (``[P1, P2]``)."""
        if self.status is AnswerStatus.NOT_FOUND:
            return NOT_FOUND_TEXT
        if self.status is AnswerStatus.FAILED:
            return f"No answer ({self.audit.outcome})."
        return " ".join(f"{c.text} [{', '.join(c.citations) or 'no citation'}]" for c in self.claims)

    @property
    def flagged(self) -> list[Claim]:
        return [c for c in self.claims if c.flags]

    @property
    def usage(self) -> NavigatorUsage:
        """Navigation and answer together."""
        total = NavigatorUsage()
        total.add(self.navigation.usage)
        total.add(self.audit.usage)
        return total

    @property
    def seconds(self) -> float:
        return self.navigation.seconds + self.audit.seconds

    def passage(self, passage_id: str) -> AnswerPassage:
        for p in self.passages:
            if p.id == passage_id:
                return p
        raise KeyError(passage_id)

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-ready: the answer, its claims and checks, the passages with citations, and the
        audit of the answer and of the navigation (``navigation``: what ``treebuild query --json`` prints)."""
        usage = dataclasses.asdict(self.usage)
        return {
            "question": self.question,
            "status": self.status.value,
            "text": self.text,
            "claims": [{"n": c.n, "text": c.text, "citations": list(c.citations), "verified": c.verified,
                        "flags": [f.value for f in c.flags], "unknown_citations": list(c.unknown_citations),
                        "unsupported_numbers": list(c.unsupported_numbers)} for c in self.claims],
            "passages": [{**p.citation(), "shown_chars": p.shown_chars, "truncated": p.passage.truncated,
                          "text": p.passage.text} for p in self.passages],
            "audit": {**dataclasses.asdict(self.audit), "total": {**usage, "seconds": self.seconds}},
            "navigation": self.navigation.to_dict(),
        }
