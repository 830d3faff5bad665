"""HTML and plain-text documents through every interface: ingest, show, text, query, view, export and the
MCP tools (in process); ``tests/test_flows.py`` backfills them. Citations carry the printed page labels the
HTML reader took from the pages' folios."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_reader_html import ITEMS, _filing_html
from typer.testing import CliRunner

from treebuild.agents import StoreTools
from treebuild.cli import app
from treebuild.store import Store

runner = CliRunner()
HANDBOOK = ("WIDGET HANDBOOK\n\n1. Scope\n\nThis handbook covers widgets and gadgets.\n\n2. Safety\n\n"
            "Wear gloves when you open the casing.\n\f3. Care\n\nClean them with a dry cloth.\n\n   2\n")


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("htmltext")
    (base / "widget-10q.html").write_text(_filing_html(ITEMS), encoding="utf-8")
    (base / "handbook.txt").write_text(HANDBOOK, encoding="utf-8")
    store = base / "store"
    res = runner.invoke(app, ["ingest", str(base), "--store", str(store)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "2 documents: 2 created, 0 warnings"
    return base, store


def test_show_text_and_query(stored: tuple[Path, Path]) -> None:
    _base, store = stored
    res = runner.invoke(app, ["show", "widget-10q", "--store", str(store)])
    assert res.exit_code == 0 and "Item 2. Management's Discussion and Analysis" in res.output
    tree = Store(store).tree("widget-10q")
    assert tree.doc.format == "html" and tree.doc.page_count == 7
    assert [u.label for u in tree.doc.units][2:] == ["1", "2", "3", "4", "5"]  # stored with the pages
    item = tree.find("Controls and Procedures")[0]
    res = runner.invoke(app, ["text", "widget-10q", item.node_id, "--store", str(store)])
    assert res.exit_code == 0 and res.output.startswith("Item 4. Controls and Procedures")
    res = runner.invoke(app, ["query", "How are the widgets cleaned?", "--store", str(store)])
    assert res.exit_code == 0 and "handbook" in res.output and "3. Care" in res.output
    res = runner.invoke(app, ["query", "controls and procedures", "--doc", "widget-10q", "--store", str(store)])
    assert res.exit_code == 0 and "Controls and Procedures" in res.output and "(printed 3)" in res.output


def test_mcp_tools_cite_printed_pages(stored: tuple[Path, Path]) -> None:
    _base, store = stored
    tools = StoreTools(Store(store))
    docs = tools.list_documents()["documents"]
    assert {d["doc_id"]: d["format"] for d in docs} == {"handbook": "text", "widget-10q": "html"}
    structure = tools.get_structure("widget-10q", depth=2)
    titles = [n["title"] for n in structure["nodes"]]
    assert any(t.startswith("Item 1A.") for t in titles)
    tree = Store(store).tree("widget-10q")
    risk = next(n for n in tree.walk() if n.title.startswith("Item 1A."))
    section = tools.get_section("widget-10q", risk.node_id)
    assert section["text"].startswith("Item 1A. Risk Factors")
    pages = tools.get_pages("widget-10q", "6")  # physical page 6 prints "4"
    assert "Item 1A. Risk Factors" in json.dumps(pages)
    answer = tools.navigate("What are the risk factors?", doc_ids=["widget-10q"])
    assert "Risk Factors" in json.dumps(answer)


def test_view_and_export(stored: tuple[Path, Path], tmp_path: Path) -> None:
    _base, store = stored
    out = tmp_path / "view.html"
    res = runner.invoke(app, ["view", "widget-10q", "--store", str(store), "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    assert "Controls and Procedures" in page and "page thumbnails are shown for PDFs only (this is html)" in page
    exported = tmp_path / "x.json"
    res = runner.invoke(app, ["export", "handbook", "--store", str(store), "-o", str(exported)])
    assert res.exit_code == 0, res.output
    data = json.loads(exported.read_text())
    assert [(n["title"], n["start_index"], n["end_index"]) for n in data["structure"]] == [
        ("WIDGET HANDBOOK", 1, 1), ("1. Scope", 1, 1), ("2. Safety", 1, 1), ("3. Care", 2, 2)]  # form feeds: pages
