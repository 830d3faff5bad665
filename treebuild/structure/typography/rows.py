"""Lines joined into rows, and the body text's type measured once per scan. A line's weight, slant,
spacing and typeface are the reader's (``Line.bold``, ``italic``, ``mono``, ``family``): nothing here
reads a font's name."""

from __future__ import annotations

import re
from collections import Counter

from ...model import Line, SourceDoc
from ...text.numbering import parse_numbering
from ..heuristics import HEURISTICS as H
from .model import Body, Row

DEFAULT_BODY_SIZE = 10.0
"""The body size of a document without text (points)."""
DEFAULT_LEFT = 72.0
"""The text's left margin where no line is long enough to show it: one inch (points) ..."""
DEFAULT_RIGHT = 540.0
"""... and its right margin: one inch from a US Letter page's right edge."""
_Style = tuple[float, str, bool, bool, str]
"""A line's type as the body's measure counts it: half-point size, font, bold, monospace, family."""


def measure_body(doc: SourceDoc, pages: range, skip: set[tuple[int, int]]) -> Body:
    """Body size (most common size by characters), weight, family and text margins. Code listings
    (monospace lines) do not count where there is enough prose: a manual whose 9 pt listings outweigh
    its 10 pt prose would otherwise make every short prose line look larger than the body."""
    styles: Counter[_Style] = Counter()  # (half-point size, font, bold, mono, family) -> characters
    lefts: Counter[int] = Counter()
    rights: Counter[int] = Counter()
    for u in pages:
        for j, line in enumerate(doc.lines(u)):
            if (u, j) in skip:
                continue
            n = len(line.text)
            styles[max(round(line.size * 2) / 2, H.min_body_size), line.font, line.bold, line.mono, line.family] += n
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
    at_size = Counter({font: n for (sz, font, *_), n in styles.items() if sz == size and font in fams})
    font = (at_size or fams).most_common(1)[0][0]
    family = next(fam for (_, f, _, _, fam) in styles if f == font)
    return Body(size, bold > total * 0.5, left, max(right, left + H.min_column), family)


def _tally(styles: Counter[_Style], *, all_fonts: bool) -> tuple[Counter[float], Counter[str], int]:
    """Characters by size and by font, and bold characters, of every style (or of the prose ones, not
    monospace). A size or font comes first where its first line came first, as counting line by line
    would have it, so ties between equally common sizes fall the same way."""
    sizes: Counter[float] = Counter()
    fams: Counter[str] = Counter()
    bold = 0
    for (size, font, is_bold, mono, _), n in styles.items():
        if all_fonts or not mono:
            sizes[size] += n
            fams[font] += n
            bold += n if is_bold else 0
    return sizes, fams, bold


def join_rows(lines: list[Line], skip: set[int]) -> list[Row]:
    rows: list[Row] = []
    for j, line in enumerate(lines):
        if j in skip or not line.text:
            continue
        if rows:
            r = rows[-1]
            same_row = r.block == line.block and abs(line.y0 - r.y0) < H.same_baseline * max(line.size, 1.0) \
                and line.x0 >= r.x1 - 1.0
            if same_row:
                r.text = f"{r.text}  {line.text}"
                r.x1 = max(r.x1, line.x1)
                r.y1 = max(r.y1, line.y1)
                r.bold = r.bold and line.bold
                r.italic = r.italic and line.italic
                r.mono = r.mono and line.mono
                if len(line.text) > len(rows[-1].text) // 2:
                    r.size = max(r.size, line.size)
                r.members.append(j)
                continue
        rows.append(Row(line.text, line.size, line.bold, line.italic, line.mono, line.font, line.family, line.x0,
                        line.y0, line.x1, line.y1, line.char, line.block, j, [j]))
    return rows


_LEAD_LABEL = re.compile(r"^(?:[A-Z][\w'\u2019-]*\s+){1,3}[0-9][0-9.]*[A-Za-z]?\s*[:.\u2013\u2014-]\s+(?=\S)")
"""A label of a few capitalised words and a number opening a title before its words (``Strategic Goal
6:``, ``Objective 2.1 -``), which the numbering parser does not read."""


def lead_label(text: str) -> int:
    """Characters of the label opening ``text`` (``2.``, ``Item 5.``, ``Strategic Goal 6:``), 0 without
    one (a bare label with no words after it is no title's label)."""
    numbering = parse_numbering(text)
    if numbering is not None:
        return max(text.rfind(numbering.rest), 0) if numbering.rest else 0
    m = _LEAD_LABEL.match(text)
    return m.end() if m is not None else 0


def label_indent(row: Row) -> float:
    """Points from ``row``'s left edge to its title's words after an opening label (``lead_label``), 0
    without one: where a hanging continuation starts. Read from the characters' share of the row's width
    (rows keep no glyph positions): off by a few points in a proportional face."""
    cut = lead_label(row.text)
    if not cut or len(row.text) <= cut:
        return 0.0
    return (row.x1 - row.x0) * cut / len(row.text)


def wraps(first: Row, above: Row, row: Row) -> bool:
    """``row``, right under ``above``, goes on the title whose first row is ``first`` (the layout
    alone; what the words say is the caller's): in its type, at the title's line spacing (close under
    the row above; from a block of its own, no further below it than a wrapped line's leading, since
    two titles stacked flush left are a paragraph's gap apart, where a centred title block may set its
    lines apart: ``INTEL CORPORATION`` / ``2006 EQUITY INCENTIVE PLAN`` / ``RESTRICTED STOCK UNIT
    AGREEMENT``), and in its block, or starting at its left edge, hanging under the words after its label
    (``2.`` / ``Strategic Goal 6:``) or centred like it."""
    if not same_style(row, first) or row.y0 - above.y1 >= H.run_gap * first.size:
        return False
    centred = abs(row.x0 + row.x1 - first.x0 - first.x1) < H.centred_rows and abs(row.x0 - first.x0) > H.hang_left
    if row.block != above.block and row.y0 - above.y0 > H.wrap_pitch * first.size and not centred:
        return False
    if row.block == first.block or centred or abs(row.x0 + row.x1 - first.x0 - first.x1) < H.centred_rows:
        return True
    hang = max(float(H.hang_right), label_indent(first) + H.label_hang)
    return -H.hang_left <= row.x0 - first.x0 <= hang


def same_style(a: Row, b: Row) -> bool:
    """One type: size, weight, slant and typeface (a serif heading does not run on into sans-serif text;
    code lines between prose lines do not part them)."""
    return abs(a.size - b.size) < H.same_size and a.bold == b.bold and a.italic == b.italic \
        and (a.mono or b.mono or a.font == b.font or a.family == b.family)


def all_caps(text: str) -> bool:
    """At least two letters, all of them capitals (stops at the first small letter)."""
    letters = 0
    for c in text:
        if c.isalpha():
            if not c.isupper():
                return False
            letters += 1
    return letters >= 2
