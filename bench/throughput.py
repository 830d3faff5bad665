"""Throughput of `build` from the PDF outline against raw text extraction.

For each PDF with an outline and at least --min-pages pages (default 400), time:
  raw:   PyMuPDF page.get_text() over every page (the floor any builder pays), and
  build: treebuild.build() with the offline defaults (read + structure + finalize + summarize),
and print pages/s and the ratio build/raw. Target: ratio >= 0.25.

    python bench/throughput.py ../shared/corpus/pdf [--min-pages 400] [--repeat 3] [--no-subdivide]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import pymupdf

import treebuild
from treebuild.settings import BuildSettings


def raw_seconds(path: Path) -> float:
    t0 = time.perf_counter()
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
    return time.perf_counter() - t0


def build_seconds(path: Path, settings: BuildSettings) -> tuple[float, treebuild.Tree]:
    t0 = time.perf_counter()
    tree = treebuild.build(path, settings)
    return time.perf_counter() - t0, tree


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--min-pages", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-subdivide", action="store_true")
    args = ap.parse_args()
    settings = BuildSettings(subdivide=not args.no_subdivide)
    print(f"{'document':48} {'pages':>5} {'raw p/s':>8} {'build p/s':>9} {'ratio':>6} {'nodes':>6} method")
    ratios = []
    for path in sorted(args.corpus.glob("*.pdf")):
        with pymupdf.open(path) as doc:
            pages, has_outline = doc.page_count, bool(doc.get_toc())
        if pages < args.min_pages or not has_outline:
            continue
        raw = statistics.median(raw_seconds(path) for _ in range(args.repeat))
        runs = [build_seconds(path, settings) for _ in range(args.repeat)]
        built = statistics.median(r[0] for r in runs)
        tree = runs[-1][1]
        ratio = raw / built
        ratios.append(ratio)
        print(f"{path.name[:48]:48} {pages:5d} {pages / raw:8.0f} {pages / built:9.0f} {ratio:6.2f} "
              f"{tree.stats['nodes']:6d} {tree.method}")
    if not ratios:
        print(f"no PDF with an outline and >= {args.min_pages} pages in {args.corpus}")
        return
    print(f"median ratio build/raw: {statistics.median(ratios):.2f} (target >= 0.25)")


if __name__ == "__main__":
    main()
