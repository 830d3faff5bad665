"""Find the pages of a printed table of contents.

PDF text lines of a TOC come apart: the title, its dot leader and its page number are often
separate lines at the same height. ``page_rows`` glues them back into visual rows (and splits
two-column layouts), ``row_entry`` reads one row as "title ... page", and ``find_toc_pages``
scores only the front of the document: a page is a TOC page when it carries a contents title
with entries under it, or is dense with right-aligned, increasing page numbers (which a
financial table is not: its numbers are large, repeated per row and not monotonic).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ...model import Line, SourceDoc
from ...text.furniture import FURNITURE_BAND, PAGE_HEIGHT, UPPER_HALF
from ...text.normalize import normalize_title
from ...text.numbering import NUMBERED_LINES, NUMBERED_START
from ...text.patterns import (
    ARABIC,
    CONTENTS_WORD,
    LEADER,
    LEADER_TAIL,
    PAGE_TOKEN,
    PREFIXED,
    ROMAN_LOWER,
    is_page_number,
    roman_value,
)
from ..heuristics import HEURISTICS as H

__all__ = [
    "Cell",
    "Row",
    "RowEntry",
    "TocPages",
    "PAGE_TOKEN",
    "page_rows",
    "row_entry",
    "toc_keyword",
    "find_toc_pages",
    "toc_like_pages",
    "pageless_listings",
    "listing_title",
    "listing_page",
    "scan_limit",
    "entry_like",
    "margin_row",
    "right_edge",
]


SPACED_LETTERS = 4
"""A title of this many single letters or more is one word letter-spaced (``C O N T E N T S``)."""
_PAGE_CELL = re.compile(rf"(?:{PAGE_TOKEN})")
_LEADER_ONLY = re.compile(rf"\s*{LEADER}\s*|\s*[.·…_]\s*")
_TAIL_TOKEN = re.compile(rf"(?<![\w-])({PAGE_TOKEN})\s*$")
_TRAILING_PAGE = re.compile(rf"^(.*\S)\s+({PREFIXED}|{ARABIC}|{ROMAN_LOWER})$")
_TRAILING_LEADER = re.compile(rf"\s*{LEADER}\s*$")


_NUMERIC_CELL = re.compile(r"^[\$€£(]*\s*-?[\d,]+(?:\.\d+)?\s*%?\)?$")
_NOT_APPLICABLE = re.compile(r"^(?:n/?a|—|–|-)$", re.I)
_PAGE_OF = re.compile(r"\b(?:page|p\.|seite)?\s*\d+\s+(?:of|von|de|sur)\s+\d+\s*$", re.I)
_BOILERPLATE = re.compile(r"©|\(c\) \d{4}|all rights reserved|\bpage \d+ of \d+\b", re.I)
_PAGE_HEADER = re.compile(r"^(?:page|pages|page no\.?|page number|seite|pagina|página)$", re.I)

_TOC_TITLES = {
    "contents", "table of contents", "index", "inhalt", "inhaltsverzeichnis", "table des matieres",
    "sommaire", "indice", "inhoud", "spis tresci", "contenido", "contenidos", "indice general",
    "sumario", "sommario", "innehall", "innhold", "indhold", "sisallys", "obsah", "tartalom",
    "cuprins", "icindekiler", "index to the form 10 k", "index to form 10 k", "index to form 10 q",
    "index to the form 10 q", "table of contents continued", "contents continued",
}
_TOC_SQUEEZED = {t.replace(" ", "") for t in _TOC_TITLES}
_LIST_TITLES = {
    "list of figures", "list of tables", "figures", "tables", "list of illustrations", "list of exhibits",
    "list of charts", "list of plates", "list of abbreviations", "abbreviations", "table des figures",
    "abbildungsverzeichnis", "tabellenverzeichnis", "liste des figures", "liste des tableaux",
    "index of figures", "index of tables",
}


def _leader_page(text: str) -> tuple[str, str] | None:
    """``(title, page)`` when ``text`` ends with a dot leader and a page token.

    Done as two anchored searches rather than one regex: a lazy title group in front of a
    long leader backtracks quadratically on rows of dots without a number.
    """
    m = _TAIL_TOKEN.search(text)
    if not m:
        return None
    head = text[: m.start()]
    lm = _TRAILING_LEADER.search(head)
    if not lm:
        return None
    return head[: lm.start()], m.group(1)


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    x0: float
    x1: float


@dataclass
class Row:
    """One visual row of a page: the lines at the same height, left to right."""

    unit: int
    cells: list[Cell]
    y0: float
    y1: float
    size: float
    bold: bool
    char: int  # offset of the row's first line in the unit text

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cells).strip()

    @property
    def x0(self) -> float:
        return self.cells[0].x0

    @property
    def x1(self) -> float:
        return self.cells[-1].x1


@dataclass
class RowEntry:
    """A row read as a TOC entry: title text, printed page (or None) and how the page was seen."""

    title: str
    page: str | None
    how: str  # "cell" | "leader" | "aligned" | "na" | ""
    title_x0: float
    page_x1: float | None = None


@dataclass
class TocPages:
    """The TOC pages found (unit indexes, in order) and their rows."""

    pages: list[int]
    rows: dict[int, list[Row]] = field(default_factory=dict)
    heights: dict[int, float] = field(default_factory=dict)
    paged: bool = True  # False: the TOC prints no page numbers
    first_row: int = 0  # index of the first row after the contents title on the first page
    pieces: list[list[int]] = field(default_factory=list)  # the pages of each piece (one piece: empty)
    starts: dict[int, int] = field(default_factory=dict)  # first row under the contents title of a later piece

    def piece_pages(self) -> list[list[int]]:
        """The pages of each piece of the contents, in order (one piece unless it is printed in several)."""
        return self.pieces or [self.pages]

    def start_row(self, unit: int) -> int:
        """The index of the first row of ``unit`` that belongs to the contents."""
        return self.first_row if unit == self.pages[0] else self.starts.get(unit, 0)


def scan_limit(n: int) -> int:
    """How many leading pages may start a TOC: about the first quarter, within fixed bounds."""
    return min(n, max(H.toc_front_min, min(H.toc_front_max, math.ceil(n * H.toc_front_share))))


def toc_keyword(text: str) -> str | None:
    """``"toc"`` when ``text`` is a contents title, ``"list"`` for a list of figures/tables."""
    if len(text) > H.contents_raw_chars:
        return None
    words = text.split()
    if words and len(words) >= SPACED_LETTERS and all(len(w) == 1 for w in words):  # C O N T E N T S
        text = "".join(words)
    norm = normalize_title(text)
    if len(norm) > H.contents_title_chars or not norm:
        return None
    if norm in _TOC_TITLES or norm.replace(" ", "") in _TOC_SQUEEZED:
        return "toc"
    if norm in _LIST_TITLES:
        return "list"
    # "Table of Contents (continued)", "CONTENTS Page"
    for t in ("table of contents", "contents", "inhaltsverzeichnis", "table des matieres", "sommaire"):
        if norm.startswith(t + " ") and len(norm.split()) <= len(t.split()) + 2:
            rest = norm[len(t):].split()
            if all(w in {"continued", "cont", "page", "pages", "suite", "fortsetzung"} for w in rest):
                return "toc"
    return None


def _row_groups(lines: list[Line]) -> list[list[Line]]:
    """Lines at the same height, top-down (each group left to right)."""
    groups: list[list[Line]] = []
    for ln in sorted(lines, key=lambda ln: ((ln.y0 + ln.y1) / 2, ln.x0)):
        mid = (ln.y0 + ln.y1) / 2
        if groups:
            last = groups[-1]
            lmid = sum((g.y0 + g.y1) / 2 for g in last) / len(last)
            height = min(ln.y1 - ln.y0, min(g.y1 - g.y0 for g in last))
            if abs(mid - lmid) <= max(1.0, H.row_merge * height):
                last.append(ln)
                continue
        groups.append([ln])
    for g in groups:
        g.sort(key=lambda ln: ln.x0)
    return groups


_TITLE_TEXT = re.compile(r"[^\W\d_]{2}")


def _column_rows(unit: int, lines: list[Line], left: float, right: float) -> list[Row] | None:
    """A two-column TOC set column by column (``multicol``): each column's rows sit on their own
    baselines, a point or two off the other column's, so rows read across the page would pair
    unrelated entries (``3.2 Modifying proof trees ... 3 A Implementation 11``). The columns run
    from the first title that starts right of the middle down to the next line across the middle
    (the first section's full-width text); the gutter is the first stretch near the middle that no
    line covers and that leaves rows ending in page numbers on both sides (a wide gap inside a
    column, between its leaders and its page numbers or its labels and titles, does not). The page
    is read as the left column, then the right one moved onto the left one's margin. ``None`` when
    the page is not laid out so."""
    middle = (left + right) / 2
    half_gap = H.column_gutter * (right - left)
    top = _column_top([ln for ln in lines if ln.x0 >= middle - half_gap])
    if top is None:
        return None
    bottom = min((ln.y0 for ln in lines if ln.y0 > top and ln.x0 < middle - half_gap < middle + half_gap < ln.x1),
                 default=math.inf)
    band = [ln for ln in lines if top <= ln.y0 < bottom]
    for edge in _gaps(band, middle - 2 * half_gap, middle + 2 * half_gap):
        left_rows, left_tail = _column(unit, [ln for ln in band if ln.x0 < edge])
        right_rows, right_tail = _column(unit, [ln for ln in band if ln.x0 >= edge])
        if min(len(left_rows), len(right_rows)) >= H.min_column_rows:
            above = [_row(unit, g) for g in _row_groups([ln for ln in lines if ln.y0 < top])]
            below = [_row(unit, g) for g in _row_groups([ln for ln in lines if ln.y0 >= bottom])]
            return above + left_rows + _shift(right_rows, left_rows) + \
                sorted(left_tail + right_tail, key=lambda r: r.y0) + below
    return None


def _column(unit: int, lines: list[Line]) -> tuple[list[Row], list[Row]]:
    """A column's rows up to its last one ending in a page number, and the rows under that (the first
    section's heading under the TOC); no rows when fewer than ``min_column_rows`` end in a page."""
    rows = [_row(unit, g) for g in _row_groups(lines)]
    paged = [i for i, r in enumerate(rows) if _ends_with_page(r.cells[-1].text)]
    if len(paged) < H.min_column_rows:
        return [], []
    return rows[:paged[-1] + 1], rows[paged[-1] + 1:]


def _column_top(right_side: list[Line]) -> float | None:
    """Where a right column of TOC entries starts: from its first line ending in a page number up
    through the lines set close above it (a wrapped first entry), not across a wider gap (a figure or
    the title block above the TOC). ``None`` without ``min_column_rows`` titles from there on."""
    right_side = sorted(right_side, key=lambda ln: ln.y0)
    first = next((i for i, ln in enumerate(right_side) if _ends_with_page(ln.text)), None)
    if first is None:
        return None
    while first > 0 and right_side[first].y0 - right_side[first - 1].y1 \
            < H.column_lead * (right_side[first].y1 - right_side[first].y0):
        first -= 1
    titles = [ln for ln in right_side[first:] if _TITLE_TEXT.search(ln.text)
              and not _PAGE_CELL.fullmatch(ln.text.strip())]
    if len(titles) < H.min_column_rows:
        return None
    return right_side[first].y0 - H.row_merge * (right_side[first].y1 - right_side[first].y0)


def _gaps(lines: list[Line], lo: float, hi: float) -> list[float]:
    """Stretches of x that no line covers, with their middle in ``[lo, hi]``, left to right: where
    each ends (a right column's start)."""
    out: list[float] = []
    reach = -math.inf
    for ln in sorted(lines, key=lambda ln: ln.x0):
        if reach > -math.inf and ln.x0 > reach and lo <= (reach + ln.x0) / 2 <= hi:
            out.append(ln.x0)
        reach = max(reach, ln.x1)
    return out


def page_rows(doc: SourceDoc, unit: int) -> list[Row]:
    """Visual rows of a page, top-down; a two-column TOC gives its left column first."""
    lines = [ln for ln in doc.lines(unit) if ln.text.strip()]
    if not lines:
        return []
    left = min(ln.x0 for ln in lines)
    right = max(ln.x1 for ln in lines)
    columns = _column_rows(unit, lines, left, right)
    if columns is not None:
        return columns
    groups = _row_groups(lines)
    middle = (left + right) / 2
    segments: list[list[Line]] = []
    for g in groups:
        g.sort(key=lambda ln: ln.x0)
        segments.extend(_split_columns(g, middle))
    gutter = middle - H.column_gutter * (right - left)
    splits = sum(1 for s in segments if s[0].x0 > gutter and _ends_with_page(s[-1].text))
    rows = [_row(unit, s) for s in segments]
    two_column = splits >= H.min_column_rows and sum(1 for r in rows if r.x0 < middle) >= H.min_column_rows
    if two_column:
        above, band, below = _column_band(rows)
        left_rows = [r for r in band if r.x0 < gutter]
        right_rows = [r for r in band if r.x0 >= gutter]
        if right_rows and left_rows and all(r.x1 <= middle + H.column_overlap * (right - left) for r in left_rows):
            return above + left_rows + _shift(right_rows, left_rows) + below
    return rows


def _shift(rows: list[Row], left: list[Row]) -> list[Row]:
    """The right column's rows moved onto the left column's margins, so that indentation means the
    same in both (a chapter heading the right column is not nested under the left column's last
    one). The move is the one that puts most rows on a margin of the left column: a right column
    whose leftmost row is a two-digit chapter (``10 Axes``, its label a figure wider than ``7``'s)
    does not push every other row one step in."""
    margins = sorted({round(r.x0) for r in left})
    starts = Counter(round(r.x0) for r in rows)
    naive = min(starts) - margins[0]

    def fit(dx: float) -> tuple[int, float]:
        on = sum(n for x, n in starts.items() if any(abs(x - dx - m) <= H.indent_tolerance for m in margins))
        return on, -abs(dx - naive)

    dx = max((s - m for s in starts for m in margins), key=fit, default=naive)
    return [replace(r, cells=[Cell(c.text, c.x0 - dx, c.x1 - dx) for c in r.cells]) for r in rows]


def _column_band(rows: list[Row]) -> tuple[list[Row], list[Row], list[Row]]:
    """Rows above, within and below the band of the page where the TOC's columns run (from the first
    to the last entry row that ends with a page number): a centred title block above the columns
    and the first section's full-width text below them are not a column."""
    entries = [r for r in rows if _ends_with_page(r.cells[-1].text) and any(c.isalpha() for c in r.text)]
    if not entries:
        return [], rows, []
    top, bottom = min(r.y0 for r in entries), max(r.y1 for r in entries)
    above = [r for r in rows if r.y1 <= top]
    below = [r for r in rows if r.y0 >= bottom]
    return above, [r for r in rows if r.y1 > top and r.y0 < bottom], below


def _split_columns(group: list[Line], middle: float) -> list[list[Line]]:
    """Cut a row after a page number that is followed by more text across the page middle."""
    out: list[list[Line]] = [[]]
    for i, ln in enumerate(group):
        out[-1].append(ln)
        if i + 1 >= len(group):
            break
        nxt = group[i + 1]
        cur = out[-1]
        lp = _leader_page(ln.text)
        has_title = any(re.search(r"[A-Za-z]{2}", c.text) for c in cur[:-1]) or bool(
            lp and re.search(r"[A-Za-z]{2}", lp[0]))
        is_page = bool(_PAGE_CELL.fullmatch(ln.text.strip())) or lp is not None
        if is_page and has_title and ln.x1 <= middle + H.column_gap and nxt.x0 >= middle - H.column_gap \
                and nxt.x0 - ln.x1 > ln.size:
            out.append([])
    return [s for s in out if s]


def _ends_with_page(text: str) -> bool:
    text = text.strip()
    return bool(_PAGE_CELL.fullmatch(text) or _leader_page(text))


def _row(unit: int, lines: list[Line]) -> Row:
    cells = [Cell(ln.text.strip(), ln.x0, ln.x1) for ln in lines]
    main = max(lines, key=lambda ln: len(ln.text))
    return Row(unit=unit, cells=cells, y0=min(ln.y0 for ln in lines), y1=max(ln.y1 for ln in lines),
               size=main.size, bold=main.bold, char=min(ln.char for ln in lines))


def row_entry(row: Row, right_edge: float | None = None) -> RowEntry:
    """Read a row as an entry. ``right_edge`` is where this page's page numbers end, if known."""
    cells = [c for c in row.cells if not _LEADER_ONLY.fullmatch(c.text)]
    leader_cell = len(cells) < len(row.cells)
    if not cells:
        return RowEntry("", None, "", row.x0)
    if len(cells) > 1 and _PAGE_HEADER.match(cells[-1].text):  # "PART I ... Page" column header
        cells = cells[:-1]
    last = cells[-1]
    title_x0 = cells[0].x0
    if len(cells) > 1 and _PAGE_CELL.fullmatch(last.text) and _plausible_token(last.text, True):
        return RowEntry(_clean_title(" ".join(c.text for c in cells[:-1])), last.text, "cell", title_x0, last.x1)
    if len(cells) > 1 and _NOT_APPLICABLE.match(last.text) and right_edge is not None \
            and abs(last.x1 - right_edge) < H.na_align:
        return RowEntry(_clean_title(" ".join(c.text for c in cells[:-1])), None, "na", title_x0, last.x1)
    lp = _leader_page(last.text)
    if lp and _plausible_token(lp[1], True):
        head = " ".join([c.text for c in cells[:-1]] + [lp[0]])
        return RowEntry(_clean_title(head), lp[1], "leader", title_x0, last.x1)
    m = _TRAILING_PAGE.match(last.text)
    if m and _PAGE_OF.search(last.text):
        m = None  # "Page 5 of 35" is a folio, not a reference
    if m and right_edge is not None and abs(last.x1 - right_edge) < H.page_align \
            and _plausible_token(m.group(2), False):
        head = " ".join([c.text for c in cells[:-1]] + [m.group(1)])
        return RowEntry(_clean_title(head), m.group(2), "aligned", title_x0, last.x1)
    how = "leader" if leader_cell else ""
    return RowEntry(_clean_title(" ".join(c.text for c in cells)), None, how, title_x0, None)


def _plausible_token(token: str, separate: bool) -> bool:
    """Reject tokens that are numbers but not page references (years, upper-case words)."""
    t = token.strip()
    if t.isdigit():
        first, last = H.years
        return 0 < int(t) < H.max_page_ref and not (len(t) == 4 and first <= int(t) <= last and not separate)
    if re.fullmatch(r"[ivxlcIVXLC]+", t):
        low = t.lower()
        if roman_value(low) is None:
            return False
        return separate or t.islower()
    return True


def _clean_title(text: str) -> str:
    text = _TRAILING_LEADER.sub("", text)
    text = " ".join(text.replace("\u00a0", " ").split())
    text = text.strip(" ·…_")
    while text.endswith(" ."):
        text = text[:-2].rstrip()
    return text.lstrip(".")


def entry_like(entry: RowEntry, row: Row) -> bool:
    """A row that reads as "title ... page" and not as a table row of figures."""
    if entry.page is None or len(re.findall(r"[A-Za-z]", entry.title)) < 2 or len(entry.title) > H.max_entry_chars:
        return False
    cells = [c for c in row.cells if not _LEADER_ONLY.fullmatch(c.text)]
    inner = cells[1:-1] if entry.how == "cell" else cells[1:]
    return not any(_NUMERIC_CELL.match(c.text) for c in inner)


@dataclass
class _PageScore:
    unit: int
    rows: list[Row]
    entries: int
    text_rows: int
    keyword_row: int | None  # index of the contents title row
    list_row: int | None
    monotonic: float
    aligned: float
    numbered: int  # rows starting with a section number, for TOCs without page numbers
    last_value: int | None
    height: float
    values: list[int]  # arabic page numbers of the entries, in order
    head_rows: int = 0  # rows from the top of the text down to the last entry (the body text under a TOC's end aside)
    titled_rows: int = 0  # rows under the contents title (a title block, epigraph or figure above it aside)
    listed: int = 0  # entries under the list-of-figures/tables title


def _score(doc: SourceDoc, unit: int) -> _PageScore:
    return _score_rows(unit, page_rows(doc, unit), doc.units[unit].height or PAGE_HEIGHT)


def _above_list(s: _PageScore) -> _PageScore | None:
    """The rows of a continuation page above the list of figures or tables that starts on it: the TOC's
    last entries (``References 58 | Appendix 59 | Index 64``, then ``List of Tables``), when the list has
    entries of its own (a ``Figures`` line in the body text under a TOC's end is no list)."""
    if s.list_row is None or s.keyword_row is not None or s.list_row == 0 or s.listed < H.min_aligned_rows:
        return None
    return _score_rows(s.unit, s.rows[:s.list_row], s.height)


def _score_rows(unit: int, rows: list[Row], height: float) -> _PageScore:
    edge = right_edge(rows)
    keyword_row = list_row = None
    body = [r for i, r in enumerate(rows) if not margin_row(r, height, rows[i + 1] if i + 1 < len(rows) else None)]
    parsed = [(r, row_entry(r, edge)) for r in body]
    entries = [(r, e) for r, e in parsed if entry_like(e, r)]
    if _running_head(unit, rows, entries, height):  # left out of the rows the TOC is parsed from, too
        rows = [r for r in rows if r is not entries[0][0]]
        body.remove(entries[0][0])
        entries = entries[1:]
    first_entry = rows.index(entries[0][0]) if entries else len(rows)
    for i, r in enumerate(rows):
        kind = toc_keyword(r.text) or (toc_keyword(r.cells[0].text) if len(r.cells) > 1 else None)
        if kind == "toc" and i < first_entry:
            keyword_row = i  # the last contents title above the first entry
        elif kind == "list" and list_row is None and r.y0 < height * UPPER_HALF:
            list_row = i
    values = [int(e.page) for _, e in entries if e.page and e.page.isdigit()]
    ups = sum(1 for a, b in zip(values, values[1:], strict=False) if b >= a)
    monotonic = ups / max(1, len(values) - 1) if len(values) > 1 else (1.0 if values else 0.0)
    x1s = Counter(round(e.page_x1 or 0) for _, e in entries)
    aligned = 0.0
    if entries:
        mode = x1s.most_common(1)[0][0]
        aligned = sum(1 for _, e in entries if abs((e.page_x1 or 0) - mode) <= H.page_align) / len(entries)
    numbered = sum(1 for r in body if _numbered_title(r.text))
    head_rows = body.index(entries[-1][0]) + 1 if entries else 0
    above = {id(r) for r in rows[:keyword_row + 1]} if keyword_row is not None else set()
    titled_rows = sum(1 for r in body if id(r) not in above)
    listed = sum(1 for r, _ in entries if rows.index(r) > list_row) if list_row is not None else 0
    return _PageScore(unit, rows, len(entries), len(body), keyword_row, list_row, monotonic, aligned, numbered,
                      values[-1] if values else None, height, values, head_rows, titled_rows, listed)


def _running_head(unit: int, rows: list[Row], entries: list[tuple[Row, RowEntry]], height: float) -> bool:
    """``Package v2.14 | 2`` or ``CONTENTS | Tool 5.4 | 3`` over a TOC page: a first row in the top band whose
    number is no later than the page it is printed on (its folio), above entries that all point further on,
    on a page with no contents title of its own (under one, ``Contents 2`` or ``1 Introduction 1`` is an entry).
    Read as an entry, its folio made the page numbers fall back and the TOC seem to end."""
    if len(entries) < 2 or entries[0][0].y1 > height * FURNITURE_BAND:
        return False
    if any(toc_keyword(r.text) == "toc" for r in rows if r is not entries[0][0]):
        return False
    pages = [int(e.page) if e.page and e.page.isdigit() else None for _, e in entries]
    first, rest = pages[0], [p for p in pages[1:] if p is not None]
    return first is not None and first <= unit + 1 and bool(rest) and first < min(rest)


def right_edge(rows: list[Row]) -> float | None:
    """The x where right-aligned page numbers end: the most common right end of numeric tails."""
    ends = Counter(round(r.x1) for r in rows if re.search(rf"\s(?:{ARABIC}|{ROMAN_LOWER})$", r.cells[-1].text)
                   or _PAGE_CELL.fullmatch(r.cells[-1].text))
    if not ends:
        return None
    x, count = ends.most_common(1)[0]
    return float(x) if count >= H.min_aligned_rows else None


def margin_row(row: Row, height: float, below: Row | None = None) -> bool:
    """Running header/footer rows: page folios and short lines in the top or bottom band. A numbered
    title at the top that opens a list of numbered titles set right ``below`` it is the list's first
    row (a page printed from HTML starts its contents' next page with an entry), not a running head."""
    text = row.text
    if is_page_number(text):
        return True
    if _BOILERPLATE.search(text):
        return True
    band = row.y1 < height * H.margin_top or row.y0 > height * H.margin_bottom
    if not band:
        return False
    if below is not None and row.y1 < height * H.margin_top and _numbered_title(text) \
            and _numbered_title(below.text) and abs(below.y0 - row.y1) < row.y1 - row.y0:
        return False
    entry = row_entry(row)
    return entry.page is None or toc_keyword(entry.title) == "toc"  # ``CONTENTS 4``: the TOC's running head


def _numbered_title(text: str) -> bool:
    return bool(NUMBERED_START.match(text)) and len(text) <= H.numbered_title_chars and not text.endswith(".")


def _is_toc_page(s: _PageScore, page_count: int) -> bool:
    if s.text_rows == 0 or s.list_row is not None and (s.keyword_row is None or s.list_row < s.keyword_row):
        return False
    frac = s.entries / s.text_rows
    # under a contents title the share is read below the title: a TOC may start at the foot of the
    # cover page, under the title block and a figure
    if s.keyword_row is not None and s.entries >= H.titled_toc_entries \
            and s.entries / max(1, s.titled_rows) >= H.titled_toc_share and s.monotonic >= H.toc_monotonic:
        return True
    # Without a contents title, the numbers must be pages this document could have: a page of
    # numbered lines (steps, line numbers, amounts) in a short document is not a TOC.
    in_range = sum(1 for v in s.values if v <= page_count + 2) / max(1, len(s.values))
    return s.entries >= H.untitled_toc_entries and frac >= H.untitled_toc_share \
        and s.monotonic >= H.untitled_monotonic and s.aligned >= H.untitled_aligned and in_range >= H.untitled_in_range


def _continues(prev: _PageScore, s: _PageScore) -> bool:
    if s.text_rows == 0 or s.list_row is not None:
        return False
    # the share is read above the last entry: a TOC may end at the top of a page, the first section under it
    if s.entries < H.continued_entries or s.entries / s.head_rows < H.continued_share \
            or s.monotonic < H.toc_monotonic:
        return False
    first = s.values[0] if s.values else None  # the entries' pages (a running head's folio aside)
    return prev.last_value is None or first is None or first >= prev.last_value - 2


def _pageless_start(s: _PageScore) -> bool:
    if s.keyword_row is None:
        return False
    after = s.text_rows - s.keyword_row - 1
    return after >= H.pageless_rows and s.numbered >= H.pageless_rows \
        and s.numbered / max(1, after) >= H.pageless_share and s.entries <= H.pageless_max_paged


def _pageless_continues(s: _PageScore) -> bool:
    return s.text_rows >= H.min_column_rows and s.numbered / s.text_rows >= H.pageless_continued_share \
        and s.entries <= H.pageless_max_paged


def pageless_listings(doc: SourceDoc, after: int) -> dict[int, tuple[int, int]]:
    """The contents of parts printed inside the body by a TOC without page numbers (a DocBook chapter
    opens with its own ``Table of Contents`` of its sections, under the chapter's title): per page
    after ``after``, the character span from that title to its last numbered row. An entry of the
    document's TOC found there is that listing's row, not its heading."""
    out: dict[int, tuple[int, int]] = {}
    for u in range(after + 1, len(doc.units)):
        text = doc.units[u].text
        if not _QUICK_KEYWORD.search(text) or len(NUMBERED_LINES.findall(text)) < H.pageless_rows:
            continue
        s = _score(doc, u)
        if s.keyword_row is None:
            continue
        listed = s.rows[s.keyword_row + 1:]
        end = _numbered_run(listed, s.height)
        if sum(1 for r in listed[:end] if _numbered_title(r.text)) >= H.pageless_rows:
            last = listed[end - 1]
            out[u] = (s.rows[s.keyword_row].char, last.char + len(last.text))
    return out


def _numbered_run(rows: list[Row], height: float) -> int:
    """Where the run of numbered titles that opens ``rows`` ends (the index after its last row; folios
    and running heads among them passed over): a contents list without page numbers. A row set further
    below the one above it than a line's height and than any row of the run so far (a blank line in a
    text) opens the document's text: its first numbered heading, not one more entry."""
    end = 0
    prev: Row | None = None
    widest = 0.0  # the largest gap between two rows of the run
    right = max((r.x1 for r in rows), default=0.0)
    for i, r in enumerate(rows):
        if margin_row(r, height, rows[i + 1] if i + 1 < len(rows) else None):
            continue
        gap = r.y0 - prev.y1 if prev is not None else 0.0
        if not _numbered_title(r.text) and not (prev is not None and _wraps_to(prev, r, gap, right)):
            break
        if end >= H.pageless_rows and gap >= r.size and gap > widest:
            break
        widest = max(widest, gap)
        prev = r
        end = i + 1
    return end


def _wraps_to(prev: Row, r: Row, gap: float, right: float) -> bool:
    """Row ``r`` goes on with the title of ``prev``, which ran to the column's right edge (``right``): set
    right under it, not left of it (a long question in a FAQ's contents)."""
    return gap < 0.5 * r.size and r.x0 >= prev.x0 - 1 and prev.x1 - prev.x0 >= PAGELESS_WRAP * (right - prev.x0)


PAGELESS_WRAP = 0.75
"""In a contents without page numbers, a row filling this share of the column from its left edge to the
widest row's end wrapped: the unnumbered row under it goes on with its title."""


def _up_to_text(s: _PageScore) -> _PageScore:
    """The rows of a page-less contents' first page down to the end of its entries, when the document's
    text starts under them on that page (a short contents on a text's first screen)."""
    if s.keyword_row is None:
        return s
    first = s.keyword_row + 1
    end = first + _numbered_run(s.rows[first:], s.height)
    if end <= first or end >= len(s.rows) or _numbered_title(s.rows[-1].text) and end == len(s.rows) - 1:
        return s
    return _score_rows(s.unit, s.rows[:end], s.height)


def _titled_at_foot(s: _PageScore) -> bool:
    """The page's last row is a contents title: the TOC's entries start on the next page."""
    return s.keyword_row is not None and s.keyword_row == len(s.rows) - 1


def _pageless_tail(s: _PageScore) -> _PageScore | None:
    """The rows of a page that opens with the last entries of a TOC without page numbers, the document's
    text starting under them (``2.7.15. More readings ...``, then a note and the first paragraph): the
    leading run of numbered rows, when it holds at least ``Heuristics.pageless_rows`` of them. A page
    printed from HTML runs its link list straight into the text."""
    end = _numbered_run(s.rows, s.height)
    head = _score_rows(s.unit, s.rows[:end], s.height) if end else None
    return head if head is not None and head.numbered >= H.pageless_rows and head.entries <= H.pageless_max_paged \
        else None


_QUICK_NUMBER_END = re.compile(
    rf"(?:^|\s|\.)(?!(?:19|20)\d\d\s*$)(?:{PREFIXED}|{ARABIC}|{ROMAN_LOWER})[ \t]*$", re.M)
_CONTENTS_WORDS = (r"contents|c\s+o\s+n\s+t\s+e\s+n\s+t\s+s|inhalt|inhaltsverzeichnis|table\s+des\s+mati[eè]res|"
                   r"sommaire|inhoud|spis\s+tre[sś]ci")
"""A contents title's words (``Table of`` may precede them)."""
_QUICK_KEYWORD = re.compile(rf"^\s*(?:table\s+of\s+)?(?:{_CONTENTS_WORDS}|index|[ií]ndice)\b", re.I | re.M)
"""A contents or an index title opening a line: a page that may be a TOC page."""
_PIECE_KEYWORD = re.compile(rf"^\s*(?:table\s+of\s+)?(?:{_CONTENTS_WORDS})\b", re.I | re.M)
"""A contents title on a line of its own, an index's aside: a later piece of the contents is titled so
(a back-of-book index is titled ``Index`` and lists earlier pages)."""


def _quick_candidate(text: str) -> bool:
    """Cheap text-only filter so typographic lines are computed only for plausible pages."""
    ends = len(_QUICK_NUMBER_END.findall(text))
    if ends >= H.quick_titled_ends and _QUICK_KEYWORD.search(text):
        return True
    lines = max(1, text.count("\n"))
    return ends >= H.quick_ends and ends / lines >= H.quick_share


def find_toc_pages(doc: SourceDoc) -> TocPages | None:
    """The TOC pages in the front of ``doc``, continuation pages included.

    The scan stops at the first run with a substantial number of entries; among smaller runs
    (a short "Contents" of parts before the detailed one) the richest wins. A TOC without page
    numbers is looked for only when no paged one exists.
    """
    n = len(doc.units)
    limit = scan_limit(n)
    scores: dict[int, _PageScore] = {}

    def score(u: int) -> _PageScore:
        if u not in scores:
            scores[u] = _score(doc, u)
        return scores[u]

    groups: list[list[int]] = []
    u = 0
    stop = limit
    while u < stop:
        if not _quick_candidate(doc.units[u].text):
            u += 1
            continue
        s = score(u)
        if _is_toc_page(s, n):
            pages = [u]
            while pages[-1] + 1 < n and _continues(score(pages[-1]), score(pages[-1] + 1)):
                pages.append(pages[-1] + 1)
            head = _above_list(score(pages[-1] + 1)) if pages[-1] + 1 < n else None
            if head is not None and _continues(score(pages[-1]), head):
                scores[head.unit] = head  # the TOC ends where the list begins
                pages.append(head.unit)
            groups.append(pages)
            u = pages[-1] + 1
            if sum(scores[p].entries for p in pages) >= H.toc_enough_entries:
                # a short contents may come first: a richer one starting right after it is the TOC
                stop = min(stop, u + H.toc_next_pages)
            continue
        u += 1
    if groups:
        best = max(groups, key=lambda g: (sum(scores[p].entries for p in g), -g[0]))
        return _result([*_earlier_pieces(groups, best, scores, n), best, *_later_pieces(doc, best, score)],
                       scores, True)
    for u in range(limit):
        text = doc.units[u].text
        if not _QUICK_KEYWORD.search(text) or not any(  # entries on the page, or under a title at its foot
                len(NUMBERED_LINES.findall(doc.units[v].text)) >= H.pageless_rows for v in range(u, min(u + 2, n))):
            continue
        s = score(u)
        if _pageless_start(s) or (_titled_at_foot(s) and u + 1 < n and _pageless_continues(score(u + 1))):
            pages = [u]
            while pages[-1] + 1 < n and _pageless_continues(score(pages[-1] + 1)):
                pages.append(pages[-1] + 1)
            if len(pages) == 1:  # a contents going on to the next page has no text under it on this one
                scores[u] = _up_to_text(s)
            tail = _pageless_tail(score(pages[-1] + 1)) if pages[-1] + 1 < n else None
            if tail is not None:
                scores[tail.unit] = tail  # the TOC ends where the text begins
                pages.append(tail.unit)
            return _result([pages], scores, False)
    return None


def _later_pieces(doc: SourceDoc, first: list[int], score: Callable[[int], _PageScore]) -> list[list[int]]:
    """The later pieces of a contents printed in several: a part's own ``Contents`` at its start, whose
    entries go on from the pages the piece before listed (``1 ... 21`` up front, ``7 ... 22`` to ``12 ... 38``
    at Part II, ``13 ... 43`` to ``17 Index ... 67`` at Part III). Only pages with a contents title count,
    anywhere in the document; an index (its pages point back) or a list of figures does not go on."""
    n = len(doc.units)
    pieces: list[list[int]] = []
    last = score(first[-1])
    u = first[-1] + 1
    while u < n:
        text = doc.units[u].text
        if not _PIECE_KEYWORD.search(text) or not _lists_from(text, last, n):
            u += 1
            continue
        s = score(u)
        if s.keyword_row is None or not _is_toc_page(s, n) or not _goes_on(last, s, n):
            u += 1
            continue
        pages = [u]
        while pages[-1] + 1 < n and _continues(score(pages[-1]), score(pages[-1] + 1)):
            pages.append(pages[-1] + 1)
        pieces.append(pages)
        last = score(pages[-1])
        u = pages[-1] + 1
    return pieces


def _earlier_pieces(groups: list[list[int]], best: list[int], scores: dict[int, _PageScore],
                    page_count: int) -> list[list[int]]:
    """The pieces of a contents printed in several that come before the richest one (the first part's
    contents is the shorter): the runs right before it, each titled, that it goes on from. A short
    contents of parts before the detailed one is no piece: the detailed one lists its pages again."""
    out: list[list[int]] = []
    nxt = best
    for g in reversed([g for g in groups if g[-1] < best[0]]):
        if scores[g[0]].keyword_row is None or scores[nxt[0]].keyword_row is None \
                or not _goes_on(scores[g[-1]], scores[nxt[0]], page_count):
            break
        out.insert(0, g)
        nxt = g
    return out


_LINE_END_NUMBER = re.compile(r"(?:^|\s)(\d{1,4})[ \t]*$", re.M)


def _lists_from(text: str, prev: _PageScore, page_count: int) -> bool:
    """Cheap text-only filter before a page is laid out as a later piece: enough lines end in a page
    number from the last one ``prev`` listed to the end of the document (a filing's pages, each under a
    ``Table of Contents`` link, end in amounts and notes, not in the pages still to come)."""
    if prev.last_value is None:
        return False
    lo, hi = prev.last_value - H.toc_piece_overlap, page_count + 2
    return sum(1 for v in _LINE_END_NUMBER.findall(text) if lo <= int(v) <= hi) >= H.titled_toc_entries


def _goes_on(prev: _PageScore, s: _PageScore, page_count: int) -> bool:
    """Page ``s`` lists pages from where the piece ``prev`` ended on, all of them pages of the document."""
    if prev.last_value is None or not s.values or s.monotonic < H.toc_monotonic:
        return False
    return min(s.values) >= prev.last_value - H.toc_piece_overlap and max(s.values) <= page_count + 2


def listing_page(doc: SourceDoc, unit: int) -> bool:
    """A page that is mostly "title ... page" rows (an exhibit's own table of contents), by the
    thresholds of an untitled TOC page."""
    rows = page_rows(doc, unit)
    edge = right_edge(rows)
    entries = sum(1 for r in rows if entry_like(row_entry(r, edge), r))
    return entries >= H.untitled_toc_entries and entries >= H.untitled_toc_share * len(rows)


_ITEM_LINE = re.compile(r"^(?:item|part)\s+[0-9ivx]{1,4}[a-c]?\b", re.IGNORECASE)


def toc_like_pages(doc: SourceDoc, pages: range, skip: set[tuple[int, int]] | None = None) -> set[int]:
    """Pages that look like a printed table of contents or a cross-reference index.

    Dot leaders ending in page numbers, or a "Contents" title over many lines ending in numbers,
    or many ``Item N`` lines on one page, anywhere in the document (``find_toc_pages`` looks for
    the printed TOC to read in the front only). Headings found there are TOC entries, not sections.
    """
    skip = skip or set()
    out: set[int] = set()
    for u in pages:
        lines = [ln for j, ln in enumerate(doc.lines(u)) if (u, j) not in skip]
        least = H.listing_rows
        if len(lines) < least:
            continue
        leaders = sum(1 for ln in lines if _has_leader_tail(ln.text))
        if leaders >= least and leaders >= H.listing_leader_share * len(lines):
            out.add(u)
            continue
        items = sum(1 for ln in lines if _ITEM_LINE.match(ln.text))
        titled = any(listing_title(ln.text) for ln in lines[:H.contents_title_lines])
        if not titled and items < H.item_listing:
            continue  # the folios are counted only where they can decide
        numbers = sum(1 for ln in lines if is_page_number(ln.text))
        if titled and (numbers + leaders >= least or items >= least):
            out.add(u)
        elif items >= H.item_listing and numbers >= least:
            out.add(u)
    return out


def _has_leader_tail(text: str) -> bool:
    """``LEADER_TAIL.search``, skipped for the many lines without a dot or an ellipsis (every
    alternative of the pattern needs one; the search is unanchored, so it tries every position)."""
    return ("." in text or "\u2026" in text) and LEADER_TAIL.search(text) is not None


def listing_title(text: str) -> bool:
    """``Contents``, ``Table of Contents``, ``Index to Financial Statements``: the listing word opens the
    line (after ``... of``); a section titled ``Register contents`` over a page of bit numbers does not
    make a listing."""
    m = CONTENTS_WORD.search(text)
    if m is None or len(text) >= H.contents_title_chars:
        return False
    lead = text[:m.start()].strip().casefold()
    return not lead or lead.endswith(" of") or lead == "of"


def _result(pieces: list[list[int]], scores: dict[int, _PageScore], paged: bool) -> TocPages:
    starts = {piece[0]: kw + 1 if (kw := scores[piece[0]].keyword_row) is not None else 0 for piece in pieces}
    pages = [p for piece in pieces for p in piece]
    return TocPages(pages=pages, rows={p: scores[p].rows for p in pages}, paged=paged, first_row=starts[pages[0]],
                    heights={p: scores[p].height for p in pages}, pieces=pieces if len(pieces) > 1 else [],
                    starts=starts)
