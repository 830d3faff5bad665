"""The thresholds of structure detection in one frozen object, each with the reason for its value.

Modules read them as ``H.name`` (``from .heuristics import HEURISTICS as H``); a test or a benchmark
can compare settings with ``dataclasses.replace(HEURISTICS, ...)`` in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Heuristics", "HEURISTICS"]


@dataclass(frozen=True, slots=True)
class Heuristics:
    # combine policy (sources.py, policy.py)
    partial_outline_pages: int = 20
    """An outline with fewer entries than one per this many pages may be completed by the printed TOC."""
    flat_outline_pages: int = 30
    """... as may an all-level-1 outline of a document longer than this."""
    sparse_toc: float = 0.6
    """A printed TOC with fewer entries per page than this leaves finer headings to be added."""
    same_title: float = 0.8
    """Two marks on one page whose titles (numbering aside) are this similar name one heading."""
    echo_chars: int = 200
    """Two marks with the same title this close (characters) on one page are one heading seen twice."""
    echo_text: int = 40
    """A heading with less own text than this before its node's end is the next section's, seen early."""

    # page furniture (furniture.py)
    furniture_band: float = 0.13
    """Fraction of the page height at the top and at the bottom where furniture is looked for."""
    furniture_min_repeats: int = 3
    """A line must recur on at least this many pages to be furniture."""
    furniture_exact_share: float = 0.04
    """... and, verbatim, on this share of the pages (a running title);"""
    furniture_masked_share: float = 0.25
    """... or with digits masked on this share (``Page 12``): numbered headings like ``Item 7.`` that
    happen to open a few pages at the same height must survive."""
    running_section: int = 3
    """A numbered line (``PART I | Item 1A``) repeated verbatim at the same height on this many pages is a
    running section header, however short its section: a heading is printed once."""
    furniture_slot_share: float = 0.25
    """A height where proven furniture sits on this share of the pages is a furniture slot: any text
    that recurs there twice (a running section title on facing pages) is furniture too."""

    # page furniture from the page texts (furniture.PageFurniture; issue 8 design block)
    furniture_edge_lines: int = 3
    """Lines at each end of a page's text where a running header or footer (digits masked) is looked for."""
    furniture_verbatim_lines: int = 2
    """... and where one that repeats verbatim (a chapter's running title) is looked for."""
    furniture_top_lines: int = 6
    """Lines at the top of a page compared with nearby pages' tops (running headers on a few pages)."""
    furniture_chars: int = 120
    """Longer lines are never furniture (and are not compared)."""
    margin_chars: int = 120
    """At most this much text in the margin band ahead of a heading is the page's header, not content."""
    furniture_height_step: float = 3.0
    """Points of height treated as one furniture slot (headers drift a little between pages)."""
    upper_half: float = 0.5
    """A numbered line above this share of the page height may be a chapter label, not a footer."""
    page_height: float = 792.0
    """Height assumed for a page that reports none (US Letter, in points)."""

    # typographic headings (headings.py)
    max_rows: int = 3
    """A heading wraps onto at most this many lines (one more when it is large)."""
    max_chars: int = 180
    """Longer runs are paragraphs, not headings."""
    max_words: int = 24
    """... as are runs of more words."""
    larger: float = 1.08
    """A size this much above the body size is a heading size."""
    repeat_share: float = 0.03
    """An unnumbered title on this share of pages (and at least 5) is a form or table header."""

    # printed TOC (toc.py, toc_place.py)
    min_placed_ratio: float = 0.3
    """Below this share of placed entries the TOC (or our reading of it) is not trusted."""
    fuzzy_min: float = 0.86
    """Lowest similarity at which a line that is not an exact heading match is accepted."""
    label_fuzzy_min: float = 0.6
    """Lowest similarity of the words after a matching section number (reworded body headings)."""
    snap_band: float = 0.10
    """A TOC heading preceded on its page only by text in this top/bottom band starts the page."""

    # outline quality (outline_quality.py)
    same_page_share: float = 0.5
    """An outline with more than this share of its entries aimed at one page is junk."""
    flat_numbered_share: float = 0.3
    """A depth-1 outline whose titles are numbered this often, at several depths, is re-levelled."""


HEURISTICS = Heuristics()
