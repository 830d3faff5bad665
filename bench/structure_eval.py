"""Structure detection scored against the PDF outlines of a corpus (FinTOC / ICDAR-2013 metric).

For every PDF whose outline has at least ``--min-entries`` entries, the tree is built with the
outline ignored and subdivision off (window nodes are not predictions), then compared with the
outline: a predicted section matches a ground-truth entry when their normalised titles are at
least 0.85 similar and they start on the same page (one-to-one). Precision, recall, F1, level
accuracy over matched pairs and the TOC score (harmonic mean of F1 and level accuracy, x100);
macro averages over documents. Structure-stage speed is printed with and without reading.

Ground truth is cleaned the way ``treebuild.structure.outline_quality`` cleans outlines before
trusting them: entries titled like merged file names (``Ex 21 Q4 2022.pdf``) are dropped, and a
flat outline whose titles carry dotted numbering is re-levelled from that numbering.

    .venv/bin/python bench/structure_eval.py /work/shared/corpus/pdf [--misses] [--only NAME]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import fuzz

from treebuild.model import OutlineEntry
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes
from treebuild.structure.numbering import strip_numbering
from treebuild.structure.outline_quality import clean_ground_truth
from treebuild.structure.text import normalize_title

THRESHOLD = 0.85


@dataclass
class Entry:
    title: str
    page: int
    level: int


@dataclass
class Score:
    name: str
    pages: int
    gt: int
    pred: int
    matched: int
    level_ok: int
    method: str
    read_s: float
    struct_s: float
    missed: list[Entry] = field(default_factory=list)
    spurious: list[Entry] = field(default_factory=list)
    wrong_level: list[tuple[Entry, Entry]] = field(default_factory=list)

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
    """Normalised title without its leading number: outlines often omit the numbers the body prints."""
    return normalize_title(strip_numbering(title))


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


def evaluate(path: Path) -> Score | None:
    t0 = time.perf_counter()
    doc = read(path)
    read_s = time.perf_counter() - t0
    outline: list[OutlineEntry] = clean_ground_truth(doc.outline, len(doc.units))
    if len(outline) < MIN_ENTRIES:
        return None
    gt = [Entry(e.title, e.page, e.level) for e in outline]
    t1 = time.perf_counter()
    roots, result = build_nodes(doc, BuildSettings(ignore_outline=True, subdivide=False, prompt_version="eval"))
    struct_s = time.perf_counter() - t1
    pred = [Entry(n.title, n.start_page or 0, n.depth) for r in roots for n in r.walk()
            if n.origin not in ("preface", "window", "single")]
    pairs = match(gt, pred)
    level_ok = sum(1 for i, j in pairs if gt[i].level == pred[j].level)
    mg = {i for i, _ in pairs}
    mp = {j for _, j in pairs}
    return Score(
        name=path.name, pages=len(doc.units), gt=len(gt), pred=len(pred), matched=len(pairs), level_ok=level_ok,
        method=result.method, read_s=read_s, struct_s=struct_s,
        missed=[g for i, g in enumerate(gt) if i not in mg],
        spurious=[p for j, p in enumerate(pred) if j not in mp],
        wrong_level=[(gt[i], pred[j]) for i, j in pairs if gt[i].level != pred[j].level],
    )


MIN_ENTRIES = 8


def main(argv: list[str] | None = None) -> int:
    global MIN_ENTRIES
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--misses", action="store_true", help="print missed, spurious and wrongly levelled entries")
    ap.add_argument("--only", default=None, help="only files whose name contains this")
    ap.add_argument("--min-entries", type=int, default=8)
    ap.add_argument("--no-toc", action="store_true",
                    help="leave the printed-TOC source out (typographic headings, numbering and SEC patterns only)")
    args = ap.parse_args(argv)
    if args.no_toc:
        import treebuild.structure as structure

        structure.toc_marks = lambda doc: None  # type: ignore[assignment]
    MIN_ENTRIES = args.min_entries
    files = sorted(p for p in args.corpus.glob("*.pdf") if args.only is None or args.only in p.name)
    scores: list[Score] = []
    hdr = (f"{'document':52} {'pages':>5} {'gt':>4} {'pred':>4} {'P':>5} {'R':>5} {'F1':>5} {'lvl':>5} {'TOC':>5}"
           "  method")
    print(hdr)
    print("-" * len(hdr))
    for path in files:
        s = evaluate(path)
        if s is None:
            continue
        scores.append(s)
        print(f"{s.name[:52]:52} {s.pages:5d} {s.gt:4d} {s.pred:4d} {s.precision:5.2f} {s.recall:5.2f} {s.f1:5.2f} "
              f"{s.level_acc:5.2f} {s.toc_score:5.1f}  {s.method}")
        if args.misses:
            for e in s.missed:
                print(f"    missed   p{e.page:<4} L{e.level} {e.title[:90]}")
            for e in s.spurious:
                print(f"    spurious p{e.page:<4} L{e.level} {e.title[:90]}")
            for g, p in s.wrong_level:
                print(f"    level    p{g.page:<4} gt L{g.level} pred L{p.level} {g.title[:80]}")
    if not scores:
        print("no PDF with an outline of enough entries", file=sys.stderr)
        return 1
    n = len(scores)
    mp = sum(s.precision for s in scores) / n
    mr = sum(s.recall for s in scores) / n
    mf = sum(s.f1 for s in scores) / n
    ml = sum(s.level_acc for s in scores) / n
    mt = sum(s.toc_score for s in scores) / n
    print("-" * len(hdr))
    print(f"{'macro average (' + str(n) + ' documents)':52} {'':5} {'':4} {'':4} {mp:5.2f} {mr:5.2f} {mf:5.2f} "
          f"{ml:5.2f} {mt:5.1f}")
    pages = sum(s.pages for s in scores)
    struct = sum(s.struct_s for s in scores)
    reading = sum(s.read_s for s in scores)
    print(f"structure stage: {pages} pages in {struct:.2f} s = {pages / struct:.0f} pages/s "
          f"(read excluded); {pages / (struct + reading):.0f} pages/s with reading")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
