"""CPU time of the PDF layout pass by path: ``extractDICT`` on every page (as the reader did before
:mod:`treebuild.readers.pdf_styles`), or MuPDF's JSON and HTML writers (as it does now, falling back
to ``extractDICT`` on a page whose two writings do not match).

The two are timed one after another on each document, in rotating order, ``--repeat`` times, and
each document keeps its best time per path: on a shared host a folder's total moves by 20% from one
run to the next, while the paths' ratio on the same document, measured side by side, holds.

    .venv/bin/python bench/layout_paths.py ../shared/corpus/pdf ../shared/corpus/filings --repeat 2
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import treebuild.readers.pdf as pdf_reader
from treebuild.readers import read

_PATHS = ("dict", "writers")


def _layout_cpu(path: Path, mode: str) -> float:
    """CPU seconds of every page's layout pass of ``path`` in ``mode`` (reading excluded)."""
    writers = pdf_reader.page_styles
    if mode == "dict":
        pdf_reader.page_styles = lambda *_args: None
    try:
        doc = read(path)
        c0 = time.process_time()
        for i in range(len(doc.units)):
            doc.lines(i)
        return time.process_time() - c0
    finally:
        pdf_reader.page_styles = writers


def main(folders: list[str], repeat: int) -> None:
    for folder in folders:
        best: dict[str, dict[str, float]] = {m: {} for m in _PATHS}
        pages = 0
        for path in sorted(Path(folder).glob("*.pdf")):
            pages += len(read(path).units)
            for r in range(repeat):
                order = _PATHS if r % 2 == 0 else _PATHS[::-1]
                for mode in order:
                    cpu = _layout_cpu(path, mode)
                    best[mode][path.name] = min(best[mode].get(path.name, cpu), cpu)
        totals = {m: sum(best[m].values()) for m in _PATHS}
        line = ", ".join(f"{m} {pages / max(totals[m], 1e-9):.0f} pages/s" for m in _PATHS)
        ratio = totals["writers"] / totals["dict"]
        print(f"{folder}: {pages} pages; layout pass CPU: {line}; writers/dict {ratio:.2f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    main(args.folders, args.repeat)
