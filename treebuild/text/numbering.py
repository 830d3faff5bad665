"""Section numbering in heading and TOC text: ``1.2.3``, ``Part II``, ``Item 1A.``, ``Article IV``,
``Section 2.01``, ``Chapter 3``, ``Appendix A.1``, ``Note 5``, ``(a)``, ``2.3.59-1``.

Numbering carries nesting that typography often hides (an IRS manual prints every level in
the same bold face; only ``2.3.59.1`` vs ``2.3.59.1.1`` tells them apart), so heading
detection, printed-TOC levels and outline re-levelling all read labels from this one parser:
a label has one kind, depth and rank wherever it is printed. Whether the text after it reads as
a title is the caller's context: a body line must look like a heading (``entry=False``), a TOC
row is an entry already (``entry=True``).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass

from .patterns import ROMAN_UPPER

__all__ = ["Numbering", "DOTTED_RANK", "is_label", "spaced_label", "parse_numbering", "common_prefix", "strip_dates",
           "strip_numbering", "NUMBER_WORDS", "NUM_TOKEN", "NUMBER_ONLY", "LABEL_KEYWORDS", "LONE_LABEL_WORDS",
           "FOREIGN_LABEL_WORDS", "keyword_alternation", "LIST_LABEL", "NUMBERED_START", "NUMBERED_LINES"]

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
}
_WORDNUM = "|".join(NUMBER_WORDS)
_ROMAN = ROMAN_UPPER


@dataclass(frozen=True, slots=True)
class Numbering:
    """The numbering that opens a heading.

    ``kind`` names the scheme (``decimal``, ``part``, ``item``, ``chapter``, ``appendix``, ``article``,
    ``section``, ``note``, ``exhibit``, ``letter``, ``roman``, ``paren``); ``depth`` is the nesting the
    number itself shows (``1.2.3`` is 3, ``Item 7A`` is 1); ``label`` the number as printed and
    ``rest`` the title after it (empty for a label printed on its own line).
    """

    kind: str
    depth: int
    label: str
    rest: str
    parts: tuple[str, ...] = ()

    @property
    def rank(self) -> int:
        """Outer to inner, for nesting TOC entries by their labels: Part 10 < Chapter, Article,
        Appendix 20 < Item 30 < Section, Note 40 < ``1.1`` 40 ... < ``(a)`` 80; a deeper number
        of one scheme ranks 10 lower per level (``Appendix A.1`` under ``Appendix A``)."""
        keyword = " " in self.label or self.label.startswith("\u00a7")
        if keyword and self.kind in _KEYWORD_RANKS and not (self.kind == "exhibit" and self.depth > 1):
            return _KEYWORD_RANKS[self.kind] + 10 * (self.depth - 1)
        if self.kind == "roman":
            return ROMAN_RANK
        if self.kind == "paren":
            inner = self.parts[0] if self.parts else ""
            return PAREN_RANKS[2 if inner.isdigit() else 1 if len(inner) == 1 else 0]
        return DOTTED_RANK + 10 * self.depth  # 1.2, 2.3.59-1 (with or without ``Exhibit``), A.1, A.


_KEYWORD_RANKS = {"part": 10, "chapter": 20, "article": 20, "appendix": 20, "schedule": 20, "exhibit": 20,
                  "item": 30, "section": 40, "note": 40}
"""Rank of a keyword label's first level: a Part holds chapters, a filing's Part its Items."""
DOTTED_RANK = 20
"""Dotted numbers rank 20 + 10 per part: ``1`` is a chapter's peer (30), ``1.1`` under it (40)."""
ROMAN_RANK = 25
"""``IV.`` between a chapter and its ``1.``: Roman section numbers head Arabic ones."""
PAREN_RANKS = (90, 80, 85)
"""``(ii)`` under ``(a)`` under ... ``(1)``: list clauses go below every dotted level."""


LABEL_KEYWORDS: dict[str, str] = {
    "part": "part", "item": "item",
    "chapter": "chapter", "chap.": "chapter", "book": "chapter",
    "appendix": "appendix", "annexure": "appendix", "annex": "appendix", "attachment": "appendix",
    "article": "article", "section": "section", "sec.": "section", "note": "note", "exhibit": "exhibit",
    "schedule": "schedule",
}
"""The label vocabulary: every word that opens a numbering label, and the kind it reads as. Every label
reader (the parser, ``strip_numbering``, ``is_label``, the TOC-page and TOC-placement readers, the SEC
Part/Item reader) takes its words from here, so a new label word is added once."""
LONE_LABEL_WORDS = ("lecture", "lesson", "unit")
"""Words that label a chapter only on a line of their own (``LESSON 3`` over the title); in running text
and TOC rows they are ordinary words (``Unit 2 is ...``)."""
FOREIGN_LABEL_WORDS = ("kapitel", "chapitre", "teil", "partie")
"""A chapter's or a part's word in German and French, read where a TOC entry's title is looked for in the body."""


def keyword_alternation(words: tuple[str, ...] | list[str] | None = None) -> str:
    """A regex alternation of label words (default: :data:`LABEL_KEYWORDS`), longest first so that
    ``annexure`` is tried before ``annex``."""
    words = list(LABEL_KEYWORDS) if words is None else list(words)
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_KEYWORDS = keyword_alternation()
_SEP = r"(?:\s*[.:\-\u2013\u2014]\s*|\s+|$)"
_KEYWORD = re.compile(
    rf"^(?P<kw>{_KEYWORDS})(?:\s+|(?=[0-9]))"
    rf"(?P<num>(?:[0-9]{{1,3}}(?:\.[0-9]{{1,3}})*(?:-[0-9]{{1,3}})?[A-Z]?(?:\([a-z0-9]\))?)|{_ROMAN}\b|"
    rf"(?:{_WORDNUM})\b|[A-Z](?:\.[0-9]{{1,3}})*\b)"
    rf"(?P<sep>{_SEP})(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_SECTION_SIGN = re.compile(r"^§\s*(?P<num>[0-9]{1,3}(?:\.[0-9]{1,3})*)\.?(?P<sep>\s+|$)(?P<rest>.*)$", re.DOTALL)
_DECIMAL = re.compile(
    r"^(?P<num>[0-9]{1,3}(?:\.[0-9]{1,3})*)(?P<dash>-[0-9]{1,3})?(?P<dot>\.?)(?P<sep>\s+|$)(?P<rest>.*)$",
    re.DOTALL,
)
_APPENDIX_SUB = re.compile(r"^(?P<num>[A-Z](?:\.[0-9]{1,3})+)\.?(?P<sep>\s+|$)(?P<rest>.*)$", re.DOTALL)
_LETTER = re.compile(r"^(?P<num>[A-Z])[.)](?P<sep>\s+|$)(?P<rest>.*)$", re.DOTALL)
_ROMAN_RE = re.compile(rf"^(?P<num>{_ROMAN})[.)](?P<sep>\s+|$)(?P<rest>.*)$", re.DOTALL)
_PAREN = re.compile(r"^\((?P<num>[a-z]{1,2}|[0-9]{1,2}|[ivx]{1,5})\)(?P<sep>\s+|$)(?P<rest>.*)$", re.DOTALL)
_DATE = re.compile(r"\(\s*[0-9]{1,2}[-/][0-9]{1,2}[-/][0-9]{2,4}\s*\)")


def strip_dates(text: str) -> str:
    """Drop revision dates like ``(12-12-2022)`` that manuals print beside section numbers."""
    return " ".join(_DATE.sub(" ", text).split())


NUMBERING_CACHE = 4096
"""Texts whose numbering is remembered: furniture, headings and filings ask for the same lines."""


OPENERS = frozenset("(0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabceinps§\u0130\u0131\u017f")
"""The characters a numbering can open with: a digit, a capital, ``§``, ``(``, or the first letter of a
keyword in any case ``re.IGNORECASE`` matches (``İ``, ``ı`` for i, ``ſ`` for s). Most lines of running
text open otherwise and are answered without a regex."""

_SENTENCE_KEYWORDS = ("item", "note", "part", "article", "chapter")
"""Keywords a sentence cites (``Item 7 of this report ...``): in a body line they label a heading only
when a separator or a capital follows."""
_ROMAN_OR_LETTER = "IVX"
"""A one-letter label that is a Roman numeral: ``I.``, ``V.``, ``X.``; ``C.``, ``D.``, ``L.``, ``M.`` are letters
(section 100 or 500 is never numbered so, appendix C often)."""


@functools.lru_cache(maxsize=NUMBERING_CACHE)
def parse_numbering(text: str, entry: bool = False) -> Numbering | None:
    """The numbering at the start of ``text``, or ``None``.

    Decimal numbers must look like section numbers, not amounts or years: at most three digits a
    part. A body line (``entry=False``) must also read as a heading after its label: its title
    starts with a letter, a quote, a bracket or a path (``3.4. /bin``), a single number or a cited
    keyword (``Item 7 of ...``) is followed by a capital. A TOC row (``entry=True``) is an entry
    already: only the label is read (``2 aux``, ``Part I siunitx-angle``, a label alone on its row).
    """
    text = text.strip()
    if not text or text[0] not in OPENERS:
        return None
    return _parse(text, entry)


def _parse(text: str, entry: bool = False) -> Numbering | None:
    m = _KEYWORD.match(text)
    if m:
        return _keyword(m, entry)
    m = _SECTION_SIGN.match(text)
    if m:
        parts = tuple(m.group("num").split("."))
        return Numbering("section", len(parts), "§" + m.group("num"), m.group("rest").strip(), parts)
    m = _DECIMAL.match(text)
    if m:
        return _decimal(m, entry)
    m = _APPENDIX_SUB.match(text)
    if m and (entry or _title_start(m.group("rest").strip())):
        parts = tuple(m.group("num").split("."))
        return Numbering("appendix", len(parts), m.group("num"), m.group("rest").strip(), parts)
    m = _ROMAN_RE.match(text)
    rest = m.group("rest").strip() if m else ""
    if m and (len(m.group("num")) > 1 or m.group("num") in _ROMAN_OR_LETTER) \
            and (entry or _title_start(rest) and rest):
        return Numbering("roman", 1, m.group("num"), rest, (m.group("num"),))
    m = _LETTER.match(text)
    if m and (entry or m.group("rest")[:1].isupper()):
        return Numbering("letter", 1, m.group("num"), m.group("rest").strip(), (m.group("num"),))
    m = _PAREN.match(text)
    if m and (entry or _title_start(m.group("rest").strip())):
        return Numbering("paren", 1, f"({m.group('num')})", m.group("rest").strip(), (m.group("num"),))
    return None


def _keyword(m: re.Match[str], entry: bool) -> Numbering | None:
    kw = m.group("kw").lower()
    kw = LABEL_KEYWORDS.get(kw, kw)
    num = m.group("num")
    rest = m.group("rest").strip()
    if not entry and kw in _SENTENCE_KEYWORDS and rest and rest[0].islower() and not m.group("sep").strip():
        return None  # "Item 7 of this report ..." reads as a sentence, not a heading
    parts = tuple(p for p in re.split(r"[.\-]", num) if p)
    if kw == "exhibit" and "-" not in num:
        parts = (num,)  # a filing's ``Exhibit 10.40`` is a catalogue number, a peer of ``Exhibit 21``
    depth = len(parts) if kw in ("section", "appendix", "exhibit") else 1
    return Numbering(kw, max(depth, 1), f"{m.group('kw')} {num}", rest, parts)


def _decimal(m: re.Match[str], entry: bool) -> Numbering | None:
    num, rest = m.group("num"), m.group("rest").strip()
    parts = tuple(num.split("."))
    if not entry:
        if not _title_start(rest) and not (len(parts) >= 2 and (_COUNTED_TITLE.match(rest) or _NAMED.match(rest))):
            return None
        if len(parts) == 1 and not m.group("dot") and not m.group("dash") and rest and not rest[:1].isupper():
            return None
        if len(parts) == 1 and len(num) == 3 and not rest:
            return None
    if m.group("dash"):
        return Numbering("exhibit", len(parts) + 1, num + m.group("dash"), rest, parts + (m.group("dash")[1:],))
    return Numbering("decimal", len(parts), num, rest, parts)


_COUNTED_TITLE = re.compile(r"^[0-9]{1,3} [A-Z][a-z]{2,}")
"""A title that opens with a count (``6.1 2 Variables``): after a dotted section number only."""
_NAMED = re.compile(r"^(?:\\[A-Za-z@]{2,}|[0-9][A-Za-z]\b)")
"""A title that names a macro or a ``2D``/``3D`` thing (``7.6.1 \\csn and \\ece``, ``1.1 2D Commands``): after a
dotted section number only (a single number before a macro is a code listing's line number)."""


def _title_start(rest: str) -> bool:
    return not rest or rest[0].isalpha() or rest[0] in "\"'“‘<[(_/"


def common_prefix(numbers: list[tuple[str, ...]], share: float = 0.9) -> int:
    """How many leading parts nearly all dotted numbers share (3 for ``2.3.59.x`` in an IRS manual).

    Those parts are not levels. The share keeps a stray cross-reference number (``3.17.5.5.3``)
    from resetting it; at least one part of every counted number is left as its own level.
    """
    if not numbers:
        return 0
    k = 0
    pool = numbers
    while True:
        heads = Counter(n[k] for n in pool if len(n) > k + 1)
        if not heads:
            return k
        head, count = heads.most_common(1)[0]
        if count < share * len(numbers):
            return k
        pool = [n for n in pool if len(n) > k + 1 and n[k] == head]
        k += 1


_LEAD = re.compile(
    rf"^(?:(?:{_KEYWORDS})\s+"
    rf"(?:[0-9]+(?:[.\-][0-9]+)*[a-z]?(?:\([a-z0-9]\))?|[ivxlc]+|[a-z](?:\.[0-9]+)*|{_WORDNUM})"
    r"|[0-9]+(?:[.\-][0-9]+)*|[a-z]\.[0-9]+(?:\.[0-9]+)*|[a-z]\.|[ivxlc]+\.|\([a-z0-9]{1,4}\)|§\s*[0-9.]+)"
    r"(?=[\s.:)\u2013\u2014-]|$)[\s.:)\u2013\u2014-]*",
    re.IGNORECASE,
)


def strip_numbering(title: str) -> str:
    """The title without its leading label and number (``Chapter 1``, ``2.3.59.1``, ``Item 7A.``).

    Outlines often omit the numbers the body prints (``Scope`` vs ``1.1 Scope``); comparing the
    rest matches them. A title that is only a label (``Part II``) is returned whole.
    """
    text = strip_dates(title).strip()
    rest = _LEAD.sub("", text, count=1).strip()
    return rest if any(c.isalnum() for c in rest) else text


NUM_TOKEN = rf"(?:[0-9]{{1,3}}(?:[.\-][0-9]{{1,3}})*[A-Z]?|[IVXLC]{{1,6}}|[A-Z]|{_WORDNUM})"
_LABEL_WORDS = keyword_alternation([*LABEL_KEYWORDS, *LONE_LABEL_WORDS])
_LABEL_ONLY = re.compile(
    rf"^(?:{_LABEL_WORDS})"
    rf"(?:\s+{NUM_TOKEN}|[0-9]{{1,3}})?\.?$",  # ``CHAPTER5``: TeX sets the number without a space
    re.IGNORECASE,
)
NUMBER_ONLY = re.compile(r"^(?:[0-9]{1,3}(?:\.[0-9]{1,3})*(?:-[0-9]{1,3})?|[A-Z](?:\.[0-9]{1,3})+)\.?$")


_GLUED = re.compile(rf"^({_LABEL_WORDS})(?=[0-9])", re.IGNORECASE)


def spaced_label(text: str) -> str:
    """``CHAPTER5`` as ``CHAPTER 5`` (TeX sets a chapter's number without a space); else unchanged."""
    return _GLUED.sub(r"\1 ", text.strip(), count=1)


def is_label(text: str) -> bool:
    """A numbering label printed on its own line: ``CHAPTER``, ``Chapter 3``, ``Part II``, ``2.3.59.1``."""
    t = text.strip()
    return bool(_LABEL_ONLY.match(t) or NUMBER_ONLY.match(t))


LIST_LABEL = re.compile(
    r"^(?:\(?[0-9]{1,3}(?:\.[0-9]{1,3})*[.)]?|\(?[a-z]{1,2}\)|\(?[ivxlc]{1,6}\)|[A-Za-z][.)])\s+", re.IGNORECASE)
"""A list item's label, parenthesis optional on either side (``1)``, ``a.``, ``(iv)``, ``b)``): read where
:func:`parse_numbering` finds no heading label, to see whether the words after it run as a sentence."""

_START_LABEL = rf"(?:(?:{_KEYWORDS})\s+)?(?:\d+(?:\.\d+)*(?:-\d+)?\.?|[A-Z](?:\.\d+)+\.?|[IVX]+\.)"
NUMBERED_START = re.compile(rf"^{_START_LABEL}\s+\S", re.IGNORECASE)
"""A row that opens with a label and goes on with a title (``2.1 Scope``, ``Chapter 3 Tables``, ``IV. Notes``):
a row of a TOC printed without page numbers."""
NUMBERED_LINES = re.compile(rf"^\s*{_START_LABEL}(?:\s|$)", re.IGNORECASE | re.MULTILINE)
"""Pre-filter for :data:`NUMBERED_START` over a page's whole text (one ``findall``): every row the full
test counts opens a line this counts, so a page with too few of these is skipped unscored."""
