"""Markdown reader: blocks separated by blank lines, with ATX and Setext headings.

A line scanner rather than a full CommonMark parser: the tree needs headings, and those are
decided by a few block rules (fenced code hides ``#`` lines, a ``---`` under a paragraph is a
heading but under a list item or a blank line is a rule). Inline markup is kept as written,
so a node's text is the author's source.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ReadError
from ..model import SourceDoc, Unit
from .common import file_digest

__all__ = ["MarkdownReader", "parse_markdown", "decode_text"]

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+$")
_FENCE_OPEN = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)$")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_THEMATIC = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_LIST_ITEM = re.compile(r" {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_BLOCKQUOTE = re.compile(r" {0,3}>")
_TABLE_DELIM = re.compile(r" {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_HTML_COMMENT = re.compile(r" {0,3}<!--")
_FRONT_OPEN = "---"
_FRONT_CLOSE = ("---", "...")
_FRONT_KEY = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$")


class MarkdownReader:
    """Reads ``.md``/``.markdown`` files into paragraph, heading, table and code units."""

    suffixes = (".md", ".markdown")
    format = "markdown"

    def read(self, path: Path) -> SourceDoc:
        try:
            sha, size = file_digest(path)
            raw = path.read_bytes()
        except OSError as exc:
            raise ReadError(f"cannot read file: {exc.strerror or exc}", path=str(path),
                            hint="check that the file exists and is readable") from exc
        units, front = parse_markdown(decode_text(raw))
        title = front.pop("title", None) or None
        metadata = dict(front)
        if title:
            metadata["title"] = title
        return SourceDoc(path=str(path), format="markdown", units=units, sha256=sha, size=size,
                         title=title, metadata=metadata, page_count=None)


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


@dataclass
class _Builder:
    units: list[Unit] = field(default_factory=list)
    para: list[str] = field(default_factory=list)

    def add(self, kind: str, text: str, level: int | None = None, style: str | None = None) -> None:
        self.units.append(Unit(index=len(self.units), kind=kind, text=text, heading_level=level, style=style))

    def flush(self) -> None:
        """End the open paragraph block, if any."""
        if self.para:
            kind = "table" if len(self.para) > 1 and _TABLE_DELIM.match(self.para[1]) and "|" in self.para[0] \
                else "paragraph"
            self.add(kind, "\n".join(self.para))
            self.para = []


def parse_markdown(text: str) -> tuple[list[Unit], dict[str, str]]:
    """Units in document order and the front matter's top-level scalar keys."""
    lines = re.split(r"\r\n|\r|\n", text)
    front, start = _front_matter(lines)
    b = _Builder()
    i, n = start, len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            b.flush()
            i += 1
            continue
        fence = _FENCE_OPEN.match(line)
        if fence and not (fence.group(2)[0] == "`" and "`" in fence.group(3)):
            b.flush()
            end = _fence_end(lines, i + 1, fence.group(2))
            info = fence.group(3).strip().split()
            b.add("code", "\n".join(lines[i:end + 1]).rstrip("\n"), style=info[0] if info else None)
            i = end + 1
            continue
        atx = _ATX.match(line)
        if atx:
            b.flush()
            title = _ATX_CLOSE.sub("", (atx.group(2) or "").strip()).strip()
            if title:
                b.add("heading", title, len(atx.group(1)))
            i += 1
            continue
        setext = _SETEXT.match(line)
        if setext and b.para and _setext_ok(b.para):
            title = " ".join(s.strip() for s in b.para)
            b.para = []
            b.add("heading", title, 1 if setext.group(1)[0] == "=" else 2)
            i += 1
            continue
        if _THEMATIC.match(line):  # a rule separates blocks and carries no text
            b.flush()
            i += 1
            continue
        if _HTML_COMMENT.match(line) and not b.para:
            end = i
            while end < n and "-->" not in lines[end]:
                end += 1
            end = min(end, n - 1)
            b.add("paragraph", "\n".join(lines[i:end + 1]), style="html")
            i = end + 1
            continue
        b.para.append(line)
        i += 1
    b.flush()
    return b.units, front


def _fence_end(lines: list[str], i: int, opener: str) -> int:
    """Index of the closing fence line (same character, at least as long), or the last line."""
    close = re.compile(r" {0,3}" + re.escape(opener[0]) + "{" + str(len(opener)) + r",}[ \t]*$")
    while i < len(lines):
        if close.match(lines[i]):
            return i
        i += 1
    return len(lines) - 1


def _setext_ok(para: list[str]) -> bool:
    """A Setext underline makes a heading of plain paragraph text only."""
    first = para[0]
    if len(first) - len(first.lstrip(" ")) >= 4:
        return False  # indented code
    return not any(_LIST_ITEM.match(s) or _BLOCKQUOTE.match(s) for s in para)


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
