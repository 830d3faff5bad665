"""Generate small PDFs with printed tables of contents for the TOC tests (PyMuPDF).

A document is described by its pages: TOC pages (title, rows, layout), body pages (headings at
given heights between filler text) and optional printed folios or PDF page labels. The tests
then read the file with the real PDF reader and check where ``toc_marks`` puts each section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

__all__ = ["TocRow", "Heading", "Builder", "FILLER"]

WIDTH, HEIGHT = 612.0, 792.0
LEFT, RIGHT = 72.0, 540.0
FILLER = [
    "The committee reviewed every submission against the published criteria before the deadline.",
    "Measurements were repeated twice and the average value was recorded in the laboratory log.",
    "Operators should confirm the configuration before enabling automatic replication of data.",
    "Each participant received written instructions describing the schedule and expectations.",
    "Maintenance windows are announced one week ahead through the usual notification channels.",
    "Results from the pilot were consistent with the projections made in the earlier assessment.",
]


@dataclass
class TocRow:
    """One printed TOC entry: indentation step, text, page reference (None: not printed)."""

    indent: int
    text: str
    ref: str | None = None
    bold: bool = False


@dataclass
class Heading:
    """A heading drawn on a body page at baseline ``y``."""

    text: str
    y: float = 90.0
    size: float = 14.0
    bold: bool = True


@dataclass
class Builder:
    """Collects pages, then writes the PDF. Page methods return the page index."""

    path: Path
    doc: pymupdf.Document = field(default_factory=pymupdf.open)

    def _page(self) -> pymupdf.Page:
        return self.doc.new_page(width=WIDTH, height=HEIGHT)

    @staticmethod
    def text(page: pymupdf.Page, x: float, y: float, text: str, size: float = 10.0, bold: bool = False) -> None:
        page.insert_text((x, y), text, fontsize=size, fontname="hebo" if bold else "helv")

    @staticmethod
    def width(text: str, size: float = 10.0, bold: bool = False) -> float:
        return float(pymupdf.get_text_length(text, fontname="hebo" if bold else "helv", fontsize=size))

    def folio(self, page: pymupdf.Page, folio: str | None) -> None:
        if folio is not None:
            self.text(page, WIDTH / 2 - self.width(folio) / 2, HEIGHT - 36, folio)

    def blank(self, text: str = "", folio: str | None = None) -> int:
        page = self._page()
        if text:
            self.text(page, LEFT, 120, text, size=20, bold=True)
        self.folio(page, folio)
        return page.number

    def body(self, headings: list[Heading] | None = None, folio: str | None = None, lines: int = 40,
             running: str | None = None) -> int:
        """A page of filler lines with headings inserted at their heights."""
        page = self._page()
        if running:
            self.text(page, LEFT, 40, running, size=8)
        marks = sorted(headings or [], key=lambda h: h.y)
        y = 72.0
        i = 0
        for h in marks:
            while y < h.y - 18:
                self.text(page, LEFT, y, FILLER[i % len(FILLER)])
                y += 14
                i += 1
            self.text(page, LEFT, h.y, h.text, size=h.size, bold=h.bold)
            y = h.y + 22
        end = 72.0 + 14 * lines
        while y < min(end, HEIGHT - 60):
            self.text(page, LEFT, y, FILLER[i % len(FILLER)])
            y += 14
            i += 1
        self.folio(page, folio)
        return page.number

    def toc(self, rows: list[TocRow], title: str | None = "Contents", style: str = "dots", folio: str | None = None,
            columns: int = 1, step: float = 18.0, width: float | None = None, top: float = 110.0,
            shift: float = 0.0) -> int:
        """A TOC page. ``style``: "dots" (leaders), "aligned" (right-aligned numbers), "plain".
        ``shift`` moves the whole text block sideways (mirrored margins of facing pages)."""
        page = self._page()
        if title:
            self.text(page, LEFT + shift, 80, title, size=16, bold=True)
        col_w = (RIGHT - LEFT) / columns - (20 if columns > 1 else 0)
        per_col = -(-len(rows) // columns)
        for c in range(columns):
            x0 = LEFT + shift + c * ((RIGHT - LEFT) / columns + (10 if columns > 1 else 0))
            y = top
            for row in rows[c * per_col:(c + 1) * per_col]:
                y = self._toc_row(page, row, x0, x0 + col_w, y, style, step, width)
        self.folio(page, folio)
        return page.number

    def _toc_row(self, page: pymupdf.Page, row: TocRow, x0: float, x1: float, y: float, style: str, step: float,
                 width: float | None) -> float:
        x = x0 + 18 * row.indent
        num_w = self.width(row.ref) if row.ref else 0.0
        limit = width if width is not None else (x1 - x - num_w - 30)
        words = row.text.split()
        lines: list[str] = []
        cur = ""
        for w in words:
            nxt = f"{cur} {w}".strip()
            if cur and self.width(nxt, bold=row.bold) > limit:
                lines.append(cur)
                cur = w
            else:
                cur = nxt
        lines.append(cur)
        for j, line in enumerate(lines):
            lx = x if j == 0 else x + 12
            self.text(page, lx, y, line, bold=row.bold)
            last = j == len(lines) - 1
            if last and row.ref and style != "plain":
                if style == "dots":
                    start = lx + self.width(line, bold=row.bold) + 6
                    end = x1 - num_w - 6
                    n = max(3, int((end - start) / self.width(". ")))
                    self.text(page, start, y, ". " * n)
                self.text(page, x1 - num_w, y, row.ref)
            y += step
        return y

    def sec_toc(self, rows: list[tuple[str, str, str | None]], title: str = "Table of Contents",
                folio: str | None = None) -> int:
        """An SEC-style index: ``(label, title, page)``; a row with an empty title is a Part row."""
        page = self._page()
        self.text(page, LEFT, 70, title, size=12, bold=True)
        self.text(page, RIGHT - self.width("Page"), 96, "Page", bold=True)
        y = 96.0
        for label, text, ref in rows:
            if not text:
                y += 8
                self.text(page, 40, y, label, bold=True)
            else:
                self.text(page, LEFT, y, label)
                self.text(page, 130, y, text)
                if ref:
                    self.text(page, RIGHT - self.width(ref), y, ref)
            y += 16
        self.folio(page, folio)
        return page.number

    def table(self, rows: list[list[str]], title: str = "Consolidated Balance Sheets", folio: str | None = None) -> int:
        """A financial statement page: a label column and right-aligned figures."""
        page = self._page()
        self.text(page, LEFT, 70, title, size=12, bold=True)
        y = 100.0
        for row in rows:
            self.text(page, LEFT, y, row[0])
            for k, cell in enumerate(row[1:]):
                right = 400 + 70 * k
                self.text(page, right - self.width(cell), y, cell)
            y += 15
        self.folio(page, folio)
        return page.number

    def labels(self, rules: list[dict[str, object]]) -> None:
        self.doc.set_page_labels(rules)

    def save(self) -> Path:
        self.doc.save(self.path)
        self.doc.close()
        return self.path
