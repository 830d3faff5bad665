"""Plain-text reader (``.txt``, ``.text``): headings from the conventions plain text has for them.

Plain text has no type, so its headings are set apart by convention: a title underlined with
``====`` or ``----``, a numbered line (``1.``, ``1.1``, ``A.``, ``Section 3``, ``Part II``) or a line
in capitals standing alone between blank lines. The reader reads those conventions as the
emphasis they stand for and hands the rest to the shared rules:

- text with form feeds (an RFC, a printed report) is paged: one unit per page, each text line a
  typographic ``Line`` in a monospaced type at its column (leading spaces indent it), headings
  emphasised (bold; an ``====`` title larger, a ``----`` title a little larger). The PDF rules then
  find the printed contents list, the running headers and footers (``[Page 3]``), the printed
  page numbers and the headings' levels from their numbering, as on a printed page;
- text without form feeds is a run of blocks (paragraphs apart by blank lines, each line set apart
  by a convention a block of its own, underlines left out) with no pages to cite, and a layout view
  of the same lines (:mod:`.view`) in which the structure stage finds the headings and their levels
  by the same rules (numbering depth, then the emphasis's rank) and a printed contents list, with or
  without page numbers. Outdented lines set apart by blank lines (a text dumped from HTML) are
  headings too, the further out the larger.

Encodings: a byte-order mark, else UTF-8, else windows-1252 (with a warning).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import ReadError
from ..findings import Finding, Stage
from ..model import Format, LayoutView, Line, SourceDoc, Unit, UnitKind
from ..settings import Limits
from .common import read_markup
from .fonts import font_traits
from .html import sniff_encoding, valid_utf8
from .view import LaidLines, view_pages

__all__ = ["TextReader", "read_text", "TITLE_SIZE", "SUBTITLE_SIZE", "BODY_SIZE"]

BODY_SIZE = 10.0
"""The type size a text line is given (a typewriter's 10-point pica)."""
TITLE_SIZE = 14.0
"""A title underlined with ``====``."""
SUBTITLE_SIZE = 12.0
"""A title underlined with ``----``."""
_ADVANCE = 0.6
"""A monospaced character's width, as a share of the size."""
_LEADING = 1.2
_FONT = "PlainText"
"""The typeface name the lines carry: one face for the whole text (named as no code face is, since in
plain text every line is set in the one fixed pitch: the heading rules' code-listing test is for a
monospaced face among proportional ones)."""
_TRAITS = font_traits(_FONT)
"""Its italic, mono and family, set on every line as a PDF reader sets a line's (``readers.fonts``)."""
_MARGIN = 36.0
_MAX_HEADING_CHARS = 90
"""A line longer than this is text, whatever it looks like."""
OUTDENT_STEP = 0.5
"""Points an outdented heading is set larger than the body per indentation step it stands further out
(a text dumped from HTML: ``Closing bug reports`` at the margin, sub-heads two columns in, the text three):
bold makes it a heading, the size ranks the steps."""
_MEASURE_RANK = 0.9
"""The text's measure (the width it is wrapped at) is the line length this far up the sorted lengths."""
_WRAPPED = 0.85
"""A numbered line this close to the measure, text right under it, is a list item's or a paragraph's first
line wrapped there (``1. The Developers follow the Standard Resolution Procedure, below. A``), not a heading."""
_UNDERLINE = re.compile(r"^\s*(=+|-+|~+|\*+|\^+)\s*$")
_NUMBERED = re.compile(
    r"^\s*(?:(?:section|chapter|part|article|appendix|annex|item)\s+[0-9IVXLCivxlc]+[A-Za-z]?\.?"
    r"|[0-9]{1,3}(?:\.[0-9]{1,3})*\.?|[A-Z]\.|[IVXLC]{1,6}\.)(?:\s|$)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.;:,]$")
_NL = re.compile(r"\r\n|\r")


class TextReader:
    """Reads ``.txt``/``.text`` files into page units (form feeds) or block units."""

    suffixes: tuple[str, ...] = (".txt", ".text")
    format: str = Format.text

    def read(self, path: Path, limits: Limits | None = None, password: str | None = None) -> SourceDoc:
        raw, sha = read_markup(path, limits or Limits(), "text")
        return read_text(raw, path=str(path), sha256=sha)


@dataclass(frozen=True, slots=True)
class _Head:
    """A heading line: how it is set apart (``=``/``-`` underline, ``caps``, ``numbered``)."""

    kind: str
    size: float = 0.0  # an outdented heading's type size: the further out, the larger (0: the kind's size)


def _headings(lines: list[str]) -> dict[int, _Head]:
    """Heading lines by index: underlined, or numbered or in capitals and set apart (a blank line or
    the text's edge above, a blank line below or an indented/other-style line) and not a sentence."""
    out: dict[int, _Head] = {}
    n = len(lines)
    lengths = sorted(len(ln.rstrip()) for ln in lines if ln.strip())
    measure = lengths[int(len(lengths) * _MEASURE_RANK)] if lengths else 0  # the width the text is wrapped at
    indents = Counter(len(ln) - len(ln.lstrip()) for ln in lines if ln.strip())
    body_indent = indents.most_common(1)[0][0] if indents else 0  # where the text's lines start
    for i, raw in enumerate(lines):
        text = raw.strip()
        if not text or len(text) > _MAX_HEADING_CHARS or _UNDERLINE.match(text):
            continue
        below = lines[i + 1].strip() if i + 1 < n else ""
        m = _UNDERLINE.match(below) if below else None
        if m and len(m.group(1)) >= max(3, len(text) // 2):
            out[i] = _Head("=" if m.group(1)[0] in "=*^" else "-")
            continue
        above_blank = i == 0 or not lines[i - 1].strip() or lines[i - 1].lstrip().startswith("\f")
        below_blank = i + 1 >= n or not below
        if not above_blank or _SENTENCE_END.search(text) and not _NUMBERED.match(text + " ") \
                or text.endswith((",", ";")):
            continue
        letters = [c for c in text if c.isalpha()]
        wrapped = not below_blank and len(raw.rstrip()) >= _WRAPPED * measure  # a paragraph's first line
        if _NUMBERED.match(text + " ") and len(letters) >= 2 and (below_blank or len(text.split()) <= 10) \
                and not text.rstrip().endswith(".") and not wrapped:
            out[i] = _Head("numbered")
        elif len(letters) >= 3 and all(c.isupper() for c in letters) and below_blank:
            out[i] = _Head("caps")
        elif below_blank and len(raw) - len(raw.lstrip()) < body_indent and len(letters) >= 3 \
                and text[:1].isupper() and not wrapped and not _SENTENCE_END.search(text):
            out[i] = _Head("outdent")
    outdents = sorted({len(lines[i]) - len(lines[i].lstrip()) for i, h in out.items() if h.kind == "outdent"})
    for i, h in out.items():
        if h.kind == "outdent":
            rank = outdents.index(len(lines[i]) - len(lines[i].lstrip()))
            out[i] = _Head("outdent", BODY_SIZE + OUTDENT_STEP * (len(outdents) - rank))
    return out


def read_text(raw: bytes, *, path: str, sha256: str | None = None) -> SourceDoc:
    """``raw`` plain-text bytes read into a :class:`SourceDoc` (see the module docstring)."""
    from .html import binary_kind

    kind = binary_kind(raw[:4096])
    if kind is not None:
        raise ReadError(f"binary content ({kind}), not plain text", path=path,
                        hint="check the file's real type and rename it")
    encoding, how = sniff_encoding(raw) if raw.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) \
        else (("utf-8", "utf-8") if valid_utf8(raw) else ("cp1252", "fallback"))
    findings = [Finding("not_utf8", Stage.read, "not valid UTF-8; read as windows-1252")] if how == "fallback" else []
    text = _NL.sub("\n", raw.decode(encoding, errors="replace")).expandtabs(8)
    if sha256 is None:
        import hashlib

        sha256 = hashlib.sha256(raw).hexdigest()
    pages = text.split("\f")
    if len([p for p in pages if p.strip()]) > 1:
        return _paged(pages, path, sha256, len(raw), findings)
    units, placed = _blocks(text.split("\n"))
    size = len(raw)  # the view needs the bytes' length, not the bytes

    def view() -> LayoutView:  # the text as a terminal shows it, emphasis included, for the rules that read pages
        return view_pages(placed, units, path=path, sha256=sha256, size=size, fmt=Format.text)

    return SourceDoc(path=path, format=Format.text, units=units, sha256=sha256, size=len(raw), page_count=None,
                     findings=findings, layout_view=view)


def _paged(pages: list[str], path: str, sha256: str, size: int, findings: list[Finding]) -> SourceDoc:
    units: list[Unit] = []
    all_lines: list[list[Line]] = []
    for page_text in pages:
        if not page_text.strip() and units:
            continue  # a form feed right after another: no empty page
        text = page_text.strip("\n")
        rows = text.split("\n")
        heads = _headings(rows)
        lines: list[Line] = []
        char = 0
        for k, row in enumerate(rows):
            stripped = row.strip()
            if stripped and not (_UNDERLINE.match(stripped) and k - 1 in heads):
                lines.append(_line(row, k, heads.get(k), char, len(lines)))
            char += len(row) + 1
        height = max(792.0, 2 * _MARGIN + len(rows) * BODY_SIZE * _LEADING)
        units.append(Unit(index=len(units), kind=UnitKind.page, text=text, page=len(units) + 1, height=height,
                          _blocks=[(ln.y0, ln.y1, text.rfind("\n", 0, ln.char) + 1) for ln in lines]))
        all_lines.append(lines)
    return SourceDoc(path=path, format=Format.text, units=units, sha256=sha256, size=size, page_count=len(units),
                     findings=findings, folio_labels=True,
                     _lines=lambda i: all_lines[i] if 0 <= i < len(all_lines) else [])


def _line(row: str, k: int, head: _Head | None, char: int, block: int) -> Line:
    """Text row ``k`` as a typographic line at its column (leading spaces indent it), a heading's
    convention read as emphasis: bold, and an ``====`` title larger, a ``----`` title a little larger."""
    stripped = row.strip()
    type_size = TITLE_SIZE if head and head.kind == "=" else SUBTITLE_SIZE if head and head.kind == "-" \
        else head.size if head and head.size else BODY_SIZE
    indent = len(row) - len(row.lstrip())
    x0 = _MARGIN + indent * BODY_SIZE * _ADVANCE
    y0 = _MARGIN + k * BODY_SIZE * _LEADING
    x1 = x0 + len(stripped) * type_size * _ADVANCE
    return Line(stripped, type_size, head is not None, x0, y0, x1, y0 + type_size * _LEADING, char + indent, block,
                _FONT, 0, 0.0, *_TRAITS)


def _blocks(rows: list[str]) -> tuple[list[Unit], LaidLines]:
    """Paragraphs apart by blank lines, each line set apart by a heading's convention a paragraph of its
    own (its underline left out); and every text line laid out (:func:`_line`) with its unit and its
    offset there, for the layout view in which the structure stage finds the headings and their levels."""
    heads = _headings(rows)
    units: list[Unit] = []
    placed = LaidLines()
    para: list[tuple[int, str]] = []

    def close() -> None:
        if any(t.strip() for _, t in para):
            u, at = len(units), 0
            units.append(Unit(index=u, kind=UnitKind.paragraph, text="\n".join(t for _, t in para).rstrip("\n")))
            for k, text in para:
                line = _line(text, k, heads.get(k), at, u)
                placed.add(line, u, line.char, units[u].text)
                at += len(text) + 1
        para.clear()

    skip = -1
    for k, row in enumerate(rows):
        if k == skip:
            continue
        head = heads.get(k)
        if head is not None:
            close()
            para.append((k, row.rstrip()))
            close()
            if head.kind in "=-":
                skip = k + 1
        elif not row.strip():
            close()
        else:
            para.append((k, row.rstrip()))
    close()
    return units, placed
