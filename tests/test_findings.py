"""Typed findings (issue 26 item 6): code, stage, message, page and count on the result and in the store, the
`warnings` column keeping their text for SQL users, and every warning line naming its document."""

from __future__ import annotations

from pathlib import Path

import pytest
from docgen import scanned_pdf
from typer.testing import CliRunner

import treebuild
from treebuild.cli import app
from treebuild.findings import Finding, Stage, merge
from treebuild.ingestion import ingest
from treebuild.store import Store

runner = CliRunner()


def test_equal_findings_merge_into_one_with_a_count() -> None:
    a = Finding("mupdf", Stage.read, "syntax error: invalid ICC colorspace")
    b = Finding("mupdf", Stage.read, "syntax error: invalid ICC colorspace")
    c = Finding("mupdf", Stage.read, "syntax error: invalid ICC colorspace", page=3)
    merged = merge([a, b, c, a])
    assert merged == [Finding("mupdf", Stage.read, "syntax error: invalid ICC colorspace", count=3), c]
    assert merged[0].text == "syntax error: invalid ICC colorspace (3 times)"
    assert Finding.from_record(merged[0].as_record()) == merged[0]


def test_a_build_records_typed_findings_and_the_store_keeps_both_forms(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TREEBUILD_OCR", "off")  # the same finding whether or not an OCR engine is installed
    pdf = scanned_pdf(tmp_path / "scan.pdf")
    tree = treebuild.build(pdf)
    found = [f for f in tree.findings if f.code == "no_text_layer"]
    assert [(f.stage, f.message) for f in found] == [
        ("read", "no text layer on 2 of 2 pages and OCR is off: ingest with --ocr auto (or TREEBUILD_OCR=auto) "
                 "to read them")]
    assert tree.warnings == [f.text for f in tree.findings]  # the text form, one line each

    store = Store(tmp_path / "s")
    result = ingest(pdf, store)
    assert result.findings == tree.findings and result.warnings == tree.warnings
    assert store.tree("scan").findings == tree.findings
    rows = store.sql("SELECT f.stage, f.code, f.page, f.count FROM trees, unnest(findings) AS u(f) "
                     "WHERE f.code = 'no_text_layer'").to_pylist()
    assert rows == [{"stage": "read", "code": "no_text_layer", "page": None, "count": 1}]
    assert store.sql("SELECT warnings FROM trees").to_pylist() == [{"warnings": tree.warnings}]


def test_a_store_of_an_earlier_format_gains_the_column_and_keeps_its_warnings(tmp_path: Path) -> None:
    latin = tmp_path / "latin.md"
    latin.write_bytes(b"# Caf\xe9\n\nd\xe9j\xe0 vu\n")
    store = Store(tmp_path / "s")
    ingest(latin, store)
    con = store.connect()  # make it a format-4 store: no findings column, its warnings as text only
    con.execute("ALTER TABLE trees DROP COLUMN findings")
    con.execute("CREATE OR REPLACE VIEW store_info AS SELECT 2 AS schema_version, '4' AS catalog_format")
    con.close()
    store.close()

    old = Store(tmp_path / "s", create=False).tree("latin")  # read-only: the column is not added
    assert [(f.code, f.stage, f.text) for f in old.findings] == [
        ("note", "build", "not valid UTF-8; read as Latin-1 (save it as UTF-8 if characters look wrong)")]
    writer = Store(tmp_path / "s")  # a writer's open adds the column, NULL for the earlier row
    ingest(latin, writer, force=True)
    assert [f.code for f in writer.tree("latin", version=2).findings] == ["not_utf8"]
    assert writer.tree("latin", version=1).findings == old.findings


def test_every_warning_line_names_its_document(tmp_path: Path) -> None:
    pdf = scanned_pdf(tmp_path / "scan.pdf")
    store = tmp_path / "s"
    for args, name in ((["build", str(pdf), "-o", str(tmp_path / "o.json")], str(pdf)),
                       (["ingest", str(pdf), "--store", str(store)], str(pdf)),
                       (["show", "scan", "--store", str(store)], "scan")):
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
        lines = [line for line in res.output.splitlines() if line.startswith("warning")]
        assert lines and all(line.split(None, 1)[1].startswith(f"{name}: ") for line in lines), res.output


def test_every_code_the_code_base_records_is_listed_in_the_docs() -> None:
    """docs/bad-inputs.md "Finding codes" lists each code a stage records (a code written as the first argument of
    ``Finding(...)`` or of a stage's ``_finding(...)`` helper, or a module's ``CODE``)."""
    import re

    import treebuild.findings

    root = Path(treebuild.findings.__file__).parent
    pattern = re.compile(r'(?:\bFinding|\b_finding)\(\s*"([a-z_]+)"|^CODE = "([a-z_]+)"', re.M)
    recorded = {a or b for path in root.rglob("*.py") for a, b in pattern.findall(path.read_text(encoding="utf-8"))}
    recorded.add(treebuild.findings.UNCODED)
    page = (root.parent / "docs" / "bad-inputs.md").read_text(encoding="utf-8")
    section = page.split("## Finding codes", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", section, re.M))
    assert {"no_text_layer", "table_pass_failed", "mupdf", "model_budget_spent"} <= recorded  # the pattern finds them
    assert recorded <= listed, sorted(recorded - listed)
