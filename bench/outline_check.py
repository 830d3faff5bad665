"""Does `build` reproduce each PDF's outline? Titles, start pages, nesting, consistent end pages.

    python bench/outline_check.py ../shared/corpus/pdf

For every PDF with bookmarks, the tree built with the defaults is compared entry by entry with
the outline (entries pointing outside the file are ignored). Differences are printed; a tree may
legitimately differ where the outline-quality rules repair a junk or flat outline (see
bench/README.md), and the method column then says so. Page-range consistency (parents cover
children, siblings in order) is checked on every tree.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import treebuild
from treebuild.model import Tree
from treebuild.settings import BuildSettings


def consistency_errors(tree: Tree) -> list[str]:
    errors = []
    for node in tree.walk():
        assert node.start_page is not None and node.end_page is not None
        if node.start_page > node.end_page:
            errors.append(f"{node.node_id} starts after it ends")
        for child in node.children:
            assert child.start_page is not None and child.end_page is not None
            if not (node.start_page <= child.start_page and child.end_page <= node.end_page):
                errors.append(f"{child.node_id} outside its parent {node.node_id}")
        for a, b in zip(node.children, node.children[1:], strict=False):
            if a.end != b.start or (a.start_page or 0) > (b.start_page or 0):
                errors.append(f"siblings {a.node_id}/{b.node_id} out of order")
    return errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    args = ap.parse_args()
    settings = BuildSettings(subdivide=False)
    print(f"{'document':50} {'entries':>7} {'same':>5} {'diff':>5}  consistent  method")
    for path in sorted(args.corpus.glob("*.pdf")):
        t0 = time.perf_counter()
        tree = treebuild.build(path, settings)
        seconds = time.perf_counter() - t0
        n = len(tree.doc.units)
        entries = [e for e in tree.doc.outline if 1 <= e.page <= n]
        if not entries:
            continue
        nodes = [x for x in tree.walk() if x.origin != "preface"]
        got = [(x.title, x.start_page, x.depth) for x in nodes]
        want = [(e.title.strip(), e.page, e.level) for e in entries]
        same = sum(1 for g, w in zip(got, want, strict=False) if g == w)
        diffs = [(w, g) for g, w in zip(got, want, strict=False) if g != w]
        errors = consistency_errors(tree)
        print(f"{path.name[:50]:50} {len(want):7d} {same:5d} {len(want) - same:5d}  "
              f"{'yes' if not errors else 'NO':10}  {tree.method}  ({n / seconds:.0f} pages/s)")
        for w, g in diffs[:3]:
            print(f"    outline {w}  tree {g}")
        if len(got) != len(want):
            print(f"    {len(want)} outline entries, {len(got)} tree nodes")
        for e in errors[:3]:
            print(f"    {e}")


if __name__ == "__main__":
    main()
