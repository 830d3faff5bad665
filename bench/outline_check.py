"""Does `build` reproduce each PDF's outline? Titles, start pages, nesting, consistent end pages.

    python bench/outline_check.py ../shared/corpus/pdf

For every PDF with bookmarks, the tree built with the defaults is compared entry by entry with
the outline (entries pointing outside the file are ignored). Differences are printed; a tree may
legitimately differ where the outline-quality rules repair a junk or flat outline (see
bench/README.md), and the method column then says so. Page-range consistency (parents cover
children, siblings in order) is checked on every tree.

The ``empty`` column counts nodes whose span is empty (start == end): a section that gets no text
at all. Each is listed with the next node, which starts at the same position, and the reason: the
outline gives both the same destination (``same destination``: page-only ``/Fit`` bookmarks, an
anchor at the page top), or the entry pointed before its predecessor and was moved forward
(``moved forward``), or neither (``other``: worth a look).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import treebuild
from treebuild.model import Node, OutlineEntry, Tree
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


def empty_nodes(tree: Tree) -> list[tuple[Node, Node | None, str]]:
    """Nodes with an empty span, each with the node after it in preorder and a reason."""
    nodes = list(tree.walk())
    n = len(tree.doc.units)
    entries = [e for e in tree.doc.outline if 1 <= e.page <= n]
    dest: dict[int, OutlineEntry] = {}
    if tree.method == "outline" and len([x for x in nodes if x.origin == "outline"]) == len(entries):
        dest = {id(x): e for x, e in zip([x for x in nodes if x.origin == "outline"], entries, strict=True)}
    out: list[tuple[Node, Node | None, str]] = []
    for i, node in enumerate(nodes):
        if node.start != node.end:
            continue
        nxt = nodes[i + 1] if i + 1 < len(nodes) else None
        here, there = dest.get(id(node)), dest.get(id(nxt)) if nxt is not None else None
        if here is not None and there is not None and (here.page, here.y) == (there.page, there.y):
            reason = "same destination"
        elif i > 0 and here is not None and (prev := dest.get(id(nodes[i - 1]))) is not None \
                and (here.page, here.y or 0.0) < (prev.page, prev.y or 0.0):
            reason = "moved forward"
        else:
            reason = "other"
        out.append((node, nxt, reason))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--show-empty", type=int, default=3, metavar="N", help="list N empty nodes per document")
    args = ap.parse_args()
    settings = BuildSettings(subdivide=False)
    print(f"{'document':50} {'entries':>7} {'same':>5} {'diff':>5} {'empty':>5}  consistent  method")
    total_empty = 0
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
        empty = empty_nodes(tree)
        total_empty += len(empty)
        print(f"{path.name[:50]:50} {len(want):7d} {same:5d} {len(want) - same:5d} {len(empty):5d}  "
              f"{'yes' if not errors else 'NO':10}  {tree.method}  ({n / seconds:.0f} pages/s)")
        for w, g in diffs[:3]:
            print(f"    outline {w}  tree {g}")
        if len(got) != len(want):
            print(f"    {len(want)} outline entries, {len(got)} tree nodes")
        for e in errors[:3]:
            print(f"    {e}")
        reasons = sorted({r for _, _, r in empty})
        if empty:
            print("    empty: " + ", ".join(f"{sum(r == k for _, _, r in empty)} {k}" for k in reasons))
        for node, nxt, reason in empty[: args.show_empty]:
            after = f"{nxt.title!r} at the same position" if nxt is not None else "the document end"
            print(f"    empty {node.node_id} {node.title!r} (p{node.start_page}): {reason}, before {after}")
    print(f"empty nodes in all documents: {total_empty}")


if __name__ == "__main__":
    main()
