"""One voice for messages (issue 25 item 4): MuPDF's messages become counted findings of their document, never
raw output; a new version keeps the previous version's tags unless --meta or --clear-meta says otherwise."""

from __future__ import annotations

from pathlib import Path

import fuzzgen as fg
import pytest
from typer.testing import CliRunner

import treebuild
from treebuild.cli import app
from treebuild.store import Store

runner = CliRunner()


def _damaged_content_pdf(path: Path, pages: int = 6) -> Path:
    """Each page's content stream holds operators MuPDF cannot parse (it repairs them and says so)."""
    body = tuple(fg.Piece(text=f"Body text line {i}", y=700.0 - 14.0 * i) for i in range(5))
    path.write_bytes(fg.render_pdf(fg.DocSpec(tuple(fg.PageSpec(pieces=body, garbage=True) for _ in range(pages)))))
    return path


def test_mupdf_messages_are_counted_findings_of_their_document(tmp_path: Path,
                                                             capfd: pytest.CaptureFixture[str]) -> None:
    pdf = _damaged_content_pdf(tmp_path / "damaged.pdf")
    tree = treebuild.build(pdf)
    raw = capfd.readouterr()
    assert "MuPDF" not in raw.out + raw.err  # nothing printed by MuPDF itself
    mupdf = [f for f in tree.findings if f.code == "mupdf"]
    assert mupdf and all(f.stage == "read" and f.message.startswith("MuPDF: ") for f in mupdf)
    assert any("syntax error" in f.message and f.count == 6 for f in mupdf)  # once per page, one finding
    assert len({f.message for f in mupdf}) == len(mupdf)

    res = runner.invoke(app, ["build", str(pdf), "-o", str(tmp_path / "out.json")])
    assert res.exit_code == 0
    lines = [" ".join(line.split()) for line in res.output.splitlines() if "MuPDF" in line]
    assert lines and all(line.startswith(f"warning {pdf}: MuPDF: ") for line in lines), res.output
    assert any(line.endswith("(6 times)") for line in lines)


def test_a_new_version_keeps_the_tags_unless_told(tmp_path: Path) -> None:
    doc, store = tmp_path / "report.md", tmp_path / "s"
    doc.write_text("# Report\n\nFirst text.\n", encoding="utf-8")

    def ingest(*extra: str) -> dict[str, str]:
        res = runner.invoke(app, ["ingest", str(doc), "--store", str(store), *extra])
        assert res.exit_code == 0, res.output
        return Store(store).tree("report").meta

    assert ingest("--meta", "fy=2022", "--meta", "team=tax") == {"fy": "2022", "team": "tax"}
    assert ingest("--force") == {"fy": "2022", "team": "tax"}  # a forced rebuild used to drop them
    doc.write_text("# Report\n\nEdited text.\n", encoding="utf-8")
    assert ingest() == {"fy": "2022", "team": "tax"}  # so did a changed file
    res = runner.invoke(app, ["query", "text", "--filter", "fy=2022", "--store", str(store), "--json"])
    assert res.exit_code == 0 and '"doc_id": "report"' in res.output
    assert ingest("--force", "--meta", "fy=2023") == {"fy": "2023"}
    assert ingest("--force", "--clear-meta") == {}
    assert [v.version for v in Store(store).versions("report")] == [1, 2, 3, 4, 5]


def test_a_temporary_prefect_server_sends_no_telemetry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Offline, every backfill on a temporary server logged "Failed to send telemetry"; a user's setting wins."""
    from treebuild.cli.backfill import _prefect_environment

    for name in ("PREFECT_API_URL", "PREFECT_SERVER_ANALYTICS_ENABLED"):
        monkeypatch.delenv(name, raising=False)
    _prefect_environment()
    import os

    assert os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"
    monkeypatch.setenv("PREFECT_SERVER_ANALYTICS_ENABLED", "true")
    _prefect_environment()
    assert os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] == "true"
    monkeypatch.delenv("PREFECT_SERVER_ANALYTICS_ENABLED")
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:4200/api")  # a real server: its own settings
    _prefect_environment()
    assert "PREFECT_SERVER_ANALYTICS_ENABLED" not in os.environ
