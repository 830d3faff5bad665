"""Page windows: the last resort for text with no structure of its own.

A span too long to read whole is cut into windows of at most ``max_pages`` pages and
``max_tokens`` tokens, each cut moved to a paragraph boundary (the start of a text block whose
predecessor ends a sentence) near the page where the limit falls, so no window begins mid-sentence
when it can be helped. Tokens are estimated as characters / 4, which is what the limits need and
costs nothing.

A window is named by what is on its pages (:func:`content_namer`): the first line there set apart as
a title (``typography.title_lines``), else the first table's title; only when neither exists is it
``"<section>"`` (the first window, which opens the section) or ``"<section> (continued)"``. A page
range says nothing a navigator can choose by, and the node's pages are recorded anyway.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import Mark, Origin, Pos, SourceDoc
from ..text.furniture import furniture
from .heuristics import HEURISTICS as H
from .layout import Layout
from .typography.rows import measure_body
from .typography.title_lines import TITLE_LINE_WORDS, first_title_line

__all__ = ["window_marks", "window_cuts", "span_chars", "estimate_tokens", "CHARS_PER_TOKEN", "WindowNamer",
           "content_namer", "first_table_title", "CONTINUED_SUFFIX"]

WindowNamer = Callable[[Pos, Pos], str | None]
"""Names the window ``[start, end)`` by its content, or ``None`` when nothing on its pages names it."""
CONTINUED_SUFFIX = " (continued)"
BODY_SAMPLE_PAGES = 16
"""Without the structure stage's scan (an outline gave the sections), the text's type is measured on
about this many pages spread over the document: enough to find its prose, where laying out every page
would cost more than the rest of the build (a window's pages alone may be all code listings)."""

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
                 title: str, namer: WindowNamer | None = None) -> list[Mark]:
    """Window marks for ``[start, end)``, each named by ``namer`` (its content), else ``title`` for the
    first and ``"<title> (continued)"`` for the others."""
    cuts = window_cuts(doc, start, end, max_pages=max_pages, max_tokens=max_tokens)
    if len(cuts) < 2:
        return []
    marks: list[Mark] = []
    bounds = cuts + [end]
    for i, cut in enumerate(cuts):
        named = namer(cut, bounds[i + 1]) if namer is not None else None
        name = named or (title if i == 0 else f"{title}{CONTINUED_SUFFIX}")
        marks.append(Mark(title=name, level=level, pos=cut, origin=Origin.window, confidence=H.window_confidence))
    return marks


def _column_heads(doc: SourceDoc, unit: int, title: str) -> bool:
    """``title`` is the table's column headings read as one line (``Name  Page  Explanation``): pieces of
    it stand side by side on its page, further apart than a word space."""
    padded = f" {title} "
    pieces = [ln for ln in doc.lines(unit) if (text := " ".join(ln.text.split())) and f" {text} " in padded]
    return any(abs(a.y0 - b.y0) < H.same_baseline * a.size and b.x0 - a.x1 > H.cell_gap * a.size
               for a in pieces for b in pieces if a is not b)


def first_table_title(doc: SourceDoc, start: Pos, end: Pos) -> tuple[Pos, str] | None:
    """The first table in ``[start, end)`` whose title is worded as one (not a lead-in sentence ending in a
    colon, not too long, not its column headings), and where the table starts."""
    for t in doc.tables:
        pos = Pos(t.unit, t.start)
        if pos >= end:
            break
        title = " ".join((t.title or "").split())
        if pos < start or not title or title.endswith(":") or len(title.split()) > TITLE_LINE_WORDS \
                or sum(c.isalpha() for c in title) < len(title) // 2 \
                or (doc.paged and _column_heads(doc, t.unit, title)):
            continue
        return pos, title.rstrip(" .")
    return None


def content_namer(doc: SourceDoc, layout: Layout, exclude: str = "") -> WindowNamer:
    """Windows of ``doc`` named by their first title line (paged documents; ``exclude``: the section's
    own title, printed where its first window starts) or, when no such line comes before it, their
    first table's title. The text's type is the whole document's (the structure stage's scan when it
    ran, else :data:`BODY_SAMPLE_PAGES` pages): a window of code listings measured alone would make its
    prose look larger than the text."""
    body: list[tuple[float, bool]] = []

    def text_type() -> tuple[float, bool]:
        if not body:
            if layout.scanned:
                scan = layout.scan()
                body.append((scan.body_size, scan.body_bold))
            else:
                n = len(doc.units)
                step = max(1, n // BODY_SAMPLE_PAGES)
                measured = measure_body(doc, range(0, n, step), set())
                body.append((measured.size, measured.bold))
        return body[0]

    def name(start: Pos, end: Pos) -> str | None:
        line = None
        if doc.paged:
            last = end.unit if end.char > 0 else end.unit - 1
            furn = layout.scan().furniture if layout.scanned else \
                furniture(doc, range(start.unit, max(start.unit, last) + 1))[0]
            size, bold = text_type()
            line = first_title_line(doc, start, end, body_size=size, body_bold=bold, furniture=furn, exclude=exclude)
        table = first_table_title(doc, start, end)
        if line is not None and (table is None or line[0] <= table[0]):
            return line[1]
        return table[1] if table is not None else None

    return name
