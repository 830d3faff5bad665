"""Tables on PDF pages, found from the words' positions: the whitespace-aligned tables of financial
statements (no rules), read as a grid with header rows and row labels.

Only pages that look tabular are looked at (:func:`looks_tabular`, on the page text reading already
has: many short figures). On those, the words (``TextPage.extractWORDS``, no second interpretation of
the page) are grouped into visual rows and cells; figure cells of many rows that overlap horizontally
make a column; a run of rows holding figures in those columns (with label-only rows between them:
``Current assets:``) is a table; the rows just above it whose cells stand over the columns are its
header rows; what stands left of the first column is the row's label.

Why not a library: pdfplumber's and PyMuPDF's finders (``find_tables``; PyMuPDF's is a port of
pdfplumber's) were measured on the statement pages of the corpus (``bench/README.md``, "Issue 24,
tables as data"): their ``lines`` strategy needs rules that these statements do not print, and their
``text`` strategy cuts words at inferred column edges (``Decemb | er 2,``, ``oodwill``) at 0.2-0.8 s a
page; this pass reads the same pages whole at a few milliseconds a page.

The pass is a heuristic over word positions, so the reader runs it behind a guard (:class:`TablePass`): an error
in it, or a table whose span does not fit its page's text, costs that page its tables, never the document its
read; the page keeps its text and one finding (``table_pass_failed``) says on how many pages, and the first error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..findings import Finding, Stage
from ..model import Table, is_figure

if TYPE_CHECKING:
    from .pdf_words import PageWords

__all__ = ["looks_tabular", "page_tables", "TablePass", "MIN_FIGURES", "FIGURE_SHARE"]

MIN_FIGURES = 16
"""A page looks tabular with at least this many figure tokens (``1,234``, ``(56)``, ``—``) ..."""
FIGURE_SHARE = 0.12
"""... making at least this share of its tokens (prose with years and note numbers stays below)."""
ROW_TOLERANCE = 0.4
"""Two words are on one visual row when their vertical centres differ by less than this share of their height
(a two-line column heading, ``December 2,`` over ``2022``, is two rows)."""
CELL_GAP = 0.6
"""A horizontal gap wider than this share of the text height separates two cells of a row (a word space is about
a quarter of it)."""
MIN_COLUMN_ROWS = 3
"""A column is the figures of at least this many rows overlapping horizontally."""
MIN_BODY_ROWS = 3
"""A table has at least this many rows with figures in its columns."""
MAX_LABEL_RUN = 4
"""At most this many label-only rows in a row (``LIABILITIES AND EQUITY``, ``Current liabilities:``) inside a table."""
MAX_ROW_GAP = 2.5
"""A vertical gap between two rows larger than this many row heights ends the table."""
CENTRED = 0.1
"""A lone heading whose middle is within this share of a column's width of the columns' middle heads them all."""
RISING_SHARE = 0.8
"""A lone column of figures rising from row to row this often is numbering (lines, pages), not a table."""
SPAN_SHARE = 0.9
"""A table's span in the page text holds at least this share of its words, and no other word."""
MAX_HEADER_ROWS = 4
"""Column headings above the body: at most this many rows."""
TITLE_ROWS = 4
"""The title is looked for this many rows above the header."""
_CURRENCY = frozenset("$€£¥")
_TRAILING_INT = re.compile(r"(\d+)\D*$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


@dataclass
class _Cell:
    text: str
    x0: float
    x1: float
    words: list[int]  # indexes into the page's word list

    @property
    def figure(self) -> bool:
        return is_figure(self.text)


@dataclass
class _Row:
    y0: float
    y1: float
    cells: list[_Cell] = field(default_factory=list)

    @property
    def height(self) -> float:
        return max(self.y1 - self.y0, 1.0)


Word = tuple[float, float, float, float, str, int, int, int]  # (x0, y0, x1, y1, text, block, line, word): extractWORDS


def looks_tabular(text: str) -> bool:
    """The cheap test, on the page text alone: many short figures, a fair share of the page's tokens."""
    tokens = text.split()
    if len(tokens) < MIN_FIGURES:
        return False
    figures = sum(1 for t in tokens if len(t) <= 16 and is_figure(t))
    return figures >= MIN_FIGURES and figures >= FIGURE_SHARE * len(tokens)


def page_tables(words: Sequence[Word], text: str, *, unit: int, page: int) -> list[Table]:
    """The tables of one page as :class:`Table` s spanning their words' text in ``text`` (the page unit's text,
    which holds the words in the same order); a table whose span would take in words of the page that are
    not its own is left out (its Markdown would drop them)."""
    if not words:
        return []
    offsets = _offsets(words, text)
    rows = _rows(words)
    tables: list[Table] = []
    start = 0
    while start < len(rows):
        found = _table(rows, start)
        if found is None:
            break
        first, last, columns, header_from = found
        table = _grid(words, rows, header_from, first, last, columns, offsets, text, unit=unit, page=page)
        if table is not None:
            tables.append(table)
        start = last + 1
    return tables


def _offsets(words: Sequence[Word], text: str) -> list[int]:
    """Each word's character offset in the page text (-1 when not found), looked up in reading order."""
    out: list[int] = []
    cursor = 0
    for w in words:
        s = str(w[4])
        found = text.find(s, cursor)
        out.append(found)
        if found >= 0:
            cursor = found + len(s)
    return out


def _rows(words: Sequence[Word]) -> list[_Row]:
    """Visual rows top to bottom, each with its cells left to right."""
    order = sorted(range(len(words)), key=lambda i: ((float(words[i][1]) + float(words[i][3])) / 2, float(words[i][0])))
    groups: list[list[int]] = []
    centre = height = 0.0
    for i in order:
        y0, y1 = float(words[i][1]), float(words[i][3])
        c, h = (y0 + y1) / 2, max(y1 - y0, 1.0)
        if groups and abs(c - centre) < ROW_TOLERANCE * min(h, height):
            groups[-1].append(i)
        else:
            groups.append([i])
            centre, height = c, h
    rows: list[_Row] = []
    for g in groups:
        g.sort(key=lambda i: float(words[i][0]))
        row = _Row(min(float(words[i][1]) for i in g), max(float(words[i][3]) for i in g))
        gap = CELL_GAP * row.height
        for i in g:
            x0, x1, s = float(words[i][0]), float(words[i][2]), str(words[i][4])
            if row.cells and x0 - row.cells[-1].x1 <= gap:
                cell = row.cells[-1]
                cell.text, cell.x1 = f"{cell.text} {s}", max(cell.x1, x1)
                cell.words.append(i)
            else:
                row.cells.append(_Cell(s, x0, x1, [i]))
        row.cells = _join_currency(row.cells)
        rows.append(row)
    return rows


def _join_currency(cells: list[_Cell]) -> list[_Cell]:
    """A currency sign printed apart from its figure (``$      4,236``) is part of that figure's cell."""
    out: list[_Cell] = []
    for cell in cells:
        if out and out[-1].text in _CURRENCY and cell.figure:
            sign = out.pop()
            cell = _Cell(f"{sign.text} {cell.text}", sign.x0, cell.x1, sign.words + cell.words)
        out.append(cell)
    return out


def _columns(rows: Sequence[_Row]) -> list[tuple[float, float]]:
    """Columns of figures: x-ranges where the figure cells of at least :data:`MIN_COLUMN_ROWS` rows overlap."""
    spans = sorted((c.x0, c.x1) for r in rows for c in r.cells if c.figure)
    merged: list[list[float]] = []
    for x0, x1 in spans:
        if merged and x0 <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], x1)
            merged[-1][2] += 1
        else:
            merged.append([x0, x1, 1])
    return [(m[0], m[1]) for m in merged if m[2] >= MIN_COLUMN_ROWS]


def _column_of(cell: _Cell, columns: Sequence[tuple[float, float]]) -> int | None:
    """The column a cell stands in (most overlap), or None."""
    best, overlap = None, 0.0
    for k, (x0, x1) in enumerate(columns):
        o = min(cell.x1, x1) - max(cell.x0, x0)
        if o > overlap:
            best, overlap = k, o
    return best


def _body(row: _Row, columns: Sequence[tuple[float, float]]) -> bool:
    """A body row: a figure in a column, and nothing else crossing into the columns but figures or short words."""
    return any(c.figure and _column_of(c, columns) is not None for c in row.cells)


def _numbering(rows: Sequence[_Row], body: Sequence[int], columns: Sequence[tuple[float, float]]) -> bool:
    """One column of figures that rise row after row: the line numbers of a listing or the page numbers of
    a contents list, not a table."""
    if len(columns) != 1:
        return False
    values = [int(m.group(1)) for k in body for c in rows[k].cells
              if c.figure and _column_of(c, columns) is not None and (m := _TRAILING_INT.search(c.text))]
    rising = sum(1 for a, b in zip(values, values[1:], strict=False) if b > a)
    return len(values) > 1 and rising >= RISING_SHARE * (len(values) - 1)


def _note(text: str) -> bool:
    """A units note in brackets: ``(In millions, except per share data)``, ``(MILLIONS)``."""
    return text.startswith("(") and text.endswith(")")


def _years(row: _Row, columns: Sequence[tuple[float, float]]) -> bool:
    """A row of column headings: its figures, one for each column at least up to two, are all years (``2022
    2021``, beside ``Years ended December 31,`` or ``December 31, 2022``)."""
    figures = [c.text for c in row.cells if c.figure]
    return len(figures) >= min(2, len(columns)) and all(_YEAR.match(f) for f in figures)


def _label_only(row: _Row, columns: Sequence[tuple[float, float]]) -> bool:
    return bool(columns) and all(c.x1 <= columns[0][0] for c in row.cells)


def _table(rows: Sequence[_Row], start: int) -> tuple[int, int, list[tuple[float, float]], int] | None:
    """The next table from row ``start``: (first body row, last body row, columns, first header row)."""
    i = start
    while i < len(rows):
        # a candidate run: rows with figures, label-only rows between them, no big vertical gaps
        if not any(c.figure for c in rows[i].cells):
            i += 1
            continue
        j, last, labels = i, i, 0
        while j + 1 < len(rows):
            nxt, cur = rows[j + 1], rows[j]
            if nxt.y0 - cur.y1 > MAX_ROW_GAP * cur.height:
                break
            if any(c.figure for c in nxt.cells):
                labels, last = 0, j + 1
            else:
                labels += 1
                if labels > MAX_LABEL_RUN:
                    break
            j += 1
        columns = _columns(rows[i : last + 1])
        body = [k for k in range(i, last + 1) if _body(rows[k], columns)]
        while body and _years(rows[body[0]], columns):
            body.pop(0)  # a row of years over the columns heads them: ``2022  2021``
        if columns and len(body) >= MIN_BODY_ROWS and not _numbering(rows, body, columns):
            first = body[0]
            # the run ends at a row that is neither a body row nor a label-only row (a line of prose across)
            end = first
            for k in range(first, last + 1):
                if _body(rows[k], columns):
                    end = k
                elif not _label_only(rows[k], columns):
                    break
            top = first  # label-only rows opening the body (``ASSETS``, ``Current assets:``) are the table's
            while top - 1 >= start and first - (top - 1) <= MAX_LABEL_RUN and _label_only(rows[top - 1], columns) \
                    and rows[top].y0 - rows[top - 1].y1 <= MAX_ROW_GAP * rows[top - 1].height:
                top -= 1
            return top, end, columns, _header_start(rows, top, columns, start)
        i = last + 1
    return None


def _header_start(rows: Sequence[_Row], first: int, columns: Sequence[tuple[float, float]], floor: int) -> int:
    """The first header row: rows just above the body whose cells all stand over the columns (``December 2,``,
    ``2022``), at most :data:`MAX_HEADER_ROWS`, no closer to the page top than ``floor``."""
    left = columns[0][0] - (columns[0][1] - columns[0][0])
    k = first
    while k - 1 >= floor and first - (k - 1) <= MAX_HEADER_ROWS:
        row = rows[k - 1]
        if not row.cells or (any(c.x0 < left and not _note(c.text) for c in row.cells) and not _years(row, columns)) \
                or rows[k].y0 - row.y1 > MAX_ROW_GAP * row.height:
            break
        k -= 1
    return k


def _grid(words: Sequence[Word], rows: Sequence[_Row], head: int, first: int, last: int,
          columns: Sequence[tuple[float, float]], offsets: Sequence[int], text: str, *,
          unit: int, page: int) -> Table | None:
    grid: list[list[str]] = []
    mine: set[int] = set()
    labels = False
    pending = ""  # a label wrapped over two lines, carried to the row that holds its figures
    for k in range(head, last + 1):
        row = rows[k]
        cells = [""] * (len(columns) + 1)
        for c in row.cells:
            mine.update(c.words)
            col = _column_of(c, columns) if c.x1 > columns[0][0] and not (k < first and _note(c.text)
                                                                          and c.x0 < columns[0][0]) else None
            if k < first and col is not None:
                lone = sum(1 for x in row.cells if x.x1 > columns[0][0]) == 1 and _centred(c, columns)
                for m in (range(len(columns)) if lone else _spanned(c, columns) or [col]):
                    cells[m + 1] = f"{cells[m + 1]} {c.text}".strip()
            elif col is None:
                cells[0] = f"{cells[0]} {c.text}".strip()
            else:
                cells[col + 1] = f"{cells[col + 1]} {c.text}".strip()
        if k >= first and cells[0]:
            labels = True
        if k >= first and not any(cells[1:]) and cells[0] and not cells[0].rstrip().endswith(":") \
                and k + 1 <= last and _continues(rows[k + 1]):
            pending = f"{pending} {cells[0]}".strip()
            continue
        if pending:
            cells[0] = f"{pending} {cells[0]}".strip()
            pending = ""
        grid.append(cells)
    if sum(1 for r in grid[first - head:] if any(is_figure(c) for c in r[1:])) < MIN_BODY_ROWS:
        return None
    span = _span(words, offsets, mine)
    if span is None:
        return None
    start, end = span
    if not labels:
        grid = [r[1:] for r in grid]
    x0 = min(float(words[i][0]) for i in mine)
    x1 = max(float(words[i][2]) for i in mine)
    bbox = (round(x0, 2), round(rows[head].y0, 2), round(x1, 2), round(rows[last].y1, 2))
    return Table.from_cells(grid, unit=unit, start=start, end=end, header_rows=first - head,
                            label_columns=int(labels), title=_title(rows, head), page=page, bbox=bbox)


def _span(words: Sequence[Word], offsets: Sequence[int], mine: set[int]) -> tuple[int, int] | None:
    """The table's character span: the longest run of its own words in text order, with no other word of the
    page inside; ``None`` unless that run holds :data:`SPAN_SHARE` of the table's words (footnote marks that
    the text layer moves to the page's end may stay out of it, and stay in the text after it)."""
    order = sorted((o, i) for i, o in enumerate(offsets) if o >= 0)
    best: tuple[int, int, int] = (0, 0, 0)  # words, first and last position in ``order``
    run_start = None
    for n, (_o, i) in enumerate(order + [(-1, -1)]):
        if i in mine:
            run_start = n if run_start is None else run_start
            continue
        if run_start is not None and n - run_start > best[0]:
            best = (n - run_start, run_start, n - 1)
        run_start = None
    count, a, b = best
    if count < SPAN_SHARE * len(mine):
        return None
    last = order[b][1]
    return order[a][0], order[b][0] + len(str(words[last][4]))


def _spanned(cell: _Cell, columns: Sequence[tuple[float, float]]) -> list[int]:
    """The columns whose middle a heading cell stands over (``Years Ended December 31,`` over two years)."""
    return [k for k, (x0, x1) in enumerate(columns) if cell.x0 <= (x0 + x1) / 2 <= cell.x1]


def _centred(cell: _Cell, columns: Sequence[tuple[float, float]]) -> bool:
    """A heading centred over all the columns (``Years Ended``): within a tenth of a column of their middle."""
    if len(columns) < 2:
        return False
    middle = (columns[0][0] + columns[-1][1]) / 2
    pitch = (columns[-1][1] - columns[0][0]) / len(columns)
    return abs((cell.x0 + cell.x1) / 2 - middle) <= CENTRED * pitch


def _continues(row: _Row) -> bool:
    """A row whose label goes on from the line above: it starts in lower case or with a figure."""
    label = row.cells[0].text if row.cells else ""
    return bool(label) and (label[0].islower() or label[0].isdigit())


def _title(rows: Sequence[_Row], head: int) -> str | None:
    """The line just above the table (its header), passing over a units note in brackets (``(In millions)``)."""
    for k in range(head - 1, max(head - 1 - TITLE_ROWS, -1), -1):
        line = " ".join(c.text for c in rows[k].cells).strip()
        if not line or _note(line) or is_figure(line):
            continue
        return line if len(line) <= 150 else None
    return None


class TablePass:
    """The table pass of one document behind its guard (see the module docstring): :meth:`page` finds a page's
    tables, :meth:`moved` moves them into the pages' repaired text, :meth:`findings` reports the pages that lost
    theirs."""

    def __init__(self) -> None:
        self.failed: dict[int, str] = {}  # page index -> what went wrong there first

    def page(self, words: Callable[[], Sequence[Word]], text: str, index: int) -> list[Table]:
        """The tables of page ``index`` (``words()`` gives its words, asked only when the text looks tabular)."""
        if not looks_tabular(text):
            return []
        try:
            found = page_tables(words(), text, unit=index, page=index + 1)
        except Exception as exc:  # noqa: BLE001  (any error of the heuristic: the page goes on without tables)
            self.failed.setdefault(index, f"{type(exc).__name__}: {exc}")
            return []
        return self._fitting(found, text, index)

    def moved(self, tables: Sequence[Table], words: Mapping[int, PageWords], texts: Sequence[str]) -> list[Table]:
        """``tables`` (sorted by unit and start) with their spans moved into the repaired text of the pages in
        ``words`` (:func:`.pdf_words.whole_words`); ``texts`` are the pages' texts after the repair."""
        out: list[Table] = []
        k = 0
        while k < len(tables):
            unit = tables[k].unit
            mine = [t for t in tables[k:] if t.unit == unit]
            k += len(mine)
            if unit in words:
                try:
                    mine = [words[unit].table(t) for t in mine]
                except Exception as exc:  # noqa: BLE001
                    self.failed.setdefault(unit, f"{type(exc).__name__}: {exc}")
                    continue
            out.extend(self._fitting(mine, texts[unit], unit))
        return out

    def _fitting(self, tables: Sequence[Table], text: str, index: int) -> list[Table]:
        """The page's tables in text order, or none when one does not fit the text or overlaps another."""
        ordered = sorted(tables, key=lambda t: t.start)
        end = 0
        for t in ordered:
            if not end <= t.start < t.end <= len(text):
                self.failed.setdefault(index, f"a table spans characters {t.start}-{t.end} of a page text of "
                                              f"{len(text)}, or overlaps another")
                return []
            end = t.end
        return ordered

    def findings(self) -> list[Finding]:
        if not self.failed:
            return []
        first = min(self.failed)
        return [Finding("table_pass_failed", Stage.read,
                        f"table pass failed on {len(self.failed)} page(s), first on page {first + 1}: "
                        f"{self.failed[first]}; their text is kept, without tables",
                        page=first + 1 if len(self.failed) == 1 else None)]
