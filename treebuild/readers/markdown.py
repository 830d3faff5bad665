"""Markdown reader: top-level CommonMark blocks as units, ATX and Setext headings declared.

Blocks come from markdown-it-py (CommonMark, plus GFM pipe tables), so the rules that decide
what is a heading are the spec's: ``#`` lines inside fenced or indented code, block quotes
and list items are not sections, a ``---`` under a paragraph is a Setext heading but under a
list item a rule. A unit's text is the block's source lines as written, so a node's text is
the author's Markdown; a heading unit's text is the heading's plain text (its title).
YAML front matter is cut off first: markdown-it would read it as a rule and a heading.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from ..errors import ReadError
from ..findings import Finding, Stage
from ..model import Format, SourceDoc, Table, Unit, UnitKind
from ..settings import Limits
from .common import file_digest
from .tables import labels_rows, title_line

__all__ = ["MarkdownReader", "parse_markdown", "decode_text"]

_MD = MarkdownIt("commonmark").enable("table")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_FRONT_OPEN = "---"
_FRONT_CLOSE = ("---", "...")
_FRONT_KEY = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$")
_KINDS = {"fence": UnitKind.code, "code_block": UnitKind.code, "table_open": UnitKind.table}
_STYLES = {"html_block": "html", "bullet_list_open": "list", "ordered_list_open": "list",
           "blockquote_open": "quote"}


class MarkdownReader:
    """Reads ``.md``/``.markdown`` files into paragraph, heading, table and code units."""

    suffixes: tuple[str, ...] = (".md", ".markdown")
    format: str = Format.markdown

    def read(self, path: Path, limits: Limits | None = None, password: str | None = None) -> SourceDoc:
        try:
            sha, size = file_digest(path)
            raw = path.read_bytes()
        except OSError as exc:
            raise ReadError(f"cannot read file: {exc.strerror or exc}", path=str(path),
                            hint="check that the file exists and is readable") from exc
        text = decode_text(raw)
        findings = []
        if _is_latin1_fallback(raw):
            findings.append(Finding("not_utf8", Stage.read,
                                    "not valid UTF-8; read as Latin-1 (save it as UTF-8 if characters look wrong)"))
        units, front, tables = parse_markdown_tables(text)
        title = front.get("title") or None
        return SourceDoc(path=str(path), format=Format.markdown, units=units, sha256=sha, size=size,
                         title=title, metadata=front, page_count=None, findings=findings, tables=tables)


def _is_latin1_fallback(raw: bytes) -> bool:
    """Whether :func:`decode_text` fell back to Latin-1 for these bytes."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and not raw.startswith(codecs.BOM_UTF8):
        try:
            raw.decode("utf-16")
            return False
        except UnicodeDecodeError:
            pass
    try:
        raw.removeprefix(codecs.BOM_UTF8).decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


def decode_text(raw: bytes) -> str:
    """UTF-8 (a BOM is dropped; UTF-16 with a BOM too), else latin-1, which decodes any byte."""
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def parse_markdown(text: str) -> tuple[list[Unit], dict[str, str]]:
    """Units in document order and the front matter's top-level scalar keys."""
    units, front, _tables = parse_markdown_tables(text)
    return units, front


def parse_markdown_tables(text: str) -> tuple[list[Unit], dict[str, str], list[Table]]:
    """Units in document order, the front matter's top-level scalar keys, and the pipe tables as data."""
    lines = _LINE_BREAK.split(text)
    front, start = _front_matter(lines)
    lines = lines[start:]
    tokens = _MD.parse("\n".join(lines))
    units: list[Unit] = []
    tables: list[Table] = []
    for i, tok in enumerate(tokens):
        if tok.level != 0 or tok.nesting == -1 or tok.map is None or tok.type == "hr":
            continue  # nested blocks belong to their container; rules carry no text
        if tok.type == "heading_open":
            title = _plain(tokens[i + 1].children or [])
            if title:
                units.append(Unit(index=len(units), kind=UnitKind.heading, text=title, heading_level=int(tok.tag[1:])))
            continue
        first, end = tok.map
        source = "\n".join(lines[first:end]).rstrip()
        if not source.strip():
            continue
        style = _STYLES.get(tok.type)
        if tok.type == "fence":
            style = tok.info.split()[0] if tok.info.strip() else None  # the fence's language
        units.append(Unit(index=len(units), kind=_KINDS.get(tok.type, UnitKind.paragraph), text=source, style=style))
        if tok.type == "table_open":
            tables.append(_table(tokens, i, units))
    return units, front, tables


def _table(tokens: list[Any], start: int, units: list[Unit]) -> Table:
    """The pipe table opening at ``tokens[start]`` (its unit is ``units[-1]``) as data: the header row
    (none when all its cells are blank), row labels when the first column reads as names, and the
    paragraph or heading just above as its title."""
    rows: list[list[str]] = []
    head = 0
    for tok in tokens[start + 1:]:
        if tok.type == "table_close":
            break
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type == "inline" and rows:
            rows[-1].append(_plain(tok.children or []))
        elif tok.type == "thead_close":
            head = len(rows)
    unit = units[-1]
    above = units[-2] if len(units) > 1 else None
    title = title_line(above.text) if above is not None and above.kind in (UnitKind.paragraph, UnitKind.heading) \
        else None
    if not any(any(row) for row in rows[:head]):
        rows, head = rows[head:], 0  # a blank header row: GFM needs one, the table has none
    table = Table.from_cells(rows, unit=unit.index, start=0, end=len(unit.text), title=title, header_rows=head)
    return dataclasses.replace(table, label_columns=int(labels_rows(table.body)))


def _plain(children: list[Any]) -> str:
    """A heading's text without inline markup: emphasis, code ticks, link targets dropped."""
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline", "image"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return " ".join("".join(parts).split())


def _front_matter(lines: list[str]) -> tuple[dict[str, str], int]:
    """YAML front matter's top-level ``key: scalar`` pairs and the first line after it."""
    if not lines or lines[0].rstrip() != _FRONT_OPEN:
        return {}, 0
    for end in range(1, len(lines)):
        if lines[end].rstrip() in _FRONT_CLOSE:
            break
    else:
        return {}, 0  # no closing line: a thematic break, not front matter
    values: dict[str, str] = {}
    for line in lines[1:end]:
        m = _FRONT_KEY.match(line)  # top level only: indented lines belong to nested values
        if m and m.group(2).strip():
            values[m.group(1)] = _scalar(m.group(2))
    return values, end + 1


def _scalar(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        inner = value[1:-1]
        return inner.replace("''", "'") if value[0] == "'" else inner.replace('\\"', '"')
    return re.sub(r"[ \t]+#.*$", "", value)  # trailing YAML comment
