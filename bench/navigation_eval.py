"""Navigation quality: does a returned passage hold an evidence page, within a page budget?

For each question of a FinanceBench-style ``QUESTIONS.jsonl`` (``doc_name``, ``question``,
``evidence[].evidence_page`` 1-based), the document is built into a store with the offline
defaults (reused when unchanged), navigated with ``--navigator`` restricted to that document
and ``--max-pages`` pages, and compared with BM25 over the document's whole pages taking the
same number of pages (``bm25s``, same tokenizer as the ``lexical`` navigator). Printed per
question and in total: hit, pages returned, calls, tokens, seconds.

    .venv/bin/python bench/navigation_eval.py /work/shared/corpus/pdf \\
        /work/shared/corpus/financebench/questions.jsonl --max-pages 10

``CORPUS_DIR`` is searched (recursively) for ``<doc_name>.pdf``. ``--model``/``--api-base``
pass a model connection to a model navigator (``--navigator litellm``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from treebuild import Store, ingest
from treebuild.query import navigate
from treebuild.query.navigators.lexical import score_texts
from treebuild.settings import ModelConfig


@dataclass
class Row:
    qid: str
    doc: str
    evidence: list[int]
    hit: bool
    pages: int
    calls: int
    tokens: int
    seconds: float
    bm25_hit: bool
    hybrid_hit: bool
    returned: str


def load_questions(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("questions", type=Path)
    ap.add_argument("--store", type=Path, default=Path("/tmp/treebuild-navigation-eval"))
    ap.add_argument("--navigator", default="lexical")
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

    rows: list[Row] = []
    for q in questions:
        evidence = sorted({e["evidence_page"] for e in q["evidence"] if e["doc_name"] == q["doc_name"]})
        started = time.perf_counter()
        limits = {"max_pages": args.max_pages} | overrides
        result = navigate(q["question"], store, docs=[q["doc_name"]], navigator=args.navigator, config=config,
                          **limits)
        seconds = time.perf_counter() - started
        covered = {p for passage in result.passages if passage.start_page is not None
                   for p in range(passage.start_page, (passage.end_page or passage.start_page) + 1)}
        bm25 = bm25_pages(q["question"], pages_of[q["doc_name"]], args.max_pages)
        returned = ", ".join(f"{p.node_id}:{p.start_page}-{p.end_page}" for p in result.passages)
        # hybrid seam: page BM25's pages seed the navigation (their nodes and ancestors), same page budget
        hybrid = navigate(q["question"], store, navigator=args.navigator, config=config,
                          seeds={q["doc_name"]: bm25}, **limits)
        hybrid_pages = {p for passage in hybrid.passages if passage.start_page is not None
                        for p in range(passage.start_page, (passage.end_page or passage.start_page) + 1)}
        rows.append(Row(q["id"], q["doc_name"], evidence, bool(covered & set(evidence)), len(covered),
                        result.usage.calls, result.usage.input_tokens + result.usage.output_tokens, seconds,
                        bool(set(bm25) & set(evidence)), bool(hybrid_pages & set(evidence)), returned))

    if args.json:
        for r in rows:
            print(json.dumps(r.__dict__))
    else:
        print(f"navigator={args.navigator} max_pages={args.max_pages}")
        print(f"{'question':24} {'document':24} {'evidence':>10} {'nav':>4} {'pages':>5} {'calls':>5} "
              f"{'tokens':>7} {'ms':>6} {'bm25':>5} {'hybrid':>6}  returned (node:pages)")
        for r in rows:
            print(f"{r.qid:24} {r.doc[:24]:24} {','.join(map(str, r.evidence)):>10} {'hit' if r.hit else '-':>4} "
                  f"{r.pages:5d} {r.calls:5d} {r.tokens:7d} {r.seconds * 1000:6.0f} {'hit' if r.bm25_hit else '-':>5}"
                  f" {'hit' if r.hybrid_hit else '-':>6}"
                  f"  {r.returned}")
    n = len(rows)
    nav = sum(r.hit for r in rows)
    base = sum(r.bm25_hit for r in rows)
    hyb = sum(r.hybrid_hit for r in rows)
    print(f"\ntotal: {n} questions; navigator '{args.navigator}' hit {nav}/{n} = {nav / n:.3f} "
          f"(mean {sum(r.pages for r in rows) / n:.1f} pages, {sum(r.calls for r in rows)} calls, "
          f"{sum(r.tokens for r in rows)} tokens, {sum(r.seconds for r in rows):.2f} s); "
          f"page BM25 top-{args.max_pages} hit {base}/{n} = {base / n:.3f}; "
          f"hybrid ('{args.navigator}' seeded with page BM25's pages) hit {hyb}/{n} = {hyb / n:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
