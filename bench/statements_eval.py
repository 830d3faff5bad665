"""Primary financial statements as sections: found / expected per filing, from a hand-labelled file.

``bench/statements.json`` lists, for every filing of ``/work/shared/corpus`` (``pdf/``, ``filings/``,
``sec-10-q/``), each primary statement the document prints (income or operations, comprehensive
income, balance sheet or financial position, cash flows, equity) with the physical 1-based page its
title is printed on. Labels were made by reading the pages, never with treebuild.

Each filing is built twice, offline with the default settings (``treebuild build``: outline used
when trusted, subdivision on), and with the outline ignored. A statement is *found* when a node of
the tree starts on its page and its title names that statement, by this scorer's own reading of a
title (:func:`names`, not the code under test): the statement's words (``balance sheet`` or
``financial position``; ``cash flow``; ``comprehensive income``; ``operations``, ``income`` or
``earnings`` without ``comprehensive``; ``equity`` or ``stockholders' investment``) and a word that
makes it a statement's title (``statement``, ``balance sheet``, ``consolidated``, ``condensed``),
not a note's (``Notes to ...``, ``Analysis of ...``).

    .venv/bin/python bench/statements_eval.py                 # every labelled filing
    .venv/bin/python bench/statements_eval.py --only AAPL -v  # + each statement's node, or what covers its page
"""

from __future__ import annotations

import argparse
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path

from treebuild.model import Node
from treebuild.pipeline import build
from treebuild.settings import BuildSettings

LABELS = Path(__file__).with_name("statements.json")
CORPUS = Path("/work/shared/corpus")

_KIND = {
    "comprehensive_income": re.compile(r"comprehensive\s+(income|loss|earnings)"),
    "income": re.compile(r"\b(operations|income|earnings)\b"),
    "balance_sheet": re.compile(r"balance\s+sheets?|financial\s+(position|condition)"),
    "cash_flows": re.compile(r"cash\s*flows?"),
    "equity": re.compile(r"equity|stockholders.?\s+investment|shareholders.?\s+investment"),
}
_STATEMENT = re.compile(r"statements?\b|balance\s+sheets?|consolidated|condensed")
_NOT_STATEMENT = re.compile(r"^\W*(notes?\s+to|analysis\s+of|supplemental|index\s+to)\b")


def names(title: str, kind: str) -> bool:
    """Whether a node title names the statement ``kind`` (this scorer's reading, see the module doc)."""
    t = " ".join(title.casefold().replace("\u2019", "'").split())
    if not _STATEMENT.search(t) or _NOT_STATEMENT.search(t) or not _KIND[kind].search(t):
        return False
    if kind == "income":
        return "comprehensive" not in t
    return True


@dataclass
class Result:
    found: int
    expected: int
    misses: list[str]
    hits: list[str]
    seconds: float
    pages: int


def covering(nodes: list[Node], page: int) -> str:
    """The deepest node whose pages hold ``page`` (for a miss: where the statement sits)."""
    best: Node | None = None
    for n in nodes:
        if (n.start_page or 0) <= page <= (n.end_page or 0) and (best is None or n.depth >= best.depth):
            best = n
    return f"inside {best.title!r} (pp.{best.start_page}-{best.end_page})" if best else "on no node"


def evaluate(path: Path, statements: list[dict[str, object]], ignore_outline: bool) -> Result:
    t0 = time.perf_counter()
    tree = build(path, BuildSettings(ignore_outline=ignore_outline))
    seconds = time.perf_counter() - t0
    nodes = list(tree.walk())
    found, misses, hits = 0, [], []
    for s in statements:
        kind, page = str(s["statement"]), int(str(s["page"]))
        starting = [n for n in nodes if n.start_page == page]
        named = [n for n in starting if names(n.title, kind)]
        if named:
            found += 1
            hits.append(f"    found  p{page:<4} {kind:21} {named[0].title!r}")
        else:
            others = ", ".join(repr(n.title) for n in starting) or "no node starts there"
            misses.append(f"    MISSED p{page:<4} {kind:21} {others}; {covering(nodes, page)}")
    return Result(found, len(statements), misses, hits, seconds, len(tree.doc.units))


def label_args(doc: str | None, labels: Path, verbose: str, argv: list[str] | None,
               flags: dict[str, str] | None = None) -> argparse.Namespace:
    """The options of a benchmark over a hand-labelled file (``--labels``, ``--corpus``, ``--only``, ``-v``),
    and the benchmark's own on/off ``flags`` (option: help)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--labels", type=Path, default=labels)
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="the folder the labels' paths are relative to")
    ap.add_argument("--only", default=None, help="only files whose path contains this")
    ap.add_argument("-v", "--verbose", action="store_true", help=verbose)
    for flag, text in (flags or {}).items():
        ap.add_argument(flag, action="store_true", help=text)
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = label_args(__doc__, LABELS, "print each statement's node or what covers its page", argv)
    filings = json.loads(args.labels.read_text())["filings"]
    filings = [f for f in filings if args.only is None or args.only in f["file"]]
    totals = {False: [0, 0], True: [0, 0]}
    per_folder: dict[tuple[str, bool], list[int]] = {}
    print(f"{'filing':52} {'outline used':>12} {'ignored':>8}")
    for f in filings:
        path = args.corpus / f["file"]
        cells = []
        details: list[str] = []
        for ignore in (False, True):
            r = evaluate(path, f["statements"], ignore)
            totals[ignore][0] += r.found
            totals[ignore][1] += r.expected
            tally = per_folder.setdefault((f["file"].split("/")[0], ignore), [0, 0])
            tally[0] += r.found
            tally[1] += r.expected
            cells.append(f"{r.found}/{r.expected}")
            label = "outline ignored" if ignore else "outline used"
            if r.misses or args.verbose:
                details.append(f"  {label}:")
                details.extend(r.misses)
                if args.verbose:
                    details.extend(r.hits)
        print(f"{f['file'][:52]:52} {cells[0]:>12} {cells[1]:>8}", flush=True)
        for line in details:
            print(line)
    print()
    for (folder, ignore), (found, expected) in sorted(per_folder.items()):
        print(f"{folder + (' (outline ignored)' if ignore else ' (outline used)'):40} {found}/{expected}")
    for ignore in (False, True):
        found, expected = totals[ignore]
        print(f"{'all, outline ' + ('ignored' if ignore else 'used'):40} {found}/{expected}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
