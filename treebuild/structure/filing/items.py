"""SEC filings (10-K, 10-Q): ``PART I`` .. ``PART IV`` and ``Item 1.``, ``Item 1A.``, ``Item 7A.`` ...

The form prescribes these headings, so they are recognised by pattern on the body pages rather
than by typography alone: Parts are level 1, Items level 2. Only lines that open a block count,
so a cross reference in running text ("see Item 7") never does, and pages that list the Items
(the printed TOC, a cross-reference index) are skipped. Each Part and each Item of a Part is kept
once, in form order: an out-of-order repeat is a quotation, not a section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...model import Line, Mark, SourceDoc
from ...text.numbering import Numbering, parse_numbering
from ...text.patterns import roman_value
from ..heuristics import HEURISTICS as H

__all__ = ["form_label", "SecHeading", "sec_headings", "is_filing", "cover_page", "item_order", "PART_LEVEL",
           "ITEM_LEVEL", "END_TITLES", "COVER_PARTS", "auditor_report_line", "split_part_items"]

PART_LEVEL = 1
ITEM_LEVEL = 2
END_TITLES = re.compile(r"^(?:signatures?|exhibit index|index to exhibits|power of attorney)\.?$", re.IGNORECASE)
"""Sections the form places after the last Part: top level, not inside Item 16."""

_FORM_NUMBERS = {"part": re.compile(r"^(?:iv|iii|ii|i|[1-4])$", re.IGNORECASE),
                 "item": re.compile(r"^[0-9]{1,2}[a-c]?(?:\([a-z0-9]\))?$", re.IGNORECASE),
                 "schedule": re.compile(r"^[ivx]{1,5}$", re.IGNORECASE)}
"""The numbers the forms give their Parts (I to IV), Items (``1``, ``1A``, ``7A``, ``9C``, ``1(a)``) and
Regulation S-X schedules (``Schedule II``; an agreement's ``Schedule 1.1`` or ``Schedule A`` is no form's)."""
_REST_LEAD = "-\u2013\u2014:. "
"""Separator characters left before a title after the label (``PART I.\u2014FINANCIAL``)."""


def form_label(text: str, kind: str) -> Numbering | None:
    """``text`` opens with a Part (``kind="part"``), Item (``"item"``) or schedule label of a filing form, read by
    :func:`parse_numbering` as a TOC entry (whether the rest is a title is the caller's test); ``rest``
    without a separator left before the title."""
    n = parse_numbering(text, entry=True)
    if n is None or n.kind != kind or not n.label.lower().startswith(kind) or len(n.parts) != 1 \
            or not _FORM_NUMBERS[kind].match(n.parts[0]):
        return None
    return n if n.rest[:1] not in _REST_LEAD else replace(n, rest=n.rest.lstrip(_REST_LEAD))


def _head(text: str, n: Numbering) -> str:
    """The label as printed at the start of ``text`` (without the title after it)."""
    return text[: len(text) - len(n.rest)].strip() if n.rest else text


TITLE_LOOKAHEAD = 3
"""A label without its title on its line takes it from one of the next this many lines ..."""
TITLE_BELOW = 1.2
"""... beside it, or under it at most this many of the label's type sizes down."""
LARGER_LABEL = 1.08
"""A Part or Item label set this much larger than the body is a heading without bold or capitals."""
ITEM_SENTENCE_WORDS = 12
"""An Item line ending in a stop after more than this many words is a sentence that names the Item."""
MIN_ITEMS = 3
"""Fewer Items found are references in the text, not the filing's skeleton."""
_INITIALS = frozenset("pPiI\u0130\u0131")
"""First letters a ``Part``/``Item`` line can have under ``re.IGNORECASE`` (dotted and dotless i too)."""
_COVER = re.compile(r"\bform\s+(?:10-k|10-q|20-f|40-f|8-k|10-kt|10-qt)\b", re.IGNORECASE)
_COMMISSION = re.compile(r"securities\s+and\s+exchange\s+commission", re.IGNORECASE)
COVER_PARTS = re.compile(r"^documents\s+incorporated\s+by\s+reference\.?$", re.IGNORECASE)
"""A part of the form's cover page (it may run on to the next page), not a section of the filing."""
_SALUTATION = re.compile(r"^to\s+the\s+(?:board\s+of\s+directors|(?:stock|share|unit)holders|members|partners|"
                        r"trustees|audit\s+committee)\b", re.IGNORECASE)
"""The addressee line that opens an auditor's report ("To the Stockholders and the Board of Directors
of ..."): the report's first line, however it is set, not a section."""
_AUDIT_REPORT_PARTS = re.compile(
    r"^(?:opinions?\s+on\s+(?:the\s+)?(?:consolidated\s+)?financial\s+statements|opinions?\s+on\s+(?:the\s+)?"
    r"(?:company\W{0,3}s\s+)?internal\s+control|basis\s+for\s+(?:the\s+)?opinions?|critical\s+audit\s+matters?|"
    r"definition\s+and\s+limitations\s+of\s+internal\s+control)\b", re.IGNORECASE)
"""The parts the auditing standard (PCAOB AS 3101) prescribes for every auditor's report: the
report's fixed paragraphs, not sections of the filing (no filer's outline lists them)."""
_NOT_TITLE = re.compile(r"^(?:of|and|or|in|to|the|for|as|which|above|below|herein|hereof|this)\b", re.IGNORECASE)


@dataclass(slots=True)
class SecHeading:
    """A Part or Item heading found on a body page."""

    kind: str  # "part" | "item"
    label: str  # "II", "7A"
    title: str
    unit: int
    char: int
    lines: tuple[int, ...]
    part: int = 0  # the Part it belongs to (1..4), 0 when the filing prints no Parts

    @property
    def level(self) -> int:
        return PART_LEVEL if self.kind == "part" else ITEM_LEVEL


def item_order(label: str) -> tuple[int, str]:
    """``"7A"`` -> ``(7, "a")`` so Items compare in form order."""
    m = re.match(r"([0-9]+)(.*)", label)
    return (int(m.group(1)), m.group(2).casefold()) if m else (0, label.casefold())


COVER_PAGES = 5
"""The form's cover sits on one of the first pages (after an annual report's own cover and letter)."""


def cover_page(doc: SourceDoc) -> int:
    """Index of the page that names the Commission and the form (the 10-K cover), else 0."""
    for u in doc.units[:COVER_PAGES]:
        if _COVER.search(u.text) and _COMMISSION.search(u.text):
            return u.index
    return 0


def is_filing(doc: SourceDoc) -> bool:
    """An SEC periodic report: its cover names the Commission and the form."""
    head = "\n".join(u.text for u in doc.units[:2])
    return bool(_COVER.search(head) and _COMMISSION.search(head))


def auditor_report_line(title: str) -> bool:
    """An auditor's report's addressee line or one of its prescribed parts: the report's text."""
    return bool(_SALUTATION.match(title) or _AUDIT_REPORT_PARTS.match(title))


def _caps_word(text: str, word: str) -> bool:
    return text[: len(word)] == word.upper()


def _title_after(lines: list[Line], j: int, rest: str) -> tuple[str, list[int]]:
    """The heading's title: the rest of its line, else the text beside it or on the next line, never text
    after the next Part's or Item's label (that heading's title)."""
    line = lines[j]
    used = [j]
    if rest:
        return rest, used
    for k in range(j + 1, min(j + 1 + TITLE_LOOKAHEAD, len(lines))):
        nxt = lines[k]
        beside = nxt.x0 > line.x1 - 1 and (abs(nxt.y0 - line.y0) < 0.5 * line.size or nxt.block == line.block
                                            and line.y0 - _WRAP_ROWS * line.size < nxt.y0 < line.y0)
        # (a title wrapped beside its label, the label set at the rows' middle: a table cell's default)
        below = (nxt.block == line.block and 0 <= nxt.y0 - line.y1 < TITLE_BELOW * line.size
                 and (nxt.bold or nxt.text.isupper()))
        if form_label(nxt.text, "part") or form_label(nxt.text, "item"):
            break  # the next heading's label: the text after it is that heading's title (PART I / ITEM 1. Business)
        if beside or below:
            used.append(k)
            return " ".join([nxt.text.strip(), *_wrapped(lines, k, used)]), used
        if nxt.y0 > line.y1 + line.size:
            break
    return "", used


def _wrapped(lines: list[Line], k: int, used: list[int]) -> list[str]:
    """The rows a title set in its own column wraps to (``ITEM 1B.`` | ``UNRESOLVED STAFF`` over
    ``COMMENTS`` in the title's column): lines right under it, at its left edge, in its type and block."""
    out: list[str] = []
    first = prev = lines[k]
    for m in range(k + 1, min(k + 1 + _WRAP_ROWS, len(lines))):
        ln = lines[m]
        below = ln.y0 > prev.y0 + 0.5 * first.size and ln.y0 - prev.y1 < 0.5 * first.size
        if not below or ln.block != first.block or abs(ln.x0 - first.x0) > _ALIGNED or ln.bold != first.bold \
                or abs(ln.size - first.size) > _SAME_SIZE or form_label(ln.text, "part") or form_label(ln.text, "item"):
            break
        used.append(m)
        out.append(ln.text.strip())
        prev = ln
    return out


_WRAP_ROWS = 5
"""A wrapped Item title runs to at most this many more rows (Item 5's fourteen words in a two-column
page's narrow title column take five rows in all)."""
_ALIGNED = 2.0
"""Points by which a wrapped row's left edge may miss its first row's."""
_SAME_SIZE = 0.3
"""Points by which two rows of one type may differ in size."""


def _starts_row(prev: Line | None, line: Line) -> bool:
    """``line`` opens a row of its own: a new block, a gap above, text beside on its baseline, or
    an Item set right under its Part. (Asked only of lines opening with a Part's or Item's letter.)"""
    return prev is None or prev.block != line.block or line.y0 - prev.y1 > H.line_gap * line.size \
        or (abs(line.y0 - prev.y0) < 0.5 * line.size and prev.x1 < line.x0) \
        or form_label(prev.text, "part") is not None


def sec_headings(doc: SourceDoc, pages: range | None = None, *, skip_pages: set[int] | None = None,
                 skip_lines: set[tuple[int, int]] | None = None, body_size: float = 0.0) -> list[SecHeading]:
    """Part and Item headings of the body pages in document order, each kept once in form order."""
    pages = pages if pages is not None else range(len(doc.units))
    skip_pages = skip_pages or set()
    skip_lines = skip_lines or set()
    found: list[SecHeading] = []
    for u in pages:
        if u in skip_pages:
            continue
        lines = doc.lines(u)
        prev: Line | None = None
        for j, line in enumerate(lines):
            if (u, j) in skip_lines:
                continue
            before, prev = prev, line
            if line.text[:1] not in _INITIALS or not _starts_row(before, line):
                continue
            text = " ".join(line.text.split())
            if len(text) > H.title_line_chars:
                continue
            kind = "part"
            m = form_label(text, kind)
            if m is None:
                kind = "item"
                m = form_label(text, kind)
            if m is None:
                continue
            word = "PART" if kind == "part" else "ITEM"
            if not (line.bold or _caps_word(text, word) or (body_size and line.size > body_size * LARGER_LABEL)):
                continue
            rest = m.rest
            if rest and (rest[0].islower() or _NOT_TITLE.match(rest)):
                continue  # "Item 15 of this Annual Report ...": a reference, not a heading
            if kind == "item" and rest.endswith(".") and len(rest.split()) > ITEM_SENTENCE_WORDS:
                continue
            title_rest, used = _title_after(lines, j, rest)
            label = m.parts[0].upper()
            head = _head(text, m)
            title = f"{head} {title_rest}".strip() if title_rest and not rest else text
            found.append(SecHeading(kind, label, " ".join(title.split()), u, line.char, tuple(used)))
    return _in_form_order(found)


def split_part_items(skeleton: list[Mark]) -> list[Mark]:
    """``skeleton`` with each entry that names a Part and its Item together (a printed TOC row or a
    body line ``PART IV - ITEM 15. EXHIBITS ...``) read as the Part with the Item inside it: the
    entry keeps the Part's title, and the Item is added at the same place unless the skeleton has
    it already (found on its own line in the body)."""
    out: list[Mark] = []
    for i, mark in enumerate(skeleton):
        title = " ".join(mark.title.split())
        m = form_label(title, "part")
        item = form_label(m.rest, "item") if m is not None else None
        if m is None or item is None:
            out.append(mark)
            continue
        head = _head(title, m).rstrip(_REST_LEAD)
        out.append(Mark(head, PART_LEVEL, mark.pos, mark.origin, mark.confidence))
        label = item.parts[0].casefold()
        known = any((o := form_label(other.title, "item")) is not None and o.parts[0].casefold() == label
                    for other in skeleton[i + 1:i + 2])
        if not known:
            out.append(Mark(m.rest, ITEM_LEVEL, mark.pos, mark.origin, mark.confidence))
    return out


def _in_form_order(found: list[SecHeading]) -> list[SecHeading]:
    out: list[SecHeading] = []
    part = 0
    last_item: tuple[int, str] | None = None
    seen: set[tuple[int, str]] = set()
    for h in found:
        if h.kind == "part":
            n = int(h.label) if h.label.isdigit() else roman_value(h.label) or 0
            if n <= part:
                continue
            part = n
            last_item = None
            h.part = n
            out.append(h)
            continue
        key = item_order(h.label)
        if (part, h.label) in seen or (last_item is not None and key <= last_item):
            continue
        seen.add((part, h.label))
        last_item = key
        h.part = part
        out.append(h)
    items = [h for h in out if h.kind == "item"]
    if len(items) < MIN_ITEMS:
        return []
    return out
