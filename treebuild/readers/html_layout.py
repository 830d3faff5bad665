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

import math
from dataclasses import dataclass, field

from ..model import Line
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
_GLYPH = 0.5
"""Average width of a lower-case letter or figure, as a share of the font size (Helvetica and Times
set 0.44-0.56)."""
_CAPITAL_EXTRA = 0.18
"""... a capital is wider by this share (0.65-0.72 in all)."""
_SPACE_LESS = 0.22
"""... a space narrower by this share (0.25-0.28)."""
_MONO_GLYPH = 0.6

Run = tuple[str, Style]
"""A piece of a paragraph's text in one style."""


def text_width(text: str, size: float, mono: bool = False) -> float:
    """Estimated printed width of ``text`` in points."""
    if mono:
        return len(text) * size * _MONO_GLYPH
    upper = sum(1 for c in text if c.isupper())
    spaces = text.count(" ")
    return size * (_GLYPH * len(text) + _CAPITAL_EXTRA * upper - _SPACE_LESS * spaces)


def _mono(style: Style) -> bool:
    f = style.family.lower()
    return "mono" in f or "courier" in f or f in ("consolas", "menlo")


@dataclass
class Cell:
    """A table cell: its text runs, style, column span and width as set by the author."""

    runs: list[Run]
    style: Style
    colspan: int = 1
    anchors: list[str] = field(default_factory=list)


@dataclass
class PageOut:
    """One laid-out page: its lines, its text (the lines' texts, one a text line) and its height."""

    lines: list[Line] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    chars: int = 0  # length of "\n".join(texts)
    y: float = MARGIN  # where the next line goes
    blocks: list[tuple[float, float, int]] = field(default_factory=list)

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
        line = Line(text, round(styled.size, 2), styled.bold, box[0], box[1], box[2], box[3], char, self.block,
                    styled.font, styled.lead, round(styled.lead_size, 2))
        page.lines.append(line)
        page.texts.append(text)
        page.chars = char + len(text)
        page.blocks.append((box[1], box[3], char))
        for ident in self.pending:
            self.anchors.setdefault(ident, (len(self.pages) - 1, box[1], char))
        self.pending.clear()
        self.block += 1
        return line

    def paragraph(self, runs: list[Run], block: Style, left: float) -> Line | None:
        """A paragraph of ``runs`` in ``block`` (its alignment, first-line indent) whose column starts
        ``left`` points in from the margin. ``None`` when it holds no text."""
        text = "".join(t for t, _ in runs).strip()
        if not text:
            return None
        pieces = _merge(runs)
        main = max(pieces, key=lambda p: len(p[0].strip()))
        size = main[1]
        width = sum(text_width(p[0], p[1], "mono" in p[2].lower() or "courier" in p[2].lower()) for p in pieces)
        x0 = MARGIN + min(left, CONTENT_WIDTH - 72.0)
        column = MARGIN + CONTENT_WIDTH - x0
        first = min(max(0.0, block.indent), column / 2)
        lines = max(1, math.ceil((width + first) / column)) if column > 0 else 1
        height = lines * size * block.line_height
        self.page.y += self.gap
        self.gap = 0.0
        y0 = self.page.y
        if lines > 1:
            box = (x0 + first, y0, x0 + column, y0 + height)
        elif block.align == "center":
            mid = x0 + column / 2
            box = (mid - width / 2, y0, mid + width / 2, y0 + height)
        elif block.align == "right":
            box = (x0 + column - width, y0, x0 + column, y0 + height)
        else:
            box = (x0 + first, y0, x0 + first + width, y0 + height)
        line = self._place(text, pieces, box)
        self.page.y = y0 + height
        return line

    def table(self, rows: list[list[Cell]], left: float, width: float | None) -> None:
        """Rows of cells (``colspan`` honoured) laid out in columns sized from the cells' widths as set,
        else from their contents; each cell with text is one line, the row as tall as its tallest cell."""
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
            tallest = 0.0
            col = 0
            for cell in row:
                span = max(1, cell.colspan)
                lo, hi = x0 + edges[min(col, ncols)], x0 + edges[min(col + span, ncols)]
                col += span
                self.pending.extend(cell.anchors)
                text = "".join(t for t, _ in cell.runs).strip()
                if not text:
                    continue
                pieces = _merge(cell.runs)
                main = max(pieces, key=lambda p: len(p[0].strip()))
                w = sum(text_width(p[0], p[1], _mono(cell.style)) for p in pieces)
                inner = max(1.0, hi - lo - 2 * CELL_PADDING)
                n = max(1, math.ceil(w / inner))
                h = n * main[1] * cell.style.line_height
                tallest = max(tallest, h)
                w = min(w, inner)
                if cell.style.align == "right":
                    box = (hi - CELL_PADDING - w, y0, hi - CELL_PADDING, y0 + h)
                elif cell.style.align == "center":
                    mid = (lo + hi) / 2
                    box = (mid - w / 2, y0, mid + w / 2, y0 + h)
                else:
                    box = (lo + CELL_PADDING, y0, lo + CELL_PADDING + w, y0 + h)
                self._place(text, pieces, box)
            self.page.y = y0 + (tallest + ROW_GAP if tallest else ROW_GAP)


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
                    want[col] = max(want[col], min(text_width(text, st.size, _mono(st)), total)
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
