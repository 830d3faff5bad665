"""The sections of a filing that Part/Item detection leaves alone: what follows the last Item
(Signatures, financial statements printed at the end, the exhibits) and the statements inside
the Item that holds them.

Part/Item detection ends with the last Item, so everything after it used to nest under that Item
("Item 16. Form 10-K Summary" spanning a hundred pages of statements, notes and plan documents).
A filing's tail has a fixed vocabulary, so it is read by pattern and given top-level sections:

- ``Signatures``: the heading that opens the signature page after the last Item;
- the financial statements when they sit at the end: from their own "Index to Financial
  Statements" page or, without one, from the statement and numbered-note headings
  (``statements``);
- ``Exhibits``: one child per exhibit, found as an exhibit label ("Exhibit 10.40", "EXHIBIT 31.1")
  at the top of a page and titled with the lines printed under it. An exhibit's own headings
  (``ARTICLE ONE``, ``4.2 Company Allocations``) are read with the exhibit's own body size, not
  the filing's, and nest inside it.

Statements inside an Item (Item 8 of a 10-K, Item 1 of a 10-Q) stay there: when the Item opens
with an index page its sections are rebuilt from it; otherwise the statement and note headings
the Item's sections lack are added, and the notes nest under their "Notes to ..." section. Marks
between the last Item and its tail stay as they were.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ...model import Line, Mark, Origin, Pos, SourceDoc
from ...text.furniture import PAGE_HEIGHT
from ...text.normalize import squash_spaces
from ..combine import same_heading
from ..heuristics import HEURISTICS as H
from ..toc.detect import listing_page
from ..typography.headings import HEADING_CONFIDENCE, NUMBERED_CONFIDENCE, HeadingScan, body_text_like, scan_headings
from .confidence import FORM, LAID_OUT
from .items import SecHeading
from .schedules import find_schedules, schedule_marks
from .statements import (
    STATEMENTS_TITLE,
    TOP_CHARS,
    find_statements_index,
    item_children,
    nest_notes,
    printed_once,
    statement_marks,
    statements_start,
)
from .title_block import statement_title_block

__all__ = ["Exhibit", "find_exhibits", "find_signatures", "restructure_filing", "EXHIBITS_TITLE",
           "SIGNATURES_TITLE"]

EXHIBITS_TITLE = "Exhibits"
SIGNATURES_TITLE = "Signatures"
_TOP_SHARE = 0.35  # a page-top label sits in this top share of the page
_MIN_INNER_PAGES = 3  # shorter exhibits (consents, certifications) are read whole
CELL_GAP = 4
"""Points of blank beside a line beyond which other text at its height is a cell of the same row."""
LABEL_LINES = 6
"""An exhibit's label is among the first this many lines of its page ..."""
REFERENCE_CHARS = 120
"""... and a label followed by more text than this on its line is a sentence that refers to an exhibit."""
INDEX_LABELS = 3
"""A page that prints this many exhibit labels is an exhibit index, not an exhibit."""
TITLE_LINES = 3
"""An exhibit's name is the rest of its label's line, else up to this many title lines under it ..."""
TITLE_TOP = 0.5
"""... in the page's upper part (this share of its height) ..."""
TITLE_CHARS = 150
"""... and no longer than this in all."""
INNER_NUMBERED = 4
"""An exhibit with this many numbered articles or sections is divided by them alone."""

_EXHIBIT = re.compile(r"^(?:exhibit|ex\.?)\s*[-\u2013\u2014]?\s*(?P<num>[0-9]{1,3}(?:\.[0-9]{1,3}){0,2}"
                      r"(?:\([a-z0-9]{1,3}\))?[a-z]?)\b\s*[.:\-\u2013\u2014]?\s*(?P<rest>.*)$", re.IGNORECASE)
_SIGNATURES = re.compile(r"^signatures?\s*[.:]?$", re.IGNORECASE)
_QUALIFIER = re.compile(r"^\(?\s*(?:as amended|amended and restated|as restated|effective|dated|amendment no|"
                        r"restated)\b", re.IGNORECASE)
_STATEMENTS_ITEM = re.compile(r"\bfinancial statements\b", re.IGNORECASE)
_INNER_KINDS = {"article", "section", "chapter", "part", "decimal", "appendix"}


@dataclass(frozen=True, slots=True)
class Exhibit:
    """An exhibit found at the top of a page: its number, title and where its text starts."""

    label: str  # "10.40", "31.1"
    title: str  # "Exhibit 10.40 CORNING INCORPORATED SUPPLEMENTAL INVESTMENT PLAN"
    pos: Pos
    title_end: int  # char offset on the start page just past the title lines



def _caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and sum(c.isupper() for c in letters) >= H.caps_share * len(letters)


def _content_lines(doc: SourceDoc, unit: int, furniture: set[tuple[int, int]]) -> list[tuple[int, Line]]:
    return [(j, ln) for j, ln in enumerate(doc.lines(unit)) if (unit, j) not in furniture and squash_spaces(ln.text)]


def _alone(line: Line, lines: Iterable[tuple[int, Line]]) -> bool:
    """No other text at the same height: not a cell of a table row ("Signature  Capacity")."""
    for _, other in lines:
        if other is line:
            continue
        overlap = min(other.y1, line.y1) - max(other.y0, line.y0)
        if overlap > 0.5 * min(other.y1 - other.y0, line.y1 - line.y0) and \
                (other.x0 > line.x1 + CELL_GAP or other.x1 < line.x0 - CELL_GAP):
            return False
    return True


def _under(line: Line, above: Line) -> bool:
    """``line`` continues the title line ``above``: it overlaps it across the page (a column header
    at the right of a centred title does not)."""
    return min(line.x1, above.x1) > max(line.x0, above.x0)


def _height(doc: SourceDoc, unit: int) -> float:
    return doc.units[unit].height or PAGE_HEIGHT


def _exhibit_title(lines: list[tuple[int, Line]], k: int, label_line: Line, rest: str,
                   height: float) -> tuple[str, int]:
    """The exhibit's name: the rest of its label line, else up to three title lines under it
    (bold or capitals, alone on their row, each line after the first set under the one before it;
    "(As Amended ...)", body text and a table's column header beside the title end it)."""
    end = label_line.char + len(label_line.text)
    if rest:
        return rest, end
    parts: list[str] = []
    above: Line | None = None
    for _, ln in lines[k + 1:k + 1 + TITLE_LINES]:
        text = squash_spaces(ln.text)
        if ln.y0 > height * TITLE_TOP or len(text) > H.title_line_chars or _QUALIFIER.match(text) \
                or _EXHIBIT.match(text) or not _alone(ln, lines) or (above is not None and not _under(ln, above)):
            break
        if not (ln.bold or _caps(text)) or text.endswith(":"):
            break
        parts.append(text)
        above = ln
        end = ln.char + len(ln.text)
        if sum(len(p) for p in parts) > TITLE_CHARS:
            break
    return " ".join(parts).rstrip(",;: "), end


def find_exhibits(doc: SourceDoc, units: range, furniture: set[tuple[int, int]]) -> list[Exhibit]:
    """Exhibits that start on ``units``: a numbered exhibit label alone on its row near the top of
    a page with little text above it. A label repeated on later pages (a running head) counts once;
    lettered attachments of a plan ("Exhibit A") are part of that plan."""
    out: list[Exhibit] = []
    seen: set[str] = set()
    for u in units:
        lines = _content_lines(doc, u, furniture)
        if sum(1 for _, ln in lines if _EXHIBIT.match(squash_spaces(ln.text))) >= INDEX_LABELS:
            continue  # an exhibit index (Item 15's list), not an exhibit
        height = _height(doc, u)
        before = 0
        for k, (_, ln) in enumerate(lines[:LABEL_LINES]):
            text = squash_spaces(ln.text)
            m = _EXHIBIT.match(text)
            if m is not None and ln.y0 < height * _TOP_SHARE and _alone(ln, lines):
                rest = m.group("rest").strip()
                label = m.group("num")
                if rest and (rest[0].islower() or len(rest) > REFERENCE_CHARS):
                    break  # "Exhibit 10.1 to the Company's Form 8-K ...": a reference
                if label.casefold() not in seen:
                    seen.add(label.casefold())
                    name, end = _exhibit_title(lines, k, ln, rest, height)
                    head = squash_spaces(text[: m.start("rest")]).rstrip(".:-\u2013\u2014 ") if rest else text
                    title = f"{head} {name}".strip()
                    out.append(Exhibit(label, title, Pos(u, 0), end))  # a legend above belongs to it
                break
            before += len(text)
            if before > TOP_CHARS:
                break
    return out


def find_signatures(doc: SourceDoc, start: Pos, end: Pos,
                    furniture: set[tuple[int, int]]) -> tuple[Pos, str] | None:
    """The first "Signatures" heading in ``[start, end)`` (alone on its row, opening its block) and
    its printed title."""
    for u in range(start.unit, min(end.unit + 1, len(doc.units))):
        lines = _content_lines(doc, u, furniture)
        prev: Line | None = None
        for _, ln in lines:
            pos = Pos(u, ln.char)
            opens = prev is None or prev.block != ln.block or ln.y0 - prev.y1 > H.line_gap * ln.size
            prev = ln
            if pos <= start or pos >= end:
                continue
            if opens and _SIGNATURES.match(squash_spaces(ln.text)) and _alone(ln, lines) \
                    and (ln.bold or ln.text.isupper()):
                return (Pos(u, 0) if ln is lines[0][1] else pos), squash_spaces(ln.text)
    return None


def _exhibit_inner(doc: SourceDoc, ex: Exhibit, end: Pos) -> list[Mark]:
    """An exhibit's own sections, read with its own body size: numbered articles and sections when
    it has them (list items such as ``(a)`` and ``(iv)`` are not sections), else its most
    prominent heading style; at most two levels under the exhibit."""
    last = end.unit if end.char > 0 else end.unit - 1
    if last - ex.pos.unit + 1 < _MIN_INNER_PAGES:
        return []
    pages = range(ex.pos.unit, min(last, len(doc.units) - 1) + 1)
    scan = scan_headings(doc, pages, title_block=statement_title_block)
    listing = {u for u in pages if u in scan.toc_pages or listing_page(doc, u)}
    found = [h for h in scan.major() if h.unit not in listing and ex.pos < Pos(h.unit, h.char) < end
             and not (h.unit == ex.pos.unit and h.char < ex.title_end)
             and not _QUALIFIER.match(h.title) and not body_text_like(h.title) and not _EXHIBIT.match(h.title)]
    numbered = [h for h in found if h.numbering is not None and h.numbering.kind in _INNER_KINDS]
    if len([h for h in numbered if h.numbering is not None and h.numbering.kind != "decimal"]) >= 2 \
            or len(numbered) >= INNER_NUMBERED:
        found = numbered
    else:
        found = [h for h in found if h.numbering is None or h.numbering.kind in _INNER_KINDS]
        top = min((h.level for h in found), default=0)
        found = [h for h in found if h.level == top]
    levels = sorted({h.level for h in found})[:2]
    rank = {lvl: i + 1 for i, lvl in enumerate(levels)}
    return [Mark(h.title, 2 + rank[h.level], Pos(h.unit, h.char),
                 Origin.numbering if h.numbering is not None and h.numbering.kind == "decimal" else Origin.heading,
                 NUMBERED_CONFIDENCE if h.numbering is not None else HEADING_CONFIDENCE)
            for h in found if h.level in rank]


def _item_mark(marks: list[Mark], item: SecHeading) -> Mark | None:
    """The mark that starts ``item`` (from the SEC pattern, or the printed TOC's entry for it)."""
    probe = Mark(item.title, item.level, Pos(item.unit, item.char), Origin.sec)
    return next((m for m in marks if m.pos == probe.pos), None) or \
        next((m for m in marks if same_heading(m, probe)), None)


def _statement_items(doc: SourceDoc, marks: list[Mark], sec: list[SecHeading], scan: HeadingScan) -> list[Mark]:
    """Statements inside an Item titled "Financial Statements": rebuilt from the index page that
    opens the Item, else completed with the statement and note headings it lacks, the notes nested
    under their "Notes to ..." section."""
    out = marks
    for h in sec:
        if h.kind != "item" or not _STATEMENTS_ITEM.search(h.title):
            continue
        mark = _item_mark(out, h)
        if mark is None:
            continue
        level, start = mark.level, mark.pos
        end = next((m.pos for m in out if m.pos > start and m.level <= level), doc.end())
        index = find_statements_index(doc, range(h.unit, min(h.unit + 2, end.unit + 1)), scan.furniture)
        inside = [m for m in out if start < m.pos < end]
        found = statement_marks(doc, scan, start, end, index, level)
        if index is not None and len(found) >= 2:
            inside = found
        else:  # keep what the headings gave, add the statements and notes they missed
            inside += [m for m in found if not any(m.pos == o.pos or same_heading(m, o) for o in inside)]
            inside.sort(key=lambda m: m.pos)
            inside = nest_notes(item_children(printed_once(inside), level))
        out = [m for m in out if not start < m.pos < end] + inside
        out.sort(key=lambda m: m.pos)
    return out


def _schedules(doc: SourceDoc, marks: list[Mark], signatures: Pos | None, ex_start: Pos,
               furniture: set[tuple[int, int]]) -> tuple[Pos | None, Pos]:
    """(start, end) of the financial statement schedules printed after the signatures, before the
    exhibits; they end at the next top-level section after their last page (an annual report's back
    pages) or at the exhibits."""
    if signatures is None:
        return None, ex_start
    found = find_schedules(doc, range(signatures.unit + 1, ex_start.unit if ex_start.char == 0 else
                                      min(ex_start.unit + 1, len(doc.units))), furniture)
    if found is None:
        return None, ex_start
    first, last = found
    end = next((m.pos for m in marks if m.level == 1 and m.pos.unit > last and m.pos < ex_start), ex_start)
    return Pos(first, 0), end


def restructure_filing(doc: SourceDoc, marks: list[Mark], sec: list[SecHeading], scan: HeadingScan) -> list[Mark]:
    """``marks`` with the statements inside their Item sorted out and the filing's tail (after its
    last Item) as top-level sections.

    Marks inside the tail's statements block and the exhibits are replaced by the ones found here;
    marks between the last Item and the first tail section stay; an existing Signatures mark gives
    way to the one found on the page. Without Items ``marks`` is returned as is.
    """
    items = [h for h in sec if h.kind == "item"]
    if not items or not doc.paged:
        return marks
    marks = _statement_items(doc, marks, sec, scan)
    last = max(items, key=lambda h: (h.unit, h.char))
    after = Pos(last.unit, last.char)
    n = len(doc.units)
    furn = scan.furniture
    exhibits = find_exhibits(doc, range(last.unit + 1, n), furn)
    ex_start = exhibits[0].pos if exhibits else doc.end()
    found = find_signatures(doc, after, ex_start, furn)
    signatures, sig_title = found if found is not None else (None, SIGNATURES_TITLE)
    if signatures is not None:
        exhibits = [e for e in exhibits if e.pos > signatures]
        ex_start = exhibits[0].pos if exhibits else doc.end()
    sched, sched_end = _schedules(doc, marks, signatures, ex_start, furn)
    tail_end = min(ex_start, sched) if sched is not None else ex_start
    index = find_statements_index(doc, range(last.unit, min(tail_end.unit + 1, n)), furn)
    fs_title = STATEMENTS_TITLE
    if index is not None and index.pages[0] > last.unit:
        statements: Pos | None = Pos(index.pages[0], 0)
        fs_title = index.title
    else:
        index = None
        statements = statements_start(scan, after, tail_end)
    fs_end = signatures if statements is not None and signatures is not None and statements < signatures else tail_end
    fs_marks = statement_marks(doc, scan, statements, fs_end, index, 1) if statements is not None else []
    if not fs_marks:
        statements = None
    if signatures is None and statements is None and not exhibits:
        return marks
    schedules = schedule_marks(doc, sched.unit, sched_end, furn) if sched is not None else []

    def replaced(m: Mark) -> bool:
        if m.pos <= after:
            return False
        if statements is not None and statements <= m.pos < fs_end:
            return True
        if exhibits and m.pos >= ex_start:
            return True
        if sched is not None and sched <= m.pos < sched_end:
            return True
        return signatures is not None and bool(_SIGNATURES.match(m.title.strip()))

    out = [m for m in marks if not replaced(m)]
    if signatures is not None:
        out.append(Mark(sig_title, 1, signatures, Origin.sec, FORM))
    if statements is not None:
        out.append(Mark(fs_title, 1, statements, Origin.filing, LAID_OUT))
        out.extend(fs_marks)
    out.extend(schedules)
    if exhibits:
        out.append(Mark(EXHIBITS_TITLE, 1, ex_start, Origin.filing, LAID_OUT))
        for i, ex in enumerate(exhibits):
            nxt = exhibits[i + 1].pos if i + 1 < len(exhibits) else doc.end()
            out.append(Mark(ex.title, 2, ex.pos, Origin.heading, LAID_OUT))
            out.extend(_exhibit_inner(doc, ex, nxt))
    out.sort(key=lambda m: m.pos)  # stable: a block's title stays ahead of its first entry
    return out
