"""Levels of the headings found: the document's own title and minor headings (bold body-size lines,
change histories) set aside, then numbering depth where sections are numbered and the rank of the
style otherwise, counting schemes that restart under another nested one level down."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from ...model import SourceDoc
from ...text.normalize import normalize_title, same_title
from ...text.numbering import common_prefix
from ..heuristics import HEURISTICS as H
from .model import MAX_LEVEL, Body, Heading, StyleKey


def median_chars(doc: SourceDoc, pages: range) -> int:
    """Characters on a typical page of ``pages``."""
    sizes = sorted(len(doc.units[u].text) for u in pages)
    return sizes[len(sizes) // 2] if sizes else 0


def mark_title(found: list[Heading], cover_chars: int, typical_chars: int, pages: int) -> None:
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


def _dotted(h: Heading) -> bool:
    return h.numbering is not None and h.numbering.kind in ("decimal", "exhibit", "section", "appendix", "chapter")


_FORM_LABELS = ("part", "item")
"""Labels of a periodic report's own sections (``PART II``, ``Item 7.``)."""
OPENER_WORDS = 12
"""A heading that opens its page is a section at most this long (a pull quote's first line is longer)."""


def _page_openers(found: list[Heading], small: list[Heading], after_short: set[int]) -> set[int]:
    """Ids of the body-size headings in ``small`` that are sections for the page break before them: a
    release starts each part on a new page, the page before it left short (``after_short``), and sets
    the part's head in bold at its text's size (``Guidance and Outlook``, ``Cautionary Statement``).
    Such a head opens its page with a title printed once; heads of its look that open their pages too
    are sections as well (``Summary of Fourth-Quarter Performance`` after a full page). A head that
    opens a page after a full one, in a look no short page sets apart, opens it by chance; a division's
    name printed under each period's results is a sub-head. A periodic report's Parts and Items are its
    sections (``_FORM_LABELS``; the filing source reads the heads inside them): its Items open pages
    after short ones, and a sub-head atop a page is no section for it."""
    if any(h.numbering is not None and h.numbering.kind in _FORM_LABELS for h in found):
        return set()
    once = Counter(normalize_title(h.title) for h in found)
    opening = [h for h in small if h.char == 0 and once[normalize_title(h.title)] == 1
               and len(h.title.split()) <= OPENER_WORDS]
    looks = {h.style for h in opening if h.unit in after_short}
    return {id(h) for h in opening if h.style in looks}


def mark_minor(found: list[Heading], body: Body, pages: int, after_short: set[int] | None = None) -> None:
    """Body-size unnumbered bold lines are minor where larger heading styles exist on many pages (not a
    page's title under the registrant's name), but for page openers (``_page_openers``), and heads of a
    page's own smaller text (``Heading.page_text``) are dropped unless they open pages so; in a document
    that numbers its sections, unnumbered lines in the style of numbered sub-sections are minor."""
    larger = {h.unit for h in found if h.style[0] >= body.size * H.larger}
    small = [h for h in found if h.numbering is None and not h.style[2] and h.style[0] < body.size * H.larger
             and not h.page_title]
    if len(larger) >= max(H.larger_pages, pages // H.larger_page_per):  # on many pages, not just a cover
        for h in small:
            h.minor = True
    openers = _page_openers(found, [h for h in small if h.minor or h.page_text], after_short or set())
    for h in small:
        if id(h) in openers:
            h.page_opener, h.minor = True, False
    found[:] = [h for h in found if h.page_opener or not h.page_text]
    major = [h for h in found if not h.minor]
    numbered = [h for h in major if _dotted(h)]
    if len(numbered) < H.numbered_min:
        return
    # unnumbered headings smaller than every numbered one sit below the numbered levels
    smallest = min(h.style[0] for h in numbered)
    for h in major:
        if h.numbering is None and h.style[0] < smallest:
            h.minor = True
    major = [h for h in major if not h.minor]
    if len(numbered) < H.numbered_share * len(major):
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


def mark_version_runs(found: list[Heading]) -> None:
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


def assign_levels(found: list[Heading]) -> None:
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


def page_titles_on_top(found: list[Heading]) -> None:
    """Statement and table pages titled under the registrant's name (``Heading.page_title``) are one
    series at the top level, however each page sets its title block (centred or not, 9 or 10 points):
    a release's ``Reconciliation of GAAP and Non-GAAP Information`` pages are not sub-sections of its
    ``Consolidated Balance Sheet`` page, nor of the last larger heading of the release's text. A
    body-size heading opening its page (``Heading.page_opener``) is a sibling of the page-level section
    before it (``Cautionary Statement`` after the reconciliation pages)."""
    top = min((h.level for h in found if not h.minor), default=1)
    page_level: int | None = None
    for h in found:
        if h.minor:
            continue
        if h.page_title:
            h.level = page_level = top
        elif h.page_opener:
            h.level = page_level = page_level or h.level
