"""Segments in MD&A and notes to the statements as sections: found / expected per filing, from a hand-labelled file.

``bench/sections_fin.json`` lists, for 10-Ks, 10-Qs and annual reports of ``/work/shared/corpus``, each
heading of MD&A that opens one segment's discussion (the segment's name as printed and its physical
1-based page), each numbered note of the financial statements (number, title, page) and, for some
filings, each sub-heading printed inside a note (``note_heads``: note, title, page, level). Labels were made
by reading the pages (PyMuPDF text), never with treebuild. Each file is marked ``tune`` (looked at while
tuning) or ``check``; its note sub-headings have their own mark (``note_heads_set``): they were tuned on
other filings than the segments and notes.

Each filing is built twice, offline with the default settings (outline used when trusted, subdivision
on), and with the outline ignored. A label is *found* when a node of the tree starts on its page and its
title names it, by this scorer's own reading of a title (:func:`key`, not the code under test): NFKC,
case-folded, ``&`` read as ``and``, punctuation runs made one space, one leading note label (``Note 4 -``,
``NOTE 12.``, ``4.``) stripped; then at least 0.85 similar (rapidfuzz ratio), as ``structure_eval.py``.
A note's sub-heading is found the same way. Its *extra* count is the nodes below the labelled notes' nodes
that name no sub-heading of the labels (a table's caption or a paragraph's lead-in made a section): the
labels list every sub-heading of the filing's notes, so what else nests under a note is noise.

    .venv/bin/python bench/sections_fin_eval.py                 # every labelled filing
    .venv/bin/python bench/sections_fin_eval.py --only AES -v   # + each label's node, or what covers its page
    .venv/bin/python bench/sections_fin_eval.py --note-subheadings  # built with BuildSettings.note_subheadings
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
    extra: int = 0
    lines: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.found += other.found
        self.expected += other.expected
        self.extra += other.extra

    def cell(self, extra: bool = False) -> str:
        return f"{self.found}/{self.expected}" + (f" +{self.extra}" if extra else "")


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


def _extra(nodes: list[Node], filing: dict) -> list[Node]:
    """Nodes below a labelled note's node that name none of the note sub-headings labelled on their page."""
    heads = [(h["title"], int(h["page"])) for h in filing["note_heads"]]
    notes = [n for n in nodes if any(n.start_page == int(x["page"]) and names(n.title, x["title"])
                                     for x in filing["notes"])]
    out: list[Node] = []
    for note in notes:
        for d in note.walk():
            if d is not note and not any(d.start_page == p and names(d.title, t) for t, p in heads):
                out.append(d)
    return out


def evaluate(path: Path, filing: dict, ignore_outline: bool, note_subheadings: bool = False
             ) -> tuple[Tally, Tally, Tally]:
    tree = build(path, BuildSettings(ignore_outline=ignore_outline, note_subheadings=note_subheadings))
    nodes = list(tree.walk())
    segs = _score(nodes, [(s["segment"], int(s["page"])) for s in filing["segments"]], "segment")
    notes = _score(nodes, [(n["title"], int(n["page"])) for n in filing["notes"]], "note")
    heads = Tally()
    if "note_heads" in filing:
        heads = _score(nodes, [(h["title"], int(h["page"])) for h in filing["note_heads"]], "subhead")
        extra = _extra(nodes, filing)
        heads.extra = len(extra)
        heads.lines += [f"    EXTRA  subhead p{n.start_page:<4} {n.title!r}" for n in extra]
    return segs, notes, heads


WHAT = ("segments", "notes", "note sub-headings")
WIDTHS = (13, 8, 11, 8, 14, 14)


def _row(label: str, width: int, cells: list[str]) -> str:
    return f"{label[:width]:{width}} " + " ".join(c.rjust(w) for c, w in zip(cells, WIDTHS, strict=True))


def main(argv: list[str] | None = None) -> int:
    args = label_args(__doc__, LABELS, "print each label's node (misses and extras always)", argv,
                      {"--note-subheadings": "build with BuildSettings.note_subheadings (opt-in)"})
    opt_in = args.note_subheadings
    filings = [f for f in json.loads(args.labels.read_text())["filings"] if args.only is None or args.only in f["file"]]
    groups: dict[tuple[str, str, bool], Tally] = {}
    header = ["segments used", "ignored", "notes used", "ignored", "subheads used", "ignored"]
    print(_row("filing", 46, header))
    for f in filings:
        cells, details = [], []
        by_mode = {ignore: evaluate(args.corpus / f["file"], f, ignore, opt_in) for ignore in (False, True)}
        for part, what in enumerate(WHAT):
            for ignore in (False, True):
                t = by_mode[ignore][part]
                labelled = part < 2 or "note_heads" in f
                cells.append(t.cell(part == 2) if labelled else "-")
                if not labelled:
                    continue
                tag = f["set"] if part < 2 else f["note_heads_set"]
                for grp in (f"{tag} {f['file'].split('/')[0]}", f"{tag} (all)", "all"):
                    groups.setdefault((grp, what, ignore), Tally()).add(t)
                mode = "outline ignored" if ignore else "outline used"
                shown = [ln for ln in t.lines if args.verbose or "MISSED" in ln or "EXTRA" in ln]
                if shown:
                    details.append(f"  {what}, {mode}:")
                    details.extend(shown)
        print(_row(f["file"], 46, cells), flush=True)
        for line in details:
            print(line)
    print()
    print("groups: segments and notes by each filing's set, note sub-headings by its note_heads_set; "
          "+N = extra nodes under the labelled notes")
    print(_row("group", 30, header))
    names = list(dict.fromkeys(g for g, _, _ in groups))
    for grp in sorted(names, key=lambda g: (g == "all", g.split()[0] != "tune", "(all)" in g, g)):
        cells = [groups[(grp, what, ignore)].cell(what == WHAT[2]) if (grp, what, ignore) in groups else "-"
                 for what in WHAT for ignore in (False, True)]
        print(_row(grp, 30, cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
