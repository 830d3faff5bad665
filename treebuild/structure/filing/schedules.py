"""The financial statement schedules a 10-K prints after its signatures (Regulation S-X, Article 12).

After the signature page a 10-K may print its schedules: ``Schedule I - Condensed Financial
Information of Registrant`` (the parent's own balance sheet, statements and notes, one page each)
and ``Schedule II - Valuation and Qualifying Accounts``, often behind an ``Index to Financial
Statement Schedules`` page and the auditor's report on them. Every such page opens with a title
block (the company's name, the schedule's label and name, the statement or notes it holds, the
period), and the heading scan reads that block as one heading
(``SCHEDULE I CONDENSED FINANCIAL INFORMATION OF PARENT BALANCE SHEETS DECEMBER 31, 2020 AND``),
one per page, nested under the Signatures. Here the block is read line by line instead:

- ``Financial Statement Schedules``: a top-level section from the schedules' index page, the
  auditor's report printed right before the first schedule, or the first schedule page (a lone
  schedule is top-level itself);
- one section per schedule label (``Schedule I``, ``Schedule II``), titled with its label and name
  (the company's name and the period lines are not part of it);
- inside a schedule, the statement or notes each page opens with (``Balance Sheets``, ``Notes to
  Schedule I``) once per title, and the numbered notes under the notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model import Line, Mark, Origin, Pos, SourceDoc
from ...text.normalize import squash_spaces
from ...text.patterns import is_page_number
from ..heuristics import HEURISTICS as H
from ..typography.headings import NUMBERED_CONFIDENCE
from .confidence import LAID_OUT, SCHEDULE_PART
from .items import form_label
from .patterns import AUDITOR_REPORT, COMPANY_LINE, PERIOD_LINE
from .statements import TOP_CHARS, is_note, statement_title

__all__ = ["SCHEDULES_TITLE", "schedule_marks", "find_schedules"]

SCHEDULES_TITLE = "Financial Statement Schedules"

_INDEX = re.compile(r"^index (?:to|of) (?:the )?(?:consolidated )?(?:financial statement )?schedules?$", re.IGNORECASE)
_REPORT = re.compile(rf"^{AUDITOR_REPORT}", re.IGNORECASE)
_NOTES = re.compile(r"^notes? to\b", re.IGNORECASE)


def _titled(ln: Line) -> bool:
    letters = [c for c in ln.text if c.isalpha()]
    return ln.bold or (len(letters) >= 2 and sum(c.isupper() for c in letters) >= H.caps_share * len(letters))


@dataclass(frozen=True, slots=True)
class _PageTitle:
    """What a schedules page opens with."""

    kind: str  # "label" (a schedule page), "report" (the auditor's report), "index"
    label: str = ""  # "I", "II"
    name: str = ""  # "SCHEDULE II VALUATION AND QUALIFYING ACCOUNTS"
    part: str = ""  # "BALANCE SHEETS", "NOTES TO SCHEDULE I"
    part_char: int = 0


def _top_lines(doc: SourceDoc, unit: int, furniture: set[tuple[int, int]]) -> list[Line]:
    """The page's leading title lines (bold or capitals), after the furniture and folios (a folio
    printed at the foot may come first in the page's text). A report's title or a schedule's label
    repeated atop several pages is furniture to the page texts, but here it is the title."""
    out: list[Line] = []
    for j, ln in enumerate(doc.lines(unit)):
        text = squash_spaces(ln.text)
        if not text or is_page_number(text) or \
                ((unit, j) in furniture and not (_REPORT.match(text) or form_label(text, "schedule"))):
            continue
        if not _titled(ln) or len(out) >= H.schedule_title_lines:
            break
        out.append(ln)
    return out


def _page_title(doc: SourceDoc, unit: int, furniture: set[tuple[int, int]]) -> _PageTitle | None:
    """The schedule label, name and part a page opens with; an auditor's report or an index of
    schedules at its top; ``None`` for any other page."""
    lines = _top_lines(doc, unit, furniture)
    texts = [squash_spaces(ln.text) for ln in lines]
    k = next((i for i, t in enumerate(texts) if form_label(t, "schedule")), None)
    if k is None:
        first = next((t for t in texts if not COMPANY_LINE.search(t)), "")
        if _REPORT.match(first):
            return _PageTitle("report", name=first)
        return _PageTitle("index") if _INDEX.match(first) else None
    if sum(len(t) for t in texts[:k]) > TOP_CHARS or not all(COMPANY_LINE.search(t) for t in texts[:k]):
        return None
    m = form_label(texts[k], "schedule")  # Regulation S-X numbers its schedules in Roman numerals
    assert m is not None
    name, part, part_char = m.rest, "", 0
    for ln, text in zip(lines[k + 1:], texts[k + 1:], strict=True):
        if PERIOD_LINE.match(text):
            break
        if statement_title(text) or _NOTES.match(text):
            part, part_char = text, ln.char
            break
        if not name and not COMPANY_LINE.search(text):
            name = text
    return _PageTitle("label", m.parts[0].upper(), f"{texts[k]} {name}".strip() if not m.rest else texts[k],
                      part, part_char)


def find_schedules(doc: SourceDoc, units: range, furniture: set[tuple[int, int]]) -> tuple[int, int] | None:
    """(first, last) page of the schedules in ``units``: from the first page opening with a schedule
    label among the first ``H.schedule_window`` pages (or the index of schedules or auditor's report
    printed right before it) to the last schedule page of the run (pages without a title block
    between them continue a schedule)."""
    first = next((u for u in units[:H.schedule_window] if (t := _page_title(doc, u, furniture)) is not None
                  and t.kind == "label"), None)
    if first is None:
        return None
    last, gap = first, 0
    for u in range(first + 1, units.stop):
        t = _page_title(doc, u, furniture)
        if t is not None and t.kind == "label":
            last, gap = u, 0
        elif t is not None or gap >= H.schedule_run_on:
            break
        else:
            gap += 1
    start = first
    while start - 1 in units and first - start < 2 and (t := _page_title(doc, start - 1, furniture)) is not None \
            and t.kind in ("index", "report"):
        start -= 1
    return start, last


def _notes(doc: SourceDoc, start: Pos, end: Pos, furniture: set[tuple[int, int]], level: int) -> list[Mark]:
    """Numbered notes (bold, rising numbers) in ``[start, end)``."""
    out: list[Mark] = []
    last = 0
    for u in range(start.unit, min(end.unit + 1, len(doc.units))):
        for j, ln in enumerate(doc.lines(u)):
            text = squash_spaces(ln.text)
            pos = Pos(u, ln.char)
            if (u, j) in furniture or not ln.bold or len(text) > H.schedule_note_chars or not start < pos < end \
                    or not is_note(text):
                continue
            number = int(m.group()) if (m := re.search(r"[0-9]+", text)) else 0
            if number > last:
                last = number
                out.append(Mark(text, level, pos, Origin.numbering, NUMBERED_CONFIDENCE))
    return out


def schedule_marks(doc: SourceDoc, start: int, end: Pos, furniture: set[tuple[int, int]]) -> list[Mark]:
    """Marks of the schedules block from page ``start`` to ``end``: the block at level 1, each
    auditor's report and schedule at level 2, a schedule's statements and notes at level 3, its
    numbered notes at level 4. A block that is one schedule (no index page, no report) is that
    schedule at level 1: a group of one is no group."""
    marks = [Mark(SCHEDULES_TITLE, 1, Pos(start, 0), Origin.filing, LAID_OUT)]
    label, part = "", ""
    notes_from: Pos | None = None
    for u in range(start, end.unit if end.char == 0 else end.unit + 1):
        title = _page_title(doc, u, furniture)
        if title is None:
            continue
        if title.kind == "report":
            marks.append(Mark(title.name, 2, Pos(u, 0), Origin.filing, LAID_OUT))
            label, part = "", ""
        if title.kind != "label":
            continue
        if title.label != label:
            marks.append(Mark(title.name, 2, Pos(u, 0), Origin.filing, LAID_OUT))
            label, part = title.label, ""
        if title.part and title.part.casefold() != part.casefold():
            pos = Pos(u, title.part_char) if marks[-1].pos == Pos(u, 0) else Pos(u, 0)
            marks.append(Mark(title.part, 3, pos, Origin.filing, SCHEDULE_PART))
            part = title.part
            if _NOTES.match(part) and notes_from is None:
                notes_from = Pos(u, title.part_char)
    if notes_from is not None:
        marks += _notes(doc, notes_from, end, furniture, 4)
        marks.sort(key=lambda m: m.pos)
    if sum(1 for m in marks if m.level == 2) == 1 and marks[1:] and marks[1].pos.unit == start:
        return [Mark(m.title, m.level - 1, m.pos, m.origin, m.confidence) for m in marks[1:]]
    return marks
