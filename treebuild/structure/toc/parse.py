"""Turn TOC rows into entries: title, printed page, numbering label and nesting level.

Rows are joined where the print layout split one entry: a label alone on its row ("Item 2.")
takes the next row as its title, and a long title without a page number continues on the
next row. Levels combine two signals, as a reader does: numbering (Part > Item, Chapter >
1.1 > 1.1.1, (a) > (i)) decides between numbered entries, indentation and type size between
the rest (and between numbered and unnumbered ones).
Labels are read by ``numbering.parse_numbering`` (``entry=True``: a TOC row is an entry, so only its
label is read), the parser heading detection uses: one kind, depth and rank per label.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

from ...text.furniture import PAGE_HEIGHT
from ...text.normalize import normalize_title
from ...text.numbering import Numbering, parse_numbering
from ..heuristics import HEURISTICS as H
from .detect import PAGELESS_WRAP, Cell, Row, TocPages, entry_like, margin_row, right_edge, row_entry, toc_keyword

__all__ = ["TocEntry", "parse_rows", "assign_levels", "parse_line"]

INTRO_CHARS = 100
"""A row above the first entry longer than this is an introductory paragraph (dropped with all above it) ..."""
INTRO_STOP_CHARS = 30
"""... as is one ending in a stop that is longer than this or starts in lower case."""
TITLE_INDENT = 40
"""Rows above the first entry indented more than this many points past the entries are a centred title."""
WRAP_SIZE = 0.6
"""A title's next line is set within this many points of its size."""
WRAP_WIDTH = 0.6
"""A title line filling this share of the column's width wraps onto the next row ..."""
TITLE_EDGE = 2
"""... when that row starts no more than this many points left of the title's edge."""
PARENT_POINTS = 0.5
"""An entry more than this many points larger than the next holds it (at the same indentation) ..."""
PARENT_BOLD_POINTS = 0.1
"""... as does a bold unnumbered entry over a plain one, down to this many points smaller."""



@dataclass
class TocEntry:
    title: str  # as printed, label included ("Item 1A. Risk Factors", "1.2 Scope")
    page: str | None  # printed page reference, None when the TOC gives none
    label: Numbering | None = None  # the numbering label, read by ``numbering.parse_numbering``
    level: int = 1
    x0: float = 0.0
    size: float = 0.0
    bold: bool = False
    unit: int = -1  # TOC page the entry was read from
    order: int = 0
    at: int = -1  # where on its TOC page the entry's own title is printed (a part's, above its contents)

    @property
    def bare_title(self) -> str:
        """The title without its numbering label."""
        if self.label is None:
            return self.title
        return self.label.rest.strip(" .:-–—\t") or self.title


def _label_only(text: str) -> bool:
    """A row that holds only a numbering label ("Item 2.", "PART I", "1.")."""
    label = parse_numbering(text, entry=True)
    return label is not None and not label.rest.strip(":")


def parse_line(text: str) -> TocEntry | None:
    """Parse one TOC line of plain text ("1.2 Scope ....... 4"); for tests and plain-text sources."""
    row = Row(unit=-1, cells=[Cell(text.strip(), 0.0, 0.0)], y0=0, y1=0, size=0, bold=False, char=0)
    e = row_entry(row)
    if not e.title:
        return None
    return TocEntry(title=e.title, page=e.page, label=parse_numbering(e.title, entry=True))


@dataclass
class _Raw:
    title: str
    page: str | None
    x0: float
    title_x0: float
    x1: float
    size: float
    bold: bool
    unit: int
    has_page: bool  # the row printed a page reference (or N/A): the entry ends here
    at: int = -1  # the row is the entry's own title, printed here on the TOC page (a part's)
    title_x1: float = 0.0  # where the title's words end on the row (before a page in a cell of its own)


def parse_rows(pages: TocPages) -> list[TocEntry]:
    """Entries of a detected TOC in reading order, levels assigned."""
    raws: list[_Raw] = []
    # where the page numbers end (a TOC column's right edge, not the full-width text under the TOC)
    edges = [e for rows in pages.rows.values() if (e := right_edge(rows)) is not None]
    right = max(edges) if edges else max((r.x1 for rows in pages.rows.values() for r in rows), default=0.0)
    repeated = _running_rows(pages)
    for piece in pages.piece_pages():  # a contents printed in pieces: each ends with its own last entry
        piece_raws = [r for unit in piece for r in _raw_rows(pages, unit, repeated)]
        raws.extend(_through_last_paged(piece_raws) if pages.paged else piece_raws)
    _mirror_margins(raws, pages)
    entries = _trim(_join(raws, right, pages.paged), pages.paged)
    for i, entry in enumerate(entries):
        entry.order = i
    return assign_levels(entries)


def _raw_rows(pages: TocPages, unit: int, repeated: set[str]) -> list[_Raw]:
    """The rows of TOC page ``unit`` read as entries (a list of figures under the contents ends them)."""
    rows = pages.rows[unit]
    edge = right_edge(rows)
    height = pages.heights.get(unit, PAGE_HEIGHT)
    start = pages.start_row(unit)
    part = _part_above(rows[:start - 1], unit) if start > 0 else None  # rows above the contents title
    raws: list[_Raw] = [part] if part is not None else []
    for i, r in enumerate(rows[start:], start=start):
        kind = toc_keyword(r.text)
        if kind == "list" or _numbered_list_title(r):
            break  # a list of figures/tables follows the contents on this page
        below = rows[i + 1] if i + 1 < len(rows) else None
        if kind == "toc" or _skip_row(r, height, below) or normalize_title(r.text) in repeated:
            continue
        part = _part_beside(r, unit)
        if part is not None:  # ``PART I | Item 1. | Financial Statements | 1``: the part, then its first entry
            raws.append(part)
            r = dataclasses.replace(r, cells=r.cells[1:])
        re_ = row_entry(r, edge)
        if not re_.title or not re.search(r"[^\W\d_]", re_.title):
            continue
        has_page = re_.page is not None and entry_like(re_, r) or re_.how == "na"
        page = re_.page if has_page else None
        title_x0 = r.cells[1].x0 if len(r.cells) > 1 and _label_only(r.cells[0].text) else r.x0
        title_x1 = max((c.x1 for c in r.cells[:-1]), default=r.x1) if re_.how == "cell" else r.x1
        raws.append(_Raw(re_.title, page, r.x0, title_x0, r.x1, r.size, r.bold, unit, has_page,
                         title_x1=title_x1))
    return raws


def _part_beside(r: Row, unit: int) -> _Raw | None:
    """A part's label printed in the first cell of its first entry's row (``PART I`` | ``Item 1.`` |
    ``Financial Statements`` | ``1``, a filing's contents set as a table): an entry of its own, without
    a page (it starts where its first entry does), the entries under it nesting in it."""
    if len(r.cells) < 2:
        return None
    label = parse_numbering(r.cells[0].text, entry=True)
    if label is None or label.kind != "part" or label.rest.strip(" .:-\u2013\u2014"):
        return None
    rest = parse_numbering(" ".join(c.text for c in r.cells[1:]), entry=True)
    if rest is None or rest.kind == "part":
        return None
    first = r.cells[0]
    return _Raw(first.text, None, first.x0, first.x0, first.x1, r.size, r.bold, unit, False)


def _part_above(rows: list[Row], unit: int) -> _Raw | None:
    """The part a contents lists, when its title stands right above the contents title (``Part II`` /
    ``Examples`` / ``Contents``: a part's own contents, printed at its start): an entry without a page,
    which the entries under it nest in (a part ranks above chapters and sections)."""
    for i in range(len(rows) - 1, max(-1, len(rows) - 1 - H.part_title_rows - 1), -1):
        label = parse_numbering(rows[i].text, entry=True)
        if label is None or label.kind != "part" or label.rest.strip(" .:-–—"):
            continue
        title = rows[i + 1:]
        if not title:
            return None
        r = rows[i]
        return _Raw(" ".join([r.text, *(t.text for t in title)]), None, r.x0, r.x0, max(t.x1 for t in rows[i:]),
                    max(t.size for t in rows[i:]), r.bold, unit, False, r.char)
    return None


def _numbered_list_title(row: Row) -> bool:
    """``7 List of Figures`` set as a numbered section, printed without a page: the list's own title
    (its entry in the contents above prints the page)."""
    label = parse_numbering(row.text, entry=True)
    return label is not None and row_entry(row).page is None and toc_keyword(label.rest.strip()) == "list"


def _through_last_paged(raws: list[_Raw]) -> list[_Raw]:
    """A paged TOC ends with its last row that prints a page, or with the page-less rows after it set
    like its entries (a last entry whose page the TOC left out): rows after those are the body starting
    on the TOC's last page (its first heading, paragraphs, a listing), not entries. Page-less rows
    between paged ones (part titles, wrapped titles) are kept."""
    paged = [i for i, r in enumerate(raws) if r.has_page]
    if not paged:
        return raws
    end = paged[-1] + 1
    while end < len(raws) and any(_set_alike(raws[end], raws[i]) for i in paged):
        end += 1
    return raws[:end]


def _set_alike(r: _Raw, entry: _Raw) -> bool:
    """Row ``r`` is set like TOC entry ``entry``: same type size and weight, same left edge."""
    return r.bold == entry.bold and abs(r.size - entry.size) <= H.toc_row_size_tolerance \
        and abs(r.x0 - entry.x0) <= H.indent_tolerance


def _mirror_margins(raws: list[_Raw], pages: TocPages) -> None:
    """Shift x positions of odd or even pages when the TOC is printed with mirrored margins,
    so indentation compares across pages (left pages at 36pt, right pages at 72pt).

    Mirroring moves the whole text block: the left edge of the entries and the right edge of
    everything on the page shift together. A page that merely holds deeper entries only does
    not move its right edge, and is left alone.
    """
    lefts: dict[int, float] = {}
    for r in raws:
        lefts[r.unit] = min(lefts.get(r.unit, r.x0), r.x0)
    if len({u % 2 for u in lefts}) < 2:
        return
    rights = {u: max((row.x1 for row in pages.rows.get(u, [])), default=0.0) for u in lefts}
    left = {p: min(x for u, x in lefts.items() if u % 2 == p) for p in (0, 1)}
    right = {p: max(x for u, x in rights.items() if u % 2 == p) for p in (0, 1)}
    shift = left[1] - left[0]
    if abs(shift) <= H.indent_tolerance or abs((right[1] - right[0]) - shift) > H.indent_tolerance:
        return
    for r in raws:
        if r.unit % 2 == (1 if shift > 0 else 0):
            r.x0 -= abs(shift)
            r.title_x0 -= abs(shift)
            r.x1 -= abs(shift)


def _trim(entries: list[TocEntry], paged: bool) -> list[TocEntry]:
    """Drop centred titles above the first entry and footnotes after the last one."""
    anchors = [i for i, e in enumerate(entries) if e.page is not None or e.label is not None]
    if not anchors:
        return entries
    left = min(entries[i].x0 for i in anchors)
    start = 0
    for i in range(anchors[0]):  # an introductory paragraph: drop it and all above it
        t = entries[i].title
        if len(t) > INTRO_CHARS or t.endswith((".", ";", ":")) and (len(t) > INTRO_STOP_CHARS or t[:1].islower()):
            start = i + 1
    while start < anchors[0] and entries[start].x0 > left + TITLE_INDENT:
        start += 1
    end = len(entries)
    if paged:
        last_paged = max((i for i, e in enumerate(entries) if e.page is not None), default=len(entries) - 1)
        while end - 1 > last_paged and entries[end - 1].label is None:
            end -= 1
    return entries[start:end]


def _running_rows(pages: TocPages) -> set[str]:
    """Texts of page-numberless rows printed on two or more TOC pages: running headers/footers. A page's
    first or last row counts with its digits masked (``12 | Tool 5.4 | CONTENTS``, the folio first)."""
    seen: Counter[str] = Counter()
    edges: Counter[str] = Counter()
    edge_texts: dict[str, set[str]] = {}
    for rows in pages.rows.values():
        texts = {normalize_title(r.text) for r in rows if row_entry(r).page is None}
        seen.update(t for t in texts if t)
        masked: set[str] = set()
        for r in {id(r): r for r in rows[:1] + rows[-1:]}.values():
            if (t := normalize_title(r.text)) and _WORD.search(t) and row_entry(r).page is None:
                key = _DIGITS.sub("#", t)
                masked.add(key)
                edge_texts.setdefault(key, set()).add(t)
        edges.update(masked)
    running = {t for t, c in seen.items() if c >= 2}
    return running.union(*(edge_texts[k] for k, c in edges.items() if c >= 2))


_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"[^\W\d_]{2}")


_FOOTNOTE = re.compile(r"^[\u2217*\u2020\u2021\u00a7\u00b6]\s*[^\W\d_]")
"""A footnote's text: its mark (``∗``, ``†``, ``‡``) opens the row (``∗This document describes ...``)."""


def _skip_row(row: Row, height: float, below: Row | None = None) -> bool:
    """Column headers ("Page"), folios, running headers/footers and the page's footnotes (a TOC
    that starts on the cover page has the title's footnote under it)."""
    if re.fullmatch(r"(?:page|pages|page no\.?|seite)", row.text, re.I):
        return True
    if _FOOTNOTE.match(row.text) and row_entry(row).page is None:
        return True
    return margin_row(row, height, below)


def _join(raws: list[_Raw], right: float, paged: bool = True) -> list[TocEntry]:
    """Merge label-only rows with their title and wrapped titles with their continuation."""
    out: list[TocEntry] = []
    pending: _Raw | None = None
    paged_last: _Raw | None = None  # the row of the entry just flushed, when it printed its page

    def flush(r: _Raw) -> None:
        nonlocal paged_last
        paged_last = r if r.has_page else None
        out.append(TocEntry(title=r.title, page=r.page, label=parse_numbering(r.title, entry=True), x0=r.x0,
                            size=r.size, bold=r.bold, unit=r.unit, order=len(out), at=r.at))

    for i, r in enumerate(raws):
        if pending is None and paged_last is not None and out \
                and _trails(paged_last, r, raws[i + 1] if i + 1 < len(raws) else None, right):
            out[-1].title = f"{out[-1].title} {r.title}"
            out[-1].label = parse_numbering(out[-1].title, entry=True)
            paged_last = None
            continue
        paged_last = None
        if pending is not None:
            if _label_only(pending.title) and not _label_only(r.title) \
                    and parse_numbering(r.title, entry=True) is None:
                pending = _Raw(f"{pending.title} {r.title}", r.page, pending.x0, r.title_x0, r.x1, r.size,
                               pending.bold and r.bold, pending.unit, r.has_page, title_x1=r.title_x1)
                if pending.has_page:
                    flush(pending)
                    pending = None
                continue
            if _continues_title(pending, r, raws[i + 1] if i + 1 < len(raws) else None, right, paged):
                merged = _Raw(f"{pending.title} {r.title}", r.page, pending.x0, pending.title_x0, r.x1,
                              pending.size, pending.bold, pending.unit, r.has_page, title_x1=r.title_x1)
                if merged.has_page:
                    flush(merged)
                    pending = None
                else:
                    pending = merged
                continue
            flush(pending)
            pending = None
        if r.has_page:
            flush(r)
        else:
            pending = r
    if pending is not None:
        flush(pending)
    return out


_OPEN_END = re.compile(r"(?:[,;:(\-–—/&]|\b(?:and|or|of|the|for|to|in|on|with|a|an|des|de|der|und|et))$", re.I)


def _continues_title(prev: _Raw, r: _Raw, after: _Raw | None, right: float, paged: bool = True) -> bool:
    """Is row ``r`` the second line of ``prev``'s title rather than an entry of its own?

    It is when ``prev`` ends open ("... and", "Suggests,"), or runs near the right margin, or
    when ``r`` is a single indented line (the row after it does not line up with it): a parent
    entry without a page has several children in a column, a wrapped title one continuation.
    """
    if parse_numbering(r.title, entry=True) is not None or r.x0 < prev.x0 - 1 or r.unit != prev.unit:
        return False
    if abs(r.size - prev.size) > WRAP_SIZE:
        return False
    if _OPEN_END.search(prev.title):
        return True
    span = right - prev.x0
    if not r.has_page:  # in a contents without pages, a row that ran to the column's right edge wrapped
        return _middle_line(prev, r, after) or not paged and span > 0 and r.x0 >= prev.x0 - 1 \
            and prev.x1 - prev.x0 >= PAGELESS_WRAP * span
    if span > 0 and (prev.x1 - prev.x0) >= WRAP_WIDTH * span and r.x0 >= prev.title_x0 - TITLE_EDGE:
        return True
    alone = after is None or after.unit != r.unit or abs(after.x0 - r.x0) > 1.0
    return alone and r.x0 > prev.x0 + 1 and r.bold == prev.bold and not prev.title.endswith((".", ":", "!", "?"))


def _trails(entry: _Raw, r: _Raw, after: _Raw | None, right: float) -> bool:
    """Row ``r``, printed without a page under an entry that printed one, ends that entry's title
    wrapped under the row that holds the page (``Item 5.`` | ``Market for ... of Equity`` | ``18`` /
    ``Securities``): in its type, under the title's words (not at the entries' left edge), not
    numbered, the title's line filled to the page column, and the row after it starts left of it
    (at the next entry's label). A page-less row over rows aligned with it or indented under it is
    a group's title."""
    if r.has_page or r.unit != entry.unit or r.bold != entry.bold or abs(r.size - entry.size) > WRAP_SIZE:
        return False
    if parse_numbering(r.title, entry=True) is not None \
            or not entry.title_x0 - TITLE_EDGE <= r.x0 <= entry.title_x0 + H.hanging_indent:
        return False
    if r.x0 <= entry.x0 + TITLE_EDGE:  # at the entries' own left edge: an entry of its own
        return False
    span = right - entry.title_x0
    if span <= 0 or entry.title_x1 - entry.title_x0 < WRAP_WIDTH * span:
        return False
    return after is None or after.unit != r.unit or after.x0 < r.x0 - TITLE_EDGE


def _middle_line(prev: _Raw, r: _Raw, after: _Raw | None) -> bool:
    """Row ``r`` is the middle line of a title wrapped over three lines (``7.2 Reading a
    configuration`` / ``file from a second location and merg-`` / ``ing it ... 56``): set at the title's left
    edge or hanging a little past it, filled about as wide as the first line, and the row after it,
    aligned with it and not numbered, ends the entry with its page."""
    if after is None or after.unit != r.unit or not after.has_page or abs(after.x0 - r.x0) > 1.0:
        return False
    if not prev.title_x0 - TITLE_EDGE <= r.x0 <= prev.title_x0 + H.hanging_indent or r.bold != prev.bold:
        return False
    return r.x1 - r.x0 >= H.middle_line_width * (prev.x1 - prev.title_x0) \
        and parse_numbering(after.title, entry=True) is None


def _can_parent(p: TocEntry, e: TocEntry) -> bool:
    if p.label is not None and e.label is not None:
        # equal ranks nest only by indentation: "(i)" under "(a)" is a roman clause, not letter i
        return p.label.rank < e.label.rank or p.label.rank == e.label.rank and e.x0 > p.x0 + H.indent_tolerance
    if e.x0 > p.x0 + H.indent_tolerance:
        return True
    if e.x0 < p.x0 - H.indent_tolerance:
        return False
    if p.size > e.size + PARENT_POINTS:
        return True
    return p.bold and not e.bold and p.size >= e.size - PARENT_BOLD_POINTS and p.label is None and e.label is None


def assign_levels(entries: list[TocEntry]) -> list[TocEntry]:
    """Nest entries with a stack: an entry goes under the nearest earlier one that can contain it."""
    stack: list[TocEntry] = []
    for e in entries:
        while stack and not _can_parent(stack[-1], e):
            stack.pop()
        e.level = len(stack) + 1
        stack.append(e)
    return entries
