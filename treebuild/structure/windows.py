"""Page windows: the last resort for text with no structure of its own.

A span too long to read whole is cut into windows of at most ``max_pages`` pages and
``max_tokens`` tokens, each cut moved to a paragraph boundary (the start of a text block whose
predecessor ends a sentence) near the page where the limit falls, so no window begins mid-sentence
when it can be helped. Tokens are estimated as characters / 4, which is what the limits need and
costs nothing.
"""

from __future__ import annotations

from ..model import Mark, Origin, Pos, SourceDoc
from .heuristics import HEURISTICS as H

__all__ = ["window_marks", "window_cuts", "span_chars", "estimate_tokens", "CHARS_PER_TOKEN"]

CHARS_PER_TOKEN = 4
_SENTENCE_END = (".", "!", "?", ":", ";", "\u201d", '"', ")")


def estimate_tokens(chars: int) -> int:
    return (chars + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def span_chars(doc: SourceDoc, start: Pos, end: Pos) -> int:
    """Characters in ``[start, end)`` (units joined by one newline), without building the text."""
    if end <= start:
        return 0
    if start.unit == end.unit:
        return end.char - start.char
    total = len(doc.units[start.unit].text) - start.char
    total += sum(len(doc.units[i].text) + 1 for i in range(start.unit + 1, end.unit))
    return total + end.char + 1


def _page(doc: SourceDoc, pos: Pos) -> int:
    unit = doc.units[min(pos.unit, len(doc.units) - 1)]
    return unit.page or pos.unit + 1


def _units_spanned(start: Pos, end: Pos) -> int:
    last = end.unit if end.char > 0 else end.unit - 1
    return max(1, last - start.unit + 1)


def _too_big(doc: SourceDoc, start: Pos, end: Pos, max_pages: int, max_chars: int) -> bool:
    if span_chars(doc, start, end) > max_chars:
        return True
    return doc.paged and _units_spanned(start, end) > max_pages


def _cut_before(doc: SourceDoc, last: int, cur: Pos) -> Pos:
    """Where a window whose last unit is ``last`` should end: at the next unit when ``last`` ends a
    sentence, else at the last block of ``last`` that follows a sentence end, else at the next unit."""
    u = doc.units[last]
    if u.text.rstrip().endswith(_SENTENCE_END) or not doc.paged:
        return Pos(last + 1, 0)
    for char in reversed([b[2] for b in (u.blocks or [])]):
        pos = Pos(last, char)
        if char == 0 or pos <= cur or char < len(u.text) * H.window_min_cut:
            break
        if u.text[:char].rstrip().endswith(_SENTENCE_END):
            return pos
    return Pos(last + 1, 0)


def window_cuts(doc: SourceDoc, start: Pos, end: Pos, *, max_pages: int, max_tokens: int) -> list[Pos]:
    """Start positions of the windows that cover ``[start, end)`` (the first is ``start``)."""
    max_chars = max_tokens * CHARS_PER_TOKEN
    cuts = [start]
    cur = start
    while _too_big(doc, cur, end, max_pages, max_chars):
        last = cur.unit
        chars = len(doc.units[cur.unit].text) - cur.char
        while last + 1 < end.unit:
            if doc.paged and last + 2 - cur.unit > max_pages:
                break
            add = len(doc.units[last + 1].text) + 1
            if chars + add > max_chars:
                break
            chars += add
            last += 1
        cut = _cut_before(doc, last, cur)
        if cut >= end or cut <= cur:
            break
        cuts.append(cut)
        cur = cut
    return cuts


def window_marks(doc: SourceDoc, start: Pos, end: Pos, *, max_pages: int, max_tokens: int, level: int,
                 title: str) -> list[Mark]:
    """Window marks for ``[start, end)``, titled ``"<title> (pages a-b)"`` (``(part n)`` without pages)."""
    cuts = window_cuts(doc, start, end, max_pages=max_pages, max_tokens=max_tokens)
    if len(cuts) < 2:
        return []
    marks: list[Mark] = []
    bounds = cuts + [end]
    for i, cut in enumerate(cuts):
        if doc.paged:
            first = _page(doc, cut)
            stop = bounds[i + 1]
            last_unit = stop.unit if stop.char > 0 else stop.unit - 1
            last = max(first, _page(doc, Pos(max(last_unit, cut.unit), 0)))
            label = f"page {first}" if first == last else f"pages {first}-{last}"
        else:
            label = f"part {i + 1}"
        marks.append(Mark(title=f"{title} ({label})", level=level, pos=cut, origin=Origin.window,
                          confidence=H.window_confidence))
    return marks
