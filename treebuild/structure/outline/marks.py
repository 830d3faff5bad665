"""Marks from a PDF's embedded outline (bookmarks).

The destination's y decides where on a shared page a section begins: at the first text block
whose bottom lies below the destination point. Text above it that is only page furniture (a
page number, or a running header that repeats on neighbouring pages) does not count, so a
section that starts at the top of a page owns the whole page.
"""

from __future__ import annotations

from ...model import Mark, Origin, OutlineEntry, Pos, SourceDoc, Unit
from ...text.furniture import PageFurniture
from ...text.normalize import normalize_title
from ...text.numbering import is_label, strip_numbering

__all__ = ["outline_marks", "pos_from_y", "find_title_line"]

TITLE_LINES = 3
"""A title is matched on one line or wrapped over up to this many."""


def outline_marks(doc: SourceDoc, furniture: PageFurniture | None = None) -> list[Mark]:
    """One mark per outline entry that points at a page of the document, in outline order.
    ``furniture`` is the layout's page furniture (made here when not given)."""
    marks: list[Mark] = []
    n = len(doc.units)
    entries = [e for e in doc.outline if 1 <= e.page <= n]  # others point outside this file
    furniture = furniture if furniture is not None else PageFurniture(doc)
    positions = [pos_from_y(doc.units[e.page - 1], e.y, furniture) for e in entries]
    # A bookmark that points back before its predecessor but has children (one entry per
    # merged file, all aimed at page 1) starts where its first child starts.
    for i in range(len(entries) - 2, -1, -1):
        if i > 0 and positions[i] < positions[i - 1] and entries[i + 1].level > entries[i].level:
            positions[i] = positions[i + 1]
    _place_by_title(doc, entries, positions, furniture)
    for entry, pos in zip(entries, positions, strict=True):
        title = entry.title.strip() or "(untitled)"
        marks.append(Mark(title=title, level=entry.level, pos=pos, origin=Origin.outline))
    return marks


def _place_by_title(doc: SourceDoc, entries: list[OutlineEntry], positions: list[Pos],
                    furniture: PageFurniture) -> None:
    """Find the heading line of entries whose destination does not tell where on the page they start.

    Page-only destinations (``/Fit``, as ReportLab writes them), anchors at the page top (Texinfo)
    and per-page bookmarks give several entries the same destination, or one before its
    predecessor on the same page; all but the last would come out empty, and a lone page-only entry
    would take the end of the previous section that runs onto its page. Such an entry starts at
    the first line, after its predecessor and before the next entry placed elsewhere, that prints
    its title (numbering aside; a title may wrap onto the next lines); not found, it stays. A title
    found below nothing but page furniture starts at the page top, as in ``pos_from_y``. Distinct
    destinations that merely snap to the same text block are left alone: their order is right.
    """
    n = len(positions)
    for i in range(n):
        pos = positions[i]
        prev = positions[i - 1] if i > 0 and positions[i - 1].unit == pos.unit else None  # on the same page
        shared = any(_same_dest(entries[a], entries[a + 1]) for a in (i - 1, i) if 0 <= a < n - 1)
        y = entries[i].y
        pageonly = (y is None or y <= 0) and pos.char == 0  # /Fit: the page, not the heading
        if not (shared or pageonly or (prev is not None and pos < prev)):
            continue
        text = doc.units[pos.unit].text
        lo = max(pos.char, prev.char if prev is not None else 0)
        hi = len(text)
        for j in range(i + 1, n):
            if positions[j].unit != pos.unit:
                break
            if positions[j] != pos and positions[j].char > lo:
                hi = positions[j].char
                break
        found = find_title_line(text, entries[i].title, lo, hi)
        if found is None:
            continue
        at_top = lo == 0 and furniture.lead_only(doc.units[pos.unit], found)
        positions[i] = Pos(pos.unit, 0 if at_top else found)


def _same_dest(a: OutlineEntry, b: OutlineEntry) -> bool:
    return (a.page, a.y) == (b.page, b.y)


def find_title_line(text: str, title: str, lo: int, hi: int) -> int | None:
    """Offset of the first line starting in ``[lo, hi)`` that opens with ``title`` (numbering and
    case aside; the title may continue on the next two lines), or of the label lines right above
    it (``Chapter 3``, ``2.1``)."""
    want = normalize_title(strip_numbering(title))
    if not want:
        return None
    lines: list[tuple[int, str]] = []
    k = 0
    for line in text.splitlines(keepends=True):
        if lo <= k < hi:
            lines.append((k, line))
        k += len(line)
    normed = [normalize_title(strip_numbering(line)) for _, line in lines]
    for idx, head in enumerate(normed):
        if not head or not (want == head or want.startswith(head + " ")):
            continue
        joined = " ".join(x for x in normed[idx: idx + TITLE_LINES] if x)
        if joined == want or joined.startswith(want + " "):
            while idx > 0 and is_label(lines[idx - 1][1].strip()):
                idx -= 1
            return lines[idx][0]
    return None


def pos_from_y(unit: Unit, y: float | None, furniture: PageFurniture | None = None) -> Pos:
    """Character position on a page where content at or below ``y`` starts."""
    if y is None or not unit.blocks:
        return Pos(unit.index, 0)
    below = [b for b in unit.blocks if b[1] > y + 1.0]
    if not below:
        return Pos(unit.index, len(unit.text))
    if len(below) == len(unit.blocks):
        # Nothing lies above the point (a ``/Fit`` destination gives y 0): the whole page, even
        # when the text stream puts a running header last.
        return Pos(unit.index, 0)
    first = min(below, key=lambda b: (b[0], b[2]))
    if not unit.text[: first[2]].strip() or (furniture is not None and furniture.lead_only(unit, first[2])):
        return Pos(unit.index, 0)
    return Pos(unit.index, first[2])
