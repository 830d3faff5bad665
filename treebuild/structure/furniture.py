"""Running headers, footers and page numbers: lines that repeat on many pages at the same height.

They look like headings (short, often bold, sometimes large) but are page furniture, so heading
detection drops them first. A line is furniture when its text with digits masked (``Page 12`` and
``Page 13`` are the same line) recurs at the same height near the top or bottom of enough pages,
or when it is only a page number there.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..model import Line, SourceDoc
from .heuristics import HEURISTICS as H
from .numbering import is_label, parse_numbering
from .patterns import is_page_number

__all__ = ["furniture", "is_page_number"]


_DIGITS = re.compile(r"\d+")
def _keys(line: Line) -> tuple[tuple[str, int], tuple[str, int]]:
    y = int(round(line.y0 / 3.0))
    text = line.text.casefold()
    return (text, y), ("\x00" + _DIGITS.sub("#", text), y)


def furniture(doc: SourceDoc, pages: range | None = None) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Running headers, footers and page numbers as ``(unit index, line index)``, and the lines that
    sit in a furniture slot without being proven furniture (running titles seen once: a heading
    whose title they repeat tells them apart)."""
    pages = pages if pages is not None else range(len(doc.units))
    seen: dict[tuple[str, int], set[int]] = defaultdict(set)
    slot_pages: dict[int, set[int]] = defaultdict(set)
    banded: list[tuple[int, int, tuple[str, int], tuple[str, int]]] = []
    out: set[tuple[int, int]] = set()
    for u in pages:
        height = doc.units[u].height or 792.0
        top, bottom = height * H.furniture_band, height * (1.0 - H.furniture_band)
        for j, line in enumerate(doc.lines(u)):
            if line.y1 > top and line.y0 < bottom:
                continue
            exact, masked = _keys(line)
            if is_page_number(line.text):
                out.add((u, j))
                slot_pages[exact[1]].add(u)
                continue
            seen[exact].add(u)
            seen[masked].add(u)
            banded.append((u, j, exact, masked))
    n = len(pages)
    least = max(2, min(H.furniture_min_repeats, n))  # a two-page document repeats its header twice
    need_exact = max(least, int(n * H.furniture_exact_share))
    need_masked = max(least, int(n * H.furniture_masked_share))
    need_slot = max(least, int(n * H.furniture_slot_share))
    rest: list[tuple[int, int, tuple[str, int]]] = []
    for u, j, exact, masked in banded:
        line = doc.lines(u)[j]
        numbered_top = line.y0 < (doc.units[u].height or 792.0) * 0.5 \
            and (parse_numbering(line.text) is not None or is_label(line.text))
        if numbered_top and _count(seen, exact) < n * H.furniture_masked_share and not (
                _count(seen, exact) >= H.running_section and parse_numbering(line.text) is not None):
            continue  # "CHAPTER" over every chapter title, "Exhibit 2.3.59-7" opening many pages
        if _count(seen, exact) >= need_exact or (not numbered_top and _count(seen, masked) >= need_masked):
            out.add((u, j))
            slot_pages[exact[1]].add(u)
        else:
            rest.append((u, j, exact))
    # slots are heights where proven furniture sits on many pages; body text that merely starts
    # at the same height on every page does not make one
    suspects: set[tuple[int, int]] = set()
    for u, j, exact in rest:
        y = exact[1]
        if len(slot_pages[y] | slot_pages.get(y - 1, set()) | slot_pages.get(y + 1, set())) >= need_slot:
            if _count(seen, exact) >= 2:
                out.add((u, j))
            else:
                suspects.add((u, j))
    return out, suspects


def _count(seen: dict[tuple[str, int], set[int]], key: tuple[str, int]) -> int:
    """Pages with this text at this height or one step either side (headers drift a point)."""
    hits = seen.get(key, set())
    text, y = key
    return len(hits | seen.get((text, y - 1), set()) | seen.get((text, y + 1), set()))
