"""Headings of one page: runs of rows in one type that stand out from the body and start their
block, with a label printed on its own line above the title (``Chapter One``), run-in heads
opening their paragraph, and a page's title block read by the caller's ``TitleBlock`` hook (the
filing package's: a statement page's title under the company's name)."""

from __future__ import annotations

import re

from ...model import Line
from ...text.numbering import NUM_TOKEN, NUMBER_ONLY, Numbering, is_label, parse_numbering, spaced_label, strip_dates
from ...text.patterns import CONTENTS_WORD
from ..heuristics import HEURISTICS as H
from ..toc.detect import listing_title
from .filters import clean_title, heading_text, in_table, runs_on, text_beside
from .model import Body, Heading, Row, StyleKey, TitleBlock
from .rows import all_caps, font_family, same_style

_NUMBER_WORD = re.compile(rf"^{NUM_TOKEN}\.?$", re.IGNORECASE)
_DATE_ONLY = re.compile(r"^\(?\s*[0-9]{1,2}[-/][0-9]{1,2}[-/][0-9]{2,4}\s*\)?$")


def _prominent(row: Row, body: Body) -> bool:
    if row.mono and row.size <= body.size + 0.5:
        return False
    if row.size < body.size - 0.3:
        return False
    if row.size >= body.size * H.larger:
        return True
    return row.bold and not body.bold


_is_label = is_label


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
    x1 = max(r.x1 for r in run)
    centre = (body.left + body.right) / 2.0
    return abs((row.x0 + x1) / 2.0 - centre) < CENTRED_TOLERANCE and row.x0 > body.left + 20 \
        and row.size >= body.size - 0.3 and not row.mono


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
    return not row.mono and not row.italic and row.size >= body.size - 0.3 and font_family(row.font) != body.family


CENTRED_TOLERANCE = 12.0
"""Points by which a centred line's middle may miss the text column's middle."""
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
    style: StyleKey = (round(row.size * 2) / 2, row.bold, False, False, font_family(row.font))
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
    style: StyleKey = (round(line.lead_size * 2) / 2, row.bold, all_caps(title), False, font_family(row.font))
    return Heading(u, row.char, title, style, None, row.y0, row.x0, 1, lines=(row.first,), run_in=True)


def _beside_next(row: Row, nxt: Row | None) -> bool:
    """A bare number in the body type labels the next row only on its baseline (a section number
    in its own column); above it, it is a figure's or a table's number (a Karnaugh map's cell
    index, a diagram's atom number), not the heading's label."""
    return nxt is not None and abs(nxt.y0 - row.y0) < H.same_baseline * max(row.size, nxt.size)


def page_headings(u: int, rows: list[Row], lines: list[Line], skip: set[int], body: Body,
                  toc_page: bool, title_block: TitleBlock | None = None) -> list[Heading]:
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
        while k < n and same_style(rows[k], row) and rows[k].y0 - rows[k - 1].y1 < 0.9 * row.size \
                and (rows[k].block == row.block or -2 <= rows[k].x0 - row.x0 <= 45
                     or abs(rows[k].x0 + rows[k].x1 - row.x0 - row.x1) < 30) \
                and parse_numbering(rows[k].text) is None and not _is_label(rows[k].text) \
                and not (all_caps(row.text) and not all_caps(rows[k].text)) \
                and not _DATE_ONLY.match(rows[k].text) and not lines[rows[k].first].lead \
                and not (toc_page and (listing_title(rows[k].text) or listing_title(row.text))):
            k += 1
        run = rows[i:k]
        block = title_block(run, top, lines) if title_block is not None else None
        titled = block is not None
        title_rows = block if block is not None else run
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
            numbering is not None and numbering.kind in ("part", "item") and all_caps(numbering.label)
            and row.size >= body.size - 0.3 and not row.mono) or _centred_caps(run, numbering, body) \
            or _numbered_apart(row, numbering, body) or titled
        ok = prominent and starts_block and len(title_rows) <= max_rows and heading_text(text, row.size / body.size) \
            and not (row.italic and not row.bold and row.size <= body.size * 1.15) \
            and not text_beside(run, lines, skip) and not runs_on(run, rows[i] if i < n else None) \
            and not in_table(run, prev, rows[i] if i < n else None, lines, body)
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
        style: StyleKey = (round(row.size * 2) / 2, row.bold, all_caps(text), centred, font_family(row.font))
        members = tuple(j for r in run for j in r.members)
        out.append(Heading(u, char, " ".join(text.split()), style, numbering, y0, run[0].x0, len(run), label=lab,
                           lines=members, page_title=titled))
    return out
