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
    echo_chars: int = 200
    """Two marks with the same title this close (characters) on one page are one heading seen twice."""
    echo_text: int = 40
    """A heading with less own text than this before its node's end is the next section's, seen early."""

    # page furniture: its thresholds are named constants of treebuild/text/furniture.py (the text layer)
    margin_chars: int = 120
    """At most this much text in the margin band ahead of a heading is the page's header, not content."""

    # typographic headings (typography/headings.py)
    max_rows: int = 3
    """A heading wraps onto at most this many lines (one more when it is large)."""
    max_chars: int = 180
    """Longer runs are paragraphs, not headings."""
    max_words: int = 24
    """... as are runs of more words."""
    larger: float = 1.08
    """A size this much above the body size is a heading size."""
    named_head: float = 1.25
    """A numbered row this much above the body size opening in lower case names an option or command
    (``5.1 draft | final``): list items that read as sentences are set near the body size."""
    repeat_share: float = 0.03
    """An unnumbered title on this share of pages (and at least ``repeat_pages``) is a form or table header."""
    run_in_words: int = 6
    """A run-in sub-section title (``4.1. Priority Trees. Note ...``) has at most this many words."""
    run_in_series: int = 2
    """... and comes with at least this many siblings under a numbered heading found on its own line."""
    title_step: float = 1.0
    """Points by which a document's title (its first heading, on page one) outsizes every other heading."""
    title_back_share: float = 0.2
    """A heading in this last share of the pages (an index set in a display size) may be as large as the
    document's title ..."""
    title_back_rivals: int = 1
    """... when it is the only one: several are chapters, and the first page's large heading is the first."""
    title_block_chars: int = 80
    """Heading-like lines this close after a document's title (characters between) are its author and date lines."""
    title_page_chars: int = 600
    """A first page with no more text than this is a title page (title, subtitle, authors, date, version) ..."""
    title_page_share: float = 0.25
    """... and no more than this share of a typical page's text (a short document's first section is not)."""
    title_min_headings: int = 3
    """... in a document with at least this many headings (a title alone is the only structure there is)."""
    figure_label: float = 0.6
    """Text beside a heading smaller than this share of its size is a figure's labels (atom numbers in a
    diagram in the next column), not a table row's cells that would make the heading a row label."""
    same_baseline: float = 0.4
    """Rows whose tops differ by less than this share of the type size sit on one baseline (a bare number
    in the body type labels a heading only there; above it, it is a figure's number)."""
    version_run: int = 6
    """This many same-style headings in a row that differ only in their version numbers are a change
    history's entries, not sections (a few such headings may be real sections: ``Version 2 API``)."""
    small_heading: float = 0.55
    """A bold row with a dotted number is a heading down to this share of the body size (HTML's
    ``h6`` is printed at 0.67 of the text size); smaller, it is a footnote's or a figure's text."""
    scheme_restarts: int = 2
    """A numbering scheme (``1.``, ``A.``, ``I.``, ``(a)``) that counts again from its first value right
    after headings of another scheme at least this many times ..."""
    scheme_restart_share: float = 0.8
    """... and on at least this share of its restarts is nested in that scheme (a handbook's ``1.``
    heads under its ``A.`` heads under its chapters): one restart may be an appendix's own list."""
    body_prose_share: float = 0.2
    """The body size is read from the non-monospace text when it holds this share of the characters
    (code listings set in a smaller type are not the body; an all-code document keeps its own)."""
    same_size: float = 0.3
    """Points within which two type sizes are one size: rows of one style, a table's cells beside a row
    in its type; a row this much below the body is still at the body size (converters set a heading a
    few tenths of a point smaller than its text)."""
    mono_step: float = 0.5
    """A monospace row is prominent only when more than this many points larger than the body (code
    listings are set at or near the body size)."""
    centred_indent: int = 20
    """A centred row starts more than this many points right of the text's left margin (a full-width
    line's middle is the column's too)."""
    run_gap: float = 0.9
    """The rows of one heading are less than this share of its type size apart (its line spacing) ..."""
    hang_left: int = 2
    """... and each starts at most this many points left of the first row (a hanging indent) ..."""
    hang_right: int = 45
    """... or at most this many right of it (a title wrapped under its number) ..."""
    label_hang: float = 12.0
    """... or under the words after its label, this many points of slack past where the label's share of
    the row's characters puts them (``Strategic Goal 6:`` / its words hanging 60 points in; the share
    misses the glyphs' widths by a few points) ..."""
    centred_rows: int = 30
    """... or their left and right edges added differ by less than this (middles within 15 points: the
    rows of a centred title)."""
    bullet_gap: float = 3.0
    """A bullet printed as a line of its own opens the row right of it on its baseline when at most this
    many of the row's type sizes left of it (a list's hanging indent is about 1.5-2.5)."""
    wrap_pitch: float = 1.5
    """A heading's row that sits in a block of its own goes on the title above only this many of the
    title's type sizes below the row above, top to top: a wrapped line's leading (single spacing is
    1.15-1.25 of the size), where two headings stacked in one type are a paragraph's gap apart (1.7
    and more: ``FINANCIAL CONDITION`` over ``LIQUIDITY``, ``2. Debt`` over a table's title)."""
    line_gap: float = 0.45
    """At most this share of the font size between the rows of one paragraph: a row further below the
    one above starts a block, and a bold name no further above a small-letter row runs on into it."""
    display_size: float = 1.2
    """A heading this much larger than the body may wrap onto one row more than ``max_rows``."""
    italic_heading: float = 1.15
    """An italic row that is not bold is emphasis, not a heading, up to this share of the body size."""
    label_gap: int = 8
    """A label on its own line (``Chapter One``) opens a title at most this many of the title's type
    sizes below it."""
    row_cells: int = 3
    """Lines joined into one row, this many or more, are a table's cells (a heading is one line, or a
    number and its title)."""
    item_sentence_words: int = 3
    """A numbered line whose text after its label holds this many words and starts in lower case reads
    as a sentence (``(iv) requires payment ...``) ..."""
    break_words: int = 12
    """... as does a line of this many words that holds a sentence break (``... Exhibit A. The ...``)."""
    stop_title_words: int = 9
    """A title that ends in a full stop has at most this many words (``Colors.``; longer, a sentence)."""
    repeat_pages: int = 5
    """An unnumbered title printed on this many pages (and ``repeat_share`` of them) is a header."""
    margin_line_chars: int = 40
    """Lines longer than this tell the text's margins (short ones are titles, cells and folios)."""
    min_column: int = 100
    """The text column is taken to be at least this many points wide."""
    larger_pages: int = 3
    """Headings larger than the body on at least this many pages ..."""
    larger_page_per: int = 25
    """... and on one page in this many make the body-size bold lines minor headings (a cover's large
    title alone does not)."""
    numbered_min: int = 8
    """A document numbers its sections when it has this many dotted headings ..."""
    numbered_share: float = 0.6
    """... and they are this share of its major headings: unnumbered headings in a numbered sub-section's
    style are then minor."""
    min_body_size: float = 0.5
    """The smallest body size (points; the half-point step sizes are counted in): text reported smaller
    counts as this size. MuPDF reports 0 for text set through a degenerate matrix and for some Type3 fonts
    (a book in a typewriter face), and every heading test divides a line's size by the body's."""

    # printed TOC (toc/marks.py, toc/place.py)
    min_placed_ratio: float = 0.3
    """Below this share of placed entries the TOC (or our reading of it) is not trusted."""
    fuzzy_min: float = 0.86
    """Lowest similarity at which a line that is not an exact heading match is accepted."""
    label_fuzzy_min: float = 0.6
    """Lowest similarity of the words after a matching section number (reworded body headings)."""
    snap_band: float = 0.10
    """A TOC heading preceded on its page only by text in this top/bottom band starts the page."""

    # printed TOC pages and rows (toc/detect.py, toc/marks.py, toc/place.py, toc/parse.py; issue 8 design block)
    toc_front_share: float = 0.25
    """A printed TOC starts within about this share of the leading pages ..."""
    toc_front_min: int = 12
    """... but never fewer than this many pages (a short document's TOC may follow a long front matter)"""
    toc_front_max: int = 30
    """... nor more (a long document's TOC is near its front)."""
    toc_enough_entries: int = 8
    """A TOC run with this many entries ends the search (smaller runs: a short list of parts first) ..."""
    toc_next_pages: int = 3
    """... once no other TOC run starts within this many pages after it (a book's ``Short Contents``
    is followed by its full ``Table of Contents``; the richest run is read)."""
    toc_piece_overlap: int = 2
    """A later piece of a contents printed in several (a part's own ``Contents``) lists pages from the last
    page the piece before it listed, less this many (a section that starts on the page the last one did)."""
    part_title_rows: int = 2
    """A part's title above its own contents (``Part II`` / ``Examples``) takes at most this many rows
    under its label."""
    toc_row_extra: int = 16
    """Characters a TOC row's text line holds beyond its title (section and page numbers): where the TOC
    ends on its last page is its last such line, not a sentence of the first section that names the entry."""
    toc_span_pages: int = 40
    """Pages searched forward for a TOC entry without a usable page reference."""
    toc_vote_samples: int = 12
    """Entries per numbering run whose heading is looked up to vote a printed-to-physical page offset."""
    row_merge: float = 0.45
    """Lines whose middles are this share of a line height apart or less are one visual row."""
    column_gutter: float = 0.05
    """Share of the text width left of the middle where a second TOC column may start ..."""
    column_overlap: float = 0.1
    """... and right of the middle that a left-column row may reach."""
    min_column_rows: int = 3
    """A two-column TOC has at least this many rows in each column."""
    column_lead: float = 1.5
    """A TOC column's lines are at most this many line heights apart (a wider gap above its first
    entry ends the column: a figure or the title block)."""
    margin_top: float = 0.08
    """A TOC-page row above this share of the height without a page reference is a running header ..."""
    margin_bottom: float = 0.93
    """... and one below this share a running footer."""
    titled_toc_entries: int = 3
    """A page under a contents title is a TOC with this many "title ... page" rows ..."""
    titled_toc_share: float = 0.25
    """... making up this share of its rows ..."""
    toc_monotonic: float = 0.6
    """... with page numbers that rise this often from row to row."""
    untitled_toc_entries: int = 6
    """Without a contents title a page needs this many entries ..."""
    untitled_toc_share: float = 0.5
    """... this share of its rows ..."""
    untitled_monotonic: float = 0.8
    """... rising this often ..."""
    untitled_aligned: float = 0.6
    """... right-aligned at one x this often ..."""
    untitled_in_range: float = 0.9
    """... and this share of pages the document could have (not amounts or step numbers)."""
    continued_entries: int = 2
    """A following page continues the TOC with this many entries ..."""
    continued_share: float = 0.35
    """... making up this share of its rows."""
    pageless_rows: int = 5
    """A TOC without page numbers: this many numbered rows under a contents title ..."""
    pageless_share: float = 0.6
    """... this share of the rows under it (the rest wrap); a continuation page needs ..."""
    pageless_continued_share: float = 0.7
    """... this share of numbered rows."""
    pageless_max_paged: int = 2
    """A page with more "title ... page" rows than this is not a TOC without page numbers."""
    quick_titled_ends: int = 3
    """Text-only pre-filter: a page with a contents title and this many lines ending in a page ..."""
    quick_ends: int = 6
    """... or this many such lines ..."""
    quick_share: float = 0.15
    """... making up this share of its lines gets a typographic look."""
    folio_reach: int = 15
    """A page without a folio takes its number from a detected folio of the same run at most this far."""
    folio_support: int = 3
    """A printed folio counts when a page within this many agrees with its numbering run and offset."""
    listing_rows: int = 5
    """A page lists sections (no headings on it) with this many leader rows or folio lines under a
    contents title, or this many ``Item N`` lines ..."""
    listing_leader_share: float = 0.25
    """... or leader rows making up this share of its lines, anywhere in the document;"""
    item_listing: int = 8
    """... or this many ``Item N`` lines with folios (a filing's cross-reference index)."""
    contents_title_lines: int = 8
    """A contents title is among the first this many lines of its page ..."""
    contents_title_chars: int = 40
    """... and shorter than this."""
    contents_raw_chars: int = 60
    """A contents title is shorter than this as printed (``C O N T E N T S`` letter-spaced)."""
    page_align: float = 3.0
    """Points within which page numbers count as right-aligned at one x ..."""
    na_align: float = 4.0
    """... and within which an ``n/a`` or dash cell stands in their column."""
    min_aligned_rows: int = 3
    """A right edge of page numbers needs this many rows ending there."""
    column_gap: float = 20.0
    """Points either side of the middle where a page number and the next column's title meet."""
    max_page_ref: int = 5000
    """Printed page references are below this (larger numbers are amounts)."""
    years: tuple[int, int] = (1900, 2100)
    """A four-digit number in this range, not set apart as a cell, is a year, not a page."""
    max_entry_chars: int = 300
    """A TOC entry's title is shorter than this."""
    numbered_title_chars: int = 160
    """A numbered row of a TOC without page numbers is at most this long."""
    indent_tolerance: float = 4.0
    """Points of indentation treated as equal in a TOC's levels."""
    toc_row_size_tolerance: float = 0.6
    """Points of type size treated as equal between TOC rows (a page-less last entry set like the others)."""
    hanging_indent: float = 20.0
    """The later lines of a wrapped TOC title hang at most this far right of its first line's title
    (under the title when the label is set apart, past the label when it is not)."""
    middle_line_width: float = 0.75
    """The middle line of a TOC title wrapped over three lines is at least this share of the first
    line's title width (the typesetter filled it; a pageless child entry is a short title)."""

    # page windows and outline checks (windows.py, outline/quality.py, sources.py; issue 8 design block)
    window_min_cut: float = 1 / 3
    """A window ends at a sentence end inside its last page only below this share of the page's text
    (a cut higher up leaves a sliver); else it ends with the page."""
    window_confidence: float = 0.3
    """Confidence of a page window: a cut for size, not a section the document prints."""
    min_outline_entries: int = 3
    """An outline with fewer entries (or fewer numbered ones to re-level from) says little."""
    judged_outline_entries: int = 4
    """Fewer entries may all point at one page legitimately (a short document) ..."""
    pages_per_entry: int = 2
    """... as may entries of a document with fewer than this many pages per entry."""

    # outline quality (outline/quality.py)
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

    # filings, third pass (filing/subsections.py)
    filing_look_titles: int = 2
    """A heading look that prints fewer distinct titles in a filing is a one-off (a chart title), ranked
    with the common look of its size and weight."""
    mda_head_spread: float = 0.5
    """A short section inside MD&A keeps its heads when they stand on at least this many distinct pages
    per head (three heads on one page are paragraph heads: ``Operating Activities`` ...)."""
    filing_set_off: float = 60.0
    """Points right of a filing's heading margin beyond which a heading is set off like a centred one
    (indented sub-heads sit within about 40 points of the margin)."""

    # filings, fourth pass (filing/schedules.py)
    schedule_title_lines: int = 6
    """A schedule page's title block: company, label, name, statement, period, units."""
    schedule_note_chars: int = 120
    """A numbered note's heading line on a schedule page is shorter (longer lines are paragraphs)."""
    schedule_window: int = 6
    """The schedules follow the signature page within this many pages (index, auditor's report); a
    ``Schedule I`` further on is an attachment of an exhibit."""
    caps_share: float = 0.9
    """A filing's line whose letters are this share capitals is set in capitals (a title in plain type)."""
    title_line_chars: int = 160
    """A title's line is at most this long (a Part's or an Item's heading, an exhibit's title line);
    longer is running text that names one."""
    schedule_run_on: int = 2
    """A schedule page may run on to this many pages without a title block of their own."""
    tight_between: float = 0.3
    """Points of size difference within which the text above and below a title tight under a paragraph
    is one type (the title interrupts running text; a title page's lines differ more)."""
    tight_heading: float = 1.5
    """A row this many times the size of the text line right above it starts a section even in the
    same text block, unnumbered (a 16-point title 6 points under 10-point text); display lines and
    table labels of manuals are smaller steps."""
    short_section_heads: int = 2
    """A short section outside MD&A keeps heads set larger than the body only when it has at least this
    many (one larger row on a statement page is its title block's period line, not a sub-section)."""
    walk_heads: int = 5
    """An MD&A section with at least this many heads in one look below its own is walked through head by
    head (each line of the income statement): they are its sub-sections; fewer are paragraph heads. A short
    section outside MD&A with this many heads set larger than the body keeps them even on one page."""
    note_walk_heads: int = 4
    """A numbered note of the statements with at least this many heads larger than the body, each title
    once, is walked through head by head (an accounting-policies or other-details note: one topic a
    head); two or three are paragraph heads or table titles of one topic."""
    note_section_heads: int = 2
    """A note holds sub-headings at the body size when it has at least this many in a look that walks
    through another note of the filing; one alone is a lead-in or a table's caption."""
    note_head_indent: float = 30.0
    """Points right of a note's text margin within which its sub-headings start (a second level's
    indent is about 26); a table's column header at the body size stands far right of it."""
    beside_gap: float = 8.0
    """Points of blank between a row and a line to its right (or left) at the same height that make them
    two cells of one table row, not one line of text."""
    cell_gap: float = 6.0
    """Font sizes of blank between the two pieces of one row beyond which they are a table's column
    headers, not one title (the tab after an Item's number is about 4)."""


HEURISTICS = Heuristics()
