"""Model economy per document: requests, input tokens and their ratio to the document's own tokens.

Target: input tokens <= 1.1x the document's tokens (each token read about once; PageIndex reads
~4x in its classic mode, 160-230 calls per 100 pages), zero requests when an unchanged document
is built again with the summaries of its first build, and zero structure requests wherever an
outline, printed TOC or headings exist.

``ratio`` is ``treebuild.summarize.economy_ratio``: summary input tokens over the document's tokens,
the document counted as at least ``economy_floor`` (10 requests' fixed instructions, ~1000 tokens)
so that a document too small for any prompt to meet 1.1x (one request's instructions are more than
a tenth of it) is measured against that floor; ``raw`` is input over the document's own tokens.
Documents under the floor are marked ``<floor`` and still counted in the totals.

Without ``--model`` the loopback OpenAI-compatible test server (tests/openai_server.py) is started
and answers every request deterministically, so the economy is measured offline through the real
litellm path. With ``--model`` (and ``--api-base`` for vLLM, llama.cpp, Ollama ...) a real model is
used and the summaries it writes can be printed with ``--show``.

    .venv/bin/python bench/llm_economy.py /work/shared/corpus/pdf [--only ADOBE] [--limit 5] [--structure]
    .venv/bin/python bench/llm_economy.py CORPUS --model openai/qwen2.5 --api-base http://127.0.0.1:8000/v1
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from treebuild.llm.tokens import count_tokens, encoding_name  # noqa: E402
from treebuild.model import Tree, Usage  # noqa: E402
from treebuild.pipeline import build_doc  # noqa: E402
from treebuild.readers import SUPPORTED_SUFFIXES, read  # noqa: E402
from treebuild.settings import BuildSettings, ModelConfig  # noqa: E402
from treebuild.structure.model_fallback import model_structure  # noqa: E402
from treebuild.summarize import ECONOMY_TARGET, document_title, economy_floor, economy_ratio  # noqa: E402

NO_STRUCTURE = {"single", "windows"}
"""Build methods that mean the deterministic stages found no usable structure."""


@dataclass
class Row:
    name: str
    pages: int
    nodes: int
    method: str
    doc_tokens: int
    calls: int
    prompt_tokens: int
    completion_tokens: int
    failures: dict[str, int]
    rebuild_calls: int
    structure_calls: int
    structure_tokens: int
    seconds: float
    floor: int  # economy_floor of this document
    ratio: float  # economy_ratio: input per document token, the document counted as at least the floor

    @property
    def raw_ratio(self) -> float:
        return self.prompt_tokens / self.doc_tokens if self.doc_tokens else 0.0

    @property
    def per_100_pages(self) -> float:
        return 100.0 * self.calls / self.pages if self.pages else 0.0


class DictCache(dict[str, str]):
    """What the store gives the next version: summary_key -> summary of the earlier build."""

    def add(self, tree: Tree) -> DictCache:
        self.update({n.summary_key: n.summary for n in tree.walk() if n.summary_key and n.summary is not None})
        if tree.description_key and tree.description:
            self[tree.description_key] = tree.description
        return self


def loopback_responder() -> Any:
    from openai_server import Reply, Request, asked_ids, echo_summaries

    def respond(request: Request) -> Reply:
        if asked_ids(request):
            return echo_summaries(request, words=45)  # about as long as a real model's summaries
        return Reply(content=json.dumps({"sections": []}))  # structure requests: counted, not answered

    return respond


def measure(path: Path, config: ModelConfig, *, show: bool, structure_all: bool = False) -> Row:
    doc = read(path)
    settings = BuildSettings(model=config.model)
    t0 = time.perf_counter()
    tree = build_doc(doc, settings, model_config=config)
    seconds = time.perf_counter() - t0
    again = build_doc(doc, settings, model_config=config, cache=DictCache().add(tree))
    structure = Usage()
    if structure_all or tree.method in NO_STRUCTURE:
        model_structure(doc, config, structure)
    if show:
        print(f"\n## {path.name}: {tree.description}")
        for node in tree.walk():
            print(f"{'  ' * (node.depth - 1)}[{node.node_id}] {node.title} ({node.summary_origin}): {node.summary}")
    u = tree.usage
    doc_tokens = count_tokens("\n".join(x.text for x in doc.units))
    title = document_title(tree)
    row = Row(name=path.name, pages=doc.page_count or len(doc.units), nodes=len(list(tree.walk())),
              method=tree.method, doc_tokens=doc_tokens, calls=u.calls,
              prompt_tokens=u.prompt_tokens, completion_tokens=u.completion_tokens, failures=dict(u.failures),
              rebuild_calls=again.usage.calls, structure_calls=structure.calls,
              structure_tokens=structure.prompt_tokens, seconds=seconds, floor=economy_floor(title),
              ratio=economy_ratio(u.prompt_tokens, doc_tokens, title))
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--model", help="litellm model id (default: loopback test server as openai/test)")
    parser.add_argument("--api-base")
    parser.add_argument("--api-key")
    parser.add_argument("--only", help="only files whose name contains this")
    parser.add_argument("--limit", type=int, help="at most this many files")
    parser.add_argument("--show", action="store_true", help="print every summary")
    parser.add_argument("--structure", action="store_true",
                        help="measure the model structure fallback on every document, as if none had structure")
    args = parser.parse_args(argv)

    files = sorted(p for p in args.corpus.rglob("*") if p.suffix.lower() in SUPPORTED_SUFFIXES)
    if args.only:
        files = [p for p in files if args.only.casefold() in p.name.casefold()]
    files = files[: args.limit] if args.limit else files
    server = None
    if args.model:
        config = ModelConfig(model=args.model, api_base=args.api_base, api_key=args.api_key)
    else:
        from openai_server import OpenAIServer

        server = OpenAIServer(loopback_responder()).start()
        config = ModelConfig(model="openai/test", api_base=server.url, api_key="x")
    print(f"model {config.model} | tokens counted with {encoding_name()} | {len(files)} files")
    header = (f"{'file':44} {'pages':>5} {'nodes':>5} {'method':9} {'doc tok':>8} {'calls':>5} {'/100p':>6} "
              f"{'in tok':>8} {'ratio':>5} {'raw':>5} {'out tok':>7} {'again':>5} {'struct':>6} {'st tok':>7} "
              f"{'sec':>6}  notes")
    print(header)
    rows: list[Row] = []
    try:
        for path in files:
            try:
                row = measure(path, config, show=args.show, structure_all=args.structure)
            except Exception as exc:  # keep measuring the rest; say which file and why
                print(f"{path.name[:44]:44} failed: {type(exc).__name__}: {exc}")
                continue
            rows.append(row)
            print(f"{row.name[:44]:44} {row.pages:5d} {row.nodes:5d} {row.method[:9]:9} {row.doc_tokens:8d} "
                  f"{row.calls:5d} {row.per_100_pages:6.1f} {row.prompt_tokens:8d} {row.ratio:5.2f} "
                  f"{row.raw_ratio:5.2f} {row.completion_tokens:7d} {row.rebuild_calls:5d} {row.structure_calls:6d} "
                  f"{row.structure_tokens:7d} {row.seconds:6.1f}  "
                  f"{f'<floor {row.floor} ' if row.doc_tokens < row.floor else ''}{row.failures or ''}", flush=True)
    finally:
        if server is not None:
            server.close()
    if rows:
        doc = sum(r.doc_tokens for r in rows)
        prompt = sum(r.prompt_tokens for r in rows)
        pages = sum(r.pages for r in rows)
        calls = sum(r.calls for r in rows)
        print(f"\ntotal: {len(rows)} documents, {pages} pages, {calls} requests "
              f"({100 * calls / pages:.1f} per 100 pages), "
              f"input {prompt} / document {doc} tokens = {prompt / doc:.2f} (target <= {ECONOMY_TARGET:.2f}; max per "
              f"document {max(r.ratio for r in rows):.2f}, {sum(r.ratio > ECONOMY_TARGET for r in rows)} over; "
              f"{sum(r.doc_tokens < r.floor for r in rows)} under the floor), "
              f"rebuild requests {sum(r.rebuild_calls for r in rows)}, "
              f"structure requests {sum(r.structure_calls for r in rows)} "
              f"({sum(r.structure_tokens for r in rows)} input tokens)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
