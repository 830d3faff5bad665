"""The MCP server as a subprocess, driven by the official SDK client over stdio and streamable HTTP."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from docgen import Section, layout_sections
from mcp import Client, StdioServerParameters

from treebuild import ingest
from treebuild.agents.tools import StoreTools, ToolFailure, ToolLimits, parse_pages
from treebuild.store import Store

MANY = 230  # sections in the big report: more than one get_structure page (200 nodes)
LIMITS = ToolLimits()
TOOLS = {"list_documents", "get_structure", "get_section", "get_pages", "navigate", "ask"}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    base = tmp_path_factory.mktemp("mcp")
    st = Store(base / "store")
    report = base / "acme-report.pdf"
    layout_sections(report, [Section(1, "Summary", body=10)] +
                    [Section(2 if i % 5 else 1, f"Topic {i} Findings", body=3) for i in range(MANY)] +
                    [Section(1, "Long Appendix", body=900)])
    notes = base / "acme-notes.md"
    notes.write_text("# Meeting\n\nWe agreed on the plan.\n\n## Actions\n\nShip the widget by Friday.\n")
    plan = base / "globex-plan.pdf"
    layout_sections(plan, [Section(1, "Secret Strategy", body=12), Section(1, "Budget", body=8)])
    for path, tenant in ((report, "acme"), (notes, "acme"), (plan, "globex")):
        assert ingest(path, st, meta={"tenant": tenant}).status == "created"
    return st


def _env() -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join(sys.path), "TREEBUILD_STORE": "", "PYTHONUNBUFFERED": "1"}


def _server_args(store: Store, *extra: str) -> list[str]:
    return ["-m", "treebuild", "mcp", "--store", str(store.root), *extra]


async def _call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any], str]:
    result = await client.call_tool(tool, args)
    text = result.content[0].text  # type: ignore[union-attr]
    assert "Traceback" not in text
    assert len(text) <= LIMITS.response_chars
    assert json.loads(text) == result.structured_content  # the same answer as text and as structured content
    return result.is_error, result.structured_content, text


async def _exercise_acme(client: Client, store: Store) -> None:
    """Everything a tenant 'acme' client can and cannot do."""
    listed = await client.list_tools()
    tools = {t.name: t for t in listed.tools}
    assert set(tools) == TOOLS
    for t in tools.values():
        assert t.description and len(t.description) > 60
        assert t.input_schema["type"] == "object" and t.input_schema["properties"]
        assert t.annotations is not None and t.annotations.read_only_hint is True
    assert tools["get_section"].input_schema["required"] == ["doc_id", "node_id"]

    # list_documents: only this tenant's documents; query and filter narrow further
    err, docs, _ = await _call(client, "list_documents", {})
    assert not err and [d["doc_id"] for d in docs["documents"]] == ["acme-notes", "acme-report"]
    report = docs["documents"][1]
    assert report["pages"] == store.tree("acme-report").doc.page_count and report["meta"] == {"tenant": "acme"}
    assert report["version"] == 1 and report["description"] and report["format"] == "pdf"
    err, docs, _ = await _call(client, "list_documents", {"query": "notes"})
    assert [d["doc_id"] for d in docs["documents"]] == ["acme-notes"]
    err, docs, _ = await _call(client, "list_documents", {"filter": {"format": "pdf"}})
    assert [d["doc_id"] for d in docs["documents"]] == ["acme-report"]
    err, docs, _ = await _call(client, "list_documents", {"limit": 1})
    assert docs["truncated"] and docs["total"] == 2 and "offset=1" in docs["next"]
    err, docs, _ = await _call(client, "list_documents", {"filter": {"tenant": "globex"}})
    assert docs["documents"] == [] and docs["total"] == 0  # a tool filter cannot widen the server's scope

    # get_structure: outline pages of at most 200 nodes, with the call for the rest
    tree = store.tree("acme-report")
    everything = list(tree.walk())
    err, page1, _ = await _call(client, "get_structure", {"doc_id": "acme-report", "depth": 5})
    assert not err and page1["total"] == len(everything) > LIMITS.structure_nodes
    assert page1["truncated"] and len(page1["nodes"]) == LIMITS.structure_nodes
    assert page1["next"] == f"get_structure(doc_id='acme-report', depth=5, offset={LIMITS.structure_nodes})"
    err, page2, _ = await _call(client, "get_structure", {"doc_id": "acme-report", "depth": 5,
                                                          "offset": LIMITS.structure_nodes})
    assert [n["node_id"] for n in page1["nodes"] + page2["nodes"]] == [n.node_id for n in everything]
    assert "truncated" not in page2
    first = everything[1]
    assert page1["nodes"][1] == {"node_id": first.node_id, "title": first.title, "depth": first.depth,
                                 "pages": str(first.start_page) if first.start_page == first.end_page
                                 else f"{first.start_page}-{first.end_page}", "summary": first.summary,
                                 "children": len(first.children)}
    err, top, _ = await _call(client, "get_structure", {"doc_id": "acme-report", "depth": 1})
    assert [n["title"] for n in top["nodes"]] == [n.title for n in tree.roots]
    parent = next(n for n in tree.roots if n.children)
    assert next(n for n in top["nodes"] if n["node_id"] == parent.node_id)["more_below"] is True
    err, sub, _ = await _call(client, "get_structure", {"doc_id": "acme-report", "node_id": parent.node_id})
    assert [n["node_id"] for n in sub["nodes"]] == [c.node_id for c in parent.children]
    assert sub["node"]["title"] == parent.title

    # get_section: exact text with a citation, long sections in parts that join up exactly
    appendix = tree.find("Long Appendix")[0]
    full = appendix.text()
    assert len(full) > LIMITS.text_chars
    err, part, _ = await _call(client, "get_section", {"doc_id": "acme-report", "node_id": appendix.node_id})
    assert not err and part["text"] == full[:LIMITS.text_chars] and part["truncated"]
    cite = part["citation"]
    assert (cite["doc_id"], cite["version"], cite["node_id"], cite["title"]) == \
        ("acme-report", 1, appendix.node_id, "Long Appendix")
    assert cite["pages"] == f"{appendix.start_page}-{appendix.end_page}" and cite["source"] == "acme-report.pdf"
    text, offset = part["text"], part["returned_chars"]
    while True:
        err, part, _ = await _call(client, "get_section", {"doc_id": "acme-report", "node_id": appendix.node_id,
                                                           "max_chars": LIMITS.max_text_chars, "offset": offset})
        text += part["text"]
        offset += part["returned_chars"]
        if not part.get("truncated"):
            break
    assert text == full

    # get_pages: exact page text, with the sections on those pages
    err, pages, _ = await _call(client, "get_pages", {"doc_id": "acme-report", "pages": "2-3", "max_chars": 30000})
    units = {u.page: u.text for u in tree.doc.units}
    assert not err and [(p["page"], p["text"]) for p in pages["pages"]] == [(2, units[2]), (3, units[3])]
    assert pages["citation"]["pages"] == "2-3" and pages["sections"]
    err, pages, _ = await _call(client, "get_pages", {"doc_id": "acme-report", "pages": "2-3", "max_chars": 100})
    assert pages["truncated"] and pages["pages"][0]["text"] == units[2][:100] and "pages='2-3'" in pages["next"]
    err, body, _ = await _call(client, "get_pages", {"doc_id": "acme-notes", "pages": "1"})
    assert err and body["error"]["code"] == "not_paged" and "get_section" in body["error"]["hint"]
    err, body, _ = await _call(client, "get_section", {"doc_id": "acme-notes", "node_id": "0001"})
    assert not err and body["text"].startswith("Actions") and "Friday" in body["text"]

    # the other tenant's document is reported exactly like a missing one
    for doc_id in ("globex-plan", "no-such-doc"):
        for tool, args in (("get_structure", {}), ("get_section", {"node_id": "0000"}), ("get_pages", {"pages": "1"})):
            err, body, _ = await _call(client, tool, {"doc_id": doc_id, **args})
            assert err and body["error"] == {"code": "not_found", "message": f"no document {doc_id!r}",
                                             "hint": "call list_documents to see the doc_ids you can read"}

    # bad arguments: structured errors that say what to do
    bad = [
        ("get_section", {"doc_id": "acme-report", "node_id": 7}, "bad_argument"),
        ("get_section", {"doc_id": "acme-report"}, "bad_argument"),
        ("get_section", {"doc_id": "acme-report", "node_id": "9999"}, "not_found"),
        ("get_section", {"doc_id": "acme-report", "node_id": "0001", "max_chars": 10 ** 6}, "bad_argument"),
        ("get_structure", {"doc_id": "acme-report", "depth": 0}, "bad_argument"),
        ("get_pages", {"doc_id": "acme-report", "pages": "two"}, "bad_argument"),
        ("get_pages", {"doc_id": "acme-report", "pages": "1-50"}, "too_large"),
        ("get_pages", {"doc_id": "acme-report", "pages": "9999"}, "bad_argument"),
        ("list_documents", {"limit": 5000}, "bad_argument"),
        ("delete_everything", {}, "unknown_tool"),
    ]
    for tool, args, code in bad:
        err, body, _ = await _call(client, tool, args)
        assert err and body["error"]["code"] == code and body["error"]["message"] and body["error"]["hint"], body

    await _exercise_navigate(client, store)
    await _exercise_ask(client, store)


async def _exercise_ask(client: Client, store: Store) -> None:
    """ask: navigation within the tenant's scope, then the offline extractive answer with checked citations."""
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert "not a language model" in (tools["ask"].description or "")
    assert tools["ask"].input_schema["required"] == ["question"]
    err, found, _ = await _call(client, "ask", {"question": "What did we agree on the plan?"})
    assert not err, found
    answer = found["answer"]
    assert answer["status"] == "answered" and answer["answerer"] == "extractive"
    assert answer["is_language_model"] is False and answer["usage"]["calls"] == 0
    ids = {p["id"]: p for p in found["passages"]}
    assert answer["claims"] and all(c["verified"] and set(c["citations"]) <= set(ids) for c in answer["claims"])
    first = answer["claims"][0]
    assert first["text"] == "We agreed on the plan." and ids[first["citations"][0]]["citation"]["doc_id"] == \
        "acme-notes"
    assert all(p["citation"]["doc_id"].startswith("acme-") for p in found["passages"])  # the scope holds
    err, found, _ = await _call(client, "ask", {"question": "What is the budget?", "doc_ids": ["globex-plan"]})
    assert not err and found["answer"]["status"] == "not_found" and found["passages"] == []
    err, body, _ = await _call(client, "ask", {"question": ""})
    assert err and body["error"]["code"] == "bad_argument"


async def _exercise_navigate(client: Client, store: Store) -> None:
    """navigate: the query module's navigation inside the tenant's scope, with its audit."""
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert "not a language model" in (tools["navigate"].description or "")
    assert tools["navigate"].input_schema["required"] == ["question"]
    err, found, _ = await _call(client, "navigate", {"question": "What are the findings on topic 117?",
                                                     "doc_ids": ["acme-report"]})
    assert not err and found["passages"]
    first = found["passages"][0]
    cite = first["citation"]
    assert cite["doc_id"] == "acme-report" and cite["title"] == "Topic 117 Findings"
    node = store.tree("acme-report").node(cite["node_id"])
    assert first["text"] == node.text() and cite["path"][-1] == node.title
    assert cite["pages"] == (str(node.start_page) if node.start_page == node.end_page
                             else f"{node.start_page}-{node.end_page}")
    audit = found["audit"]
    assert audit["navigator"] == "lexical" and audit["is_language_model"] is False
    doc = audit["documents"][0]
    assert doc["doc_id"] == "acme-report" and doc["steps"] and doc["stops"] and cite["node_id"] in doc["chosen"]
    assert all(step["reasoning"] for step in doc["steps"])
    # the tenant's scope holds for navigation: the other tenant's document is never navigated
    err, found, _ = await _call(client, "navigate", {"question": "What is the secret strategy and budget?"})
    assert not err and all(p["citation"]["doc_id"].startswith("acme-") for p in found["passages"])
    assert {d["doc_id"] for d in found["audit"]["documents"]} <= {"acme-report", "acme-notes"}
    named = {}
    for doc_id in ("globex-plan", "no-such-doc"):
        err, found, _ = await _call(client, "navigate", {"question": "What is the budget?", "doc_ids": [doc_id]})
        assert not err and found["passages"] == [] and "hint" in found
        named[doc_id] = found["audit"]["documents"][0]["error"]
    assert named["globex-plan"] == named["no-such-doc"]  # indistinguishable from a missing document
    err, found, _ = await _call(client, "navigate", {"question": "What is the budget?",
                                                     "filter": {"tenant": "globex"}})
    assert not err and found["passages"] == [] and found["audit"]["documents"] == []  # a filter cannot widen
    err, found, _ = await _call(client, "navigate", {"question": "What did we agree on and when do we ship?",
                                                     "filter": {"format": "markdown"}})
    assert not err and {p["citation"]["doc_id"] for p in found["passages"]} == {"acme-notes"}
    # budgets: pages of text returned
    err, found, _ = await _call(client, "navigate", {"question": "Which topics have findings?",
                                                     "doc_ids": ["acme-report"], "budget": {"max_pages": 1}})
    pages = [p["citation"]["pages"] for p in found["passages"]]
    assert not err and pages and sum(1 + int(p.split("-")[-1]) - int(p.split("-")[0]) for p in pages) <= 1
    for args in ({"question": ""}, {"question": "x", "budget": {"max_pages": 0}},
                 {"question": "x", "budget": {"bogus": 1}}, {"question": "x", "filter": {"meta": "fy"}}):
        err, body, _ = await _call(client, "navigate", args)
        assert err and body["error"]["code"] == "bad_argument", (args, body)


def test_stdio_server_with_a_tenant_filter(store: Store) -> None:
    params = StdioServerParameters(command=sys.executable, args=_server_args(store, "--filter", "tenant=acme"),
                                   env=_env())

    async def main() -> None:
        async with Client(params) as client:
            await _exercise_acme(client, store)

    anyio.run(main)


LISTENING = re.compile(r"treebuild MCP server on (http://\S+/mcp)")


def _bound_url(proc: subprocess.Popen[bytes], log: Path) -> str:
    """The URL the server prints once its socket is bound (it was started with --port 0: no port is picked
    here and released for the server to take, which another process could take first)."""
    deadline = time.monotonic() + 60
    while not (found := LISTENING.search(log.read_text())):
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "server did not start: " + log.read_text()
        time.sleep(0.1)
    return found.group(1)


def test_http_server_on_loopback(store: Store, tmp_path: Path) -> None:
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, *_server_args(store, "--transport", "http", "--port", "0",
                                                           "--filter", "tenant=globex")],
                            env={**os.environ, **_env()}, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = _bound_url(proc, tmp_path / "server.log")
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", url) and not url.endswith(":0/mcp")

        async def main() -> None:
            async with Client(url) as client:
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
                err, docs, _ = await _call(client, "list_documents", {})
                assert [d["doc_id"] for d in docs["documents"]] == ["globex-plan"]
                err, outline, _ = await _call(client, "get_structure", {"doc_id": "globex-plan"})
                assert [n["title"] for n in outline["nodes"]] == ["Secret Strategy", "Budget"]
                node = outline["nodes"][1]["node_id"]
                err, section, _ = await _call(client, "get_section", {"doc_id": "globex-plan", "node_id": node})
                assert section["text"] == store.tree("globex-plan").node(node).text()
                err, pages, _ = await _call(client, "get_pages", {"doc_id": "globex-plan", "pages": "1"})
                assert not err and pages["pages"][0]["page"] == 1
                err, body, _ = await _call(client, "get_structure", {"doc_id": "acme-report"})
                assert err and body["error"]["code"] == "not_found"
                err, found, _ = await _call(client, "navigate", {"question": "What is the budget?"})
                assert not err and found["passages"][0]["citation"]["doc_id"] == "globex-plan"
                assert found["passages"][0]["citation"]["title"] == "Budget"

        anyio.run(main)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def test_navigation_never_reads_a_tree_outside_the_scope(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tree the navigation loads passes the server's scope, even when the question names the
    other tenant's sections and the caller asks for its documents."""
    read: list[str] = []
    original = Store.tree

    def spy(self: Store, doc_id: str, version: int | None = None) -> Any:
        read.append(doc_id)
        return original(self, doc_id, version)

    monkeypatch.setattr(Store, "tree", spy)
    tools = StoreTools(store, {"tenant": "acme"})
    tools.navigate("What is the secret strategy and the budget?")
    tools.navigate("What is the budget?", doc_ids=["globex-plan", "acme-report"])
    tools.navigate("What is the budget?", filter={"tenant": ["globex", "acme"]})
    assert read and set(read) <= {"acme-report", "acme-notes"}


def test_mcp_command_refuses_a_bad_filter_and_store(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from treebuild.cli import app

    res = CliRunner().invoke(app, ["mcp", "--store", str(tmp_path / "none")])
    assert res.exit_code == 1 and "store folder does not exist" in res.output
    Store(tmp_path / "s")
    res = CliRunner().invoke(app, ["mcp", "--store", str(tmp_path / "s"), "--filter", "tenant"])
    assert res.exit_code == 2 and "--filter expects key=value" in res.output
    res = CliRunner().invoke(app, ["mcp", "--store", str(tmp_path / "s"), "--navigator", "nonesuch"])
    assert res.exit_code == 1 and "nonesuch" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("spec, count, expected", [
    ("5", 10, [5]), ("5-7", 10, [5, 6, 7]), ("1, 3,8-9", 10, [1, 3, 8, 9]), (" 2 - 2 ", 3, [2]),
])
def test_parse_pages(spec: str, count: int, expected: list[int]) -> None:
    assert parse_pages(spec, count, 20) == expected


@pytest.mark.parametrize("spec, code", [("0", "bad_argument"), ("7-5", "bad_argument"), ("x", "bad_argument"),
                                        ("11", "bad_argument"), ("1-10", "too_large")])
def test_parse_pages_refuses(spec: str, code: str) -> None:
    with pytest.raises(ToolFailure) as info:
        parse_pages(spec, 10, 5)
    assert info.value.code == code and info.value.hint


def test_navigate_answers_fit_the_cap_and_say_how_to_read_on(store: Store) -> None:
    tools = StoreTools(store, {"tenant": "acme"}, ToolLimits(response_chars=4_000))
    out = tools.navigate("What is in the long appendix?", doc_ids=["acme-report"])
    assert len(json.dumps(out, ensure_ascii=False)) <= 4_000
    cut = [p for p in out["passages"] if p.get("truncated")]
    assert cut
    for p in cut:
        c = p["citation"]
        full = store.tree("acme-report").node(c["node_id"]).text()
        assert full.startswith(p["text"]) and len(p["text"]) < len(full)
        assert p["next"] == f"get_section(doc_id='acme-report', node_id='{c['node_id']}', offset={len(p['text'])})"
        rest = tools.get_section("acme-report", c["node_id"], offset=len(p["text"]), max_chars=10 ** 6)
        assert p["text"] + rest["text"] == full[: len(p["text"]) + rest["returned_chars"]]


def test_tools_read_through_the_guarded_sql_and_take_sql_as_data(store: Store,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The MCP server's tools read the store only through its read-only SQL, and SQL written into their
    arguments is a value, never a statement: the store is unchanged after every tool has been given it."""
    modes: list[bool] = []
    original = Store.sql

    def spy(self: Store, query: str, params: list[Any] | None = None, *, read_only: bool = True) -> Any:
        modes.append(read_only)
        return original(self, query, params, read_only=read_only)

    def state() -> list[dict[str, Any]]:
        return original(store, "SELECT doc_id, version, node_count FROM trees ORDER BY ALL").to_pylist()

    before = state()
    monkeypatch.setattr(Store, "sql", spy)
    tools = StoreTools(store, {"tenant": "acme"})
    evil = "x'); DROP VIEW nodes; CALL ducklake_expire_snapshots('tb', versions => [1]); --"
    assert tools.list_documents(query=evil, filter={"tenant": evil})["documents"] == []
    for call in (lambda: tools.get_structure(evil), lambda: tools.get_section(evil, evil),
                 lambda: tools.get_pages(evil, "1"), lambda: tools.get_section("acme-notes", evil)):
        with pytest.raises(ToolFailure):
            call()
    tools.navigate(evil)
    assert modes and all(modes)
    assert state() == before and original(store, "SELECT count(*) AS n FROM latest_nodes").to_pylist()[0]["n"] > 0
