"""Lines joined into rows, the body text's type measured once per scan, and the font tests (monospace,
italic, family) that rows and headings compare by."""

from __future__ import annotations

import functools
import re
from collections import Counter

from ...model import Line, SourceDoc
from ..heuristics import HEURISTICS as H
from .model import Body, Row

_MONO = ("mono", "courier", "cmtt", "consol", "menlo", "sfmono", "lmmono", "anonymous", "typewriter", "txtt",
         "sourcecode", "firacode")
"""Monospace font families by name (code listings; the PDF's own monospace flag is not carried by ``Line``)."""
_ITALIC = ("italic", "oblique", "cmti", "cmsl", "-it", "lmroman10-italic")
DEFAULT_BODY_SIZE = 10.0
"""The body size of a document without text (points)."""
DEFAULT_LEFT = 72.0
"""The text's left margin where no line is long enough to show it: one inch (points) ..."""
DEFAULT_RIGHT = 540.0
"""... and its right margin: one inch from a US Letter page's right edge."""
FONT_CACHE = 1024
"""Font names remembered by the style tests (a document uses tens; subset prefixes differ per file)."""


@functools.lru_cache(maxsize=FONT_CACHE)
def is_mono(font: str) -> bool:
    f = font.casefold()
    return any(m in f for m in _MONO)


@functools.lru_cache(maxsize=FONT_CACHE)
def is_italic(font: str) -> bool:
    f = font.casefold()
    return any(m in f for m in _ITALIC)


@functools.lru_cache(maxsize=FONT_CACHE)
def font_family(font: str) -> str:
    """``TimesNewRoman-BoldItalic`` -> ``timesnewroman``; subset prefixes (``ABCDEF+``) dropped (now asked
    for rows of two fonts side by side too, so the answer is kept as the other font tests keep theirs)."""
    f = font.split("+", 1)[-1].casefold()
    f = re.split(r"[-,]", f, maxsplit=1)[0]
    f = re.sub(r"(bold|italic|oblique|regular|medium|light|black|semibold|mt|ps|psmt)+$", "", f)
    return re.sub(r"\d+$", "", f)


def measure_body(doc: SourceDoc, pages: range, skip: set[tuple[int, int]]) -> Body:
    """Body size (most common size by characters), weight, family and text margins. Code listings
    (monospace lines) do not count where there is enough prose: a manual whose 9 pt listings outweigh
    its 10 pt prose would otherwise make every short prose line look larger than the body."""
    styles: Counter[tuple[float, str, bool]] = Counter()  # (half-point size, font, bold) -> characters
    lefts: Counter[int] = Counter()
    rights: Counter[int] = Counter()
    for u in pages:
        for j, line in enumerate(doc.lines(u)):
            if (u, j) in skip:
                continue
            n = len(line.text)
            styles[round(line.size * 2) / 2, line.font, line.bold] += n
            if n > H.margin_line_chars:
                lefts[int(line.x0)] += 1
                rights[int(line.x1)] += 1
    if not styles:
        return Body(DEFAULT_BODY_SIZE, False, DEFAULT_LEFT, DEFAULT_RIGHT, "")
    sizes, fams, bold = _tally(styles, all_fonts=True)
    total = sum(sizes.values())
    prose, prose_fams, prose_bold = _tally(styles, all_fonts=False)
    if sum(prose.values()) >= H.body_prose_share * total:
        sizes, fams, bold, total = prose, prose_fams, prose_bold, sum(prose.values())
    left = float(lefts.most_common(1)[0][0]) if lefts else DEFAULT_LEFT
    right = float(rights.most_common(1)[0][0]) if rights else DEFAULT_RIGHT
    size = sizes.most_common(1)[0][0]
    # the body's typeface is the one its size is set in (a paper's serif text after pages of sans tables)
    at_size = Counter({font: n for (sz, font, _), n in styles.items() if sz == size and font in fams})
    font = (at_size or fams).most_common(1)[0][0]
    return Body(size, bold > total * 0.5, left, max(right, left + H.min_column), font_family(font))


def _tally(styles: Counter[tuple[float, str, bool]], *, all_fonts: bool) -> tuple[Counter[float], Counter[str], int]:
    """Characters by size and by font, and bold characters, of every style (or of the prose ones, not
    monospace). A size or font comes first where its first line came first, as counting line by line
    would have it, so ties between equally common sizes fall the same way."""
    sizes: Counter[float] = Counter()
    fams: Counter[str] = Counter()
    bold = 0
    for (size, font, is_bold), n in styles.items():
        if all_fonts or not is_mono(font):
            sizes[size] += n
            fams[font] += n
            bold += n if is_bold else 0
    return sizes, fams, bold


def join_rows(lines: list[Line], skip: set[int]) -> list[Row]:
    rows: list[Row] = []
    for j, line in enumerate(lines):
        if j in skip or not line.text:
            continue
        italic = is_italic(line.font)
        mono = is_mono(line.font)
        if rows:
            r = rows[-1]
            same_row = r.block == line.block and abs(line.y0 - r.y0) < H.same_baseline * max(line.size, 1.0) \
                and line.x0 >= r.x1 - 1.0
            if same_row:
                r.text = f"{r.text}  {line.text}"
                r.x1 = max(r.x1, line.x1)
                r.y1 = max(r.y1, line.y1)
                r.bold = r.bold and line.bold
                r.italic = r.italic and italic
                r.mono = r.mono and mono
                if len(line.text) > len(rows[-1].text) // 2:
                    r.size = max(r.size, line.size)
                r.members.append(j)
                continue
        rows.append(Row(line.text, line.size, line.bold, italic, mono, line.font, line.x0, line.y0, line.x1,
                        line.y1, line.char, line.block, j, [j]))
    return rows


def same_style(a: Row, b: Row) -> bool:
    """One type: size, weight, slant and typeface (a serif heading does not run on into sans-serif text;
    code lines between prose lines do not part them)."""
    return abs(a.size - b.size) < H.same_size and a.bold == b.bold and a.italic == b.italic \
        and (a.mono or b.mono or a.font == b.font or font_family(a.font) == font_family(b.font))


def all_caps(text: str) -> bool:
    """At least two letters, all of them capitals (stops at the first small letter)."""
    letters = 0
    for c in text:
        if c.isalpha():
            if not c.isupper():
                return False
            letters += 1
    return letters >= 2
