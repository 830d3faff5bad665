"""Section text as a model is shown it: the same words, fewer tokens.

Extracted text is laid out for paper: one line per printed line, table cells one per line,
dot leaders and page numbers in contents listings, runs of spaces. None of that helps a model
summarise, and all of it costs tokens (``. . . . .`` is a token per dot). :func:`compact_text`

* drops dot leaders and the page number after them (``1.2 Scope ........ 7`` -> ``1.2 Scope``);
* collapses white space and drops empty lines;
* joins wrapped prose lines (a line about as wide as the section's widest lines continues on the
  next, unless it ends a sentence before a capital, or the next is a list item) and a word
  hyphenated across lines;
* joins a line without letters (``$ 11,715``, ``(0.66)``, ``—``) to the line before it, so a table
  row reads ``Net revenue $ 11,715 $ 18,353``;
* shortens a long contents listing to its top-level entries and says how many it left out.

Only what is shown changes: summary keys hash the section's own words, routes are decided on
the compacted size (what a request costs), and extractive summaries read the original text.
"""

from __future__ import annotations

import re

from ..text.patterns import LEADER_CHARS, LEADER_RUN, ROMAN_LETTERS

__all__ = ["compact_text", "CONTENTS_KEEP", "WRAP_SHARE"]

CONTENTS_KEEP = 12
"""A contents listing longer than this keeps its top-level entries (at most ``2 *`` this) only."""

WRAP_SHARE = 0.7
"""A line at least this share of the section's wide lines (90th percentile) is wrapped prose."""

WRAP_MIN_CHARS = 40
"""Shorter lines are never joined as wrapped prose (table cells, headings, list entries)."""

_DOTS = LEADER_CHARS.replace("_", "")  # a contents entry's leader is dots; an underline run is a form's blank
_LABEL_CHAR = rf"[\d{ROMAN_LETTERS}]"  # a printed page label or list number: figures or Roman numerals
_ENTRY = re.compile(rf"[ \t]*[{_DOTS}](?:[ \t]*[{_DOTS}]){{3,}}[ \t]*{_LABEL_CHAR}{{1,6}}[ \t]*$")  # leader, page
_NO_LETTERS = re.compile(r"[\W\d_]{1,40}")
_LIST_ITEM = re.compile(rf"(?:[•●▪◦∙·*\-–—]|\(?{_LABEL_CHAR}{{1,4}}[.)]|\(?[a-zA-Z][.)])\s")
_PAGE_LABEL = re.compile(rf"{_LABEL_CHAR}{{1,5}}")
_NUMBERING = re.compile(
    r"(?:(?:chapter|part|section|appendix|annex|item)\s+)?(?:[A-Z]|\d+)((?:\.\d+)*)\.?(?:\s|$)", re.IGNORECASE)


def compact_text(text: str) -> str:
    """``text`` with leaders, blank lines and layout line breaks removed; words and figures kept."""
    lines: list[tuple[str, bool]] = []  # (line, is a contents entry)
    for raw in text.splitlines():
        leader = _ENTRY.search(raw)
        line = " ".join(LEADER_RUN.sub(" ", raw[: leader.start()] if leader else raw).split())
        if line:
            lines.append((line, leader is not None))
    if not lines:
        return ""
    widths = sorted(len(line) for line, entry in lines if not entry)
    wide = max(WRAP_MIN_CHARS, WRAP_SHARE * widths[int(0.9 * (len(widths) - 1))]) if widths else WRAP_MIN_CHARS
    out: list[str] = []
    entries: list[str] = []
    prev, prev_entry = "", False
    for line, entry in lines:
        if entry or (entries and _PAGE_LABEL.fullmatch(line)):  # a page label between contents pages
            if entry:
                entries.append(line)
            prev, prev_entry = line, True
            continue
        if entries:
            out.extend(_contents(entries))
            entries = []
        elif out and _joins(prev, prev_entry, line, wide):
            hyphen = prev.endswith("-") and prev[-2:-1].isalpha() and line[:1].islower()
            out[-1] += line if hyphen else " " + line
            prev, prev_entry = line, False
            continue
        out.append(line)
        prev, prev_entry = line, False
    out.extend(_contents(entries))
    return "\n".join(out)


def _joins(prev: str, prev_entry: bool, line: str, wide: float) -> bool:
    if prev_entry:
        return False
    if _NO_LETTERS.fullmatch(line):
        return True  # a figure, currency sign or dash: the rest of the row before it
    if prev.endswith("-") and prev[-2:-1].isalpha() and line[:1].islower():
        return True
    if prev.endswith((".", "!", "?", ":")) and not line[:1].islower():
        return False  # a paragraph may end here: keep the break (a table or a new paragraph follows)
    return len(prev) >= wide and not _NO_LETTERS.fullmatch(prev) and not _LIST_ITEM.match(line)


def _depth(entry: str) -> int:
    """1 for ``3. Title``, ``Chapter 3``, ``A Title`` and unnumbered entries; 3 for ``3.4.1 Title``."""
    m = _NUMBERING.match(entry)
    return 1 + m.group(1).count(".") if m else 1


def _contents(entries: list[str]) -> list[str]:
    """A contents listing: whole when short, else its top-level entries and a count of the rest."""
    if len(entries) <= CONTENTS_KEEP:
        return entries
    top = min(_depth(e) for e in entries)
    kept = [e for e in entries if _depth(e) == top][: 2 * CONTENTS_KEEP]
    if len(kept) < 2:
        kept = entries[:CONTENTS_KEEP]
    return [*kept, f"[{len(entries) - len(kept)} more entries]"]
