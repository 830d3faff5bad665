"""Segments in MD&A and notes to the statements as sections: found / expected per filing, from a hand-labelled file.

``bench/sections_fin.json`` lists, for 10-Ks, 10-Qs and annual reports of ``/work/shared/corpus``, each
heading of MD&A that opens one segment's discussion (the segment's name as printed and its physical
1-based page) and each numbered note of the financial statements (number, title, page). Labels were made
by reading the pages (PyMuPDF text), never with treebuild. Each file is marked ``tune`` (looked at while
tuning) or ``check``.

Each filing is built twice, offline with the default settings (outline used when trusted, subdivision
on), and with the outline ignored. A label is *found* when a node of the tree starts on its page and its
title names it, by this scorer's own reading of a title (:func:`key`, not the code under test): NFKC,
case-folded, ``&`` read as ``and``, punctuation runs made one space, one leading note label (``Note 4 -``,
``NOTE 12.``, ``4.``) stripped; then at least 0.85 similar (rapidfuzz ratio), as ``structure_eval.py``.

    .venv/bin/python bench/sections_fin_eval.py                 # every labelled filing
    .venv/bin/python bench/sections_fin_eval.py --only AES -v   # + each label's node, or what covers its page
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz.fuzz import ratio
from statements_eval import covering, label_args  # noqa: E402

from treebuild.model import Node
from treebuild.pipeline import build
from treebuild.settings import BuildSettings

LABELS = Path(__file__).with_name("sections_fin.json")
SIMILAR = 85.0
"""Title similarity (rapidfuzz ratio, 0-100) for a match, as ``structure_eval.py``."""

_LABEL = re.compile(r"^(?:note\s+\d{1,2}[a-z]?\b|\d{1,2}\s)\s*", re.IGNORECASE)


def key(title: str) -> str:
    """This scorer's reading of a title (see the module doc)."""
    t = unicodedata.normalize("NFKC", title).casefold().replace("&", " and ")
    t = " ".join(re.sub(r"[^\w]+", " ", t).split())
    return _LABEL.sub("", t, count=1).strip()


def names(title: str, label: str) -> bool:
    return ratio(key(title), key(label)) >= SIMILAR


@dataclass
class Tally:
    found: int = 0
    expected: int = 0
    lines: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.found += other.found
        self.expected += other.expected


def _score(nodes: list[Node], labels: list[tuple[str, int]], kind: str) -> Tally:
    t = Tally(expected=len(labels))
    for title, page in labels:
        hit = next((n for n in nodes if n.start_page == page and names(n.title, title)), None)
        if hit is not None:
            t.found += 1
            t.lines.append(f"    found  {kind:7} p{page:<4} {title!r} -> {hit.title!r}")
        else:
            starting = ", ".join(repr(n.title) for n in nodes if n.start_page == page) or "no node starts there"
            t.lines.append(f"    MISSED {kind:7} p{page:<4} {title!r}: {starting}; {covering(nodes, page)}")
    return t


def evaluate(path: Path, filing: dict, ignore_outline: bool) -> tuple[Tally, Tally]:
    tree = build(path, BuildSettings(ignore_outline=ignore_outline))
    nodes = list(tree.walk())
    segs = _score(nodes, [(s["segment"], int(s["page"])) for s in filing["segments"]], "segment")
    notes = _score(nodes, [(n["title"], int(n["page"])) for n in filing["notes"]], "note")
    return segs, notes


def main(argv: list[str] | None = None) -> int:
    args = label_args(__doc__, LABELS, "print each label's node (misses always)", argv)
    filings = [f for f in json.loads(args.labels.read_text())["filings"] if args.only is None or args.only in f["file"]]
    groups: dict[tuple[str, str, bool], Tally] = {}
    print(f"{'filing':46} {'segments used':>13} {'ignored':>8} {'notes used':>11} {'ignored':>8}")
    for f in filings:
        cells, details = [], []
        by_mode = {ignore: evaluate(args.corpus / f["file"], f, ignore) for ignore in (False, True)}
        for part in (0, 1):
            for ignore in (False, True):
                t = by_mode[ignore][part]
                cells.append(f"{t.found}/{t.expected}")
                what = "segments" if part == 0 else "notes"
                for grp in (f"{f['set']} {f['file'].split('/')[0]}", f"{f['set']} (all)", "all"):
                    groups.setdefault((grp, what, ignore), Tally()).add(t)
                mode = "outline ignored" if ignore else "outline used"
                shown = [ln for ln in t.lines if args.verbose or "MISSED" in ln]
                if shown:
                    details.append(f"  {what}, {mode}:")
                    details.extend(shown)
        print(f"{f['file'][:46]:46} {cells[0]:>13} {cells[1]:>8} {cells[2]:>11} {cells[3]:>8}", flush=True)
        for line in details:
            print(line)
    print()
    print(f"{'group':30} {'segments used':>13} {'ignored':>8} {'notes used':>11} {'ignored':>8}")
    names = list(dict.fromkeys(g for g, _, _ in groups))
    for grp in sorted(names, key=lambda g: (g == "all", g.split()[0] != "tune", "(all)" in g, g)):
        cells = [groups.get((grp, what, ignore), Tally()) for what in ("segments", "notes") for ignore in (False, True)]
        widths = (13, 8, 11, 8)
        print(f"{grp:30} " + " ".join(f"{c.found}/{c.expected}".rjust(w) for c, w in zip(cells, widths, strict=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
