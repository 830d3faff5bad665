"""CLI through typer's CliRunner; results are checked through the library API (sqlite-utils style)."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
from typer.testing import CliRunner

from treebuild.cli import app
from treebuild.store import Store

runner = CliRunner()

MD = "# One\n\ntext one\n\n## One A\n\nmore\n\n# Two\n\nlast\n"


def make_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for i in range(3):
        page = doc.new_page()
        page.insert_text((72, 80), f"Chapter {i + 1}", fontsize=18)
        page.insert_text((72, 120), f"Body of chapter {i + 1}.", fontsize=11)
    doc.set_toc([[1, "Chapter 1", 1], [2, "Chapter 1 detail", 1], [1, "Chapter 2", 2], [1, "Chapter 3", 3]])
    doc.save(path)
    return path


def test_build_writes_pageindex_json(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "book.pdf")
    out = tmp_path / "book.json"
    res = runner.invoke(app, ["build", str(pdf), "-o", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["doc_name"] == "book.pdf" and data["method"] == "outline"
    first = data["structure"][0]
    assert (first["title"], first["node_id"], first["start_index"], first["end_index"]) == ("Chapter 1", "0000", 1, 1)
    assert first["nodes"][0]["title"] == "Chapter 1 detail"
    assert [n["start_index"] for n in data["structure"]] == [1, 2, 3]
    assert data["source"]["page_count"] == 3 and len(data["source"]["sha256"]) == 64
    assert "summary" in first


def test_build_ignore_outline_differs(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "book.pdf")
    res = runner.invoke(app, ["build", str(pdf), "--ignore-outline"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["method"] != "outline"


def test_ingest_show_sql_round_trip(tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    md = tmp_path / "notes.md"
    md.write_text(MD)
    res = runner.invoke(app, ["ingest", str(md), "--store", str(store_dir), "--meta", "fy=2023"])
    assert res.exit_code == 0, res.output
    assert "created" in res.output and "notes v1" in res.output
    res = runner.invoke(app, ["ingest", str(md), "--store", str(store_dir)])
    assert "unchanged" in res.output
    store = Store(store_dir)
    assert [v.version for v in store.versions("notes")] == [1]
    assert store.tree("notes").meta == {"fy": "2023"}
    md.write_text(MD + "\n# Three\n\nadded\n")
    res = runner.invoke(app, ["ingest", str(md), "--store", str(store_dir)])
    assert "created" in res.output and "notes v2" in res.output
    res = runner.invoke(app, ["versions", "notes", "--store", str(store_dir)])
    assert res.exit_code == 0 and [v.version for v in store.versions("notes")] == [1, 2]
    assert all(v.sha256[:12] in res.output for v in store.versions("notes"))
    res = runner.invoke(app, ["versions", "nobody", "--store", str(store_dir)])
    assert res.exit_code == 1 and "no document 'nobody'" in res.output
    res = runner.invoke(app, ["show", "notes", "--version", "1", "--store", str(store_dir)])
    assert res.exit_code == 0
    assert "  0001  One A" in res.output
    res = runner.invoke(app, ["sql", "SELECT title FROM latest_nodes ORDER BY node_id", "--store", str(store_dir),
                              "--format", "json"])
    assert res.exit_code == 0, res.output
    assert [r["title"] for r in json.loads(res.stdout)] == ["One", "One A", "Two", "Three"]


def test_expected_failures_are_one_line_errors(tmp_path: Path) -> None:
    res = runner.invoke(app, ["build", str(tmp_path / "missing.pdf")])
    assert res.exit_code == 1
    assert "missing.pdf: file not found" in res.output and "Traceback" not in res.output
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"not a pdf at all")
    good = tmp_path / "good.md"
    good.write_text(MD)
    res = runner.invoke(app, ["ingest", str(bad), str(good), "--store", str(tmp_path / "s")])
    assert res.exit_code == 1
    assert "bad.pdf" in res.output and "1 of 2 document(s) failed" in res.output
    assert [d.doc_id for d in Store(tmp_path / "s").documents()] == ["good"]  # the batch went on
    res = runner.invoke(app, ["sql", "SELECT nope FROM trees", "--store", str(tmp_path / "s")])
    assert res.exit_code == 1 and "SQL error" in res.output and "Traceback" not in res.output
    res = runner.invoke(app, ["show", "ghost", "--store", str(tmp_path / "s")])
    assert res.exit_code == 1 and "no document 'ghost'" in res.output
    res = runner.invoke(app, ["ingest", str(good), "--store", str(tmp_path / "s"), "--meta", "novalue"])
    assert res.exit_code == 1 and "key=value" in res.output
