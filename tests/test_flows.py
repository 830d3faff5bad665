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


def test_shards_split_a_corpus_without_overlap(prefect_harness: None, tmp_path: Path) -> None:
    from flows.ingest import ingest_corpus

    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(5):
        (docs / f"d{i}.md").write_text(f"# Doc {i}\n\nbody {i}\n")
    store = str(tmp_path / "store")
    first = ingest_corpus([str(docs)], store, shard=0, shards=2)
    second = ingest_corpus([str(docs)], store, shard=1, shards=2)
    names = sorted(Path(r["path"]).name for r in first + second)
    assert names == [f"d{i}.md" for i in range(5)]
    assert len(first) == 3 and len(second) == 2
    assert len(Store(store).documents()) == 5


def test_deployment_file_points_at_the_flow_with_valid_parameters() -> None:
    """deploy/prefect.yaml names real entrypoints, and its parameters are ones the flow accepts."""
    import importlib
    import inspect

    import yaml

    root = Path(__file__).resolve().parent.parent
    spec = yaml.safe_load((root / "deploy" / "prefect.yaml").read_text())
    assert spec["deployments"]
    for dep in spec["deployments"]:
        path, func = dep["entrypoint"].split(":")
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        flow_obj = getattr(module, func)
        accepted = set(inspect.signature(flow_obj.fn).parameters)
        assert set(dep["parameters"]) <= accepted, dep["name"]
        assert dep["work_pool"]["name"]
