"""The shared text patterns of structure detection and summaries: Roman numerals, page numbers and
page references, dot leaders. One definition each; every reader of them imports them from here (the
wording of SEC filings is ``treebuild.structure.filing.patterns``).
"""

from __future__ import annotations

import re

__all__ = ["ROMAN_UPPER", "roman_value", "is_page_number", "FOLIO", "PAGE_TOKEN", "ARABIC", "ROMAN_LOWER", "PREFIXED",
           "ROMAN_LETTERS", "LEADER_CHARS", "LEADER", "LEADER_RUN", "LEADER_TAIL", "CONTENTS_WORD"]

ROMAN_UPPER = r"(?=[IVXLC])M{0,3}(?:C[MD]|D?C{0,3})(?:X[CL]|L?X{0,3})(?:I[XV]|V?I{0,3})"
"""A well-formed upper-case Roman numeral, as a regex fragment (``Part IV``, ``II.``)."""

_ROMAN_DIGITS = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_ROMAN_MAX = 4000
"""Numerals from here on have no standard form."""


def roman_value(s: str) -> int | None:
    """Value of a Roman numeral (either case), ``None`` when it is not a well-formed one."""
    s = s.lower()
    if not s or any(c not in _ROMAN_DIGITS for c in s):
        return None
    total = 0
    for i, c in enumerate(s):
        v = _ROMAN_DIGITS[c]
        total += -v if i + 1 < len(s) and _ROMAN_DIGITS[s[i + 1]] > v else v
    return total if total < _ROMAN_MAX and _to_roman(total) == s else None


def _to_roman(n: int) -> str:
    out = []
    for v, r in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                 (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out.append(r)
            n -= v
    return "".join(out)


ARABIC = r"\d{1,4}"
ROMAN_LOWER = r"[ivxlc]{1,7}"
ROMAN_LETTERS = "ivxlcIVXLC"
"""The letters of the Roman numerals pages and list items are numbered with (either case)."""
PREFIXED = r"[A-Z]{1,3}-\s?\d{1,4}|\d{1,3}-\d{1,4}"
PAGE_TOKEN = rf"(?:{PREFIXED}|{ARABIC}|[{ROMAN_LETTERS}]{{1,7}})"
"""A printed page reference in a TOC row: ``12``, ``iv``, ``F-3``, ``A-1``, ``2-15``."""

FOLIO = re.compile(
    rf"^(?:(?:page|p\.)\s*)?(?:[-\u2013\u2014]\s*)?(?P<page>{PREFIXED}|{ARABIC}|[ivxlcdm]{{1,7}})(?:\s*[-\u2013\u2014])?"
    r"(?:\s*(?:of|/)\s*\d{1,4})?$",
    re.IGNORECASE,
)
"""A line that is only a folio, its page token in ``page``: ``12``, ``xiv``, ``Page 3 of 40``, ``- 7 -``,
``F-3``, ``p. 2-15``. Furniture, TOC margins and the printed-page map all read folios with it."""


def is_page_number(text: str) -> bool:
    """A line that is only a folio (see :data:`FOLIO`)."""
    return bool(FOLIO.match(text.strip()))


CONTENTS_WORD = re.compile(r"\b(?:contents|index|table des mati[eè]res|inhalt)\b", re.IGNORECASE)
"""A word that titles a listing of sections (``Table of Contents``, ``Index to Financial Statements``)."""

LEADER_CHARS = ".·•…‥_"
"""The characters a dot leader is made of (``....``, ``· · ·``, ``‥‥``, ``___``)."""
LEADER = rf"(?:[{LEADER_CHARS}]\s*){{2,}}"
"""A run of leader characters between a TOC title and its page (``....``, ``· · ·``, ``___``)."""
LEADER_RUN = re.compile(rf"[{LEADER_CHARS}](?:[ \t]*[{LEADER_CHARS}]){{3,}}")
"""Four or more leader characters, spaces or tabs between (no nested optional spaces: linear time)."""
LEADER_TAIL = re.compile(r"(?:\.\s{0,3}){4,}\s*\S{0,8}$|\s\.{2,}\s*[0-9ivxlc]{1,5}$|…\s*\S{1,6}$")
"""A line that ends in dot leaders and a page (a TOC row, never a heading)."""
