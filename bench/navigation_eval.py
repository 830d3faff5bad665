"""Navigation quality: does a returned passage hold an evidence page, within a page budget?

For each question of a FinanceBench-style ``QUESTIONS.jsonl`` (``doc_name``, ``question``,
``evidence[].evidence_page`` 1-based), the document is built into a store with the offline
defaults (reused when unchanged) and three retrievers answer with the same ``--max-pages``:

- ``nav``: the navigator (``--navigator``, default the default navigator) restricted to that document;
- ``bm25``: BM25 over the document's whole pages, taking the best ``--max-pages`` pages (the same
  tokenizer and BM25 as the ``lexical`` navigator, :mod:`treebuild.query.terms`);
- ``hybrid``: the navigator seeded with page BM25's pages through the hybrid seam (their nodes and
  ancestors are what it sees).

A hit is a returned page that is an evidence page. Printed per question (hits, pages returned,
calls, tokens, milliseconds, the passages as ``node:pages``) and in total by question type:
``table`` or ``text`` (the set's ``source_chunk_type`` when it has one; otherwise read from the
evidence text: a table when at least ``TABLE_LINE_SHARE`` of its lines are figures only).

    .venv/bin/python bench/navigation_eval.py /work/shared/corpus/pdf \\
        /work/shared/corpus/financebench/questions.jsonl --max-pages 10
    .venv/bin/python bench/navigation_eval.py /work/shared/corpus/sec-10-q \\
        /work/shared/corpus/sec-10-q/questions.jsonl --max-pages 10

``CORPUS_DIR`` is searched (recursively) for ``<doc_name>.pdf``. ``--model``/``--api-base``
pass a model connection to a model navigator (``--navigator litellm``). The commit of the code
measured is printed first (``+dirty`` when the worktree has changes).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from treebuild import Store, ingest
from treebuild.query import DEFAULT_NAVIGATOR, QueryResult, navigate
from treebuild.query.terms import score_texts
from treebuild.settings import ModelConfig

TABLE_LINE_SHARE = 0.3
"""A FinanceBench evidence text whose lines are at least this share figures only (``16,388``,
``$ (1,234)``, ``36.8%``) is a table; prose evidence has none (the 15 shared questions: 0.61-0.75
against 0.0)."""

FIGURE_LINE = re.compile(r"[\s$()\d,.%\-–—]+")
METHODS = ("nav", "bm25", "hybrid")


@dataclass
class Row:
    qid: str
    doc: str
    qtype: str
    evidence: list[int]
    hits: dict[str, bool] = field(default_factory=dict)
    pages: dict[str, int] = field(default_factory=dict)
    calls: int = 0
    tokens: int = 0
    seconds: float = 0.0
    returned: str = ""


def load_questions(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def question_type(q: dict[str, Any]) -> str:
    """``table`` or ``text``: the dataset's chunk type, else read from the evidence text."""
    if q.get("source_chunk_type"):
        return str(q["source_chunk_type"]).casefold()
    lines = [line.strip() for e in q.get("evidence", []) for line in (e.get("evidence_text") or "").splitlines()
             if line.strip()]
    figures = sum(1 for line in lines if FIGURE_LINE.fullmatch(line))
    return "table" if lines and figures / len(lines) >= TABLE_LINE_SHARE else "text"


def page_texts(store: Store, doc_id: str) -> dict[int, str]:
    """Whole physical pages of the stored document (units are pages for PDFs)."""
    tree = store.tree(doc_id)
    pages: dict[int, list[str]] = {}
    for unit in tree.doc.units:
        if unit.page is not None:
            pages.setdefault(unit.page, []).append(unit.text)
    return {p: "\n".join(t) for p, t in pages.items()}


def bm25_pages(question: str, pages: dict[int, str], budget: int) -> list[int]:
    numbers = sorted(pages)
    scores = score_texts(question, [pages[p] for p in numbers])
    ranked = sorted(range(len(numbers)), key=lambda i: (-scores[i], numbers[i]))
    return [numbers[i] for i in ranked[:budget]]


def covered(result: QueryResult) -> set[int]:
    return {p for passage in result.passages if passage.start_page is not None
            for p in range(passage.start_page, (passage.end_page or passage.start_page) + 1)}


def measured_commit() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}+dirty" if dirty else head


def summary(rows: Sequence[Row], label: str) -> str:
    n = len(rows)
    if not n:
        return f"{label:8} 0 questions"
    parts = []
    for method in METHODS:
        hits = sum(r.hits[method] for r in rows)
        pages = sum(r.pages[method] for r in rows) / n
        parts.append(f"{method} {hits}/{n} = {hits / n:.3f} ({pages:.1f} p)")
    return f"{label:8} " + "   ".join(parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("questions", type=Path)
    ap.add_argument("--store", type=Path, default=Path("/tmp/treebuild-navigation-eval"))
    ap.add_argument("--navigator", default=DEFAULT_NAVIGATOR)
    ap.add_argument("--max-pages", type=int, default=10)
    ap.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                    help="override a query limit (treebuild.query.Limits), e.g. --limit max_nodes=10")
    ap.add_argument("--model", default=None)
    ap.add_argument("--api-base", default=None)
    ap.add_argument("--json", action="store_true", help="print one JSON line per question instead of a table")
    args = ap.parse_args()

    questions = load_questions(args.questions)
    store = Store(args.store)
    files = {p.stem: p for p in args.corpus.rglob("*.pdf")}
    docs = sorted({q["doc_name"] for q in questions})
    missing = [d for d in docs if d not in files]
    if missing:
        print(f"not in {args.corpus}: {', '.join(missing)}", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    for doc in docs:
        result = ingest(files[doc], store, doc_id=doc)
        print(f"store: {doc} v{result.version} {result.status}", file=sys.stderr)
    print(f"store ready in {time.perf_counter() - t0:.1f} s: {args.store}", file=sys.stderr)
    config = ModelConfig(model=args.model, api_base=args.api_base) if args.model else None
    pages_of = {doc: page_texts(store, doc) for doc in docs}
    overrides = {k: float(v) if "." in v else int(v) for k, _, v in (item.partition("=") for item in args.limit)}
    limits = {"max_pages": args.max_pages} | overrides

    rows: list[Row] = []
    for q in questions:
        evidence = sorted({e["evidence_page"] for e in q["evidence"] if e["doc_name"] == q["doc_name"]})
        started = time.perf_counter()
        result = navigate(q["question"], store, docs=[q["doc_name"]], navigator=args.navigator, config=config,
                          **limits)
        seconds = time.perf_counter() - started
        bm25 = bm25_pages(q["question"], pages_of[q["doc_name"]], args.max_pages)
        # hybrid seam: page BM25's pages seed the navigation (their nodes and ancestors), same page budget
        hybrid = navigate(q["question"], store, navigator=args.navigator, config=config,
                          seeds={q["doc_name"]: bm25}, **limits)
        got = {"nav": covered(result), "bm25": set(bm25), "hybrid": covered(hybrid)}
        row = Row(q["id"], q["doc_name"], question_type(q), evidence,
                  hits={m: bool(pages & set(evidence)) for m, pages in got.items()},
                  pages={m: len(pages) for m, pages in got.items()}, calls=result.usage.calls,
                  tokens=result.usage.input_tokens + result.usage.output_tokens, seconds=seconds,
                  returned=", ".join(f"{p.node_id}:{p.start_page}-{p.end_page}" for p in result.passages))
        rows.append(row)

    commit = measured_commit()
    if args.json:
        for r in rows:
            print(json.dumps(r.__dict__ | {"commit": commit}))
        return 0
    print(f"commit {commit}; navigator={args.navigator} max_pages={args.max_pages} "
          f"limits={json.dumps(overrides) if overrides else 'defaults'}; {args.questions}")
    print(f"{'question':24} {'type':5} {'evidence':>11} {'nav':>4} {'bm25':>4} {'hyb':>4} {'pages':>5} {'calls':>5} "
          f"{'tokens':>7} {'ms':>6}  returned (node:pages)")
    for r in rows:
        marks = " ".join(f"{'hit' if r.hits[m] else '-':>4}" for m in METHODS)
        print(f"{r.qid[-24:]:24} {r.qtype:5} {','.join(map(str, r.evidence))[-11:]:>11} {marks} {r.pages['nav']:5d} "
              f"{r.calls:5d} {r.tokens:7d} {r.seconds * 1000:6.0f}  {r.returned}")
    n = len(rows)
    print(f"\n{n} questions; hits at {args.max_pages} pages (mean pages returned); navigator '{args.navigator}': "
          f"{sum(r.calls for r in rows)} calls, {sum(r.tokens for r in rows)} tokens, "
          f"{sum(r.seconds for r in rows):.2f} s")
    for qtype in sorted({r.qtype for r in rows}):
        print(summary([r for r in rows if r.qtype == qtype], qtype))
    print(summary(rows, "all"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
