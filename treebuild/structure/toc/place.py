"""Place TOC entries on the pages they name, and only where their heading is really there.

Each entry is looked for as a heading line on its expected page, then on the pages around it
(the printed reference or our mapping can be off by a page or two). A heading is a line (or
two or three consecutive lines) whose normalised text is the entry's title; a numbered entry
may also be found by its number on a line of its own with the title words on the page (margin
headings); otherwise the closest fuzzy line above a threshold, with lower confidence. Pages
are first checked with a substring test on their normalised text, so typographic lines are
computed only for pages that can match. Entries are placed in order: each must start after
the previous one, and the TOC pages never count.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz

from ...model import Line, Pos, SourceDoc
from ...text.normalize import normalize_title
from ...text.numbering import FOREIGN_LABEL_WORDS, LABEL_KEYWORDS, LONE_LABEL_WORDS, NUMBER_WORDS, keyword_alternation
from ...text.patterns import roman_value
from ..heuristics import HEURISTICS as H
from .detect import toc_keyword
from .pagemap import PageMap
from .parse import TocEntry

__all__ = ["Placement", "PageTexts", "place_entries"]

_WINDOW = (0, 1, -1, 2, -2, 3, -3)
"""Pages tried for an entry, by their distance from the page its reference maps to."""

# how sure a match on the page is (``_exact_on_page``), and the confidence a placement gets (``_confidence``)
SURE = 1.0
"""The title (or its number and title) read whole on one line, or joined lines."""
NUMBER_APART = 0.95
"""The title with its number on a line of its own above (``CHAPTER`` / ``SIX`` / ``Title``), or the bare
title in a heading's type with no other section number just above it."""
BY_LABEL = 0.9
"""The entry's number opening a line, its title words elsewhere on the page (a margin heading); or its
short title alone in a heading's type."""
EXACT_CONFIDENCE = (0.95, 0.9, 0.85)
"""An exact match's confidence on the expected page, one page off, further off (times how sure it was)."""
LABEL_CONFIDENCE = (0.8, 0.75)
"""A match by number: its confidence within one page of the expected one, further off ..."""
LABEL_SURE = 0.9
"""... in full when the words after the number are this similar, else scaled down to half."""
FUZZY_CONFIDENCE = (0.3, 0.45, 2.0, 0.05)
"""A fuzzy match's confidence: at least the first, from the second at ``Heuristics.fuzzy_min`` up by
the third per unit of similarity above it, less the fourth per page from the expected one."""
JOIN_LINES = 3
"""A title is looked for on one line, or joined with the lines after it up to this many lines ..."""
JOIN_SLACK = 8
"""... while the joined text is shorter than the title plus this many characters."""
FUZZY_JOIN_LINES = 12
"""For a fuzzy match, up to this many lines are joined (a heading set one word per line) ..."""
FUZZY_SLACK = 4
"""... up to the title's length plus this many characters, and compared over that length."""
HEAD_SLACK = 5
"""A line opening with the title is its heading when at most this many characters longer (``(Cont.)``)."""
PAGE_FUZZY_SLACK = 6
"""A page is searched for a fuzzy match only when its text holds the title this similar (``partial_ratio``,
in points below ``Heuristics.fuzzy_min``): a cheap test first."""
HEADING_POINTS = 0.5
"""A line more than this many points larger than its page's body size is in a heading's type."""
NEAR_PAGES = 3
"""Pages nearest the search's start where bold and size are read, for an entry with no page to aim at."""
_LEAD_WORD_SET = frozenset(normalize_title(w) for w in (*LABEL_KEYWORDS, *LONE_LABEL_WORDS, *FOREIGN_LABEL_WORDS))
"""Label words as :func:`normalize_title` prints them (``chap.`` is ``chap``): a heading's introducing word."""
_LEAD_WORDS = re.compile(rf"^(?:{keyword_alternation(sorted(_LEAD_WORD_SET))}) ")
_DISTINCT_KINDS = {"part", "item", "chapter", "appendix", "article", "section", "note", "exhibit", "schedule"}
_TRAILING_PAREN = re.compile(r"^(.*\S)\s*\([^()]{1,20}\)$")
_BROKEN_WORD = re.compile(r"(?<=[^\W\d_])-\n(?=[^\W\d_])")
"""A word hyphenated at a line end (``configu-`` / ``ration``): a long heading wrapped by the typesetter."""


@dataclass
class Placement:
    entry: TocEntry
    pos: Pos | None
    confidence: float = 0.0
    how: str = ""  # "exact" | "label" | "fuzzy" | ""


class PageTexts:
    """Normalised page texts and lines, computed once per page and only when asked for."""

    def __init__(self, doc: SourceDoc) -> None:
        self.doc = doc
        self._flat: dict[int, str] = {}
        self._starts: dict[int, str] = {}
        self._lines: dict[int, list[tuple[Line, str]]] = {}
        self._tlines: dict[int, list[tuple[int, str]]] = {}
        self._broken: dict[int, frozenset[int]] = {}
        self._joined: dict[int, str] = {}
        self._body: dict[int, float] = {}

    def flat(self, unit: int) -> str:
        """The whole page as one normalised string (line breaks are spaces)."""
        if unit not in self._flat:
            self._flat[unit] = " " + normalize_title(self.doc.units[unit].text) + " "
        return self._flat[unit]

    def joined(self, unit: int) -> str:
        """:meth:`flat` with the words hyphenated at line ends joined (``configu-`` / ``ration`` is
        ``configuration``); empty when the page has none."""
        if unit not in self._joined:
            text = self.doc.units[unit].text
            joined = _BROKEN_WORD.sub("", text)
            self._joined[unit] = " " + normalize_title(joined) + " " if joined != text else ""
        return self._joined[unit]

    def broken(self, unit: int) -> frozenset[int]:
        """Start chars of the unit's text lines that end in a hyphenated word."""
        if unit not in self._broken:
            text = self.doc.units[unit].text
            out: set[int] = set()
            for m in _BROKEN_WORD.finditer(text):
                start = text.rfind("\n", 0, m.start()) + 1
                raw = text[start:m.start()]
                out.add(start + len(raw) - len(raw.lstrip()))
            self._broken[unit] = frozenset(out)
        return self._broken[unit]

    def starts(self, unit: int) -> str:
        """Normalised text lines joined by newlines, for "a line starts with" tests."""
        if unit not in self._starts:
            lines = (normalize_title(ln) for ln in self.doc.units[unit].text.splitlines())
            self._starts[unit] = "\n" + "\n".join(ln for ln in lines if ln) + "\n"
        return self._starts[unit]

    def text_lines(self, unit: int) -> list[tuple[int, str]]:
        """``(char, normalised text)`` of each non-empty line of the unit text: no layout work."""
        if unit not in self._tlines:
            out: list[tuple[int, str]] = []
            offset = 0
            for raw in self.doc.units[unit].text.split("\n"):
                norm = normalize_title(raw)
                if norm:
                    out.append((offset + len(raw) - len(raw.lstrip()), norm))
                offset += len(raw) + 1
            self._tlines[unit] = out
        return self._tlines[unit]

    def lines(self, unit: int) -> list[tuple[Line, str]]:
        if unit not in self._lines:
            self._lines[unit] = [(ln, normalize_title(ln.text)) for ln in self.doc.lines(unit)]
        return self._lines[unit]

    def body_size(self, unit: int) -> float:
        """The most common type size on the page, weighted by characters."""
        if unit not in self._body:
            sizes: Counter[float] = Counter()
            for ln, _ in self.lines(unit):
                sizes[round(ln.size)] += len(ln.text)
            self._body[unit] = float(sizes.most_common(1)[0][0]) if sizes else 0.0
        return self._body[unit]

    def first_line_start(self, title: str, units: range, skip: set[int]) -> int | None:
        """First unit in ``units`` with a text line starting with ``title`` (normalised)."""
        needle = "\n" + title
        for u in units:
            if u in skip:
                continue
            text = self.starts(u)
            i = text.find(needle)
            while i >= 0:
                end = i + len(needle)
                if end >= len(text) or text[end] in " \n":
                    return u
                i = text.find(needle, i + 1)
        return None


@dataclass
class _Want:
    full: str
    bare: str | None
    label: str | None
    distinct: bool
    self_ref: bool
    short: str | None = None  # the title without a trailing "(MD&A)"-style parenthesis


def _want(entry: TocEntry) -> _Want:
    full = normalize_title(entry.title)
    bare = normalize_title(entry.bare_title) if entry.label is not None else None
    label = normalize_title(entry.label.label) if entry.label is not None else None
    distinct = entry.label is not None and (
        entry.label.kind in _DISTINCT_KINDS or entry.label.kind == "decimal" and entry.label.depth >= 2)
    if entry.label is None and (r := _ROMAN_HEAD.match(full)) and roman_value(r.group(1)) is not None:
        label, bare = r.group(1), r.group(2)  # ``III Methods``: a part's bare numeral the parser leaves alone
    short = None
    m = _TRAILING_PAREN.search(entry.title)
    if m and len(m.group(1).split()) >= 2:
        short = normalize_title(m.group(1)) or None
    return _Want(full, bare or None, label or None, distinct, toc_keyword(entry.title) == "toc", short)


_ROMAN_HEAD = re.compile(r"^([ivxlc]+) (\S.*)$")
"""A normalised title that opens with a Roman numeral (``iii methods and tools``)."""


def _strip_lead(s: str) -> str:
    return _LEAD_WORDS.sub("", s, count=1)


def _joins(norms: list[str], k: int, target: int, broken: list[bool] | None = None) -> list[str]:
    """Line ``k`` alone, then joined with the next one or two lines while shorter than the title
    (a line ending in a hyphenated word joined both with and without the space)."""
    joined = norms[k]
    out = [joined]
    glued = joined if broken is not None else None
    for j in range(k + 1, min(k + JOIN_LINES, len(norms))):
        if len(joined) >= target + JOIN_SLACK:
            break
        if glued is not None and broken is not None:
            glued = f"{glued}{'' if broken[j - 1] else ' '}{norms[j]}"
        joined = f"{joined} {norms[j]}"
        out.append(joined)
        if glued is not None and glued != joined:
            out.append(glued)
    return out


_NUMBER_WORDS = {"zero": 0, **NUMBER_WORDS, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60}
"""Spelled numbers of a lead line (``CHAPTER THIRTY ONE``): the numbering words plus zero and the tens."""


_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "premiere": 1, "premier": 1, "deuxieme": 2, "seconde": 2, "troisieme": 3,
    "quatrieme": 4, "cinquieme": 5, "sixieme": 6, "septieme": 7, "huitieme": 8, "neuvieme": 9, "dixieme": 10,
    "erster": 1, "erste": 1, "zweiter": 2, "zweite": 2, "dritter": 3, "dritte": 3, "vierter": 4, "vierte": 4,
    "funfter": 5, "funfte": 5,
}
"""Ordinals that spell a part's number before its word (``Second Part``, ``Deuxième partie``, ``Zweiter Teil``)."""


def _is_lead(prev: str, label: str | None) -> bool:
    """A line that only introduces a heading: "CHAPTER", "SIX", "Chapter 6", "6", "VI", "Part Two",
    "Deuxième partie" (our number, in figures, Roman numerals or words)."""
    words = prev.split()
    if len(words) == 2 and words[0] in _ORDINAL_WORDS and words[1] in _LEAD_WORD_SET:
        return label is not None and _ORDINAL_WORDS[words[0]] == _label_value(label)
    if words and words[0] in _LEAD_WORD_SET:
        words = words[1:]
    if not words:
        return bool(prev)
    if label is None:
        return False
    rest = " ".join(words)
    if rest == label:
        return True
    if all(w in _NUMBER_WORDS for w in words):
        return sum(_NUMBER_WORDS[w] for w in words) == _label_value(label)
    value = roman_value(rest) if len(words) == 1 else None
    return value is not None and value == _label_value(label)


def _label_value(label: str) -> int | None:
    """The number a normalised label stands for: ``6``, ``vi``."""
    return int(label) if label.isdigit() else roman_value(label)


def _lead_start(norms: list[str], k: int, label: str | None) -> int:
    """Index of the first line of a heading whose title is line ``k``: "CHAPTER / SIX / Title"."""
    start = k
    while start > 0 and k - start < 2 and _is_lead(norms[start - 1], label):
        start -= 1
    return start


def _exact_on_page(pt: PageTexts, unit: int, want: _Want, min_char: int,
                   typographic: bool = True) -> tuple[str, float, int] | None:
    """A heading line that is the title (or its number on a line of its own): ``(how, score, char)``.

    The unit text's own lines are tried first; typographic lines (bold, size) are computed
    only when the title is on the page but does not fill a text line by itself, and only if
    ``typographic`` (the caller allows it near the expected page, where it is worth the cost).
    """
    flat = pt.flat(unit)
    probe = want.bare or want.full
    short_here = want.short is not None and f" {want.short} " in flat
    whole = f" {probe} " in flat or f" {want.full} " in flat
    if not whole and not short_here and f" {probe} " not in pt.joined(unit):
        return None
    target = len(want.full)
    tlines = [(c, t) for c, t in pt.text_lines(unit) if c >= min_char]
    norms = [t for _, t in tlines]
    cut = frozenset() if whole else pt.broken(unit)  # only a title found hyphenated needs the joins
    broken = [c in cut for c, _ in tlines] if cut else None
    by_label: tuple[str, float, int] | None = None
    by_bare: tuple[str, float, int] | None = None
    bare_ok = want.bare is not None
    full, full_word = want.full, want.full + " "
    labelled = want.distinct and want.label is not None and want.bare is not None
    # a line with its lead word stripped ("chapter 6 title" -> "6 title") is a suffix of the line, so the
    # pattern runs only where that suffix can be the title
    for k, (char, norm) in enumerate(tlines):
        for cand in _joins(norms, k, max(target, len(want.bare or "")), broken):
            if cand == full or cand.endswith(full) and _strip_lead(cand) == full:
                return "exact", SURE, char
            if by_bare is None and bare_ok and cand == want.bare:
                start = _lead_start(norms, k, want.label)
                if start < k:  # "CHAPTER / SIX / Title": the number stands on a line of its own
                    by_bare = ("exact", NUMBER_APART, tlines[start][0])
        if full_word not in norm and not (by_label is None and labelled):
            continue
        head = _strip_lead(norm)
        if head.startswith(full_word) and len(head) - target <= HEAD_SLACK:
            return "exact", SURE, char
        if by_label is None and labelled and want.label is not None and _after_label(head, want.label) == "" \
                and f" {want.bare} " in flat:
            by_label = ("label", BY_LABEL, char)
    if by_bare is not None:
        return by_bare
    if by_label is not None or not typographic:
        return by_label
    lines = [(ln, t) for ln, t in pt.lines(unit) if ln.char >= min_char and t]
    body = pt.body_size(unit)
    for ln, norm in lines:
        if not (ln.bold or ln.size > body + HEADING_POINTS):
            continue
        head = _strip_lead(norm)
        if norm.startswith(want.full + " ") or head.startswith(want.full + " "):
            return "exact", SURE, ln.char
        if want.bare is not None and (norm == want.bare or head == want.bare) and not _other_number_above(
                tlines, ln.char, want.label):
            return "exact", NUMBER_APART, ln.char
        if short_here and norm == want.short:
            return "exact", BY_LABEL, ln.char
    return by_label


_NUMBER_HEAD = re.compile(r"^(?:[a-z]+ )?\d+(?: \d+)+\b")


def _other_number_above(tlines: list[tuple[int, str]], char: int, label: str | None) -> bool:
    """Whether one of the two text lines above ``char`` starts with another section number: the
    title then belongs to that section ("Exhibit 2.3.59-1 (Cont.)" above a repeated title)."""
    above = [t for c, t in tlines if c < char][-2:]
    for text in above:
        m = _NUMBER_HEAD.match(text)
        if m and (label is None or _after_label(_strip_lead(text), label) is None):
            return True
    return False


def _after_label(text: str, label: str) -> str | None:
    """What follows ``label`` at the start of ``text`` ("" when nothing does); None when the
    text does not start with that very number ("5 1 4 x" does not start with "5 1")."""
    if text == label:
        return ""
    if not text.startswith(label + " "):
        return None
    rest = text[len(label) + 1:]
    first = rest.split(" ", 1)[0]
    if first.isdigit() and label[-1:].isdigit():
        return None
    return rest


def _fuzzy_on_page(pt: PageTexts, unit: int, want: _Want, min_char: int) -> tuple[str, float, int] | None:
    """The line most similar to the title, when similar enough.

    A numbered entry must find its own number at the start of the line and is then compared
    on the words after it, so "5.1 Inclusion Criteria" never lands on "5.1.4 Exclusion Criteria"
    and a body heading reworded from the TOC is still found by its number.
    """
    flat = pt.flat(unit)
    numbered = want.distinct and want.label is not None and want.bare is not None
    if numbered:
        if f" {want.label} " not in flat:
            return None
    elif fuzz.partial_ratio(want.bare or want.full, flat) < H.fuzzy_min * 100 - PAGE_FUZZY_SLACK:
        return None
    norms = [t for c, t in pt.text_lines(unit) if c >= min_char]
    chars = [c for c, t in pt.text_lines(unit) if c >= min_char]
    target = len(want.full)
    best: tuple[str, float, int] | None = None
    for k in range(len(norms)):
        joined = norms[k]
        for nxt in norms[k + 1:k + FUZZY_JOIN_LINES]:  # headings set one word per line exist
            if len(joined) >= target + FUZZY_SLACK:
                break
            joined = f"{joined} {nxt}"
        for cand in (joined, _strip_lead(joined)):
            if numbered:
                assert want.label is not None and want.bare is not None
                rest = _after_label(cand, want.label)
                if not rest:
                    continue
                score = fuzz.ratio(want.bare, rest[: len(want.bare) + FUZZY_SLACK]) / 100.0
                if score >= H.label_fuzzy_min and (best is None or score > best[1]):
                    best = ("label", score, chars[k])
            else:
                score = fuzz.ratio(want.full, cand[: target + FUZZY_SLACK]) / 100.0
                if score >= H.fuzzy_min and (best is None or score > best[1]):
                    best = ("fuzzy", score, chars[k])
    return best


def place_entries(doc: SourceDoc, entries: list[TocEntry], toc_pages: list[int],
                  pagemap: PageMap, texts: PageTexts | None = None, *, span: int = H.toc_span_pages,
                  listings: dict[int, tuple[int, int]] | None = None) -> list[Placement]:
    """Verify every entry on the body pages; entries not found keep ``pos=None``.

    ``span`` bounds how far ahead an entry without a usable page reference is looked for;
    ``listings`` are character spans of pages that list sections (a part's own contents): a title
    found inside one is looked for again after it.
    """
    listings = listings or {}
    pt = texts or PageTexts(doc)
    n = len(doc.units)
    toc = set(toc_pages)
    tails = _toc_ends(pt, entries, toc_pages)
    expected = [pagemap.resolve(e.page) if e.page else None for e in entries]
    out: list[Placement] = []
    floor = Pos(0, -1)
    for i, entry in enumerate(entries):
        want = _want(entry)
        skip = set() if want.self_ref else toc - set(tails)
        below = {} if want.self_ref else tails
        exp = expected[i]
        nxt = next((expected[j] for j in range(i + 1, len(entries)) if expected[j] is not None), None) \
            if exp is None else None
        if exp is not None:
            units = [exp + d for d in _WINDOW]
        else:
            hi = nxt + 1 if nxt is not None and entry.page is None else max(floor.unit, 0) + span
            units = list(range(max(floor.unit, 0), min(n - 1, hi) + 1))
        units = [u for u in units if 0 <= u < n and u >= floor.unit and u not in skip]
        placement = Placement(entry, None)
        near = [u for u in units if abs(u - exp) <= 1] if exp is not None else units[:NEAR_PAGES]
        if exp is None and nxt is not None:  # a page-less entry (a Part) heads the next entry's page or the one before
            near += [u for u in units if nxt - 1 <= u <= nxt and u not in near]
        # Pages are tried in window order, bold/size checks (typographic lines) only on the nearest
        # ones. A numbered entry with no page to aim at is first looked for by text alone over the
        # whole span, so that long runs of look-alike pages cost no layout work.
        if exp is None and want.label is not None:
            passes = [[(u, False) for u in units], [(u, True) for u in near]]
        else:
            passes = [[(u, want.label is None or u in near) for u in units]]
        for pool in passes:
            for u, typographic in pool:
                hit = _exact_on_page(pt, u, want, _min_char(u, floor, below), typographic)
                if hit is not None and u in listings and listings[u][0] <= hit[2] < listings[u][1]:
                    hit = _exact_on_page(pt, u, want, listings[u][1], typographic)  # the listing's row
                if hit is not None:
                    how, score, char = hit
                    placement = Placement(entry, Pos(u, char), _confidence(how, score, u, exp), how)
                    break
            if placement.pos is not None:
                break
        if placement.pos is None:
            best: tuple[float, int, int, str] | None = None
            for u in near:
                hit = _fuzzy_on_page(pt, u, want, _min_char(u, floor, below))
                if hit is not None and (best is None or hit[1] > best[0]):
                    best = (hit[1], u, hit[2], hit[0])
            if best is not None:
                placement = Placement(entry, Pos(best[1], best[2]), _confidence(best[3], best[0], best[1], exp),
                                      best[3])
        if placement.pos is not None:
            floor = placement.pos
        out.append(placement)
    return out


def _min_char(unit: int, floor: Pos, below: dict[int, Pos]) -> int:
    """Where the search for a heading starts on ``unit``: after the previous entry's heading, and
    on a TOC piece's last page after the TOC (``below``)."""
    start = floor.char + 1 if unit == floor.unit else 0
    end = below.get(unit)
    return max(start, end.char + 1) if end is not None else start


def _toc_ends(pt: PageTexts, entries: list[TocEntry], toc_pages: list[int]) -> dict[int, Pos]:
    """Where the printed TOC ends on the last page of each of its runs of pages (one run, or one per
    piece of a contents printed in pieces), by page."""
    ends = [u for u in toc_pages if u + 1 not in toc_pages]
    return {u: pos for u in ends if (pos := _toc_end(pt, entries, u)) is not None}


def _toc_end(pt: PageTexts, entries: list[TocEntry], last: int) -> Pos | None:
    """Where the printed TOC ends on page ``last`` (the row of the last entry read there that gives
    a page; a page-less last row may be that very heading): the first section often starts below
    it, on the same page (``1 Introduction`` under ``Contents``)."""
    rows = [e for e in entries if e.unit == last and e.page]
    if not any(e.page for e in entries):  # a contents without pages: its last row read on the page
        rows = [e for e in entries if e.unit == last]
    if not rows:
        return None
    want = _want(max(rows, key=lambda e: e.order))
    probe = want.bare or want.full
    # its last line that reads as the row (label and page number aside), not a sentence that names it
    hits = [char for char, norm in pt.text_lines(last) if probe in norm and len(norm) <= len(probe) + H.toc_row_extra]
    return Pos(last, hits[-1]) if hits else None


def _confidence(how: str, score: float, unit: int, expected: int | None) -> float:
    dist = abs(unit - expected) if expected is not None else 1
    if how == "exact":
        base = EXACT_CONFIDENCE[min(dist, 2)]
        return round(base * score if score < 1 else base, 3)
    if how == "label":
        return round(LABEL_CONFIDENCE[0 if dist <= 1 else 1] * (1.0 if score >= LABEL_SURE else 0.5 + score / 2), 3)
    floor, base, slope, per_page = FUZZY_CONFIDENCE
    return round(max(floor, base + (score - H.fuzzy_min) * slope - per_page * dist), 3)
