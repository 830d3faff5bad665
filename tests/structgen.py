"""PDF generators for structure-detection tests: real PDFs written with PyMuPDF.

``Writer`` lays text out top-down (headings, wrapped paragraphs, page breaks) with Helvetica
(``helv``) for body text and Helvetica-Bold (``hebo``) for bold, and stamps a running header and a
page-number footer on every page, so tests see the same furniture real documents have.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

WIDTH, HEIGHT = 612, 792
LEFT, RIGHT = 72, 540
TOP, BOTTOM = 90, 720
BODY = 10.0

LOREM = (
    "The committee reviewed the program in detail and found that the controls operate as designed. "
    "Each unit reports its figures every quarter and the figures are checked against the ledger. "
    "Exceptions are recorded, explained and closed within thirty days of the review. "
)


class Writer:
    """Flowing layout: ``heading`` and ``para`` advance a cursor; pages break automatically."""

    def __init__(self, header: str | None = "Annual Program Manual", footer: bool = True, header_size: float = 12.0):
        self.doc = pymupdf.open()
        self.header = header
        self.header_size = header_size
        self.footer = footer
        self.page: pymupdf.Page | None = None
        self.y = TOP
        self.new_page()

    def new_page(self) -> None:
        self.page = self.doc.new_page(width=WIDTH, height=HEIGHT)
        n = self.doc.page_count
        if self.header:
            # bold and larger than the body: only its repetition tells it from a heading
            self.page.insert_text((LEFT, 40), self.header, fontsize=self.header_size, fontname="hebo")
        if self.footer:
            self.page.insert_text((WIDTH / 2 - 5, 760), str(n), fontsize=9, fontname="helv")
        self.y = TOP

    @property
    def page_number(self) -> int:
        return self.doc.page_count

    def _line(self, text: str, size: float, bold: bool, x: float = LEFT) -> None:
        if self.y + size > BOTTOM:
            self.new_page()
        assert self.page is not None
        self.page.insert_text((x, self.y + size), text, fontsize=size, fontname="hebo" if bold else "helv")
        self.y += size * 1.25

    def heading(self, text: str, size: float = 14.0, bold: bool = True, space: float = 10.0) -> int:
        """Write a heading; returns its 1-based page number."""
        if self.y + size * 3 > BOTTOM:
            self.new_page()
        self.y += space
        self._line(text, size, bold)
        self.y += 4
        return self.page_number

    def para(self, text: str = LOREM, size: float = BODY, bold: bool = False) -> None:
        """A wrapped paragraph of body text followed by a gap."""
        width = int((RIGHT - LEFT) / (size * 0.5))
        words = text.split()
        line: list[str] = []
        for w in words:
            if line and len(" ".join(line + [w])) > width:
                self._line(" ".join(line), size, bold)
                line = []
            line.append(w)
        if line:
            self._line(" ".join(line), size, bold)
        self.y += size * 0.8

    def paras(self, n: int, text: str = LOREM) -> None:
        for _ in range(n):
            self.para(text * 2)

    def fill_pages(self, pages: int) -> None:
        """Body text until ``pages`` more pages have started."""
        target = self.page_number + pages
        while self.page_number < target:
            self.para(LOREM * 3)

    def save(self, path: Path, toc: list[list[object]] | None = None) -> Path:
        if toc:
            self.doc.set_toc(toc)
        self.doc.save(path)
        self.doc.close()
        return path
