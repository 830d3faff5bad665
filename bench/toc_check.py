"""Printed-TOC stage on a corpus folder: entries found / placed / dropped, accuracy, speed.

Usage: python bench/toc_check.py CORPUS_DIR [--show NAME_PART] [--misses]

For PDFs with an embedded outline, the outline is the truth: a TOC mark is correct when an
outline entry has a title similarity >= 0.85 and the same start page; precision is over TOC
marks, recall over outline entries (only outline entries whose title also appears among the
parsed TOC entries count for "recall@toc", which measures placement rather than coverage).
Speed is pages per second of ``toc_marks`` alone on a freshly read document (typographic
lines are computed inside, as in the pipeline), in CPU time of this process so that other
work on a shared machine does not blur it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from treebuild.readers.pdf import PdfReader
from treebuild.structure.toc.marks import toc_marks
from treebuild.text.normalize import title_similarity
from treebuild.text.numbering import parse_numbering

SIM = 0.85


def _sim(title: str, truth: str) -> float:
    """Similarity ignoring a numbering label that only one side prints ("1.1 Scope" / "Scope")."""
    label = parse_numbering(title, entry=True)
    bare = label.rest if label else title
    t_label = parse_numbering(truth, entry=True)
    t_bare = t_label.rest if t_label else truth
    return max(title_similarity(title, truth), title_similarity(bare, t_bare))


def _match(marks: list[tuple[str, int, int]], truth: list[tuple[str, int, int]]) -> tuple[int, int, int]:
    """Greedy one-to-one matching; returns (matched, level-agreeing, matched truth)."""
    used: set[int] = set()
    matched = levels = 0
    for title, page, level in marks:
        best = None
        for j, (t, p, lv) in enumerate(truth):
            if j in used or p != page:
                continue
            s = _sim(title, t)
            if s >= SIM and (best is None or s > best[0]):
                best = (s, j, lv)
        if best is not None:
            used.add(best[1])
            matched += 1
            levels += best[2] == level
    return matched, levels, len(used)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--show", default=None, help="print the marks of files whose name contains this")
    ap.add_argument("--misses", action="store_true", help="list dropped entries and unmatched marks")
    args = ap.parse_args()
    files = sorted(args.corpus.rglob("*.pdf")) if args.corpus.is_dir() else [args.corpus]
    reader = PdfReader()
    total_pages = 0
    total_time = 0.0
    head = f"{'document':44s} {'pages':>5s} {'toc':>9s} {'ent':>4s} {'plc':>4s} {'drop':>4s} {'map':>7s} " \
           f"{'P':>5s} {'R':>5s} {'R@toc':>5s} {'lvl':>5s} {'ms':>6s} {'p/s':>6s}"
    print(head)
    for path in files:
        doc = reader.read(path)
        t0 = time.process_time()
        res = toc_marks(doc)
        dt = max(time.process_time() - t0, 1e-6)
        n = len(doc.units)
        total_pages += n
        total_time += dt
        name = path.name[:44]
        if res is None:
            print(f"{name:44s} {n:5d} {'-':>9s} {'':>4s} {'':>4s} {'':>4s} {'':>7s} {'':>5s} {'':>5s} {'':>5s} "
                  f"{'':>5s} {dt * 1000:6.0f} {n / dt:6.0f}")
            continue
        toc = f"{res.toc_pages[0] + 1}-{res.toc_pages[-1] + 1}"
        p = r = rt = lv = ""
        marks = [(m.title, doc.units[m.pos.unit].page or m.pos.unit + 1, m.level) for m in res.marks]
        if doc.outline and marks:
            truth = [(e.title, e.page, e.level) for e in doc.outline]
            matched, levels, hit_truth = _match(marks, truth)
            in_toc = [t for t in truth if any(_sim(e.title, t[0]) >= SIM for e in res.parsed)]
            m2, _, hit2 = _match(marks, in_toc)
            p = f"{matched / len(marks):.2f}"
            r = f"{hit_truth / len(truth):.2f}"
            rt = f"{hit2 / len(in_toc):.2f}" if in_toc else "-"
            lv = f"{levels / matched:.2f}" if matched else "-"
        print(f"{name:44s} {n:5d} {toc:>9s} {res.entries:4d} {res.placed:4d} {len(res.dropped):4d} "
              f"{res.page_source:>7s} {p:>5s} {r:>5s} {rt:>5s} {lv:>5s} {dt * 1000:6.0f} {n / dt:6.0f}")
        if args.misses and res.dropped:
            for t in res.dropped:
                print(f"      dropped: {t[:100]}")
        if args.show and args.show in path.name:
            for m in res.marks:
                page = doc.units[m.pos.unit].page
                print(f"      {'  ' * (m.level - 1)}{m.title[:80]}  -> p{page} c{m.pos.char} ({m.confidence:.2f})")
    if total_time:
        print(f"\nall: {total_pages} pages in {total_time:.2f}s of TOC stage = {total_pages / total_time:.0f} pages/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
