"""The questions of an evaluation: one JSON object per line of ``QUESTIONS.jsonl``.

Each line has a ``question`` and what a right retrieval must return, either

- evidence pages: ``"evidence": [{"evidence_page": 54, "doc_name": "ADOBE_2022_10K"}, ...]`` (FinanceBench's
  form; pages 1-based) or ``"evidence_pages": [54, 55]``; a hit is a returned page that is one of them;
- or answer strings and figures: ``"answers": ["17,606"]``, ``"answer_figures": [...]``, or a short ``"answer"``;
  a hit is a returned text that prints one of them (case and spacing aside; a figure matches by value, so
  ``17606`` finds ``17,606``).

Optional: ``id`` (default ``line N``), the documents (``docs``: a list, or ``doc_id`` / ``doc_name``;
none: every document of the store), and a type to group totals by (``type``, or the set's
``source_chunk_type``; else ``table`` when the evidence text is mostly figures, ``text`` when it is prose).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import TreebuildError

__all__ = ["EvalQuestion", "Evidence", "load_questions", "parse_question", "question_type", "TABLE_LINE_SHARE"]

TABLE_LINE_SHARE = 0.3
"""An evidence text whose lines are at least this share figures only (``16,388``, ``$ (1,234)``, ``36.8%``) is a
table; prose evidence has none (FinanceBench's 15 shared questions: 0.61-0.75 against 0.0)."""

_FIGURE_LINE = re.compile(r"[\s$()\d,.%\-–—]+")


@dataclass(frozen=True, slots=True)
class Evidence:
    doc_id: str | None  # None: whichever document the question is asked of
    page: int  # physical page, 1-based


@dataclass(frozen=True, slots=True)
class EvalQuestion:
    id: str
    question: str
    docs: tuple[str, ...]  # the documents to search; empty: all of the store (within the filter)
    evidence: tuple[Evidence, ...]
    answers: tuple[str, ...]  # used when there is no evidence page
    qtype: str  # "" when the line gives no type and no evidence text
    line: int


def question_type(record: dict[str, Any]) -> str:
    """``type``, else the set's ``source_chunk_type``, else ``table`` or ``text`` from the evidence text."""
    given = record.get("type") or record.get("source_chunk_type")
    if given:
        return str(given).casefold()
    lines = [line.strip() for e in record.get("evidence") or [] if isinstance(e, dict)
             for line in str(e.get("evidence_text") or "").splitlines() if line.strip()]
    if not lines:
        return ""
    figures = sum(1 for line in lines if _FIGURE_LINE.fullmatch(line))
    return "table" if figures / len(lines) >= TABLE_LINE_SHARE else "text"


def _strings(value: Any) -> tuple[str, ...]:
    items = value if isinstance(value, list) else [value]
    return tuple(str(v).strip() for v in items if v is not None and str(v).strip())


def _page(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip().isdigit() \
            or int(value) < 1:
        raise TreebuildError(f"{where}: an evidence page must be a page number of 1 or more, got {value!r}")
    return int(value)


def parse_question(record: Any, line: int, where: str) -> EvalQuestion:
    """One line's object as an :class:`EvalQuestion`; ``where`` names the file and line in errors."""
    if not isinstance(record, dict):
        raise TreebuildError(f"{where}: expected a JSON object, got {type(record).__name__}")
    question = record.get("question")
    if not isinstance(question, str) or not question.strip():
        raise TreebuildError(f"{where}: no \"question\" (a non-empty string)")
    if "docs" in record:
        docs = _strings(record["docs"])
    else:
        docs = _strings(record.get("doc_id") or record.get("doc_name"))
    evidence: list[Evidence] = []
    for item in record.get("evidence") or []:
        if isinstance(item, dict) and "evidence_page" in item:
            doc = item.get("doc_id") or item.get("doc_name")
            evidence.append(Evidence(str(doc) if doc else None, _page(item["evidence_page"], where)))
    evidence += [Evidence(None, _page(p, where)) for p in record.get("evidence_pages") or []]
    answers = _strings(record.get("answers") or record.get("answer_figures") or [])
    if not evidence and not answers and isinstance(record.get("answer"), str):
        answers = _strings(record["answer"])
    if not evidence and not answers:
        raise TreebuildError(f"{where}: nothing to measure: no evidence pages (\"evidence\", \"evidence_pages\") "
                             "and no answer strings (\"answers\", \"answer_figures\", \"answer\")")
    return EvalQuestion(id=str(record.get("id") or f"line {line}"), question=question.strip(), docs=docs,
                        evidence=tuple(dict.fromkeys(evidence)), answers=answers, qtype=question_type(record),
                        line=line)


def load_questions(path: str | Path) -> list[EvalQuestion]:
    """Every question of ``path`` (JSON lines; blank lines skipped); a bad line is an error naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TreebuildError("file not found", path=str(path), hint="check the path of the questions file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TreebuildError(f"cannot read the questions: {exc}", path=str(path)) from None
    out: list[EvalQuestion] = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        where = f"{path}:{n}"
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise TreebuildError(f"{where}: not JSON ({exc.msg} at column {exc.colno})",
                                 hint="one JSON object per line") from None
        out.append(parse_question(record, n, where))
    if not out:
        raise TreebuildError("no questions in the file", path=str(path),
                             hint='one JSON object per line, e.g. {"question": "...", "evidence_pages": [12]}')
    seen: dict[str, int] = {}
    for q in out:
        if q.id in seen:
            raise TreebuildError(f"{path}:{q.line}: id {q.id!r} is already used on line {seen[q.id]}",
                                 hint="give every question its own id")
        seen[q.id] = q.line
    return out
