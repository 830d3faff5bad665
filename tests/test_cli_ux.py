"""The CLI's no-surprises behaviour (issue 11): warnings shown, skipped files listed, identity
conflicts reported, read-only SQL, one wording for unknown ids, line output, help texts, start-up
imports, one settings path, readable positions for unpaged formats."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import docx
import pymupdf
import pytest
import typer
from docgen import scanned_pdf
from typer.testing import CliRunner

from treebuild.cli import app
from treebuild.cli.options import BuildOptions
from treebuild.settings import BuildSettings, ModelConfig, resolve_settings
from treebuild.store import Store

runner = CliRunner()
MD = "# One\n\ntext one\n\n## One A\n\nmore\n\n## One B\n\nlast of one\n\n# Two\n\nlast\n"


def _ingest(*args: str) -> Any:
    return runner.invoke(app, ["ingest", *args])


def test_ingest_and_build_print_warnings_one_line_each_and_count_them(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    scan = scanned_pdf(tmp_path / "in" / "scan.pdf")
    (tmp_path / "in" / "ok.md").write_text(MD)
    res = _ingest(str(tmp_path / "in"), "--store", str(tmp_path / "s"))
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    created = next(i for i, line in enumerate(lines) if line.startswith("created   scan v1"))
    assert "1 warning)" in lines[created]
    assert lines[created + 1] == f"warning   {scan}: no text on 2 of 2 pages, OCR included"
    assert lines[-1] == "2 documents: 2 created, 1 warning"
    res = runner.invoke(app, ["build", str(scan), "-o", str(tmp_path / "x.json")])
    assert res.exit_code == 0 and "warning   " in res.output and "1 warning)" in res.output
    res = runner.invoke(app, ["show", "scan", "--store", str(tmp_path / "s")])
    assert "no text on 2 of 2 pages" in res.output  # stored warnings are shown with the tree


def test_skipped_files_are_listed_and_get_no_lock(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "doc.md").write_text(MD)
    for name in ("a.csv", "b.csv", "sheet.xlsx", ".hidden.csv", "~$doc.docx"):
        (folder / name).write_text("x")
    store = tmp_path / "s"
    res = _ingest(str(folder), "--store", str(store))
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == "1 document: 1 created, 0 warnings; skipped 3 files with no reader: " \
                                          ".csv x2, .xlsx"
    res = _ingest(str(folder / "a.csv"), "--store", str(store))
    assert res.exit_code == 1 and "unsupported file type '.csv'" in res.output
    assert not [p for p in store.rglob("*") if p.stem in ("a", "b", "sheet")]  # no lock (or any file) for them
    res = _ingest(str(tmp_path / "in" / "a.csv"), str(tmp_path / "in" / "sheet.xlsx"), "--store", str(store))
    assert res.exit_code == 1 and "2 of 2 document(s) failed" in res.output
    empty = tmp_path / "nothing"
    empty.mkdir()
    (empty / "notes.csv").write_text("x")
    res = _ingest(str(empty), "--store", str(store))
    assert res.exit_code == 1 and "no supported documents found (skipped 1 file with no reader: .csv)" in res.output
    # the store being written, inside the ingested folder, is passed over, not listed file by file
    inner = folder / "treestore"
    for _ in range(2):  # the second run would see the store's own files
        res = _ingest(str(folder), "--store", str(inner))
        assert res.exit_code == 0 and res.output.splitlines()[-1].endswith("skipped 3 files with no reader: "
                                                                           ".csv x2, .xlsx")


def test_same_name_from_another_folder_is_reported_not_versioned(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "a").mkdir(parents=True)
    (corpus / "b").mkdir()
    (corpus / "a" / "report.md").write_text(MD)
    (corpus / "b" / "report.md").write_text(MD + "\n# Other\n\ndifferent\n")
    store = tmp_path / "s"
    assert _ingest(str(corpus / "a" / "report.md"), "--store", str(store)).exit_code == 0
    res = _ingest(str(corpus / "b" / "report.md"), "--store", str(store))
    assert res.exit_code == 1
    flat = " ".join(res.output.split())
    assert f"doc_id 'report' already holds {(corpus / 'a' / 'report.md').resolve()} (v1)" in flat
    assert "--doc-id-from-path" in flat
    assert [v.version for v in Store(store).versions("report")] == [1]
    # the same bytes from another place are the same document: unchanged, not a conflict
    (corpus / "c").mkdir()
    (corpus / "c" / "report.md").write_text(MD)
    res = _ingest(str(corpus / "c" / "report.md"), "--store", str(store))
    assert res.exit_code == 0 and "unchanged" in res.output
    # an explicit --doc-id is the user's choice: it makes version 2
    res = _ingest(str(corpus / "b" / "report.md"), "--store", str(store), "--doc-id", "report")
    assert res.exit_code == 0 and "report v2" in res.output
    # ids from relative paths keep both
    res = _ingest(str(corpus), "--store", str(tmp_path / "s2"), "--doc-id-from-path")
    assert res.exit_code == 0, res.output
    assert [d.doc_id for d in Store(tmp_path / "s2").documents()] == ["a--report", "b--report", "c--report"]
    res = _ingest(str(corpus), "--store", str(tmp_path / "s3"))
    assert res.exit_code == 1 and "also derived from" in res.output


def _store_with_doc(tmp_path: Path) -> Path:
    (tmp_path / "notes.md").write_text(MD)
    store = tmp_path / "s"
    assert _ingest(str(tmp_path / "notes.md"), "--store", str(store)).exit_code == 0
    return store


@pytest.mark.parametrize("statement", [
    "DROP VIEW trees", "CREATE TABLE t AS SELECT 1", "INSERT INTO trees SELECT * FROM trees",
    "COPY (SELECT 1) TO 'x.csv'", "ATTACH 'other.db'", "SET threads = 1",
    "SELECT 1; DROP VIEW nodes", "CHECKPOINT", "CALL ducklake_expire_snapshots('tb', versions => [1])",
    "SELECT * FROM ducklake_cleanup_old_files('tb', cleanup_all => true)",
])
def test_sql_is_read_only_and_says_so(tmp_path: Path, statement: str) -> None:
    store = _store_with_doc(tmp_path)
    res = runner.invoke(app, ["sql", statement, "--store", str(store)])
    assert res.exit_code == 1
    assert "error: the store's SQL is read-only:" in res.output and "nothing was changed" in res.output
    assert "row(s)" not in res.output
    res = runner.invoke(app, ["sql", "SELECT count(*) AS n FROM trees", "--store", str(store), "-f", "json"])
    assert json.loads(res.stdout) == [{"n": 1}]
    assert not (tmp_path / "x.csv").exists()


def test_queries_describe_and_explain_still_run(tmp_path: Path) -> None:
    store = _store_with_doc(tmp_path)
    for q in ("DESCRIBE latest_nodes", "EXPLAIN SELECT * FROM nodes", "FROM node_path('notes', '0001')",
              "WITH x AS (SELECT 1 AS a) SELECT * FROM x"):
        res = runner.invoke(app, ["sql", q, "--store", str(store)])
        assert res.exit_code == 0, (q, res.output)


def test_unknown_ids_give_the_same_error_in_every_command(tmp_path: Path) -> None:
    store = _store_with_doc(tmp_path)
    s = ["--store", str(store)]
    doc_error = f"error: {store}: no document 'ghost' in store (see `treebuild list`)"
    for args in (["show", "ghost"], ["versions", "ghost"], ["text", "ghost", "0000"],
                 ["sql", "SELECT * FROM subtree('ghost', '0000')"], ["sql", "FROM node_text('ghost', '0000')"],
                 ["sql", "FROM node_path('ghost', '0000')"]):
        res = runner.invoke(app, [*args, *s])
        assert res.exit_code == 1 and res.output.strip() == doc_error, (args, res.output)
    node_error = f"error: {store}: document 'notes' has no node '0099' (see `treebuild show notes`)"
    for args in (["text", "notes", "0099"], ["sql", "SELECT * FROM subtree('notes', '0099')"],
                 ["sql", "SELECT text FROM node_text('notes', '0099')"],
                 ["sql", "SELECT title FROM node_path('notes', '0099')"]):
        res = runner.invoke(app, [*args, *s])
        assert res.exit_code == 1 and res.output.strip() == node_error, (args, res.output)
    (tmp_path / "notes.md").write_text(MD + "\n# Three\n\nadded\n")
    assert _ingest(str(tmp_path / "notes.md"), *s).exit_code == 0  # version 2 adds node 0004
    version_error = f"error: {store}: document 'notes' has no version 7 (versions: 1, 2)"
    for args in (["show", "notes", "--version", "7"], ["text", "notes", "0000", "--version", "7"],
                 ["sql", "SELECT * FROM subtree('notes', '0000', 7)"],
                 ["sql", "FROM node_text('notes', '0000', v := 7)"]):
        res = runner.invoke(app, [*args, *s])
        assert res.exit_code == 1 and res.output.strip() == version_error, (args, res.output)
    res = runner.invoke(app, ["sql", "SELECT * FROM subtree('notes', '0004', 1)", *s])
    assert res.output.strip() == f"error: {store}: document 'notes' version 1 has no node '0004' " \
                                 "(see `treebuild show notes`)"
    assert runner.invoke(app, ["sql", "SELECT * FROM subtree('notes', '0004')", *s]).exit_code == 0
    # constant ids are checked wherever and however the call is written, even when other rows come back
    for q in ("SELECT 1 AS n UNION ALL SELECT count(*) FROM node_text('notes', '0099')",
              "select count(*) from SUBTREE( $$notes$$ , '0099' )",
              "SELECT * FROM latest_trees WHERE doc_id IN (SELECT doc_id FROM node_path('notes', '0099'))"):
        res = runner.invoke(app, ["sql", q, *s])
        assert res.exit_code == 1 and res.output.strip() == node_error, (q, res.output)
    # an id the query computes follows the SQL rule (zero rows); a string that only looks like a call is no call
    res = runner.invoke(app, ["sql", "SELECT count(*) AS n FROM subtree('gh' || 'ost', '0000')", "-f", "csv", *s])
    assert res.exit_code == 0 and res.output.split() == ["n", "0"], res.output
    res = runner.invoke(app, ["sql", "SELECT 'subtree(''ghost'', ''0000'')' AS s", "-f", "csv", *s])
    assert res.exit_code == 0 and "subtree('ghost', '0000')" in res.output, res.output
    # in SQL itself an unknown id is a documented empty result, not an error
    for macro in ("subtree", "node_path", "node_text"):
        assert Store(store).sql(f"SELECT * FROM {macro}('ghost', '0000')").num_rows == 0
    # an empty result for a known node is just empty
    res = runner.invoke(app, ["sql", "SELECT * FROM subtree('notes', '0001') WHERE depth > 5", *s])
    assert res.exit_code == 0 and "0 row(s)" in res.output


def test_text_prints_the_exact_section(tmp_path: Path) -> None:
    store = _store_with_doc(tmp_path)
    res = runner.invoke(app, ["text", "notes", "0001", "--store", str(store)])
    assert res.exit_code == 0
    assert res.stdout == Store(store).tree("notes").node("0001").text().rstrip("\n") + "\n"


def test_line_format_prints_one_field_per_line(tmp_path: Path) -> None:
    store = _store_with_doc(tmp_path)
    res = runner.invoke(app, ["sql", "SELECT node_id, title FROM latest_nodes ORDER BY node_id LIMIT 2",
                              "--store", str(store), "--format", "line"])
    assert res.exit_code == 0
    assert res.stdout == "node_id = 0000\n  title = One\n\nnode_id = 0001\n  title = One A\n"
    res = runner.invoke(app, ["sql", "SELECT * FROM latest_trees", "--store", str(store)])
    assert res.exit_code == 0 and " source_name = notes.md\n" in res.stdout  # too wide for a table: lines


def test_show_json_honours_depth(tmp_path: Path) -> None:
    store = _store_with_doc(tmp_path)
    full = json.loads(runner.invoke(app, ["show", "notes", "--json", "--store", str(store)]).stdout)
    assert [len(n.get("nodes", [])) for n in full["structure"]] == [2, 0]
    top = json.loads(runner.invoke(app, ["show", "notes", "--json", "-d", "1", "--store", str(store)]).stdout)
    assert [n["title"] for n in top["structure"]] == ["One", "Two"]
    assert all("nodes" not in n for n in top["structure"])


def test_reprs_are_short(tmp_path: Path) -> None:
    (tmp_path / "big.md").write_text("# Big\n\n" + "word " * 200_000 + "\n\n## Child\n\n" + "more " * 1000)
    import treebuild

    tree = treebuild.build(tmp_path / "big.md")
    for obj in (tree, tree.roots[0], tree.roots[0].children[0], tree.doc):
        assert len(repr(obj)) < 200, repr(obj)[:300]
    assert repr(tree).startswith("Tree(") and f"nodes={sum(1 for _ in tree.walk())})" in repr(tree)


def test_help_flags_and_options(tmp_path: Path) -> None:
    command: Any = typer.main.get_command(app)
    for name, sub in command.commands.items():
        res = runner.invoke(app, [name, "-h"])
        assert res.exit_code == 0 and "Usage:" in res.output, name
        assert "<bool>" not in res.output, name
        for param in sub.params:
            if param.param_type_name == "option":
                assert param.help, f"{name} {param.opts} has no help"
    res = runner.invoke(app, ["-h"])
    assert res.exit_code == 0 and "<bool>" not in res.output


def test_build_and_ingest_share_their_options() -> None:
    command: Any = typer.main.get_command(app)

    def opts(name: str) -> set[str]:
        return {o for p in command.commands[name].params for o in p.opts}

    model = {"--model", "--api-base", "--api-key", "--max-calls", "--max-tokens", "--max-seconds", "--concurrency",
             "--timeout", "--model-structure", "--ignore-outline", "--no-subdivide", "--password"}
    assert model <= opts("build") and model <= opts("ingest")


def test_importing_the_cli_loads_no_heavy_module() -> None:
    heavy = ["litellm", "prefect", "fitz", "pymupdf", "docx", "pydantic_settings", "pyarrow", "duckdb"]
    for run in ("", "treebuild.cli.app(['--help'], standalone_mode=False)\n"):
        code = (f"import sys, treebuild, treebuild.cli\n{run}"
                f"sys.stderr.write('LOADED ' + ','.join(m for m in {heavy!r} if m in sys.modules))\n")
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
        assert res.stderr.strip() == "LOADED", (run, res.stderr)


def test_one_settings_path_honours_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TREEBUILD_MODEL", "openai/env-model")
    settings, config = resolve_settings(None, None)
    assert settings.model == config.model == "openai/env-model"
    settings2, _ = resolve_settings(BuildSettings(ignore_outline=True), None)  # flows pass settings like this
    assert settings2.model == "openai/env-model" and settings2.ignore_outline
    cli_settings, cli_config = BuildOptions().resolve()
    assert cli_settings.hash() == settings.hash() and cli_config.model == "openai/env-model"
    assert BuildOptions(model="extractive").resolve()[0].model == "extractive"  # a flag beats the environment
    assert resolve_settings(BuildSettings(model="extractive"), None)[0].model == "extractive"  # named: kept
    with pytest.raises(Exception, match="pass the same model"):
        resolve_settings(BuildSettings(model="extractive"), ModelConfig(model="openai/x"))
    monkeypatch.delenv("TREEBUILD_MODEL")
    assert resolve_settings(None, None)[0].model == "extractive"


def _docx(path: Path) -> Path:
    document = docx.Document()
    document.add_heading("Chapter 3", level=1)
    for i in range(3):
        document.add_paragraph(f"Intro paragraph {i}.")
    document.add_heading("Eligibility", level=2)
    for i in range(4):
        document.add_paragraph(f"Who qualifies, part {i}.")
    document.save(str(path))
    return path


def test_unpaged_positions_read_as_paragraphs_under_headings(tmp_path: Path) -> None:
    store = tmp_path / "s"
    assert _ingest(str(_docx(tmp_path / "policy.docx")), "--store", str(store)).exit_code == 0
    res = runner.invoke(app, ["show", "policy", "--store", str(store)])
    assert "0000  Chapter 3  [paragraphs 1-9 under 'Chapter 3']" in res.output
    assert "  0001  Eligibility  [paragraphs 5-9 under 'Chapter 3 > Eligibility']" in res.output
    assert "units" not in res.output
    data = json.loads(runner.invoke(app, ["show", "policy", "--json", "--store", str(store)]).stdout)
    child = data["structure"][0]["nodes"][0]
    assert child["position"] == "paragraphs 5-9 under 'Chapter 3 > Eligibility'"
    assert child["paragraphs"] == [5, 9] and child["heading_path"] == ["Chapter 3", "Eligibility"]


def test_pdf_password_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Secret chapter", fontsize=14)
    doc.save(tmp_path / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="o")
    res = _ingest(str(tmp_path / "locked.pdf"), "--store", str(tmp_path / "s"))
    assert res.exit_code == 1 and "password-protected" in res.output
    monkeypatch.setenv("TREEBUILD_PDF_PASSWORD", "pw")
    res = _ingest(str(tmp_path / "locked.pdf"), "--store", str(tmp_path / "s"))
    assert res.exit_code == 0 and "created   locked v1" in res.output


def test_enums_are_stored_as_their_plain_strings(tmp_path: Path) -> None:
    from treebuild.ingestion import IngestStatus
    from treebuild.model import Format, UnitKind

    store = _store_with_doc(tmp_path)
    rows = Store(store).sql("SELECT DISTINCT t.format, u.kind FROM trees t JOIN units u USING (doc_id, version) "
                            "ORDER BY 2").to_pylist()
    assert rows == [{"format": "markdown", "kind": "heading"}, {"format": "markdown", "kind": "paragraph"}]
    assert Format("markdown") is Format.markdown and UnitKind("heading") == "heading"
    assert json.dumps([IngestStatus.created, Format.pdf]) == '["created", "pdf"]'


def test_origin_and_method_are_enums_over_the_stored_strings(tmp_path: Path) -> None:
    from treebuild.model import Method, Origin, StructureSource

    store = _store_with_doc(tmp_path)
    tree = Store(store).tree("notes")
    assert isinstance(tree.method, Method) and tree.method.sources == (StructureSource.headings,)
    assert all(isinstance(n.origin, Origin) for n in tree.walk())
    assert {n.origin for n in tree.walk()} <= {Origin.heading, Origin.preface}
    assert Store(store).documents()[0].method.sources == (StructureSource.headings,)
    rows = Store(store).sql("SELECT DISTINCT origin FROM nodes UNION ALL SELECT method FROM trees").to_pylist()
    assert all(type(r["origin"]) is str for r in rows)  # stored as the plain strings, unchanged
    # a combination: typed parts, the stored string format, duplicates dropped, unknown names refused
    combined = Method([StructureSource.toc, StructureSource.sec, StructureSource.toc, StructureSource.headings])
    assert combined == "toc+sec+headings" and Method("toc+sec+headings") == combined
    assert Method("toc+headings").sources == (StructureSource.toc, StructureSource.headings)
    assert json.dumps({"method": Method("outline+toc")}) == '{"method": "outline+toc"}'
    for bad in ("toc+bogus", "", "heading"):  # "heading" is a node origin, not a source
        with pytest.raises(ValueError):
            Method(bad)


def test_model_budget_warning_is_printed(server: Any, tmp_path: Path) -> None:
    from openai_server import echo_summaries

    server.reset()
    server.responder = lambda request: echo_summaries(request, words=20)
    doc = tmp_path / "long.md"
    doc.write_text("".join(f"# Part {i}\n\n" + ("Revenue grew in every segment this year. " * 300) + "\n\n"
                           for i in range(4)))
    res = _ingest(str(doc), "--store", str(tmp_path / "s"), "--model", "openai/test", "--api-base", server.url,
                  "--api-key", "x", "--max-calls", "1")
    assert res.exit_code == 0, res.output
    warnings = [line for line in res.output.splitlines() if line.startswith("warning   ")]
    assert any("model budget spent" in w for w in warnings), res.output
    assert res.output.splitlines()[-1] == f"1 document: 1 created, {len(warnings)} warning" + \
        ("" if len(warnings) == 1 else "s")


def test_names_other_command_modules_import_stay_available() -> None:
    """``treebuild/cli/<area>.py`` modules build on these public names of ``treebuild.cli.options``, which
    imports no command module."""
    import ast

    import treebuild.cli.options as options

    for name in ("app", "out", "err", "StoreOpt", "fail", "ModelOpt", "ApiBaseOpt", "ApiKeyOpt", "model_config",
                 "parse_meta", "build_options", "BuildOptions", "print_result", "print_summary", "print_table"):
        assert name in options.__all__ and hasattr(options, name), name
    config = options.model_config("openai/x", api_base="http://127.0.0.1:1/v1", max_calls=None)
    assert (config.model, config.api_base, config.max_calls) == ("openai/x", "http://127.0.0.1:1/v1", None)
    source = ast.parse(Path(options.__file__).read_text())
    siblings = [node.module for node in ast.walk(source) if isinstance(node, ast.ImportFrom) and node.level == 1]
    assert siblings == []  # no command module of the package: they import this one


def test_every_declared_dependency_is_imported() -> None:
    """No dependency is declared that the package never imports (by statement, or by name for the DuckDB
    extension wheels loaded with importlib)."""
    import re
    import tomllib
    from importlib.metadata import packages_distributions

    root = Path(__file__).resolve().parent.parent
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    modules: dict[str, set[str]] = {}
    for module, dists in packages_distributions().items():
        for dist in dists:
            modules.setdefault(dist.lower().replace("_", "-"), set()).add(module)
    source = "\n".join(p.read_text() for folder in ("treebuild", "flows") for p in (root / folder).rglob("*.py"))
    unused = []
    for requirement in declared:
        name = re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")
        found = modules.get(name, set())
        assert found, f"{name} is declared but not installed"
        if not any(re.search(rf"^\s*(?:import|from) {re.escape(m)}\b|[\"']{re.escape(m)}[\"']", source, re.MULTILINE)
                   for m in found):
            unused.append(name)
    assert unused == []


def test_backfill_rows_carry_and_count_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A backfill's report row keeps each document's warnings, the totals count them, and the CLI prints
    them one per line like `ingest` (the rows come from real ingests; the Prefect run is tested in test_flows)."""
    from dataclasses import asdict

    from treebuild.cli.backfill import _print_row
    from treebuild.ingestion import ingest
    from treebuild.orchestrate.report import Report

    scan = pymupdf.open()
    page = scan.new_page()
    page.insert_image(page.rect, pixmap=pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), 0))
    scan.save(tmp_path / "scan.pdf")
    (tmp_path / "fine.md").write_text(MD)
    report = Report(total=2)
    for name in ("scan.pdf", "fine.md"):
        report.add({**asdict(ingest(tmp_path / name, tmp_path / "s")), "path": str(tmp_path / name)})
    scanned, fine = report.rows
    assert any("no text on" in w for w in scanned["warnings"]) and fine["warnings"] == []
    assert report.totals()["warnings"] == len(scanned["warnings"]) >= 1
    assert f"| {report.totals()['warnings']} |" in report.markdown("backfill")
    _print_row(scanned)
    captured = capsys.readouterr()
    assert "1 warning)" in captured.out or "warnings)" in captured.out
    assert [line for line in captured.err.splitlines() if line.startswith("warning   ")
            and "no text on" in line and str(tmp_path / "scan.pdf") in line]
