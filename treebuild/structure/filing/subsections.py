"""Sub-sections inside a filing's Items: which body headings nest under the Parts/Items skeleton,
and in which order of prominence.

The combine policy nests a filing's headings under its skeleton keeping, in each section, the most
prominent heading look found there (and numbered heads). Two rules of the filing decide what that
look is and which sections are read:

- *looks ranked by prominence, one-offs folded in*: a heading look is its size, weight, capitals and
  centring; looks rank by size, then weight, capitals and centring. A look that prints a single
  title in the whole filing (a centred chart title, an Item's only all-capitals acronym ``MCAC SBU``)
  is not a level of the filing's outline: it counts as the look of its size and weight that prints
  several titles. (Ranked by the document-wide style levels, one centred chart title inside Item 1
  used to outrank the sixteen sub-sections of a 50-page Item, which were then dropped.)
- *Management's Discussion and Analysis is always read*: short sections are read whole (their
  run-in heads are noise in a table of contents), but the form makes MD&A the narrative that
  filers divide into sub-sections (overview, results of operations, liquidity, critical estimates),
  whatever its length; a 6-page MD&A of an 80-page 10-K used to keep none of them.
- *heads set larger than the body are read in short sections too*: a short section's bold heads in
  the body's size are paragraph heads, but two or more heads in a larger type, on pages of their
  own, are a printed level of the outline (a 10-K's ``Financial Capital`` ... ``Natural Capital``
  sections of its ``Our Capitals`` chapter, one page each); so are five or more such heads, each
  title once, that walk through a short Item even on one page (Item 5's ``Market Information``,
  ``Holders``, ``Dividends``, ``Recent Sales ...``, ``Purchases ...``).
- *an MD&A section walked through head by head gets a second level*: MD&A's second rank of heads is
  mostly paragraph heads, but five or more heads of one look below a section's own, each title once,
  walk through the section line by line (``Revenue``, ``Cost of Revenue``, ``Operating Expenses`` ...
  under ``Results of Operations``); heads repeated per segment are a repeated layout.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator

from ...model import Line, Mark, Pos, SourceDoc
from ...text.normalize import normalize_title, squash_spaces
from ...text.numbering import parse_numbering
from ..heuristics import HEURISTICS as H
from ..typography.headings import Heading, StyleKey
from .segments import alone, set_apart
from .statements import LIST_LABEL, NOTE_TITLE_WORDS, NOTES_TO, is_note

__all__ = ["ranked_by_look", "always_read", "walked_through", "back_pages", "note_heads", "is_mda"]

_MDA = re.compile(r"management\W{0,3}s\s+discussion\s+and\s+analysis", re.IGNORECASE)
"""MD&A's Item title (Item 7 of a 10-K, Item 2 of a 10-Q); the printed abbreviation counts too."""
_MDA_SHORT = re.compile(r"\bMD\s*&\s*A\b")


def _weight(style: StyleKey) -> tuple[float, bool]:
    return style[0], style[1]


def _prominence(style: StyleKey) -> tuple[float, bool, bool, bool]:
    """Sort key, most prominent first: larger, then bold, capitals, centred."""
    return -style[0], not style[1], not style[2], not style[3]


def ranked_by_look(headings: list[Heading], start: Pos | None) -> list[Heading]:
    """``headings`` from ``start`` on (the skeleton's first entry) with their level set to the rank
    of their look (1 = most prominent); looks that print fewer than ``H.filing_look_titles`` distinct
    titles count as the most common look of their size and weight that prints more, when there is
    one. Headings before ``start`` keep their levels (they do not nest under the skeleton)."""
    if start is None:
        return headings
    inner = [h for h in headings if Pos(h.unit, h.char) >= start]
    margin = Counter(round(h.x0) for h in inner).most_common(1)[0][0] if inner else 0
    styles = {id(h): _set_off(h, margin) for h in inner}
    titles: dict[StyleKey, set[str]] = defaultdict(set)
    for h in inner:
        titles[styles[id(h)]].add(" ".join(h.title.casefold().split()))
    common = {s for s, t in titles.items() if len(t) >= H.filing_look_titles}
    look: dict[StyleKey, StyleKey] = {}
    for s in titles:
        if s in common:
            look[s] = s
            continue
        partners = [c for c in common if _weight(c) == _weight(s)]
        look[s] = max(partners, key=lambda c: (len(titles[c]), _prominence(c))) if partners else s
    order = sorted(set(look.values()), key=_prominence)
    rank = {s: i + 1 for i, s in enumerate(order)}
    return [dataclasses.replace(h, level=rank[look[styles[id(h)]]]) if id(h) in styles else h for h in headings]


def _set_off(h: Heading, margin: int) -> StyleKey:
    """The heading's style, counted as centred when it stands far right of the headings' left margin:
    a title centred on a page whose measure differs a little (``COMPETITION`` 13 points off the
    column's middle) is set like the centred titles around it, not like the flush-left ones."""
    size, bold, caps, centred, family = h.style
    return size, bold, caps, centred or h.x0 - margin > H.filing_set_off, family


def always_read(skeleton: list[Mark], idx: int, heads: list[Heading], body_size: float = 0.0) -> bool:
    """Whether skeleton section ``idx`` gets its sub-sections (``heads``) whatever its length: it is
    MD&A, or a section a printed TOC lists inside MD&A whose heads stand on pages of their own
    (``Capital Resources and Liquidity`` holds ``Long-Term Receivables``, ``Cash Sources and Uses``:
    MD&A's outline runs three or four levels deep and its listed sections are often shorter than the
    page limit). Heads crowded on one page (``Operating Activities`` / ``Investing Activities`` /
    ``Financing Activities`` a few lines apart) are paragraph heads there, noise in a TOC.
    Outside MD&A, a short section keeps heads that are all set larger than the body text
    (``body_size``): a printed level of the filing's outline (Item 5's ``Market Information``,
    ``Dividends``, ``Holders`` in 12 points over 10-point text), where bold heads in the body's own
    size are paragraph heads (``Company Stock Performance`` opening its paragraph). Such heads must
    stand on pages of their own, unless they walk through the section (``_walk``: Item 5's five
    standard heads on its one page; three larger heads on one page stay paragraph heads)."""
    if _mda(skeleton[idx].title):
        return True
    pages = [h.unit for h in heads]
    spread = len(set(pages)) >= H.mda_head_spread * len(pages)
    if _under(skeleton, idx, _mda):
        return spread
    larger = body_size > 0 and bool(heads) and min(h.style[0] for h in heads) >= body_size * H.larger
    return larger and (spread and len(heads) >= H.short_section_heads or _walk(heads))


def _walk(heads: list[Heading], count: int = H.walk_heads) -> bool:
    """Heads that walk through their section one by one: at least ``count``, each title once (the
    same test as ``walked_through`` inside MD&A)."""
    return len(heads) >= count and len({squash_spaces(h.title.casefold()) for h in heads}) == len(heads)


def walked_through(marks: list[Mark], headings: list[Heading]) -> list[Mark]:
    """``marks`` plus a second level of heads inside MD&A: a section of MD&A with no sub-sections
    of its own whose heads, in the most prominent look below the section's own, number at least
    ``H.walk_heads`` (``Consolidated Results of Operations - Other`` walked through line by line:
    ``General and Administrative Expenses``, ``Interest Expense``, ``Interest Income`` ...; a results
    section walked through ``Revenue``, ``Cost of Revenue``, ``Operating Expenses`` ...). Two or three
    such heads are paragraph heads (``Revenue Summary`` / ``Operating Income Summary``)."""
    at = {Pos(h.unit, h.char): h for h in headings}
    order = sorted(marks, key=lambda m: m.pos)
    added: list[Mark] = []
    for i, m in enumerate(order):
        own = at.get(m.pos)
        if own is not None and _under(order, i, _mda):
            added += _divided(order, i, headings, own, lambda h: True, H.walk_heads)
    return sorted(order + added, key=lambda m: m.pos) if added else marks


def _divided(order: list[Mark], idx: int, headings: list[Heading], own: Heading | None,
             keep: Callable[[Heading], bool], count: int) -> list[Mark]:
    """Sub-sections of mark ``idx`` when it has none yet: its unnumbered heads that ``keep`` accepts,
    in the most prominent look below its own heading ``own`` (any look when ``None``), when at least
    ``count`` of them walk through it, each title once."""
    m = order[idx]
    nxt = order[idx + 1] if idx + 1 < len(order) else None
    if nxt is not None and nxt.level > m.level:
        return []
    end = _end(order, idx)
    below = [h for h in headings if m.pos <= Pos(h.unit, h.char) < end and h is not own and h.numbering is None
             and keep(h) and (own is None or _prominence(h.style) > _prominence(own.style))]
    if not below:
        return []
    top = min((h.style for h in below), key=_prominence)
    heads = [h for h in below if h.style == top]
    if not _walk(heads, count):
        return []
    return [Mark(h.title, m.level + 1, Pos(h.unit, h.char), m.origin, m.confidence) for h in heads]


def _end(order: list[Mark], idx: int) -> Pos:
    """Where the text of mark ``idx`` ends: the next mark (any level), or past the document."""
    return order[idx + 1].pos if idx + 1 < len(order) else Pos(1 << 30, 0)


def _under(order: list[Mark], idx: int, section: Callable[[str], bool]) -> bool:
    """Whether mark ``idx`` has a section whose title ``section`` accepts among its ancestors (MD&A,
    ``Notes to ... Financial Statements``)."""
    level = order[idx].level
    for entry in reversed(order[:idx]):
        if entry.level < level:
            if section(entry.title):
                return True
            level = entry.level
    return False


def _mda(title: str) -> bool:
    return bool(_MDA.search(title) or _MDA_SHORT.search(title))


def is_mda(order: list[Mark], idx: int) -> bool:
    """Whether mark ``idx`` is Management's Discussion and Analysis (Item 7, Item 2 of a 10-Q)."""
    return _mda(order[idx].title)


def back_pages(marks: list[Mark], headings: list[Heading], closing: re.Pattern[str]) -> list[Mark]:
    """``marks`` with the annual report's own back pages at the top level: headings after the
    Signatures set larger than the Signatures heading and every heading of the filing before it
    (``Corporate Information`` in the report's display type after a 10-K set in 10-point type) are
    the report's sections, not sub-sections of the Signatures."""
    sig = next((m.pos for m in marks if m.level == 1 and closing.match(m.title.strip())), None)
    if sig is None:
        return marks
    first = marks[0].pos if marks else sig
    body = max((h.style[0] for h in headings if first <= Pos(h.unit, h.char) <= sig), default=0.0)
    back = {Pos(h.unit, h.char) for h in headings if Pos(h.unit, h.char) > sig and body
            and h.style[0] >= body * H.larger}
    return [Mark(m.title, 1, m.pos, m.origin, m.confidence) if m.pos in back else m for m in marks]


def note_heads(doc: SourceDoc, marks: list[Mark], headings: list[Heading], body_size: float,
               furniture: set[tuple[int, int]], *, body_size_heads: bool = False) -> list[Mark]:
    """``marks`` plus the sub-sections of each numbered note of the statements, inside a note with no
    sub-sections of its own:

    - *larger heads*: the heads in the most prominent look below the note's own title that is set
      larger than the body, when at least ``H.note_walk_heads`` of them walk through the note, each
      title once (``Note 2 : Accounting Policies`` in 14 points holding ``Use of Estimates``, ``Revenue
      Recognition``, ``Inventories`` in 12 points over 9-point text); two or three larger heads are a
      note's paragraph heads or table titles;
    - with ``body_size_heads`` (``BuildSettings.note_subheadings``, opt-in: the authors' outlines that
      the structure benchmark scores against mostly omit these heads), *heads in a look the filing walks
      its notes through* (``_body_size_heads``), in the notes the first rule left without sub-sections:
      lines of their own set apart by weight, slant, capitals or size, at the body size too (``Revenue
      Recognition`` in bold italics, ``Use of Estimates`` in italics over 10-point roman text), in a look
      that walks through at least one note of the filing (``H.note_walk_heads`` heads, each title once);
      in the other notes two or more heads of that look are their sub-sections (one alone is a lead-in;
      ``Income Tax Provision``, ``Deferred and Current Income Taxes``, ``Uncertain Tax Positions`` in the
      12 points that walk through the policies note). A bold line at the body size is as often a table's
      caption or a paragraph's lead-in: the filing's own use of the look over a whole note is what makes
      it a level of the notes' outline."""
    if body_size <= 0:
        return marks
    order = sorted(marks, key=lambda m: m.pos)
    added: list[Mark] = []
    notes: dict[int, bool] = {}  # each note: whether it is left without sub-sections
    for i, m in enumerate(order):
        if not _note(order, i):
            continue
        key, end = normalize_title(m.title), _end(order, i)  # the note's mark may be snapped to its page top
        own = next((h for h in headings if m.pos <= Pos(h.unit, h.char) < end and normalize_title(h.title) == key),
                   None)
        found = _divided(order, i, headings, own,
                         lambda h: not h.run_in and h.style[0] >= body_size * H.larger, H.note_walk_heads)
        added += found
        notes[i] = not found
    if body_size_heads:
        added += _body_size_heads(doc, order, notes, body_size, furniture)
    return sorted(order + added, key=lambda m: m.pos) if added else marks


def _note(order: list[Mark], idx: int) -> bool:
    """Whether mark ``idx`` is a numbered note of the statements: ``Note 4`` in so many words wherever it
    sits (a filing whose ``Notes to ...`` title is only a running header nests its notes under the last
    statement), or a numbered section under a ``Notes to ... Financial Statements`` section (a contents'
    list label before it: ``f) Notes to Financial Statements``)."""
    title = order[idx].title
    if not is_note(title):
        return False
    n = parse_numbering(title)
    return (n is not None and n.kind == "note") or _under(order, idx, _notes_to)


def _notes_to(title: str) -> bool:
    return bool(NOTES_TO.match(LIST_LABEL.sub("", title)))


Look = tuple[float, bool, bool, bool]
"""A body-size head's look: (size, bold, italic, all capitals)."""


def _body_size_heads(doc: SourceDoc, order: list[Mark], notes: dict[int, bool], body_size: float,
                     furniture: set[tuple[int, int]]) -> list[Mark]:
    """Sub-sections of the notes (``notes``: index into ``order``, whether the note has no sub-sections
    yet) from the heads set apart at the body size or above it (see ``note_heads``): the looks that walk
    through a note are learnt from every note, heads are added to the notes that have none."""
    starts = {m.pos for m in order}
    per_note: dict[int, dict[Look, list[tuple[Pos, str]]]] = {}
    for i in notes:
        nxt = order[i + 1] if i + 1 < len(order) else None
        if nxt is not None and nxt.level > order[i].level:
            continue
        looks: dict[Look, list[tuple[Pos, str]]] = defaultdict(list)
        for pos, title, line in _note_lines(doc, order[i].pos, _end(order, i), furniture, body_size, starts):
            looks[_look(line)].append((pos, title))
        per_note[i] = {lk: heads for lk, heads in looks.items() if _once(heads)}
    walked = {lk for looks in per_note.values() for lk, heads in looks.items() if len(heads) >= H.note_walk_heads}
    out: list[Mark] = []
    for i, looks in per_note.items():
        mine = [lk for lk in looks if lk in walked and len(looks[lk]) >= H.note_section_heads]
        if not mine or not notes[i]:
            continue
        best = max(mine, key=lambda lk: (lk[0], lk[1], lk[3], lk[2], len(looks[lk])))  # size, bold, caps, italics
        m = order[i]
        out += [Mark(t, m.level + 1, pos, m.origin, m.confidence) for pos, t in looks[best]]
    return out


def _look(line: Line) -> Look:
    t = line.text.strip()
    return round(line.size, 1), line.bold, line.italic, t.upper() == t and any(c.isalpha() for c in t)


def _once(heads: list[tuple[Pos, str]]) -> bool:
    """Each title once in the note (a table's caption printed over each of its tables is not a head)."""
    titles = [squash_spaces(t.casefold()) for _, t in heads]
    return len(set(titles)) == len(titles)


def _note_lines(doc: SourceDoc, start: Pos, end: Pos, furniture: set[tuple[int, int]], body_size: float,
                starts: set[Pos]) -> Iterator[tuple[Pos, str, Line]]:
    """Lines of a note (``(start, end)``) that may be a sub-heading: alone on their baseline, set apart
    (``segments.set_apart``: bold, italic, capitals or larger), not smaller than the body (a footnote or a
    table's header row is), outside the tables, at most
    ``H.note_head_indent`` right of the note's text margin (a table's column header stands further right), a
    title and not a sentence (``_titled``)."""
    spans = {u: [(t.start, t.end) for t in doc.tables_in(u)] for u in range(start.unit, min(end.unit + 1,
                                                                                              len(doc.units)))}
    margin: float | None = None
    for u in spans:
        lines = doc.lines(u)
        if margin is None:
            margin = min((ln.x0 for j, ln in enumerate(lines) if (u, j) not in furniture
                          and start <= Pos(u, ln.char) < end and squash_spaces(ln.text)), default=None)
        for j, ln in enumerate(lines):
            pos = Pos(u, ln.char)
            if not (start < pos < end) or (u, j) in furniture or pos in starts:
                continue
            title = squash_spaces(ln.text).strip(" :")
            if not title[:1].isupper() and not title[:1].isdigit() or len(title.split()) > NOTE_TITLE_WORDS:
                continue
            if ln.size < body_size - H.same_size or not set_apart(ln, body_size) or not alone(ln, lines):
                continue
            if margin is not None and ln.x0 > margin + H.note_head_indent or not _titled(title) \
                    or any(a <= ln.char < b for a, b in spans[u]) or not _text_follows(ln, lines, j, furniture, u):
                continue
            yield pos, title, ln


def _text_follows(line: Line, lines: list[Line], j: int, furniture: set[tuple[int, int]], unit: int) -> bool:
    """The line under the head opens its text, not a table: it is no row with cells beside it (``Assets``
    over ``Mutual funds  $ 897 ...``: a table's row-group label), nor a line in the head's own look (a
    caption or a column header wrapped over two lines, ``In Millions, Except Per`` / ``Share Amounts``).
    A head on its page's last line is followed by the next page's text."""
    nxt = next((ln for k, ln in enumerate(lines[j + 1:], j + 1) if (unit, k) not in furniture
                and squash_spaces(ln.text)), None)
    return nxt is None or (alone(nxt, lines) and _look(nxt) != _look(line))


def _titled(title: str) -> bool:
    """A title, not a sentence: at least half its words of four letters or more capitalised (``See Note 5
    for further information regarding the fair value of our financial instruments.`` in italics is a
    sentence)."""
    words = [w for w in title.split() if sum(c.isalpha() for c in w) >= 4]
    return bool(words) and 2 * sum(1 for w in words if w.lstrip("(“\"'")[:1].isupper()) >= len(words)
