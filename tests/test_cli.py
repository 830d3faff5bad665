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


TITLES = ["Introduction", "Methods of Measurement", "Results and Discussion"]


def make_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for i, title in enumerate(TITLES):
        page = doc.new_page()
        page.insert_text((72, 80 + 40 * i), title, fontsize=18, fontname="hebo")
        for k in range(12):
            page.insert_text((72, 140 + 40 * i + 16 * k), f"Body text of the {title.lower()} part, line {k}.",
                             fontsize=11)
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
    assert first["summary"] and first["nodes"][0]["summary"]  # the offline default summarises every node
    assert data["model"] == "extractive"


def test_build_ignore_outline_differs(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "book.pdf")
    res = runner.invoke(app, ["build", str(pdf), "--ignore-outline"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["method"] == "headings"  # found from the 18 pt bold lines, not from the bookmarks
    assert [(n["title"], n["start_index"]) for n in data["structure"]] == [(t, i + 1) for i, t in enumerate(TITLES)]


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
    assert res.exit_code == 2 and "key=value" in res.output  # usage: docs/bad-inputs.md "Exit codes"


def test_markup_characters_in_titles_and_paths_are_printed_verbatim(tmp_path: Path) -> None:
    folder = tmp_path / "in [draft]"
    folder.mkdir()
    doc = folder / "notes [red].md"
    doc.write_text("# Notes [/x] [bold]b[/bold]\n\ntext\n")
    store = str(tmp_path / "s")
    res = runner.invoke(app, ["ingest", str(doc), "--store", store])
    assert res.exit_code == 0, res.output
    doc_id = Store(store).documents()[0].doc_id
    res = runner.invoke(app, ["show", doc_id, "--store", store])
    assert res.exit_code == 0 and "Notes [/x] [bold]b[/bold]" in res.output and "notes [red].md" in res.output
    res = runner.invoke(app, ["sql", "SELECT '[/]' AS x, title FROM latest_nodes", "--store", store])
    assert res.exit_code == 0 and "[/]" in res.output and "[bold]b[/bold]" in res.output
    res = runner.invoke(app, ["list", "--store", store])
    assert "notes [red].md" in res.output
    res = runner.invoke(app, ["build", str(folder / "gone [/].pdf")])
    assert res.exit_code == 1 and "gone [/].pdf: file not found" in res.output


def test_a_bug_is_one_line_with_its_place_unless_debugging(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = ("from treebuild import cli\n"
              "def boom():\n    raise KeyError('surprise')\n"
              "cli.app = boom\ncli.main()\n")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2
    assert res.stderr.strip().startswith("unexpected error: KeyError: 'surprise'") and "Traceback" not in res.stderr
    assert "TREEBUILD_DEBUG=1" in res.stderr
    env = {**__import__("os").environ, "TREEBUILD_DEBUG": "1"}
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert res.returncode == 1 and "Traceback" in res.stderr
