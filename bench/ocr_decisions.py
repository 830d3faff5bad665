"""Which pages of born-digital folders ``--ocr auto`` would read by OCR, and why (no OCR is run): the cost of
the default on documents that need none, and the check that born-digital text is never replaced.

    .venv/bin/python bench/ocr_decisions.py /work/shared/corpus/pdf /work/shared/corpus/filings \\
        /work/devcorpus/pdf /work/dev2/pdf
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import pymupdf

from treebuild.readers.ocr_pages import _blank, page_needs_ocr, render_page


def main() -> int:
    total_pages = 0
    reasons: Counter[str] = Counter()
    blank = 0
    seconds = 0.0
    for folder in map(Path, sys.argv[1:]):
        for path in sorted(folder.glob("*.pdf")):
            with pymupdf.open(path) as doc:
                flagged: list[tuple[int, str]] = []
                for i, page in enumerate(doc):
                    text = page.get_text()
                    t0 = time.perf_counter()
                    reason = page_needs_ocr(page, text)
                    seconds += time.perf_counter() - t0
                    if reason is not None:
                        if reason == "no text layer" and _blank(render_page(page, 100)):
                            blank += 1  # the reader renders it, finds it blank, and reads nothing
                            continue
                        flagged.append((i + 1, reason))
                        reasons[reason] += 1
                total_pages += doc.page_count
                if flagged:
                    pages = ", ".join(f"p{p}" for p, _ in flagged[:12]) + (" ..." if len(flagged) > 12 else "")
                    print(f"{path.parent.name}/{path.name}: {len(flagged)} of {doc.page_count} pages ({pages}): "
                          f"{', '.join(sorted({r for _, r in flagged}))}")
    print(f"\n{total_pages} pages; would OCR {sum(reasons.values())} ({dict(reasons)}); blank pages skipped {blank}; "
          f"decision {seconds / max(1, total_pages) * 1000:.2f} ms a page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
