"""Store: versioning, atomic commits under crashes, round trips, the DuckLake catalog from other processes."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import treebuild
from treebuild.errors import NotFound, StoreError
from treebuild.ingestion import ingest, ingest_many
from treebuild.settings import BuildSettings
from treebuild.store import Store
from treebuild.store.lake import load_extension

MD = """# Alpha

Alpha body text about revenue.

## Alpha one

Details of alpha one.

# Beta

Beta text with the word liquidity.
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_same_bytes_one_version_changed_bytes_new_version(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    doc = write(tmp_path / "report.md", MD)
    first = ingest(doc, store)
    again = ingest(doc, store)
    assert (first.status, first.version) == ("created", 1)
    assert (again.status, again.version) == ("unchanged", 1)
    write(doc, MD.replace("liquidity", "solvency"))
    third = ingest(doc, store)
    assert (third.status, third.version) == ("created", 2)
    assert [v.version for v in store.versions("report")] == [1, 2]
    # both versions queryable by SQL, old text intact
    rows = store.sql("SELECT version, count(*) AS n FROM nodes WHERE doc_id = 'report' GROUP BY version "
                     "ORDER BY version").to_pylist()
    assert rows == [{"version": 1, "n": 3}, {"version": 2, "n": 3}]
    old = store.sql("SELECT text FROM node_text('report', '0002', 1)").to_pylist()[0]["text"]
    new = store.sql("SELECT text FROM node_text('report', '0002')").to_pylist()[0]["text"]
    assert "liquidity" in old and "solvency" in new
    latest = store.sql("SELECT version FROM latest_trees WHERE doc_id = 'report'").to_pylist()
    assert latest == [{"version": 2}]


def test_changed_settings_make_new_version(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    doc = write(tmp_path / "a.md", MD)
    assert ingest(doc, store).version == 1
    res = ingest(doc, store, settings=BuildSettings(max_node_pages=5))
    assert (res.status, res.version) == ("created", 2)
    assert ingest(doc, store, settings=BuildSettings(max_node_pages=5)).status == "unchanged"
    assert ingest(doc, store, force=True).version == 3


def test_source_link_and_meta_recorded(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    doc = write(tmp_path / "tagged.md", MD)
    ingest(doc, store, meta={"fy": "2022", "team": "risk"})
    row = store.sql("SELECT * FROM latest_trees").to_pylist()[0]
    assert row["source_uri"] == doc.resolve().as_uri()
    assert row["sha256"] == __import__("hashlib").sha256(doc.read_bytes()).hexdigest()
    assert row["size_bytes"] == doc.stat().st_size
    assert row["format"] == "markdown" and row["node_count"] == 3
    assert dict(row["meta"]) == {"fy": "2022", "team": "risk"}
    assert row["builder_version"] == treebuild.__version__
    assert row["build_seconds"] >= 0 and row["schema_version"] == 2 and row["load_id"]
    assert store.sql("SELECT meta['fy'] AS fy FROM trees").to_pylist() == [{"fy": "2022"}]
    node_loads = store.sql("SELECT DISTINCT load_id FROM nodes").to_pylist()
    assert node_loads == [{"load_id": row["load_id"]}]


def test_tree_api_round_trip(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    doc = write(tmp_path / "api.md", MD)
    built = treebuild.build(doc)
    ingest(doc, store)
    loaded = store.tree("api")
    assert [(n.node_id, n.title, n.depth, n.parent_id) for n in loaded.walk()] == \
        [(n.node_id, n.title, n.depth, n.parent_id) for n in built.walk()]
    assert [n.text() for n in loaded.walk()] == [n.text() for n in built.walk()]
    child = loaded.node("0001")
    assert [p.title for p in child.path()] == ["Alpha", "Alpha one"]
    assert loaded.doc_id == "api" and loaded.version == 1
    assert [d.doc_id for d in store.documents()] == ["api"]
    with pytest.raises(NotFound, match="no document 'nope'"):
        store.tree("nope")
    with pytest.raises(NotFound, match="has no version 7"):
        store.tree("api", 7)


def test_invalid_doc_id_and_missing_store(tmp_path: Path) -> None:
    doc = write(tmp_path / "x.md", MD)
    with pytest.raises(StoreError, match="invalid doc_id"):
        ingest(doc, tmp_path / "s", doc_id="../escape")
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "missing", create=False)


def test_batch_goes_on_past_bad_documents(tmp_path: Path) -> None:
    good = write(tmp_path / "good.md", MD)
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7 this is not really a pdf")
    clash = tmp_path / "sub"
    clash.mkdir()
    write(clash / "good.md", MD + "\nmore\n")
    results = ingest_many([bad, good, clash / "good.md"], tmp_path / "s")
    statuses = {(Path(r.path).name, Path(r.path).parent.name): r.status for r in results}
    assert statuses[("broken.pdf", tmp_path.name)] == "error"
    assert statuses[("good.md", tmp_path.name)] == "created"
    assert statuses[("good.md", "sub")] == "error"
    errors = [r.error or "" for r in results if r.status == "error"]
    assert any("broken.pdf" in e and "PDF" in e for e in errors)
    assert any("also derived from" in e for e in errors)


# ---------------------------------------------------------------- crash injection

CRASH_SCRIPT = textwrap.dedent("""
    import os, signal, sys
    from treebuild.ingestion import ingest
    from treebuild.store import Store
    store = Store(sys.argv[1])
    point = sys.argv[3]
    store._crash_hook = lambda p: os.kill(os.getpid(), signal.SIGKILL) if p == point else None
    ingest(sys.argv[2], store)
""")


@pytest.mark.parametrize("point", ["after_units", "after_nodes", "before_commit"])
def test_killed_commit_leaves_nothing_visible_and_next_run_completes(tmp_path: Path, point: str) -> None:
    store_dir = tmp_path / "s"
    doc = write(tmp_path / "crash.md", MD)
    ingest(doc, store_dir)  # version 1 is committed
    write(doc, MD + "\n# Gamma\n\nNew section.\n")
    proc = subprocess.run([sys.executable, "-c", CRASH_SCRIPT, str(store_dir), str(doc), point],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    store = Store(store_dir)
    assert [v.version for v in store.versions("crash")] == [1]
    counts = store.sql("SELECT (SELECT count(*) FROM nodes) AS n, (SELECT count(DISTINCT version) FROM units) AS u, "
                       "(SELECT count(*) FROM trees) AS t").to_pylist()[0]
    assert counts == {"n": 3, "u": 1, "t": 1}
    assert "Gamma" not in store.tree("crash").doc.units[-1].text
    res = ingest(doc, store)
    assert (res.status, res.version) == ("created", 2)
    assert [n.title for n in store.tree("crash").roots] == ["Alpha", "Beta", "Gamma"]
    assert store.sql("SELECT count(*) AS n FROM nodes WHERE version = 2").to_pylist() == [{"n": 4}]
    assert list(store_dir.rglob("*.tmp")) == []


# ---------------------------------------------------------------- other processes

def test_catalog_opens_from_another_process_and_directory(tmp_path: Path) -> None:
    """A plain DuckDB client (extensions loaded from their wheels) attaches the catalog file and sees the
    views and macros, from another working directory, without being told where the data is."""
    store = Store(tmp_path / "s")
    ingest(write(tmp_path / "one.md", MD), store)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = subprocess.run([sys.executable, "-c", CLIENT, str(store.catalog_path)], cwd=elsewhere, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["3", "Alpha/Alpha one", "1"]
    # a second document committed later is visible to a client attached before the commit
    con = duckdb.connect()
    for name in ("ducklake", "sqlite_scanner"):
        load_extension(con, name)
    con.execute(f"ATTACH 'ducklake:sqlite:{store.catalog_path}' AS tb (READ_ONLY)")
    assert con.execute("SELECT count(*) FROM tb.latest_trees").fetchone() == (1,)
    ingest(write(tmp_path / "two.md", MD), store)
    assert con.execute("SELECT count(*) FROM tb.latest_trees").fetchone() == (2,)
    con.close()


CLIENT = textwrap.dedent("""
    import sys, duckdb
    from treebuild.store.lake import load_extension
    con = duckdb.connect()
    for name in ("ducklake", "sqlite_scanner"):
        load_extension(con, name)
    con.execute(f"ATTACH 'ducklake:sqlite:{sys.argv[1]}' AS tb (READ_ONLY)")
    con.execute("USE tb")
    print(con.execute("SELECT count(*) FROM latest_nodes").fetchone()[0])
    print(con.execute("SELECT string_agg(title, '/') FROM node_path('one', '0001')").fetchone()[0])
    print(con.execute("SELECT count(*) FROM latest_trees").fetchone()[0])
""")


WORKER = textwrap.dedent("""
    import sys
    from treebuild.ingestion import ingest
    r = ingest(sys.argv[2], sys.argv[1])
    print(r.doc_id, r.status, r.version)
""")


def test_parallel_processes_ingest_different_and_same_documents(tmp_path: Path) -> None:
    store_dir = tmp_path / "s"
    Store(store_dir)
    docs = [write(tmp_path / f"doc{i}.md", MD + f"\n# Extra {i}\n\ntext {i}\n") for i in range(4)]
    targets = docs + [docs[0]]  # doc0 twice at the same time
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(store_dir), str(d)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for d in targets]
    outputs = [p.communicate(timeout=180) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outputs]
    lines = sorted(o[0].strip() for o in outputs)
    assert lines.count("doc0 created 1") == 1 and lines.count("doc0 unchanged 1") == 1
    store = Store(store_dir)
    assert sorted(d.doc_id for d in store.documents()) == ["doc0", "doc1", "doc2", "doc3"]
    assert all(v.version == 1 for d in store.documents() for v in store.versions(d.doc_id))


# ---------------------------------------------------------------- hypothesis round trip

title_text = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd"), whitelist_characters=" -"),
                     min_size=1, max_size=20).map(str.strip).filter(bool)
body_text = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd", "Zs"),
                                           whitelist_characters=".,;\u00e9\u4e2d"), min_size=0, max_size=80)
section = st.tuples(st.integers(1, 4), title_text, body_text)


# 12 examples (was 20): each one ingests a document and runs three macro queries per node, ~0.05-0.1 s each
# on DuckLake, so an example costs seconds; the Python round trip of every format is also checked, with
# more examples, in test_properties.
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sections=st.lists(section, min_size=1, max_size=8), preface=body_text)
def test_round_trip_python_and_sql(tmp_path_factory: pytest.TempPathFactory, sections: list[tuple[int, str, str]],
                                   preface: str) -> None:
    tmp = tmp_path_factory.mktemp("rt")
    lines = [preface.strip(), ""] if preface.strip() else []
    for level, title, body in sections:
        lines += ["#" * level + " " + title, "", body.strip(), ""]
    doc = write(tmp / "gen.md", "\n".join(lines))
    built = treebuild.build(doc)
    store = Store(tmp_path_factory.getbasetemp() / "round-trip-store")  # one store: each example a new document
    did = f"gen-{tmp.name}"
    ingest(doc, store, doc_id=did)
    loaded = store.tree(did)
    assert [(n.node_id, n.title, n.depth, n.ordinal, n.parent_id, n.start, n.end) for n in loaded.walk()] == \
        [(n.node_id, n.title, n.depth, n.ordinal, n.parent_id, n.start, n.end) for n in built.walk()]
    con = store.connect()
    for node in loaded.walk():
        sql_text = con.execute("SELECT text FROM node_text(?, ?)", [did, node.node_id]).fetchone()
        assert sql_text is not None and sql_text[0] == node.text()
        sub = con.execute("SELECT count(*) FROM subtree(?, ?)", [did, node.node_id]).fetchone()
        assert sub == (len(list(node.walk())),)
        path = [r[0] for r in con.execute("SELECT node_id FROM node_path(?, ?)", [did, node.node_id]).fetchall()]
        assert path == [p.node_id for p in node.path()]
    con.close()


def test_no_partial_version_visible_while_a_commit_is_open(tmp_path: Path) -> None:
    """Rows of a commit that has inserted units and nodes but not yet committed are invisible to readers."""
    store = Store(tmp_path / "s")
    doc = write(tmp_path / "o.md", MD)
    ingest(doc, store)
    seen: list[tuple[int, int, list[int]]] = []

    def look(point: str) -> None:
        reader = Store(tmp_path / "s", create=False)
        n = reader.sql("SELECT count(*) AS n FROM nodes").to_pylist()[0]["n"]
        u = reader.sql("SELECT count(DISTINCT version) AS n FROM units").to_pylist()[0]["n"]
        seen.append((n, u, [v.version for v in reader.versions("o")]))
        reader.close()

    store._crash_hook = look
    assert ingest(doc, store, force=True).version == 2
    assert seen == [(3, 1, [1])] * 3  # after units, after nodes, before commit: only version 1
    assert store.sql("SELECT count(*) AS n FROM nodes WHERE version = 2").to_pylist() == [{"n": 3}]


# ---------------------------------------------------------------- review findings

def test_reading_does_not_write_to_the_store(tmp_path: Path) -> None:
    import shutil

    store_dir = tmp_path / "s"
    ingest(write(tmp_path / "r.md", MD), store_dir)
    shutil.rmtree(store_dir / "locks")
    def files() -> list[tuple[Path, int]]:  # SQLite's WAL index (-shm/-wal) is how a reader shares the file
        return sorted((p.relative_to(store_dir), p.stat().st_mtime_ns) for p in store_dir.rglob("*")
                      if not p.name.endswith(("-shm", "-wal")))

    before = files()
    reader = Store(store_dir, create=False)
    assert [d.doc_id for d in reader.documents()] == ["r"]
    assert reader.tree("r").node("0001").title == "Alpha one"
    assert reader.sql("SELECT count(*) AS n FROM latest_nodes").to_pylist() == [{"n": 3}]
    reader.close()
    assert files() == before
    with pytest.raises(StoreError, match="not a treebuild store"):
        Store(tmp_path, create=False)


def test_corrupt_catalog_is_a_clear_error(tmp_path: Path) -> None:
    store_dir = tmp_path / "s"
    ingest(write(tmp_path / "c.md", MD), store_dir)
    (store_dir / "catalog.sqlite").write_bytes(b"garbage, not a database" * 100)
    with pytest.raises(StoreError, match="catalog.sqlite: cannot open the store catalog"):
        Store(store_dir, create=False)


def test_store_path_with_glob_characters_works(tmp_path: Path) -> None:
    store = Store(tmp_path / "st[ab]*")
    ingest(write(tmp_path / "g.md", MD), store)
    assert [d.doc_id for d in store.documents()] == ["g"]


BIG_MD = "\n".join(f"# Part {i}\n\nBody of part {i}.\n" for i in range(30))


def test_damaged_data_file_is_a_store_error(tmp_path: Path) -> None:
    store_dir = tmp_path / "s"
    ingest(write(tmp_path / "d.md", BIG_MD), store_dir)  # 30 nodes: written to Parquet, not inlined
    files = list((store_dir / "data").rglob("*.parquet"))
    assert files
    for f in files:
        f.write_bytes(b"PAR1 broken")
    with pytest.raises(StoreError, match="cannot read the store"):
        Store(store_dir).tree("d")


def test_node_text_of_unknown_node_has_no_rows(tmp_path: Path) -> None:
    store = Store(tmp_path / "s")
    ingest(write(tmp_path / "n.md", MD), store)
    assert store.sql("SELECT * FROM node_text('n', '9999')").num_rows == 0
    assert store.sql("SELECT * FROM node_text('nope', '0000')").num_rows == 0
    assert store.sql("SELECT * FROM node_text('n', '0000', 5)").num_rows == 0
    assert store.sql("SELECT * FROM node_text('n', '0000')").num_rows == 1


@pytest.mark.parametrize(("name", "expected"), [
    ("Annual Report 2022.pdf", "Annual-Report-2022"),
    ("Übersicht für Prüfer.pdf", "Ubersicht-fur-Prufer"),
])
def test_default_doc_id_transliterates(name: str, expected: str) -> None:
    from treebuild.store import doc_id_for

    assert doc_id_for(name) == expected


def test_default_doc_id_of_non_latin_names_does_not_collide() -> None:
    from treebuild.store import doc_id_for, valid_doc_id

    a, b = doc_id_for("年度报告.pdf"), doc_id_for("季度报告.pdf")
    assert a != b and valid_doc_id(a) == a and valid_doc_id(b) == b
    assert doc_id_for("Отчёт 2022.docx").endswith(tuple("0123456789abcdef"))


def test_folder_ingest_skips_editor_lock_and_hidden_files(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    write(folder / "real.md", MD)
    (folder / "~$real.docx").write_bytes(b"lock")
    write(folder / ".draft.md", MD)
    results = ingest_many([folder], tmp_path / "s")
    assert [(Path(r.path).name, r.status) for r in results] == [("real.md", "created")]


WRITES = ["DROP VIEW trees", "CREATE TABLE t AS SELECT 1", "INSERT INTO trees SELECT * FROM trees",
          "COPY (SELECT 1) TO 'x.csv'", "ATTACH 'other.db'", "SET threads = 1", "SELECT 1; DROP VIEW nodes",
          "CHECKPOINT", "CALL ducklake_expire_snapshots('tb', versions => [1])",
          "SELECT * FROM ducklake_cleanup_old_files('tb', cleanup_all => true)"]


@pytest.mark.parametrize("statement", WRITES)
def test_store_sql_is_read_only_by_default(tmp_path: Path, statement: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard is the store's: Python callers get it as the CLI does (`treebuild sql`, tests/test_cli_ux.py),
    with the statement refused before it runs."""
    monkeypatch.chdir(tmp_path)
    store = Store(tmp_path / "s")
    ingest(write(tmp_path / "r.md", MD), store)
    for run in (store.sql, store.fetch):
        with pytest.raises(treebuild.TreebuildError, match="read-only: .* nothing was changed"):
            run(statement)
    assert store.sql("SELECT count(*) AS n FROM nodes").to_pylist() == [{"n": 3}]
    assert store.fetch("SELECT doc_id FROM latest_trees") == (["doc_id"], [("r",)])
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "other.db").exists()


def test_store_sql_runs_a_write_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = Store(tmp_path / "s")
    ingest(write(tmp_path / "r.md", MD), store)
    store.sql("COPY (SELECT doc_id FROM latest_trees) TO 'x.csv'", read_only=False)
    assert (tmp_path / "x.csv").read_text().split() == ["doc_id", "r"]
