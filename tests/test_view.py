"""The HTML tree view: self-contained, escaped, bounded, and working in a real headless Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser import Browser, chromium_path
from docgen import Section, layout_sections
from typer.testing import CliRunner

from treebuild import ingest
from treebuild.cli import app
from treebuild.store import Store
from treebuild.view import ViewLimits, render_view, write_view

runner = CliRunner()

HOSTILE = '</script><img src=x onerror="window.__pwned=1">&amp; Fees'
SECTIONS = [
    Section(1, "Overview", body=6),
    Section(2, "Scope of the Agreement", body=30),
    Section(2, HOSTILE, body=8),
    Section(1, "Payment Terms", body=40),
    Section(2, "Late Payment Interest", body=10),
    Section(1, "Termination", body=12),
]


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Store, str, Path]:
    pdf = tmp_path / "contract.pdf"
    layout_sections(pdf, SECTIONS)
    store = Store(tmp_path / "store")
    res = ingest(pdf, store)
    assert res.status == "created"
    return store, res.doc_id, pdf


def _data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="treebuild-data">(.*?)</script>', html, re.S)
    assert m, "no data block"
    return json.loads(m.group(1))


def test_view_is_self_contained_escaped_and_has_thumbnails(stored: tuple[Store, str, Path]) -> None:
    store, doc_id, _ = stored
    tree = store.tree(doc_id)
    result = render_view(tree)
    html = result.html
    # nothing is fetched: no URL in any src/href, and a policy that forbids it
    assert not re.search(r'(src|href)\s*=\s*["\']?(https?:|//)', html)
    assert "default-src 'none'" in html
    # the hostile title never appears as markup, only as JSON data
    assert "<img src=x" not in html and HOSTILE not in html
    assert html.count("</script>") == 2  # the data block's and the script's own
    data = _data(html)
    assert [n["title"] for n in data["nodes"]] == [n.title for n in tree.walk()]
    assert HOSTILE in [n["title"] for n in data["nodes"]]
    by_title = {n["title"]: n for n in data["nodes"]}
    late = by_title["Late Payment Interest"]
    node = tree.find("Late Payment Interest")[0]
    assert late["text"] == node.own_text() and (late["sp"], late["ep"]) == (node.start_page, node.end_page)
    assert late["origin"] == "outline" and late["summary"] == node.summary
    # thumbnails: the first pages of each section, embedded JPEGs
    assert result.thumbnails == len(data["thumbs"]) > 0
    assert all(uri.startswith("data:image/jpeg;base64,") for uri in data["thumbs"].values())
    assert by_title["Payment Terms"]["thumbs"][0] == node.parent.start_page
    assert not result.notes


def test_missing_source_is_said_in_the_page(stored: tuple[Store, str, Path], tmp_path: Path) -> None:
    store, doc_id, pdf = stored
    pdf.unlink()
    out = tmp_path / "view.html"
    result = write_view(store.tree(doc_id), out)
    data = _data(out.read_text(encoding="utf-8"))
    assert result.thumbnails == 0 and data["thumbs"] == {}
    assert any("not there any more" in n and "thumbnails are not shown" in n for n in data["notes"])
    assert data["nodes"][0]["text"]  # the text comes from the store, not the file


def test_changed_source_gets_no_thumbnails(stored: tuple[Store, str, Path]) -> None:
    store, doc_id, pdf = stored
    layout_sections(pdf, SECTIONS[:2])  # same path, other bytes
    result = render_view(store.tree(doc_id))
    assert result.thumbnails == 0 and any("has changed" in n for n in result.notes)


def test_big_trees_are_capped_and_say_so(stored: tuple[Store, str, Path]) -> None:
    store, doc_id, _ = stored
    tree = store.tree(doc_id)
    count = sum(1 for _ in tree.walk())
    limits = ViewLimits(node_text_chars=60, min_node_text_chars=10, text_budget_chars=count * 12, max_thumbnails=1)
    result = render_view(tree, limits=limits)
    data = _data(result.html)
    assert result.thumbnails == 1
    assert max(len(n["text"]) for n in data["nodes"]) == 12  # the budget shared by all nodes
    cut = [n for n in data["nodes"] if n["cut"]]
    assert cut and all(n["ownChars"] > 12 for n in cut)
    assert any("capped at 12 characters" in n for n in result.notes)
    assert any("thumbnails capped at 1" in n for n in result.notes)
    assert len(result.html) < len(render_view(tree).html)


def test_view_command_writes_the_file(stored: tuple[Store, str, Path], tmp_path: Path) -> None:
    store, doc_id, _ = stored
    out = tmp_path / "out.html"
    res = runner.invoke(app, ["view", doc_id, "--store", str(store.root), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == str(out.resolve())
    assert _data(out.read_text(encoding="utf-8"))["doc"]["docId"] == doc_id
    res = runner.invoke(app, ["view", "nope", "--store", str(store.root), "-o", str(out)])
    assert res.exit_code == 1 and "no document 'nope'" in res.output


needs_chromium = pytest.mark.skipif(
    chromium_path() is None,
    reason="no Chromium: install it with `TREEBUILD_SETUP_BROWSER=1 ./scripts/setup` (Debian package chromium)")


@needs_chromium
def test_view_in_headless_chromium(stored: tuple[Store, str, Path], tmp_path: Path) -> None:
    store, doc_id, _ = stored
    tree = store.tree(doc_id)
    out = tmp_path / "view.html"
    write_view(tree, out)
    with Browser(out.as_uri()) as b:
        b.wait_for("document.body.dataset.ready === '1'")
        assert b.evaluate("document.getElementById('doc-title').textContent").startswith("contract")
        roots = b.evaluate("[...document.querySelectorAll('#roots > li .title')].map(e => e.textContent)")
        assert roots == [n.title for n in tree.roots]
        # children are not shown until their parent is expanded
        visible = "[...document.querySelectorAll('.row')].filter(r => r.offsetParent !== null).length"
        assert b.evaluate(visible) == len(tree.roots)
        payment = next(i for i, n in enumerate(tree.roots) if n.title == "Payment Terms")
        b.evaluate(f"document.querySelectorAll('#roots > li')[{payment}].querySelector('.tog').click()")
        assert b.evaluate(visible) == len(tree.roots) + 1
        assert b.evaluate("[...document.querySelectorAll('.row')].filter(r => r.offsetParent !== null)"
                          ".map(r => r.querySelector('.title').textContent)").count("Late Payment Interest") == 1
        # clicking a node shows its exact text and a thumbnail of its page
        b.evaluate("[...document.querySelectorAll('.row')].find(r => r.querySelector('.title').textContent"
                   " === 'Late Payment Interest').click()")
        node = tree.find("Late Payment Interest")[0]
        assert b.evaluate("document.querySelector('#detail h2').textContent") == "Late Payment Interest"
        assert b.evaluate("document.querySelector('#detail pre').textContent") == node.own_text()
        assert b.evaluate("document.querySelector('#detail .thumbs img').naturalWidth") > 100
        assert b.evaluate("location.hash") == f"#{node.node_id}"
        # search reveals and marks matches, hides the rest; the hostile title stays text
        b.evaluate("const s = document.getElementById('search'); s.value = 'fees';"
                   "s.dispatchEvent(new Event('input'))")
        assert b.evaluate("document.getElementById('hits').textContent") == "1 match"
        assert b.evaluate("document.querySelector('.title mark').textContent") == "Fees"
        assert b.evaluate("typeof window.__pwned") == "undefined"
        assert b.evaluate("document.querySelectorAll('#tree img').length") == 0
        shot = b.screenshot(tmp_path / "view.png")
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:4] == b"\x89PNG"
