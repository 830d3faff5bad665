"""End to end with a model: `treebuild ingest --model openai/... --api-base` against a real
OpenAI-compatible server on 127.0.0.1; usage lands on the stored tree, and summaries are
reused from earlier versions in the store."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from openai_server import OpenAIServer, echo_summaries
from typer.testing import CliRunner

from treebuild.cli import app
from treebuild.store import Store

runner = CliRunner()
WORDS = "revenue margin liquidity covenant segment goodwill impairment lease pension hedge tax backlog".split()


def long_text(seed: int, words: int) -> str:
    rng = random.Random(seed)
    sentences = []
    for _ in range(words // 12):
        sentences.append(" ".join(rng.choice(WORDS) for _ in range(12)).capitalize() + ".")
    return " ".join(sentences)


def write_doc(path: Path, edited: bool = False) -> Path:
    parts = []
    for i in range(4):
        parts.append(f"# Part {i + 1}\n\n{long_text(i, 60)}\n")
        for j in range(2):
            body = long_text(100 + i * 10 + j, 1700)
            if edited and (i, j) == (2, 1):
                body = "This paragraph was rewritten for the amended filing. " + body
            parts.append(f"## Section {i + 1}.{j + 1}\n\n{body}\n")
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _fresh(server: OpenAIServer) -> None:
    server.reset()
    server.responder = lambda request: echo_summaries(request, words=30)


def ingest(server: OpenAIServer, doc: Path, store: Path, *extra: str) -> None:
    res = runner.invoke(app, ["ingest", str(doc), "--store", str(store), "--model", "openai/test",
                              "--api-base", server.url, "--api-key", "x", *extra])
    assert res.exit_code == 0, res.output


def tree_row(store: Path, version: int) -> dict:  # type: ignore[type-arg]
    rows = Store(store).sql("SELECT * FROM trees WHERE version = ?", [version]).to_pylist()
    return rows[0]


def test_model_summaries_usage_and_reuse_through_the_store(server: OpenAIServer, tmp_path: Path) -> None:
    doc, store = write_doc(tmp_path / "filing.md"), tmp_path / "store"
    server.reset()
    ingest(server, doc, store)
    first = tree_row(store, 1)
    assert first["model"] == "openai/test"
    assert first["calls"] == len(server.chat_requests) > 0
    assert first["prompt_tokens"] > 0 and first["completion_tokens"] > 0
    tree = Store(store).tree("filing")
    assert all(n.summary for n in tree.walk())
    assert {n.summary_origin for n in tree.walk()} <= {"openai/test", "text"}
    assert tree.description

    server.reset()
    ingest(server, doc, store)  # unchanged: no build at all
    assert server.chat_requests == [] and [v.version for v in Store(store).versions("filing")] == [1]

    server.reset()
    ingest(server, doc, store, "--force")  # rebuilt, but every summary comes from version 1
    forced = tree_row(store, 2)
    assert server.chat_requests == [] and forced["calls"] == 0
    assert forced["reused_summaries"] > 0

    server.reset()
    ingest(server, write_doc(doc, edited=True), store)  # one section edited
    edited = tree_row(store, 3)
    assert 0 < edited["calls"] < first["calls"]
    changed = Store(store).tree("filing", 3)
    old = {n.title: n.summary_key for n in Store(store).tree("filing", 1).walk()}
    rekeyed = {n.title for n in changed.walk() if old.get(n.title) != n.summary_key}
    assert rekeyed == {"Section 3.2", "Part 3"}  # the edited section and its ancestor only


def test_budget_stops_spending_and_keeps_the_tree(server: OpenAIServer, tmp_path: Path) -> None:
    doc, store = write_doc(tmp_path / "budget.md"), tmp_path / "store"
    server.reset()
    ingest(server, doc, store, "--max-calls", "1")
    row = tree_row(store, 1)
    assert row["calls"] == len(server.chat_requests) == 1
    assert dict(row["failures"]).get("budget")
    tree = Store(store).tree("budget")
    assert all(n.summary for n in tree.walk())  # the rest kept extractive summaries
    assert any(n.summary_origin == "extractive" for n in tree.walk())
    assert any("max_calls" in w for w in row["warnings"])


def test_python_api_takes_the_model_from_either_side(server: OpenAIServer, tmp_path: Path) -> None:
    import treebuild
    from treebuild.errors import TreebuildError

    doc = tmp_path / "api.md"
    doc.write_text("# One\n\n" + long_text(7, 300) + "\n\n# Two\n\n" + long_text(8, 300) + "\n")
    config = treebuild.ModelConfig(model="openai/test", api_base=server.url, api_key="x")
    res = treebuild.ingest(doc, tmp_path / "s", model_config=config)  # no BuildSettings: the model comes along
    tree = Store(tmp_path / "s").tree(res.doc_id)
    assert tree.model == "openai/test" and tree.settings["model"] == "openai/test"
    assert tree.usage.calls == len(server.chat_requests) > 0
    with pytest.raises(TreebuildError, match="pass the same model to both"):
        treebuild.build(doc, treebuild.BuildSettings(model="openai/other"), model_config=config)
