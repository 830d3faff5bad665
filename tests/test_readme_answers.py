"""The README's "Ask" and "Evaluate retrieval" examples run as written, in a folder holding the ``treestore`` they
name (generated annual reports) and, beside it, the ``../shared/corpus`` folders the eval example names (the same
PDFs and a questions file). The model examples talk to the loopback OpenAI-compatible server: the environment's
``TREEBUILD_API_BASE`` points there, and an example's own ``--api-base`` is the one thing replaced (its address)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from openai_server import OpenAIServer, Reply, Request
from readme import RATES, annual_report, commands, python_blocks, run_python

from treebuild import Store, ingest
from treebuild.answer.prompts import ANSWER_SYSTEM
from treebuild.query.prompts import DATA_BEGIN, DATA_END

ASK = "## Ask: answers whose citations are checked"
EVAL = "## Evaluate retrieval on your questions"
EXAMPLE_API_BASE = "http://127.0.0.1:8000/v1"

QUESTIONS = [
    {"id": "tax", "question": "What was the effective tax rate in fiscal 2022?", "doc_name": "ACME_2022_10K",
     "evidence": [{"doc_name": "ACME_2022_10K", "evidence_page": 3}]},
    {"id": "revenue", "question": "What was total revenue?", "docs": ["ACME_2021_10K"], "answers": ["17,606"]},
    {"id": "litigation", "question": "Is any litigation pending?", "evidence_pages": [5],
     "doc_id": "ACME_2021_10K"},
]

RATE_SENTENCE = re.compile(r"The effective tax rate was [\d.]+ percent in fiscal \d{4}\.")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``work/`` (the folder the examples run in: ``treestore``, ``questions.jsonl``) beside ``shared/corpus/``
    (``pdf/ACME_*.pdf`` and ``financebench/questions.jsonl``); the store holds each PDF under its file name."""
    root = tmp_path_factory.mktemp("readme")
    work, corpus = root / "work", root / "shared" / "corpus"
    store = Store(work / "treestore")
    for year in RATES:
        pdf = annual_report(corpus / "pdf" / f"ACME_{year}_10K.pdf", year)
        assert ingest(pdf, store, doc_id=pdf.stem, meta={"fy": str(year)}).status == "created"
    lines = "".join(json.dumps(q) + "\n" for q in QUESTIONS)
    (work / "questions.jsonl").write_text(lines)
    (corpus / "financebench").mkdir()
    (corpus / "financebench" / "questions.jsonl").write_text(lines)
    return work


def data_records(request: Request) -> list[dict[str, Any]]:
    body = request.user.split(DATA_BEGIN + "\n", 1)[1].rsplit("\n" + DATA_END, 1)[0]
    return [json.loads(line) for line in body.splitlines()]


def reader(request: Request) -> Reply:
    """A model that reads the Income Taxes section and answers with its sentence, citing the passage that
    prints it (found: false when no passage does)."""
    records = data_records(request)
    if request.messages[0]["content"] == ANSWER_SYSTEM:
        claims = [{"text": m.group(), "citations": [r["id"]]} for r in records
                  if (m := RATE_SENTENCE.search(r["text"]))]
        return Reply(content=json.dumps({"found": bool(claims), "claims": claims}))
    keys = set((request.json_schema or {}).get("properties", {}))
    if "documents" in keys:
        return Reply(content=json.dumps({"documents": [r["id"] for r in records], "reasoning": "all"}))
    ids = [r["id"] for r in records if "Income Taxes" in json.dumps(r)]
    reply: dict[str, Any] = {"read": ids, "reasoning": "the tax note"}
    if "expand" in keys:
        reply |= {"expand": [], "stop": True}
    return Reply(content=json.dumps(reply))


@pytest.fixture
def model(server: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> OpenAIServer:
    server.reset()
    server.responder = reader
    monkeypatch.setenv("TREEBUILD_API_BASE", server.url)
    monkeypatch.setenv("TREEBUILD_API_KEY", "x")
    return server


def run_cli(args: list[str], folder: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from typer.testing import CliRunner

    from treebuild.cli import app

    monkeypatch.chdir(folder)
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, (args, out.stdout, out.stderr)
    assert "Traceback" not in out.output
    return out


def test_ask_commands(workdir: Path, model: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    extractive, with_model, local = commands(ASK)
    assert EXAMPLE_API_BASE in local

    out = run_cli(extractive, workdir, monkeypatch)
    assert out.stdout.startswith("Extractive answer (not a language model")
    assert "The effective tax rate was 21.5 percent in fiscal 2022. [P1]" in out.stdout
    assert not model.chat_requests  # offline

    out = run_cli(with_model, workdir, monkeypatch)
    answer = json.loads(out.stdout)
    assert answer["status"] == "answered" and answer["navigation"]["navigator"] == "litellm"
    cited = {c["citations"][0] for c in answer["claims"]}
    assert {c["text"] for c in answer["claims"]} == {f"The effective tax rate was {r} percent in fiscal {y}."
                                                     for y, r in RATES.items()}  # both years: no --doc
    assert all(c["verified"] for c in answer["claims"]) and cited <= {p["id"] for p in answer["passages"]}
    navigation_calls = len(model.chat_requests) - 1
    assert navigation_calls >= 2 and answer["audit"]["usage"]["calls"] == 1

    model.reset()
    model.responder = reader
    local = [model.url if arg == EXAMPLE_API_BASE else arg for arg in local]
    out = run_cli(local, workdir, monkeypatch)
    assert "The effective tax rate was 18.0 percent in fiscal 2021. [P1]" in out.stdout  # the filter: fy 2021
    assert len(model.chat_requests) == 1  # only the answer is the model's (--navigator lexical)
    assert model.chat_requests[0].body["model"] == "qwen2.5"


def test_ask_python_example(workdir: Path, model: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    (code,) = python_blocks(ASK)
    lines = run_python(code, workdir, monkeypatch)
    assert lines[0] == "answered The effective tax rate was 21.5 percent in fiscal 2022. [P1]"
    assert lines[1] == "1 The effective tax rate was 21.5 percent in fiscal 2022. ('P1',) True []"
    assert lines[2].startswith("P1 {") and "'doc_id': 'ACME_2022_10K'" in lines[2] and "'F-3'" in lines[2]
    assert all(line.startswith("P") for line in lines[2:])
    assert all(r.body["model"] == "gpt-4o-mini" for r in model.chat_requests)


def test_eval_commands(workdir: Path, model: OpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    with_html, corpus, with_model = commands(EVAL)

    out = run_cli(with_html, workdir, monkeypatch)
    assert "all      nav 3/3" in out.stdout
    report = (workdir / "report.html").read_text()
    assert report.startswith("<!DOCTYPE html>") and "<svg" in report and "litigation" in report

    out = run_cli(corpus, workdir, monkeypatch)
    data = json.loads(out.stdout)
    assert [r["id"] for r in data["rows"]] == ["tax", "revenue", "litigation"]
    assert data["totals"]["all"]["bm25"]["hits"] == 3
    assert "store: ACME_2022_10K v1 unchanged" in out.stderr  # built from ../shared/corpus/pdf: the same files
    assert not model.chat_requests

    out = run_cli(with_model, workdir, monkeypatch)
    assert out.stdout.startswith("navigator=litellm (a language model) max_pages=10; questions.jsonl")
    assert "all      nav 1/3" in out.stdout  # the model reads Income Taxes only: the tax question's page
    assert len(model.chat_requests) == 6  # the navigator and the hybrid: one call each a question (one document)
