"""Marks from a PDF's embedded outline (bookmarks).

The destination's y decides where on a shared page a section begins: at the first text block
whose bottom lies below the destination point. Text above it that is only page furniture (a
page number, or a running header that repeats on neighbouring pages) does not count, so a
section that starts at the top of a page owns the whole page.
"""

from __future__ import annotations

import re

from ..model import Mark, Pos, SourceDoc, Unit

__all__ = ["outline_marks", "pos_from_y", "Furniture"]

_DIGITS = re.compile(r"\d+")
_PAGE_NO = re.compile(r"^(page\s*)?(#|[ivxlcdm]+)(\s*(of|/)\s*#)?$")
_TOP_LINES = 6  # lines at the top of a page where running headers live


def outline_marks(doc: SourceDoc) -> list[Mark]:
    """One mark per outline entry that points at a page of the document, in outline order."""
    marks: list[Mark] = []
    n = len(doc.units)
    entries = [e for e in doc.outline if 1 <= e.page <= n]  # others point outside this file
    furniture = Furniture(doc)
    positions = [pos_from_y(doc.units[e.page - 1], e.y, furniture) for e in entries]
    # A bookmark that points back before its predecessor but has children (one entry per
    # merged file, all aimed at page 1) starts where its first child starts.
    for i in range(len(entries) - 2, -1, -1):
        if i > 0 and positions[i] < positions[i - 1] and entries[i + 1].level > entries[i].level:
            positions[i] = positions[i + 1]
    for entry, pos in zip(entries, positions, strict=True):
        title = entry.title.strip() or "(untitled)"
        marks.append(Mark(title=title, level=entry.level, pos=pos, origin="outline"))
    return marks


def pos_from_y(unit: Unit, y: float | None, furniture: Furniture | None = None) -> Pos:
    """Character position on a page where content at or below ``y`` starts."""
    if y is None or not unit.blocks:
        return Pos(unit.index, 0)
    below = [b for b in unit.blocks if b[1] > y + 1.0]
    if not below:
        return Pos(unit.index, len(unit.text))
    first = min(below, key=lambda b: (b[0], b[2]))
    lead = unit.text[: first[2]]
    if not lead.strip() or (furniture is not None and furniture.covers(unit.index, lead)):
        return Pos(unit.index, 0)
    return Pos(unit.index, first[2])


def _norm(line: str) -> str:
    return " ".join(line.split()).casefold()


def _shape(line: str) -> tuple[str, int | None]:
    """A line with its last number folded, and that number (a running page number, if any)."""
    matches = list(_DIGITS.finditer(line))
    if not matches:
        return line, None
    last = matches[-1]
    return line[: last.start()] + "#" + line[last.end():], int(last.group())


class Furniture:
    """Running headers: a line at the top of a page is furniture when it also tops a nearby page
    verbatim, or tops two nearby pages with only its number advanced by the pages between."""

    def __init__(self, doc: SourceDoc):
        self._units = doc.units
        self._tops: dict[int, list[str]] = {}

    def _top(self, index: int) -> list[str]:
        if index not in self._tops:
            self._tops[index] = _top_lines(self._units[index])
        return self._tops[index]

    def covers(self, index: int, text: str) -> bool:
        """True when every line of ``text`` (from the top of page ``index``) is furniture."""
        near = [j for j in (index - 2, index - 1, index + 1, index + 2) if 0 <= j < len(self._units)]
        for line in text.splitlines():
            norm = _norm(line)
            if not norm or _PAGE_NO.match(_DIGITS.sub("#", norm)):
                continue
            if any(norm in self._top(j) for j in near):
                continue
            shape, number = _shape(norm)
            if number is None:
                return False
            advanced = sum(
                any((o := _shape(other))[0] == shape and o[1] == number + (j - index) for other in self._top(j))
                for j in near
            )
            if advanced < 2:
                return False
        return True


def _top_lines(unit: Unit) -> list[str]:
    lines: list[str] = []
    for ln in unit.text.splitlines():
        if ln.strip():
            lines.append(_norm(ln))
            if len(lines) == _TOP_LINES:
                break
    return lines
