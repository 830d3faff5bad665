"""Page furniture: running headers, footers and folios. The one place that decides what they are.

A line is furniture when it is only a page number (``patterns.is_page_number``) at a page edge, or
when its text with digits masked (``Page 12`` and ``Page 13`` are the same line) recurs at the
edges of many pages. Two views of that one rule, both computed once per document (the structure
stage carries them in its layout, to subdivision and summaries):

- :class:`PageFurniture` reads only the page texts (one pass, no typography): which lines at a
  page's edge recur, and whether the text ahead of a position is furniture only. Outline and TOC
  placement, imported PageIndex trees and the summaries' own texts ask it.
- :func:`furniture` reads the typographic lines, so it can also ask for the same height on every
  page; heading detection drops what it finds (a bold running header looks like a heading).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter, defaultdict

from ..model import Line, SourceDoc, Unit
from .numbering import is_label, parse_numbering
from .patterns import is_page_number

__all__ = ["PageFurniture", "furniture", "is_page_number", "mask_line"]

# thresholds of the rule (structure's TOC detection and page map read the band, edge lines and page height too)
FURNITURE_BAND = 0.13
"""Fraction of the page height at the top and at the bottom where furniture is looked for."""
FURNITURE_MIN_REPEATS = 3
"""A line must recur on at least this many pages to be furniture."""
FURNITURE_EXACT_SHARE = 0.04
"""... and, verbatim, on this share of the pages (a running title);"""
FURNITURE_MASKED_SHARE = 0.25
"""... or with digits masked on this share (``Page 12``): numbered headings like ``Item 7.`` that
happen to open a few pages at the same height must survive."""
RUNNING_SECTION = 3
"""A numbered line (``PART I | Item 1A``) repeated verbatim at the same height on this many pages is a
running section header, however short its section: a heading is printed once."""
FURNITURE_SLOT_SHARE = 0.25
"""A height where proven furniture sits on this share of the pages is a furniture slot: any text
that recurs there twice (a running section title on facing pages) is furniture too."""
FURNITURE_EDGE_LINES = 3
"""Lines at each end of a page's text where a running header or footer (digits masked) is looked for."""
FURNITURE_VERBATIM_LINES = 2
"""... and where one that repeats verbatim (a chapter's running title) is looked for."""
FURNITURE_TOP_LINES = 6
"""Lines at the top of a page compared with nearby pages' tops (running headers on a few pages)."""
FURNITURE_CHARS = 120
"""Longer lines are never furniture (and are not compared)."""
FURNITURE_HEIGHT_STEP = 3.0
"""Points of height treated as one furniture slot (headers drift a little between pages)."""
UPPER_HALF = 0.5
"""A numbered line above this share of the page height may be a chapter label, not a footer."""
PAGE_HEIGHT = 792.0
"""Height assumed for a page that reports none (US Letter, in points)."""


_DIGITS = re.compile(r"\d+")
_FIGURES = re.compile(r"^\s*\d[\d,.]*(?:\s+\d[\d,.]*)*\s*$")
"""A line of figures only (``2022``, ``2022  2021  2020``): a folio when it stands alone on its row."""


def _norm(line: str) -> str:
    return " ".join(line.split()).casefold()


def mask_line(line: str) -> str:
    """The comparison key of a line: whitespace collapsed, case folded, every number ``#``."""
    return _DIGITS.sub("#", _norm(line))


def _shape(line: str) -> tuple[str, int | None]:
    """A line with its last number folded, and that number (a running page number, if any)."""
    matches = list(_DIGITS.finditer(line))
    if not matches:
        return line, None
    last = matches[-1]
    return line[: last.start()] + "#" + line[last.end():], int(last.group())


class PageFurniture:
    """Running headers, footers and folios of one document, from the page texts alone.

    Computed on first use and kept: ``keys`` are the masked lines that recur at page edges across
    the document (what summaries drop), ``is_running`` a folio or a line that opens or closes
    several pages verbatim; ``covers`` (is the text ahead of a heading furniture?) asks more: a
    folio, or a line that tops a nearby page verbatim or with its number advanced by the pages
    between, since a chapter's running title repeats the heading printed on its first page."""

    def __init__(self, doc: SourceDoc):
        self._doc = doc
        self._units = doc.units
        self._keys: frozenset[str] | None = None
        self._verbatim: frozenset[str] = frozenset()
        self._tops: dict[int, list[str]] = {}

    @property
    def keys(self) -> frozenset[str]:
        """Masked running lines: among the first or last few lines of a share of the pages, or opening
        or closing several pages verbatim. A lone ``$`` or ``—`` at page edges is a table cell."""
        if self._keys is None:
            self._edge_lines()
        assert self._keys is not None
        return self._keys

    def _edge_lines(self) -> None:
        self._keys, self._verbatim = frozenset(), frozenset()
        if not self._doc.paged or len(self._units) < FURNITURE_MIN_REPEATS:
            return
        masked: Counter[str] = Counter()
        verbatim: Counter[str] = Counter()
        k, v = FURNITURE_EDGE_LINES, FURNITURE_VERBATIM_LINES
        for unit in self._units:
            lines = [ln for ln in unit.text.splitlines() if ln.strip()]
            masked.update({mask_line(ln) for ln in lines[:k] + lines[-k:] if len(ln) <= FURNITURE_CHARS})
            verbatim.update({_norm(ln) for ln in lines[:v] + lines[-v:] if len(ln) <= FURNITURE_CHARS})
        limit = max(FURNITURE_MIN_REPEATS, math.ceil(FURNITURE_MASKED_SHARE * len(self._units)))
        self._verbatim = frozenset(key for key, c in verbatim.items() if c >= FURNITURE_MIN_REPEATS)
        found = {key for key, c in masked.items() if c >= limit}
        found.update(key for key in self._verbatim if not _DIGITS.search(key))
        self._keys = frozenset(key for key in found if "#" in key or any(ch.isalpha() for ch in key))

    def is_running(self, line: str) -> bool:
        """A folio, or a line that opens or closes several pages verbatim. (A line that recurs only
        with its figures masked may be a numbered paragraph; its position, in ``covers``, tells.)"""
        if is_page_number(line):
            return True
        if self._keys is None:
            self._edge_lines()
        return len(line) <= FURNITURE_CHARS and _norm(line) in self._verbatim

    def _top(self, index: int) -> list[str]:
        if index not in self._tops:
            lines = (_norm(ln) for ln in self._units[index].text.splitlines() if ln.strip())
            self._tops[index] = [ln for _, ln in zip(range(FURNITURE_TOP_LINES), lines, strict=False)]
        return self._tops[index]

    def covers(self, index: int, text: str) -> bool:
        """True when every line of ``text`` (from the top of page ``index``) is furniture; more lines
        than a page's top holds are never all furniture."""
        lines: list[str] = []
        for ln in text.splitlines():  # the text ahead of a heading may be most of a page: stop early
            if ln.strip():
                lines.append(ln)
                if len(lines) > FURNITURE_TOP_LINES:
                    return False
        near = [j for j in (index - 2, index - 1, index + 1, index + 2) if 0 <= j < len(self._units)]
        for line in lines:
            norm = _norm(line)
            if not norm or is_page_number(norm):
                continue  # a line repeated on many pages may be the title it runs over: position decides
            if any(norm in self._top(j) for j in near):
                continue
            shape, number = _shape(norm)
            if number is None:
                return False
            advanced = sum(
                any((o := _shape(other))[0] == shape and o[1] == number + (j - index) for other in self._top(j))
                for j in near
            )
            if advanced < 2:
                return False
        return True

    def lead_only(self, unit: Unit, char: int) -> bool:
        """Whether the text of ``unit`` ahead of ``char`` is only furniture (``covers``), so that a
        heading at ``char`` starts the page: text order may put a folio or running header first."""
        lead = unit.text[:char]
        return not lead.strip() or self.covers(unit.index, lead)


def _keys(line: Line) -> tuple[tuple[str, int], tuple[str, int]]:
    y = int(round(line.y0 / FURNITURE_HEIGHT_STEP))
    text = line.text.casefold()
    return (text, y), ("\x00" + _DIGITS.sub("#", text), y)


def furniture(doc: SourceDoc, pages: range | None = None) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Running headers, footers and page numbers as ``(unit index, line index)``, and the lines that
    sit in a furniture slot without being proven furniture (running titles seen once: a heading
    whose title they repeat tells them apart)."""
    pages = pages if pages is not None else range(len(doc.units))
    seen: dict[tuple[str, int], set[int]] = defaultdict(set)
    slot_pages: dict[int, set[int]] = defaultdict(set)
    banded: list[tuple[int, int, tuple[str, int], tuple[str, int]]] = []
    out: set[tuple[int, int]] = set()
    for u in pages:
        height = doc.units[u].height or PAGE_HEIGHT
        top, bottom = height * FURNITURE_BAND, height * (1.0 - FURNITURE_BAND)
        band = [(j, line) for j, line in enumerate(doc.lines(u)) if line.y1 <= top or line.y0 >= bottom]
        cells = _figure_cells(band)
        for j, line in band:
            if j in cells:
                continue
            exact, masked = _keys(line)
            if is_page_number(line.text):
                out.add((u, j))
                slot_pages[exact[1]].add(u)
                continue
            seen[exact].add(u)
            seen[masked].add(u)
            banded.append((u, j, exact, masked))
    n = len(pages)
    least = max(2, min(FURNITURE_MIN_REPEATS, n))  # a two-page document repeats its header twice
    need_exact = max(least, int(n * FURNITURE_EXACT_SHARE))
    need_masked = max(least, int(n * FURNITURE_MASKED_SHARE))
    need_slot = max(least, int(n * FURNITURE_SLOT_SHARE))
    rest: list[tuple[int, int, tuple[str, int]]] = []
    count = functools.cache(functools.partial(_count, seen))  # ``seen`` is complete: a running line's key recurs
    for u, j, exact, masked in banded:
        line = doc.lines(u)[j]
        numbered_top = line.y0 < (doc.units[u].height or PAGE_HEIGHT) * UPPER_HALF \
            and (parse_numbering(line.text) is not None or is_label(line.text))
        if numbered_top and count(exact) < n * FURNITURE_MASKED_SHARE and not (
                count(exact) >= RUNNING_SECTION and parse_numbering(line.text) is not None):
            continue  # "CHAPTER" over every chapter title, "Exhibit 2.3.59-7" opening many pages
        if count(exact) >= need_exact or (not numbered_top and count(masked) >= need_masked):
            out.add((u, j))
            slot_pages[exact[1]].add(u)
        else:
            rest.append((u, j, exact))
    # slots are heights where proven furniture sits on many pages; body text that merely starts
    # at the same height on every page does not make one
    suspects: set[tuple[int, int]] = set()
    for u, j, exact in rest:
        y = exact[1]
        if len(slot_pages[y] | slot_pages.get(y - 1, set()) | slot_pages.get(y + 1, set())) >= need_slot:
            if count(exact) >= 2:
                out.add((u, j))
            else:
                suspects.add((u, j))
    return out, suspects


def _figure_cells(band: list[tuple[int, Line]]) -> set[int]:
    """Lines of a page's edge bands (``band``: index and line) that are a table's column headers, not
    furniture: figures only, several on one line (``2022 2021 2020``) or several such lines side by
    side on one row, with no text to their right (at most the table's stub, ``(in millions)``, to
    their left). A table that opens the page puts its row of years at the same height on many pages,
    where a running folio would sit; a folio stands alone, or at an end of a running header's row
    (``3  INTRODUCTION  7``)."""
    figure = {j: line for j, line in band if _FIGURES.match(line.text)}
    out: set[int] = set()
    if len(figure) < 2 and not any(len(line.text.split()) > 1 for line in figure.values()):
        return out  # a page's folio alone: the common case
    for j, line in band:
        if j in out or j not in figure:
            continue
        row = [(k, other) for k, other in band if abs(other.y0 - line.y0) < FURNITURE_HEIGHT_STEP]
        figures = [(k, other) for k, other in row if k in figure]
        if len(figures) < 2 and len(line.text.split()) < 2:
            continue
        text_right = max((other.x1 for k, other in row if k not in figure), default=-1.0)
        if all(other.x0 > text_right for _, other in figures):
            out.update(k for k, _ in figures)
    return out


def _count(seen: dict[tuple[str, int], set[int]], key: tuple[str, int]) -> int:
    """Pages with this text at this height or one step either side (headers drift a point)."""
    hits = seen.get(key, set())
    text, y = key
    return len(hits | seen.get((text, y - 1), set()) | seen.get((text, y + 1), set()))
