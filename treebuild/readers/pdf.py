"""PDF reader (PyMuPDF): one unit per page with its text, printed label and block geometry.

Page text comes from ``get_text("text")``; typographic lines (font size, weight) and text-block
geometry (to map an outline destination's y to a character offset) come from one layout pass per
page, computed only for the pages a later stage asks about. The layout pass reuses the MuPDF text
page that reading built for the page's text (kept up to :data:`KEEP_CHARS`), so a page's content
is interpreted once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymupdf

from .. import collector
from ..errors import ReadError
from ..findings import Finding, Stage, merge
from ..model import Format, Line, OutlineEntry, SourceDoc, Table, Unit, UnitKind
from ..settings import Limits
from . import pdf_messages
from .common import file_digest
from .fonts import font_traits
from .limits import check_pages
from .ocr import OcrMode, OcrRequest
from .ocr_pages import read_pages
from .pdf_styles import (
    FontBook,
    Piece,
    StyledBlock,
    StyledLine,
    bold_font,
    page_styles,
    typed_line,
)
from .pdf_tables import TablePass
from .pdf_words import PageWords, whole_words
from .titles import RUNNING_PAGES, metadata_title, printed_title

__all__ = ["PdfReader"]

_BOLD_FLAG = 16
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
KEEP_CHARS = 2_000_000
"""Text pages kept from reading for the layout pass, in characters of page text. Building a text page
(interpreting the page) is about half the cost of a layout pass; kept, it costs about 75 bytes a
character, so at most about 150 MiB (a 600-1,000-page manual). Pages past it are interpreted again
when asked; :meth:`SourceDoc.release` drops the rest once the build is done."""


class PdfReader:
    """Reads ``.pdf`` files into page units, the outline and page labels."""

    suffixes: tuple[str, ...] = (".pdf",)
    format: str = Format.pdf

    def read(self, path: Path, limits: Limits | None = None, password: str | None = None,
             ocr: OcrRequest | None = None) -> SourceDoc:
        """``ocr``: which pages to read by OCR, with which engine (default: from ``TREEBUILD_OCR*``)."""
        sha, size = file_digest(path)
        pdf_messages.silence()
        pdf_messages.take()  # what MuPDF said before this document is not this document's
        try:
            doc = pymupdf.open(path)
        except Exception as exc:  # PyMuPDF raises several types for broken files
            if not _has_eof_marker(path):
                raise _truncated(path) from exc
            raise ReadError(f"cannot open PDF: {exc}", path=str(path),
                            hint="check that the file is a complete, unencrypted PDF") from exc
        if doc.needs_pass:
            if password is None:
                raise ReadError("PDF is password-protected", path=str(path),
                                hint="pass its password with --password or TREEBUILD_PDF_PASSWORD, "
                                     "or decrypt it first with qpdf --decrypt")
            if not doc.authenticate(password):
                raise ReadError("wrong password for this encrypted PDF", path=str(path),
                                hint="check the --password value or TREEBUILD_PDF_PASSWORD")
        try:
            page_count = doc.page_count
        except RuntimeError as exc:  # MuPDF cannot count the pages of a damaged page tree
            raise ReadError(f"cannot read the PDF's page tree: {exc}", path=str(path),
                            hint="the file is damaged; export or download it again") from exc
        if page_count == 0:
            raise ReadError("PDF has no pages", path=str(path), hint="export or download it again")
        check_pages(path, page_count, limits or Limits())
        if doc.is_repaired and not _has_eof_marker(path):
            # MuPDF rebuilds a cut-off file from what is left and silently drops the rest
            # (pages come back empty, the outline vanishes): refuse rather than build half a tree.
            raise _truncated(path)
        units: list[Unit] = []
        layouts: dict[int, tuple[list[Line], list[tuple[float, float, int]]]] = {}
        geometry: dict[int, list[tuple[float, float, int]]] = {}
        kept: dict[int, tuple[pymupdf.Page, pymupdf.TextPage]] = {}  # pages read, until their layout pass
        book = FontBook()  # the document's types, as its lines show them (one book per document)

        def lines(index: int) -> list[Line]:
            if index not in layouts:
                page, tp = kept.pop(index, None) or (doc.load_page(index), None)
                with collector.paused():  # a page's layout pass makes thousands of small objects
                    layouts[index] = _page_layout(page, units[index].text, tp, book, words.get(index))
            return layouts[index][0]

        def blocks(index: int) -> list[tuple[float, float, int]]:
            if index in layouts:  # the full layout pass already ran for this page
                return layouts[index][1]
            if index not in geometry:  # the cheaper word pass is enough for block positions
                page, tp = kept.get(index) or (doc.load_page(index), None)
                geometry[index] = _page_blocks(page, units[index].text, tp)
            return geometry[index]

        def textpage(index: int) -> pymupdf.TextPage | None:
            if index in scanned.pages:
                return None  # the OCR's text layer: no glyphs of the file behind it
            return kept[index][1] if index in kept else doc.load_page(index).get_textpage(flags=_TEXT_FLAGS)

        request = ocr if ocr is not None else OcrRequest.from_env(limits)
        try:
            tables: list[Table] = []
            table_pass = TablePass()
            units.extend(_page_units(doc, blocks, kept, tables, table_pass))
            scanned = read_pages(doc, [u.text for u in units], str(path), request)  # the pages needing OCR
            read_confidence: dict[int, list[tuple[int, float]]] = {}
            for i, page in scanned.pages.items():  # their text layer is the OCR's
                units[i].text = page.text
                layouts[i] = (page.lines, page.blocks)
                read_confidence[i] = [(ln.char, c) for ln, c in zip(page.lines, page.line_confidence, strict=True)]
                kept.pop(i, None)
            tables = [t for t in tables if t.unit not in scanned.pages]  # spans into a text layer replaced
            words = whole_words([u.text for u in units], textpage)
            for index, fixed in words.items():
                units[index].text = fixed.text
            tables = table_pass.moved(tables, words, [u.text for u in units])
            outline = _outline(doc, units)
        except ReadError:
            raise
        except PageUnreadable as exc:
            raise ReadError(str(exc), path=str(path), hint=DAMAGED_HINT) from exc
        except Exception as exc:
            raise ReadError(f"cannot extract text: {exc}", path=str(path), hint=DAMAGED_HINT) from exc
        meta = {k: str(v) for k, v in (doc.metadata or {}).items() if v}
        title = metadata_title(meta.get("title"), path)
        if title is None and meta.get("title"):  # an identifier or a file name: the first page's printed title
            title = printed_title(lines(0), [lines(i) for i in range(1, min(len(units), 1 + RUNNING_PAGES))])

        findings = [*scanned.findings, *_text_layer_findings(units, scanned.unavailable or request.mode),
                    *table_pass.findings(), *pdf_messages.take()]

        def release() -> None:  # the build is done with the pages: MuPDF's messages of the layout pass too
            kept.clear()
            findings[:] = merge([*findings, *pdf_messages.take()])

        return SourceDoc(
            path=str(path), format=Format.pdf, units=units, sha256=sha, size=size, title=title,
            metadata=meta, outline=outline, page_count=len(units), findings=findings,
            ocr=scanned.facts(), read_confidence=read_confidence, tables=tables, _lines=lines, _release=release,
        )


def _text_layer_findings(units: list[Unit], mode: OcrMode | bool) -> list[Finding]:
    """A document of mostly blank pages would silently become one empty node: say so, and whether OCR
    was off or found nothing either (``mode`` True: the OCR engine's absence was reported already)."""
    blank = sum(1 for u in units if not u.text.strip())
    if not units or blank * 2 <= len(units) or mode is True:
        return []
    if mode == OcrMode.off:
        return [Finding("no_text_layer", Stage.read, f"no text layer on {blank} of {len(units)} pages and OCR is "
                        "off: ingest with --ocr auto (or TREEBUILD_OCR=auto) to read them")]
    return [Finding("no_text_layer", Stage.read, f"no text on {blank} of {len(units)} pages, OCR included")]


DAMAGED_HINT = "the file is damaged or uses what MuPDF cannot read: download it again, or print it to a new PDF"


def _truncated(path: Path) -> ReadError:
    return ReadError("PDF is truncated (no %%EOF at the end; only part of it could be recovered)",
                     path=str(path), hint="download or export the file again")


def _has_eof_marker(path: Path) -> bool:
    """Whether the file ends with a ``%%EOF`` line (trailing junk of up to 1 KiB allowed)."""
    with open(path, "rb") as fh:
        fh.seek(0, 2)
        fh.seek(max(0, fh.tell() - 1024))
        return b"%%EOF" in fh.read()


def _page_units(doc: pymupdf.Document, blocks: Callable[[int], list[tuple[float, float, int]]],
                kept: dict[int, tuple[pymupdf.Page, pymupdf.TextPage]], tables: list[Table],
                table_pass: TablePass) -> list[Unit]:
    """One unit per page; each page with its text page goes into ``kept`` while :data:`KEEP_CHARS` lasts.
    (``tp.extractText()`` is what ``page.get_text("text")`` returns: the same call on the same text page.)
    The tables of pages that look tabular go into ``tables`` (:mod:`.pdf_tables`, from the same text page, behind
    its guard)."""
    labels: list[str] | None = None
    count = doc.page_count  # MuPDF may recount a damaged tree after a failed load: name the count it listed
    pages = [_load_page(doc, i, count) for i in range(count)]
    if doc.get_page_labels():
        labels = [page.get_label() for page in pages]
    units: list[Unit] = []
    budget = KEEP_CHARS
    for i, page in enumerate(pages):
        tp = page.get_textpage(flags=_TEXT_FLAGS)
        text = tp.extractText()
        tables.extend(table_pass.page(tp.extractWORDS, text, i))
        if len(text) <= budget:
            kept[i] = (page, tp)
            budget -= len(text)
        units.append(Unit(index=i, kind=UnitKind.page, text=text, page=i + 1,
                          label=(labels[i] or None) if labels else None, height=float(page.rect.height),
                          block_source=blocks))
    return units


def _load_page(doc: pymupdf.Document, index: int, count: int) -> pymupdf.Page:
    """Page ``index``; a page the page tree counts but MuPDF cannot find (a damaged tree) is this document's
    clear error, naming the page."""
    try:
        return doc.load_page(index)
    except Exception as exc:  # MuPDF raises several types for a damaged page tree
        raise PageUnreadable(f"the page tree lists {count} pages but page {index + 1} cannot be read: {exc}") from exc


class PageUnreadable(Exception):
    """A page of the page tree that MuPDF cannot load; the reader turns it into its :class:`ReadError`."""


def _outline(doc: pymupdf.Document, units: list[Unit]) -> list[OutlineEntry]:
    entries: list[OutlineEntry] = []
    matrices: dict[int, pymupdf.Matrix] = {}
    for item in doc.get_toc(simple=False):
        level, title, page = int(item[0]), str(item[1]), int(item[2])
        dest = item[3] if len(item) > 3 and isinstance(item[3], dict) else {}
        y = _dest_y(doc, dest, page - 1, units, matrices) if 1 <= page <= len(units) else None
        entries.append(OutlineEntry(level=level, title=" ".join(title.split()), page=page, y=y))
    return entries


def _dest_y(doc: pymupdf.Document, dest: dict[str, Any], index: int, units: list[Unit],
            matrices: dict[int, pymupdf.Matrix]) -> float | None:
    """Top-down y of an outline destination on page ``index``, or ``None`` when it has no usable one.

    MuPDF resolves an explicit (GoTo) destination into page space itself, but PyMuPDF gives a
    named destination (LaTeX/hyperref, Sphinx, Texinfo) its point in PDF space, bottom-up; the
    page's transformation matrix turns it into page space (``height - y`` on a plain page).
    PyMuPDF writes a y of 0 for ``/Fit``, ``/FitV`` and a null top: no position, i.e. the page top.
    """
    to = dest.get("to")
    if to is None:
        return None
    kind = dest.get("kind")
    if kind == pymupdf.LINK_GOTO:
        y = float(to.y)
    elif kind == pymupdf.LINK_NAMED:
        point = pymupdf.Point(to)
        if not point.y > 0:
            return None
        if index not in matrices:
            matrices[index] = doc.load_page(index).transformation_matrix
        y = float((point * matrices[index]).y)
    else:
        return None
    height = units[index].height
    if not 0 <= y <= (height if height is not None else math.inf):  # NaN fails too
        return None
    return y


def _page_blocks(page: pymupdf.Page, text: str, tp: pymupdf.TextPage | None = None) -> list[tuple[float, float, int]]:
    """Text blocks as (y0, y1, char offset) from the word list: about 1.5x faster than the full
    layout pass, which pages that only need an outline destination placed can skip. ``tp`` is the
    page's text page when reading kept it."""
    by_block: dict[int, dict[int, list[tuple[float, float, str]]]] = {}
    words = tp.extractWORDS() if tp is not None else page.get_text("words", flags=_TEXT_FLAGS)
    for _x0, y0, _x1, y1, word, bno, lno, _wno in words:
        by_block.setdefault(bno, {}).setdefault(lno, []).append((y0, y1, word))
    out: list[tuple[float, float, int]] = []
    cursor = 0
    for lines in by_block.values():
        start: int | None = None
        ys: list[float] = []
        for words in lines.values():
            ys.extend(w[0] for w in words)
            ys.extend(w[1] for w in words)
            first, last = words[0][2], words[-1][2]
            found = text.find(first, cursor)
            if found < 0:
                continue
            if start is None:
                start = text.rfind("\n", 0, found) + 1
            end = text.find(last, found + len(first) if len(words) > 1 else found)
            cursor = end + len(last) if end >= 0 else found + len(first)
        out.append((min(ys), max(ys), start if start is not None else cursor))
    return out


def _page_layout(page: pymupdf.Page, text: str, tp: pymupdf.TextPage | None, book: FontBook,
                 words: PageWords | None = None) -> tuple[list[Line], list[tuple[float, float, int]]]:
    """Typographic lines (size, weight, position) and text blocks of a page, from one layout pass
    over ``tp``, the page's text page (made here when reading did not keep it): MuPDF's JSON and HTML
    writers (:mod:`.pdf_styles`), or ``extractDICT`` on a page whose two writings do not match.
    ``words`` is the page's whole-word repair (:mod:`.pdf_words`), given to its lines as to its text.

    ``char`` offsets point into the unit text (``get_text("text")``, which is the blocks' texts in
    order). PyMuPDF's ``get_text("blocks")`` would give the blocks directly, but it leaks about
    7 KiB of Python objects per page (PyMuPDF 1.26-1.28), which a long backfill cannot afford.
    """
    if tp is None:
        tp = page.get_textpage(flags=_TEXT_FLAGS)
    styled = page_styles(tp, book, LEAD_STEP)
    if styled is None:
        styled = _dict_styles(tp.extractDICT())
    out: list[Line] = []
    blocks: list[tuple[float, float, int]] = []
    cursor = 0
    for bno, block in enumerate(styled):
        block_start: int | None = None
        for sl in block.lines:
            line_text = sl.text if words is None else words.line(sl.text)
            stripped = line_text.strip()
            found = text.find(line_text, cursor)
            if found < 0:
                found = text.find(stripped, cursor)
            char = found if found >= 0 else cursor
            if found >= 0:
                cursor = found + len(stripped)
            if block_start is None:
                block_start = char
            x0, y0, x1, y1 = sl.box
            # positional, in the field order of ``Line`` (text, size, bold, x0, y0, x1, y1, char, block,
            # font, lead, lead_size, italic, mono, family): a third cheaper than keywords, and a filing's
            # table page has hundreds of lines; the font's traits are read once here, for every later stage
            font = sl.font
            out.append(Line(stripped, round(sl.size, 2), sl.bold, x0, y0, x1, y1, char, bno,
                            font, sl.lead, round(sl.lead_size, 2), *font_traits(font)))
        if block_start is None:  # a block of white space only: it starts where the text stands
            block_start = cursor
        # the block's text starts at the beginning of its first line, not at the first non-blank
        line_start = text.rfind("\n", 0, block_start) + 1
        blocks.append((block.y0, block.y1, line_start))
    return out, blocks


def _dict_styles(data: dict[str, Any]) -> list[StyledBlock]:
    """The page's styled lines from ``extractDICT``, each span a piece of its line
    (:func:`.pdf_styles.typed_line`; LaTeX output has a span per word and one per inserted space)."""
    out: list[StyledBlock] = []
    for block in data["blocks"]:
        if block.get("type") != 0:
            continue
        lines: list[StyledLine] = []
        for line in block["lines"]:
            spans = line["spans"]
            line_text = "".join(s["text"] for s in spans)
            if not line_text.strip():
                continue
            pieces: list[Piece] = [(s["text"], float(s["size"]), s["font"],
                                    bool(s["flags"] & _BOLD_FLAG) or bold_font(s["font"])) for s in spans]
            lines.append(typed_line(line_text, pieces, tuple(line["bbox"]), LEAD_STEP))
        out.append(StyledBlock(float(block["bbox"][1]), float(block["bbox"][3]), lines))
    return out


LEAD_STEP = 1.08
"""A line's first span set this much larger than the line's main span is a run-in head's type (a
heading size: ``Europe`` in 12 points before ``— In March ...`` in 10)."""
