"""Builders for the small real documents the tests read.

PDFs are written with PyMuPDF (text at known positions, outlines with destination points,
page labels, encryption, figure-only pages); their bookmarks can be rewritten to named or
page-only destinations, as LaTeX/Sphinx/Texinfo and ReportLab write them. DOCX files are
written with python-docx plus the few raw WordprocessingML elements python-docx has no API for
(outline levels, fields, content controls, merges).
Lines placed ``LINE_GAP`` apart each become their own text block, so a test can state a
page's exact text from the lines it placed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.styles.style import ParagraphStyle
from docx.text.paragraph import Paragraph

__all__ = [
    "BODY_SIZE", "BODY_TOP", "HEADING_SIZE", "LINE_GAP", "LINES_PER_PAGE", "PAGE_WIDTH", "PAGE_HEIGHT",
    "Text", "Section", "LaidOut",
    "toc_row", "dest_y", "write_pdf", "page_text", "layout_sections", "rewrite_destinations",
    "BALANCE", "statement_pdf", "set_outline_level", "add_style", "add_toc_field", "add_toc_sdt", "add_field",
    "add_tracked_deletion",
]

BODY_SIZE = 11.0
HEADING_SIZE = 14.0
LINE_GAP = 24.0
"""Baseline distance that keeps consecutive lines in separate text blocks."""
BODY_TOP = 100.0
"""First baseline: below the top 10 % band that outline snapping treats as running headers."""
LINES_PER_PAGE = 27
PAGE_WIDTH, PAGE_HEIGHT = 612.0, 792.0  # US Letter


# --- PDF -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Text:
    """A line of text with its baseline ``y``; ``bold`` uses Helvetica-Bold."""

    text: str
    y: float
    size: float = BODY_SIZE
    bold: bool = False


def dest_y(line: Text) -> float:
    """A destination y just above a line's glyphs, as a PDF writer would set for a heading."""
    return line.y - line.size - 2.0


def toc_row(level: int, title: str, page: int, y: float | None = None) -> list[Any]:
    """A ``set_toc`` row pointing at 1-based ``page``, at ``y`` from the top when given."""
    row: list[Any] = [level, title, page]
    if y is not None:
        row.append({"kind": pymupdf.LINK_GOTO, "page": page - 1, "to": pymupdf.Point(72, y)})
    return row


def _place(lines: Sequence[Text | str]) -> list[Text]:
    placed: list[Text] = []
    y = BODY_TOP - LINE_GAP
    for line in lines:
        if isinstance(line, Text):
            placed.append(line)
            y = line.y
        else:
            y += LINE_GAP
            placed.append(Text(line, y))
    return placed


def page_text(lines: Sequence[Text | str]) -> str:
    """The unit text the PDF reader gives a page written by :func:`write_pdf` (one block per line)."""
    return "".join(t.text + "\n" for t in sorted(_place(lines), key=lambda t: t.y))


def write_pdf(path: Path, pages: Sequence[Sequence[Text | str]], *, toc: Sequence[list[Any]] | None = None,
              labels: Sequence[dict[str, Any]] | None = None, metadata: dict[str, str] | None = None,
              encrypt: bool = False, figures: Sequence[int] = ()) -> Path:
    """Write a PDF whose pages hold ``pages``' lines; plain strings flow down from ``BODY_TOP``.

    Pages whose 0-based index is in ``figures`` also get a raster image (a scan, a figure): with
    no lines they are pages without a text layer.
    """
    doc = pymupdf.open()
    for k, lines in enumerate(pages):
        page = doc.new_page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
        shape = page.new_shape()  # one Shape and commit per page, not per line (page.insert_text's cost)
        for t in _place(lines):
            shape.insert_text((72, t.y), t.text, fontsize=t.size, fontname="hebo" if t.bold else "helv")
        shape.commit()
        if k in figures:
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 32, 32), False)
            pix.clear_with(90 + 40 * (k % 4))
            page.insert_image(pymupdf.Rect(72, 150, 540, 600), pixmap=pix)
    if toc:
        doc.set_toc([list(row) for row in toc])
    if labels:
        doc.set_page_labels([dict(rule) for rule in labels])
    if metadata:
        doc.set_metadata(metadata)
    if encrypt:
        aes256 = pymupdf.PDF_ENCRYPT_AES_256  # type: ignore[attr-defined]  # missing from the stubs
        doc.save(path, encryption=aes256, user_pw="x", owner_pw="y")
    else:
        doc.save(path)
    doc.close()
    return path


BALANCE = [("Cash and cash equivalents", "$ 4,236", "$ 3,844"), ("Short-term investments", "1,860", "1,954"),
           ("Trade receivables, net", "2,065", "1,878"), ("Total current assets", "8,996", "8,669"),
           ("Goodwill", "12,787", "12,668"), ("Other assets", "(841)", "-"), ("Total assets", "$ 27,165", "$ 27,241")]


def statement_pdf(path: Path, *, ruled: bool = False, prose_pages: int = 2) -> Path:
    """A filing-like PDF: prose pages, then a balance sheet printed as whitespace-aligned columns (cells placed
    one by one, figures right-aligned, two-line column headings, a units note, label-only rows), optionally
    with rules under each row, then a page of prose."""
    doc = pymupdf.open()
    prose = ("The company designs and sells software. Revenue grew in the year as customers moved to "
             "subscriptions, and the outlook remains positive for the next fiscal period.")
    for n in range(prose_pages):
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(72, 72, 540, 700), f"Part {n + 1}. Business\n\n" + prose * 6, fontsize=10)
    page = doc.new_page()
    page.insert_text((200, 60), "CONSOLIDATED BALANCE SHEETS", fontsize=11)
    page.insert_text((220, 76), "(In millions)", fontsize=9)
    font = pymupdf.Font("helv")

    def right(x1: float, y: float, text: str) -> None:
        page.insert_text((x1 - font.text_length(text, fontsize=9), y), text, fontsize=9)

    right(440, 100, "December 2,")
    right(520, 100, "December 3,")
    right(440, 110, "2022")
    right(520, 110, "2021")
    y = 128.0
    page.insert_text((60, y), "ASSETS", fontsize=9)
    y += 12
    page.insert_text((60, y), "Current assets:", fontsize=9)
    for label, a, b in BALANCE:
        y += 12
        page.insert_text((66, y), label, fontsize=9)
        for x1, value in ((440, a), (520, b)):
            if value.startswith("$ "):
                page.insert_text((x1 - 60, y), "$", fontsize=9)
                value = value[2:]
            right(x1, y, value)
        if ruled:
            page.draw_line((60, y + 3), (522, y + 3), width=0.5)
    page.insert_text((60, y + 30), "See the notes to the consolidated financial statements.", fontsize=9)
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 700), "Notes\n\n" + prose * 4, fontsize=10)
    doc.save(path)
    return path


def rewrite_destinations(path: Path, how: str) -> Path:
    """Rewrite the bookmarks of a PDF from :func:`write_pdf` in place, the way other writers store them.

    ``"named"``: each bookmark gets a named destination (``/Dest (section.0003)``) that the
    catalog's ``/Names /Dests`` tree maps to the same point as before, ``[page /XYZ x y null]`` in
    bottom-up PDF space, as LaTeX/hyperref, Sphinx and Texinfo write them. ``"fit"``: each
    bookmark points at its page only (``[page /Fit]``), as ReportLab writes them; ``"named-fit"``:
    named destinations that map to ``[page /Fit]``.
    """
    if how not in ("named", "fit", "named-fit"):
        raise ValueError(f"unknown destination style {how!r}")
    doc = pymupdf.open(path)
    names: list[str] = []
    for k, (_, _, page, dest) in enumerate(doc.get_toc(simple=False)):
        xref, page_ref = dest["xref"], f"{doc.page_xref(page - 1)} 0 R"
        doc.xref_set_key(xref, "A", "null")  # drop the GoTo action set_toc wrote
        if how == "fit":
            doc.xref_set_key(xref, "Dest", f"[{page_ref} /Fit]")
            continue
        name = f"section.{k:04d}"  # zero-padded: a name tree's keys must be sorted
        doc.xref_set_key(xref, "Dest", f"({name})")
        to = dest["to"]
        target = "/Fit" if how == "named-fit" else f"/XYZ {to.x:g} {PAGE_HEIGHT - to.y:g} null"
        names.append(f"({name}) [{page_ref} {target}]")
    if names:
        doc.xref_set_key(doc.pdf_catalog(), "Names", f"<< /Dests << /Names [{' '.join(names)}] >> >>")
    doc.saveIncr()
    doc.close()
    return path


@dataclass(frozen=True)
class Section:
    """A heading at 1-based outline ``level`` followed by ``body`` lines."""

    level: int
    title: str
    body: int = 0


@dataclass
class LaidOut:
    """Where :func:`layout_sections` put everything, to state expected trees from."""

    path: Path
    sections: list[Section]
    pages: list[list[Text]] = field(default_factory=list)
    heading_at: list[tuple[int, int]] = field(default_factory=list)  # (page index, line index) per section

    def subtree_end(self, i: int) -> int:
        """Index of the first section after ``i`` that is not inside ``i``'s subtree."""
        j = i + 1
        while j < len(self.sections) and self.sections[j].level > self.sections[i].level:
            j += 1
        return j

    def _line_range(self, i: int, j: int) -> tuple[tuple[int, int], tuple[int, int]]:
        end = self.heading_at[j] if j < len(self.sections) else (len(self.pages) - 1, len(self.pages[-1]))
        return self.heading_at[i], end

    def text(self, i: int) -> str:
        """Exact text of section ``i`` with its subsection: its lines, pages joined by a newline."""
        (p0, l0), (p1, l1) = self._line_range(i, self.subtree_end(i))
        parts = []
        for p in range(p0, p1 + 1):
            lo = l0 if p == p0 else 0
            hi = l1 if p == p1 else len(self.pages[p])
            if hi > lo:
                parts.append("".join(t.text + "\n" for t in self.pages[p][lo:hi]))
        return "\n".join(parts)

    def pages_of(self, i: int) -> tuple[int, int]:
        """1-based first and last page holding a line of section ``i``'s subtree."""
        (p0, _), (p1, l1) = self._line_range(i, self.subtree_end(i))
        return p0 + 1, (p1 if l1 == 0 else p1 + 1)

    def parent(self, i: int) -> int | None:
        for j in range(i - 1, -1, -1):
            if self.sections[j].level < self.sections[i].level:
                return j
        return None


def layout_sections(path: Path, sections: Sequence[Section], *, preface: Sequence[str] = (),
                    lines_per_page: int = LINES_PER_PAGE) -> LaidOut:
    """Flow headings and body lines down the pages and bookmark every heading at its y.

    Preface lines, if any, fill page 1 alone so the first section starts on page 2.
    """
    out = LaidOut(path=path, sections=list(sections))
    pages: list[list[Text]] = []
    if preface:
        pages.append([Text(s, BODY_TOP + k * LINE_GAP) for k, s in enumerate(preface)])
    page: list[Text] = []
    pages.append(page)

    def put(text: str, size: float, bold: bool) -> tuple[int, int]:
        nonlocal page
        if len(page) == lines_per_page:
            page = []
            pages.append(page)
        page.append(Text(text, BODY_TOP + len(page) * LINE_GAP, size, bold))
        return len(pages) - 1, len(page) - 1

    toc = []
    for i, s in enumerate(sections):
        where = put(s.title, HEADING_SIZE, True)
        out.heading_at.append(where)
        toc.append(toc_row(s.level, s.title, where[0] + 1, dest_y(pages[where[0]][where[1]])))
        for k in range(s.body):
            put(f"s{i} body line {k}", BODY_SIZE, False)
    out.pages = pages
    write_pdf(path, pages, toc=toc)
    return out


# --- DOCX ------------------------------------------------------------------------------------

def set_outline_level(target: Paragraph | ParagraphStyle, level: int) -> None:
    """Set ``w:outlineLvl`` (0-based; 9 = body text) on a paragraph or a paragraph style."""
    ppr = target.element.get_or_add_pPr() if isinstance(target, ParagraphStyle) else target._p.get_or_add_pPr()
    for old in ppr.findall(qn("w:outlineLvl")):
        ppr.remove(old)
    el = OxmlElement("w:outlineLvl")
    el.set(qn("w:val"), str(level))
    ppr.append(el)


def add_style(document: Any, name: str, *, based_on: str | None = None,
              outline_level: int | None = None) -> ParagraphStyle:
    """A custom paragraph style, optionally based on another and with its own outline level."""
    style = document.styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
    if based_on is not None:
        style.base_style = document.styles[based_on]
    if outline_level is not None:
        set_outline_level(style, outline_level)
    return style


def _run(paragraph_el: Any, child: Any) -> None:
    r = OxmlElement("w:r")
    r.append(child)
    paragraph_el.append(r)


def _fld_char(kind: str) -> Any:
    el = OxmlElement("w:fldChar")
    el.set(qn("w:fldCharType"), kind)
    return el


def _text(value: str) -> Any:
    el = OxmlElement("w:t")
    el.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    el.text = value
    return el


def add_field(paragraph: Paragraph, instruction: str, result: str) -> None:
    """Append a complete complex field (begin, instruction, separate, result, end) to a paragraph."""
    p = paragraph._p
    _run(p, _fld_char("begin"))
    instr = OxmlElement("w:instrText")
    instr.text = f" {instruction} "
    _run(p, instr)
    _run(p, _fld_char("separate"))
    _run(p, _text(result))
    _run(p, _fld_char("end"))


def add_toc_field(document: Any, entries: Sequence[tuple[str, str]], *,
                  then: tuple[str, str] | None = None) -> Paragraph:
    """A TOC field whose result is one paragraph per ``(style, text)`` entry.

    The field begins in the first entry. It ends in an empty paragraph of its own, or, with
    ``then=(style, text)``, at the start of that next paragraph, as LibreOffice writes it.
    Returns the paragraph holding the field's end.
    """
    for k, (style, text) in enumerate(entries):
        para = document.add_paragraph(style=style)
        if k == 0:
            _run(para._p, _fld_char("begin"))
            instr = OxmlElement("w:instrText")
            instr.text = ' TOC \\o "1-3" \\h \\z \\u '
            _run(para._p, instr)
            _run(para._p, _fld_char("separate"))
        _run(para._p, _text(text))
    last = document.add_paragraph(style=then[0]) if then else document.add_paragraph()
    _run(last._p, _fld_char("end"))
    if then:
        _run(last._p, _text(then[1]))
    return last


def add_toc_sdt(document: Any, entries: Sequence[tuple[str, str]]) -> None:
    """A "Table of Contents" content control (as Word inserts it) holding ``(style, text)`` lines."""
    body = document.element.body
    sdt, pr, content = OxmlElement("w:sdt"), OxmlElement("w:sdtPr"), OxmlElement("w:sdtContent")
    obj, gallery = OxmlElement("w:docPartObj"), OxmlElement("w:docPartGallery")
    gallery.set(qn("w:val"), "Table of Contents")
    obj.append(gallery)
    pr.append(obj)
    sdt.append(pr)
    sdt.append(content)
    for style, text in entries:
        para = document.add_paragraph(text, style=style)
        content.append(para._p)  # moves the new paragraph into the control
    body.insert(len(body) - 1, sdt)  # before the final w:sectPr


def add_tracked_deletion(paragraph: Paragraph, deleted: str) -> None:
    """Append text that a reviewer deleted with change tracking on (``w:del``/``w:delText``)."""
    d = OxmlElement("w:del")
    d.set(qn("w:id"), "1")
    d.set(qn("w:author"), "test")
    r = OxmlElement("w:r")
    t = OxmlElement("w:delText")
    t.text = deleted
    r.append(t)
    d.append(r)
    paragraph._p.append(d)


def scanned_pdf(path: Path, pages: int = 2) -> Path:
    """A PDF of image-only pages (no text layer), like a scan nobody ran OCR on."""
    doc = pymupdf.open()
    for _ in range(pages):
        page = doc.new_page()
        pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
        pix.clear_with(180)
        page.insert_image(pymupdf.Rect(72, 72, 400, 400), pixmap=pix)
    doc.save(path)
    return path


def scan_copy(src: Path, dst: Path, *, pages: Sequence[int] | None = None, dpi: int = 150) -> Path:
    """``src`` as a scanner would return it: each page (or each 0-based page in ``pages``; the others are
    copied as they are, born-digital) rendered at ``dpi`` in grey and placed as the only content of a page
    of the same size: no text layer, no outline."""
    out = pymupdf.open()
    with pymupdf.open(src) as doc:
        for i, page in enumerate(doc):
            if pages is not None and i not in pages:
                out.insert_pdf(doc, from_page=i, to_page=i)
                continue
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pix)
    out.set_toc([])
    out.save(dst)
    return dst
