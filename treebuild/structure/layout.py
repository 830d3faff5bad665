"""One layout analysis per document, computed once and carried through the build.

Every structure source and later stage reads the page through this object rather than redoing
the work: page furniture (``furniture.PageFurniture``, from the page texts), the printed TOC (its
pages and placed entries) and the typographic scan (furniture lines, body size, TOC-like pages,
headings with typed style). Each part is computed on first use and kept,
so a document whose outline is trusted never pays for typography, and subdivision reuses the
structure stage's scan instead of a module-level cache.
"""

from __future__ import annotations

from ..model import Mark, Pos, SourceDoc
from ..text.furniture import PageFurniture
from .toc.marks import TocResult, toc_marks
from .typography.headings import HeadingScan, TitleBlock, scan_headings, to_marks

__all__ = ["Layout"]

_UNSET = object()


class Layout:
    """The layout facts of one document; parts computed on first use."""

    def __init__(self, doc: SourceDoc, title_block: TitleBlock | None = None):
        self.doc = doc
        self.title_block = title_block  # the installed sources' title-block hook (``registry.title_block``)
        self._toc: object = _UNSET
        self._scan: HeadingScan | None = None
        self._inner: list[Mark] | None = None
        self._furniture: PageFurniture | None = None

    @property
    def furniture(self) -> PageFurniture:
        """Running headers, footers and folios from the page texts; every stage asks this one."""
        if self._furniture is None:
            self._furniture = PageFurniture(self.doc)
        return self._furniture

    def toc(self) -> TocResult | None:
        """The printed TOC, found, parsed and placed once (``None`` when there is none)."""
        if self._toc is _UNSET:
            self._toc = toc_marks(self.doc, self.furniture) if self.doc.paged else None
        return self._toc  # type: ignore[return-value]

    @property
    def toc_pages(self) -> set[int]:
        """Pages of the printed TOC the TOC source read (0-based)."""
        toc = self.toc()
        return set(toc.toc_pages) if toc is not None else set()

    def scan(self) -> HeadingScan:
        """Typographic scan of the whole document: furniture, body size, TOC-like pages, headings.
        The printed TOC's pages are skipped (its entries are not sections)."""
        if self._scan is None:
            self._scan = scan_headings(self.doc, skip_pages=self.toc_pages, title_block=self.title_block)
        return self._scan

    @property
    def scanned(self) -> bool:
        return self._scan is not None

    @property
    def furniture_lines(self) -> set[tuple[int, int]]:
        """The typographic scan's furniture lines as ``(unit, line index)`` (same rule, with heights)."""
        return self.scan().furniture

    @property
    def body_size(self) -> float:
        return self.scan().body_size

    def headings_within(self, start: Pos, end: Pos) -> list[Mark]:
        """Every heading (minor ones included) strictly inside ``[start, end)``, as marks.

        Uses the whole-document scan when the structure stage made one; otherwise only the pages
        of the span are scanned (typography costs ~1.5 ms a page and a well-bookmarked document
        rarely needs it)."""
        if self._scan is not None:
            if self._inner is None:
                self._inner = sorted(to_marks(self._scan.headings), key=lambda m: m.pos)
            marks = self._inner
        else:
            last = end.unit if end.char > 0 else end.unit - 1
            scan = scan_headings(self.doc, range(start.unit, max(start.unit, last) + 1),
                                 title_block=self.title_block)
            marks = sorted(to_marks(scan.headings), key=lambda m: m.pos)
        return [m for m in marks if start < m.pos < end]

