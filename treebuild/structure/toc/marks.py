"""Printed table of contents as a structure source: find it, parse it, place every entry.

The pipeline: ``find_toc_pages`` scans the front of the document; ``parse_rows`` reads the
entries (title, printed page, level); ``PageMap`` turns printed pages into physical ones
(page labels, printed folios, or an offset voted by titles found in the body, per numbering
run); ``place_entries`` verifies each entry by finding its heading on or near its page. An
entry that cannot be verified is dropped and counted, never invented; if too few can be
placed the TOC is not trusted at all (a warning says so and ``marks`` is empty).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...findings import Finding, Stage
from ...model import Mark, Origin, Pos, SourceDoc
from ...text.furniture import FURNITURE_EDGE_LINES, PageFurniture
from ...text.normalize import normalize_title
from ..heuristics import HEURISTICS as H
from .detect import find_toc_pages, pageless_listings
from .pagemap import PageMap, parse_page_ref
from .parse import TocEntry, parse_rows
from .place import PageTexts, Placement, place_entries

__all__ = ["TocResult", "toc_marks"]

TITLE_CONFIDENCE = 0.9
"""A part placed at its own title above its contents, on the TOC page (read there, not searched for)."""


@dataclass
class TocResult:
    """Verified marks from a printed TOC plus counts for the tree's audit record."""

    marks: list[Mark]
    toc_pages: list[int] = field(default_factory=list)  # 0-based unit indexes of the TOC itself
    entries: int = 0  # entries parsed from the TOC
    placed: int = 0  # entries verified on a page and kept
    dropped: list[str] = field(default_factory=list)  # titles that could not be placed
    warnings: list[Finding] = field(default_factory=list)
    parsed: list[TocEntry] = field(default_factory=list)  # every entry as read, levels included
    page_source: str = ""  # "labels" | "folios" | "offset" | "none": how printed pages were mapped
    paged: bool = True  # False when the TOC prints no page numbers


def toc_marks(doc: SourceDoc, furniture: PageFurniture | None = None) -> TocResult | None:
    """Find, parse and place the printed TOC of ``doc``; ``None`` when there is none. ``furniture``
    is the layout's page furniture (made here when not given)."""
    if not doc.paged or not doc.units:
        return None
    pages = find_toc_pages(doc)
    if pages is None:
        return None
    entries = parse_rows(pages)
    if len(entries) < 2:
        return None
    texts = PageTexts(doc)
    pagemap = PageMap(doc, after=pages.piece_pages()[0][-1])
    _calibrate(doc, pagemap, entries, pages.pages, texts)
    span = len(doc.units) if not pages.paged else H.toc_span_pages
    listings = pageless_listings(doc, pages.pages[-1]) if not pages.paged else None
    placements = place_entries(doc, entries, pages.pages, pagemap, texts, span=span, listings=listings)
    furniture = furniture if furniture is not None else PageFurniture(doc)
    return _result(doc, pages.pages, entries, placements, pagemap, pages.paged, furniture)


def _calibrate(doc: SourceDoc, pagemap: PageMap, entries: list[TocEntry], toc: list[int],
               texts: PageTexts) -> None:
    """Vote an offset for numbering runs that labels and folios do not cover."""
    refs = [e.page for e in entries if e.page]
    runs = pagemap.needs_offset(refs)
    if not runs:
        return
    body = range(0, len(doc.units))
    skip = set(toc)
    for run in runs:
        sample = [e for e in entries if e.page and (p := parse_page_ref(e.page)) is not None and p[0] == run]
        if len(sample) > H.toc_vote_samples:
            step = len(sample) / H.toc_vote_samples
            sample = [sample[int(i * step)] for i in range(H.toc_vote_samples)]
        pagemap.vote_offsets((e.page or "", _finder(texts, e, body, skip)) for e in sample)
    if pagemap.offsets and pagemap.source == "none":
        pagemap.source = "offset"


def _finder(texts: PageTexts, entry: TocEntry, body: range, skip: set[int]) -> Callable[[], int | None]:
    title = normalize_title(entry.title)
    return lambda: texts.first_line_start(title, body, skip)


def _place_groups(placements: list[Placement]) -> list[Placement]:
    """A group heading printed without a page ("Financial Statements and Supplemental Details"
    over its statements) starts where its first sub-entry starts, so the sub-entries nest under it
    instead of under the previous section. Only an unplaced, page-less entry directly followed by
    a placed deeper one qualifies. A part whose title stands above its own contents (``at``) starts
    there, on the TOC page."""
    out = [Placement(p.entry, Pos(p.entry.unit, p.entry.at), TITLE_CONFIDENCE, "title") if p.entry.at >= 0 else p
           for p in placements]
    for i in range(len(out) - 2, -1, -1):
        p, nxt = out[i], out[i + 1]
        if p.pos is None and not p.entry.page and nxt.pos is not None and nxt.entry.level > p.entry.level:
            out[i] = Placement(p.entry, nxt.pos, confidence=min(0.5, nxt.confidence), how="group")
    return out


def _result(doc: SourceDoc, toc: list[int], entries: list[TocEntry], placements: list[Placement],
            pagemap: PageMap, paged: bool, furniture: PageFurniture) -> TocResult:
    if paged:
        placements = _place_groups(placements)
    placed = [p for p in placements if p.pos is not None]
    dropped = [p.entry.title for p in placements if p.pos is None]
    result = TocResult(marks=[], toc_pages=toc, entries=len(entries), placed=len(placed), dropped=dropped,
                       parsed=entries, page_source=pagemap.source, paged=paged)
    pages = ", ".join(str(u + 1) for u in toc)
    if len(placed) < 2 or len(placed) < H.min_placed_ratio * len(entries):
        result.warnings.append(Finding(
            "toc_ignored", Stage.structure, f"printed TOC on page(s) {pages} ignored: only {len(placed)} of "
            f"{len(entries)} entries were found as headings in the body", page=toc[0] + 1 if toc else None))
        return result
    if dropped:
        result.warnings.append(Finding(
            "toc_entries_dropped", Stage.structure, f"printed TOC on page(s) {pages}: {len(dropped)} of "
            f"{len(entries)} entries not found as headings in the body and left out", page=toc[0] + 1 if toc else None))
    last = Pos(-1, 0)
    for p in placed:
        assert p.pos is not None
        pos = Pos(p.pos.unit, 0) if p.pos.char and _page_start(doc, p.pos, furniture) else p.pos
        if pos <= last:  # never move a start before (or onto) the previous one
            pos = p.pos
        last = pos
        result.marks.append(Mark(title=p.entry.title, level=p.entry.level, pos=pos, origin=Origin.toc,
                                 confidence=p.confidence))
    return result


def _page_start(doc: SourceDoc, pos: Pos, furniture: PageFurniture) -> bool:
    """An entry found at ``pos`` starts its page: only furniture stands above it, or what was found is
    the page's running footer (the section's name printed at the foot of its pages, the only place a
    reworded entry's title appears on its page): running lines only from there to the page's end."""
    unit = doc.units[pos.unit]
    if furniture.lead_only(unit, pos.char):
        return True
    rest = [ln for ln in unit.text[pos.char:].splitlines() if ln.strip()]
    return len(rest) <= FURNITURE_EDGE_LINES and all(furniture.is_running(ln) for ln in rest)

