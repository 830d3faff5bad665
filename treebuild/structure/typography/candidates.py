"""Headings of one page: runs of rows in one type that stand out from the body and start their
block, with a label printed on its own line above the title (``Chapter One``), run-in heads
opening their paragraph, and a page's title block read by the caller's ``TitleBlock`` hook (the
filing package's: a statement page's title under the company's name)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ...model import Line
from ...text.numbering import NUM_TOKEN, NUMBER_ONLY, Numbering, is_label, parse_numbering, spaced_label, strip_dates
from ...text.patterns import CONTENTS_WORD
from ..heuristics import HEURISTICS as H
from ..toc.detect import listing_title
from .filters import bulleted, clean_title, heading_text, in_table, qualifier_row, runs_on, text_beside
from .model import Body, Heading, Row, StyleKey, TitleBlock
from .rows import all_caps, lead_label, same_style, wraps

_NUMBER_WORD = re.compile(rf"^{NUM_TOKEN}\.?$", re.IGNORECASE)
_DATE_ONLY = re.compile(r"^\(?\s*[0-9]{1,2}[-/][0-9]{1,2}[-/][0-9]{2,4}\s*\)?$")


def _prominent(row: Row, body: Body) -> bool:
    """Larger than the body (a monospace row clearly so), or bold over a body that is not."""
    if row.mono and row.size <= body.size + H.mono_step:
        return False
    if row.size < body.size - H.same_size:
        return False
    if row.size >= body.size * H.larger:
        return True
    return row.bold and not body.bold



def _size_step(prev: Row, row: Row) -> bool:
    """A row in a larger type than the row above it and clear of it: when it is numbered it starts
    a section even inside the same text block (a note's title set tight under the previous note's
    last line: ``8. INVESTMENTS ...`` in 14 points 6 points under 10-point text). Unnumbered, such
    rows are as often a manual's display lines or table labels."""
    return row.size >= prev.size * H.larger and row.y0 >= prev.y1 and not row.mono


def _ends_block(prev: Row, run: list[Row], nxt: Row | None) -> bool:
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


def _centred_caps(run: list[Row], numbering: Numbering | None, body: Body) -> bool:
    """``1. INTRODUCTION`` centred on its own line in the body type (the AMS article style): a
    numbered section title in capitals, neither larger nor bold."""
    if numbering is None or numbering.kind != "decimal" or not numbering.rest or not all_caps(numbering.rest):
        return False
    row = run[0]
    return _centred(run, body) and row.size >= body.size - H.same_size and not row.mono


def _centred(run: list[Row], body: Body) -> bool:
    """The run's middle is the text column's (``CENTRED_TOLERANCE``) and it does not start at the margin."""
    x1 = max(r.x1 for r in run)
    centre = (body.left + body.right) / 2.0
    return abs((run[0].x0 + x1) / 2.0 - centre) < CENTRED_TOLERANCE and run[0].x0 > body.left + H.centred_indent


def _numbered_apart(row: Row, numbering: Numbering | None, body: Body) -> bool:
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
    return not row.mono and not row.italic and row.size >= body.size - H.same_size \
        and row.family != body.family


CENTRED_TOLERANCE = 12.0
"""Points by which a centred line's middle may miss the text column's middle."""
TEXT_SHARE = 0.6
"""A paragraph's first row runs across at least this share of the text column."""
COLON_HEAD_WORDS = 4
"""A page-opening bold head ending in a colon has at least this many words (``Example:`` and ``Note:``
lead into what follows)."""
CELLS_BELOW = 4.0
"""A table's column headers sit within this many of its group header's type size under it."""
_ABBREVIATIONS = ("vs", "cf", "etc", "resp", "approx", "No", "Fig", "Vol", "Dr", "St")
"""Words whose stop is not a sentence end (``Parsers vs. Lexers.`` is one run-in title)."""
_RUN_IN = re.compile(r"^(?P<title>[A-Z](?:[^.;:!?]|(?:" + "|".join(rf"(?<=\b{w})" for w in _ABBREVIATIONS)
                     + r")\.){2,80}?)" + "".join(rf"(?<!\b{w})" for w in _ABBREVIATIONS)
                     + r"\.\s+(?P<next>[A-Z(\\])")
_LEAD_DASHES = "\u2014\u2013-"
"""What separates a run-in head from its paragraph's text (an em dash, an en dash, a hyphen)."""


def _run_in(row: Row) -> Numbering | None:
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


def _run_in_heading(u: int, row: Row, line: Line, body: Body, numbering: Numbering | None) -> Heading | None:
    """A run-in heading opening the paragraph that starts at ``row`` (its first ``line``): numbered
    (``_run_in``) or set larger than the text running on (``_lead_head``)."""
    if numbering is None:
        return _lead_head(u, row, line, body)
    runin = _run_in(row) if len(numbering.parts) >= 2 else None
    if runin is None:
        return None
    style: StyleKey = (round(row.size * 2) / 2, row.bold, False, False, row.family)
    title = row.text[:row.text.find(runin.rest) + len(runin.rest)]
    return Heading(u, row.char, title, style, runin, row.y0, row.x0, 1, lines=(row.first,), run_in=True)


def _lead_head(u: int, row: Row, line: Line, body: Body) -> Heading | None:
    """A run-in head set in a heading size at the start of a paragraph's first line, a dash
    between it and the text running on (``Europe — In March 2021, ...``: ``Europe`` in 12 points,
    the paragraph in 10). The reader keeps the leading span's length and size (``Line.lead``)."""
    if not line.lead or line.lead_size < body.size * H.larger:
        return None
    title, rest = line.text[:line.lead].strip(), line.text[line.lead:].lstrip()
    if not rest or rest[0] not in _LEAD_DASHES or not title[:1].isupper() \
            or len(title.split()) > H.run_in_words or not heading_text(title):
        return None
    style: StyleKey = (round(line.lead_size * 2) / 2, row.bold, all_caps(title), False, row.family)
    return Heading(u, row.char, title, style, None, row.y0, row.x0, 1, lines=(row.first,), run_in=True)


def _beside_next(row: Row, nxt: Row | None) -> bool:
    """A bare number in the body type labels the next row only on its baseline (a section number
    in its own column); above it, it is a figure's or a table's number (a Karnaugh map's cell
    index, a diagram's atom number), not the heading's label."""
    return nxt is not None and abs(nxt.y0 - row.y0) < H.same_baseline * max(row.size, nxt.size)


@dataclass(slots=True)
class _Label:
    """A label printed on its own line above its title (``Chapter One``, a bare ``4.2``), pending."""

    text: str
    char: int
    y0: float
    numbered: bool  # holds its number already (``Chapter`` alone waits for ``One`` on the next row)
    run: _Run | None = None  # the label's own run (a heading of its own over a title with its own label)


@dataclass(slots=True)
class _Run:
    """A run of rows in one type that may be a heading, with its neighbours and what it would be titled."""

    rows: list[Row]
    prev: Row | None  # the row above the run
    nxt: Row | None  # the row below it
    title_rows: list[Row]  # the rows that name it (a title block's, without the company's name)
    text: str
    titled: bool  # a page's title block (the ``TitleBlock`` hook's)
    block_start: int | None  # where that block starts when headings of its page sit above it (``PageTitle.start``)
    starts_block: bool
    period: str = ""  # the title block's period line (``PageTitle.period``)


def page_headings(u: int, rows: list[Row], lines: list[Line], skip: set[int], body: Body,
                  toc_page: bool, title_block: TitleBlock | None = None) -> list[Heading]:
    """The headings of page ``u``: each run of rows in one type (``_run_end``) that starts its block and
    stands out (``_accepted``), with the label printed above it; a run-in head opening a paragraph."""
    out: list[Heading] = []
    top = min((r.y0 for r in rows), default=0.0)  # the page's first row, wherever its text stream puts it
    label: _Label | None = None
    after_label = False
    head_above: Row | None = None  # the last row of the heading right above, when the run before was one
    i = 0
    while i < len(rows):
        k = _run_end(rows, i, lines, toc_page)
        run = _make_run(rows, i, k, top, lines, title_block, after_label or _stacked(head_above, rows[i]))
        head_above = None
        i = k
        row, text = run.rows[0], run.text
        if not text or _DATE_ONLY.match(" ".join(r.text for r in run.rows).strip()):
            continue  # a revision date beside a section number: the label stays pending
        after_label = False
        if label is not None and not label.numbered and _NUMBER_WORD.match(text):
            label = _Label(f"{label.text} {text}", label.char, label.y0, True, label.run)
            after_label = True
            continue
        if _starts_label(row, text, body, run.nxt):
            label = _Label(text, row.char, row.y0, bool(NUMBER_ONLY.match(text)) or len(text.split()) > 1, run)
            after_label = True
            continue
        numbering = parse_numbering(text)
        listing = toc_page and not (CONTENTS_WORD.search(text) and not out)  # a TOC page: only its title
        if listing or not _accepted(run, numbering, lines, skip, body):
            if label is not None and not _prominent(row, body):
                label = None
            runin = _run_in_heading(u, row, lines[row.first], body, numbering) \
                if run.starts_block and not toc_page else None
            if runin is not None:
                out.append(runin)
            continue
        if label is not None and label.run is not None and _labels_itself(label.text, numbering):
            out.append(_heading(u, label.run, parse_numbering(label.text), None, body))
            label = None
        h = _heading(u, run, numbering, label, body)
        h.minor = _over_columns(run, numbering, body, lines)  # a row over a table's columns is no section
        h.page_text = not _stands_out(run, numbering, body)  # a section only where page breaks set it apart
        out.append(h)
        head_above = run.rows[-1]
        label = None
    return out


_OWN_LABELS = frozenset({"part", "chapter", "appendix"})
"""Kinds of a label on its own line that head sections of their own when the title under them has its own
label (``PART II`` over ``Item 5. Market ...``); over an unlabelled title (``Chapter One`` over
``Introduction``) the label opens that title."""


def _labels_itself(label: str, numbering: Numbering | None) -> bool:
    """The label above is a heading of its own, not the opening of the title under it: a Part, Chapter or
    Appendix label over a title of another kind of label."""
    own = parse_numbering(label)
    return own is not None and own.kind in _OWN_LABELS and numbering is not None and numbering.kind != own.kind


def _stacked(head_above: Row | None, row: Row) -> bool:
    """``row`` opens a heading of its own right under the heading above (``Strategic Goal 6: ...`` under
    ``Strategic Goal 5: ...`` at single spacing, one block): in its type and opened by its own label,
    which ended the run above (``_continues``). It starts a section as a row opening its block does."""
    return head_above is not None and same_style(row, head_above) and lead_label(row.text) > 0


def _run_end(rows: list[Row], i: int, lines: list[Line], toc_page: bool) -> int:
    """Where the run of rows from ``i`` ends (exclusive): a maximal run of same-style rows, close
    together, in one block or hanging under the first."""
    k = i + 1
    while k < len(rows) and _continues(rows[i], rows[k - 1], rows[k], lines, toc_page):
        k += 1
    return k


def _continues(first: Row, above: Row, row: Row, lines: list[Line], toc_page: bool) -> bool:
    """``row`` (under ``above``) goes on the run that ``first`` opens: its type, at line spacing, in its
    block or under it (a hanging indent, or centred like it); not a numbered or labelled row (``Strategic
    Goal 6: ...`` under ``Strategic Goal 5: ...``), a label, a date, a run-in head, a small-letter row
    under capitals, nor a contents listing's title on a TOC page."""
    if not wraps(first, above, row):
        return False
    if parse_numbering(row.text) is not None or is_label(row.text) or lead_label(row.text):
        return False
    if (all_caps(first.text) and not all_caps(row.text)) or _DATE_ONLY.match(row.text) or lines[row.first].lead:
        return False
    return not (toc_page and (listing_title(row.text) or listing_title(first.text)))


def _make_run(rows: list[Row], i: int, k: int, top: float, lines: list[Line], title_block: TitleBlock | None,
              after_label: bool) -> _Run:
    """The run ``rows[i:k]`` with its neighbours, its title (a title block's rows when ``title_block``
    reads one at the page's ``top``) and whether it starts a block (right after a label, or stacked under
    a heading in its type with a label of its own, it does)."""
    run = rows[i:k]
    block = title_block(run, top, lines) if title_block is not None else None
    title_rows = block.rows if block is not None else run
    text = strip_dates(" ".join(r.text for r in title_rows))
    prev, nxt = (rows[i - 1] if i else None), (rows[k] if k < len(rows) else None)
    if prev is None and block is None and _opening_colon(run, text):
        text = text[:-1].rstrip()
    starts = after_label or _starts_block(prev, run, nxt, text)
    return _Run(run, prev, nxt, title_rows, text, block is not None, block.start if block is not None else None,
                starts, block.period if block is not None else "")


def _opening_colon(run: list[Row], text: str) -> bool:
    """A bold head opening its page that ends in a colon, introducing the heads under it (``Discussion of
    Fourth-Quarter Reported Division Results:`` atop a page, each division's results under it): a title,
    the colon dropped. Elsewhere a line ending in a colon leads into the text or list under it."""
    return text.endswith(":") and all(r.bold for r in run) and len(text.split()) >= COLON_HEAD_WORDS


def _starts_block(prev: Row | None, run: list[Row], nxt: Row | None, text: str) -> bool:
    """The run opens its block, sits a paragraph's gap below the row above, or steps up in size from
    it (``_size_step``) where it is numbered, clearly larger or closes the block above (``_ends_block``)."""
    row = run[0]
    if prev is None or prev.block != row.block or row.y0 - prev.y1 > H.line_gap * row.size:
        return True
    return _size_step(prev, row) and (parse_numbering(text) is not None or row.size >= prev.size * H.tight_heading
                                      or _ends_block(prev, run, nxt))


def _starts_label(row: Row, text: str, body: Body, nxt: Row | None) -> bool:
    """``text`` is a label on its own line (``Chapter One``, ``Appendix B``) in a prominent type, or a
    bare section number beside its title's baseline (``_beside_next``)."""
    return is_label(text) and (_prominent(row, body) or bool(NUMBER_ONLY.match(text)) and _beside_next(row, nxt))


def _accepted(run: _Run, numbering: Numbering | None, lines: list[Line], skip: set[int], body: Body) -> bool:
    """The run is a heading: it stands out (``_stands_out``) and starts its block; it is short enough
    (``Heuristics.max_rows``, one row more in a display size) and reads as a title, not only a title's
    qualifier (``(unaudited)``); it is not an
    italic phrase at about the body size, nor a table's row or label, nor a list item's lead-in, nor a
    name running on into text."""
    row = run.rows[0]
    if not ((_stands_out(run, numbering, body) or _heads_page_text(run, body)) and run.starts_block):
        return False
    if qualifier_row(run.text):
        return False  # ``(unaudited)`` under a statement's or the notes' title qualifies it, names nothing
    max_rows = H.max_rows + (1 if row.size > body.size * H.display_size else 0)
    if len(run.title_rows) > max_rows or not heading_text(run.text, row.size / body.size):
        return False
    if row.italic and not row.bold and row.size <= body.size * H.italic_heading:
        return False
    return not text_beside(run.rows, lines, skip) and not runs_on(run.rows, run.nxt) \
        and not in_table(run.rows, run.prev, run.nxt, lines, body) and not bulleted(run.rows, lines, skip)


def _over_columns(run: _Run, numbering: Numbering | None, body: Body, lines: list[Line]) -> bool:
    """An unnumbered row set over a table's right-hand columns (``Operating Profit and EPS`` spanning the
    columns of the figures under it, its row labels to the left): it starts right of the text column's
    middle, under other text of its page (a slide's title sits there atop its page), and right under it
    at least two cells share a line inside its width (the columns' own headers). A right-hand column's
    heading has one line of its column's text under it. Such a row is a minor heading: no section,
    though its type still tells the document's heading types apart (``mark_minor``)."""
    if numbering is not None or run.titled or run.prev is None:
        return False
    x0, x1 = run.rows[0].x0, max(r.x1 for r in run.rows)
    if x0 <= (body.left + body.right) / 2.0 or _centred(run.rows, body):
        return False
    y1, size = run.rows[-1].y1, run.rows[-1].size
    under: Counter[int] = Counter()
    for ln in lines:
        if y1 - 1.0 <= ln.y0 <= y1 + CELLS_BELOW * size and ln.x0 >= x0 - CENTRED_TOLERANCE \
                and ln.x1 <= x1 + CENTRED_TOLERANCE and ln.text.strip():
            under[round(ln.y0)] += 1
    return any(n >= 2 for n in under.values())


def _stands_out(run: _Run, numbering: Numbering | None, body: Body) -> bool:
    """Larger or bolder than the body (``_prominent``), a Part or Item label in capitals at the body size,
    a centred numbered title in capitals, a dotted number set apart, or a page's title block."""
    row = run.rows[0]
    if _prominent(row, body):
        return True
    if numbering is not None and numbering.kind in ("part", "item") and all_caps(numbering.label) \
            and row.size >= body.size - H.same_size and not row.mono:
        return True
    return _centred_caps(run.rows, numbering, body) or _numbered_apart(row, numbering, body) or run.titled


def _heads_page_text(run: _Run, body: Body) -> bool:
    """A bold row opening its page over that page's own text, set in its size and not bold: a release's
    back pages (``Cautionary Statement`` in 10-point bold over 10-point paragraphs, the release's text
    in 11) set their headings in their own text's size. The row under it runs across the text column
    (a paragraph, not a table's cells). Such a heading (``Heading.page_text``) is kept only where page
    breaks set its look apart (``levels.mark_minor``): a 10-Q's notes set in a type smaller than its text
    are read as notes."""
    row, nxt = run.rows[0], run.nxt
    if run.prev is not None or nxt is None or not row.bold or body.bold or row.mono \
            or row.size < body.size * H.small_heading:
        return False
    return not nxt.bold and abs(nxt.size - row.size) < H.same_size \
        and nxt.x1 - nxt.x0 >= TEXT_SHARE * (body.right - body.left)


def _heading(u: int, run: _Run, numbering: Numbering | None, label: _Label | None, body: Body) -> Heading:
    """The heading of an accepted run, opened by the ``label`` printed close above it (``Chapter One``
    over ``Introduction`` is titled ``Chapter One Introduction`` and starts at the label); a page's
    title block set under other headings of its page starts where the block does (the company's name)."""
    row, text = run.rows[0], run.text
    char, y0, lab = (row.char if run.block_start is None else run.block_start), row.y0, None
    if label is not None and y0 - label.y0 < H.label_gap * row.size:
        lab = spaced_label(label.text)
        char, y0 = label.char, label.y0
        text = f"{lab} {text}"
        numbering = parse_numbering(text) or numbering
    text = clean_title(text)  # capitals are the title's: ``HIGHLIGHTS (Second-Quarter 2023 ...)``
    style: StyleKey = (round(row.size * 2) / 2, row.bold, all_caps(text), _centred(run.rows, body),
                       row.family)
    members = tuple(j for r in run.rows for j in r.members)
    return Heading(u, char, " ".join(text.split()), style, numbering, y0, row.x0, len(run.rows), label=lab,
                   lines=members, page_title=run.titled, mid_page=run.block_start is not None, period=run.period)
