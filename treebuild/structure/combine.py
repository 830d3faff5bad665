"""Combining structure sources: a skeleton (outline, printed TOC, SEC Parts/Items) plus the finer
headings found inside its sections.

A printed TOC of a 10-K lists Items only; the sections inside an Item come from headings. So
the skeleton's marks are kept as they are and every heading that does not repeat a skeleton
entry is nested under the skeleton section that contains it, at a level given by the rank of its
own level among the headings of that section (the most prominent heading style inside Item 7 is
one level below Item 7, whatever its rank in the whole document).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable

from ..model import Mark, Pos
from ..text.normalize import normalize_title, same_title
from ..text.numbering import common_prefix, parse_numbering, strip_numbering
from .heuristics import HEURISTICS as H
from .typography.headings import MAX_LEVEL, Heading, to_marks

__all__ = ["same_heading", "section_at", "nest", "merge_skeletons", "enrich_outline", "levels_from_numbering"]

CONTAINED_CHARS = 8
"""Two title keys on one page, the shorter this long or longer and held in the other, name one heading."""
ENRICH_ENTRIES = 4
"""A printed TOC completes an outline (it has entries the outline lacks) with at least this many entries ..."""
ENRICH_RATIO = 1.5
"""... and this many times the outline's entries, or with deeper levels than the outline's."""
DOTTED_MARKS = 4
"""Levels are re-derived from section numbers with at least this many dotted marks (and half of them)."""



def _key(title: str) -> str:
    return normalize_title(strip_numbering(title))


def same_heading(a: Mark, b: Mark) -> bool:
    """Two marks for one heading: same page and the same title (numbering aside) or the same label."""
    if a.pos.unit != b.pos.unit:
        return False
    ka, kb = _key(a.title), _key(b.title)
    if ka and kb:
        if same_title(ka, kb):
            return True
        if min(len(ka), len(kb)) >= CONTAINED_CHARS and (ka in kb or kb in ka):
            return True
    na, nb = parse_numbering(a.title), parse_numbering(b.title)
    return na is not None and nb is not None and na.kind == nb.kind and \
        normalize_title(na.label) == normalize_title(nb.label)


def merge_skeletons(primary: list[Mark], extra: list[Mark], closing: re.Pattern[str] | None = None) -> list[Mark]:
    """``primary`` plus the marks of ``extra`` that it lacks, in document order.

    A primary mark that repeats an extra one takes the extra one's level (SEC levels are fixed
    by the form; a TOC may indent Items differently) and, when it is a bare label (``PART I``), its
    title and the earlier of the two places. Marks whose title matches ``closing``
    (a filing's Signatures) are top level.
    """
    out: list[Mark] = []
    used: set[int] = set()
    for p in primary:
        twin = next((i for i, e in enumerate(extra) if i not in used and same_heading(p, e)), None)
        if twin is not None:
            used.add(twin)
            e = extra[twin]
            bare = (label := parse_numbering(p.title)) is not None and not label.rest.strip(" .:-\u2013\u2014")
            # a bare label (a contents' ``PART I``) takes the heading's title and place (``PART I. FINANCIAL ...``)
            p = Mark(e.title, e.level, min(p.pos, e.pos), p.origin, p.confidence) if bare and len(e.title) > \
                len(p.title) else Mark(p.title, e.level, p.pos, p.origin, p.confidence)
        out.append(p)
    out.extend(e for i, e in enumerate(extra) if i not in used)
    if closing is not None:
        out = [Mark(m.title, 1, m.pos, m.origin, m.confidence) if closing.match(m.title.strip()) else m for m in out]
    out.sort(key=lambda m: m.pos)
    return out


def nest(skeleton: list[Mark], headings: list[Heading], *, finer_only: bool = False,
         min_pages: int = 0, top_rank_only: bool = False, closing: re.Pattern[str] | None = None,
         peers: bool = False, always: Callable[[list[Mark], int, list[Heading]], bool] | None = None) -> list[Mark]:
    """The skeleton plus headings nested under the skeleton section that contains each.

    Headings that repeat a skeleton entry are dropped. With ``finer_only`` a heading is kept only
    when its level is deeper than the heading that printed its section's skeleton entry (a TOC
    that lists every section leaves nothing finer to add at those levels). With ``min_pages`` only
    skeleton sections longer than that many pages get finer headings: a short Item is read whole,
    and its run-in heads are noise in a table of contents (unless ``always(skeleton, index, heads)`` says
    the section is read whatever its length, given the headings it would keep). With
    ``top_rank_only`` a section keeps its most prominent heading style and numbered headings only (a
    filing's sub-sub-heads); a heading in the look of the section's own title does not count as more
    prominent than the others (``_ranks``). Headings
    whose title matches ``closing`` (a filing's Signatures) are top level, not part of the last section.
    With ``peers`` a heading set like the skeleton entries of its section's level is their sibling.
    """
    skel = sorted(skeleton, key=lambda m: m.pos)
    marks = to_marks(headings)
    extra_top = [m for m in marks if closing is not None and closing.match(m.title.strip())]
    if extra_top and skel:
        skel = sorted(skel + [Mark(m.title, 1, m.pos, m.origin, m.confidence) for m in extra_top
                              if not any(same_heading(m, s) for s in skel)], key=lambda m: m.pos)
    skel = _up_to_twins(skel, marks)
    pairs = list(zip(headings, marks, strict=True))
    if peers:
        skel, pairs = _add_peers(skel, pairs)
    groups: dict[int, list[tuple[Heading, Mark]]] = {}
    owner_level: dict[int, int] = {}
    for h, m in pairs:
        twin = next((i for i, s in enumerate(skel) if _repeats(m, s)), None)
        if twin is not None:
            owner_level[twin] = min(owner_level.get(twin, h.level), h.level)
            continue
        if closing is not None and closing.match(m.title.strip()) and skel:
            continue
        idx = section_at(skel, m.pos)
        groups.setdefault(idx, []).append((h, m))
    out = list(skel)
    for idx, members in groups.items():
        base = skel[idx].level if idx >= 0 else 0
        if finer_only and idx >= 0 and idx in owner_level:
            members = [(h, m) for h, m in members if h.level > owner_level[idx]]
        own = owner_level.get(idx) if top_rank_only else None
        rank = _ranks({h.level for h, _ in members}, own)
        if top_rank_only and idx >= 0:
            # numbered heads (Note 4 -) make unnumbered heads of the same look their sub-heads
            numbered_styles = {h.style for h, _ in members if h.numbering is not None}
            members = [(h, m) for h, m in members if h.numbering is not None
                       or (rank[h.level] == 1 and h.style not in numbered_styles)]
            rank = _ranks({h.level for h, _ in members}, own)
        if min_pages and idx >= 0 and _span_pages(skel, idx) <= min_pages \
                and not (always is not None and always(skel, idx, [h for h, _ in members])):
            continue
        for h, m in members:
            level = min(MAX_LEVEL + 2, base + rank[h.level]) if idx >= 0 else h.level
            out.append(Mark(m.title, level, m.pos, m.origin, m.confidence))
    out.sort(key=lambda m: m.pos)
    return out


def _ranks(levels: set[int], own: int | None) -> dict[int, int]:
    """Rank of each heading level in a section, 1 = most prominent. With ``own`` (the level that
    printed the section's own title) a head in that look ranks with the section's most prominent
    other heads, not above them: ``Consolidated Cash Flows`` set like its section ``Capital Resources
    and Liquidity`` inside it would otherwise be the section's only sub-section and drop the
    ``Long-Term Receivables``, ``Operating Activities`` ... heads in the next size."""
    if own is None or own not in levels or len(levels) == 1:
        return {lvl: i + 1 for i, lvl in enumerate(sorted(levels))}
    rank = {lvl: i + 1 for i, lvl in enumerate(sorted(levels - {own}))}
    rank[own] = 1
    return rank


def _up_to_twins(skel: list[Mark], marks: list[Mark]) -> list[Mark]:
    """Skeleton entries moved up to their own heading when it stands higher on the same page (a
    printed TOC entry placed on a later mention of its title: ``Notes to the Consolidated Financial
    Statements`` found in the text under notes 1 and 2, which then sat in the previous section)."""
    order = sorted(marks, key=lambda m: m.pos)
    starts = [m.pos for m in order]
    out: list[Mark] = []
    for i, e in enumerate(skel):
        twin = None
        if e.pos.char:
            floor = max(skel[i - 1].pos, Pos(e.pos.unit, -1)) if i else Pos(e.pos.unit, -1)
            lo, hi = bisect_right(starts, floor), bisect_left(starts, e.pos)
            key = _key(e.title) if hi > lo else ""
            twin = next((m for m in order[lo:hi] if same_title(_key(m.title), key)),
                        None) if key else None
        out.append(Mark(e.title, e.level, twin.pos, e.origin, e.confidence) if twin is not None else e)
    return out


def _repeats(m: Mark, entry: Mark) -> bool:
    """Heading ``m`` prints skeleton ``entry`` again (``same_heading``), unless it stands well below
    the entry on the page and its title only contains the entry's: ``BUSINESS OVERVIEW`` a page
    third under ``Item 1. Business`` is the Item's first sub-section, not the Item (it used to be
    dropped as the Item's own heading)."""
    if not same_heading(m, entry):
        return False
    if m.pos.char - entry.pos.char <= H.echo_chars or parse_numbering(m.title) is not None:
        return True
    ka, kb = _key(m.title), _key(entry.title)
    return not (ka and kb) or same_title(ka, kb)


def _add_peers(skel: list[Mark], pairs: list[tuple[Heading, Mark]]) -> tuple[list[Mark], list[tuple[Heading, Mark]]]:
    """The skeleton plus the headings set like its own entries, at those entries' level.

    An entry is printed in the style of its heading in the body, or, when its title is reworded
    there, in the style its nearest siblings are printed in. A heading more prominent than the
    entry it falls in, set like the entries of a higher level and numbered on from them (or not
    numbered and opening with a word: ``Index`` after the numbered chapters), is
    an entry of that level the skeleton lacks (a printed TOC read only up to chapter 4: chapters
    5 to 12 are not sub-sections of section 4.3.5; a chart's ``0.9 100 Proportion`` is no
    chapter). Then a heading set like the entry it falls in is a sibling the skeleton left out (a
    TOC that lists ``Auditor's Reports`` but not the statements after it), not a sub-section:
    nested it would swallow the statements, and a short entry would even lose them; not where
    the entry still holds a more prominent heading, nor for an unnumbered heading among numbered
    entries. Such a heading at the entry's very position is the entry itself, printed under another
    title (the TOC's ``Auditor's Reports`` over ``Report of Independent Registered ...``): the entry
    takes the printed title (as a sibling it would leave the entry an empty section). A filing's
    Parts and Items are not printed like its other headings, so a skeleton holding them gets none
    (``peers``)."""
    style, twins = _twin_styles(skel, pairs)
    votes: dict[int, Counter[int]] = {}
    for i, hl in style.items():
        votes.setdefault(hl, Counter())[skel[i].level] += 1
    level_of = {hl: lv for hl, c in votes.items() for lv, n in c.most_common(1)
                if n >= H.peer_min_entries and n >= H.numbering_agreement * c.total()}
    depths: dict[int, Counter[int]] = {}
    for e in skel:
        depths.setdefault(e.level, Counter())[_depth(e.title)] += 1
    depth_of = {lv: c.most_common(1)[0][0] for lv, c in depths.items()}  # ``4`` and ``CHAPTER 5``: 1
    # an unnumbered heading joins numbered entries only after the last of them (``Index`` after the
    # chapters), not between two (the bold title of a music example inside chapter 1)
    last_numbered = {e.level: e.pos for e in skel if parse_numbering(e.title) is not None}
    promoted: list[Mark] = []
    for k, (h, m) in enumerate(pairs):
        owner = section_at(skel, m.pos)
        printed = _printed_as(skel, style, owner) if owner >= 0 else None
        level = level_of.get(h.level)
        depth = _depth(h.title)
        numbered_alike = level is not None and (depth == depth_of.get(level) or (
            depth == 0 and h.title[:1].isalpha() and m.pos > last_numbered.get(level, Pos(-1, 0))))
        if k not in twins and printed is not None and h.level < printed and level is not None \
                and level < skel[owner].level and numbered_alike and _continues(skel + promoted, level, m):
            promoted.append(Mark(m.title, level, m.pos, m.origin, m.confidence))
        elif k not in twins and printed is not None and h.level < printed and owner == len(skel) - 1 \
                and skel[owner].level == 1 and not promoted and m.pos.unit > skel[owner].pos.unit:
            # past the TOC's last top entry, a heading more prominent than it opens a division the TOC
            # does not list (a contents printed per part lists only the first part's sections)
            promoted.append(Mark(m.title, 1, m.pos, m.origin, m.confidence))
    if promoted:
        skel = sorted(skel + promoted, key=lambda m: m.pos)
        style, twins = _twin_styles(skel, pairs)
    top: dict[int, int] = {}  # skeleton index -> most prominent heading level inside its entry
    for k, (h, m) in enumerate(pairs):
        if k not in twins:
            owner = section_at(skel, m.pos)
            top[owner] = min(top.get(owner, h.level), h.level)
    peers: list[Mark] = []
    named: dict[int, Mark] = {}
    rest: list[tuple[Heading, Mark]] = []
    for k, (h, m) in enumerate(pairs):
        owner = section_at(skel, m.pos)
        printed = _printed_as(skel, style, owner) if owner >= 0 else None
        if k not in twins and printed == h.level and top[owner] >= printed \
                and (h.numbering is not None or parse_numbering(skel[owner].title) is None):
            if m.pos == skel[owner].pos:  # the entry printed, reworded: it takes the printed title
                named[owner] = Mark(m.title, skel[owner].level, m.pos, m.origin, skel[owner].confidence)
            else:
                peers.append(Mark(m.title, skel[owner].level, m.pos, m.origin, m.confidence))
        else:
            rest.append((h, m))  # a promoted heading now repeats its skeleton entry: ``nest`` drops it
    skel = [named.get(i, e) for i, e in enumerate(skel)]
    return sorted(skel + peers, key=lambda m: m.pos), rest


def _continues(entries: list[Mark], level: int, mark: Mark) -> bool:
    """A numbered mark numbers on from the last entry of ``level`` before it (``CHAPTER 5`` after
    ``4``; an example's ``1.`` after chapter 6 does not)."""
    before = [e for e in entries if e.level == level and e.pos < mark.pos]
    last = parse_numbering(max(before, key=lambda e: e.pos).title) if before else None
    own = parse_numbering(mark.title)
    if last is None or own is None or not (last.parts[0].isdigit() and own.parts[0].isdigit()):
        return True
    return int(own.parts[0]) > int(last.parts[0])


def _depth(title: str) -> int:
    """Depth of a title's numbering (0 when it has none)."""
    n = parse_numbering(title)
    return n.depth if n is not None else 0


def _twin_styles(skel: list[Mark], pairs: list[tuple[Heading, Mark]]) -> tuple[dict[int, int], set[int]]:
    """The heading level each skeleton entry is printed in (by index), and which headings print one."""
    style: dict[int, int] = {}
    twins: set[int] = set()
    for k, (h, m) in enumerate(pairs):
        twin = next((i for i, s in enumerate(skel) if same_heading(m, s)), None)
        if twin is not None:
            style[twin] = min(style.get(twin, h.level), h.level)
            twins.add(k)
    return style, twins


def _printed_as(skel: list[Mark], style: dict[int, int], idx: int) -> int | None:
    """The heading level entry ``idx`` is printed in: its own, else that of its nearest siblings
    before and after it (when they agree)."""
    if idx in style:
        return style[idx]
    level = skel[idx].level
    near: list[int] = []
    for step in (-1, 1):
        j = idx + step
        while 0 <= j < len(skel) and skel[j].level >= level:
            if skel[j].level == level and j in style:
                near.append(style[j])
                break
            j += step
    return near[0] if near and len(set(near)) == 1 else None


def _span_pages(skel: list[Mark], idx: int) -> int:
    """Pages from a skeleton mark to the next one at its level or above (to the last mark's page
    when none follows: the document end is not known here, so the last section counts as long)."""
    start = skel[idx].pos
    for m in skel[idx + 1:]:
        if m.level <= skel[idx].level:
            return m.pos.unit - start.unit + (1 if m.pos.char > 0 else 0)
    return 1 << 30


def section_at(skel: list[Mark], pos: Pos) -> int:
    """Index of the last skeleton mark at or before ``pos`` (-1 when none)."""
    lo, hi = 0, len(skel)
    while lo < hi:
        mid = (lo + hi) // 2
        if skel[mid].pos <= pos:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


def enrich_outline(outline: list[Mark], toc: list[Mark]) -> list[Mark] | None:
    """A flat or partial outline completed from the printed TOC; ``None`` when the TOC adds nothing.

    The TOC's entries and levels are kept; outline entries it lacks are added at their own level.
    """
    if len(toc) < max(ENRICH_ENTRIES, int(ENRICH_RATIO * len(outline))) and max((m.level for m in toc), default=0) <= \
            max((m.level for m in outline), default=0):
        return None
    out = sorted(toc, key=lambda t: t.pos)
    out.extend(m for m in outline if not any(same_heading(m, t) for t in toc))
    out.sort(key=lambda m: m.pos)
    return out


def _agreed_offset(offsets: Counter[int]) -> int | None:
    """The offset most entries agree on (``None`` without a clear majority)."""
    if not offsets:
        return None
    offset, votes = offsets.most_common(1)[0]
    return offset if votes >= H.numbering_agreement * offsets.total() else None


def levels_from_numbering(marks: list[Mark]) -> list[Mark]:
    """Make levels of dotted-numbered marks agree with their numbers.

    A TOC's indentation can drift from page to page (the exhibits of an IRS manual indented one
    step deeper after a page break); the numbers do not. The offset between printed level and
    number depth that most marks show is kept, so ``Part I`` > ``1`` > ``1.1`` stays three levels.
    """
    nums = [parse_numbering(m.title, entry=True) for m in marks]  # TOC rows: entries already
    dotted = [(i, n.parts) for i, n in enumerate(nums) if n is not None and n.kind in ("decimal", "exhibit")]
    if len(dotted) < max(DOTTED_MARKS, len(marks) // 2):
        return marks
    prefix = common_prefix([p for _, p in dotted])
    depth = {i: max(1, len(p) - prefix) for i, p in dotted}
    offset = _agreed_offset(Counter(marks[i].level - d for i, d in depth.items()))
    if offset is None:
        # the indentation drifts for most entries: trust the offset of the top-numbered ones
        offset = _agreed_offset(Counter(marks[i].level - d for i, d in depth.items() if d == 1))
    if offset is None:
        return marks
    return [Mark(m.title, depth[i] + offset, m.pos, m.origin, m.confidence) if i in depth else m
            for i, m in enumerate(marks)]
