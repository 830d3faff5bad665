"""A document without pages laid out on pages anyway: the :class:`~treebuild.model.LayoutView` of its blocks.

HTML without page breaks and text without form feeds are read as block units with no pages to cite.
Their headings are still set apart by type and numbering, which the structure stage reads on printed
pages (typography, numbering depth, a printed contents). The readers lay such a document out as a
browser or a terminal shows it (typographic ``Line`` s, one column), and this module cuts those lines
into pages of a sheet's height, each cut between two blocks, keeping where every line came from
(its block unit and its offset there) so that the structure stage's positions map back to the blocks.
"""

from __future__ import annotations

import dataclasses
from array import array
from collections.abc import Callable, Iterable

from ..model import Format, LayoutView, Line, SourceDoc, Unit, UnitKind

__all__ = ["view_pages", "VIEW_PAGE_HEIGHT", "VIEW_MARGIN"]

VIEW_PAGE_HEIGHT = 792.0
"""A view page is a US Letter sheet tall, in points (what a browser prints on)."""
VIEW_MARGIN = 36.0
"""Top margin of a view page: its first line's top."""


def view_pages(lines: Iterable[tuple[Line, int, int]], *, path: str, sha256: str, size: int, fmt: Format,
               title: str | None = None) -> LayoutView:
    """``lines`` (each a laid-out line, its block unit and its offset in that unit's text, in reading
    order, ``y`` growing down the document) cut into pages: a page ends before the first line of a
    block that would cross the sheet's foot (a block taller than a sheet stays whole on its page)."""
    pages: list[list[Line]] = []
    starts: list[tuple[array[int], array[int], array[int]]] = []  # per page: line starts, units, unit chars
    texts: list[list[str]] = []
    base = 0.0
    at = 0  # where the next line starts in its page's text
    for ln, unit, char in lines:
        if not pages or ln.block != pages[-1][-1].block and ln.y1 - base > VIEW_PAGE_HEIGHT - VIEW_MARGIN:
            base = ln.y0 - VIEW_MARGIN
            pages.append([])
            starts.append((array("q"), array("q"), array("q")))
            texts.append([])
            at = 0
        pages[-1].append(dataclasses.replace(ln, char=at, y0=ln.y0 - base, y1=ln.y1 - base))
        here = starts[-1]
        here[0].append(at)
        here[1].append(unit)
        here[2].append(char)
        texts[-1].append(ln.text)
        at += len(ln.text) + 1
    units = [Unit(index=i, kind=UnitKind.page, text="\n".join(t), page=i + 1,
                  height=max(VIEW_PAGE_HEIGHT, max((ln.y1 for ln in pages[i]), default=0.0) + VIEW_MARGIN),
                  block_source=_blocks(pages))
             for i, t in enumerate(texts)]
    doc = SourceDoc(path=path, format=fmt, units=units, sha256=sha256, size=size, title=title,
                    page_count=len(units), _lines=lambda i: pages[i] if 0 <= i < len(pages) else [])
    return LayoutView(doc, starts)


def _blocks(pages: list[list[Line]]) -> Callable[[int], list[tuple[float, float, int]]]:
    """A view page's text blocks as ``(y0, y1, char)``, one a line, made when a stage asks."""
    return lambda i: [(ln.y0, ln.y1, ln.char) for ln in pages[i]]
