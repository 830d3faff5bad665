"""HTML laid out on printed pages: each paragraph and table cell becomes a typographic ``Line``.

The structure stage reads a paged document through ``Line`` s (text, size, weight, font, box): the
PDF reader takes them from the page, this module sets them the way a browser would print the HTML,
closely enough for the same rules to hold (a heading is larger or bolder than the body, starts its
block, is centred or not, stands alone on its row; a table's cells share a row; a folio ends the
page). Pages are US Letter with half-inch margins; a paragraph is one ``Line`` whose box spans the
lines it would wrap to (its width estimated from its characters), a table cell is one ``Line`` in
its column, at its row's height. A page ends at a page break (the paper form's pages); a page that
would overflow the paper stays one page (a page to cite is the author's page), only taller.

The page text is the lines' texts, one per text line, in reading order (a table row by row, left
to right), so a line's ``char`` is its offset there.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate

from ..model import Line
from .fonts import font_traits
from .html_css import CONTENT_WIDTH, Style
from .pdf_styles import Piece, typed_line

__all__ = ["Pager", "PageOut", "Cell", "Run", "text_width", "PAGE_HEIGHT", "MARGIN"]

PAGE_HEIGHT = 792.0
"""US Letter, in points."""
MARGIN = 36.0
"""Half an inch: the left edge of the text column and the top of the first line."""
LEAD_STEP = 1.08
"""A paragraph's first run set this much larger than its main run is a run-in head (the PDF rule)."""
CELL_PADDING = 2.0
"""Points between a table cell's edge and its text."""
ROW_GAP = 2.0
"""Points between two table rows."""
_HELVETICA = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  # space to /
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  # 0-9 : ; < = > ?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  # @ A-O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  # P-Z [ \ ] ^ _
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  # ` a-o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584)  # p-z { | } ~
"""Helvetica's advance widths (thousandths of the size) of the printable ASCII characters: the
widths a browser's default sans-serif (Arial, Liberation Sans) has too."""
_OTHER = 556
"""Any other character: a figure's width."""
_SERIF = 0.9
"""A serif face (Times) sets the same text about this much narrower."""
_MONO_GLYPH = 0.6
_WIDTH_CACHE = 1 << 16
"""Words whose widths are remembered (a filing repeats a few thousand)."""


@functools.lru_cache(maxsize=_WIDTH_CACHE)
def _em(text: str) -> float:
    """Width of ``text`` in Helvetica, in ems."""
    return sum(_HELVETICA[o - 32] if 32 <= (o := ord(c)) < 127 else _OTHER for c in text) / 1000.0


def text_width(text: str, size: float, mono: bool = False, serif: bool = False) -> float:
    """Printed width of ``text`` in points, from Helvetica's widths (a serif face a little narrower)."""
    if mono:
        return len(text) * size * _MONO_GLYPH
    return _em(text) * size * (_SERIF if serif else 1.0)


def _mono(style: Style) -> bool:
    f = style.family.lower()
    return "mono" in f or "courier" in f or f in ("consolas", "menlo")


def _serif(style: Style) -> bool:
    f = style.family.lower()
    return ("times" in f or "serif" == f or "georgia" in f or "garamond" in f or "roman" in f
            or "cambria" in f or "book" in f) and "sans" not in f


Run = tuple[str, Style]
"""A piece of a paragraph's text in one style."""


@dataclass
class Cell:
    """A table cell: its text runs, style, column span and width as set by the author."""

    runs: list[Run]
    style: Style
    colspan: int = 1
    anchors: list[str] = field(default_factory=list)
    left: float = 0.0  # the cell's own indentation from the page margin (its ancestors' margins)
    indent: float = 0.0  # its text's indentation inside it (an inner block's margin, padding, text-indent)


@dataclass
class PageOut:
    """One laid-out page: its lines, its text (the lines' texts, one a text line) and its height."""

    lines: list[Line] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    chars: int = 0  # length of "\n".join(texts)
    y: float = MARGIN  # where the next line goes

    @property
    def text(self) -> str:
        return "\n".join(self.texts)

    @property
    def height(self) -> float:
        return max(PAGE_HEIGHT, self.y + MARGIN)


def _merge(runs: list[Run]) -> list[Piece]:
    """Runs as the pieces of one line (adjacent runs of one type joined), for :func:`typed_line`."""
    pieces: list[Piece] = []
    for text, style in runs:
        font = style.font
        if pieces and pieces[-1][1] == style.size and pieces[-1][2] == font:
            prev = pieces[-1]
            pieces[-1] = (prev[0] + text, prev[1], prev[2], prev[3])
        else:
            pieces.append((text, style.size, font, style.bold))
    return pieces


class Pager:
    """Lays paragraphs and tables out on pages; ``anchors`` maps an element id to where it landed."""

    def __init__(self) -> None:
        self.pages: list[PageOut] = [PageOut()]
        self.gap = 0.0  # vertical space owed before the next line (margins, empty lines)
        self.block = 0
        self.pending: list[str] = []  # ids waiting for the next line
        self.anchors: dict[str, tuple[int, float, int]] = {}  # id -> (page index, y, char)
        self.rows = 0  # table rows laid out so far
        # (page, line) of a table cell -> (row, cell), for block units; None once the document is paged
        self.cells: dict[tuple[int, int], tuple[int, int]] | None = {}
        self._numbers: dict[float, float] = {}  # one object for each type size, lead size and left edge

    @property
    def page(self) -> PageOut:
        return self.pages[-1]

    def space(self, points: float) -> None:
        """Vertical space before the next line (adjacent margins collapse to the larger one)."""
        self.gap = max(self.gap, points)

    def blank_line(self, style: Style) -> None:
        """An empty line (``<br>`` alone, an empty paragraph holding one)."""
        self.page.y += self.gap + style.size * style.line_height
        self.gap = 0.0

    def new_page(self) -> None:
        """A page break: the next line opens a new page (never two breaks in a row: no empty page)."""
        if self.page.lines or self.page.texts:
            self.pages.append(PageOut())
        self.gap = 0.0

    def anchor(self, ident: str) -> None:
        self.pending.append(ident)

    def _place(self, text: str, pieces: list[Piece], box: tuple[float, float, float, float]) -> Line:
        page = self.page
        char = page.chars + (1 if page.texts else 0)
        styled = typed_line(text, pieces, box, LEAD_STEP)
        size, lead_size, x0 = round(styled.size, 2), round(styled.lead_size, 2), box[0]
        shared = self._numbers  # a few values over thousands of lines: a float object each saved
        line = Line(text, shared.setdefault(size, size), styled.bold, shared.setdefault(x0, x0), box[1], box[2],
                    box[3], char, self.block, styled.font, styled.lead, shared.setdefault(lead_size, lead_size),
                    *font_traits(styled.font))
        page.lines.append(line)
        page.texts.append(text)
        page.chars = char + len(text)
        for ident in self.pending:
            self.anchors.setdefault(ident, (len(self.pages) - 1, box[1], char))
        self.pending.clear()
        return line

    def _set(self, rows: list[list[Run]], lo: float, hi: float, indent: float, align: str, y0: float,
             line_height: float, close: bool = True) -> float:
        """Wrapped ``rows`` (from :func:`wrap`) set between ``lo`` and ``hi`` from ``y0`` down, in the current
        block (closed after them unless ``close`` is false); returns the y under the last."""
        y = y0
        for k, row in enumerate(rows):
            text = "".join(t for t, _ in row).strip()
            pieces = _merge(row)
            size = max(pieces, key=lambda p: len(p[0].strip()))[1]
            width = min(_width(pieces), hi - lo)
            left = lo + (indent if k == 0 else 0.0)
            if align == "center":
                mid = (left + hi) / 2
                box = (mid - width / 2, y, mid + width / 2, y + size * line_height)
            elif align == "right":
                box = (hi - width, y, hi, y + size * line_height)
            else:
                box = (left, y, left + width, y + size * line_height)
            self._place(text, pieces, box)
            y = box[3]
        if close:
            self.block += 1
        return y

    def paragraph(self, runs: list[Run], block: Style, left: float) -> bool:
        """A paragraph of ``runs`` in ``block`` (its alignment, first-line indent) whose column starts
        ``left`` points in from the margin, wrapped into the lines a browser would print. False when it
        holds no text."""
        x0 = MARGIN + min(left, CONTENT_WIDTH - 72.0)
        hi = MARGIN + CONTENT_WIDTH
        first = min(max(0.0, block.indent), (hi - x0) / 2)
        rows = wrap(runs, hi - x0 - first, hi - x0)
        if not rows:
            return False
        self.page.y += self.gap
        self.gap = 0.0
        self.page.y = self._set(rows, x0, hi, first, block.align, self.page.y, block.line_height)
        return True

    def table(self, rows: list[list[Cell]], left: float, width: float | None) -> None:
        """Rows of cells (``colspan`` honoured) laid out in columns sized from the cells' widths as set,
        else from their contents; a cell's text wrapped in its column and set at the top, middle or
        bottom of its row (``vertical-align``), the row as tall as its tallest cell and its lines one block."""
        ncols = max((sum(max(1, c.colspan) for c in row) for row in rows), default=0)
        if not ncols:
            return
        x0 = MARGIN + min(left, CONTENT_WIDTH - 72.0)
        total = min(width if width else CONTENT_WIDTH, MARGIN + CONTENT_WIDTH - x0)
        edges = _columns(rows, ncols, total)
        self.page.y += self.gap
        self.gap = 0.0
        for row in rows:
            y0 = self.page.y
            laid: list[tuple[Cell, list[list[Run]], float, float, float]] = []  # cell, lines, lo, hi, height
            col = 0
            for cell in row:
                span = max(1, cell.colspan)
                lo, hi = x0 + edges[min(col, ncols)], x0 + edges[min(col + span, ncols)]
                col += span
                indent = min(max(0.0, cell.indent), (hi - lo) / 2)
                inner = max(1.0, hi - lo - 2 * CELL_PADDING - indent)
                lines = wrap(cell.runs, inner, inner)
                height = sum(max(r[1].size for r in ln) for ln in lines) * cell.style.line_height
                laid.append((cell, lines, lo + CELL_PADDING + indent, hi - CELL_PADDING, height))
            tallest = max((h for *_, h in laid), default=0.0)
            for k, (cell, lines, lo, hi, height) in enumerate(laid):
                self.pending.extend(cell.anchors)
                if not lines:
                    continue
                slack = tallest - height
                top = y0 + (slack if cell.style.valign == "bottom" else slack / 2 if cell.style.valign == "middle"
                            else 0.0)
                first = len(self.page.lines)
                self._set(lines, lo, hi, 0.0, cell.style.align, top, cell.style.line_height, close=False)
                if self.cells is not None:
                    for j in range(first, len(self.page.lines)):
                        self.cells[(len(self.pages) - 1, j)] = (self.rows, k)
            self.block += 1  # a row's cells are one block, as a PDF's text layer groups a table row
            self.rows += 1
            self.page.y = y0 + (tallest + ROW_GAP if tallest else ROW_GAP)


def _width(pieces: list[Piece]) -> float:
    return sum(text_width(p[0], p[1], "mono" in p[2].lower() or "courier" in p[2].lower(),
                          "times" in p[2].lower() or p[2].lower().startswith("serif")) for p in pieces)


def wrap(runs: list[Run], first: float, width: float) -> list[list[Run]]:
    """``runs`` broken into lines at spaces, greedily, as a browser fills a line box: the first line
    ``first`` points wide, the others ``width``; a word wider than the line stands on a line of its own.
    Each line's runs without the spaces at its ends; no lines when there is no text. The break points
    are found by bisection over the words' running widths (a word's width is cached), so a long
    paragraph costs a few C loops, not a Python step per word."""
    lines: list[list[Run]] = []
    current: list[Run] = []
    used = 0.0
    limit = first
    for text, style in runs:
        if not text:
            continue
        scale = style.size * (_MONO_GLYPH * 1000.0 / 556.0 if _mono(style) else _SERIF if _serif(style) else 1.0)
        words = text.split(" ")
        cum = list(accumulate(map(_em, words), lambda a, b: a + _SPACE + b))  # ems to the end of each word
        start = 0
        base = 0.0  # ems before words[start] in this run
        while start < len(words):
            room = (limit - used) / scale + base
            end = bisect_right(cum, room, start)  # words[start:end] fit on this line
            if end == start and (current or used > 0.0):
                if any(t.strip() for t, _ in current):
                    lines.append(current)
                current, used, limit = [], 0.0, width
                continue
            end = max(end, start + 1)  # a word wider than the line: alone on its line
            piece = " ".join(words[start:end])
            if piece:
                current.append((piece if current else piece.lstrip(), style))
            used += (cum[end - 1] - base) * scale
            if end < len(words):  # the space after the piece
                used += _SPACE * scale
                if current:
                    current[-1] = (current[-1][0] + " ", style)
            base = cum[end - 1] + _SPACE
            start = end
    if any(t.strip() for t, _ in current):
        lines.append(current)
    return [_trim(ln) for ln in lines if ln]


def _trim(line: list[Run]) -> list[Run]:
    """A line's runs without the spaces at its ends (runs of spaces alone dropped)."""
    out = [r for r in line if r[0]]
    while out and not out[0][0].strip():
        out.pop(0)
    while out and not out[-1][0].strip():
        out.pop()
    if out:
        out[0] = (out[0][0].lstrip(), out[0][1])
        out[-1] = (out[-1][0].rstrip(), out[-1][1])
    return out


_SPACE = 0.278
"""A space's width in ems (Helvetica's)."""


def _columns(rows: list[list[Cell]], ncols: int, total: float) -> list[float]:
    """Left edges of the columns (and the table's right edge), offsets from the table's left: a column
    takes the width its single-column cells set, else a share of what is left by its widest text."""
    set_width: list[float | None] = [None] * ncols
    want = [0.0] * ncols
    for row in rows:
        col = 0
        for cell in row:
            span = max(1, cell.colspan)
            if span == 1 and col < ncols:
                st = cell.style
                w = st.width_share * total if st.width_share is not None else st.width
                if w is not None and set_width[col] is None:
                    set_width[col] = max(0.0, w)
                text = "".join(t for t, _ in cell.runs).strip()
                if text:
                    want[col] = max(want[col], min(text_width(text, st.size, _mono(st), _serif(st)), total)
                                    + 2 * CELL_PADDING)
            col += span
    fixed = sum(w for w in set_width if w is not None)
    free = [i for i in range(ncols) if set_width[i] is None]
    left = max(0.0, total - fixed)
    wanted = sum(want[i] for i in free)
    widths = []
    for i in range(ncols):
        w = set_width[i]
        if w is None:
            w = left * want[i] / wanted if wanted else (left / len(free) if free else 0.0)
        widths.append(w)
    scale = total / sum(widths) if sum(widths) > total else 1.0
    edges = [0.0]
    for w in widths:
        edges.append(edges[-1] + w * scale)
    return edges
