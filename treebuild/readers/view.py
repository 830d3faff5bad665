"""A document without pages laid out on pages anyway: the :class:`~treebuild.model.LayoutView` of its blocks.

HTML without page breaks and text without form feeds are read as block units with no pages to cite.
Their headings are still set apart by type and numbering, which the structure stage reads on printed
pages (typography, numbering depth, a printed contents). The readers lay such a document out as a
browser or a terminal shows it (typographic ``Line`` s, one column) and keep those lines as
:class:`LaidLines` (columns of numbers, the text left in the block units); this module cuts them into
pages of a sheet's height, each cut between two blocks, keeping where every line came from (its block
unit and its offset there) so that the structure stage's positions map back to the blocks. The view is
made each time the structure stage asks and let go when it is done: it is the document's text twice
more, with a ``Line`` a printed line.
"""

from __future__ import annotations

import dataclasses
from array import array
from collections.abc import Callable, Sequence
from typing import Any

from ..model import Format, LayoutView, Line, SourceDoc, Unit, UnitKind

__all__ = ["LaidLines", "view_pages", "VIEW_PAGE_HEIGHT", "VIEW_MARGIN"]

VIEW_PAGE_HEIGHT = 792.0
"""A view page is a US Letter sheet tall, in points (what a browser prints on)."""
VIEW_MARGIN = 36.0
"""Top margin of a view page: its first line's top."""

_PLACE = ("text", "x0", "y0", "x1", "y1", "char", "block")
"""A ``Line``'s own fields, kept in :class:`LaidLines`' columns; the rest are its type (size, weight, font, a
run-in head's length and size), kept once for each distinct type."""
_TYPE = tuple(f.name for f in dataclasses.fields(Line) if f.name not in _PLACE)


class LaidLines:
    """The typographic lines of a document without pages, laid out down it (``y`` growing down the
    document), in reading order, each with its block unit and its offset in that unit's text, kept as
    columns: four floats and five integers a line, its type (size, weight, font) once for each distinct
    type, and its text only where it is not its unit's text at its offset (a table row's cell). Held by the reader until
    the structure stage asks for the view; the ``Line`` objects and their strings cost 4-5 times that."""

    def __init__(self) -> None:
        self._floats = array("d")  # x0, y0, x1, y1 a line
        self._ints = array("i")  # unit, char in the unit, length, block, type a line
        self._types: list[dict[str, Any]] = []
        self._type_ids: dict[tuple[Any, ...], int] = {}
        self._texts: dict[int, str] = {}  # lines whose text is not a slice of their unit's

    def __len__(self) -> int:
        return len(self._ints) // 5

    def add(self, line: Line, unit: int, char: int, unit_text: str) -> None:
        """``line``, laid out in block unit ``unit`` (whose text is ``unit_text``) at offset ``char``."""
        kind = tuple(getattr(line, name) for name in _TYPE)
        tid = self._type_ids.get(kind)
        if tid is None:
            tid = self._type_ids[kind] = len(self._types)
            self._types.append(dict(zip(_TYPE, kind, strict=True)))
        if not unit_text.startswith(line.text, char):
            self._texts[len(self)] = line.text
        self._floats.extend((line.x0, line.y0, line.x1, line.y1))
        self._ints.extend((unit, char, len(line.text), line.block, tid))

    def unit(self, k: int) -> tuple[int, int]:
        """Line ``k``'s block unit and its offset in that unit's text."""
        return self._ints[5 * k], self._ints[5 * k + 1]


def view_pages(laid: LaidLines, units: Sequence[Unit], *, path: str, sha256: str, size: int, fmt: Format,
               title: str | None = None) -> LayoutView:
    """The lines of ``laid`` (their texts read from ``units``, the block units) cut into pages: a page ends
    before the first line of a block that would cross the sheet's foot (a block taller than a sheet stays
    whole on its page)."""
    pages: list[list[Line]] = []
    starts: list[tuple[array[int], array[int], array[int]]] = []  # per page: line starts, units, unit chars
    texts: list[list[str]] = []
    base = 0.0
    at = 0  # where the next line starts in its page's text
    floats, ints, types, own = laid._floats, laid._ints, laid._types, laid._texts
    shared: dict[float, float] = {}  # one object for equal numbers: margins, widths, heights on a page
    offsets: dict[int, int] = {}  # ... and for equal offsets on a page
    last_block = -1
    for k in range(len(laid)):
        x0, y0, x1, y1 = floats[4 * k:4 * k + 4]
        unit, char, n, block, kind = ints[5 * k:5 * k + 5]
        if not pages or block != last_block and y1 - base > VIEW_PAGE_HEIGHT - VIEW_MARGIN:
            base = y0 - VIEW_MARGIN
            pages.append([])
            starts.append((array("i"), array("i"), array("i")))
            texts.append([])
            at = 0
        text = own.get(k)
        if text is None:
            text = units[unit].text[char:char + n]
        top, foot = y0 - base, y1 - base
        block = last_block if block == last_block else block
        last_block = block
        pages[-1].append(Line(text=text, x0=shared.setdefault(x0, x0), y0=shared.setdefault(top, top),
                              x1=shared.setdefault(x1, x1), y1=shared.setdefault(foot, foot),
                              char=offsets.setdefault(at, at), block=block, **types[kind]))
        here = starts[-1]
        here[0].append(at)
        here[1].append(unit)
        here[2].append(char)
        texts[-1].append(text)
        at += n + 1
    units_out = [Unit(index=i, kind=UnitKind.page, text="\n".join(t), page=i + 1,
                      height=max(VIEW_PAGE_HEIGHT, max((ln.y1 for ln in pages[i]), default=0.0) + VIEW_MARGIN),
                      block_source=_blocks(pages))
                 for i, t in enumerate(texts)]
    doc = SourceDoc(path=path, format=fmt, units=units_out, sha256=sha256, size=size, title=title,
                    page_count=len(units_out), _lines=lambda i: pages[i] if 0 <= i < len(pages) else [])
    return LayoutView(doc, starts)


def _blocks(pages: list[list[Line]]) -> Callable[[int], list[tuple[float, float, int]]]:
    """A view page's text blocks as ``(y0, y1, char)``, one a line, made when a stage asks."""
    return lambda i: [(ln.y0, ln.y1, ln.char) for ln in pages[i]]
