"""Typographic headings: section starts read from the page itself when there is no outline.

A heading is a short run of lines that stands out from the body text (larger, or bold where the
body is not, or an all-caps numbered label), starts its block, and is neither page furniture
(running headers, page numbers), a table row, a figure label nor a caption. Its level comes from
numbering depth where the document numbers its sections (``1.2.3``, ``2.3.59.1.1``) and from the
rank of its style (size, weight, capitals, centring) otherwise. The body size is the most common
size by character count.

Body-size bold lines in a document that has larger heading styles are kept as *minor* headings:
run-in terms, definition lists and paragraph heads that a reader does not expect in a table of
contents, but that subdivision may still cut at.

Everything here works on ``doc.lines(i)``, which is the main cost; the rest is a few passes over
those lines, so the stage keeps the reader's pace.
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ...model import Line, Mark, Origin, Pos, SourceDoc
from ..furniture import furniture
from ..heuristics import HEURISTICS as H
from ..numbering import (
    LIST_LABEL,
    NUM_TOKEN,
    NUMBER_ONLY,
    Numbering,
    common_prefix,
    is_label,
    parse_numbering,
    spaced_label,
    strip_dates,
    strip_numbering,
)
from ..patterns import COMPANY_LINE, CONTENTS_WORD, LEADER_TAIL, PERIOD_LINE, is_page_number
from ..text import same_title
from ..toc.detect import listing_title, toc_like_pages

__all__ = ["Heading", "HeadingScan", "StyleKey", "scan_headings", "heading_marks", "to_marks", "toc_like_pages",
           "body_text_like", "code_like", "clean_title", "MAX_LEVEL"]

MAX_LEVEL = 6

StyleKey = tuple[float, bool, bool, bool, str]
"""(size, bold, all caps, centred, font family)."""

_MONO = ("mono", "courier", "cmtt", "consol", "menlo", "sfmono", "lmmono", "anonymous", "typewriter", "txtt",
         "sourcecode", "firacode")
"""Monospace font families by name (code listings; the PDF's own monospace flag is not carried by ``Line``)."""
_ITALIC = ("italic", "oblique", "cmti", "cmsl", "-it", "lmroman10-italic")
_NUMBER_WORD = re.compile(rf"^{NUM_TOKEN}\.?$", re.IGNORECASE)
_DATE_ONLY = re.compile(r"^\(?\s*[0-9]{1,2}[-/][0-9]{1,2}[-/][0-9]{2,4}\s*\)?$")
_NUMERIC_CELL = re.compile(r"^[\s$€£¥%()\-\u2013\u2014.,0-9]+$")
_CAPTION = re.compile(
    r"^(?:fig\.?|figure|table|tab\.|listing|chart|graph|plate|illustration|image|diagram|map)\s*"
    r"[0-9A-Z]{1,3}(?:[.\-\u2013][0-9]{1,3})*\s*[:.\-\u2013\u2014]",
    re.IGNORECASE,
)
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE_TEXT = re.compile(rf"^(?:{_MONTHS}\s+[0-9]{{1,2}},?\s+[0-9]{{4}}|[0-9]{{1,2}}\s+{_MONTHS}\s+[0-9]{{4}}|"
                        rf"{_MONTHS}\s+[0-9]{{4}})$", re.IGNORECASE)
_CONTINUED = re.compile(r"\(\s*cont(?:inued|'d|\.)?[^)]*\)|[-\u2013\u2014,]\s*continued\b|\bcontinued\s*$",
                        re.IGNORECASE)
_QUALIFIER = re.compile(r"\s*\((?=[^()]*(?:\b(?:unaudited|millions|thousands|billions|except|vs\.?)\b"
                        r"|\b(?:19|20)[0-9]{2}\b))[^()]*\)\s*$", re.IGNORECASE)
"""A trailing qualifier of a statement or table title: ``(unaudited; in millions, except per share data)``,
``(Second-Quarter 2023 vs. Second-Quarter 2022)``. The section is the title before it."""
_FOOTNOTE = re.compile(r"(?<=[a-z])[0-9]{1,2}(?=\s*(?:\(|$))|(?<=[A-Za-z])\((?:[0-9]{1,2}|[a-z])\)(?=\s|$)")
"""A footnote marker glued to a word: ``Earnings1``, ``EXPENSES(2)``, ``Volume(a)``."""
_DANGLING = re.compile(r"(?:[;,]|\b(?:and|or|nor|but|the|of|to|in|by|for|with|that|which))$", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"(?<![.\w])(?!(?i:inc|no|nos|co|corp|ltd|mr|ms|mrs|dr|st|jr|sr|vs)[.;])"
                             r"[\w)\u201d\"']+[.;] +[A-Z\u201c\"]")
_CODE = re.compile(r"^[\\@{\[\u27e8<]|[\u27e8\u27e9=@]")
"""An API entry, not a section: it opens with a TeX macro, a brace, bracket or angle bracket, holds
angle brackets, ``key=value`` or an e-mail address. Manuals set thousands of these in bold; a title
that merely names ``{aligned}`` or ``Function add()`` stays."""
_ELEMENT = re.compile(r"^<[A-Za-z_][\w.\-]*(?::[\w.\-]+)?>$")
"""One XML element's tag, ``<manifest:file-entry>``: a schema's specification titles a section with it."""
_WORD = re.compile(r"[^\W\d_]{3,}")
"""A heading holds at least one word of three letters (not display maths such as ``X Y``)."""


@dataclass(slots=True)
class _Row:
    """Lines of one block that share a baseline, joined."""

    text: str
    size: float
    bold: bool
    italic: bool
    mono: bool
    font: str
    x0: float
    y0: float
    x1: float
    y1: float
    char: int
    block: int
    first: int  # index of the first line in doc.lines(unit)
    members: list[int]  # indexes of every line joined into this row


@dataclass(slots=True)
class Heading:
    """One detected heading: where it starts, what it says and how it looks."""

    unit: int
    char: int
    title: str
    style: StyleKey
    numbering: Numbering | None
    y0: float
    x0: float
    rows: int
    level: int = 0
    label: str | None = None  # "Chapter One" printed on its own line above the title
    minor: bool = False
    suspect: bool = False  # sits where running titles sit
    lines: tuple[int, ...] = ()
    run_in: bool = False  # "4.1. Priority Trees." opening its paragraph
    page_title: bool = False  # a statement or table page's title under the registrant's name


@dataclass
class HeadingScan:
    """Headings of a document with the typography facts that produced them."""

    headings: list[Heading]
    body_size: float
    body_bold: bool
    toc_pages: set[int] = field(default_factory=set)
    furniture: set[tuple[int, int]] = field(default_factory=set)

    def major(self) -> list[Heading]:
        return [h for h in self.headings if not h.minor]


FONT_CACHE = 1024
"""Font names remembered by the style tests (a document uses tens; subset prefixes differ per file)."""


@functools.lru_cache(maxsize=FONT_CACHE)
def _is_mono(font: str) -> bool:
    f = font.casefold()
    return any(m in f for m in _MONO)


@functools.lru_cache(maxsize=FONT_CACHE)
def _is_italic(font: str) -> bool:
    f = font.casefold()
    return any(m in f for m in _ITALIC)


@functools.lru_cache(maxsize=FONT_CACHE)
def _family(font: str) -> str:
    """``TimesNewRoman-BoldItalic`` -> ``timesnewroman``; subset prefixes (``ABCDEF+``) dropped (now asked
    for rows of two fonts side by side too, so the answer is kept as the other font tests keep theirs)."""
    f = font.split("+", 1)[-1].casefold()
    f = re.split(r"[-,]", f, maxsplit=1)[0]
    f = re.sub(r"(bold|italic|oblique|regular|medium|light|black|semibold|mt|ps|psmt)+$", "", f)
    return re.sub(r"\d+$", "", f)


@dataclass
class _Body:
    size: float
    bold: bool
    left: float
    right: float
    family: str


def _body(doc: SourceDoc, pages: range, skip: set[tuple[int, int]]) -> _Body:
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
            if n > 40:
                lefts[int(line.x0)] += 1
                rights[int(line.x1)] += 1
    if not styles:
        return _Body(10.0, False, 72.0, 540.0, "")
    sizes, fams, bold = _tally(styles, all_fonts=True)
    total = sum(sizes.values())
    prose, prose_fams, prose_bold = _tally(styles, all_fonts=False)
    if sum(prose.values()) >= H.body_prose_share * total:
        sizes, fams, bold, total = prose, prose_fams, prose_bold, sum(prose.values())
    left = float(lefts.most_common(1)[0][0]) if lefts else 72.0
    right = float(rights.most_common(1)[0][0]) if rights else 540.0
    size = sizes.most_common(1)[0][0]
    # the body's typeface is the one its size is set in (a paper's serif text after pages of sans tables)
    at_size = Counter({font: n for (sz, font, _), n in styles.items() if sz == size and font in fams})
    font = (at_size or fams).most_common(1)[0][0]
    return _Body(size, bold > total * 0.5, left, max(right, left + 100), _family(font))


def _tally(styles: Counter[tuple[float, str, bool]], *, all_fonts: bool) -> tuple[Counter[float], Counter[str], int]:
    """Characters by size and by font, and bold characters, of every style (or of the prose ones, not
    monospace). A size or font comes first where its first line came first, as counting line by line
    would have it, so ties between equally common sizes fall the same way."""
    sizes: Counter[float] = Counter()
    fams: Counter[str] = Counter()
    bold = 0
    for (size, font, is_bold), n in styles.items():
        if all_fonts or not _is_mono(font):
            sizes[size] += n
            fams[font] += n
            bold += n if is_bold else 0
    return sizes, fams, bold


def _rows(lines: list[Line], skip: set[int]) -> list[_Row]:
    rows: list[_Row] = []
    for j, line in enumerate(lines):
        if j in skip or not line.text:
            continue
        italic = _is_italic(line.font)
        mono = _is_mono(line.font)
        if rows:
            r = rows[-1]
            same_row = r.block == line.block and abs(line.y0 - r.y0) < 0.4 * max(line.size, 1.0) \
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
        rows.append(_Row(line.text, line.size, line.bold, italic, mono, line.font, line.x0, line.y0, line.x1,
                         line.y1, line.char, line.block, j, [j]))
    return rows


def _same_style(a: _Row, b: _Row) -> bool:
    """One type: size, weight, slant and typeface (a serif heading does not run on into sans-serif text;
    code lines between prose lines do not part them)."""
    return abs(a.size - b.size) < 0.3 and a.bold == b.bold and a.italic == b.italic \
        and (a.mono or b.mono or a.font == b.font or _family(a.font) == _family(b.font))


def _caps(text: str) -> bool:
    """At least two letters, all of them capitals (stops at the first small letter)."""
    letters = 0
    for c in text:
        if c.isalpha():
            if not c.isupper():
                return False
            letters += 1
    return letters >= 2


def _beside(run: list[_Row], lines: list[Line], skip: set[int]) -> bool:
    """Other text at the same height: a table row (numeric cells) or a figure label (same style)."""
    row = run[0]
    own = {j for r in run for j in r.members}
    for r in run:
        cells = r.text.split("  ")
        if len(r.members) >= 3 or (len(cells) > 1 and any(_NUMERIC_CELL.match(c) and any(ch.isdigit() for ch in c)
                                                           for c in cells[1:])):
            return True  # column headers or a row of figures
        if len(r.members) == 2:
            a, b = sorted((lines[j] for j in r.members), key=lambda ln: ln.x0)
            if b.x0 - a.x1 > H.cell_gap * r.size:
                return True  # two column headers far apart (``Revenue`` ... ``Volume``)
    for j, line in enumerate(lines):
        if j in skip or j in own:
            continue
        if line.y0 < row.y1 - 1 and line.y1 > row.y0 + 1 and (line.x0 > row.x1 + H.beside_gap
                                                              or line.x1 < row.x0 - H.beside_gap):
            if line.size < H.figure_label * row.size:
                continue  # a diagram's labels in the next column, not a table's figures
            if _NUMERIC_CELL.match(line.text) and any(c.isdigit() for c in line.text):
                if line.x1 < row.x0 and NUMBER_ONLY.match(line.text):
                    continue  # a section number printed in its own column
                return True
            if abs(line.size - row.size) < 0.3 and line.bold == row.bold and len(line.text) > 1:
                return True
    return False


def _figures_row(row: _Row, lines: list[Line]) -> bool:
    """A table row: figures in cells after its label, joined into the row or beside it."""
    cells = row.text.split("  ")
    if any(_NUMERIC_CELL.match(c) and any(ch.isdigit() for ch in c) for c in cells[1:]):
        return True
    return any(line.y0 < row.y1 - 1 and line.y1 > row.y0 + 1 and line.x0 > row.x1 + H.beside_gap
               and _NUMERIC_CELL.match(line.text) and any(c.isdigit() for c in line.text) for line in lines)


def _in_table(run: list[_Row], prev: _Row | None, nxt: _Row | None, lines: list[Line], body: _Body) -> bool:
    """A group label inside a table (``GAAP`` / ``Non-GAAP`` above their rows of figures): one
    body-size row with table rows of figures (or the table's column headers of years) right above
    and right below it. A section heading is followed by its text, not by figures."""
    row = run[0]
    if len(run) > 1 or nxt is None or row.size >= body.size * H.larger:
        return False
    near = H.table_label_gap * row.size
    above = prev is not None and row.y0 - prev.y1 < near and _figures_row(prev, lines)
    return nxt.y0 - row.y1 < near and _figures_row(nxt, lines) and above


def body_text_like(text: str, *, heading_type: bool = False) -> bool:
    """A line of running text that merely looks prominent: it ends mid-sentence (``;``, ``,``,
    ``and``, ``of``), it is a numbered list item that reads as a sentence (``(iv) requires payment
    ...``, ``1.5 percent multiplied by ...``), or it holds a sentence break (``... Exhibit A. The
    eligible ...``) in a long line. Plan documents and agreements set such lines in their own body
    size, which a filing's smaller body size makes look like headings. A numbered line in
    ``heading_type`` (well above the body size) may open in lower case: ``5.1 draft | final``,
    ``3.4 table and figure environments`` name what they document."""
    t = " ".join(text.split()).rstrip()
    if not t:
        return False
    if _DANGLING.search(t):
        return True
    words = t.split()
    numbering = parse_numbering(t)
    if numbering is not None:
        rest = numbering.rest
    else:
        m = LIST_LABEL.match(t)
        rest = t[m.end():] if m else t
    rest_words = rest.split()
    if rest is not t and len(rest_words) >= 3 and rest_words[0][:1].islower() \
            and not (heading_type and numbering is not None):
        return True
    if numbering is None and _sentence(words):
        return True
    return len(words) >= 12 and bool(_SENTENCE_BREAK.search(rest))


def _sentence(words: list[str]) -> bool:
    """A whole sentence set apart (``Objects are typeset using the \\obj macro.``, a risk factor's
    ``Competition is increasing and could adversely affect us.``): it ends with a full stop and
    reads in lower case after its first word. A title ending in a stop is short (``Colors.``)."""
    if len(words) < H.sentence_words or not words[-1].endswith(".") or words[-1].endswith(".."):
        return False
    lower = sum(1 for w in words[1:] if w[:1].islower())
    return lower >= H.sentence_lower * (len(words) - 1)


def _heading_text(text: str, scale: float = 1.0) -> bool:
    """``text`` reads as a title; ``scale`` is its type size over the body size."""
    words = text.split()
    if not words or len(words) > H.max_words or len(text) > H.max_chars:
        return False
    if body_text_like(text, heading_type=scale >= H.named_head):
        return False
    core = re.sub(r"[\s.\-\u2013\u2014:()0-9]", "", text)
    letters = sum(c.isalpha() for c in core)
    if letters < 2 or letters < 0.5 * len(core):
        return False
    if text[-1] in ",;:" or (text.endswith(".") and len(words) > 9):
        return False
    if not _WORD.search(text) or code_like(text):
        return False
    if is_page_number(text) or (text[0] in "•●▪◦*–—-" and len(words) > 1):
        return False
    if _CAPTION.match(text) or _DATE_TEXT.match(text) or LEADER_TAIL.search(text) or _CONTINUED.search(text):
        return False
    return True


def clean_title(text: str) -> str:
    """A heading's title without glued footnote markers and a trailing qualifier (never emptied)."""
    out = _QUALIFIER.sub("", _FOOTNOTE.sub("", text)).strip()
    return out or text


def code_like(text: str) -> bool:
    """An API entry (``\\karnaughmap[<key=value>]{<entries>}``), not a section title."""
    numbering = parse_numbering(text)
    if numbering is not None and len(numbering.parts) >= 2 and numbering.rest.startswith("\\"):
        return bool(_CODE.search(numbering.rest[1:]))  # a numbered section named for a macro (``7.6.1 \\csn``)
    if numbering is not None and len(numbering.parts) >= 2 and _ELEMENT.match(numbering.rest):
        return False  # a numbered section named for the element it defines (``4.2 <manifest:manifest>``)
    return bool(_CODE.search(numbering.rest if numbering is not None and numbering.rest else text))


def _prominent(row: _Row, body: _Body) -> bool:
    if row.mono and row.size <= body.size + 0.5:
        return False
    if row.size < body.size - 0.3:
        return False
    if row.size >= body.size * H.larger:
        return True
    return row.bold and not body.bold


_is_label = is_label


def _runs_on(run: list[_Row], nxt: _Row | None) -> bool:
    """The sentence goes on: the next row, in the same block at line spacing, starts in lower case
    (a bold name at the end of a line, ``Acme Holdings`` / ``is our largest customer``)."""
    last = run[-1]
    if nxt is None or nxt.block != last.block or nxt.y0 - last.y1 > RUN_ON_GAP * last.size:
        return False
    first = nxt.text.lstrip()[:1]
    return first.isalpha() and first.islower()


RUN_ON_GAP = 0.45
"""At most this share of the font size between the rows of one paragraph."""


def _size_step(prev: _Row, row: _Row) -> bool:
    """A row in a larger type than the row above it and clear of it: when it is numbered it starts
    a section even inside the same text block (a note's title set tight under the previous note's
    last line: ``8. INVESTMENTS ...`` in 14 points 6 points under 10-point text). Unnumbered, such
    rows are as often a manual's display lines or table labels."""
    return row.size >= prev.size * H.larger and row.y0 >= prev.y1 and not row.mono


def _ends_block(prev: _Row, run: list[_Row], nxt: _Row | None) -> bool:
    """A larger run between two paragraphs in one type that closes the block of the one above, the
    one below opening a new block: a sub-section's title set tight under the previous paragraph
    (``COVID-19 Pandemic`` in 14 points 6 points under 10-point text). A display line or a table
    label in a manual runs on in its block; a title page's lines differ in size from each other.
    The row below may also be the title's own first sub-head, in a type between the text above and
    the title (``Investing Activities`` in 14 points over ``Fiscal Year 2020 versus 2019`` in 12, under
    10-point text): each step down a size smaller (a title page's stack grows, then shrinks below the
    line above it)."""
    if nxt is None or nxt.block == run[-1].block or nxt.y0 < run[-1].y1 or nxt.size * H.larger > run[-1].size:
        return False
    return abs(nxt.size - prev.size) <= H.tight_between or nxt.size >= prev.size * H.larger


def _centred_caps(run: list[_Row], numbering: Numbering | None, body: _Body) -> bool:
    """``1. INTRODUCTION`` centred on its own line in the body type (the AMS article style): a
    numbered section title in capitals, neither larger nor bold."""
    if numbering is None or numbering.kind != "decimal" or not numbering.rest or not _caps(numbering.rest):
        return False
    row = run[0]
    x1 = max(r.x1 for r in run)
    centre = (body.left + body.right) / 2.0
    return abs((row.x0 + x1) / 2.0 - centre) < CENTRED_TOLERANCE and row.x0 > body.left + 20 \
        and row.size >= body.size - 0.3 and not row.mono


def _numbered_apart(row: _Row, numbering: Numbering | None, body: _Body) -> bool:
    """A row opened by a dotted number of two parts or more and set apart from the text by its weight
    or its typeface is a heading even where its size or type alone would not make it one: a page
    printed from HTML sets its fourth to sixth heading levels bold and below the body size
    (``4.6.4.1. Stable, testing, and unstable``; a browser's ``h5`` is 0.83 of the text size, ``h6``
    0.67; ``Heuristics.small_heading``), a heading naming a program in code type is mostly monospace
    (``1.1.1. dpkg-dev``), and an office suite prints ``h3`` in its serif face at the size of its
    sans-serif text."""
    if numbering is None or numbering.kind != "decimal" or len(numbering.parts) < 2:
        return False
    if row.bold and not body.bold:
        return row.size >= body.size * H.small_heading
    # set apart by its typeface alone: a serif heading over sans-serif text, or the other way round
    return not row.mono and not row.italic and row.size >= body.size - 0.3 and _family(row.font) != body.family


CENTRED_TOLERANCE = 12.0
"""Points by which a centred line's middle may miss the text column's middle."""


_ABBREVIATIONS = ("vs", "cf", "etc", "resp", "approx", "No", "Fig", "Vol", "Dr", "St")
"""Words whose stop is not a sentence end (``Parsers vs. Lexers.`` is one run-in title)."""
_RUN_IN = re.compile(r"^(?P<title>[A-Z](?:[^.;:!?]|(?:" + "|".join(rf"(?<=\b{w})" for w in _ABBREVIATIONS)
                     + r")\.){2,80}?)" + "".join(rf"(?<!\b{w})" for w in _ABBREVIATIONS)
                     + r"\.\s+(?P<next>[A-Z(\\])")
_LEAD_DASHES = "\u2014\u2013-"
"""What separates a run-in head from its paragraph's text (an em dash, an en dash, a hyphen)."""


def _under_company(run: list[_Row], top: float, lines: list[Line]) -> bool:
    """The page's first rows are a title block under the registrant's name, in bold (``PepsiCo, Inc.
    and Subsidiaries`` over ``Consolidated Statement of Income``; the name may repeat atop every
    page, as furniture): a statement or table page's title, whatever its size (a release sets them
    in a smaller type than its text). The name is not part of the title."""
    if run[0].y0 > top + 1.0 or not (run[0].bold or _caps(run[0].text)):
        return False
    if len(run) >= 2 and COMPANY_LINE.search(run[0].text.strip()):
        return True
    for above in reversed(lines[:run[0].first]):  # the block's bold lines above, furniture on every such page
        if not (above.bold or _caps(above.text)):
            return False
        if COMPANY_LINE.search(above.text.strip()):
            return True
    return False


def _block_title(run: list[_Row], named: bool) -> list[_Row]:
    """The rows that name a page's title block (``_under_company``): not the registrant's name
    (``named``), not a continued title's row and those above it (``Reconciliation of GAAP and
    Non-GAAP Information (continued)`` over ``Year over Year Growth Rates``: the page's own title is
    the row under it), and nothing from the period or legend down (``Quarter and Year Ended
    December 31, 2022``, ``(unaudited)``). Empty on a page that only continues a statement."""
    out: list[_Row] = []
    for row in run[1 if named else 0:]:
        text = row.text.strip()
        if PERIOD_LINE.match(text):
            break
        out = [] if _CONTINUED.search(text) else [*out, row]
    return out


def _run_in(row: _Row) -> Numbering | None:
    """A run-in sub-section (the AMS style): ``4.1. Priority Trees. Note the ...`` opens a paragraph
    in the body type, a dotted section number, a short capitalised title and a full stop, the text
    running on. Returns the heading's numbering (its ``rest`` is the title alone)."""
    numbering = parse_numbering(row.text)
    if numbering is None or numbering.kind != "decimal" or len(numbering.parts) < 2 or not numbering.rest:
        return None
    m = _RUN_IN.match(numbering.rest)
    if m is None or len(m.group("title").split()) > H.run_in_words:
        return None
    return Numbering("decimal", numbering.depth, numbering.label, m.group("title"), numbering.parts)


def _run_in_heading(u: int, row: _Row, line: Line, body: _Body, numbering: Numbering | None) -> Heading | None:
    """A run-in heading opening the paragraph that starts at ``row`` (its first ``line``): numbered
    (``_run_in``) or set larger than the text running on (``_lead_head``)."""
    if numbering is None:
        return _lead_head(u, row, line, body)
    runin = _run_in(row) if len(numbering.parts) >= 2 else None
    if runin is None:
        return None
    style: StyleKey = (round(row.size * 2) / 2, row.bold, False, False, _family(row.font))
    title = row.text[:row.text.find(runin.rest) + len(runin.rest)]
    return Heading(u, row.char, title, style, runin, row.y0, row.x0, 1, lines=(row.first,), run_in=True)


def _lead_head(u: int, row: _Row, line: Line, body: _Body) -> Heading | None:
    """A run-in head set in a heading size at the start of a paragraph's first line, a dash
    between it and the text running on (``Europe — In March 2021, ...``: ``Europe`` in 12 points,
    the paragraph in 10). The reader keeps the leading span's length and size (``Line.lead``)."""
    if not line.lead or line.lead_size < body.size * H.larger:
        return None
    title, rest = line.text[:line.lead].strip(), line.text[line.lead:].lstrip()
    if not rest or rest[0] not in _LEAD_DASHES or not title[:1].isupper() \
            or len(title.split()) > H.run_in_words or not _heading_text(title):
        return None
    style: StyleKey = (round(line.lead_size * 2) / 2, row.bold, _caps(title), False, _family(row.font))
    return Heading(u, row.char, title, style, None, row.y0, row.x0, 1, lines=(row.first,), run_in=True)


def _keep_run_in_series(found: list[Heading]) -> list[Heading]:
    """Run-in headings are kept as a series: at least two under one numbered heading that was found
    on its own line (``4. COMMANDS`` over ``4.1. Priority Trees.``, ``4.2. Computations.``); a lone
    numbered sentence in a paragraph (``2.1. Install it. Then ...``) is running text. Unnumbered
    run-in heads in a larger type (``_lead_head``) are kept when at least two share a type that
    also prints headings on lines of their own: the type of a level of the document's outline."""
    own = {h.numbering.parts for h in found if h.numbering is not None and h.numbering.kind == "decimal"
           and not h.run_in}
    parents = Counter(h.numbering.parts[:-1] for h in found if h.run_in and h.numbering is not None)
    types = {(h.style[0], h.style[4]) for h in found if not h.run_in}
    leads = Counter((h.style[0], h.style[4]) for h in found if h.run_in and h.numbering is None)

    def kept(h: Heading) -> bool:
        if h.numbering is None:
            return leads[h.style[0], h.style[4]] >= H.run_in_series and (h.style[0], h.style[4]) in types
        return h.numbering.parts[:-1] in own and parents[h.numbering.parts[:-1]] >= H.run_in_series

    return [h for h in found if not h.run_in or kept(h)]


def _beside_next(row: _Row, nxt: _Row | None) -> bool:
    """A bare number in the body type labels the next row only on its baseline (a section number
    in its own column); above it, it is a figure's or a table's number (a Karnaugh map's cell
    index, a diagram's atom number), not the heading's label."""
    return nxt is not None and abs(nxt.y0 - row.y0) < H.same_baseline * max(row.size, nxt.size)


def _page_headings(u: int, rows: list[_Row], lines: list[Line], skip: set[int], body: _Body,
                   toc_page: bool) -> list[Heading]:
    out: list[Heading] = []
    i = 0
    n = len(rows)
    center = (body.left + body.right) / 2.0
    top = min((r.y0 for r in rows), default=0.0)  # the page's first row, wherever its text stream puts it
    label: tuple[str, int, float, bool] | None = None  # pending label: (text, char, y0, has number)
    after_label = False
    while i < n:
        row = rows[i]
        # a maximal run of same-style rows, close together, in one block or hanging under the first
        k = i + 1
        while k < n and _same_style(rows[k], row) and rows[k].y0 - rows[k - 1].y1 < 0.9 * row.size \
                and (rows[k].block == row.block or -2 <= rows[k].x0 - row.x0 <= 45
                     or abs(rows[k].x0 + rows[k].x1 - row.x0 - row.x1) < 30) \
                and parse_numbering(rows[k].text) is None and not _is_label(rows[k].text) \
                and not (_caps(row.text) and not _caps(rows[k].text)) \
                and not _DATE_ONLY.match(rows[k].text) and not lines[rows[k].first].lead \
                and not (toc_page and (listing_title(rows[k].text) or listing_title(row.text))):
            k += 1
        run = rows[i:k]
        titled = _under_company(run, top, lines)
        named = titled and len(run) > 1 and bool(COMPANY_LINE.search(row.text.strip()))
        title_rows = _block_title(run, named) if titled else run
        text = strip_dates(" ".join(r.text for r in title_rows))
        prev = rows[i - 1] if i else None
        starts_block = prev is None or prev.block != row.block or row.y0 - prev.y1 > 0.45 * row.size \
            or after_label or (_size_step(prev, row) and (parse_numbering(text) is not None
                                                           or row.size >= prev.size * H.tight_heading
                                                           or _ends_block(prev, run, rows[k] if k < n else None)))
        i = k
        if not text or _DATE_ONLY.match(" ".join(r.text for r in run).strip()):
            continue  # a revision date beside a section number: the label stays pending
        after_label = False
        if label is not None and not label[3] and _NUMBER_WORD.match(text):
            label = (f"{label[0]} {text}", label[1], label[2], True)
            after_label = True
            continue
        if _is_label(text) and (_prominent(row, body) or NUMBER_ONLY.match(text)
                                and _beside_next(row, rows[i] if i < n else None)):
            has_number = bool(NUMBER_ONLY.match(text)) or len(text.split()) > 1
            label = (text, run[0].char, run[0].y0, has_number)
            after_label = True
            continue
        max_rows = H.max_rows + (1 if row.size > body.size * 1.2 else 0)
        numbering = parse_numbering(text)
        prominent = _prominent(row, body) or (
            numbering is not None and numbering.kind in ("part", "item") and _caps(numbering.label)
            and row.size >= body.size - 0.3 and not row.mono) or _centred_caps(run, numbering, body) \
            or _numbered_apart(row, numbering, body) or titled
        ok = prominent and starts_block and len(title_rows) <= max_rows and _heading_text(text, row.size / body.size) \
            and not (row.italic and not row.bold and row.size <= body.size * 1.15) \
            and not _beside(run, lines, skip) and not _runs_on(run, rows[i] if i < n else None) \
            and not _in_table(run, prev, rows[i] if i < n else None, lines, body)
        if ok and toc_page and not (CONTENTS_WORD.search(text) and not out):
            ok = False
        if not ok:
            if label is not None and not _prominent(row, body):
                label = None
            runin = _run_in_heading(u, row, lines[row.first], body, numbering) \
                if starts_block and not toc_page else None
            if runin is not None:
                out.append(runin)
            continue
        char, y0, lab = run[0].char, run[0].y0, None
        if label is not None and y0 - label[2] < 8 * row.size:
            lab = spaced_label(label[0])
            char, y0 = label[1], label[2]
            text = f"{lab} {text}"
            numbering = parse_numbering(text) or numbering
        label = None
        x1 = max(r.x1 for r in run)
        centred = abs((run[0].x0 + x1) / 2.0 - center) < 12 and run[0].x0 > body.left + 20
        text = clean_title(text)  # capitals are the title's: ``HIGHLIGHTS (Second-Quarter 2023 ...)``
        style: StyleKey = (round(row.size * 2) / 2, row.bold, _caps(text), centred, _family(row.font))
        members = tuple(j for r in run for j in r.members)
        out.append(Heading(u, char, " ".join(text.split()), style, numbering, y0, run[0].x0, len(run), label=lab,
                           lines=members, page_title=titled))
    return out


def scan_headings(doc: SourceDoc, pages: range | None = None, *, skip_pages: set[int] | None = None) -> HeadingScan:
    """Find the headings of ``pages`` (default: all) and give each a level."""
    pages = pages if pages is not None else range(len(doc.units))
    furn, suspects = furniture(doc, pages)
    body = _body(doc, pages, furn)
    by_page: dict[int, set[int]] = defaultdict(set)
    for u, j in furn:
        by_page[u].add(j)
    tocs = toc_like_pages(doc, pages, furn) | (skip_pages or set())
    found: list[Heading] = []
    for u in pages:
        lines = doc.lines(u)
        if not lines:
            continue
        skip = by_page.get(u, set())
        rows = _rows(lines, skip)
        first = min((ln.char for j, ln in enumerate(lines) if j not in skip), default=0)
        for h in _page_headings(u, rows, lines, skip, body, u in tocs):
            h.suspect = any((u, j) in suspects for j in h.lines)
            if h.char <= first or h.page_title:
                h.char = 0  # only a running header above it (or a page's title block): the section owns the page
            found.append(h)
    found = _keep_run_in_series(_drop_running_titles(found))
    found = _drop_repeated(found, len(pages))
    _mark_version_runs(found)
    if pages.start == 0 and doc.units:
        _mark_title(found, len(doc.units[0].text), _median_chars(doc, pages), len(doc.units))
    _mark_minor(found, body, len(pages))
    _assign_levels(found)
    _page_titles_on_top(found)
    return HeadingScan(found, body.size, body.bold, tocs, furn)


def _median_chars(doc: SourceDoc, pages: range) -> int:
    """Characters on a typical page of ``pages``."""
    sizes = sorted(len(doc.units[u].text) for u in pages)
    return sizes[len(sizes) // 2] if sizes else 0


def _mark_title(found: list[Heading], cover_chars: int, typical_chars: int, pages: int) -> None:
    """The document's own title (``The nicematrix package``, ``METAPOST``) is not a section: the
    headings that open the document on its first page, unnumbered, in one size and one right under
    the other (a title set over several lines: ``A LaTeX package to attach`` / ``line numbers to
    paragraphs``), set larger than every other heading (``Heuristics.title_step``) but one in the back
    matter (``title_back_share``, ``title_back_rivals``: an index in a display size), with the
    author and date lines set right under them; or every heading of a first page that holds no more
    text than a title page (``Heuristics.title_page_chars``, and a small share of a typical page's: a
    short first section is no title page) and no numbered heading. They stay minor headings
    (subdivision may cut at them)."""
    major = [h for h in found if not h.minor]
    if len(major) < H.title_min_headings or major[0].unit != 0:
        return
    cover = [h for h in major if h.unit == 0]
    title_page = cover_chars <= min(H.title_page_chars, H.title_page_share * typical_chars)
    if title_page and all(h.numbering is None for h in cover) and len(cover) < len(major):
        for h in cover:
            h.minor = True
        return
    block = _title_block(cover)
    if not block or len(block) == len(major):
        return
    size, back = block[0].style[0], pages * (1 - H.title_back_share)
    rivals = [h for h in major[len(block):] if h.style[0] > size - H.title_step]
    if any(h.unit < back for h in rivals) or len(rivals) > H.title_back_rivals:
        return
    end = 0
    for h in block:
        h.minor = True
        end = h.char + len(h.title)
    for h in cover[len(block):]:  # the author and date lines set right under it, before any text
        if h.numbering is not None or h.char - end > H.title_block_chars:
            break
        h.minor = True
        end = h.char + len(h.title)


def _title_block(cover: list[Heading]) -> list[Heading]:
    """The unnumbered headings that open the first page in the first one's size, each set right under
    the last (at most ``Heuristics.max_rows`` of them): the lines of one title."""
    block: list[Heading] = []
    for h in cover[:H.max_rows]:
        if h.numbering is not None or (block and (h.style[0] != block[0].style[0]
                                                  or h.char - block[-1].char - len(block[-1].title)
                                                  > H.title_block_chars)):
            break
        block.append(h)
    return block


def _key(title: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", strip_numbering(title).casefold()).split())


def _drop_running_titles(found: list[Heading]) -> list[Heading]:
    """A heading-like line in a furniture slot that repeats another heading's title is a running title."""
    titles = {_key(h.title) for h in found if not h.suspect}
    return [h for h in found if not (h.suspect and _key(h.title) in titles)]


def _drop_repeated(found: list[Heading], pages: int) -> list[Heading]:
    """The same unnumbered title on many pages is a table or form header, not a section."""
    need = max(5, int(pages * H.repeat_share))
    seen: dict[str, set[int]] = defaultdict(set)
    for h in found:
        if h.numbering is None:
            seen[_key(h.title)].add(h.unit)
    return [h for h in found if h.numbering is not None or len(seen[_key(h.title)]) < need]


def _dotted(h: Heading) -> bool:
    return h.numbering is not None and h.numbering.kind in ("decimal", "exhibit", "section", "appendix", "chapter")


def _mark_minor(found: list[Heading], body: _Body, pages: int) -> None:
    """Body-size unnumbered bold lines are minor where larger heading styles exist (not a page's title
    under the registrant's name); in a document that numbers its sections, unnumbered lines in the
    style of numbered sub-sections are minor."""
    larger = {h.unit for h in found if h.style[0] >= body.size * H.larger}
    if len(larger) >= max(3, pages // 25):  # larger headings on many pages, not just a cover
        for h in found:
            if h.numbering is None and not h.style[2] and h.style[0] < body.size * H.larger and not h.page_title:
                h.minor = True
    major = [h for h in found if not h.minor]
    numbered = [h for h in major if _dotted(h)]
    if len(numbered) < 8:
        return
    # unnumbered headings smaller than every numbered one sit below the numbered levels
    smallest = min(h.style[0] for h in numbered)
    for h in major:
        if h.numbering is None and h.style[0] < smallest:
            h.minor = True
    major = [h for h in major if not h.minor]
    if len(numbered) < 0.6 * len(major):
        return
    top = max(h.style[0] for h in numbered)
    levels_by_style: dict[StyleKey, set[int]] = defaultdict(set)
    for h in numbered:
        nb = h.numbering
        assert nb is not None
        levels_by_style[h.style].add(len(nb.parts))
    for h in major:
        if h.numbering is not None or h.style[0] > top:
            continue
        depths = levels_by_style.get(h.style)
        if not depths or len(depths) > 1 or min(depths) > min(len(x.numbering.parts) for x in numbered
                                                             if x.numbering is not None):
            h.minor = True


_VERSION = re.compile(r"\d+(?:\.\d+)+[a-z]?|\d+")


def _mark_version_runs(found: list[Heading]) -> None:
    """A change history (``Changes between 6.12 and 6.13``, ``Version 4.0`` ... ``Version 4.17``):
    a run of same-style unnumbered headings that read alike but for their version numbers are
    entries of one list, not sections; they stay as minor headings (subdivision may cut at them)."""
    major = [h for h in found if not h.minor]
    start = 0
    for k in range(1, len(major) + 1):
        if k < len(major) and _version_like(major[start], major[k]):
            continue
        run = major[start:k]
        if len(run) >= H.version_run:
            for h in run:
                h.minor = True
        start = k


def _version_like(first: Heading, h: Heading) -> bool:
    if first.numbering is not None or h.numbering is not None or first.style != h.style:
        return False
    if not _VERSION.search(first.title) or not _VERSION.search(h.title):
        return False
    a, b = (_VERSION.sub("#", x.title.casefold()) for x in (first, h))
    return same_title(a, b)


def _prefix_of(numbers: list[tuple[str, ...]], k: int) -> tuple[str, ...]:
    heads = Counter(n[:k] for n in numbers if len(n) > k)
    return heads.most_common(1)[0][0] if heads else ()


def _assign_levels(found: list[Heading]) -> None:
    """Numbering depth where sections are numbered, else the rank of the heading's style."""
    major = [h for h in found if not h.minor]
    dotted = [h.numbering.parts for h in major
              if h.numbering is not None and h.numbering.kind in ("decimal", "exhibit")]
    prefix = common_prefix(dotted)
    shared = _prefix_of(dotted, prefix)
    # ``Part I`` headings over numbered chapters (``1.``, ``Chapter 2``) hold them: one level deeper
    # (a filing's Parts hold its Items, which the filing source places)
    kinds = Counter(h.numbering.kind for h in major if h.numbering is not None)
    below_parts = 1 if kinds["part"] >= 2 and not kinds["item"] \
        and kinds["decimal"] + kinds["chapter"] + kinds["appendix"] else 0
    num_level: dict[int, int] = {}
    for idx, h in enumerate(found):
        nb = h.numbering
        if nb is None:
            continue
        if nb.kind in ("decimal", "exhibit"):
            if prefix >= 2 and nb.parts[:prefix] != shared:
                h.minor = True  # "3.17.5.5.3" in a manual whose sections are all 2.3.59.x: a cross-reference
                continue
            num_level[idx] = max(1, len(nb.parts) - prefix) + below_parts
        elif nb.kind == "part":
            num_level[idx] = 1
        elif nb.kind in ("chapter", "article"):
            num_level[idx] = 1 + below_parts
        elif nb.kind in ("appendix", "section"):
            num_level[idx] = max(1, nb.depth) + below_parts
    per_style: dict[StyleKey, list[int]] = defaultdict(list)
    counts: Counter[StyleKey] = Counter()
    for idx, h in enumerate(found):
        if h.minor:
            continue
        counts[h.style] += 1
        if idx in num_level:
            per_style[h.style].append(num_level[idx])
    styles = sorted(counts, key=lambda s: (-s[0], not s[1], not s[2], not s[3]))
    style_level: dict[StyleKey, int] = {}
    prev = 0
    for s in styles:
        levels = per_style.get(s, [])
        if levels and len(levels) * 2 >= counts[s]:
            lvl = Counter(levels).most_common(1)[0][0]
        else:
            lvl = prev + 1
        lvl = min(lvl, MAX_LEVEL)
        style_level[s] = lvl
        prev = lvl
    deepest = max(style_level.values(), default=0)
    for idx, h in enumerate(found):
        if h.minor:
            h.level = min(MAX_LEVEL, deepest + 1)
        else:
            h.level = num_level.get(idx, style_level.get(h.style, 1))
    _nest_restarting_schemes(major)


_FIRST_VALUES = frozenset({"1", "A", "a", "I", "i"})
"""Where a numbering scheme starts counting: ``1.``, ``A.``, ``a)``, ``I.``, ``(i)``."""
_COUNTERS = ("decimal", "letter", "roman", "paren")
"""Schemes that count within their parent and start again under the next one (keywords such as
``Chapter`` or ``Part`` count through the whole document)."""


def _scheme(h: Heading) -> str | None:
    nb = h.numbering
    if nb is None or (nb.kind == "decimal" and len(nb.parts) > 1):
        return None  # ``2.1`` carries its parent's number: its depth already says where it sits
    return nb.kind


def _nest_restarting_schemes(major: list[Heading]) -> None:
    """A counting scheme that starts again from its first value right after each heading of another
    scheme sits one level under that scheme's headings: ``A. PURPOSE`` under ``CHAPTER 1 - INTRODUCTION``,
    ``1. CONFLICTS OF INTEREST`` under ``A. INITIAL REVIEW`` (by their numbers alone, ``1.`` would be
    a top-level section and take the chapter's place). Each counting scheme's parent is the scheme
    that precedes its restarts (``Heuristics.scheme_restarts``, ``scheme_restart_share``); a heading
    is nested only in a run that started under a parent heading (sections numbered ``1.`` before
    the first lettered appendix stay where they are)."""
    restarts: dict[str, Counter[str]] = defaultdict(Counter)
    seen: set[str] = set()
    for prev, h in zip([None, *major], major, strict=False):
        kind = _scheme(h)
        if kind not in _COUNTERS or h.numbering is None:
            continue
        if kind in seen and h.numbering.parts[0] in _FIRST_VALUES:
            restarts[kind][(_scheme(prev) or "") if prev is not None else ""] += 1
        seen.add(kind)
    parent: dict[str, str] = {}
    for kind, before in restarts.items():
        outer, n = before.most_common(1)[0]
        if outer and outer != kind and n >= H.scheme_restarts and n >= H.scheme_restart_share * before.total():
            parent[kind] = outer
    for _ in range(len(parent)):  # outer schemes first: a parent's level is final before its children's
        for kind, outer in parent.items():
            level = 0  # the level of the last heading of the parent scheme, 0 before the first one
            run = False  # the scheme's current run of numbers started under that heading
            for h in major:
                scheme = _scheme(h)
                if scheme == outer:
                    level, run = h.level, False
                elif scheme == kind and h.numbering is not None:
                    run = run or (level > 0 and h.numbering.parts[0] in _FIRST_VALUES)
                    if run:
                        h.level = min(MAX_LEVEL, level + 1)


def _page_titles_on_top(found: list[Heading]) -> None:
    """Statement and table pages titled under the registrant's name (``Heading.page_title``) are one
    series at the top level, however each page sets its title block (centred or not, 9 or 10 points):
    a release's ``Reconciliation of GAAP and Non-GAAP Information`` pages are not sub-sections of its
    ``Consolidated Balance Sheet`` page, nor of the last larger heading of the release's text."""
    top = min((h.level for h in found if not h.minor), default=1)
    for h in found:
        if h.page_title and not h.minor:
            h.level = top


def heading_marks(doc: SourceDoc, pages: range | None = None, *, skip_pages: set[int] | None = None,
                  base_level: int = 0, minor: bool = False) -> list[Mark]:
    """Marks for the headings of ``pages``; levels are offset by ``base_level``."""
    scan = scan_headings(doc, pages, skip_pages=skip_pages)
    return to_marks([h for h in scan.headings if minor or not h.minor], base_level=base_level)


def to_marks(headings: list[Heading], *, base_level: int = 0) -> list[Mark]:
    out: list[Mark] = []
    for h in headings:
        numbered = h.numbering is not None and h.numbering.kind in ("decimal", "exhibit")
        origin = Origin.numbering if numbered else Origin.heading
        conf = 0.8 if h.numbering is not None else (0.4 if h.minor else 0.6)
        out.append(Mark(title=h.title, level=h.level + base_level, pos=Pos(h.unit, h.char), origin=origin,
                        confidence=conf))
    return out


