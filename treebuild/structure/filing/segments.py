"""Segment and geographic results in MD&A as sections named by their segment.

A filing discusses each reportable segment under a head of its own inside MD&A (``Digital Media``,
``Americas``, ``Intelligent Cloud``, ``FEDEX EXPRESS SEGMENT``), often set in a type the heading scan
reads as a phrase (italic at the body size, bold in the body's size among paragraph heads), and often
printed twice (an overview, then the results). The names are learned from the document itself, never
from a list of companies' segments:

- *the filing names its segments*: a name is a segment when the document prints it before the word
  ``segment`` (``Our Digital Media segment provides ...``, ``the North America Retail segment``), or
  lists it in a sentence about its segments (``We have the following reportable segments: Digital
  Media, Digital Experience, and Publishing and Advertising.``, ``The Company's reportable segments
  consist of the Americas, Europe, Greater China, Japan and Rest of Asia Pacific.``), or the head
  itself says ``Segment`` (``FEDEX EXPRESS SEGMENT``);
- *a head, not a row or a sentence*: the line is a line of its own inside MD&A (no other text on its
  baseline: a segment table's row label is not a head), short, not a sentence, and set apart from
  the text (bold, italic, larger than the body, or in capitals).

Each such head starts a section one level below the deepest section that holds it, when no section
starts on its line already.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ...model import Line, Mark, Origin, Pos, SourceDoc
from ...text.normalize import normalize_title, squash_spaces
from ..heuristics import HEURISTICS as H
from ..typography.headings import HEADING_CONFIDENCE, Heading

__all__ = ["segment_names", "segment_heads", "set_apart", "alone"]

SEGMENT_HEAD_WORDS = 8
"""A segment's head is a name: at most this many words (``Hemlock and Emerging Growth Businesses``)."""
LEAF_PAGES = 10
"""A section of more pages than this with no sub-sections is divided at all its headings by the build
(``BuildSettings.max_node_pages``' default): its segments come with its other headings."""
LIST_CHARS = 250
"""A sentence listing the segments names them within this many characters after ``segments``."""
_SEGMENTS_WORD = re.compile(r" segments?\b")
_NAMED_BEFORE = ("segment", "reportable segment", "operating segment", "business segment")
_NAMED_AFTER = ("the", "our", "its", "their", "each", "and")
"""``Our Digital Media segment``, ``the North America Retail segment``: a name between a determiner and
``segment`` (a table's row label glued to the next heading, ``Revenue Segment Information``, is not)."""
_LIST_OPENS = {":", "are", "include", "includes", "consist", "comprise", "—", "-", "(", "•", "●", "▪"}
"""A list of the segments opens right after ``segments``: ``reportable segments: ...``, ``segments
consist of the Americas, Europe ...``."""
_LIST_END = re.compile(r" (?:\.|[$\d][\d,.]*) ")
_LIST_BEFORE = {":", ",", ";", "•", "●", "▪", "and", "the", "are", "include", "includes"}
_LIST_AFTER = {"", ",", ";", ".", "and", "or", "(", ")"}


def _key(text: str) -> str:
    """Case-folded words with each mark of punctuation a token of its own (list separators kept)."""
    t = text.replace("\u2019", "'").replace("&", " and ").casefold()
    return " ".join(re.sub(r"([^\w\s'-])", r" \1 ", t).split())


def segment_names(doc: SourceDoc) -> Callable[[str], bool]:
    """A test of whether a head's title names one of the document's segments (see the module doc)."""
    key_text = f" {_key(' '.join(squash_spaces(u.text) for u in doc.units))} "
    windows = [w for m in _SEGMENTS_WORD.finditer(key_text) if (w := _window(key_text, m.end())).split()[:1]
               and w.split()[0] in _LIST_OPENS]

    def names(title: str) -> bool:
        k = _key(title)
        if not k or not title[:1].isupper():
            return False
        if re.search(r"\b(?:segment|sbu)$", k):
            return True
        if any(f" {d} {k} {w} " in key_text for d in _NAMED_AFTER for w in _NAMED_BEFORE):
            return True
        for s in windows:  # listed after the word "segments", between list separators
            i = s.find(f" {k} ")
            while i >= 0:
                if _listed(s[:i].split()[-1:], s[i + len(k) + 2:].split()[:1]):
                    return True
                i = s.find(f" {k} ", i + 1)
        return False

    return names


def _window(key_text: str, at: int) -> str:
    """The words after ``segments`` up to the sentence's end or the first figure (a table's row), at
    most ``LIST_CHARS`` characters: where a list of the segments' names is printed."""
    s = key_text[at:at + LIST_CHARS]
    cut = _LIST_END.search(s)
    return f" {s[:cut.start()] if cut else s} "


def _listed(prev: list[str], nxt: list[str]) -> bool:
    """Whether the words around a name are a list's: after a colon, a comma, a bullet, ``and`` or
    ``the``, ``are``, ``of``, ``include``; before a comma, a semicolon, ``and``/``or`` or the end."""
    return (prev[0] if prev else "") in _LIST_BEFORE and (nxt[0] if nxt else "") in _LIST_AFTER


def set_apart(line: Line, body_size: float) -> bool:
    """Set apart from the text: bold, italic, larger than the body, or in capitals."""
    t = line.text.strip()
    caps = t.upper() == t and any(c.isalpha() for c in t)
    return line.bold or line.italic or line.size >= body_size * H.larger or caps


def alone(line: Line, lines: list[Line]) -> bool:
    """No other text on the line's baseline (a table's row label has its figures beside it)."""
    mid = (line.y0 + line.y1) / 2
    return not any(o is not line and o.text.strip() and o.y0 <= mid <= o.y1 and (o.x0 >= line.x1 or o.x1 <= line.x0)
                   for o in lines)


def segment_heads(doc: SourceDoc, marks: list[Mark], headings: list[Heading],
                  inside: Callable[[list[Mark], int], bool], furniture: set[tuple[int, int]],
                  body_size: float, within: Callable[[Pos, Pos], list[Mark]] | None = None) -> list[Mark]:
    """``marks`` plus a section for each segment's head inside the sections ``inside`` accepts (MD&A),
    and the heads that close the last segment's section (``_closing``), or, in a long section that had
    no sub-sections, all its headings (``within``: ``_divided_leaf``)."""
    if body_size <= 0 or not marks:
        return marks
    order = sorted(marks, key=lambda m: m.pos)
    spans = [(i, order[i].pos, _end(order, i)) for i in range(len(order)) if inside(order, i)]
    if not spans:
        return marks
    names: Callable[[str], bool] | None = None
    starts = {m.pos for m in order}
    added: list[Mark] = []
    looks: dict[Pos, Line] = {}
    for _, start, end in _outermost(spans):
        for pos, title, ln in _heads(doc, start, end, furniture, body_size, starts):
            names = names or segment_names(doc)
            if names(title):
                added.append(Mark(title, _level(order, pos, start, names), pos, Origin.heading, HEADING_CONFIDENCE))
                looks[pos] = ln
    if not added:
        return marks
    extra = _divided_leaf(order, added, within) if within is not None else []
    return sorted(order + added + extra + _closing(order, added + extra, looks, headings), key=lambda m: m.pos)


def _divided_leaf(order: list[Mark], added: list[Mark], within: Callable[[Pos, Pos], list[Mark]]) -> list[Mark]:
    """The headings of a section longer than ``LEAF_PAGES`` that held no sub-section before its
    segments were found, at the segments' level: such a section is divided at every heading inside it
    when the tree is built (``subdivide``), and its segments' sections would stop that (MD&A's
    ``Overview`` and ``Consolidated Results of Operations`` before the first segment used to be lost)."""
    out: list[Mark] = []
    starts = {m.pos for m in order} | {m.pos for m in added}
    for i, parent in enumerate(order):
        end = _end(order, i)
        mine = [m for m in added if parent.pos < m.pos < end]
        if not mine or any(parent.pos < m.pos < end for m in order[i + 1:i + 2]) \
                or end.unit - parent.pos.unit <= LEAF_PAGES:
            continue
        key = normalize_title(parent.title)
        for h in within(parent.pos, end):
            if h.pos not in starts and normalize_title(h.title) != key:
                out.append(Mark(h.title, mine[0].level, h.pos, h.origin, h.confidence))
                starts.add(h.pos)
    return out


def _heads(doc: SourceDoc, start: Pos, end: Pos, furniture: set[tuple[int, int]], body_size: float,
           starts: set[Pos]) -> Iterator[tuple[Pos, str, Line]]:
    """Lines of ``(start, end)`` that may be a segment's head: short, opening with a letter, set apart
    from the text (``set_apart``), alone on their baseline (``alone``), no section starting there."""
    for u in range(start.unit, min(end.unit + 1, len(doc.units))):
        lines = doc.lines(u)
        for j, ln in enumerate(lines):
            pos = Pos(u, ln.char)
            title = squash_spaces(ln.text).strip(" :.")
            if not (start < pos < end) or (u, j) in furniture or not title[:1].isalpha() \
                    or len(title.split()) > SEGMENT_HEAD_WORDS:
                continue
            if set_apart(ln, body_size) and alone(ln, lines) \
                    and not any(p.unit == u and ln.char <= p.char < ln.char + max(1, len(ln.text)) for p in starts):
                yield pos, title, ln


def _level(order: list[Mark], pos: Pos, start: Pos, names: Callable[[str], bool]) -> int:
    """A segment's level: that of the segment before it that is a section already (``FEDEX SERVICES
    SEGMENT`` found as a heading, ``FEDEX EXPRESS SEGMENT`` in italics after it), else one below the
    deepest section that holds it."""
    before = [m for m in order if start < m.pos < pos and names(m.title)]
    if before:
        return before[-1].level
    parent = _deepest(order, pos)
    return (parent.level if parent else 0) + 1


def _closing(order: list[Mark], added: list[Mark], looks: dict[Pos, Line], headings: list[Heading]) -> list[Mark]:
    """The head that ends the last segment's section when nothing else would before its parent's end:
    the first heading after it, inside the same parent, set at least as prominently, that is neither
    the segment's own (its name inside: ``FedEx Express Segment Revenue``) nor printed in the segments
    before it (``Results of Operations`` under each segment), a section at the segments' level
    (``Financial Position`` after ``Boeing Capital``). Without it the last segment's section would run
    on to its parent's end (``Liquidity``, ``Critical Accounting Estimates``)."""
    everything = sorted(order + added, key=lambda m: m.pos)
    starts = {m.pos for m in everything}
    out: list[Mark] = []
    for i, m in enumerate(everything):
        if m.pos not in looks:
            continue
        end = _end(everything, i)
        nxt = everything[i + 1] if i + 1 < len(everything) else None
        if nxt is not None and nxt.pos == end and nxt.level == m.level:
            continue  # a sibling ends it
        parent_end = next((e.pos for e in everything[i + 1:] if e.level < m.level), Pos(1 << 30, 0))
        if end < parent_end:
            continue
        segs = [s for s in everything[:i + 1] if s.level == m.level and s.pos in looks]
        inner = {normalize_title(h.title) for h in headings if segs[0].pos < Pos(h.unit, h.char) < m.pos}
        look, name = looks[m.pos], normalize_title(m.title)
        close = next((h for h in headings if m.pos < Pos(h.unit, h.char) < parent_end
                      and Pos(h.unit, h.char) not in starts and h.numbering is None and not h.run_in
                      and h.style[0] >= look.size - H.same_size and (h.style[1] or not look.bold)
                      and normalize_title(h.title) not in inner and name not in normalize_title(h.title)), None)
        if close is not None:
            out.append(Mark(close.title, m.level, Pos(close.unit, close.char), Origin.heading, HEADING_CONFIDENCE))
    return out


def _end(order: list[Mark], idx: int) -> Pos:
    level = order[idx].level
    return next((m.pos for m in order[idx + 1:] if m.level <= level), Pos(1 << 30, 0))


def _outermost(spans: list[tuple[int, Pos, Pos]]) -> list[tuple[int, Pos, Pos]]:
    out: list[tuple[int, Pos, Pos]] = []
    for s in spans:
        if not any(o[1] <= s[1] and s[2] <= o[2] for o in out):
            out.append(s)
    return out


def _deepest(order: list[Mark], pos: Pos) -> Mark | None:
    """The deepest mark whose section holds ``pos``."""
    best: Mark | None = None
    for i, m in enumerate(order):
        if m.pos >= pos:
            break
        if pos < _end(order, i) and (best is None or m.level >= best.level):
            best = m
    return best
