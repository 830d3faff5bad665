"""The financial statements of a filing as sections: auditor's report, each statement, the notes.

A filing prints the statements either inside Item 8 (Item 1 of a 10-Q) or after the signatures;
either way they often open with their own "Index to (Consolidated) Financial Statements", a
small printed TOC with page numbers. That index is the most reliable source: its entries are
placed on the pages like a printed TOC's (``toc.place``), which finds statement titles set in the
body type and notes whose heading is not bold. Without an index, or when it does not list the
notes, the statement titles and numbered notes are taken from the headings. Notes always nest
under their "Notes to ... Financial Statements" section when there is one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...model import Line, Mark, Origin, Pos, SourceDoc
from ...text.furniture import PAGE_HEIGHT
from ...text.normalize import normalize_title, squash_spaces
from ...text.numbering import parse_numbering
from ..toc.detect import TocPages, entry_like, page_rows, right_edge, row_entry
from ..toc.pagemap import PageMap
from ..toc.parse import TocEntry, parse_rows
from ..toc.place import PageTexts, place_entries
from ..typography.headings import HEADING_CONFIDENCE, NUMBERED_CONFIDENCE, HeadingScan
from .patterns import COMPANY, STATEMENT_TITLE

__all__ = ["StatementsIndex", "find_statements_index", "statement_marks", "statements_start", "nest_notes",
           "item_children", "is_note", "NOTES_TO", "statement_title", "printed_once", "STATEMENTS_TITLE",
           "notes_from_lines", "LIST_LABEL", "NOTE_TITLE_WORDS"]

STATEMENTS_TITLE = "Financial Statements"
TOP_CHARS = 250
"""At most this much text (a company name, the Item heading, a legend) above a page-top title."""
INDEX_TITLE_LINES = 8
"""The statements index's title is among the first this many lines of its page ..."""
INDEX_MIN_ROWS = 3
"""... with at least this many "title ... page" rows under it (and on each page it runs on to)."""
FIRM_TITLE_WORDS = 3
"""An auditor's report's index title without its firm's name keeps at least this many words."""

_INDEX = re.compile(r"^(?:.{0,60}\s)?index (?:to|of) (?:the )?(?P<what>(?:consolidated |combined )?(?:condensed )?"
                    r"financial statements(?: and (?:financial statement |supplementary |supplemental )?"
                    r"(?:schedules?|data))?)$", re.IGNORECASE)
_TITLE_BLOCK = 100  # characters of bold lines (a company name) that may sit above a statement's title
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)$")
_FIRM = re.compile(r"^(?P<report>reports? of )[^,]{1,60},\s*(?P<firm>independent registered public accounting firm)",
                   re.IGNORECASE)  # "Report of KPMG LLP, Independent ...": the firm's name is not in the body's title
NOTES_TO = re.compile(rf"^{COMPANY}notes? to (?:the )?(?:condensed )?(?:consolidated |combined )?(?:condensed )?"
                       r"financial statements", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class StatementsIndex:
    """An index page (and its continuation pages) of the financial statements."""

    pages: list[int]
    title_row: int  # index of the title row in ``page_rows`` of the first page
    title: str  # "Financial Statements", "Consolidated Financial Statements"



def statement_title(title: str) -> bool:
    """``Consolidated Balance Sheets``, ``STATEMENTS OF CASH FLOWS``, an auditor's report: a statement's title."""
    return bool(STATEMENT_TITLE.match(title))


def is_note(title: str) -> bool:
    """``Note 4 - Revenue``, ``NOTE 12.``, ``4. Revenue``: a numbered note of the statements."""
    n = parse_numbering(title)
    return n is not None and (n.kind == "note" or (n.kind == "decimal" and n.depth == 1))


def _note_number(title: str) -> int | None:
    n = parse_numbering(title)
    if n is None or not n.parts or not is_note(title):
        return None
    try:
        return int(n.parts[0])
    except ValueError:
        return None


def _content(doc: SourceDoc, unit: int, furniture: set[tuple[int, int]]) -> list[tuple[int, Line]]:
    return [(j, ln) for j, ln in enumerate(doc.lines(unit)) if (unit, j) not in furniture and squash_spaces(ln.text)]


def _entry_rows(doc: SourceDoc, unit: int) -> tuple[int, int]:
    """(rows read as "title ... page" entries, all rows) of a page."""
    rows = page_rows(doc, unit)
    edge = right_edge(rows)
    return sum(1 for r in rows if entry_like(row_entry(r, edge), r)), len(rows)


def find_statements_index(doc: SourceDoc, units: range, furniture: set[tuple[int, int]]) -> StatementsIndex | None:
    """The first "Index to (Consolidated) Financial Statements" page of ``units``: its title near the
    top of the page and at least three "title ... page" rows under it (a mention in running text,
    or Item 15's list of what is filed, is not one)."""
    for u in units:
        before = 0
        for _, ln in _content(doc, u, furniture)[:INDEX_TITLE_LINES]:
            text = squash_spaces(ln.text)
            m = _INDEX.match(text)
            if m is None:
                before += len(text)
                if before > TOP_CHARS:
                    break
                continue
            rows = page_rows(doc, u)
            idx = next((i for i, r in enumerate(rows)
                        if squash_spaces(r.text).casefold().endswith(text.casefold())), None)
            if idx is None:
                break
            edge = right_edge(rows)
            if sum(1 for r in rows[idx + 1:] if entry_like(row_entry(r, edge), r)) < INDEX_MIN_ROWS:
                break
            pages = [u]
            while pages[-1] + 1 < len(doc.units):
                got, total = _entry_rows(doc, pages[-1] + 1)
                if got < INDEX_MIN_ROWS or got < 0.5 * total:
                    break
                pages.append(pages[-1] + 1)
            what = m.group("what")
            return StatementsIndex(pages, idx, what[:1].upper() + what[1:])
    return None


def _snap(doc: SourceDoc, pos: Pos, furniture: set[tuple[int, int]]) -> Pos:
    """A title with nothing but page furniture (or a company name in bold) above it on its page
    owns the page from its top.

    Above means higher on the page, not earlier in the text: a page title that the PDF's text
    order puts after the body ("NOTES TO CONSOLIDATED FINANCIAL STATEMENTS" printed at the top,
    stored last) still opens its page.
    """
    if pos.char == 0:
        return pos
    lines = doc.lines(pos.unit)
    own = next((ln for ln in lines if ln.char <= pos.char < ln.char + max(1, len(ln.text))), None)
    if own is None:
        return pos
    above = 0
    for j, ln in enumerate(lines):
        if ln is own or (pos.unit, j) in furniture or not squash_spaces(ln.text):
            continue
        if ln.y1 <= own.y0 + 1 or (ln.char < pos.char and ln.y0 < own.y1):
            if not ln.bold:
                return pos  # body text above it
            above += len(squash_spaces(ln.text))
    # only furniture, or a short bold title block ("The Boeing Company and Subsidiaries"), above it
    return Pos(pos.unit, 0) if above <= _TITLE_BLOCK else pos


def _finder(texts: PageTexts, entry: TocEntry, body: range) -> Callable[[], int | None]:
    title = normalize_title(entry.title)
    return lambda: texts.first_line_start(title, body, set())


def _index_entries(doc: SourceDoc, index: StatementsIndex, end: Pos,
                   furniture: set[tuple[int, int]]) -> list[tuple[str, int, Pos, float]]:
    """(title, printed level, position, confidence) of the index entries found after the index."""
    rows = {u: page_rows(doc, u) for u in index.pages}
    toc = TocPages(pages=index.pages, rows=rows, heights={u: doc.units[u].height or PAGE_HEIGHT for u in index.pages},
                   paged=True, first_row=index.title_row + 1)
    entries = [e for e in parse_rows(toc) if not re.fullmatch(r"(?i)pages?(?: no\.?)?", e.title.strip())]
    if not entries:
        return []
    for e in entries:  # "Report of ... Firm (KPMG LLP, Santa Clara, PCAOB ID 185)": the body prints no firm
        bare = _FIRM.sub(r"\g<report>\g<firm>", _TRAILING_NOTE.sub("", e.title))
        if len(bare.split()) >= FIRM_TITLE_WORDS:
            e.title = bare
    last = index.pages[-1]
    texts = PageTexts(doc)
    pagemap = PageMap(doc, after=last)
    body = range(last + 1, min(end.unit + 1, len(doc.units)))
    if pagemap.needs_offset(e.page for e in entries if e.page):
        pagemap.vote_offsets((e.page or "", _finder(texts, e, body)) for e in entries if e.page)
    placements = place_entries(doc, entries, index.pages, pagemap, texts, span=max(1, len(body)))
    return [(p.entry.title, p.entry.level, _snap(doc, p.pos, furniture), p.confidence) for p in placements
            if p.pos is not None and last < p.pos.unit and p.pos < end]


def _heading_entries(scan: HeadingScan, start: Pos, end: Pos) -> list[tuple[str, Pos, float]]:
    """Statement, report, "Notes to ..." and numbered-note headings of ``[start, end)`` in order,
    notes only with rising numbers (a statement title printed again as its statement goes on is left to
    ``printed_once``)."""
    out: list[tuple[str, Pos, float]] = []
    last_note = 0
    seen_notes_to = False
    for h in scan.headings:
        pos = Pos(h.unit, h.char)
        if pos < start or pos >= end:
            continue
        if NOTES_TO.match(h.title):
            if not seen_notes_to:
                out.append((h.title, pos, HEADING_CONFIDENCE))
                seen_notes_to = True
            continue
        if STATEMENT_TITLE.match(h.title):
            out.append((h.title, pos, HEADING_CONFIDENCE))
            continue
        number = _note_number(h.title)
        if number is not None and number > last_note:
            last_note = number
            out.append((h.title, pos, NUMBERED_CONFIDENCE))
    return out


def statements_start(scan: HeadingScan, start: Pos, end: Pos) -> Pos | None:
    """Where an unindexed statements block starts in ``(start, end)``: the first statement or
    auditor's report heading, when another follows on a later page (statements named one under the
    other on a page are a list of what is filed, not the statements)."""
    hits = [Pos(h.unit, h.char) for h in scan.headings if start < Pos(h.unit, h.char) < end
            and STATEMENT_TITLE.match(h.title)]
    return hits[0] if len({p.unit for p in hits}) >= 2 else None


def statement_marks(doc: SourceDoc, scan: HeadingScan, start: Pos, end: Pos, index: StatementsIndex | None,
                    base: int) -> list[Mark]:
    """Sections of a statements block ``[start, end)`` one level below ``base``: the index's entries
    (with the numbered notes from the headings when the index does not list them), or without an
    index the statement and note headings; notes nest under "Notes to ..."."""
    marks: list[Mark] = []
    if index is not None:
        placed = _index_entries(doc, index, end, scan.furniture)
        if placed:
            top = min(level for _, level, _, _ in placed)
            marks = [Mark(t, base + 1 + level - top, pos, Origin.toc, conf) for t, level, pos, conf in placed]
            if not any(is_note(m.title) for m in marks):
                notes_to = next((m for m in marks if NOTES_TO.match(m.title)), None)
                after = notes_to.pos if notes_to is not None else max(m.pos for m in marks)
                level = (notes_to.level + 1) if notes_to is not None else base + 1
                marks += [Mark(t, level, pos, Origin.numbering, conf)
                          for t, pos, conf in _heading_entries(scan, after, end) if is_note(t) and pos >= after]
    if not marks:
        marks = [Mark(t, base + 1, pos, Origin.numbering if is_note(t) else Origin.heading, conf)
                 for t, pos, conf in _heading_entries(scan, start, end)]
    marks.sort(key=lambda m: m.pos)
    return nest_notes(printed_once(marks))


def printed_once(marks: list[Mark]) -> list[Mark]:
    """``marks`` without a statement's title printed again before any other section starts: a balance
    sheet's liabilities page under the same ``Consolidated Balance Sheets`` title is the statement
    continued, one section (its second half used to be a second ``Consolidated Balance Sheets``)."""
    out: list[Mark] = []
    for m in marks:
        prev = out[-1] if out else None
        if prev is not None and STATEMENT_TITLE.match(m.title) and m.level == prev.level \
                and normalize_title(m.title) == normalize_title(prev.title):
            continue
        out.append(m)
    return out


def item_children(marks: list[Mark], level: int) -> list[Mark]:
    """Marks inside the statements' Item (at ``level``) with each statement and the notes' section
    as the Item's own children: a statement heading that follows a statement the printed TOC lists
    is its sibling, not its sub-section (the notes' section used to sink under the cash flows
    statement, and every note with it). Numbered notes after the notes' section sit one below it."""
    out: list[Mark] = []
    notes = False
    for m in marks:
        if STATEMENT_TITLE.match(m.title) or NOTES_TO.match(m.title):
            notes = bool(NOTES_TO.match(m.title))
            m = Mark(m.title, level + 1, m.pos, m.origin, m.confidence)
        elif notes and is_note(m.title):
            m = Mark(m.title, level + 2, m.pos, m.origin, m.confidence)
        out.append(m)
    return out


def nest_notes(marks: list[Mark]) -> list[Mark]:
    """Numbered notes printed at the level of their "Notes to ... Financial Statements" section
    (and what nests under them) are moved one level below it."""
    out: list[Mark] = []
    notes_level: int | None = None
    shifting = False
    for m in marks:
        if notes_level is not None and m.level < notes_level:
            notes_level, shifting = None, False
        if NOTES_TO.match(m.title):
            notes_level, shifting = m.level, False
            out.append(m)
            continue
        if notes_level is not None and m.level == notes_level:
            shifting = is_note(m.title)
            if not shifting:
                notes_level = None
        if shifting:
            m = Mark(m.title, m.level + 1, m.pos, m.origin, m.confidence)
        out.append(m)
    return out


NOTE_SERIES = 2
"""Numbered notes read from the lines only when they print a series (``Note 1``, ``Note 2`` ...)."""
NOTE_TITLE_WORDS = 20
"""A note's title line holds at most this many words (a sentence naming ``Note 3`` is longer)."""
LIST_LABEL = re.compile(r"^\(?[a-z]\)\s*")  # "f) Notes to Financial Statements": a contents' list label
_NOTE_SEPARATOR = re.compile(r"\s*[—–:.-]")  # "NOTE 1 — ACCOUNTING POLICIES", not "Note 3 describes ..."


def notes_from_lines(doc: SourceDoc, marks: list[Mark], furniture: set[tuple[int, int]]) -> list[Mark]:
    """``marks`` plus the numbered notes of a ``Notes to ... Financial Statements`` section that holds
    none, read from its lines: a line opening its block with ``Note N`` (the form's own word, not a bare
    number), the number set off from the title by a dash, colon or stop, a title and no sentence, the
    numbers rising one by one from ``Note 1``, at least ``NOTE_SERIES`` of them. A 10-Q prints its
    notes' titles in the body's type (``NOTE 1 — ACCOUNTING POLICIES`` in plain capitals) or smaller
    than the filing's text (8 points, bold, under a 9-point exhibit), which the heading scan does not
    read as headings. ``See Note 3`` inside a paragraph does not open a line; a line that does
    (``Note 3 describes ...``) has no dash after the number, or breaks the series."""
    order = sorted(marks, key=lambda m: m.pos)
    added: list[Mark] = []
    for i, m in enumerate(order):
        if not NOTES_TO.match(LIST_LABEL.sub("", m.title)):
            continue
        end = next((e.pos for e in order[i + 1:] if e.level <= m.level), Pos(1 << 30, 0))
        if any(is_note(e.title) for e in order[i + 1:] if e.pos < end):
            continue
        found = _note_lines(doc, m.pos, end, furniture)
        if len(found) >= NOTE_SERIES:
            added += [Mark(t, m.level + 1, pos, Origin.numbering, NUMBERED_CONFIDENCE) for t, pos in found]
    return sorted(order + added, key=lambda m: m.pos) if added else marks


def _note_lines(doc: SourceDoc, start: Pos, end: Pos, furniture: set[tuple[int, int]]) -> list[tuple[str, Pos]]:
    out: list[tuple[str, Pos]] = []
    for u in range(start.unit, min(end.unit + 1, len(doc.units))):
        lines = doc.lines(u)
        for j, ln in enumerate(lines):
            pos = Pos(u, ln.char)
            if not (start < pos < end) or (u, j) in furniture or (j > 0 and lines[j - 1].block == ln.block):
                continue
            title = squash_spaces(ln.text)
            n = parse_numbering(title)
            if n is None or n.kind != "note" or not n.rest or len(title.split()) > NOTE_TITLE_WORDS \
                    or title.endswith(".") or not _NOTE_SEPARATOR.match(title[len(n.label):]) \
                    or _note_number(title) != len(out) + 1:
                continue
            out.append((title, pos))
    return out
