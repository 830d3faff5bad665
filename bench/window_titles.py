"""What page windows are named (issue 24 item 4), and what subdivision costs.

Each PDF of the given folders is read and built with the default settings (outline used,
subdivision on); the window nodes subdivision makes are counted by how they are named: by their
content (a title line or a table's title on their pages), by their section's own name (a first
window, nothing before its section's text), ``"<section> (continued)"``, or a page range (main
before issue 24). CPU time of ``subdivide`` alone is printed per page of the documents.

    TREEBUILD_OCR=off .venv/bin/python bench/window_titles.py /work/shared/corpus/filings [-v]
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from pathlib import Path

from treebuild.model import Node, Origin
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes
from treebuild.structure.subdivide import subdivide

_RANGE = re.compile(r"\((?:pages? \d+(?:-\d+)?|part \d+)\)$")


def kind(node: Node, parent: str) -> str:
    if _RANGE.search(node.title):
        return "page range"
    if node.title == parent:
        return "section's name"
    if node.title == f"{parent} (continued)":
        return "continued"
    return "content"


def walk(nodes: list[Node], parent: str = ""):  # type: ignore[no-untyped-def]
    for n in nodes:
        yield n, parent
        yield from walk(n.children, n.title)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("-v", "--verbose", action="store_true", help="list every window: kind, pages, title")
    args = ap.parse_args()
    settings = BuildSettings()
    for folder in args.folders:
        counts: Counter[str] = Counter()
        pages = 0
        cpu = 0.0
        for path in sorted(folder.glob("*.pdf")):
            doc = read(path)
            roots, _ = build_nodes(doc, settings)
            c0 = time.process_time()
            subdivide(doc, roots, settings)
            cpu += time.process_time() - c0
            pages += len(doc.units)
            for n, parent in walk(roots, doc.display_title):
                if n.origin != Origin.window:
                    continue
                k = kind(n, parent)
                counts[k] += 1
                if args.verbose:
                    print(f"  {path.stem[:28]:28} {k:14} p{n.start_page}-{n.end_page}  {n.title[:90]}")
        total = sum(counts.values())
        shares = "  ".join(f"{k} {counts[k]}" for k in ("content", "section's name", "continued", "page range"))
        print(f"{folder}: {pages} pages, {total} windows: {shares}; subdivide {1000 * cpu / max(pages, 1):.2f} "
              f"ms CPU a page")


if __name__ == "__main__":
    main()
