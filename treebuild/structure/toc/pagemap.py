"""Printed page references ("12", "iv", "F-3") to physical pages (unit indexes).

Three sources, most trusted first: the PDF's page labels; the folios printed in each page's
header or footer (read from the unit text, kept only where neighbouring pages agree, so a
stray number in a table does not count); and, for a numbering run neither covers, an offset
voted by the TOC titles found in the body. Each numbering run (roman front matter, arabic
body, "F-n" financial pages, "A-n" annexes) gets its own labels or offset.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from ...model import SourceDoc
from ...text.furniture import FURNITURE_EDGE_LINES, FURNITURE_MIN_REPEATS
from ...text.patterns import FOLIO, roman_value
from ..heuristics import HEURISTICS as H

__all__ = ["PageMap", "parse_page_ref", "roman_value", "folio_labels"]

_REF = re.compile(r"^(?:([A-Za-z]{1,3}|\d{1,3})\s?-\s?)?(\d{1,4}|[ivxlcdmIVXLCDM]{1,7})$")
_FOLIO_EDGE = re.compile(r"^(?:(\d{1,4}|[ivxlc]{1,7})\s*[|•·]\s+\S.*|.*\S\s+[|•·]\s*(\d{1,4}|[ivxlc]{1,7}))$")


def parse_page_ref(ref: str) -> tuple[str, int] | None:
    """``(run, value)`` of a printed page: ``"12"`` -> ``("", 12)``, ``"iv"`` -> ``("roman", 4)``,
    ``"F-3"`` -> ``("F-", 3)``, ``"2-15"`` -> ``("2-", 15)``."""
    m = _REF.match(ref.strip())
    if not m:
        return None
    prefix, body = m.group(1), m.group(2)
    if body.isdigit():
        run = f"{prefix.upper()}-" if prefix else ""
        return run, int(body)
    if prefix:
        return None
    value = roman_value(body)
    return ("roman", value) if value else None


class PageMap:
    """Resolve printed page references of one document to unit indexes.

    ``after`` is the last unit of the TOC: when a label repeats (cover pages numbered 1, 2
    and the body again from 1), the occurrence after the TOC wins.
    """

    def __init__(self, doc: SourceDoc, after: int = -1) -> None:
        self.doc = doc
        self.after = after
        self.n = len(doc.units)
        self.pdf_labels = any(u.label for u in doc.units)
        self._by_label: dict[str, list[int]] = {}
        if self.pdf_labels:
            for u in doc.units:
                if u.label:
                    self._by_label.setdefault(u.label.strip().casefold(), []).append(u.index)
        self.folios: dict[int, tuple[str, int]] = \
            _consistent_folios([u.text for u in doc.units], running=True) if not self.pdf_labels else {}
        self._by_folio: dict[tuple[str, int], list[int]] = {}
        for unit, key in self.folios.items():
            self._by_folio.setdefault(key, []).append(unit)
        self.offsets: dict[str, int] = {}
        self.source = "labels" if self.pdf_labels else "folios" if self.folios else "none"

    def resolve(self, ref: str) -> int | None:
        """Expected unit index of printed page ``ref``, or None when nothing maps it."""
        if self.pdf_labels:
            hit = self._pick(self._by_label.get(ref.strip().casefold(), []))
            if hit is not None:
                return hit
        parsed = parse_page_ref(ref)
        if parsed is None:
            return None
        hit = self._pick(self._by_folio.get(parsed, []))
        if hit is not None:
            return hit
        near = self._near_folio(parsed)
        if near is not None:
            return near
        if parsed[0] in self.offsets:
            unit = parsed[1] + self.offsets[parsed[0]]
            return unit if 0 <= unit < self.n else None
        return None

    def needs_offset(self, refs: Iterable[str]) -> set[str]:
        """Numbering runs among ``refs`` that neither labels nor folios resolve."""
        runs: set[str] = set()
        for ref in refs:
            parsed = parse_page_ref(ref)
            if parsed is not None and parsed[0] not in self.offsets and self.resolve(ref) is None:
                runs.add(parsed[0])
        return runs

    def vote_offsets(self, samples: Iterable[tuple[str, Callable[[], int | None]]]) -> None:
        """Set the offset of runs from ``(ref, finder)`` pairs; ``finder`` returns the unit
        where that entry's title was seen, or None. An offset needs two agreeing votes (one
        when it is the only sample) and a plurality."""
        votes: dict[str, Counter[int]] = {}
        total: Counter[str] = Counter()
        for ref, finder in samples:
            parsed = parse_page_ref(ref)
            if parsed is None:
                continue
            unit = finder()
            total[parsed[0]] += 1
            if unit is not None:
                votes.setdefault(parsed[0], Counter())[unit - parsed[1]] += 1
        for run, counter in votes.items():
            offset, count = counter.most_common(1)[0]
            if count >= 2 or total[run] == 1:
                self.offsets[run] = offset

    def _pick(self, units: list[int]) -> int | None:
        if not units:
            return None
        later = [u for u in units if u > self.after]
        return later[0] if later else units[-1]

    def _near_folio(self, parsed: tuple[str, int]) -> int | None:
        """Extrapolate from the closest detected folio of the same run (pages without one)."""
        run, value = parsed
        best: tuple[int, int] | None = None
        for unit, (r, v) in self.folios.items():
            if r != run:
                continue
            dist = abs(v - value)
            if dist <= H.folio_reach and (best is None or dist < best[0] or dist == best[0] and unit > self.after):
                best = (dist, unit + value - v)
        if best is None:
            return None
        unit = best[1]
        return unit if 0 <= unit < self.n else None


def _folio_candidates(text: str) -> list[tuple[str, int]]:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        return []
    k = FURNITURE_EDGE_LINES
    edge = lines[:k] + lines[-k:] if len(lines) > 2 * k else lines
    out: list[tuple[str, int]] = []
    for ln in edge:
        m = FOLIO.match(ln)
        token = m.group("page") if m else None
        if token is None:
            m2 = _FOLIO_EDGE.match(ln)
            token = (m2.group(1) or m2.group(2)) if m2 else None
        if token is None:
            continue
        parsed = parse_page_ref(token)
        if parsed is not None and not (parsed[0] == "roman" and token != token.lower()):
            out.append(parsed)
    return out


def folio_labels(texts: list[str]) -> dict[int, str]:
    """Printed page labels of pages whose texts are ``texts``: each page's folio as
    :func:`_consistent_folios` keeps it (``"12"``, ``"iv"``, ``"F-3"``), a running head's or foot's number
    too (``The Procter & Gamble Company 1``, ``2 The Procter & Gamble Company``: the words recur at the
    edge of several pages, the number advances with them); for readers of formats whose pages carry no
    labels of their own (HTML laid out at its page breaks, text with form feeds)."""
    out: dict[int, str] = {}
    for unit, (run, value) in _consistent_folios(texts, running=True).items():
        out[unit] = _roman(value) if run == "roman" else f"{run}{value}"
    return out


def _roman(value: int) -> str:
    out = ""
    for n, s in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
                 (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while value >= n:
            out += s
            value -= n
    return out


_RUNNING = re.compile(r"^(?:(?P<lead>\d{1,4})\s+(?P<after>\D.{2,80})|(?P<before>.{2,80}?\D)\s+(?P<tail>\d{1,4}))$")
"""A running head or foot with the page number at one end: ``Company Name  12``, ``12  Company Name``."""


def _running_candidates(texts: list[str]) -> list[list[tuple[str, int]]]:
    """Numbers at either end of edge lines whose words recur at the edges of several pages."""
    k = FURNITURE_EDGE_LINES
    found: list[list[tuple[str, str]]] = []
    counts: Counter[str] = Counter()
    for text in texts:
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        edge = lines[:k] + lines[-k:] if len(lines) > 2 * k else lines
        here: list[tuple[str, str]] = []
        for ln in edge:
            m = _RUNNING.match(ln)
            if m:
                words = " ".join((m.group("after") or m.group("before")).split()).casefold()
                here.append((words, m.group("lead") or m.group("tail")))
        found.append(here)
        counts.update({w for w, _ in here})
    return [[("", int(n)) for w, n in here if counts[w] >= FURNITURE_MIN_REPEATS] for here in found]


def _consistent_folios(texts: list[str], running: bool = False) -> dict[int, tuple[str, int]]:
    """Printed folio per unit, kept where nearby pages' folios fit the same numbering run.

    Each candidate counts the nearby pages (``folio_support``) whose candidates share its run and offset;
    the best supported one wins, and a folio claimed by two pages stays with the better
    supported page (ages 51, 52 in a list of officers look like folios for two pages).
    """
    n = len(texts)
    cands = {i: _folio_candidates(text) for i, text in enumerate(texts)}
    if running:
        for i, extra in enumerate(_running_candidates(texts)):
            cands[i] = cands[i] + [c for c in extra if c not in cands[i]]
    best: dict[int, tuple[int, tuple[str, int]]] = {}
    for unit, options in cands.items():
        for run, value in options:
            offset = unit - value
            near = range(max(0, unit - H.folio_support), min(n, unit + H.folio_support + 1))
            support = sum(
                1 for other in near if other != unit
                if any(r2 == run and other - v == offset for r2, v in cands.get(other, []))
            )
            if support and (unit not in best or support > best[unit][0]):
                best[unit] = (support, (run, value))
    owner: dict[tuple[str, int], tuple[int, int]] = {}
    for unit, (support, key) in best.items():
        if key not in owner or support > owner[key][1]:
            owner[key] = (unit, support)
    return {unit: key for key, (unit, _) in owner.items()}
