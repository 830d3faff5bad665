"""Structure detection scored against the raw PDF outlines of several corpus folders (FinTOC metric).

For every PDF whose outline has at least ``--min-entries`` entries, the tree is built with the
outline ignored and subdivision off (window, preface and single nodes are not predictions), then
compared with the outline exactly as the file stores it (PyMuPDF ``get_toc``), cleaned by nothing
but this scorer's own normalisation, documented here:

- titles: NFKC, case-folded, every run of non-alphanumerics made one space, and one leading label
  stripped (``Part II``, ``Item 1A.``, ``Chapter 3``, ``Note 4 -``, ``2.3.1``, ``IV.``, ``B)``),
  because outlines often omit the numbers the body prints (``Scope`` vs ``1.1 Scope``); a title that
  is only a label keeps it;
- entries whose destination resolves to no page cannot be placed and are left out (counted).

A prediction matches an entry when their titles are at least 0.85 similar (rapidfuzz ratio) and
they start on the same physical page; matching is one-to-one, best similarity first. Precision,
recall, F1 over titles. Levels are relative: an entry's level is 1 + the number of its ancestors
that are matched (in the outline for the entry, in the tree for the prediction), so a wrapper level
that only one side has (a document-title bookmark above everything, a grouping node) does not shift
every level below it, while a wrong parent still counts. Level accuracy over matched pairs; TOC
score = harmonic mean of F1 and level accuracy, x100. Macro averages over documents, per folder.

    .venv/bin/python bench/structure_eval.py /work/shared/corpus/pdf /work/shared/corpus/filings \\
        /work/devcorpus/pdf [--misses] [--only NAME] [--sample N]

``--outline-depth N`` measures the headings *below* a given outline: the tree is built with the file's
outline cut to its top ``N`` levels given as the outline (those entries are placed as the author's), and
scored against the full outline as above. Only documents whose outline goes deeper than ``N`` are
scored (the others are counted): what is found below the given levels is what the score moves by.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from rapidfuzz import fuzz

from treebuild.model import Node, SourceDoc
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

THRESHOLD = 0.85
"""FinTOC / ICDAR-2013 title similarity for a match."""
LOW_F1 = 0.5
"""Documents below this F1 are listed for a written reason."""
NOT_PREDICTIONS = ("preface", "window", "single")
"""Node origins that are page windows or fillers, not detected sections."""

_LABEL = re.compile(
    r"^(?:(?:part|item|chapter|section|appendix|annex|note|article|schedule|exhibit|ex)\s+"
    r"(?:\d+(?:\.\d+)*[a-z]?|[ivxlcdm]+|[a-z])\b"
    r"|\d+(?:\.\d+)*[a-z]?\b|[ivxlcdm]+[.)]|[a-z][.)])[\s.:)\-\u2013\u2014]*"
)


@dataclass
class Entry:
    title: str
    page: int
    level: int
    parent: int | None = None  # index of the parent entry in the same list


@dataclass
class Score:
    name: str
    pages: int
    gt: int
    unplaced: int
    pred: int
    matched: int
    level_ok: int
    method: str
    read_s: float
    struct_s: float
    missed: list[Entry] = field(default_factory=list)
    spurious: list[Entry] = field(default_factory=list)
    wrong_level: list[tuple[Entry, int, int]] = field(default_factory=list)
    start_pages: int = 0  # distinct pages after the first on which an outline entry starts
    starts_found: int = 0  # ... of which a detected section starts on (titles aside)

    @property
    def precision(self) -> float:
        return self.matched / self.pred if self.pred else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.gt if self.gt else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def level_acc(self) -> float:
        return self.level_ok / self.matched if self.matched else 0.0

    @property
    def toc_score(self) -> float:
        f, a = self.f1, self.level_acc
        return 100 * 2 * f * a / (f + a) if f + a else 0.0


def title_key(title: str) -> str:
    """The scorer's normalisation: NFKC, case-folded, punctuation to spaces, one leading label off."""
    t = unicodedata.normalize("NFKC", title).casefold().strip()
    stripped = _LABEL.sub("", t, count=1)
    if re.search(r"\w", stripped):
        t = stripped
    return " ".join(re.sub(r"[\W_]+", " ", t).split())


def raw_outline(path: Path) -> tuple[list[Entry], int]:
    """The file's outline as stored, with parents; entries on no page are left out (and counted)."""
    with pymupdf.open(path) as pdf:
        toc = pdf.get_toc(simple=True)
        pages = len(pdf)
    out: list[Entry] = []
    stack: list[int] = []  # indices of the open ancestors
    unplaced = 0
    for level, title, page in toc:
        while stack and out[stack[-1]].level >= level:
            stack.pop()
        if not 1 <= page <= pages:
            unplaced += 1
            continue
        out.append(Entry(str(title), int(page), int(level), stack[-1] if stack else None))
        stack.append(len(out) - 1)
    return out, unplaced


def predictions(roots: list[Node]) -> list[Entry]:
    """Detected sections in document order with their nearest predicted ancestor."""
    out: list[Entry] = []
    index: dict[int, int] = {}
    for r in roots:
        for n in r.walk():
            if n.origin in NOT_PREDICTIONS:
                continue
            parent = n.parent
            while parent is not None and id(parent) not in index:
                parent = parent.parent
            index[id(n)] = len(out)
            out.append(Entry(n.title, n.start_page or 0, n.depth, index[id(parent)] if parent is not None else None))
    return out


def match(gt: list[Entry], pred: list[Entry]) -> list[tuple[int, int]]:
    """One-to-one pairs (gt index, pred index): same start page, title similarity >= 0.85, best first."""
    by_page: dict[int, list[int]] = {}
    for j, p in enumerate(pred):
        by_page.setdefault(p.page, []).append(j)
    gnorm = [title_key(g.title) for g in gt]
    pnorm = [title_key(p.title) for p in pred]
    cands: list[tuple[float, int, int]] = []
    for i, g in enumerate(gt):
        for j in by_page.get(g.page, []):
            s = fuzz.ratio(gnorm[i], pnorm[j]) / 100.0
            if s >= THRESHOLD:
                cands.append((s, i, j))
    cands.sort(key=lambda c: (-c[0], c[1], c[2]))
    used_g: set[int] = set()
    used_p: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for _, i, j in cands:
        if i in used_g or j in used_p:
            continue
        used_g.add(i)
        used_p.add(j)
        pairs.append((i, j))
    return pairs


def relative_levels(entries: list[Entry], matched: set[int]) -> dict[int, int]:
    """1 + the number of matched ancestors, for every matched entry."""
    out: dict[int, int] = {}
    for i in matched:
        depth, p = 1, entries[i].parent
        while p is not None:
            depth += p in matched
            p = entries[p].parent
        out[i] = depth
    return out


def truncate_outline(doc: SourceDoc, depth: int) -> bool:
    """Cut ``doc``'s outline to its top ``depth`` levels in place; ``False`` when it goes no deeper (nothing
    below the given levels to find)."""
    if not any(e.level > depth for e in doc.outline):
        return False
    doc.outline = [e for e in doc.outline if e.level <= depth]
    return True


def evaluate(path: Path, min_entries: int, outline_depth: int = 0, note_subheadings: bool = False) -> Score | None:
    gt, unplaced = raw_outline(path)
    if len(gt) < min_entries or (outline_depth and not any(g.level > outline_depth for g in gt)):
        return None
    t0 = time.perf_counter()
    doc = read(path)
    read_s = time.perf_counter() - t0
    if outline_depth and not truncate_outline(doc, outline_depth):
        return None
    settings = BuildSettings(ignore_outline=not outline_depth, subdivide=False, prompt_version="eval",
                             note_subheadings=note_subheadings)
    t1 = time.perf_counter()
    roots, result = build_nodes(doc, settings)
    struct_s = time.perf_counter() - t1
    pred = predictions(roots)
    pairs = match(gt, pred)
    mg = {i for i, _ in pairs}
    mp = {j for _, j in pairs}
    gl, pl = relative_levels(gt, mg), relative_levels(pred, mp)
    wrong = [(gt[i], gl[i], pl[j]) for i, j in pairs if gl[i] != pl[j]]
    return Score(
        name=path.name, pages=len(doc.units), gt=len(gt), unplaced=unplaced, pred=len(pred), matched=len(pairs),
        level_ok=len(pairs) - len(wrong), method=result.method, read_s=read_s, struct_s=struct_s,
        missed=[g for i, g in enumerate(gt) if i not in mg],
        spurious=[p for j, p in enumerate(pred) if j not in mp],
        wrong_level=wrong,
        start_pages=len(starts := {g.page for g in gt if g.page > 1}),
        starts_found=len(starts & {p.page for p in pred}),
    )


def run_folder(folder: Path, args: argparse.Namespace) -> list[Score]:
    files = sorted(p for p in folder.glob("*.pdf") if args.only is None or args.only in p.name)
    if args.sample and len(files) > args.sample:
        step = len(files) / args.sample
        files = [files[int(k * step)] for k in range(args.sample)]
    hdr = (f"{'document':52} {'pages':>5} {'gt':>4} {'pred':>4} {'P':>5} {'R':>5} {'F1':>5} {'lvl':>5} {'TOC':>5}"
           "  method")
    print(f"\n## {folder}\n")
    print(hdr)
    print("-" * len(hdr))
    scores: list[Score] = []
    for path in files:
        s = evaluate(path, args.min_entries, args.outline_depth, args.note_subheadings)
        if s is None:
            continue
        scores.append(s)
        print(f"{s.name[:52]:52} {s.pages:5d} {s.gt:4d} {s.pred:4d} {s.precision:5.2f} {s.recall:5.2f} {s.f1:5.2f} "
              f"{s.level_acc:5.2f} {s.toc_score:5.1f}  {s.method}", flush=True)
        if args.starts:
            print(f"    starts   {s.starts_found} of the outline's {s.start_pages} start pages after page 1 start "
                  "a detected section (titles aside)")
        if args.misses:
            for e in s.missed:
                print(f"    missed   p{e.page:<4} L{e.level} {e.title[:90]}")
            for e in s.spurious:
                print(f"    spurious p{e.page:<4} L{e.level} {e.title[:90]}")
            for g, gl, pl in s.wrong_level:
                print(f"    level    p{g.page:<4} gt L{gl} pred L{pl} {g.title[:80]}")
    if not scores:
        print("no PDF with an outline of enough entries")
        return scores
    print("-" * len(hdr))
    print(summary_line(f"macro average ({len(scores)} documents)", scores))
    low = [s for s in scores if s.f1 < LOW_F1]
    print(f"documents below F1 {LOW_F1}: {len(low)}" + (f" ({', '.join(s.name for s in low)})" if low else ""))
    unplaced = sum(s.unplaced for s in scores)
    if unplaced:
        print(f"outline entries on no page (left out): {unplaced}")
    print(speed_line(scores))
    return scores


def summary_line(label: str, scores: list[Score]) -> str:
    n = len(scores)
    mp, mr, mf, ml, mt = (sum(getattr(s, a) for s in scores) / n
                          for a in ("precision", "recall", "f1", "level_acc", "toc_score"))
    return f"{label:52} {'':5} {'':4} {'':4} {mp:5.2f} {mr:5.2f} {mf:5.2f} {ml:5.2f} {mt:5.1f}"


def speed_line(scores: list[Score]) -> str:
    pages = sum(s.pages for s in scores)
    struct = sum(s.struct_s for s in scores)
    reading = sum(s.read_s for s in scores)
    return (f"structure stage: {pages} pages in {struct:.2f} s = {pages / struct:.0f} pages/s "
            f"(read excluded); {pages / (struct + reading):.0f} pages/s with reading")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path, nargs="+", help="corpus folders, each scored and reported separately")
    ap.add_argument("--misses", action="store_true", help="print missed, spurious and wrongly levelled entries")
    ap.add_argument("--starts", action="store_true",
                    help="also print how many of the outline's start pages a detected section starts on, titles aside "
                         "(where an author's bookmarks word sections otherwise than the pages print them)")
    ap.add_argument("--only", default=None, help="only files whose name contains this")
    ap.add_argument("--sample", type=int, default=0, help="at most N files per folder, evenly spaced (fast runs)")
    ap.add_argument("--min-entries", type=int, default=8)
    ap.add_argument("--note-subheadings", action="store_true",
                    help="build with BuildSettings.note_subheadings (the notes' body-size sub-headings, opt-in)")
    ap.add_argument("--outline-depth", type=int, default=0, metavar="N",
                    help="build with the outline cut to its top N levels (given, so placed) and score against the "
                         "full outline; only documents whose outline goes deeper than N")
    args = ap.parse_args(argv)
    results: list[tuple[Path, list[Score]]] = [(folder, run_folder(folder, args)) for folder in args.corpus]
    results = [(f, s) for f, s in results if s]
    if not results:
        print("no PDF with an outline of enough entries", file=sys.stderr)
        return 1
    print("\n## per folder\n")
    print(f"{'folder':52} {'':5} {'':4} {'':4} {'P':>5} {'R':>5} {'F1':>5} {'lvl':>5} {'TOC':>5}  below {LOW_F1}")
    for folder, scores in results:
        low = sum(s.f1 < LOW_F1 for s in scores)
        print(summary_line(f"{folder.parent.name}/{folder.name} ({len(scores)} documents)", scores) + f"  {low}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
