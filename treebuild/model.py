"""The data model every stage shares: units a reader produces, marks a structure source
proposes, and the tree of nodes that the store keeps.

Positions in a document are ``Pos(unit, char)``: a unit index and a character offset into
that unit's text. A node owns the half-open span ``[start, end)`` of the unit stream, so its
text is exact and sections that share a page split that page where the next one begins.
"""

from __future__ import annotations

import dataclasses
import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import PurePath
from typing import Any, NamedTuple

from .findings import Finding, texts

__all__ = [
    "Format",
    "UnitKind",
    "Origin",
    "StructureSource",
    "Method",
    "Pos",
    "Line",
    "Unit",
    "Table",
    "OutlineEntry",
    "SourceDoc",
    "LayoutView",
    "Mark",
    "Node",
    "Tree",
    "Usage",
]


class Format(StrEnum):
    """A source format (stored as the plain string in ``trees.format``)."""

    pdf = "pdf"
    docx = "docx"
    markdown = "markdown"
    html = "html"
    text = "text"


class UnitKind(StrEnum):
    """What a unit is (stored as the plain string in ``units.kind``)."""

    page = "page"
    paragraph = "paragraph"
    heading = "heading"
    table = "table"
    code = "code"


class Origin(StrEnum):
    """Where a node's start came from (stored as the plain string in ``nodes.origin``)."""

    outline = "outline"  # a PDF bookmark
    toc = "toc"  # a printed table-of-contents entry
    heading = "heading"  # a heading the format declares, or one found by its typography
    numbering = "numbering"  # a numbered heading (1.2, Note 4, Exhibit 10)
    sec = "sec"  # a SEC filing's Part or Item
    filing = "filing"  # a filing section its own rules place (financial statements, exhibits)
    model = "model"  # a model's proposal, verified on the page
    window = "window"  # a page window: no structure found, or a large leaf subdivided
    preface = "preface"  # the text before the first section
    single = "single"  # the whole document as one node
    imported = "imported"  # from a PageIndex tree


class StructureSource(StrEnum):
    """A structure source whose marks a tree used: the parts of :class:`Method`."""

    outline = "outline"
    toc = "toc"
    headings = "headings"
    sec = "sec"
    model = "model"
    windows = "windows"
    single = "single"  # no source found sections
    imported = "imported"


class Method(str):
    """How a tree was built: the structure sources used, in order, joined with ``+`` (``toc+headings``).

    A ``str`` (stored, printed and compared as that string) whose parts are checked against
    :class:`StructureSource`; ``sources`` gives them typed.
    """

    __slots__ = ()

    def __new__(cls, value: str | Iterable[str]) -> Method:
        parts = value.split("+") if isinstance(value, str) else list(value)
        sources = [StructureSource(p) for p in parts]  # ValueError for a name that is no source
        if not sources:
            raise ValueError("a method names at least one structure source")
        return super().__new__(cls, "+".join(dict.fromkeys(sources)))

    @property
    def sources(self) -> tuple[StructureSource, ...]:
        return tuple(StructureSource(p) for p in self.split("+"))


class Pos(NamedTuple):
    """A position in the unit stream: ``unit`` index and ``char`` offset into its text."""

    unit: int
    char: int


@dataclass(frozen=True, slots=True)
class Line:
    """One text line of a PDF page with the typography that heading detection needs.

    ``char`` is the offset of the line's first character in the page unit's text, so a
    heading found on a line becomes a ``Pos`` without searching.
    """

    text: str
    size: float
    bold: bool
    x0: float
    y0: float
    x1: float
    y1: float
    char: int
    block: int
    font: str = ""
    lead: int = 0  # characters of a run-in head opening the line in a larger type (``Europe — In March ...``)
    lead_size: float = 0.0  # ... and that type's size
    italic: bool = False  # the face is italic or slanted (the reader reads it from the font, as ``bold``)
    mono: bool = False  # the face is monospaced (code)
    family: str = ""  # the typeface without weight and style (``timesnewroman``), to compare lines by


def _finite_lines(lines: list[Line]) -> None:
    """Make a page's lines safe to compute with, in place: a size that is not a finite number of points
    (NaN, infinite, negative) becomes 0, "no usable size"; a line whose box is not finite is dropped (it
    cannot be placed on its page; its text stays in the unit). MuPDF's numbers are finite, but every
    layout heuristic computes with these, so one bad number from any reader would abort a document."""
    if all(_finite_line(ln) for ln in lines):
        return
    kept = []
    for ln in lines:
        if not math.isfinite(ln.x0 + ln.y0 + ln.x1 + ln.y1):
            continue
        if not _finite_line(ln):
            ln = dataclasses.replace(ln, size=_points(ln.size), lead_size=_points(ln.lead_size))
        kept.append(ln)
    lines[:] = kept


def _finite_line(ln: Line) -> bool:
    return math.isfinite(ln.x0 + ln.y0 + ln.x1 + ln.y1 + ln.size + ln.lead_size) and ln.size >= 0 \
        and ln.lead_size >= 0


def _points(size: float) -> float:
    return size if math.isfinite(size) and size >= 0 else 0.0


@dataclass(slots=True)
class Unit:
    """An ordered piece of a document: a PDF page, or a DOCX/Markdown block.

    ``heading_level`` is set by readers whose format declares headings (DOCX styles and
    outline levels, Markdown ``#``); PDF pages leave it ``None``.
    """

    index: int
    kind: UnitKind
    text: str
    page: int | None = None  # 1-based physical page for paged formats
    label: str | None = None  # printed page label from the PDF, e.g. "iv", "12", "F-3"
    heading_level: int | None = None
    style: str | None = None
    height: float | None = None  # PDF only: page height
    # PDF only: computes (y0, y1, char offset) of each text block on first use; enough to turn an
    # outline destination's y into a character position. Lazy because it needs the page layout.
    block_source: Callable[[int], list[tuple[float, float, int]]] | None = field(default=None, repr=False)
    _blocks: list[tuple[float, float, int]] | None = field(default=None, repr=False)

    @property
    def blocks(self) -> list[tuple[float, float, int]] | None:
        """Text blocks of a PDF page as (y0, y1, char offset), in text order; ``None`` otherwise."""
        if self._blocks is None and self.block_source is not None:
            self._blocks = self.block_source(self.index)
        return self._blocks


_NUMERIC = re.compile(r"^[\s$€£¥%(),.\-–—+*]*\d[\d\s$€£¥%(),.\-–—+*]*$|^[\s$(]*[-–—]+[\s)]*$")
"""A cell that reads as a figure: digits with currency, sign, grouping and bracket marks (``$ (1,234.5)``,
``12%``), or a dash standing for nil."""
NUMERIC_COLUMN_SHARE = 0.5
"""A column whose non-empty body cells are figures at least this often is right-aligned in Markdown."""


def is_figure(cell: str) -> bool:
    """Whether a cell reads as a number (or a dash for nil) rather than words."""
    return bool(cell.strip()) and _NUMERIC.match(cell) is not None


@dataclass(frozen=True, slots=True)
class Table:
    """A table kept as data: its grid as printed and where it sits in the unit stream.

    ``unit`` is the unit the table sits in and ``[start, end)`` its character span in that unit's
    text (the whole unit for a DOCX or Markdown table, part of a page for a PDF), so the exact text
    stays the unit stream's and a rendered view substitutes the span with :meth:`markdown`.
    ``rows`` are the cells as printed, row by row, every row as long as the widest (blank cells
    are ``""``); the first ``header_rows`` of them are column headings. ``label_columns`` (0 or 1)
    says whether the first column names the rows (``Total revenue``, a parameter's name).
    ``title`` is the table's caption, or the line printed above it; ``page`` and ``bbox``
    (x0, y0, x1, y1 in points, top-down) are set for paged formats.
    """

    unit: int
    start: int
    end: int
    rows: tuple[tuple[str, ...], ...]
    header_rows: int = 0
    label_columns: int = 0
    title: str | None = None
    page: int | None = None
    bbox: tuple[float, float, float, float] | None = None

    @classmethod
    def from_cells(cls, cells: Iterable[Iterable[str | None]], **kw: Any) -> Table:
        """A table from rows of cells of any lengths: cells are made one line each and rows padded to the widest."""
        rows = [[" ".join((c or "").split()) for c in row] for row in cells]
        width = max((len(r) for r in rows), default=0)
        return cls(rows=tuple(tuple(r + [""] * (width - len(r))) for r in rows), **kw)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    @property
    def header(self) -> tuple[tuple[str, ...], ...]:
        return self.rows[: self.header_rows]

    @property
    def body(self) -> tuple[tuple[str, ...], ...]:
        return self.rows[self.header_rows :]

    @property
    def row_labels(self) -> list[str]:
        """The body rows' labels (their first cells) when the first column names the rows; else empty."""
        if not self.label_columns:
            return []
        return [row[0] for row in self.body if row and row[0]]

    def column_titles(self) -> list[str]:
        """Each column's heading: the column's header cells from top to bottom, joined with a space."""
        return [" ".join(row[c] for row in self.header if row[c]) for c in range(self.width)]

    def markdown(self) -> str:
        """The table as a GitHub-flavoured Markdown table: the header rows joined into one heading row
        (an empty one when the table has none), figure columns right-aligned, columns padded to line up."""
        if not self.rows:
            return ""
        head = self.column_titles() if self.header_rows else [""] * self.width
        body = [[_md_cell(c) for c in row] for row in self.body]
        head = [_md_cell(c) for c in head]
        right = [_figures(self.body, c) for c in range(self.width)]
        widths = [max(3, len(head[c]), *(len(r[c]) for r in body)) for c in range(self.width)]

        def line(cells: list[str]) -> str:
            return "| " + " | ".join(cell.rjust(w) if r else cell.ljust(w)
                                     for cell, w, r in zip(cells, widths, right, strict=True)) + " |"

        rule = "| " + " | ".join("-" * (w - 1) + ":" if r else "-" * w
                                 for w, r in zip(widths, right, strict=True)) + " |"
        return "\n".join([line(head), rule, *(line(r) for r in body)])


def _md_cell(cell: str) -> str:
    return " ".join(cell.split()).replace("|", "\\|")


def _figures(body: tuple[tuple[str, ...], ...], column: int) -> bool:
    cells = [row[column] for row in body if row[column].strip()]
    return bool(cells) and sum(map(is_figure, cells)) >= NUMERIC_COLUMN_SHARE * len(cells)


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One bookmark of a PDF outline: 1-based ``level``, ``title``, 1-based ``page``.

    ``y`` is the destination's top-down y coordinate on the page when the PDF gives one.
    """

    level: int
    title: str
    page: int
    y: float | None = None


@dataclass
class LayoutView:
    """A document without pages (block units: HTML without page breaks, text without form feeds) laid
    out on pages all the same, so that the rules that read a printed page (typography, numbering, a
    printed contents) find its headings. ``doc`` is that paged document (its pages are the layout's,
    not the author's: nothing is cited by them); ``starts[p]`` holds three sequences with an item per
    text line of its page ``p`` in order: the char on the page where the line starts, its block unit and
    its char in that unit, so a position found on a page maps back to the block units (:meth:`to_unit`)."""

    doc: SourceDoc
    starts: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int]]]

    def to_unit(self, pos: Pos) -> Pos:
        """The block-unit position of the page position ``pos`` (within the unit's text)."""
        if not 0 <= pos.unit < len(self.starts) or not self.starts[pos.unit][0]:
            return Pos(0, 0)
        at, units, chars = self.starts[pos.unit]
        k = max(0, bisect_right(at, pos.char) - 1)
        end = at[k + 1] - 1 if k + 1 < len(at) else len(self.doc.units[pos.unit].text)  # the line's end
        return Pos(units[k], chars[k] + max(0, min(pos.char, end) - at[k]))


@dataclass
class SourceDoc:
    """What a reader hands to the pipeline: units in document order plus file facts.

    ``lines(i)`` gives typographic lines of page unit ``i`` for paged formats; readers compute
    them lazily and cache them, so stages that never ask pay nothing.
    """

    path: str
    format: Format | str  # a built-in format, or a plug-in reader's format name
    units: list[Unit]
    sha256: str
    size: int
    title: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    outline: list[OutlineEntry] = field(default_factory=list)
    page_count: int | None = None
    findings: list[Finding] = field(default_factory=list)  # the reader's, e.g. no text layer; the build reports them
    tables: list[Table] = field(default_factory=list)  # tables kept as data, by (unit, start); spans never overlap
    ocr: dict[str, Any] | None = None  # pages read by OCR: engine, count, list, confidence (the tree's ``stats.ocr``)
    read_confidence: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    """Units whose text was read uncertainly (by OCR): for each, its lines' first characters and how sure the
    reader was of them (0..1), by character; text of any other unit is as its file says (see
    :meth:`text_confidence`)."""
    _lines: Any = field(default=None, repr=False)  # callable(int) -> list[Line]
    _release: Any = field(default=None, repr=False)  # callable() dropping what the reader keeps for ``lines``
    folio_labels: bool = False  # pages without labels of their own: the structure stage labels them from their folios
    layout_view: Callable[[], LayoutView] | None = field(default=None, repr=False)  # block units laid out on pages
    _checked: dict[int, list[Line]] = field(default_factory=dict, repr=False)  # pages whose numbers are checked

    def __repr__(self) -> str:  # short: the units hold the whole document's text
        return (f"SourceDoc(path={self.path!r}, format={self.format!r}, units={len(self.units)}, "
                f"pages={self.page_count})")

    @property
    def warnings(self) -> list[str]:
        """The text form of :attr:`findings` (a new list)."""
        return texts(self.findings)

    def lines(self, unit: int) -> list[Line]:
        """Typographic lines of a page unit (empty for formats without pages)."""
        if self._lines is None:
            return []
        result: list[Line] = self._lines(unit)
        if self._checked.get(unit) is not result:  # each list a reader hands out is checked once
            _finite_lines(result)
            self._checked[unit] = result
        return result

    def release(self) -> None:
        """Drop what the reader keeps to make later ``lines`` calls cheaper (a PDF's text pages);
        a later call computes it again. The pipeline calls it when a build is done."""
        if self._release is not None:
            self._release()

    @property
    def paged(self) -> bool:
        """Units are printed pages with typographic lines: a PDF, HTML laid out at its page breaks, text
        with form feeds."""
        return self.format == Format.pdf or (self.format in (Format.html, Format.text)
                                             and self.page_count is not None)

    @property
    def display_title(self) -> str:
        """The file's own title, else its file name without suffix."""
        return self.title or PurePath(self.path).stem

    def text_confidence(self, pos: Pos) -> float:
        """How sure the reader was of the line holding ``pos`` (1.0 for text as the file gives it)."""
        lines = self.read_confidence.get(pos.unit)
        if not lines:
            return 1.0
        k = bisect_left(lines, pos.char + 1, key=_line_start) - 1
        return lines[max(0, k)][1]

    def end(self) -> Pos:
        """The position just past the last character of the document."""
        if not self.units:
            return Pos(0, 0)
        last = self.units[-1]
        return Pos(last.index, len(last.text))

    def span_text(self, start: Pos, end: Pos, *, tables: bool = False) -> str:
        """The exact text of ``[start, end)``; units are joined with a newline.

        ``tables=True`` gives the rendered text instead: each table whose whole span lies inside
        ``[start, end)`` reads as its Markdown (:meth:`Table.markdown`) set off by a blank line; a table
        cut by the span's bounds keeps its exact text. Show people and models this; hash, index and
        slice the exact text.
        """
        if end <= start:
            return ""
        pieces = [(start.unit, start.char, None if end.unit > start.unit else end.char)]
        pieces.extend((i, 0, None) for i in range(start.unit + 1, end.unit))
        if end.unit > start.unit and end.char > 0:
            pieces.append((end.unit, 0, end.char))
        if not (tables and self.tables_between(start, end)):
            return "\n".join(self.units[u].text[a:b] for u, a, b in pieces)
        out: list[str] = []
        after_table = False
        for n, (u, a, b) in enumerate(pieces):
            text = self.units[u].text
            stop = len(text) if b is None else b
            cursor = a
            segments: list[tuple[str, bool]] = [("\n", False)] if n else []
            for table in self.tables_in(u):
                if table.start >= cursor and table.end <= stop:
                    segments += [(text[cursor : table.start], False), (table.markdown(), True)]
                    cursor = table.end
            segments.append((text[cursor:stop], False))
            for piece, is_table in segments:
                if is_table:
                    while out and not out[-1].strip("\n"):  # the table's own blank line replaces the line breaks
                        out.pop()
                    if out:
                        out[-1] = out[-1].rstrip("\n")
                    out.append(("\n\n" if any(out) else "") + piece)
                    after_table = True
                elif after_table:
                    piece = piece.lstrip("\n")
                    if piece:
                        out.append("\n\n" + piece)
                        after_table = False
                elif piece:
                    out.append(piece)
        return "".join(out)

    def tables_in(self, unit: int) -> list[Table]:
        """The tables that sit in one unit, in text order."""
        lo = bisect_left(self.tables, unit, key=_table_unit)
        hi = bisect_left(self.tables, unit + 1, lo, key=_table_unit)
        return self.tables[lo:hi]

    def tables_between(self, start: Pos, end: Pos) -> list[Table]:
        """The tables whose whole span lies inside ``[start, end)``, in text order."""
        lo = bisect_left(self.tables, start.unit, key=_table_unit)
        hi = bisect_left(self.tables, end.unit + 1, lo, key=_table_unit)
        return [t for t in self.tables[lo:hi] if start <= Pos(t.unit, t.start) and Pos(t.unit, t.end) <= end]


def _table_unit(table: Table) -> int:
    return table.unit


def _line_start(line: tuple[int, float]) -> int:
    return line[0]


@dataclass(frozen=True, slots=True)
class Mark:
    """A proposed section start from one structure source.

    ``level`` is 1-based nesting depth. ``origin`` names the source, ``confidence`` is 0..1.
    """

    title: str
    level: int
    pos: Pos
    origin: Origin
    confidence: float = 1.0


@dataclass
class Usage:
    """Model usage added up over one build; stored on the tree row."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    failures: dict[str, int] = field(default_factory=dict)
    reused: int = 0
    retries: int = 0  # requests sent again after a 429, 5xx, timeout or connection error

    def add_failure(self, kind: str) -> None:
        self.failures[kind] = self.failures.get(kind, 0) + 1


@dataclass
class Node:
    """A section of the tree. ``start``/``end`` bound its full span (children included)."""

    node_id: str
    title: str
    depth: int
    ordinal: int
    start: Pos
    end: Pos
    origin: Origin
    confidence: float = 1.0
    start_page: int | None = None
    end_page: int | None = None
    parent: Node | None = field(default=None, repr=False)
    children: list[Node] = field(default_factory=list, repr=False)
    summary: str | None = None
    summary_origin: str | None = None  # "extractive" | "text" | model id
    summary_key: str | None = None
    text_sha256: str | None = None
    _doc: SourceDoc | None = field(default=None, repr=False)

    def __repr__(self) -> str:  # short: no summary, no text
        pages = f", pages={self.start_page}-{self.end_page}" if self.start_page is not None else ""
        return (f"Node({self.node_id!r}, {self.title!r}, depth={self.depth}{pages}, "
                f"children={len(self.children)})")

    @property
    def parent_id(self) -> str | None:
        return self.parent.node_id if self.parent is not None else None

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def path(self) -> list[Node]:
        """Nodes from the root down to this one."""
        chain: list[Node] = []
        node: Node | None = self
        while node is not None:
            chain.append(node)
            node = node.parent
        return chain[::-1]

    def own_end(self) -> Pos:
        """Where this node's own text stops: its first child's start, else its end."""
        return self.children[0].start if self.children else self.end

    def _source(self) -> SourceDoc:
        if self._doc is None:
            raise ValueError(f"node {self.node_id} has no document attached")
        return self._doc

    def text(self, *, tables: bool = False) -> str:
        """The exact text of the section, children included; ``tables=True`` renders its tables as
        Markdown (:meth:`SourceDoc.span_text`), the form to show a person or a model."""
        return self._source().span_text(self.start, self.end, tables=tables)

    def own_text(self, *, tables: bool = False) -> str:
        """Text before the first child: the section's lead (``tables=True``: tables as Markdown)."""
        return self._source().span_text(self.start, self.own_end(), tables=tables)

    def tables(self, *, own: bool = False) -> list[Table]:
        """The tables inside the section (children included, or only its lead text with ``own=True``)."""
        return self._source().tables_between(self.start, self.own_end() if own else self.end)

    def walk(self) -> Iterator[Node]:
        """This node and its descendants in preorder."""
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class Tree:
    """A built tree with its source facts, build facts and the unit stream it points into."""

    doc: SourceDoc
    roots: list[Node]
    method: Method
    settings: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)
    description: str | None = None
    description_key: str | None = None  # like Node.summary_key, for reusing the description
    model: str | None = None
    usage: Usage = field(default_factory=Usage)
    findings: list[Finding] = field(default_factory=list)  # every stage's, in the order recorded
    doc_id: str | None = None
    version: int | None = None
    meta: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:  # short: the document's text and every summary stay out
        nodes = sum(1 for _ in self.walk())
        return (f"Tree(doc_id={self.doc_id!r}, version={self.version}, source={PurePath(self.doc.path).name!r}, "
                f"method={self.method!r}, nodes={nodes})")

    @property
    def warnings(self) -> list[str]:
        """The text form of :attr:`findings` (a new list; what ``trees.warnings`` stores)."""
        return texts(self.findings)

    def walk(self) -> Iterator[Node]:
        """All nodes in preorder."""
        for root in self.roots:
            yield from root.walk()

    def node(self, node_id: str) -> Node:
        for n in self.walk():
            if n.node_id == node_id:
                return n
        raise KeyError(f"no node {node_id!r} in tree {self.doc_id or self.doc.path}")

    def find(self, title: str) -> list[Node]:
        """Nodes whose title contains ``title`` (case-insensitive)."""
        needle = title.casefold()
        return [n for n in self.walk() if needle in n.title.casefold()]
