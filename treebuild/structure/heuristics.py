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

    # structure accuracy, second pass (issue 8)
    table_label_gap: float = 1.6
    """A row label with table rows this close (font sizes) above and below it sits inside the table."""
    peer_min_entries: int = 2
    """A heading style names a skeleton level when at least this many entries of that level are set in it
    (and ``numbering_agreement`` of the entries set in it are of that level)."""
    sentence_words: int = 6
    """A line of this many words or more that ends with a full stop ..."""
    sentence_lower: float = 0.6
    """... and has this share of its later words in lower case is a sentence, not a title."""
    numbering_agreement: float = 0.6
    """Printed levels are re-derived from section numbers when this share of entries agree on the offset
    between them (all numbered entries, else those numbered at the top depth)."""


HEURISTICS = Heuristics()
