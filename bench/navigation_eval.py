"""Navigation quality: does a returned passage hold an evidence page, within a page budget?

A thin caller of :mod:`treebuild.evaluate` (what ``treebuild eval`` runs), printing its figures in this
benchmark's format. For each question of a FinanceBench-style ``QUESTIONS.jsonl`` (``doc_name``, ``question``,
``evidence[].evidence_page`` 1-based), the document is built into a store with the offline defaults (reused
when unchanged) and three retrievers answer with the same ``--max-pages``:

- ``nav``: the navigator (``--navigator``, default the default navigator) restricted to that document;
- ``bm25``: BM25 over the document's whole pages, taking the best ``--max-pages`` pages (the same
  tokenizer and BM25 as the ``lexical`` navigator, :mod:`treebuild.query.terms`);
- ``hybrid``: the navigator seeded with page BM25's pages through the hybrid seam (their nodes and
  ancestors are what it sees).

A hit is a returned page that is an evidence page. Printed per question (hits, pages returned,
calls, tokens, milliseconds, the passages as ``node:pages``) and in total by question type:
``table`` or ``text`` (the set's ``source_chunk_type`` when it has one; otherwise read from the
evidence text: a table when at least ``TABLE_LINE_SHARE`` of its lines are figures only,
:func:`treebuild.evaluate.question_type`; ``text`` when there is no evidence text).

    .venv/bin/python bench/navigation_eval.py /work/shared/corpus/pdf \\
        /work/shared/corpus/financebench/questions.jsonl --max-pages 10
    .venv/bin/python bench/navigation_eval.py /work/shared/corpus/sec-10-q \\
        /work/shared/corpus/sec-10-q/questions.jsonl --max-pages 10

``CORPUS_DIR`` is searched (recursively) for ``<doc_name>.pdf`` (or another format treebuild reads).
``--model``/``--api-base`` pass a model connection to a model navigator (``--navigator litellm``). The
commit of the code measured is printed first (``+dirty`` when the worktree has changes).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from treebuild import Store, TreebuildError
from treebuild.evaluate import METHODS, EvalReport, EvalRow, evaluate, load_questions, prepare_documents
from treebuild.evaluate.report import summary_line
from treebuild.query import DEFAULT_NAVIGATOR
from treebuild.settings import ModelConfig


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


def qtype(row: EvalRow) -> str:
    return row.question.qtype or "text"


def evidence(row: EvalRow) -> list[int]:
    """The evidence pages in the question's document, in page order."""
    doc = row.question.docs[0] if len(row.question.docs) == 1 else None
    return sorted({e.page for e in row.question.evidence if e.doc_id in (None, doc)})


def record(row: EvalRow, commit: str) -> dict[str, Any]:
    """One ``--json`` line."""
    q = row.question
    return {"qid": q.id, "doc": ",".join(q.docs), "qtype": qtype(row), "evidence": evidence(row),
            "hits": {m: r.hit for m, r in row.methods.items()}, "pages": {m: r.pages for m, r in row.methods.items()},
            "calls": row.calls, "tokens": row.tokens, "seconds": row.seconds,
            "returned": ", ".join(row.methods["nav"].returned), "commit": commit}


def print_table(report: EvalReport, header: str) -> None:
    print(header)
    print(f"{'question':24} {'type':5} {'evidence':>11} {'nav':>4} {'bm25':>4} {'hyb':>4} {'pages':>5} {'calls':>5} "
          f"{'tokens':>7} {'ms':>6}  returned (node:pages)")
    for r in report.rows:
        marks = " ".join(f"{'hit' if r.methods[m].hit else '-':>4}" for m in METHODS)
        returned = f"error: {r.error}" if r.error else ", ".join(r.methods["nav"].returned)
        print(f"{r.question.id[-24:]:24} {qtype(r):5} {','.join(map(str, evidence(r)))[-11:]:>11} {marks} "
              f"{r.methods['nav'].pages:5d} {r.calls:5d} {r.tokens:7d} {r.seconds * 1000:6.0f}  {returned}")
    t = report.totals()
    print(f"\n{t['questions']} questions; hits at {report.max_pages} pages (mean pages returned); navigator "
          f"'{report.navigator}': {t['calls']} calls, {t['tokens']} tokens, {t['seconds']:.2f} s")
    groups: dict[str, Sequence[EvalRow]] = {k: [r for r in report.rows if qtype(r) == k]
                                            for k in sorted({qtype(r) for r in report.rows})}
    for label, rows in [*groups.items(), ("all", report.rows)]:
        print(summary_line(report.totals(rows), label, METHODS))


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

    overrides: dict[str, Any] = {k: float(v) if "." in v else int(v)
                                 for k, _, v in (item.partition("=") for item in args.limit)}
    limits = {k: v for k, v in overrides.items() if k != "max_pages"}
    max_pages = overrides.get("max_pages", args.max_pages)  # a --limit max_pages=N wins, as in every query
    try:
        questions = load_questions(args.questions)
        store = Store(args.store)
        t0 = time.perf_counter()
        prepare_documents(questions, store, args.corpus, on_ingest=lambda doc, result: print(
            f"store: {doc} v{result.version} {result.status}", file=sys.stderr))
        print(f"store ready in {time.perf_counter() - t0:.1f} s: {args.store}", file=sys.stderr)
        config = ModelConfig(model=args.model, api_base=args.api_base) if args.model else None
        report = evaluate(questions, store, navigator=args.navigator, config=config, max_pages=max_pages,
                          limits=limits, source=str(args.questions))
    except TreebuildError as exc:
        print(exc, file=sys.stderr)
        return 1

    commit = measured_commit()
    if args.json:
        for r in report.rows:
            print(json.dumps(record(r, commit)))
        return 0
    print_table(report, f"commit {commit}; navigator={args.navigator} max_pages={args.max_pages} "
                        f"limits={json.dumps(overrides) if overrides else 'defaults'}; {args.questions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
