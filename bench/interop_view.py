"""PageIndex import fidelity and HTML view size on a corpus folder.

For every PDF: build its tree (offline default), then

- view: render the HTML view (thumbnails from the PDF), report seconds, KiB and thumbnails;
- import: export it as PageIndex JSON, strip everything PageIndex itself would not have (our exact
  spans, source hash, origins), import it over the same file, and compare with the built tree:
  titles placed on their page, nodes with the same start position (mid-page starts found), the
  same page range, and the same text.

    .venv/bin/python bench/interop_view.py /work/shared/corpus/pdf [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from treebuild import build, to_pageindex
from treebuild.errors import TreebuildError
from treebuild.interop.pageindex import from_pageindex
from treebuild.view import render_view

_OURS = ("span", "origin", "confidence")


def _strip(nodes: list[dict[str, Any]]) -> None:
    for n in nodes:
        for key in _OURS:
            n.pop(key, None)
        _strip(n.get("nodes", []))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=int, default=None, help="first N PDFs only")
    args = ap.parse_args()
    files = sorted(args.folder.glob("*.pdf"))[: args.limit]
    if not files:
        print(f"no PDFs in {args.folder}", file=sys.stderr)
        return 1
    head = f"{'document':44} {'pages':>5} {'nodes':>5} {'view s':>6} {'KiB':>6} {'thumbs':>6} " \
           f"{'import s':>8} {'placed':>6} {'start=':>6} {'pages=':>6} {'text=':>6}"
    print(head)
    totals = {"nodes": 0, "placed": 0, "start": 0, "pages": 0, "text": 0}
    for f in files:
        try:
            tree = build(f)
        except TreebuildError as exc:
            print(f"{f.name[:44]:44} error: {exc}")
            continue
        nodes = list(tree.walk())
        t0 = time.perf_counter()
        view = render_view(tree)
        view_s = time.perf_counter() - t0
        data = to_pageindex(tree)
        data.pop("source")
        _strip(data["structure"])
        t0 = time.perf_counter()
        imported = from_pageindex(data, tree.doc, fill_summaries=False)
        import_s = time.perf_counter() - t0
        got = list(imported.walk())
        placed = sum(n.confidence == 1.0 for n in got)
        start = sum(a.start == b.start for a, b in zip(nodes, got, strict=True))
        pages = sum((a.start_page, a.end_page) == (b.start_page, b.end_page) for a, b in zip(nodes, got, strict=True))
        text = sum(a.text() == b.text() for a, b in zip(nodes, got, strict=True))
        for key, value in (("nodes", len(nodes)), ("placed", placed), ("start", start), ("pages", pages),
                           ("text", text)):
            totals[key] += value
        n = len(nodes)
        print(f"{f.name[:44]:44} {tree.doc.page_count or 0:5d} {n:5d} {view_s:6.2f} {len(view.html) / 1024:6.0f} "
              f"{view.thumbnails:6d} {import_s:8.2f} {placed / n:6.1%} {start / n:6.1%} {pages / n:6.1%} "
              f"{text / n:6.1%}")
    n = totals["nodes"] or 1
    print(f"\nall {totals['nodes']} nodes: titles placed {totals['placed'] / n:.1%}, same start "
          f"{totals['start'] / n:.1%}, same pages {totals['pages'] / n:.1%}, same text {totals['text'] / n:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
