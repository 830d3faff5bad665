"""Whole words: the spaces a PDF's text layer put inside words, taken out by the glyphs' geometry.

MuPDF writes a space between two glyphs wherever the gap between them passes 0.15 of the type size
and the file has no space glyph there (a *synthetic* space). Letter-spaced (tracked) type, kerning
and character-justified lines pass that threshold inside words: ``OVERVI EW``, ``Incom e``,
``Cash Flow s``, ``C O N T E N T S``. Once, at reading, such spaces are taken out of the page text,
so titles, node text, summaries, the lexical index and TOC matching all see the same words, and the
page's typographic lines (:func:`.pdf._page_layout`) are given the same repair.

Two steps, so that the glyph pass is paid for a few lines only:

1. *Which gaps to look at* comes from the document's own text (no word list): a piece of at most
   :data:`SHORT_PIECE` letters one space from a word whose case it continues (``EW`` after
   ``OVERVI``, ``e`` after ``Incom``, ``T`` before ``HE``), when the piece is not one of the
   document's common words and either seldom stands alone or joins its neighbour into a word the
   document prints whole (two short pieces must make a printed word of :data:`MIN_LETTERS` letters
   or more: ``J K`` in ``J K−1`` do not);
   and runs of single letters one space apart (``C O N T E N T S``). A piece *stands alone* where
   it does not join its neighbour into a printed word, nor is a letter of such a run. Splits into
   two pieces of three letters or more are not looked for (those seen in filings break off a word's
   last one or two letters: ``Incom e``, ``Equit y``, ``Cash Flow s``).
2. *Whether a gap is a word space* comes from the glyphs (MuPDF's text page, read for the line
   only). A space the file prints (a space glyph) stays, and so does one between two fonts or sizes
   (a variable after a word: ``sign σ``). A synthetic space between two letters goes when its gap,
   less the letter gap of the two pieces (the median gap between their letters, which tracking
   widens), is under :data:`JOIN_SHARE` of the line's word space: the font's space width at its
   size (from the font's own space glyph, or :data:`SPACE_EM` of the size for a font without one,
   as TeX's are), or the line's other word gaps, when narrower (TeX sets Linux Libertine's words
   0.18 of the size apart). A run of single letters is split into words where the file prints a
   space or a gap passes that bound, and its words are joined where the document prints them whole
   elsewhere, if one of them has :data:`MIN_LETTERS` letters or more (``d x y`` in a formula is not
   joined, ``C O N T E N T S`` is where ``Contents`` is printed).
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pymupdf
from pymupdf import mupdf

from ..model import Table

__all__ = ["PageWords", "whole_words"]

SHORT_PIECE = 2
"""Letters of a piece broken off a word's end or start (``Incom e``, ``OVERVI EW``, ``T HE``)."""
MIN_ALONE = 2
"""A short word standing alone this many times in the document is a word, not a piece."""
COMMON_PER_PAGE = 0.5
COMMON_MIN = 8
"""A short word printed this many times per page of the document (and at least :data:`COMMON_MIN` times) is
one of its common words (``of``, ``a``, ``up``), never looked at: a piece recurs only where its word does."""
JOIN_SHARE = 0.8
"""A synthetic space whose gap, less the line's letter gap, is under this share of the line's word space
joins its letters. MuPDF writes one from 0.15 of the size: 0.8 of a space is 0.2 of the size in Times (a
space of 0.25) and 0.22 in Helvetica (0.278), above the 0.15-0.2 of kerned and justified splits."""
TRACKING_MAX = 0.4
"""Letter spacing, as a share of the size, beyond which letters are not one word's (tracked headings
space their letters by up to about a third of the size; a chart or a table sets its cells further apart)."""
MIN_LETTERS = 3
"""Pieces of one or two letters each are joined only into a word of this many letters or more (``d x`` in a
formula, ``J K`` in a unit stay apart)."""
RUN_SHARE = 0.5
"""A run of single letters is tracked type when its letter gap is under this share of the line's other gaps."""
SPACE_EM = 0.25
"""Space width, as a share of the size, of a font without a space glyph (TeX's fonts: words set apart)."""
_SYNTHETIC = mupdf.FZ_STEXT_SYNTHETIC
_HORIZONTAL = 0.99
"""A line whose direction's x is at least this is horizontal (a rotated line is left as it is)."""

_L = r"[^\W\d_]"
_EDGE = r"\w'\u2019.\-/@&"
_END = r"(?![\w'\u2019\-/@&]|\.\w)"
"""The end of a word: not part of a longer token (``U.S.``, ``a.m.``, ``front-ends``, an address)."""
_SHORT = re.compile(rf"(?<![{_EDGE}]){_L}{{1,{SHORT_PIECE}}}{_END}")
"""A word of one or two letters."""
_BEFORE = re.compile(rf"(?<![{_EDGE}])({_L}+) $")
_AFTER = re.compile(rf" ({_L}+){_END}")
"""The word one space before / after a short word."""
_LETTERS = re.compile(rf"(?<![{_EDGE}])(?:{_L} ){{2,}}{_L}{_END}")
"""A run of three or more single letters one space apart (``C O N T E N T S``)."""
_PUNCTUATION = "\"'()[]{}<>,.;:!?\u2018\u2019\u201c\u201d"
"""What may stand around a word without being part of it."""
_OPENERS = (" ", "\n", "(", "\u201c", "\"", "\u2018")
"""What stands right before a word (a piece of one is looked for after these only)."""
_NEWLINE = re.compile("\n")
_JOINED_LEFT = re.compile(rf"{_L}+$")
"""The letters before a space taken out."""
_REACH = 40
"""Characters looked at on each side of a short word for its neighbour."""


@dataclass(slots=True)
class PageWords:
    """One page's repair: its text with split words joined, each repaired line as read and as repaired
    (in page order) for the typographic lines of the same page, the offsets of the spaces taken out of
    the text as read (sorted), and each join as read and as repaired (``Incom e`` -> ``Income``)."""

    text: str
    lines: dict[str, list[str]] = field(default_factory=dict)
    cuts: list[int] = field(default_factory=list)
    joins: dict[str, str] = field(default_factory=dict)

    def line(self, raw: str) -> str:
        """The repaired text of a line read as ``raw`` (``raw`` when the line was not repaired)."""
        fixed = self.lines.get(raw)
        if not fixed:
            return raw
        return fixed.pop(0) if len(fixed) > 1 else fixed[0]

    def offset(self, raw: int) -> int:
        """Where the character at offset ``raw`` of the text as read stands in the repaired text."""
        return raw - bisect.bisect_left(self.cuts, raw)

    def words(self, text: str) -> str:
        """``text`` (a table's cell or title, read from the same page) with the page's joins made."""
        for was, now in self.joins.items():
            if was in text:
                text = re.sub(rf"(?<!\w){re.escape(was)}(?!\w)", now, text)
        return text

    def table(self, table: Table) -> Table:
        """A table of the page as read, its span moved into the repaired text and its words joined."""
        return dataclasses.replace(
            table, start=self.offset(table.start), end=self.offset(table.end),
            rows=tuple(tuple(self.words(c) for c in row) for row in table.rows),
            title=self.words(table.title) if table.title is not None else None)


@dataclass(slots=True)
class _Look:
    """What to look at on one page: spaces after or before a piece, runs of single letters (start, end)."""

    spaces: set[int] = field(default_factory=set)
    runs: list[tuple[int, int]] = field(default_factory=list)


def whole_words(texts: list[str], textpage: Callable[[int], pymupdf.TextPage | None]) -> dict[int, PageWords]:
    """The pages of a document (their texts as read, ``get_text("text")``) whose split words the glyphs
    confirm, repaired; ``textpage(i)`` gives page ``i``'s MuPDF text page (the one its text came from),
    or ``None`` for a page whose text does not come from the file's glyphs (OCR)."""
    looks, printed = _candidates(texts)
    widths: dict[str, float] = {}  # the document's fonts' space widths, by font name
    out: dict[int, PageWords] = {}
    for index, look in looks.items():
        tp = textpage(index)
        if tp is None:
            continue
        fixed = _join(texts[index], look, tp, widths, printed)
        if fixed is not None:
            out[index] = fixed
    return out


def _candidates(texts: list[str]) -> tuple[dict[int, _Look], set[str]]:
    """What to look at on each page (the module's step 1), and the words the document prints whole."""
    pages = [text.casefold().split() for text in texts]  # each page's words as white space delimits them
    counts = Counter(itertools.chain.from_iterable(pages))
    printed: set[str] = set()  # the words the document prints, punctuation around them aside
    shorts: Counter[str] = Counter()  # ... and how often each word of one or two letters stands alone
    stripped: dict[str, str] = {}  # each white-space-delimited token of one or two letters -> that word
    for token, n in counts.items():
        word = token.strip(_PUNCTUATION)
        printed.add(word)
        if len(word) <= SHORT_PIECE and word.isalpha():
            shorts[word] += n
            stripped[token] = word
    common = max(COMMON_MIN, round(COMMON_PER_PAGE * len(texts)))
    rare = {token for token, word in stripped.items() if shorts[word] < common}  # as tokens, to meet the pages'
    singles = {token for token, word in stripped.items() if len(word) == 1}
    found: list[tuple[int, int, str, str]] = []  # page, offset of the space, piece, neighbour (case-folded)
    joined: Counter[str] = Counter()  # pieces next to a neighbour they join into a printed word
    looks: dict[int, _Look] = {}
    for index, text in enumerate(texts):
        for start, end in _occurrences(text, {stripped[token] for token in rare.intersection(pages[index])}):
            short = text[start:end]
            piece = short.casefold()
            before = _BEFORE.search(text, max(0, start - _REACH), start)
            if before is not None and _continues(before.group(1), short):
                word = before.group(1).casefold()
                found.append((index, start - 1, piece, word))
                joined[piece] += word + piece in printed
            after = _AFTER.match(text, end, end + _REACH)
            if after is not None and _continues(short, after.group(1)):
                word = after.group(1).casefold()
                found.append((index, end, piece, word))
                joined[piece] += piece + word in printed
        if len(singles.intersection(pages[index])) > 1:  # two single letters at least: maybe a run of them
            for m in _LETTERS.finditer(text):
                looks.setdefault(index, _Look()).runs.append(m.span())
                joined.update(m.group().casefold().split())  # its letters do not stand alone either
    for index, offset, piece, word in found:
        whole = len(word) + len(piece) >= MIN_LETTERS and (word + piece in printed or piece + word in printed)
        if whole or (len(word) > SHORT_PIECE and shorts[piece] - joined[piece] < MIN_ALONE):
            looks.setdefault(index, _Look()).spaces.add(offset)
    return looks, printed


def _occurrences(text: str, pieces: set[str]) -> list[tuple[int, int]]:
    """Where the (case-folded) ``pieces`` stand in ``text`` as words of their own: (start, end)."""
    if not pieces:
        return []
    folded = text.casefold()
    if len(folded) != len(text):  # a character that folds to two (``ß``): look with the pattern instead
        return [m.span() for m in _SHORT.finditer(text) if m.group().casefold() in pieces]
    out: set[tuple[int, int]] = set()
    for piece in pieces:
        for opener in _OPENERS:
            at = folded.find(opener + piece)
            while at >= 0:
                start, end = at + 1, at + 1 + len(piece)
                m = _SHORT.match(text, start, min(len(text), end + 2))  # a word of its own, as ``_SHORT`` finds them
                if m is not None and m.end() == end:
                    out.add((start, end))
                at = folded.find(opener + piece, end)
        m = _SHORT.match(text, 0, len(piece) + 2) if folded.startswith(piece) else None
        if m is not None and m.end() == len(piece):
            out.add((0, len(piece)))
    return sorted(out)


def _continues(first: str, second: str) -> bool:
    """Whether ``second`` continues the case of ``first`` (a capital after small letters starts a word)."""
    return second.islower() or (second.isupper() and first.isupper())


_Char = tuple[str, int, float, float, float, str, object]  # character, flags, x0, x1, size, font name, fz_font*


def _join(text: str, look: _Look, tp: pymupdf.TextPage, widths: dict[str, float],
          printed: set[str]) -> PageWords | None:
    """The page with the spaces of ``look`` taken out where the glyphs show no word gap."""
    starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]  # offset of each text line's start

    def line_of(offset: int) -> int:
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    spaces: dict[int, list[int]] = {}
    runs: dict[int, list[tuple[int, int]]] = {}
    for offset in look.spaces:
        k = line_of(offset)
        spaces.setdefault(k, []).append(offset - starts[k])
    for start, end in look.runs:
        k = line_of(start)
        runs.setdefault(k, []).append((start - starts[k], end - starts[k]))
    chars = _line_chars(tp, set(spaces) | set(runs))
    drop: set[int] = set()  # offsets in the page text of spaces to take out
    repaired: dict[str, list[str]] = {}
    joins: dict[str, str] = {}
    for k in sorted(set(spaces) | set(runs)):
        line = chars.get(k)
        end = text.find("\n", starts[k])
        raw = text[starts[k]:end if end >= 0 else len(text)]
        if line is None or "".join(c[0] for c in line) != raw:
            continue  # the text page's line is not the text's line: leave it
        gone = {col for col in spaces.get(k, ()) if _no_word_gap(line, col, widths)}
        for start, stop in runs.get(k, ()):
            gone.update(_run_joins(line, start, stop, widths, printed))
        if gone:
            drop.update(starts[k] + col for col in gone)
            repaired.setdefault(raw, []).append("".join(ch for i, ch in enumerate(raw) if i not in gone))
            joins.update(_joins(raw, gone))
    if not drop:
        return None
    return PageWords("".join(ch for i, ch in enumerate(text) if i not in drop), repaired, sorted(drop), joins)


def _joins(raw: str, gone: set[int]) -> dict[str, str]:
    """Each word of the line that lost spaces, as read and as repaired (``C O N T E N T S`` -> ``CONTENTS``)."""
    out: dict[str, str] = {}
    covered = -1  # the end of the last word taken
    for col in sorted(gone):
        if col < covered:
            continue  # inside a word already taken
        left = _JOINED_LEFT.search(raw, 0, col)
        start = left.start() if left is not None else col
        end = col
        while end in gone or (end < len(raw) and raw[end] != " "):
            end += 1
        was = raw[start:end]
        out[was] = "".join(ch for i, ch in enumerate(was, start) if i not in gone)
        covered = end
    return out


def _line_chars(tp: pymupdf.TextPage, wanted: set[int]) -> dict[int, list[_Char]]:
    """The characters of the wanted text lines (by their index in the page text), with their geometry.
    The page text writes a line per text-page line that holds a character (``JM_print_stext_page_as_text``)."""
    out: dict[int, list[_Char]] = {}
    k = -1
    last = max(wanted)
    for block in tp.this:
        if block.m_internal.type != mupdf.FZ_STEXT_BLOCK_TEXT:
            continue
        for line in block:
            raw = line.m_internal
            if raw.first_char is None:
                continue
            k += 1
            if k in wanted and raw.dir.x >= _HORIZONTAL:
                chars: list[_Char] = []
                for ch in line:
                    c = ch.m_internal
                    chars.append((chr(c.c), c.flags, c.quad.ll.x, c.quad.lr.x, c.size, mupdf.ll_fz_font_name(c.font),
                                  c.font))
                out[k] = chars
            if k >= last:
                return out
    return out


def _gap(chars: list[_Char], col: int) -> float:
    """The gap the space at ``col`` stands in: from the glyph before it to the glyph after it."""
    return chars[col + 1][2] - chars[col - 1][3]


def _synthetic_between_letters(chars: list[_Char], col: int) -> bool:
    """A space MuPDF wrote (no glyph in the file) between two letters of one font and size."""
    if not 0 < col < len(chars) - 1:
        return False
    before, space, after = chars[col - 1], chars[col], chars[col + 1]
    return (space[0] == " " and bool(space[1] & _SYNTHETIC) and before[0].isalpha() and after[0].isalpha()
            and before[4] == after[4] and before[5] == after[5])


def _no_word_gap(chars: list[_Char], col: int, widths: dict[str, float]) -> bool:
    """Whether the space at ``col`` of the line is a synthetic one between two letters whose gap is no
    word space (the module's step 2)."""
    if not _synthetic_between_letters(chars, col):
        return False
    before = chars[col - 1]
    first, last = col - 1, col + 1  # the text layer's words on either side of the space
    while first > 0 and chars[first - 1][0] != " ":
        first -= 1
    while last < len(chars) - 1 and chars[last + 1][0] != " ":
        last += 1
    letters = [chars[i + 1][2] - chars[i][3] for i in range(first, last) if i not in (col - 1, col)
               and chars[i][0].isalpha() and chars[i + 1][0].isalpha()]
    letter = max(statistics.median(letters), 0.0) if letters else 0.0
    if letter > TRACKING_MAX * before[4]:
        return False  # letters this far apart are a grid's cells (a font's chart), not a word's
    word = _space_width(before, widths) * before[4]
    others = [_gap(chars, i) - letter for i in range(1, len(chars) - 1)
              if i != col and chars[i][0] == " " and chars[i - 1][0] != " " and chars[i + 1][0] != " "]
    if others:
        word = min(word, statistics.median(others))
    return _gap(chars, col) - letter < JOIN_SHARE * word


def _run_joins(chars: list[_Char], start: int, stop: int, widths: dict[str, float], printed: set[str]) -> set[int]:
    """The spaces of the run of single letters ``chars[start:stop]`` to take out. The run is tracked
    type when its letter gap (the median of its synthetic gaps) is tighter than :data:`RUN_SHARE` of
    the line's other gaps (a run of one-letter words, ``echo a b c``, is spaced as the words around
    it), or, alone on its line, under :data:`TRACKING_MAX` of the size. It is split into words at the
    file's spaces and at gaps past :data:`JOIN_SHARE` of a space beyond its letter gap, and each word
    of two letters or more is joined when the document prints it whole."""
    cols = list(range(start + 1, stop, 2))
    synthetic = [c for c in cols if _synthetic_between_letters(chars, c)]
    if not synthetic:
        return set()
    size = chars[start][4]
    letter = max(statistics.median(_gap(chars, c) for c in synthetic), 0.0)
    others = [_gap(chars, i) for i in range(1, len(chars) - 1)
              if not start < i < stop and chars[i][0] == " " and chars[i - 1][0] != " " and chars[i + 1][0] != " "]
    if letter > (RUN_SHARE * statistics.median(others) if others else TRACKING_MAX * size):
        return set()
    bound = letter + JOIN_SHARE * _space_width(chars[start], widths) * size
    words: list[tuple[str, list[int]]] = []  # the run's words: letters, the spaces inside
    spaces: list[int] = []
    first = start
    for c in [*cols, stop]:
        if c < stop and c in synthetic and _gap(chars, c) < bound:
            spaces.append(c)
            continue
        words.append(("".join(chars[i][0] for i in range(first, c, 2)).casefold(), spaces))
        spaces, first = [], c + 1
    joined = [(letters, inside) for letters, inside in words if inside and letters in printed]
    if not any(len(letters) >= MIN_LETTERS for letters, _inside in joined):
        return set()  # no word of three letters: a formula's variables (``d x``), not tracked type
    return {c for _letters, inside in joined for c in inside}


def _space_width(char: _Char, widths: dict[str, float]) -> float:
    """The space advance of the character's font as a share of its size (:data:`SPACE_EM` without a
    space glyph)."""
    name, font = char[5], char[6]
    share = widths.get(name)
    if share is None:
        gid = mupdf.ll_fz_encode_character(font, 32)
        share = float(mupdf.ll_fz_advance_glyph(font, gid, 0)) if gid > 0 else SPACE_EM
        share = widths[name] = share if share > 0 else SPACE_EM
    return share
