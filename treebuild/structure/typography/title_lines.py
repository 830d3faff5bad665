"""The first line of a span that reads as a title, for naming sections the heading scan left nameless.

Page windows cut where a section has no finer headings; a window's name must still say what is on
its pages. The first line there set apart from the text (bold where the text is not, or larger),
starting its block, worded as a title or a caption sentence (a risk factor's ``Adverse economic
conditions may harm our business.``), neither a table's cell nor a row with text beside it (a
table's header, a contents entry: ``filters.text_beside``), names it; its wrapped rows in the same
type are joined. So does a run-in head in capitals opening a paragraph, a dash after it
(``PRINCIPLES OF CONSOLIDATION — The consolidated financial statements ...``, as notes set their
policies). Looser than a heading (a caption sentence or a run-in head qualifies), it never becomes a
section start itself.
"""

from __future__ import annotations

import re

from ...model import Pos, SourceDoc
from ...text.normalize import normalize_title
from ...text.numbering import strip_numbering
from ..heuristics import HEURISTICS as H
from .filters import code_like, text_beside
from .model import Row
from .rows import all_caps, join_rows, same_style, wraps

__all__ = ["first_title_line", "TITLE_LINE_WORDS", "TITLE_LINE_ROWS"]

TITLE_LINE_WORDS = 30
"""At most this many words: a caption sentence (a risk factor's, two or three rows) names its pages; a
longer bold run is a paragraph set in bold."""
TITLE_LINE_ROWS = 3
"""At most this many wrapped rows are joined into one title line."""
_MIN_LETTERS = 3
"""A title line has this many letters at least (``▪``, ``(1)``, ``$ 12`` name nothing)."""
_LETTER_SHARE = 0.6
"""... and letters make up this share of its characters at least (not a row of figures)."""
_SENTENCE_END = (".", "!", "?")


_CAPS_LEAD = re.compile(r"^(?P<head>[^a-z\u2014\u2013]{4,80}?)\s+[\u2014\u2013-]\s+\S")
"""A paragraph's first words in capitals, then a dash and the text running on."""


def _caps_lead(row: Row) -> str | None:
    m = _CAPS_LEAD.match(row.text.strip())
    if m is None or not all_caps(m.group("head")) or len(m.group("head").split()) < 2:
        return None
    return m.group("head")


def _key(title: str) -> str:
    return normalize_title(strip_numbering(title))


def _stands_out(row: Row, body_size: float, body_bold: bool) -> bool:
    """Bold where the text is not, or larger, and never smaller than the text (a table's bold header
    cells and footnotes are set smaller); code lines aside."""
    if row.mono or row.size < body_size - H.same_size:
        return False
    return row.size >= body_size * H.larger or (row.bold and not body_bold)


def _worded(text: str) -> bool:
    letters = sum(c.isalpha() for c in text)
    chars = sum(not c.isspace() for c in text)
    return letters >= _MIN_LETTERS and letters >= _LETTER_SHARE * chars and not code_like(text) \
        and len(text.split()) <= TITLE_LINE_WORDS


def _in_table(row: Row, boxes: list[tuple[float, float, float, float]]) -> bool:
    mid_x, mid_y = (row.x0 + row.x1) / 2.0, (row.y0 + row.y1) / 2.0
    return any(x0 <= mid_x <= x1 and y0 <= mid_y <= y1 for x0, y0, x1, y1 in boxes)


def _joined(rows: list[Row], i: int) -> str:
    """Row ``i`` with the rows under it in its type that wrap it (``rows.wraps``, the heading scan's rule)."""
    first = rows[i]
    parts = [first.text]
    for k in range(i + 1, min(len(rows), i + TITLE_LINE_ROWS)):
        prev, row = rows[k - 1], rows[k]
        if parts[-1].rstrip().endswith(_SENTENCE_END) or not wraps(first, prev, row):
            break
        parts.append(row.text)
    return " ".join(" ".join(parts).split())


def first_title_line(doc: SourceDoc, start: Pos, end: Pos, *, body_size: float, body_bold: bool,
                     furniture: set[tuple[int, int]], exclude: str = "") -> tuple[Pos, str] | None:
    """The first title line in ``[start, end)`` of a paged document and where it starts: its text with
    wrapped rows joined, a closing stop dropped; ``exclude`` is a title not to name it by (the section's
    own, printed where the span starts)."""
    skip_key = _key(exclude) if exclude else ""
    last = end.unit if end.char > 0 else end.unit - 1
    tables: dict[int, list[tuple[float, float, float, float]]] = {}
    for t in doc.tables:
        if start.unit <= t.unit <= last and t.bbox is not None:
            tables.setdefault(t.unit, []).append(t.bbox)
    for u in range(start.unit, min(last, len(doc.units) - 1) + 1):
        lines = doc.lines(u)
        skip = {j for j in range(len(lines)) if (u, j) in furniture}
        rows = join_rows(lines, skip)
        for i, row in enumerate(rows):
            pos = Pos(u, row.char)
            if pos < start or pos >= end or row.mono or _in_table(row, tables.get(u, [])) \
                    or text_beside([row], lines, skip):
                continue
            prev = rows[i - 1] if i else None
            opens = prev is None or prev.block != row.block or prev.text.rstrip().endswith(_SENTENCE_END)
            if _stands_out(row, body_size, body_bold):
                if not opens and same_style(prev, row):  # type: ignore[arg-type]
                    continue  # the middle of a bold paragraph, not its start
                text = _joined(rows, i)
            elif opens and (lead := _caps_lead(row)) is not None:
                text = lead
            else:
                continue
            if not _worded(text) or (skip_key and _key(text).startswith(skip_key)):
                continue
            return pos, text.rstrip(" .:")
    return None
