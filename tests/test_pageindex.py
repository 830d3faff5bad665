"""PageIndex interop: export a stored tree, import PageIndex JSON as a version, round trip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from docgen import Section, layout_sections
from typer.testing import CliRunner

from treebuild import ingest
from treebuild.cli import app
from treebuild.errors import TreebuildError
from treebuild.interop.pageindex import UNPLACED_CONFIDENCE, import_pageindex, load_pageindex
from treebuild.store import Store

runner = CliRunner()

SECTIONS = [
    Section(1, "Introduction", body=8),
    Section(2, "Purpose and Scope", body=20),
    Section(2, "Definitions", body=35),
    Section(1, "Requirements", body=5),
    Section(2, "Functional Requirements", body=44),
    Section(3, "Input Validation", body=12),
    Section(2, "Performance", body=9),
    Section(1, "Appendix", body=30),
]


def _shape(nodes: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Structure of a PageIndex tree: ids, titles, pages and nesting."""
    return [(n["node_id"], n["title"], n.get("start_index"), n.get("end_index"), _shape(n.get("nodes", [])))
            for n in nodes]


def _strip(nodes: list[dict[str, Any]], *keys: str) -> None:
    for n in nodes:
        for k in keys:
            n.pop(k, None)
        _strip(n.get("nodes", []), *keys)


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Store, Path, Path]:
    pdf = tmp_path / "spec.pdf"
    layout_sections(pdf, SECTIONS)
    store = Store(tmp_path / "store")
    assert ingest(pdf, store).status == "created"
    first = tmp_path / "first.json"
    res = runner.invoke(app, ["export", "spec", "--store", str(store.root), "-o", str(first)])
    assert res.exit_code == 0, res.output
    return store, pdf, first


def test_export_import_export_gives_the_same_structure(stored: tuple[Store, Path, Path], tmp_path: Path) -> None:
    store, pdf, first = stored
    res = runner.invoke(app, ["import-pageindex", str(first), "--source", str(pdf), "--store", str(store.root)])
    assert res.exit_code == 0, res.output
    assert "created" in res.stdout and "spec v2" in res.stdout
    second = tmp_path / "second.json"
    res = runner.invoke(app, ["export", "spec", "--version", "2", "--store", str(store.root), "-o", str(second)])
    assert res.exit_code == 0, res.output
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert _shape(b["structure"]) == _shape(a["structure"])
    assert b["method"] == "imported" and b["version"] == 2
    built, imported = store.tree("spec", 1), store.tree("spec", 2)
    assert [(n.start, n.end) for n in imported.walk()] == [(n.start, n.end) for n in built.walk()]
    assert {n.origin for n in imported.walk()} == {"imported"}
    assert [n.summary for n in imported.walk()] == [n.summary for n in built.walk()]
    # the same JSON over the same file again is not a new version
    res = runner.invoke(app, ["import-pageindex", str(first), "--source", str(pdf), "--store", str(store.root)])
    assert res.exit_code == 0 and "unchanged" in res.stdout and "v2" in res.stdout


def test_foreign_pageindex_tree_is_placed_by_title(stored: tuple[Store, Path, Path], tmp_path: Path) -> None:
    """A PageIndex tree has pages only: each title is found on its start page and the node starts there."""
    store, pdf, first = stored
    data = json.loads(first.read_text())
    for key in ("source", "doc_id", "version", "method", "model", "usage", "settings", "stats", "warnings", "meta"):
        data.pop(key)
    _strip(data["structure"], "span", "origin", "confidence", "summary")
    data["structure"][0]["summary"] = "Given by PageIndex."
    foreign = tmp_path / "pageindex.json"
    foreign.write_text(json.dumps(data))
    result = import_pageindex(foreign, pdf, store, doc_id="spec-pi", meta={"from": "pageindex"})
    assert (result.doc_id, result.version, result.created) == ("spec-pi", 1, True)
    built, imported = store.tree("spec", 1), store.tree("spec-pi")
    assert [(n.title, n.depth, n.start_page, n.end_page) for n in imported.walk()] == \
        [(n.title, n.depth, n.start_page, n.end_page) for n in built.walk()]
    # mid-page starts: the exact text of every section, not whole pages
    assert [n.text() for n in imported.walk()] == [n.text() for n in built.walk()]
    assert any(n.start.char > 0 for n in imported.walk())
    assert all(n.confidence == 1.0 for n in imported.walk())
    assert imported.roots[0].summary == "Given by PageIndex." and imported.roots[0].summary_origin == "imported"
    # the others get the offline summaries a build would give them
    assert [(n.summary, n.summary_origin) for n in list(imported.walk())[1:]] == \
        [(n.summary, n.summary_origin) for n in list(built.walk())[1:]]
    assert imported.meta == {"from": "pageindex"}
    rows = store.sql("SELECT origin, count(*) AS n FROM latest_nodes WHERE doc_id = 'spec-pi' GROUP BY origin")
    assert rows.to_pylist() == [{"origin": "imported", "n": len(SECTIONS)}]


def test_titles_not_on_their_page_start_at_the_page_top(stored: tuple[Store, Path, Path], tmp_path: Path) -> None:
    store, pdf, first = stored
    data = json.loads(first.read_text())
    data.pop("source")
    target = data["structure"][1]["nodes"][0]  # Functional Requirements, mid-page in the source
    target["title"] = "A title printed nowhere"
    foreign = tmp_path / "renamed.json"
    foreign.write_text(json.dumps(data))
    import_pageindex(foreign, pdf, store, doc_id="renamed")
    node = store.tree("renamed").find("printed nowhere")[0]
    # its parent starts mid-page on the same page: the node starts with it (never before it), not at the page top
    assert node.start == node.parent.start and node.start.char > 0 and node.start_page == target["start_index"]
    assert node.confidence == UNPLACED_CONFIDENCE
    assert any("1 of 8 imported titles were not found" in w for w in store.tree("renamed").warnings)
    # the command says so too, naming the source (it used to be visible only through SQL)
    res = runner.invoke(app, ["import-pageindex", str(foreign), "--source", str(pdf), "--doc-id", "renamed-cli",
                              "--store", str(store.root)])
    assert res.exit_code == 0, res.output
    assert f"warning {pdf}: 1 of 8 imported titles were not found on their start page" in " ".join(res.output.split())


def test_markdown_source_without_pages(tmp_path: Path) -> None:
    md = tmp_path / "notes.md"
    md.write_text("# Alpha\n\nfirst text\n\n## Alpha One\n\nmore text\n\n# Beta\n\nlast text\n")
    data = {"doc_name": "notes.md", "structure": [
        {"title": "Alpha", "node_id": "0000", "nodes": [{"title": "Alpha One", "node_id": "0001"}]},
        {"title": "Beta", "node_id": "0002"}]}
    tree_json = tmp_path / "notes.json"
    tree_json.write_text(json.dumps(data))
    store = Store(tmp_path / "store")
    import_pageindex(tree_json, md, store)
    tree = store.tree("notes")
    assert [(n.title, n.depth) for n in tree.walk()] == [("Alpha", 1), ("Alpha One", 2), ("Beta", 1)]
    assert tree.node("0001").text().startswith("Alpha One") and "more text" in tree.node("0001").text()
    assert "last text" in tree.node("0002").text() and "last text" not in tree.node("0000").text()


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ('{"doc_name": "x"}', "no 'structure' list"),
    ('{"structure": [{"title": "A", "start_index": "two"}]}', "start_index must be an integer"),
    ('{"structure": [{"name": "A"}]}', "structure[0] is not a node"),
])
def test_bad_pageindex_files_name_the_file_and_cause(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    with pytest.raises(TreebuildError) as info:
        load_pageindex(bad)
    assert message in str(info.value) and str(bad) in str(info.value)
    res = runner.invoke(app, ["import-pageindex", str(bad), "--source", str(bad), "--store", str(tmp_path / "s")])
    assert res.exit_code == 1 and message in res.output and "Traceback" not in res.output


def test_export_of_unknown_document_fails_cleanly(tmp_path: Path) -> None:
    Store(tmp_path / "store")
    res = runner.invoke(app, ["export", "nope", "--store", str(tmp_path / "store")])
    assert res.exit_code == 1 and "no document 'nope'" in res.output


def _rename(nodes: list[dict[str, Any]], old: str, new: str) -> None:
    for n in nodes:
        n[new] = n.pop(old)
        _rename(n.get("nodes", []), old, new)


def test_other_page_key_spellings(stored: tuple[Store, Path, Path], tmp_path: Path) -> None:
    """Some PageIndex outputs name the start page physical_index and give no end page."""
    store, pdf, first = stored
    data = json.loads(first.read_text())
    data.pop("source")
    _rename(data["structure"], "start_index", "physical_index")
    _strip(data["structure"], "end_index")
    other = tmp_path / "physical.json"
    other.write_text(json.dumps(data))
    import_pageindex(other, pdf, store, doc_id="physical")
    built, imported = store.tree("spec", 1), store.tree("physical")
    assert [(n.title, n.start_page, n.end_page, n.start) for n in imported.walk()] == \
        [(n.title, n.start_page, n.end_page, n.start) for n in built.walk()]
