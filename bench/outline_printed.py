"""How much of each outline is printed where it points: the ceiling of any system that reads
section titles off the pages, under the scorer of ``structure_eval.py``.

An outline entry can be matched only by a section that starts on the entry's page with a title at
least 0.85 similar to the entry's (the scorer's normalisation, ``structure_eval.title_key``). A
system that finds headings on the page can only output text printed there; so an entry whose title
is printed nowhere on its page (a designer's working name such as ``DCG Overview - Option 1`` or
``BLANK (DO NOT REMOVE)``, a file name ``Ex 10.13 Q4 2022.pdf``, an abbreviation ``MFC`` for
``Missiles and Fire Control``) cannot be matched by any of them. Here an entry counts as printed
when some stretch of its page's text is at least 0.85 similar to its title (rapidfuzz
``partial_ratio`` on the scorer's normalisation of both); that is generous (a short title may be
found inside a longer word), so the figures are an upper bound.

Per document: entries, entries printed on their page, the recall ceiling R = printed / entries and
the F1 ceiling 2R / (1 + R) (every printed entry found, nothing else predicted); per folder the
macro averages, to set beside the folder's measured F1. Nothing here runs treebuild's structure
code: only PyMuPDF's page text and the scorer's own normalisation.

    .venv/bin/python bench/outline_printed.py ../shared/corpus/pdf ../shared/corpus/filings \
        ../devcorpus/pdf ../dev2/pdf ../heldout/pdf [--misses] [--min-entries 8]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pymupdf
from rapidfuzz import fuzz

sys.path.insert(0, str(Path(__file__).resolve().parent))
from structure_eval import THRESHOLD, raw_outline, title_key  # noqa: E402  (the scorer's own rules)


def printed(path: Path) -> tuple[int, list[str]]:
    """(entries, titles of the entries not printed on their page)."""
    gt, _ = raw_outline(path)
    with pymupdf.open(path) as pdf:
        texts: dict[int, str] = {}
        missing: list[str] = []
        for e in gt:
            if e.page not in texts:
                texts[e.page] = title_key(pdf[e.page - 1].get_text())  # no label to strip from a page
            key = title_key(e.title)
            if not key or fuzz.partial_ratio(key, texts[e.page]) < THRESHOLD * 100:
                missing.append(f"p{e.page} {e.title}")
    return len(gt), missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="+", type=Path)
    ap.add_argument("--misses", action="store_true", help="list the entries not printed on their page")
    ap.add_argument("--min-entries", type=int, default=8, help="as structure_eval.py: smaller outlines are skipped")
    args = ap.parse_args(argv)
    summary: list[str] = []
    for folder in args.corpus:
        print(f"\n## {folder}\n")
        print(f"{'document':52} {'gt':>5} {'printed':>7} {'R max':>6} {'F1 max':>6}")
        ceilings: list[tuple[float, float]] = []
        for path in sorted(folder.glob("*.pdf")):
            n, missing = printed(path)
            if n < args.min_entries:
                continue
            r = (n - len(missing)) / n
            f1 = 2 * r / (1 + r) if r else 0.0
            ceilings.append((r, f1))
            print(f"{path.name[:52]:52} {n:5d} {n - len(missing):7d} {r:6.2f} {f1:6.2f}")
            if args.misses:
                for title in missing:
                    print(f"    not printed {title[:90]}")
        if ceilings:
            mr = sum(r for r, _ in ceilings) / len(ceilings)
            mf = sum(f for _, f in ceilings) / len(ceilings)
            print(f"{'macro average':52} {'':5} {'':7} {mr:6.2f} {mf:6.2f}")
            summary.append(f"{folder.parent.name}/{folder.name} ({len(ceilings)} documents)"[:52].ljust(52)
                           + f" {mr:6.2f} {mf:6.2f}")
    print("\n## per folder: the ceiling of a page reader (macro R max, F1 max)\n")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
