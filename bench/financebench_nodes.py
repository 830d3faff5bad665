"""Where FinanceBench evidence pages land in the built trees.

For each question of ``financebench/questions.jsonl`` and each of its evidence pages, the
document's tree is built with the default settings (outline used when the PDF has one, subdivision
on, offline summaries; one build per document) and the smallest node holding that page is printed:
the node whose own text (a leaf's span, a parent's lead before its first child; together they
partition the document) covers most of the page's text, fewer pages first on a tie. Printed: its
path of titles from the root, the pages of that text (what a navigator who picks the node reads)
and its origin. The words it shares with the question are printed
as a hint only: whether a navigator would recognise the node is judged by reading the table.

Summary: median pages of the containing node's text, evidence pages in nodes of at most 3 pages, and
evidence pages that fall in a "Preface" or page-window node (nothing a navigator can aim at).

    .venv/bin/python bench/financebench_nodes.py /work/shared/corpus [--markdown]

``CORPUS_DIR`` holds ``financebench/questions.jsonl`` and the PDFs under ``pdf/``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from treebuild import BuildSettings, Node, Tree, build

SMALL = 3
_WORD = re.compile(r"[a-z][a-z0-9'’\-]{2,}")
_STOP = frozenset(
    "the and for with from that this what which who whom how does did has have had are was were its his her "
    "their there than then into over under about as of in on at to by or an be is it if not any all per use "
    "useful metric company like state explain why based data fy2021 fy2022 fy2023 fy2020 q22023 year years "
    "compare compared between units percents round decimal place much many change changed changes "
    "expect future relevant improving profile reported primary".split()
)


@dataclass
class Hit:
    qid: str
    doc: str
    page: int
    question: str
    node: Node | None
    shared: list[str]

    @property
    def pages(self) -> int:
        return own_pages(self.node) if self.node is not None else 0

    @property
    def blind(self) -> bool:
        """A preface or page-window node: a title that tells a navigator nothing."""
        n = self.node
        return n is None or any(x.origin in ("preface", "window") for x in n.path())


def own_pages(node: Node) -> int:
    """Pages of the node's own text: its whole range for a leaf, its lead for a parent."""
    if node.start_page is None or node.end_page is None:
        return 0
    if not node.children:
        return node.end_page - node.start_page + 1
    first = node.children[0]
    end = first.start_page if first.start_page is not None else node.end_page
    if first.start.char == 0 and end > node.start_page:
        end -= 1  # the first child starts at the top of its page
    return end - node.start_page + 1


def _page_chars(node: Node, tree: Tree, page: int) -> int:
    """Characters of physical page ``page`` inside the node's own text."""
    doc = tree.doc
    unit = next((u for u in doc.units if u.page == page), None)
    if unit is None:
        return 0
    start, end = node.start, node.own_end()
    lo = 0 if start.unit < unit.index else (start.char if start.unit == unit.index else len(unit.text))
    hi = len(unit.text) if end.unit > unit.index else (end.char if end.unit == unit.index else 0)
    return max(0, hi - lo)


def containing_node(tree: Tree, page: int) -> Node | None:
    """The node whose own text holds most of ``page``'s text; among equals the one with fewer pages."""
    best: tuple[int, int, Node] | None = None
    for node in tree.walk():
        chars = _page_chars(node, tree, page)
        if chars <= 0:
            continue
        key = (chars, -own_pages(node))
        if best is None or key > best[:2]:
            best = (key[0], key[1], node)
    return best[2] if best is not None else None


def _words(text: str) -> list[str]:
    """Content words in reading order (so the printed hint does not depend on set order)."""
    words = (w.strip("'’-") for w in _WORD.findall(text.casefold()))
    return [w for w in dict.fromkeys(words) if w not in _STOP]


def shared_words(question: str, node: Node) -> list[str]:
    """Question words (a crude stem: first 5 letters) that appear in the node's path titles."""
    q = {w[:5] for w in _words(question)}
    found: list[str] = []
    for n in node.path():
        for w in _words(n.title):
            if w[:5] in q and w not in found:
                found.append(w)
    return found


def collect(corpus: Path) -> list[Hit]:
    questions = [json.loads(line) for line in (corpus / "financebench" / "questions.jsonl").read_text().splitlines()
                 if line.strip()]
    trees: dict[str, Tree] = {}
    hits: list[Hit] = []
    for q in questions:
        for ev in q["evidence"]:
            name = ev["doc_name"]
            if name not in trees:
                pdf = corpus / "pdf" / f"{name}.pdf"
                print(f"building {pdf.name} ...", file=sys.stderr)
                trees[name] = build(pdf, BuildSettings())
            tree = trees[name]
            node = containing_node(tree, int(ev["evidence_page"]))
            hits.append(Hit(q["id"].removeprefix("financebench_id_"), name, int(ev["evidence_page"]), q["question"],
                            node, shared_words(q["question"], node) if node is not None else []))
    return hits


def _path(node: Node | None, width: int) -> str:
    if node is None:
        return "(no node)"
    titles = [n.title if len(n.title) <= width else n.title[: width - 1] + "…" for n in node.path()]
    return " > ".join(titles)


def summary(hits: list[Hit]) -> list[str]:
    sizes = [h.pages for h in hits]
    small = sum(1 for s in sizes if s <= SMALL)
    blind = sum(1 for h in hits if h.blind)
    return [
        f"{len(hits)} evidence pages ({len({h.qid for h in hits})} questions, {len({h.doc for h in hits})} documents)",
        f"median pages of the containing node's own text: {statistics.median(sizes):g} "
        f"(mean {statistics.mean(sizes):.1f}, max {max(sizes)})",
        f"evidence pages in nodes of <= {SMALL} pages: {small}/{len(hits)}",
        f"evidence pages in a Preface or window node: {blind}/{len(hits)}",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", type=Path, help="corpus folder with financebench/questions.jsonl and pdf/")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table (for bench/README.md)")
    ap.add_argument("--width", type=int, default=48, help="characters kept of each title in the path")
    args = ap.parse_args(argv)
    hits = collect(args.corpus)
    if args.markdown:
        print("| id | document | page | containing node (path from the root) | pages | origin | shared words |")
        print("|---|---|---:|---|---:|---|---|")
        for h in hits:
            origin = h.node.origin if h.node is not None else "-"
            print(f"| {h.qid} | {h.doc} | {h.page} | {_path(h.node, args.width).replace('|', '/')} | {h.pages} | "
                  f"{origin} | {', '.join(h.shared) or '-'} |")
        print()
        for line in summary(hits):
            print(f"- {line}")
        return 0
    for h in hits:
        origin = h.node.origin if h.node is not None else "-"
        print(f"{h.qid}  {h.doc}  p{h.page}  {h.pages}p  {origin}")
        print(f"    Q: {h.question[:150]}")
        print(f"    node: {_path(h.node, args.width)}")
        print(f"    shared words: {', '.join(h.shared) or '-'}")
    print()
    for line in summary(hits):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
