"""Typographic headings: section starts read from the page itself when there is no outline.

A heading is a short run of lines that stands out from the body text (larger, or bold where the
body is not, or an all-caps numbered label), starts its block, and is neither page furniture
(running headers, page numbers), a table row, a figure label nor a caption. Its level comes from
numbering depth where the document numbers its sections (``1.2.3``, ``2.3.59.1.1``) and from the
rank of its style (size, weight, capitals, centring) otherwise. The body size is the most common
size by character count.

Body-size bold lines in a document that has larger heading styles are kept as *minor* headings:
run-in terms, definition lists and paragraph heads that a reader does not expect in a table of
contents, but that subdivision may still cut at.

Everything here works on ``doc.lines(i)``, which is the main cost; the rest is a few passes over
those lines, so the stage keeps the reader's pace.
"""

from __future__ import annotations

from collections import defaultdict

from ...model import Mark, Origin, Pos, SourceDoc
from ...text.furniture import furniture
from ...text.patterns import is_page_number
from ..toc.detect import toc_like_pages
from .candidates import page_headings
from .filters import (
    body_text_like,
    clean_title,
    code_like,
    drop_repeated,
    drop_running_titles,
    keep_run_in_series,
    page_title_series,
)
from .levels import assign_levels, mark_minor, mark_title, mark_version_runs, median_chars, page_titles_on_top
from .model import MAX_LEVEL, Heading, HeadingScan, PageTitle, StyleKey, TitleBlock
from .rows import join_rows, measure_body

__all__ = ["Heading", "HeadingScan", "StyleKey", "scan_headings", "heading_marks", "to_marks", "toc_like_pages",
           "body_text_like", "code_like", "clean_title", "MAX_LEVEL", "TitleBlock", "PageTitle"]

NUMBERED_CONFIDENCE = 0.8
"""A numbered heading's mark: its label is evidence beside its type."""
HEADING_CONFIDENCE = 0.6
"""An unnumbered heading's mark: its type alone sets it apart."""
MINOR_CONFIDENCE = 0.4
"""A minor heading's mark (a bold line at the body size): subdivision may cut there, a TOC would not list it."""


def scan_headings(doc: SourceDoc, pages: range | None = None, *, skip_pages: set[int] | None = None,
                  title_block: TitleBlock | None = None) -> HeadingScan:
    """Find the headings of ``pages`` (default: all) and give each a level; ``title_block`` reads a
    page's title block (``structure.filing.title_block.statement_title_block``), none when not given."""
    pages = pages if pages is not None else range(len(doc.units))
    furn, suspects = furniture(doc, pages)
    body = measure_body(doc, pages, furn)
    by_page: dict[int, set[int]] = defaultdict(set)
    for u, j in furn:
        by_page[u].add(j)
    tocs = toc_like_pages(doc, pages, furn) | (skip_pages or set())
    found: list[Heading] = []
    bottoms: dict[int, float] = {}
    for u in pages:
        lines = doc.lines(u)
        if not lines:
            continue
        skip = by_page.get(u, set())
        bottoms[u] = max((ln.y1 for j, ln in enumerate(lines)
                          if j not in skip and ln.text.strip() and not is_page_number(ln.text.strip())), default=0.0)
        rows = join_rows(lines, skip)
        first = min((ln.char for j, ln in enumerate(lines) if j not in skip), default=0)
        for h in page_headings(u, rows, lines, skip, body, u in tocs, title_block):
            h.suspect = any((u, j) in suspects for j in h.lines)
            if h.char <= first or (h.page_title and not h.mid_page):
                h.char = 0  # only a running header above it (or a page's title block): the section owns the page
            found.append(h)
    found = keep_run_in_series(drop_running_titles(page_title_series(found)))
    found = drop_repeated(found, len(pages))
    mark_version_runs(found)
    if pages.start == 0 and doc.units:
        mark_title(found, len(doc.units[0].text), median_chars(doc, pages), len(doc.units))
    mark_minor(found, body, len(pages), after_short_pages(bottoms))
    assign_levels(found)
    page_titles_on_top(found)
    return HeadingScan(found, body.size, body.bold, tocs, furn)


SHORT_PAGE = 0.6
"""A page whose text ends above this share of a full page's text bottom is left short: what follows
starts on a new page by design ..."""
FULL_PAGE = 0.9
"""... a full page's bottom being this quantile of the pages' text bottoms (a release's table pages end
short too)."""


def after_short_pages(bottoms: dict[int, float]) -> set[int]:
    """Pages that follow a page left short (``SHORT_PAGE``); ``bottoms`` is each page's text bottom."""
    if not bottoms:
        return set()
    full = sorted(bottoms.values())[int(FULL_PAGE * (len(bottoms) - 1))]
    return {u + 1 for u, b in bottoms.items() if 0.0 < b < SHORT_PAGE * full}


def heading_marks(doc: SourceDoc, pages: range | None = None, *, skip_pages: set[int] | None = None,
                  base_level: int = 0, minor: bool = False) -> list[Mark]:
    """Marks for the headings of ``pages``; levels are offset by ``base_level``."""
    scan = scan_headings(doc, pages, skip_pages=skip_pages)
    return to_marks([h for h in scan.headings if minor or not h.minor], base_level=base_level)


def to_marks(headings: list[Heading], *, base_level: int = 0) -> list[Mark]:
    out: list[Mark] = []
    for h in headings:
        numbered = h.numbering is not None and h.numbering.kind in ("decimal", "exhibit")
        origin = Origin.numbering if numbered else Origin.heading
        conf = NUMBERED_CONFIDENCE if h.numbering is not None else (MINOR_CONFIDENCE if h.minor else HEADING_CONFIDENCE)
        out.append(Mark(title=h.title, level=h.level + base_level, pos=Pos(h.unit, h.char), origin=origin,
                        confidence=conf))
    return out
