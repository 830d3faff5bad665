"""HTML reader (``.htm``, ``.html``, ``.xhtml``; inline XBRL included): printed pages with typographic lines.

The document is streamed through lxml's parser into a target (no tree is built: a filing's DOM
takes 15 times its size, the stream a fraction of it; ``bench/html_parsers.py``), each element's
style computed from the browser's defaults, ``<style>`` sheets and inline CSS (:mod:`.html_css`),
and its text laid out as a browser prints it (:mod:`.html_layout`). What the reader gives the
structure stage is then what the PDF reader gives it:

- with page breaks (``page-break-before/after``, ``break-before/after``): one unit per page of the
  paper form, its typographic lines, and its printed page number as the unit's label (the folio
  the page prints at its foot or head, where neighbouring pages agree); the PDF rules find the
  printed contents, the SEC Parts and Items, statements, notes and typographic headings;
- without page breaks: one unit per block (paragraph, heading, table), as DOCX and Markdown give
  them, with no pages to cite: citations use the section path; the blocks as laid out are the
  document's layout view (:mod:`.view`), where the structure stage reads headings from type and
  numbering when none are declared;
- ``<h1>``-``<h6>`` where the author used them: declared headings (an outline with each heading's
  exact place on a paged document; heading units otherwise);
- without page breaks or ``<h1>``-``<h6>``, a contents whose links point at anchors that exist, in
  document order, declares the headings (:func:`_linked_contents`: trusted as a PDF outline is). With
  page breaks the same contents is the printed contents the PDF rules read on its page (a filing's
  contents lists its Items; its statements and notes come from the filing rules, as for its PDF).

Content that is not printed is left out (``display: none``, ``visibility: hidden``, ``<head>``,
scripts, styles, ``ix:header`` with its hidden XBRL facts); inline XBRL tags are read through.
Nothing is fetched: external stylesheets, images and scripts are never loaded, the parser does no
network access and resolves no external entity. Caps: the file size (``TREEBUILD_MAX_HTML_MB``) and
the nesting depth of elements (:data:`MAX_DEPTH`), each a clear error naming the file.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from ..errors import ReadError
from ..findings import Finding, Stage
from ..model import Format, LayoutView, Line, OutlineEntry, SourceDoc, Table, Unit, UnitKind
from ..settings import Limits
from .common import read_markup
from .html_css import BLOCK_TAGS, HIDDEN_TAGS, ROOT, Element, Style, Stylesheet, compute
from .html_layout import Cell, Pager, Run
from .limits import LimitExceeded
from .tables import labels_rows, title_line
from .view import LaidLines, view_pages

__all__ = ["HtmlReader", "sniff_encoding", "valid_utf8", "binary_kind", "MAX_DEPTH", "read_html"]

MAX_DEPTH = 512
"""Elements nested deeper than this are refused: the depth Chromium's HTML parser builds at most
(deeper elements it hangs on an ancestor); real documents nest tens deep."""
_CHUNK = 1 << 20
"""Bytes decoded and fed to the parser at a time."""
_SNIFF = 4096
"""Bytes searched for a declared encoding (the HTML spec's prescan reads 1024; XML declarations and
late ``<meta>`` tags sit a little further in)."""
_WHATWG = {"ascii": "cp1252", "us-ascii": "cp1252", "iso-8859-1": "cp1252", "latin1": "cp1252",
           "latin-1": "cp1252", "l1": "cp1252", "iso8859-1": "cp1252", "windows-1252": "cp1252",
           "x-sjis": "shift_jis", "gb2312": "gbk", "iso-8859-9": "cp1254", "utf8": "utf-8", "unicode": "utf-8"}
"""Encoding labels browsers read as another encoding (the WHATWG Encoding Standard: a page declared
ASCII or Latin-1 is decoded as windows-1252)."""
_DECLARED = re.compile(
    rb"""<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']|<meta[^>]*charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\n\r\f\u00a0]+")
_BLANK = frozenset(" \t\n\r\f\u00a0")
_NO_CLASSES: frozenset[str] = frozenset()
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_MAGIC = ((b"%PDF-", "a PDF"), (b"PK\x03\x04", "a ZIP package (DOCX, XLSX, ...)"),
          (b"\xd0\xcf\x11\xe0", "an OLE2 container (.doc, .xls)"), (b"\x89PNG", "a PNG image"),
          (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"), (b"\x1f\x8b", "gzip-compressed data"))


class HtmlReader:
    """Reads ``.htm``/``.html``/``.xhtml`` files into page units (or block units without page breaks)."""

    suffixes: tuple[str, ...] = (".htm", ".html", ".xhtml")
    format: str = Format.html

    def read(self, path: Path, limits: Limits | None = None, password: str | None = None) -> SourceDoc:
        raw, sha = read_markup(path, limits or Limits(), "HTML")
        return read_html(raw, path=str(path), sha256=sha)


def binary_kind(head: bytes) -> str | None:
    """What a file's first bytes say it is when that is not text (``None`` for text)."""
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return name
    if b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "binary data (NUL bytes)"
    return None


def sniff_encoding(raw: bytes) -> tuple[str, str]:
    """The encoding to decode ``raw`` with and how it was found (``bom``, ``declared``, ``utf-8``,
    ``fallback``): a byte-order mark, else the declared one (XML declaration or ``<meta charset>``),
    else UTF-8 when the bytes are valid UTF-8, else windows-1252 (the web's fallback)."""
    for bom, name in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                      (codecs.BOM_UTF16_BE, "utf-16")):
        if raw.startswith(bom):
            return name, "bom"
    m = _DECLARED.search(raw[:_SNIFF])
    if m:
        label = (m.group(1) or m.group(2)).decode("ascii", "replace").lower()
        label = _WHATWG.get(label, label)
        try:
            name = codecs.lookup(label).name
        except LookupError:
            name = ""
        if name and not name.startswith("utf-16"):  # a document that reached us as bytes is not UTF-16 without a BOM
            if name == "utf-8" or name == "cp1252" and valid_utf8(raw) and not raw.isascii():
                return "utf-8", "declared"  # cp1252 declared over UTF-8 bytes: the bytes win (EDGAR's ASCII label)
            return name, "declared"
    return ("utf-8", "utf-8") if valid_utf8(raw) else ("cp1252", "fallback")


def valid_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


@dataclass
class _Frame:
    tag: str
    style: Style
    hidden: bool
    block: bool
    left: float  # indentation of the column this element's text sets in
    heading: int = 0
    lines_at: tuple[int, int] = (0, 0)  # (page, line) where a heading's first line would land when it opened
    list_kind: str = ""  # "ul" / "ol" for list elements
    counter: int = 0
    link: tuple[str, int] | None = None  # an internal link's target and where its text starts
    nesting: tuple[int, int] = (0, 0)


@dataclass
class _Table:
    rows: list[list[Cell]] = field(default_factory=list)
    cell: Cell | None = None
    left: float = 0.0
    width: float | None = None
    style: Style = ROOT


@dataclass
class _Grid:
    """A table laid out on page ``page`` as lines ``first``..``last``, and its cells as a grid."""

    page: int
    first: int
    last: int
    rows: list[list[str]]


def grid(rows: list[list[Cell]]) -> list[list[str]]:
    """The cells as printed, a column per grid column: a spanning cell's text in the first column it spans
    (the last when it is right-aligned, as figures are, or centred over them, as their headings), the
    others blank; a currency sign or a closing
    bracket or percent sign printed in a cell of its own joined to its figure (``$`` | ``1,234`` | ``)``
    reads ``$1,234)``); then two neighbouring columns that one cell spans somewhere and that never both hold
    text in a row made one (a filing sets each figure in a group of three columns, its headings across the
    group), and columns blank in every row dropped (spacer columns)."""
    out: list[list[str]] = []
    spans: set[int] = set()  # c: some cell spans columns c and c + 1
    for row in rows:
        cells: list[str] = []
        for cell in row:
            span = max(1, cell.colspan)
            text = " ".join("".join(t for t, _ in cell.runs).split())
            spans.update(range(len(cells), len(cells) + span - 1))
            blanks = [""] * (span - 1)
            cells.extend(blanks + [text] if cell.style.align in ("right", "center") else [text] + blanks)
        if any(cells):
            out.append(cells)
    width = max((len(r) for r in out), default=0)
    for r in out:
        r.extend([""] * (width - len(r)))
        for c, text in enumerate(r):
            if text in _LEADING_SIGNS:
                nxt = next((k for k in range(c + 1, width) if r[k]), None)
                if nxt is not None:
                    r[nxt], r[c] = text + r[nxt], ""
            elif text in _TRAILING_SIGNS:
                prev = next((k for k in range(c - 1, -1, -1) if r[k]), None)
                if prev is not None:
                    r[prev], r[c] = r[prev] + text, ""
    keep = [c for c in range(width) if any(r[c] for r in out)]
    columns = [[r[c] for r in out] for c in keep]
    joined = [any(k in spans for k in range(keep[i], keep[i + 1])) for i in range(len(keep) - 1)]
    merged: list[list[str]] = []
    for i, col in enumerate(columns):
        if merged and joined[i - 1] and not any(a and b for a, b in zip(merged[-1], col, strict=True)):
            merged[-1] = [a or b for a, b in zip(merged[-1], col, strict=True)]
        else:
            merged.append(col)
    return [list(row) for row in zip(*merged, strict=True)] if merged else []


_LEADING_SIGNS = frozenset({"$", "\u20ac", "\u00a3", "\u00a5", "US$", "(", "$("})
_TRAILING_SIGNS = frozenset({")", "%", ")%", "%)", "pts", "bps"})


@dataclass
class _Link:
    target: str
    text: str
    nesting: tuple[int, int] = (0, 0)  # lists it sits in, its indentation (points): its place in the contents


class _Walker:
    """The parser target: element events in, laid-out pages out (see the module docstring)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.pager = Pager()
        self.stack: list[_Frame] = [_Frame("#root", ROOT, False, True, 0.0)]
        self.elements: list[Element] = []
        self.sheet = Stylesheet()
        self.runs: list[Run] = []
        self.block_style: Style = ROOT
        self.block_left = 0.0
        self.broke = False  # a <br> in the paragraph being read
        self.tables: list[_Table] = []
        self.nested = 0  # tables open inside a table cell: their text joins that cell
        self.title: str | None = None
        self._title: list[str] | None = None
        self._style_text: list[str] | None = None
        self.headings: list[tuple[int, str, int, float]] = []  # level, title, page index, y
        self.kinds: dict[tuple[int, int], tuple[str, int]] = {}  # (page, line) -> ("heading", level) | ("table", id)
        self.links: list[_Link] = []
        self.breaks = 0
        self.depth = 0
        self._cache: dict[tuple[int, str, str | None, str | None, str | None, tuple[tuple[str, str], ...]], Style] = {}
        self.table_ids = 0
        self.grids: list[_Grid] = []  # every laid-out table as data, where its lines landed

    # -- parser target ----------------------------------------------------------------------
    def start(self, tag: str, attrib: dict[str, str]) -> None:
        tag = tag.lower() if isinstance(tag, str) else ""
        if tag.startswith("{"):
            tag = tag.rsplit("}", 1)[-1]
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise LimitExceeded(f"elements nested more than {MAX_DEPTH} deep", path=self.path,
                                hint="the page is malformed or generated to exhaust parsers; browsers flatten it")
        parent = self.stack[-1]
        classes = attrib.get("class")
        element = Element(tag, attrib.get("id"), frozenset(classes.split()) if classes else _NO_CLASSES, attrib)
        if tag == "style":
            self._style_text = [] if _media_applies(attrib.get("media")) else None
        elif tag == "title" and self.title is None:
            self._title = []
        hidden = parent.hidden or tag in HIDDEN_TAGS or "hidden" in attrib
        if hidden:
            self.stack.append(_Frame(tag, parent.style, True, False, parent.left))
            self.elements.append(element)
            return
        style = self._style(parent.style, element)
        self.elements.append(element)
        if style.display == "none" or style.hidden:
            self.stack.append(_Frame(tag, style, True, False, parent.left))
            return
        block = style.display not in ("inline", "inline-block", "contents") or tag in BLOCK_TAGS
        frame = _Frame(tag, style, False, block, parent.left + (style.left if block else 0.0))
        self.stack.append(frame)
        ident = attrib.get("id") or (attrib.get("name") if tag == "a" else None)
        if tag in ("table", "tr", "td", "th", "caption") or self.tables:
            if self._table_start(tag, frame, attrib):
                if ident:
                    self._anchor(ident)
                return
        if block:
            cell = self.tables[-1].cell if self.tables else None
            if cell is not None and not any(t.strip() for t, _ in cell.runs):
                cell.indent = frame.left - cell.left + style.indent  # a block's indent inside a cell, before its text
            self._flush()
            if style.break_before:
                self._break()
            self.pager.space(style.top)
            if tag in _HEADINGS:
                frame.heading = _HEADINGS[tag]
                frame.lines_at = (len(self.pager.pages) - 1, len(self.pager.page.lines))
            elif tag in ("ul", "ol", "menu", "dir"):
                frame.list_kind = "ol" if tag == "ol" else "ul"
                frame.counter = _int(attrib.get("start"), 1) - 1
            elif tag == "li":
                self._marker(frame)
            self.block_style, self.block_left = style, frame.left
        if ident:
            self._anchor(ident)
        if tag == "a":
            href = attrib.get("href", "")
            if href.startswith("#") and len(href) > 1:
                frame.link = (href[1:], len(self._runs()))
                cell = self.tables[-1].cell if self.tables else None
                frame.nesting = (sum(1 for f in self.stack if f.list_kind),
                                 round(self.block_left + (cell.indent if cell is not None else 0.0)))
        elif tag == "br":
            self._line_break()

    def end(self, tag: str) -> None:
        self.depth -= 1
        frame = self.stack.pop()
        self.elements.pop()
        if frame.tag == "style" and self._style_text is not None:
            self.sheet.add("".join(self._style_text))
            self._style_text = None
        elif frame.tag == "title" and self._title is not None:
            self.title = " ".join("".join(self._title).split()) or None
            self._title = None
        if frame.hidden:
            return
        if frame.link is not None:
            target, at = frame.link
            text = "".join(t for t, _ in self._runs()[at:])
            self.links.append(_Link(target, " ".join(text.split()), frame.nesting))
        if self.tables and self._table_end(frame):
            return
        if frame.block:
            self._flush()
            if frame.heading:
                self._heading(frame)
            self.pager.space(frame.style.bottom)
            if frame.style.break_after:
                self._break()
            parent = self.stack[-1]
            self.block_style, self.block_left = (parent.style, parent.left)

    def data(self, text: str) -> None:
        if self._style_text is not None:
            self._style_text.append(text)
        elif self._title is not None:
            self._title.append(text)
        frame = self.stack[-1]
        if frame.hidden:
            return
        style = frame.style
        if not style.pre:
            text = _SPACES.sub(" ", text)
            runs = self._runs()
            if text.startswith(" ") and (not runs or runs[-1][0].endswith(" ")):
                text = text[1:]
            if not text:
                return
        else:
            text = text.replace("\r\n", "\n").replace("\u00a0", " ")
        if style.caps:
            text = _transform(text, style.caps)
        self._runs().append((text, style))

    def close(self) -> None:
        self._flush()
        while self.tables:
            self._emit_table(self.tables.pop())

    # -- paragraphs ---------------------------------------------------------------------------
    def _runs(self) -> list[Run]:
        if self.tables and self.tables[-1].cell is not None:
            return self.tables[-1].cell.runs
        return self.runs

    def _flush(self) -> None:
        """The paragraph read so far, laid out (``<pre>`` text line by line)."""
        if self.tables and self.tables[-1].cell is not None:
            cell = self.tables[-1].cell
            if cell.runs and not cell.runs[-1][0].endswith(" "):
                cell.runs.append((" ", cell.runs[-1][1]))  # a block inside a cell: its text stays one line
            return
        runs, self.runs = self.runs, []
        broke, self.broke = self.broke, False
        if runs and runs[0][1].pre and "\n" in "".join(t for t, _ in runs):
            for line_runs in _split_lines(runs):
                if not self.pager.paragraph(line_runs, self.block_style, self.block_left):
                    self.pager.blank_line(self.block_style)
            return
        if not self.pager.paragraph(runs, self.block_style, self.block_left) and broke:
            self.pager.blank_line(self.block_style)

    def _line_break(self) -> None:
        if self.tables and self.tables[-1].cell is not None:
            self._flush()
            return
        if any(t.strip() for t, _ in self.runs):
            self._flush()
        else:
            self.runs = []
            self.broke = True
            self._flush()

    def _marker(self, frame: _Frame) -> None:
        lists = [f for f in reversed(self.stack[:-1]) if f.list_kind]
        if not lists:
            return
        owner = lists[0]
        owner.counter += 1
        marker = f"{owner.counter}. " if owner.list_kind == "ol" else "\u2022 "
        self._runs().append((marker, frame.style))

    def _break(self) -> None:
        self._flush()
        self.breaks += 1
        self.pager.new_page()
        self.kinds.clear()  # kept for block units only: a paged document needs none
        self.pager.cells = None

    def _anchor(self, ident: str) -> None:
        if self.tables and self.tables[-1].cell is not None:
            self.tables[-1].cell.anchors.append(ident)
        else:
            self.pager.anchor(ident)

    def _heading(self, frame: _Frame) -> None:
        """An ``<h1>``-``<h6>``: its lines' text as the title, where its first line landed."""
        first_page, first_line = frame.lines_at  # only the heading's own lines: no walk over the whole document
        mine = [(i, j, ln) for i in range(first_page, len(self.pager.pages))
                for j, ln in enumerate(self.pager.pages[i].lines[first_line if i == first_page else 0:],
                                       start=first_line if i == first_page else 0)]
        if not mine:
            return
        title = " ".join(" ".join(ln.text for _, _, ln in mine).split())
        page, j, first = mine[0]
        self.headings.append((frame.heading, title, page, first.y0))
        if not self.breaks:
            for p, k, _ in mine:
                self.kinds[(p, k)] = ("heading", frame.heading)

    # -- tables ---------------------------------------------------------------------------------
    def _table_start(self, tag: str, frame: _Frame, attrib: dict[str, str]) -> bool:
        """Table structure; True when the element was taken as table structure."""
        if tag == "table":
            if self.tables and self.tables[-1].cell is not None:
                self.nested += 1  # a table inside a cell: its text joins the cell
                return True
            if self.tables and self.tables[-1].cell is None and self.nested == 0 and not self.tables[-1].rows:
                pass
            self._flush()
            if frame.style.break_before:
                self._break()
            self.pager.space(frame.style.top)
            width = frame.style.width if frame.style.width_share is None else None
            self.tables.append(_Table(left=frame.left, width=width, style=frame.style))
            return True
        if not self.tables or self.nested:
            if self.nested and tag in ("td", "th"):
                runs = self._runs()
                if runs and not runs[-1][0].endswith(" "):
                    runs.append((" ", runs[-1][1]))
            return self.nested > 0 and tag in ("tr", "td", "th", "caption")
        table = self.tables[-1]
        if tag == "tr":
            self._close_cell(table)
            table.rows.append([])
            return True
        if tag in ("td", "th", "caption"):
            self._close_cell(table)
            if not table.rows or tag == "caption":
                table.rows.append([])
            table.cell = Cell([], frame.style, _int(attrib.get("colspan"), 1) if tag != "caption" else 1,
                              left=frame.left)
            return True
        return False

    def _close_cell(self, table: _Table) -> None:
        if table.cell is not None:
            table.rows[-1].append(table.cell)
            table.cell = None

    def _table_end(self, frame: _Frame) -> bool:
        tag = frame.tag
        if tag == "table":
            if self.nested:
                self.nested -= 1
                return True
            table = self.tables.pop()
            self._close_cell(table)
            self._emit_table(table)
            self.pager.space(frame.style.bottom)
            if frame.style.break_after:
                self._break()
            return True
        if self.nested:
            return tag in ("tr", "td", "th", "caption")
        table = self.tables[-1]
        if tag in ("td", "th", "caption"):
            self._close_cell(table)
            return True
        if tag == "tr":
            self._close_cell(table)
            return True
        return False

    def _emit_table(self, table: _Table) -> None:
        rows = [r for r in table.rows if r]
        if not rows:
            return
        for row in rows:
            for cell in row:
                if cell.runs:
                    cell.style = _cell_style(cell)
        page, before = len(self.pager.pages) - 1, len(self.pager.page.lines)
        self.table_ids += 1
        self.pager.table(rows, table.left, table.width)
        if len(self.pager.page.lines) > before and len(self.pager.pages) - 1 == page:
            self.grids.append(_Grid(page, before, len(self.pager.page.lines) - 1, grid(rows)))
        if self.breaks:
            return  # a paged document needs no record of which lines are a table's
        for p in range(page, len(self.pager.pages)):
            start = before if p == page else 0
            for j in range(start, len(self.pager.pages[p].lines)):
                self.kinds[(p, j)] = ("table", self.table_ids)

    # -- styles ---------------------------------------------------------------------------------
    def _style(self, parent: Style, el: Element) -> Style:
        tag, attrib = el.tag, el.attrib
        sheet_decls: tuple[tuple[str, str], ...] = ()
        if self.sheet:
            sheet_decls = self.sheet.match(self.elements, el)
        key = (id(parent), tag, attrib.get("style"), attrib.get("align"),
               attrib.get("size") or attrib.get("face") or attrib.get("width"), sheet_decls)
        style = self._cache.get(key)
        if style is None:
            style = compute(parent, tag, dict(attrib) if attrib else {}, sheet_decls)
            self._cache[key] = style
            self._cache[(id(style), "#keep", None, None, None, ())] = style  # keeps ``id(style)`` unique
        return style


def _cell_style(cell: Cell) -> Style:
    """A cell's type is its text's main run's; its alignment the cell's (or its paragraph's)."""
    main = max(cell.runs, key=lambda r: len(r[0].strip()))[1]
    return Style(main.size, main.bold, main.italic, main.family, main.caps, cell.style.align
                 if cell.style.align != "left" else main.align, main.indent, main.line_height,
                 valign=cell.style.valign, width=cell.style.width, width_share=cell.style.width_share)


def _split_lines(runs: list[Run]) -> list[list[Run]]:
    out: list[list[Run]] = [[]]
    for text, style in runs:
        parts = text.split("\n")
        for k, part in enumerate(parts):
            if k:
                out.append([])
            if part:
                out[-1].append((part, style))
    return out


def _transform(text: str, caps: str) -> str:
    if caps in ("upper", "small-caps"):
        return text.upper()
    if caps == "lower":
        return text.lower()
    if caps == "capitalize":
        return re.sub(r"(^|(?<=\s))(\w)", lambda m: m.group(1) + m.group(2).upper(), text)
    return text


def _int(value: str | None, default: int) -> int:
    try:
        return max(1, int(str(value).strip())) if value is not None else default
    except ValueError:
        return default


def _media_applies(media: str | None) -> bool:
    if not media:
        return True
    low = media.lower()
    return "print" in low or "all" in low


def read_html(raw: bytes, *, path: str, sha256: str | None = None) -> SourceDoc:
    """``raw`` HTML bytes read into a :class:`SourceDoc` (see the module docstring)."""
    from lxml import etree

    kind = binary_kind(raw[:_SNIFF])
    if kind is not None:
        raise ReadError(f"binary content ({kind}), not HTML", path=path,
                        hint="check the file's real type and rename it")
    encoding, how = sniff_encoding(raw)
    findings: list[Finding] = []
    if how == "fallback":
        findings.append(Finding("not_utf8", Stage.read, "no declared encoding and not valid UTF-8; read as "
                                "windows-1252"))
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    walker = _Walker(path)
    parser = etree.HTMLParser(target=walker, no_network=True, huge_tree=True, recover=True,
                              remove_comments=True, remove_pis=True)
    try:
        for i in range(0, len(raw), _CHUNK):  # decoded a chunk at a time: the text is never held whole
            parser.feed(decoder.decode(raw[i:i + _CHUNK]))
        parser.feed(decoder.decode(b"", final=True))
        parser.close()
    except LimitExceeded:
        raise
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise ReadError(f"cannot parse HTML: {exc}", path=path,
                        hint="check that the file is an HTML document") from exc
    if walker.sheet.imports:
        findings.append(Finding("stylesheet_not_fetched", Stage.read, f"{walker.sheet.imports} @import "
                                "stylesheet(s) not fetched (no network access)"))
    if sha256 is None:
        import hashlib

        sha256 = hashlib.sha256(raw).hexdigest()
    return _document(walker, path, sha256, len(raw), findings)


def _document(w: _Walker, path: str, sha256: str, size: int, findings: list[Finding]) -> SourceDoc:
    pages = [p for p in w.pager.pages if p.texts]
    meta = {"page_breaks": str(w.breaks)}
    if w.breaks and len(pages) > 1:
        line_lists = [p.lines for p in pages]

        def blocks(i: int) -> list[tuple[float, float, int]]:  # a line a block: made when a stage asks
            return [(ln.y0, ln.y1, ln.char) for ln in line_lists[i]]

        units = [Unit(index=i, kind=UnitKind.page, text=p.text, page=i + 1, height=p.height, block_source=blocks)
                 for i, p in enumerate(pages)]
        index = {id(p): i for i, p in enumerate(pages)}
        old = {k: index[id(p)] for k, p in enumerate(w.pager.pages) if id(p) in index}
        outline = [OutlineEntry(level, title, old[page] + 1, y) for level, title, page, y in w.headings
                   if page in old and title]
        tables = []
        for g in w.grids:
            if g.page not in old or not g.rows:
                continue
            lines = w.pager.pages[g.page].lines[g.first:g.last + 1]
            unit = old[g.page]
            start, end = lines[0].char, max(ln.char + len(ln.text) for ln in lines)
            box = (min(ln.x0 for ln in lines), min(ln.y0 for ln in lines), max(ln.x1 for ln in lines),
                   max(ln.y1 for ln in lines))
            tables.append(_table(g.rows, unit, start, end, units[unit].text[:start], unit + 1, box))
        return SourceDoc(path=path, format=Format.html, units=units, sha256=sha256, size=size, title=w.title,
                         metadata=meta, outline=outline, page_count=len(units), findings=findings, tables=tables,
                         folio_labels=True,
                         _lines=lambda i: line_lists[i] if 0 <= i < len(line_lists) else [])
    anchored = _anchor_lines(w)
    units, laid, first = _blocks(w)
    if not w.headings:
        linked = _linked_contents(w, units, laid, first, anchored)
        if linked:
            meta["contents_links"] = str(linked)
    tables = []
    for g in w.grids:
        at = _unit_at(laid, first, g.page, g.first)
        if at is not None and g.rows and units[at].kind == UnitKind.table:
            above = units[at - 1].text if at > 0 and units[at - 1].kind != UnitKind.table else ""
            tables.append(_table(g.rows, at, 0, len(units[at].text), above, None, None))

    title = w.title  # the view keeps the title, not the reader's state

    def view() -> LayoutView:  # the blocks as a browser prints them, for the rules that read pages
        return view_pages(laid, units, path=path, sha256=sha256, size=size, fmt=Format.html, title=title)

    return SourceDoc(path=path, format=Format.html, units=units, sha256=sha256, size=size, title=w.title,
                     metadata=meta, page_count=None, findings=findings, tables=tables, layout_view=view)


def _table(rows: list[list[str]], unit: int, start: int, end: int, above: str, page: int | None,
           bbox: tuple[float, float, float, float] | None) -> Table:
    """A laid-out table as data: its header rows are the leading rows whose first cell is blank (the
    column headings over a column of row labels: ``| Three Months Ended |``, ``| June 28, 2025 |``), its
    first column names the rows by the shared rule (:func:`.tables.labels_rows`), its title the line
    printed above it (:func:`.tables.title_line`)."""
    table = Table.from_cells(rows, unit=unit, start=start, end=end, title=title_line(above), page=page, bbox=bbox)
    header = 0
    while header < min(MAX_HEADER_ROWS, len(table.rows) - 1) and not table.rows[header][0] \
            and any(table.rows[header]):
        header += 1
    labels = labels_rows(table.rows[header:])
    return dataclasses.replace(table, header_rows=header, label_columns=int(labels and table.width > 1))


MAX_HEADER_ROWS = 4
"""At most this many leading rows are column headings (a period, a date, a unit)."""


def _anchor_lines(w: _Walker) -> dict[str, tuple[int, int]]:
    """The line (page, index) each link's target anchor landed on: the line laid out right after it."""
    out: dict[str, tuple[int, int]] = {}
    for link in w.links:
        where = w.pager.anchors.get(link.target)
        if where is None or link.target in out:
            continue
        page, _y, char = where
        lines = w.pager.pages[page].lines
        j = bisect_left(lines, char, key=_line_char)  # a page's lines come in the order of their text
        if j < len(lines) and lines[j].char == char:
            out[link.target] = (page, j)
    return out


def _line_char(line: Line) -> int:
    return line.char


def _linked_contents(w: _Walker, units: list[Unit], laid: LaidLines, first: list[int],
                     anchored: dict[str, tuple[int, int]]) -> int:
    """The contents' links to anchors as declared headings, as a PDF's outline is trusted: when at least
    :data:`MIN_CONTENTS_LINKS` of them point at anchors that exist (``anchored``: the line each landed on),
    nearly all do, and their targets come in document order after the links. The target's block becomes a
    heading whose level is the link's rank in the contents (list nesting, then indentation). Returns the
    headings declared (0: not trusted)."""
    found: list[tuple[int, _Link]] = []
    links = list({link.target: link for link in reversed(w.links) if link.text}.values())[::-1]  # first per target
    for link in links:
        line = anchored.get(link.target)
        unit = _unit_at(laid, first, *line) if line is not None else None
        if unit is not None:
            found.append((unit, link))
    if len(found) < MIN_CONTENTS_LINKS or len(found) < CONTENTS_RESOLVED * len(links):
        return 0
    targets = [u for u, _ in found]
    if any(b <= a for a, b in zip(targets, targets[1:], strict=False)):
        return 0  # out of order: not a contents (a list of cross-references)
    ranks = {key: k + 1 for k, key in enumerate(sorted({link.nesting for _, link in found}))}
    declared = 0
    for unit, link in found:
        u = units[unit]
        if u.kind == UnitKind.paragraph and len(u.text) <= MAX_HEADING_CHARS:
            u.kind, u.heading_level = UnitKind.heading, min(6, ranks[link.nesting])
            declared += 1
    return declared


MIN_CONTENTS_LINKS = 3
"""A contents declares structure with at least this many links to anchors that exist."""
CONTENTS_RESOLVED = 0.9
"""... and when at least this share of its links (distinct targets) reach an anchor."""
MAX_HEADING_CHARS = 200
"""A linked block longer than this is a paragraph the anchor sits in, not a heading."""


def _unit_at(laid: LaidLines, first: list[int], page: int, line: int) -> int | None:
    """The block unit laid-out line ``line`` of page ``page`` landed in (``first``: each page's first line
    in ``laid``), ``None`` past the laid-out lines."""
    if not 0 <= page < len(first) or line < 0:
        return None
    k = first[page] + line
    end = first[page + 1] if page + 1 < len(first) else len(laid)
    return laid.unit(k)[0] if k < end else None


def _blocks(w: _Walker) -> tuple[list[Unit], LaidLines, list[int]]:
    """Block units of a document without page breaks: a paragraph (its wrapped lines joined again), a
    heading (its declared level) or a table (a row a text line, its cells apart by `` | ``) each; and the
    laid-out lines as :class:`LaidLines` (each with its unit and its offset in that unit's text; a table's
    lines: 0) with each page's first line there. The reader's ``Line`` s are let go a block at a time."""
    units: list[Unit] = []
    laid = LaidLines()
    first: list[int] = []
    rows: dict[int, dict[int, list[str]]] = {}  # table row -> cell -> its lines
    cells: list[Line] = []  # the open table's lines, laid once its unit is made
    table: int | None = None
    for p, page in enumerate(w.pager.pages):
        first.append(len(laid) + len(cells))
        lines: list[Line | None] = list(page.lines)
        page.lines, page.texts = [], []  # the reader's lines live on only here, each until its block is laid
        j = 0
        while j < len(lines):
            line = lines[j]
            assert line is not None
            kind = w.kinds.get((p, j))
            cell = w.pager.cells.get((p, j)) if w.pager.cells is not None else None
            if kind is not None and kind[0] == "table" and cell is not None:
                if table != kind[1]:
                    _close_table(units, rows, cells, laid)
                    table = kind[1]
                rows.setdefault(cell[0], {}).setdefault(cell[1], []).append(line.text)
                cells.append(line)
                lines[j] = None
                j += 1
                continue
            _close_table(units, rows, cells, laid)
            table = None
            k = j
            while k + 1 < len(lines) and lines[k + 1].block == line.block:  # type: ignore[union-attr]
                k += 1
            block = cast(list[Line], lines[j:k + 1])
            text = " ".join(ln.text for ln in block)
            if kind is not None and kind[0] == "heading":
                units.append(Unit(index=len(units), kind=UnitKind.heading, text=text, heading_level=kind[1]))
            else:
                units.append(Unit(index=len(units), kind=UnitKind.paragraph, text=text))
            at = 0
            for m, ln in enumerate(block, start=j):
                laid.add(ln, len(units) - 1, at, text)
                at += len(ln.text) + 1
                lines[m] = None
            j = k + 1
    _close_table(units, rows, cells, laid)
    return units, laid, first


def _close_table(units: list[Unit], rows: dict[int, dict[int, list[str]]], cells: list[Line],
                 laid: LaidLines) -> None:
    if rows:
        text = "\n".join(" | ".join(" ".join(rows[r][c]) for c in sorted(rows[r])) for r in sorted(rows))
        units.append(Unit(index=len(units), kind=UnitKind.table, text=text))
        rows.clear()
        for ln in cells:
            laid.add(ln, len(units) - 1, 0, text)
        cells.clear()
