"""A real Prefect flow run (one temporary server for the session) ingesting documents."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from treebuild.store import Store


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


def test_ingest_flow_commits_and_reports_errors(prefect_harness: None, tmp_path: Path) -> None:
    from flows.ingest import ingest_corpus

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nalpha\n\n## A1\n\nmore\n")
    (tmp_path / "docs" / "b.md").write_text("# B\n\nbeta\n")
    (tmp_path / "docs" / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    store = tmp_path / "store"
    results = ingest_corpus([str(tmp_path / "docs")], str(store), meta={"batch": "t1"})
    by_name = {Path(r["path"]).name: r for r in results}
    assert by_name["a.md"]["status"] == "created" and by_name["b.md"]["status"] == "created"
    assert by_name["broken.pdf"]["status"] == "error" and "broken.pdf" in by_name["broken.pdf"]["error"]
    st = Store(store)
    assert sorted(d.doc_id for d in st.documents()) == ["a", "b"]
    assert st.tree("a").meta == {"batch": "t1"}
    again = ingest_corpus([str(tmp_path / "docs")], str(store))
    assert sorted(r["status"] for r in again) == ["error", "unchanged", "unchanged"]
