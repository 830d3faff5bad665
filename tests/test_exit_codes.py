"""Every row of the exit-code table in docs/bad-inputs.md, run as written: the same situation gives the same exit
code in every command (0 success, 1 a document or data error, 2 usage)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treebuild.cli import app
from treebuild.ingestion import ingest

DOCS = Path(__file__).resolve().parent.parent / "docs" / "bad-inputs.md"
runner = CliRunner()


def table() -> list[tuple[str, str, int]]:
    section = DOCS.read_text(encoding="utf-8").split("## Exit codes", 1)[1]
    rows = re.findall(r"^\| ([^|]+?) \| `([^`]+)` \| (\d) \|$", section, flags=re.M)
    return [(situation, command, int(code)) for situation, command, code in rows]


def test_the_table_has_every_kind_of_row() -> None:
    rows = table()
    assert len(rows) >= 20 and {code for *_, code in rows} == {0, 1, 2}


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("exit")
    md = tmp / "a.md"
    md.write_text("# Alpha\n\nThe first section.\n\n# Beta\n\nThe second section.\n", encoding="utf-8")
    bad = tmp / "bad.pdf"
    bad.write_bytes(b"this is not a PDF at all\n" * 40)
    (tmp / "EMPTY").mkdir()
    ingest(md, tmp / "S")
    return {"S": str(tmp / "S"), "EMPTY": str(tmp / "EMPTY"), "MISSING": str(tmp / "MISSING"), "a.md": str(md),
            "bad.pdf": str(bad), "OUT": str(tmp / "out.json")}


@pytest.mark.parametrize(("situation", "command", "code"), table(), ids=[c for _, c, _ in table()])
def test_each_listed_case_exits_as_documented(places: dict[str, str], situation: str, command: str,
                                              code: int) -> None:
    words = shlex.split(command)
    assert words[0] == "treebuild"
    args = [places.get(w, w) for w in words[1:]]
    res = runner.invoke(app, args)
    assert res.exit_code == code, f"{situation}: {command} -> {res.exit_code}\n{res.output}"
    assert "Traceback" not in res.output
    if code == 1:
        assert "error" in res.output.lower() or "failed" in res.output.lower(), res.output
