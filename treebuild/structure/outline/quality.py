"""Is a PDF outline worth trusting? Junk entries, flat outlines, partial outlines.

Outlines are written by tools as often as by authors. Merging exhibit files leaves one bookmark per
file, titled with its file name and aimed at page 1 (``Ex 21 Q4 2022.pdf``); converters flatten
every level to 1 while the titles still say ``2.3.59.1.1``; some list a handful of chapters for a
400-page book. This module cleans what can be cleaned (drop file-name entries and lift their
children, re-level a flat outline from its numbering) and says when the outline should give way
to detection from the document itself.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ...findings import Finding, Stage
from ...model import OutlineEntry
from ...text.numbering import common_prefix, parse_numbering, strip_dates
from ..heuristics import HEURISTICS as H

__all__ = [
    "OutlineVerdict",
    "assess_outline",
    "clean_outline",
    "is_file_name",
    "relevel_from_numbering",
]

_FILE_NAME = re.compile(r"\.(?:pdf|docx?|xlsx?|pptx?|html?|txt|rtf|tiff?|jpe?g|png)\s*$", re.IGNORECASE)


def is_file_name(title: str) -> bool:
    """``Ex 10.13 Q4 2022.pdf``: a bookmark named after a merged file, not a section."""
    return bool(_FILE_NAME.search(title))


@dataclass
class OutlineVerdict:
    """What the outline is worth: ``good``, ``relevelled`` (was flat), ``cleaned`` or ``junk``."""

    entries: list[OutlineEntry]
    kind: str
    dropped: int = 0
    reasons: list[Finding] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        return self.kind != "junk"


def clean_outline(entries: list[OutlineEntry], pages: int) -> tuple[list[OutlineEntry], int]:
    """Drop entries outside the document and file-name entries; lift a dropped entry's children."""
    out: list[OutlineEntry] = []
    dropped = 0
    lift: list[int] = []  # levels of dropped file-name entries still open
    for e in entries:
        while lift and e.level <= lift[-1]:
            lift.pop()
        if is_file_name(e.title):
            lift.append(e.level)
            dropped += 1
            continue
        if not 1 <= e.page <= pages:
            dropped += 1
            continue
        level = max(1, e.level - len(lift))
        out.append(OutlineEntry(level=level, title=e.title, page=e.page, y=e.y))
    return out, dropped


def relevel_from_numbering(entries: list[OutlineEntry]) -> list[OutlineEntry] | None:
    """Levels from dotted numbering for a flat outline (``2.3.59.1`` -> 1, ``2.3.59.1.1`` -> 2).

    ``None`` when the titles do not carry numbering at more than one depth.
    """
    nums = [parse_numbering(strip_dates(e.title)) for e in entries]
    dotted = [n.parts for n in nums if n is not None and n.kind in ("decimal", "exhibit", "section", "appendix")]
    if len(dotted) < max(H.min_outline_entries, H.flat_numbered_share * len(entries)) \
            or len({len(p) for p in dotted}) < 2:
        return None
    prefix = common_prefix(dotted)
    out: list[OutlineEntry] = []
    for e, n in zip(entries, nums, strict=True):
        if n is not None and n.kind in ("decimal", "exhibit", "section", "appendix"):
            level = max(1, len(n.parts) - prefix)
        else:
            level = 1
        out.append(OutlineEntry(level=level, title=e.title, page=e.page, y=e.y))
    return out


def assess_outline(entries: list[OutlineEntry], pages: int) -> OutlineVerdict:
    """Clean the outline and judge it; ``junk`` means: detect the structure instead."""
    cleaned, dropped = clean_outline(entries, pages)
    reasons: list[Finding] = []
    if dropped:
        reasons.append(Finding("outline_entries_dropped", Stage.structure,
                               f"dropped {dropped} outline entries named like files or pointing outside the document"))
    if not cleaned:
        return OutlineVerdict(cleaned, "junk", dropped,
                              reasons + [Finding("outline_empty", Stage.structure, "no usable outline entries")])
    top_page, top_count = Counter(e.page for e in cleaned).most_common(1)[0]
    # many bookmarks on one page of a long document (short ones legitimately share pages)
    if len(cleaned) >= H.judged_outline_entries and top_count > H.same_page_share * len(cleaned) \
            and pages >= H.pages_per_entry * len(cleaned):
        return OutlineVerdict(cleaned, "junk", dropped,
                              reasons + [Finding("outline_one_page", Stage.structure,
                                                 f"{top_count} of {len(cleaned)} outline entries point at page "
                                                 f"{top_page}", page=top_page)])
    if max(e.level for e in cleaned) == 1:
        relevelled = relevel_from_numbering(cleaned)
        if relevelled is not None:
            return OutlineVerdict(relevelled, "relevelled", dropped,
                                  reasons + [Finding("outline_relevelled", Stage.structure,
                                                     "flat outline re-levelled from the numbering in its titles")])
    return OutlineVerdict(cleaned, "cleaned" if dropped else "good", dropped, reasons)
