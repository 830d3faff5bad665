"""The storage contract in schemas/ matches the code that writes and reads the store."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from treebuild.store import GRIDS, NODES, TREES, UNITS
from treebuild.store.catalog import table_sql, view_sql

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@pytest.mark.parametrize(("name", "schema"), [("trees", TREES), ("nodes", NODES), ("units", UNITS), ("grids", GRIDS)])
def test_every_column_is_documented(name: str, schema) -> None:  # type: ignore[no-untyped-def]
    text = (SCHEMAS / "README.md").read_text()
    section = text.split(f"## Table `{name}`", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| (\w+) \|", section, flags=re.M)
    assert [c for c in documented if c != "column"] == schema.names


def test_views_sql_is_current() -> None:
    text = (SCHEMAS / "views.sql").read_text()
    body = "\n".join(line for line in text.splitlines() if not line.startswith("-- "))
    assert body.strip() == (table_sql() + "\n" + view_sql()).strip()
