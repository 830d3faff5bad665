"""Findings: what a build noticed and did about it, typed so callers can group them.

A :class:`Finding` has a stable ``code`` (what happened, e.g. ``no_text_layer``, ``toc_entries_dropped``,
``source_failed``), the pipeline ``stage`` that recorded it, a one-line ``message`` for people (without the
file's path: whoever prints it names the document), the 1-based physical ``page`` it concerns when it concerns
one, and ``count``, how many times it happened (repeated messages, such as MuPDF's, are merged into one finding).

Findings travel on :class:`~treebuild.model.SourceDoc` (the reader's), :class:`~treebuild.model.Tree` (all of a
build's) and :class:`~treebuild.ingestion.IngestResult`, and are stored in ``trees.findings``; the text form
(:attr:`Finding.text`) is what ``trees.warnings`` keeps for SQL users and what the CLI prints as
``warning <path>: <text>``.

Codes are snake_case and never change meaning once released (a new situation gets a new code); the codes in
use are listed in ``docs/bad-inputs.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

__all__ = ["Finding", "Stage", "merge", "texts", "from_texts", "from_records"]


class Stage(StrEnum):
    """The pipeline stage that recorded a finding."""

    read = "read"
    structure = "structure"
    subdivide = "subdivide"
    summarize = "summarize"
    store = "store"
    query = "query"
    interop = "interop"  # imports and exports (PageIndex JSON)
    build = "build"  # some stage of a build, not recorded (a row stored before findings existed)


# A finding converted from a line of text that carries no code (rows stored before findings existed, or a
# producer not yet converted): the text is kept whole as its message.
UNCODED = "note"


@dataclass(frozen=True)
class Finding:
    """One thing a stage noticed (see the module docstring)."""

    code: str
    stage: Stage
    message: str
    page: int | None = None
    count: int = 1

    @property
    def text(self) -> str:
        """The one-line text form: the message, with the count when it happened more than once."""
        return self.message if self.count <= 1 else f"{self.message} ({self.count} times)"

    def __str__(self) -> str:
        return self.text

    def as_record(self) -> dict[str, Any]:
        """A plain dict (JSON, Arrow and Prefect results)."""
        return {"code": self.code, "stage": str(self.stage), "message": self.message, "page": self.page,
                "count": self.count}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Finding:
        try:
            stage = Stage(str(record.get("stage")))
        except ValueError:
            stage = Stage.build  # a stage this version does not know
        page = record.get("page")
        return cls(code=str(record.get("code") or UNCODED), stage=stage, message=str(record.get("message") or ""),
                   page=int(page) if page is not None else None, count=int(record.get("count") or 1))


def merge(findings: Iterable[Finding]) -> list[Finding]:
    """Equal findings (code, stage, message, page) merged into one with their counts added, in order of
    first appearance."""
    out: dict[tuple[str, Stage, str, int | None], Finding] = {}
    for f in findings:
        key = (f.code, f.stage, f.message, f.page)
        seen = out.get(key)
        out[key] = f if seen is None else replace(seen, count=seen.count + f.count)
    return list(out.values())


def texts(findings: Iterable[Finding]) -> list[str]:
    """The text form of each finding (what ``trees.warnings`` stores)."""
    return [f.text for f in findings]


def from_texts(items: Iterable[str | Finding], stage: Stage) -> list[Finding]:
    """Findings from a producer that may still return plain text lines (each becomes an uncoded finding)."""
    return [item if isinstance(item, Finding) else Finding(UNCODED, stage, item) for item in items]


def from_records(records: Iterable[Mapping[str, Any]] | None, fallback: Iterable[str] = (),
                 stage: Stage = Stage.build) -> list[Finding]:
    """Findings from stored records; a row stored before findings existed has only its text lines."""
    if records:
        return [Finding.from_record(r) for r in records]
    return from_texts(fallback, stage)
