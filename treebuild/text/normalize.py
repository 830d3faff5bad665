"""Title normalisation and fuzzy comparison shared by the structure sources; text on one line.

A title printed in a table of contents, a bookmark and the heading in the body rarely agree
byte for byte: case, curly quotes, dashes, non-breaking spaces, dot leaders and accents vary.
Comparing normalised forms makes "ITEM 1.  BUSINESS" equal "Item 1. Business". Summaries and the
titles a model proposes keep their printed case, on one line (``one_line``).
"""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz import fuzz

__all__ = ["normalize_title", "one_line", "same_title", "squash_spaces", "title_similarity"]


SAME_TITLE = 0.8
"""Two marks on one page whose titles (numbering aside) are this similar name one heading."""

_NON_WORD = re.compile(r"[\W_]+")
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")
_FOLD = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i"})
_FOLDED = re.compile("[" + "".join(map(chr, _FOLD)) + "]")
"""Any letter ``_FOLD`` maps: ``str.translate`` with a mapping looks up every character of the text
(about 1 ms for a page of a manual, whose curly quotes and ligatures make it non-ASCII), so it runs only
when one is there."""
_ASCII_SEPARATORS = bytes(c if chr(c).isalnum() else 0x20 for c in range(128)).ljust(256, b" ")
"""``bytes.translate`` table: every ASCII byte that is not a letter or digit (what ``_NON_WORD`` matches
in ASCII text) becomes a space."""


def normalize_title(s: str) -> str:
    """Lower-case words and digits separated by single spaces.

    Accents are dropped, punctuation (quotes, dashes, dots, brackets) becomes a separator, so
    "1.2. Conventions" -> "1 2 conventions" and "Table des matières" -> "table des matieres";
    letters of other scripts are kept ("Введение" -> "введение").
    """
    text = s.casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        if _FOLDED.search(text):
            text = text.translate(_FOLD)
        text = _COMBINING.sub("", text)
    if text.isascii():  # most lines (accents and ligatures gone): a byte table and a split, half the pattern's cost
        return " ".join(text.encode("ascii").translate(_ASCII_SEPARATORS).decode("ascii").split())
    return _NON_WORD.sub(" ", text).strip()


def title_similarity(a: str, b: str) -> float:
    """Similarity of two titles in 0..1 after normalisation (rapidfuzz ratio)."""
    na, nb = normalize_title(a), normalize_title(b)
    if not na and not nb:
        return 1.0
    if not na or not nb:
        return 0.0
    return float(fuzz.ratio(na, nb)) / 100.0


def same_title(a: str, b: str) -> bool:
    """Two title keys (already normalised by the caller) name the same title: rapidfuzz ratio of at
    least ``SAME_TITLE``, so a letter-spacing repair or a dropped word still matches."""
    return fuzz.ratio(a, b) >= SAME_TITLE * 100


def squash_spaces(text: str) -> str:
    """``text`` with every run of white space (no-break spaces too) one space, ends stripped: a line as printed."""
    return " ".join(text.replace("\u00a0", " ").split())


_SPACE = re.compile(r"\s+")
_HYPHEN_BREAK = re.compile(r"(\w)-\n(\w)")


def one_line(text: str) -> str:
    """Text on one line: soft hyphens joined, white space collapsed."""
    return _SPACE.sub(" ", _HYPHEN_BREAK.sub(r"\1\2", text)).strip()
