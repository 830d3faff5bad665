"""Pages that list the document's own sections: a printed table of contents, an index to the financial
statements, a cross-reference index, an exhibit index.

Such a page names the titles of many sections, so it matches any question whose words are in a title,
and a question that spans several sections best of all; yet it holds none of their text. Read from the
stored tree alone (its titles and its page text; no typography is stored), so every query over any
stored tree can tell them apart: a page is a listing when it prints the titles of at least
:data:`LISTING_TITLES` other sections of the same tree, at least :data:`LISTING_REFS` of its lines end
in a page reference, and the titles it prints make up at least :data:`LISTING_SHARE` of its words. The
first stage gives such a page no score (it is neither a long section's best page nor one the spare
budget goes to), a node's own text on it is not counted, and a node lying only on such pages is not
offered to navigators (bench/README.md, "Issue 24, navigation pass 3").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..model import Tree

__all__ = ["listing_pages", "LISTING_TITLES", "LISTING_REFS", "LISTING_SHARE", "TITLE_WORDS"]

LISTING_TITLES = 8
"""Distinct titles of other sections a listing page prints. Pages of prose or tables that name a few
sections ("see Note 7", segment names in MD&A) print up to 10 of them, so the count alone does not
decide (measured on the shared 10-Qs and 10-Ks: contents pages print 11-38)."""

LISTING_REFS = 8
"""Lines ending in a page reference (a number no larger than the document's last page) on a listing
page; a page of prose that names sections has almost none (0-5 measured), a contents page one a row."""

LISTING_SHARE = 0.2
"""Share of the page's words that are titles of other sections: 0.24-0.97 on contents and index pages,
at most 0.22 elsewhere (a statement page whose row labels repeat note titles)."""

TITLE_WORDS = 2
"""Titles of fewer words ("Overview", "Exhibits") are common words of prose, not evidence of a listing."""

_WORD = re.compile(r"[^\W\d_]+")
_REF_LINE = re.compile(r"(?:^|\D\s)(\d{1,4})\s*$")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _refs(text: str, last_page: int) -> int:
    """Lines of ``text`` ending in a number that could be a page of the document."""
    count = 0
    for line in text.splitlines():
        m = _REF_LINE.search(line.strip())
        if m is not None and 0 < int(m.group(1)) <= last_page:
            count += 1
    return count


def _titles(tree: Tree) -> list[tuple[str, set[int]]]:
    """Each title of ``TITLE_WORDS`` or more words (letters only, lower case) and the pages its
    sections start on, longest first."""
    out: dict[str, set[int]] = {}
    for node in tree.walk():
        words = _words(node.title)
        if node.start_page is not None and len(words) >= TITLE_WORDS:
            out.setdefault(" ".join(words), set()).add(node.start_page)
    return sorted(out.items(), key=lambda kv: -len(kv[0]))


def listing_pages(tree: Tree, page_texts: Mapping[int, Sequence[str]]) -> frozenset[int]:
    """The pages of ``tree`` (physical page -> its unit texts) that list the tree's own sections."""
    if not page_texts:
        return frozenset()
    last = max(page_texts)
    titles: list[tuple[str, set[int]]] | None = None
    out: set[int] = set()
    for page, texts in page_texts.items():
        text = "\n".join(texts)
        if _refs(text, last) < LISTING_REFS:
            continue  # cheap test first: most pages end few lines in a number
        if titles is None:
            titles = _titles(tree)
        words = _words(text)
        if not words:
            continue
        line = f" {' '.join(words)} "
        covered = distinct = 0
        for title, starts in titles:
            if starts == {page}:
                continue  # the page's own headings
            key = f" {title} "
            found = line.count(key)
            if found:
                distinct += 1
                covered += found * (title.count(" ") + 1)
                line = line.replace(key, " | ")  # a shorter title inside a longer one counts once
        if distinct >= LISTING_TITLES and covered >= LISTING_SHARE * len(words):
            out.add(page)
    return frozenset(out)
