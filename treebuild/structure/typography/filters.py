"""What is not a heading though it stands out: running text (a sentence, a list item, a line cut
mid-sentence), captions, dates, code, a table's cells or labels, a bold name running on into its
paragraph; and, over the whole document, running titles and headers repeated page after page."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from ...model import Line
from ...text.numbering import LIST_LABEL, NUMBER_ONLY, parse_numbering, strip_numbering
from ...text.patterns import LEADER_TAIL, is_page_number
from ..heuristics import HEURISTICS as H
from .model import Body, Heading, Row

_NUMERIC_CELL = re.compile(r"^[\s$€£¥%()\-\u2013\u2014.,0-9]+$")
_CAPTION = re.compile(
    r"^(?:fig\.?|figure|table|tab\.|listing|chart|graph|plate|illustration|image|diagram|map)\s*"
    r"[0-9A-Z]{1,3}(?:[.\-\u2013][0-9]{1,3})*\s*[:.\-\u2013\u2014]",
    re.IGNORECASE,
)
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE_TEXT = re.compile(rf"^(?:{_MONTHS}\s+[0-9]{{1,2}},?\s+[0-9]{{4}}|[0-9]{{1,2}}\s+{_MONTHS}\s+[0-9]{{4}}|"
                        rf"{_MONTHS}\s+[0-9]{{4}})$", re.IGNORECASE)
CONTINUED = re.compile(r"\(\s*cont(?:inued|'d|\.)?[^)]*\)|[-\u2013\u2014,]\s*continued\b|\bcontinued\s*$",
                       re.IGNORECASE)
_QUALIFIER = re.compile(r"\s*(?:[-\u2013\u2014:,]\s*)?"
                        r"\((?=[^()]*(?:\b(?:unaudited|millions|thousands|billions|except|vs\.?)\b"
                        r"|\b(?:19|20)[0-9]{2}\b))[^()]*\)\s*$", re.IGNORECASE)
"""A trailing qualifier of a statement or table title: ``(unaudited; in millions, except per share data)``,
``(Second-Quarter 2023 vs. Second-Quarter 2022)``, with the dash before it (``NOTES TO ... - (UNAUDITED)``).
The section is the title before it."""
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
BULLETS = frozenset("•●▪◦■□➢►‣⁃∙·*–—-")
"""Glyphs that open a list item."""
_SYMBOL_FONT = ("\uf000", "\uf0ff")
"""Private-use code points where a symbol font's glyphs land (Symbol's and Wingdings' bullets: U+F0B7,
U+F0A7, U+F0D8)."""
_WORD = re.compile(r"[^\W\d_]{3,}")
"""A heading holds at least one word of three letters (not display maths such as ``X Y``)."""


def text_beside(run: list[Row], lines: list[Line], skip: set[int]) -> bool:
    """Other text at the same height: a table row (numeric cells) or a figure label (same style)."""
    row = run[0]
    own = {j for r in run for j in r.members}
    for r in run:
        cells = r.text.split("  ")
        if len(r.members) >= H.row_cells or (len(cells) > 1 and any(
                _NUMERIC_CELL.match(c) and any(ch.isdigit() for ch in c) for c in cells[1:])):
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
            if abs(line.size - row.size) < H.same_size and line.bold == row.bold and len(line.text) > 1:
                return True
    return False


def _figures_row(row: Row, lines: list[Line]) -> bool:
    """A table row: figures in cells after its label, joined into the row or beside it."""
    cells = row.text.split("  ")
    if any(_NUMERIC_CELL.match(c) and any(ch.isdigit() for ch in c) for c in cells[1:]):
        return True
    return any(line.y0 < row.y1 - 1 and line.y1 > row.y0 + 1 and line.x0 > row.x1 + H.beside_gap
               and _NUMERIC_CELL.match(line.text) and any(c.isdigit() for c in line.text) for line in lines)


def in_table(run: list[Row], prev: Row | None, nxt: Row | None, lines: list[Line], body: Body) -> bool:
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
    if rest is not t and len(rest_words) >= H.item_sentence_words and rest_words[0][:1].islower() \
            and not (heading_type and numbering is not None):
        return True
    if numbering is None and _sentence(words):
        return True
    return len(words) >= H.break_words and bool(_SENTENCE_BREAK.search(rest))


def _sentence(words: list[str]) -> bool:
    """A whole sentence set apart (``Objects are typeset using the \\obj macro.``, a risk factor's
    ``Competition is increasing and could adversely affect us.``): it ends with a full stop and
    reads in lower case after its first word. A title ending in a stop is short (``Colors.``)."""
    if len(words) < H.sentence_words or not words[-1].endswith(".") or words[-1].endswith(".."):
        return False
    lower = sum(1 for w in words[1:] if w[:1].islower())
    return lower >= H.sentence_lower * (len(words) - 1)


def heading_text(text: str, scale: float = 1.0) -> bool:
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
    if text[-1] in ",;:" or (text.endswith(".") and len(words) > H.stop_title_words):
        return False
    if not _WORD.search(text) or code_like(text):
        return False
    if is_page_number(text) or (len(words) > 1 and list_glyph(words[0])):
        return False
    if _CAPTION.match(text) or _DATE_TEXT.match(text) or LEADER_TAIL.search(text) or CONTINUED.search(text):
        return False
    return True


def list_glyph(token: str) -> bool:
    """``token`` is a list item's glyph: a bullet or a dash, a symbol font's glyph, or ``o`` (a second-level
    bullet set in a text face)."""
    if not token:
        return False
    if token == "o" or _SYMBOL_FONT[0] <= token[0] <= _SYMBOL_FONT[1]:
        return True
    return token[0] in BULLETS and (len(token) == 1 or token[0] == "•")


def bulleted(run: list[Row], lines: list[Line], skip: set[int]) -> bool:
    """The run is a list item's text: its row opens with a bullet (``• Centralization of ...``), or a bullet
    printed as a line of its own sits just left of it on its baseline (the typesetter set the glyph apart).
    A bold lead-in opening a bullet is no section title."""
    row = run[0]
    if list_glyph(row.text.split(maxsplit=1)[0] if row.text.split() else ""):
        return True
    own = set(row.members)
    for j, line in enumerate(lines):
        if j in skip or j in own or not list_glyph(line.text.strip()) or len(line.text.strip()) > 1:
            continue
        if line.x1 <= row.x0 + 1 and row.x0 - line.x1 < H.bullet_gap * row.size \
                and abs(line.y0 + line.y1 - row.y0 - row.y1) < max(row.size, 1.0):  # middles within half a size
            return True
    return False


def qualifier_row(text: str) -> bool:
    """A row that only qualifies the title above it: ``(unaudited)``, ``(in millions, except per share
    data)``; no heading of its own (``clean_title`` drops it from a title's end)."""
    m = _QUALIFIER.match(text)
    return m is not None and m.end() == len(text)


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


def runs_on(run: list[Row], nxt: Row | None) -> bool:
    """The sentence goes on: the next row, in the same block at line spacing, starts in lower case
    (a bold name at the end of a line, ``Acme Holdings`` / ``is our largest customer``)."""
    last = run[-1]
    if nxt is None or nxt.block != last.block or nxt.y0 - last.y1 > H.line_gap * last.size:
        return False
    first = nxt.text.lstrip()[:1]
    return first.isalpha() and first.islower()


def keep_run_in_series(found: list[Heading]) -> list[Heading]:
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


def _key(title: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", strip_numbering(title).casefold()).split())


def drop_running_titles(found: list[Heading]) -> list[Heading]:
    """A heading-like line in a furniture slot that repeats another heading's title is a running title."""
    titles = {_key(h.title) for h in found if not h.suspect}
    return [h for h in found if not (h.suspect and _key(h.title) in titles)]


def drop_repeated(found: list[Heading], pages: int) -> list[Heading]:
    """The same unnumbered title on many pages is a table or form header, not a section."""
    need = max(H.repeat_pages, int(pages * H.repeat_share))
    seen: dict[str, set[int]] = defaultdict(set)
    for h in found:
        if h.numbering is None:
            seen[_key(h.title)].add(h.unit)
    return [h for h in found if h.numbering is not None or len(seen[_key(h.title)]) < need]


def page_title_series(found: list[Heading]) -> list[Heading]:
    """Page titles (``Heading.page_title``) as a series of tables: a page whose title block repeats the
    title and period of the page title before it, no other heading between them, continues that
    section (``NOTES TO CONSOLIDATED STATEMENTS OF INCOME`` atop two pages of notes; ``Consolidated
    Statement of Cash Flows (continued)``), where one that differs in either starts its own (two
    tables of ``Certain Line Items``, for the quarters and for the years); pages that share a title but
    not a period are titled with their period as well, which is what tells them apart
    (``Operating Profit by Division, Quarters Ended December 31, 2022 ...``)."""
    out: list[Heading] = []
    for h in found:
        prev = out[-1] if out else None
        if h.page_title and prev is not None and prev.page_title and prev.unit < h.unit \
                and _key(prev.title) == _key(h.title) and _key(prev.period) == _key(h.period):
            continue
        out.append(h)
    periods: dict[str, set[str]] = defaultdict(set)
    for h in out:
        if h.page_title:
            periods[_key(h.title)].add(_key(h.period))
    for h in out:
        if h.page_title and h.period and len(periods[_key(h.title)]) > 1:
            h.title = f"{h.title}, {h.period}"
    return out
