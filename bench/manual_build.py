"""Build time of one 1,000-page manual: real manuals joined into one PDF, built whole.

The corpus has no PDF that long, so the PDFs given (in order) are joined with PyMuPDF until the
page count is reached (the last one cut there), their outlines carried over. Then
``treebuild.build`` runs with the offline defaults (outline trusted, subdivision on, extractive
summaries) and again with the outline ignored (every page's typography read: the worst case),
and the time of each stage is printed. Target: under 10 s.

    .venv/bin/python bench/manual_build.py ../shared/corpus/pdf/debian-policy__policy.pdf \
        ../shared/corpus/pdf/r-doc-pdf__R-exts.pdf ../shared/corpus/pdf/sbcl-doc__sbcl.pdf \
        ../shared/corpus/pdf/python-reportlab-doc__reportlab-userguide.pdf ../devcorpus/pdf/debian__nicematrix.pdf \
        ../devcorpus/pdf/debian__asymptote.pdf [--pages 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import pymupdf

import treebuild
from treebuild.settings import BuildSettings


def join(paths: list[Path], pages: int, out: Path) -> int:
    """Join ``paths`` into ``out`` up to ``pages`` pages, outlines included; the page count."""
    joined = pymupdf.open()
    toc: list[list[Any]] = []
    for path in paths:
        if joined.page_count >= pages:
            break
        with pymupdf.open(path) as src:
            take = min(src.page_count, pages - joined.page_count)
            offset = joined.page_count
            joined.insert_pdf(src, from_page=0, to_page=take - 1)
            for level, title, page in src.get_toc(simple=True):
                if 1 <= page <= take and level <= (toc[-1][0] + 1 if toc else 1):
                    toc.append([level, title, page + offset])
    joined.set_toc(toc)
    joined.save(out)
    count = joined.page_count
    joined.close()
    return count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdfs", type=Path, nargs="+")
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "manual.pdf"
        pages = join(args.pdfs, args.pages, path)
        print(f"{pages} pages joined from {len(args.pdfs)} PDFs; median of {args.repeat} builds, wall clock")
        for label, settings in (("outline (defaults)", BuildSettings()),
                                ("outline ignored", BuildSettings(ignore_outline=True))):
            runs: list[tuple[float, dict[str, float], treebuild.Tree]] = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                tree = treebuild.build(path, settings)
                runs.append((time.perf_counter() - t0, tree.stats["stage_seconds"], tree))
            total = statistics.median(r[0] for r in runs)
            stages = {k: statistics.median(r[1][k] for r in runs) for k in runs[0][1]}
            tree = runs[-1][2]
            detail = ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
            print(f"  {label:20s} {total:6.2f} s ({pages / total:.0f} pages/s; {detail}); "
                  f"{tree.stats['nodes']} nodes, method {tree.method}")


if __name__ == "__main__":
    main()
