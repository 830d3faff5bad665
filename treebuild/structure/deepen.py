"""Sub-headings below a placed structure: the printed TOC's (or the outline's) depth is not the floor.

A printed TOC often lists chapters and sections only, and an author's outline may stop at two levels
over a long manual, while the pages set their sub-sections apart in type. Inside each *leaf* section
placed from the TOC or the outline, the headings of the typography scan (``typography.headings``,
the one heading detector; minor run-in heads left out) that are set finer than the entry's own
heading are nested below it:

- a placed entry stays where it is, and a heading that prints an entry (``combine.same_heading``) is
  that entry: it tells which heading level the entry is printed in, and is not added again;
- an entry's printed level is that of its own heading, else the one most entries of its level are
  printed in; a heading nests under it only when set finer, so a section's peer printed in the same
  look is never made its child, and a section with no known printed level gets nothing;
- levels are the document's: a heading level that occurs under many sections is one step below its
  parent wherever it occurs (the rank of its level among the finer levels found), at most
  ``MAX_DEPTH`` steps below the placed entry;
- noise stays out: a heading level printed fewer than ``MIN_STYLE_HEADS`` times under the placed
  sections (a chart's title, a one-off bold line), headings inside a table's span (``doc.tables``),
  a numbered heading that does not number on from a numbered entry (``2.3.1`` under ``2.3``; a
  list's ``1.`` is not a section of ``2.3``), a title printed more than once in one section (the labels
  of a figure drawn again and again: a section's sub-sections are named apart), a section with a
  single such heading (a caption or a lead-in, not a division of the section). The scan already leaves
  out page furniture and minor heads (bold words at the body size).

The marks added keep the scan's origin (``heading``/``numbering``) and confidence, so the tree's
``method`` and each node's origin say they were found by typography.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from ..model import Mark, Origin, Pos, SourceDoc
from ..text.normalize import normalize_title
from ..text.numbering import parse_numbering
from .combine import same_heading, section_at
from .heuristics import HEURISTICS as H
from .typography.headings import Heading, to_marks

__all__ = ["deepen", "PLACED", "SHALLOW", "MAX_DEPTH", "FORM_DEPTH", "MIN_STYLE_HEADS", "MIN_SECTION_HEADS"]

PLACED: frozenset[Origin] = frozenset({Origin.toc, Origin.outline})
"""Origins of the entries whose leaves are read for sub-headings (a printed TOC's, an outline's)."""
SHALLOW = 2
"""A TOC or an outline of at most this many levels is read for sub-headings under its leaves; a deeper
one lists its document's sub-sections already (and a LaTeX manual's deeper heads are paragraph heads)."""
MAX_DEPTH = 2
"""Heading levels nested below a placed entry: its sub-sections and theirs (deeper ones are paragraph heads)."""
FORM_DEPTH = 1
"""... one level under the entries of a document whose form a source claims (a filing's outline): its
Items' sub-sections, as the filing source nests them (its lower heads are paragraph heads)."""
MIN_STYLE_HEADS = 3
"""A heading level is a level of the document's outline when it prints at least this many headings
under the placed sections; fewer are one-offs (a chart's title, a centred quotation)."""
MIN_SECTION_HEADS = 2
"""A leaf is divided when it holds at least this many such headings: one alone is a lead-in or a caption."""


def deepen(doc: SourceDoc, marks: list[Mark], headings: list[Heading], *,
           placed: Collection[Origin] = PLACED, max_depth: int = MAX_DEPTH) -> list[Mark]:
    """``marks`` plus the typographic sub-headings found inside its leaf sections of ``placed`` origin."""
    skel = sorted(marks, key=lambda m: m.pos)
    if not skel or not headings:
        return marks
    tables = _table_spans(doc)
    pairs = [(h, m) for h, m in zip(headings, to_marks(headings), strict=True) if not _in_table(tables, h)]
    printed: dict[int, int] = {}
    loose: list[tuple[Heading, Mark]] = []
    for h, m in pairs:
        twin = next((i for i in _near(skel, m.pos) if same_heading(m, skel[i])), None)
        if twin is not None:
            printed[twin] = min(printed.get(twin, h.level), h.level)
        else:
            loose.append((h, m))
    by_level: dict[int, Counter[int]] = {}
    for i, lv in printed.items():
        by_level.setdefault(skel[i].level, Counter())[lv] += 1
    usual = {lv: c.most_common(1)[0][0] for lv, c in by_level.items()}
    leaves = {i for i, m in enumerate(skel) if m.origin in placed
              and (i + 1 == len(skel) or skel[i + 1].level <= m.level)}
    found: dict[int, list[tuple[Heading, Mark]]] = {}
    for h, m in loose:
        owner = section_at(skel, m.pos)
        if owner not in leaves:
            continue
        entry = skel[owner]
        own = printed.get(owner, usual.get(entry.level))
        if own is None or h.level <= own or not _numbers_on(entry, h) or (_echo(entry, m) and not _extends(entry, h)):
            continue
        found.setdefault(owner, []).append((h, m))
    count = Counter(h.level for members in found.values() for h, _ in members)
    common = {lv for lv, n in count.items() if n >= MIN_STYLE_HEADS}
    out = list(marks)
    for owner, members in found.items():
        seen = Counter(normalize_title(m.title) for _, m in members)
        members = [(h, m) for h, m in members if h.level in common and seen[normalize_title(m.title)] == 1]
        if len(members) < MIN_SECTION_HEADS:
            continue
        own = printed.get(owner, usual.get(skel[owner].level))
        assert own is not None
        finer = sorted({lv for lv in common if lv > own})
        for h, m in members:
            step = finer.index(h.level) + 1
            if step <= max_depth:
                out.append(Mark(m.title, skel[owner].level + step, m.pos, m.origin, m.confidence))
    out.sort(key=lambda m: m.pos)
    return out


def _near(skel: list[Mark], pos: Pos) -> list[int]:
    """Indexes of the entries on ``pos``'s page (a heading prints an entry on its own page)."""
    i = section_at(skel, Pos(pos.unit, 0))
    out = []
    j = max(i, 0)
    while j < len(skel) and skel[j].pos.unit <= pos.unit:
        if skel[j].pos.unit == pos.unit:
            out.append(j)
        j += 1
    return out


def _echo(entry: Mark, m: Mark) -> bool:
    """A heading at (or right under) the entry's own start: the entry's heading printed in other words."""
    return m.pos.unit == entry.pos.unit and m.pos.char - entry.pos.char <= H.echo_chars // 4


def _extends(entry: Mark, h: Heading) -> bool:
    """A decimal-numbered heading whose number continues a decimal-numbered entry's (``2.3.1`` under ``2.3``)."""
    own = parse_numbering(entry.title)
    if h.numbering is None or h.numbering.kind != "decimal" or own is None or own.kind != "decimal":
        return False
    n = len(own.parts)
    return len(h.numbering.parts) > n and tuple(h.numbering.parts[:n]) == tuple(own.parts)


def _numbers_on(entry: Mark, h: Heading) -> bool:
    """A decimal-numbered heading under a decimal-numbered entry numbers on from it (``2.3.1`` under ``2.3``)."""
    if h.numbering is None or h.numbering.kind != "decimal":
        return True
    own = parse_numbering(entry.title)
    if own is None or own.kind != "decimal":
        return h.numbering.depth > 1  # a bare ``1.`` under an unnumbered entry is a list item
    return _extends(entry, h)


def _table_spans(doc: SourceDoc) -> dict[int, list[tuple[int, int]]]:
    spans: dict[int, list[tuple[int, int]]] = {}
    for t in doc.tables:
        spans.setdefault(t.unit, []).append((t.start, t.end))
    return spans


def _in_table(spans: dict[int, list[tuple[int, int]]], h: Heading) -> bool:
    """The heading's text lies inside a table's span (a header row or a row label read as a heading)."""
    return any(a <= h.char < b for a, b in spans.get(h.unit, ()))
