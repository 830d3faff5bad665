"""Fuzz the build for N minutes: hostile generated PDFs and DOCX files (``tests/fuzzgen.py``, the strategies the
suite's ``tests/test_fuzz.py`` runs bounded) and real corpus files mutated (cut, bytes flipped, objects or parts
deleted). Every input must end in a tree or a clear error within the bound: ``--timeout`` seconds (120) and
``--max-rss-mb`` of peak resident memory (2048) per input. A timeout, a crash of the build process, a peak over
the bound or any exception other than a clear error counts as unexpected, and the input is kept in ``--keep``.
OCR (on by default) reads at most ``--ocr-max-pages`` pages per input (10): a damaged file whose text layer is
lost on more pages ends in the clear error "N pages need OCR, over the limit" instead of minutes of OCR (a mutated
58-page manual took 238 s, all pages OCR'd, under load). A tree with a finding of a guard (``table_pass_failed``,
``source_failed``: a heuristic failed, the document went on without it) is counted and kept too.

Builds run in a worker process (restarted after a timeout or a crash); its peak RSS is reset before each input
(``/proc/self/clear_refs``), so each figure is that input's own.

    nice -n 10 .venv/bin/python bench/fuzz.py --minutes 30
    .venv/bin/python bench/fuzz.py --minutes 1 --corpus /work/shared/corpus/pdf   # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

DEFAULT_CORPUS = ["/work/shared/corpus/pdf", "/work/shared/corpus/filings", "/work/shared/corpus/sec-10-q",
                  "/work/shared/corpus/docx", "/work/devcorpus/pdf", "/work/dev2/pdf"]
ROUND = 25  # hypothesis examples per round (each round has its own seed)
KINDS = ("generated-pdf", "statement-pdf", "generated-docx", "tiny-pages", "mutated-corpus")
WEIGHTS = (32, 10, 15, 3, 40)


# ------------------------------------------------------------------------------- the worker

def worker() -> None:
    """Read input paths from stdin, build each, answer one JSON line per input."""
    import fuzzgen as fg
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)
    for line in sys.stdin:
        path = Path(line.strip())
        try:
            Path("/proc/self/clear_refs").write_text("5")  # reset the peak RSS to the current RSS
        except OSError:
            pass
        t0 = time.perf_counter()
        try:
            outcome = fg.check(path)
            answer: dict[str, Any] = {"kind": outcome.kind, "detail": outcome.detail[:300]}
            if outcome.tree is not None:  # what the guards caught, and whether the PDF table pass found tables
                answer["guarded"] = [f.text[:300] for f in outcome.tree.findings if f.code in fg.GUARDED]
                answer["tables"] = len(outcome.tree.doc.tables)
        except fg.Unexpected as exc:
            answer = {"kind": "unexpected", "detail": str(exc)[:500]}
        answer["seconds"] = time.perf_counter() - t0
        answer["peak_mb"] = _peak_mb()
        print(json.dumps(answer), flush=True)


def _peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Worker:
    def __init__(self, log: Path, ocr_max_pages: int):
        self.log = log
        self.env = {**os.environ, "TREEBUILD_OCR_MAX_PAGES": str(ocr_max_pages)}
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            with open(self.log, "a") as err:
                self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT, env=self.env)
        return self.proc

    def run(self, path: Path, timeout: float) -> dict[str, Any]:
        proc = self.start()
        assert proc.stdin is not None and proc.stdout is not None
        t0 = time.perf_counter()
        proc.stdin.write(f"{path}\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        if not ready:
            self.stop()
            return {"kind": "unexpected", "detail": f"timeout: no result after {timeout:.0f} s",
                    "seconds": time.perf_counter() - t0, "peak_mb": 0.0}
        line = proc.stdout.readline()
        if not line:
            code = proc.wait()
            self.proc = None
            return {"kind": "unexpected", "detail": f"the build process died (exit {code})",
                    "seconds": time.perf_counter() - t0, "peak_mb": 0.0}
        return dict(json.loads(line))

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


# ------------------------------------------------------------------------------- inputs

def generated(kind: str, seed: int, folder: Path) -> list[tuple[Path, str]]:
    """One round of hypothesis examples of ``kind`` written to ``folder``."""
    import fuzzgen as fg
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    out: list[tuple[Path, str]] = []
    if kind == "generated-pdf":
        strategy: Any = st.tuples(fg.pdf_specs(), st.one_of(st.none(), fg.mutations()))
    elif kind == "statement-pdf":
        strategy = st.tuples(fg.statement_specs(), st.one_of(st.none(), fg.mutations()))
    elif kind == "generated-docx":
        strategy = st.tuples(fg.docx_specs(), st.one_of(st.none(), fg.mutations(docx_file=True)))
    else:
        strategy = st.tuples(fg.tiny_pages_specs(), st.none())
    n = 1 if kind == "tiny-pages" else ROUND

    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @hseed(seed)
    @given(strategy)
    def make(example: tuple[Any, Any]) -> None:
        spec, ops = example
        if kind == "generated-docx":
            data, suffix = fg.render_docx(spec), ".docx"
            data = fg.mutate_docx(data, ops) if ops else data
        else:
            data, suffix = fg.render_pdf(spec), ".pdf"
            data = fg.mutate_pdf(data, ops) if ops else data
        path = folder / f"{kind}-{seed}-{len(out):03d}{suffix}"
        path.write_bytes(data)
        out.append((path, kind + (" mutated" if ops else "")))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        make()
    return out


def mutated_corpus(files: list[Path], rng: random.Random, folder: Path, n: int) -> list[tuple[Path, str]]:
    import fuzzgen as fg

    out = []
    for i in range(n):
        src = rng.choice(files)
        is_docx = src.suffix.lower() == ".docx"
        ops = fg.random_mutations(rng, docx_file=is_docx)
        data = src.read_bytes()
        data = fg.mutate_docx(data, ops) if is_docx else fg.mutate_pdf(data, ops)
        path = folder / f"corpus-{rng.randrange(10**9):09d}-{i}-{src.name}"
        path.write_bytes(data)
        out.append((path, f"mutated-corpus {src.suffix.lower()}"))
    return out


# ------------------------------------------------------------------------------- the run

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--corpus", action="append", help="folders of PDF/DOCX files to mutate (repeatable)")
    ap.add_argument("--seed", type=int, default=None, help="default: from the clock (printed)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds one input may take")
    ap.add_argument("--max-rss-mb", type=float, default=2048.0, help="peak resident memory one input may take")
    ap.add_argument("--ocr-max-pages", type=int, default=10, help="pages OCR may read per input")
    ap.add_argument("--keep", type=Path, default=Path(tempfile.gettempdir()) / "treebuild-fuzz-unexpected",
                    help="where inputs that ended unexpectedly are copied")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return
    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    corpus = [p for d in (args.corpus or DEFAULT_CORPUS) if Path(d).is_dir()
              for p in sorted(Path(d).rglob("*")) if p.suffix.lower() in (".pdf", ".docx") and p.is_file()]
    print(f"seed {seed}; {len(corpus)} corpus files to mutate; bound per input: {args.timeout:.0f} s, "
          f"{args.max_rss_mb:.0f} MB peak RSS, OCR of at most {args.ocr_max_pages} pages", flush=True)
    work = Path(tempfile.mkdtemp(prefix="tb-fuzz-"))
    runner = Worker(work / "worker-stderr.log", args.ocr_max_pages)
    counts: Counter[str] = Counter()
    by_source: Counter[tuple[str, str]] = Counter()
    errors: Counter[str] = Counter()
    unexpected: list[tuple[str, str]] = []
    guarded: list[tuple[str, str]] = []
    seconds: list[float] = []
    worst_time, worst_rss = (0.0, ""), (0.0, "")
    deadline = time.monotonic() + args.minutes * 60
    round_no = 0
    try:
        while time.monotonic() < deadline:
            kind = rng.choices(KINDS, WEIGHTS)[0]
            if kind == "mutated-corpus":
                if not corpus:
                    continue
                batch = mutated_corpus(corpus, rng, work, ROUND)
            else:
                batch = generated(kind, seed * 1000 + round_no, work)
            round_no += 1
            for path, source in batch:
                if time.monotonic() >= deadline:
                    break
                res = runner.run(path, args.timeout)
                kind_seen = res["kind"]
                if kind_seen != "unexpected" and res["peak_mb"] > args.max_rss_mb:
                    kind_seen, res["detail"] = "unexpected", f"peak RSS {res['peak_mb']:.0f} MB over the bound"
                counts["inputs"] += 1
                counts[kind_seen] += 1
                by_source[(source, kind_seen)] += 1
                seconds.append(res["seconds"])
                worst_time = max(worst_time, (res["seconds"], source))
                worst_rss = max(worst_rss, (res["peak_mb"], source))
                if kind_seen == "error":
                    errors[_error_class(res["detail"])] += 1
                counts["with tables"] += bool(res.get("tables"))
                for text in res.get("guarded") or []:  # a tree, but a guard caught an error: keep the input
                    counts["guarded"] += 1
                    args.keep.mkdir(parents=True, exist_ok=True)
                    shutil.copy(path, args.keep / path.name)
                    guarded.append((path.name, text))
                    print(f"GUARDED {path.name}: {text}", flush=True)
                if kind_seen == "unexpected":
                    args.keep.mkdir(parents=True, exist_ok=True)
                    shutil.copy(path, args.keep / path.name)
                    unexpected.append((path.name, res["detail"]))
                    print(f"UNEXPECTED {path.name}: {res['detail']}", flush=True)
                path.unlink(missing_ok=True)
            if round_no % 20 == 0:
                print(f"  {counts['inputs']} inputs: {counts['tree']} trees, {counts['error']} clear errors, "
                      f"{counts['unexpected']} unexpected", flush=True)
    finally:
        runner.stop()
        shutil.rmtree(work, ignore_errors=True)
    report(args, seed, counts, by_source, errors, unexpected, guarded, seconds, worst_time, worst_rss)


def _error_class(detail: str) -> str:
    """The cause of a clear error without its file path and parser details."""
    cause = detail.split(": ", 1)[-1]
    for cut in (" (", ": "):
        if cut in cause[12:]:
            cause = cause[:12 + cause[12:].index(cut)]
    return cause[:70]


def report(args: argparse.Namespace, seed: int, counts: Counter[str], by_source: Counter[tuple[str, str]],
           errors: Counter[str], unexpected: list[tuple[str, str]], guarded: list[tuple[str, str]],
           seconds: list[float],
           worst_time: tuple[float, str], worst_rss: tuple[float, str]) -> None:
    import fuzzgen as fg

    print(f"\nfuzz: {args.minutes:g} minutes, seed {seed}")
    print(f"{counts['inputs']} inputs: {counts['tree']} trees, {counts['error']} clear errors, "
          f"{counts['unexpected']} unexpected; {counts['with tables']} trees with tables; {counts['guarded']} "
          f"findings of a guard ({', '.join(fg.GUARDED)})")
    if seconds:
        q = statistics.quantiles(seconds, n=20) if len(seconds) > 1 else [seconds[0]] * 19
        print(f"seconds per input: median {statistics.median(seconds):.2f}, p95 {q[18]:.2f}, "
              f"max {worst_time[0]:.2f} ({worst_time[1]}); peak RSS max {worst_rss[0]:.0f} MB ({worst_rss[1]})")
    print("\n| source | trees | clear errors | unexpected |\n|---|---|---|---|")
    for source in sorted({s for s, _ in by_source}):
        print(f"| {source} | {by_source[(source, 'tree')]} | {by_source[(source, 'error')]} | "
              f"{by_source[(source, 'unexpected')]} |")
    print("\nclear errors by cause:")
    for cause, n in errors.most_common(15):
        print(f"  {n:6d}  {cause}")
    for name, detail in unexpected[:30]:
        print(f"UNEXPECTED {name}: {detail}")
    for name, detail in guarded[:30]:
        print(f"GUARDED {name}: {detail}")
    if unexpected or guarded:
        print(f"inputs kept in {args.keep}")


if __name__ == "__main__":
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    main()
