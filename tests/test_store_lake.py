"""The DuckLake store: the contract on a local folder and on S3 (moto on 127.0.0.1), concurrent writers,
SIGKILLed commits, relocation, migration from the version-1 layout, compaction and garbage collection."""

from __future__ import annotations

import os
import random
import select
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import treebuild
from treebuild.cli import app
from treebuild.errors import StoreError
from treebuild.ingestion import ingest
from treebuild.settings import BuildSettings
from treebuild.store import Store
from treebuild.store.lake import load_extension

runner = CliRunner()


def big_md(n: int, tag: str = "") -> str:
    """A document with ``n`` sections: more rows than DuckLake inlines, so real Parquet files are written."""
    return "\n".join(f"# Part {i} {tag}\n\nBody of part {i} {tag}, with some words.\n" for i in range(n))


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def parquet_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.parquet"))


# ---------------------------------------------------------------- S3 on 127.0.0.1 (moto server mode)

MOTO = """import sys
from moto.server import ThreadedMotoServer
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()
"""
"""moto's S3 server on a port the system picks; it prints the port it bound and stops when stdin closes."""


@pytest.fixture(scope="module")
def s3() -> Iterator[dict[str, str]]:
    """A moto S3 server on loopback (the port it bound, never one picked here and released); yields the
    environment that points the store at it."""
    proc = subprocess.Popen([sys.executable, "-c", MOTO], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        line = proc.stdout.readline() if ready else ""  # the bound port; "" when the server could not start
        if not line.strip().isdigit():
            raise RuntimeError(f"moto server did not start (exit code {proc.poll()})")
        env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1",
               "AWS_ENDPOINT_URL": f"http://127.0.0.1:{int(line)}"}
        import boto3

        boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], region_name="us-east-1",
                     aws_access_key_id="testing", aws_secret_access_key="testing").create_bucket(Bucket="lake")
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        yield env
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    finally:
        if proc.stdin is not None:
            proc.stdin.close()  # the server stops
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(params=["local", "s3"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str | None]:
    """(store, catalog) for a local folder, or for an S3 prefix with a local SQLite catalog."""
    if request.param == "local":
        return str(tmp_path / "store"), None
    request.getfixturevalue("s3")
    return f"s3://lake/{tmp_path.name}", str(tmp_path / "catalog" / "catalog.sqlite")


def open_store(location: tuple[str, str | None]) -> Store:
    return Store(location[0], catalog=location[1])


def worker_env(location: tuple[str, str | None]) -> dict[str, str]:
    env = dict(os.environ)
    if location[1]:
        env["TREEBUILD_CATALOG"] = location[1]
    return env


# ---------------------------------------------------------------- the contract on both locations

def test_contract_ingest_versions_views_macros(location: tuple[str, str | None], tmp_path: Path) -> None:
    store = open_store(location)
    doc = write(tmp_path / "report.md", big_md(14))
    assert (ingest(doc, store).status, ingest(doc, store).status) == ("created", "unchanged")
    write(doc, big_md(14, "edited"))
    assert ingest(doc, store).version == 2
    assert [v.version for v in store.versions("report")] == [1, 2]
    assert store.sql("SELECT doc_id, version FROM latest_trees").to_pylist() == [{"doc_id": "report", "version": 2}]
    assert store.sql("SELECT count(*) AS n FROM latest_nodes").to_pylist() == [{"n": 14}]
    assert store.sql("SELECT count(*) AS n FROM nodes").to_pylist() == [{"n": 28}]
    old = store.sql("SELECT text FROM node_text('report', '0003', 1)").to_pylist()[0]["text"]
    new = store.sql("SELECT text FROM node_text('report', '0003')").to_pylist()[0]["text"]
    assert "edited" not in old and "edited" in new
    assert new == store.tree("report").node("0003").text()
    assert old == store.tree("report", 1).node("0003").text()
    assert store.sql("SELECT node_id FROM subtree('report', '0002', v := 1)").to_pylist() == [{"node_id": "0002"}]
    assert store.sql("SELECT count(*) AS n FROM node_path('report', '0005', NULL)").to_pylist() == [{"n": 1}]
    assert store.sql("SELECT schema_version FROM store_info").to_pylist() == [{"schema_version": 2}]
    assert store.verify() == []
    if location[0].startswith("s3://"):  # the data really is in the bucket, the catalog really is local
        assert not Path(location[0]).exists() and Path(location[1] or "").exists()
        assert store.sql(f"SELECT count(*) AS n FROM glob('{location[0]}/**/*.parquet')").to_pylist()[0]["n"] >= 4


WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from treebuild.ingestion import ingest_many
    from treebuild.store import Store
    store = Store(sys.argv[1])
    for r in ingest_many(sorted(Path(sys.argv[2]).glob("*.md")), store):
        print(r.doc_id, r.status, r.version, r.error or "")
""")


def _docs(folder: Path, n: int, prefix: str, sections: int = 12) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        write(folder / f"{prefix}{i:03d}.md", big_md(sections, f"{prefix}{i}"))
    return folder


def test_concurrent_writers_four_processes_25_documents_each(location: tuple[str, str | None],
                                                             tmp_path: Path) -> None:
    open_store(location).close()
    folders = [_docs(tmp_path / f"w{w}", 25, f"w{w}d") for w in range(4)]
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, location[0], str(f)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=worker_env(location)) for f in folders]
    outputs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outputs]
    lines = [line for o in outputs for line in o[0].splitlines()]
    assert len(lines) == 100 and all(" created 1" in line for line in lines), lines
    store = open_store(location)
    assert store.sql("SELECT count(*) AS docs, count(DISTINCT doc_id) AS ids, max(version) AS v FROM trees"
                     ).to_pylist() == [{"docs": 100, "ids": 100, "v": 1}]
    assert store.verify() == []


# ---------------------------------------------------------------- the same documents from four processes

READER = textwrap.dedent("""
    import sys, time
    from treebuild.store import Store
    store = Store(sys.argv[1], create=False)
    deadline = time.monotonic() + float(sys.argv[2])
    checks = 0
    while time.monotonic() < deadline:
        problems = store.verify()
        if problems:
            print("PARTIAL", problems)
            sys.exit(1)
        checks += 1
        time.sleep(0.05)
    print("checks", checks)
""")


def test_four_processes_ingest_the_same_40_documents(tmp_path: Path) -> None:
    store_dir = tmp_path / "s"
    folder = _docs(tmp_path / "docs", 40, "same")
    ingest(folder / "same000.md", store_dir)  # the catalog exists before the reader starts
    reader = subprocess.Popen([sys.executable, "-c", READER, str(store_dir), "3600"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(store_dir), str(folder)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [p.communicate(timeout=600) for p in procs]
    reader.send_signal(signal.SIGINT)
    reader_out = reader.communicate(timeout=60)
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outputs]
    assert "PARTIAL" not in reader_out[0], reader_out
    lines = [line.split() for o in outputs for line in o[0].splitlines()]
    created = sorted(doc for doc, status, *_ in lines if status == "created")
    assert created == sorted(f"same{i:03d}" for i in range(1, 40))  # each exactly once; same000 was stored before
    assert all(status in {"created", "unchanged"} for _, status, *_ in lines)
    store = Store(store_dir)
    assert store.sql("SELECT count(*) AS n, count(DISTINCT doc_id) AS d, max(version) AS v FROM trees").to_pylist() \
        == [{"n": 40, "d": 40, "v": 1}]
    assert store.verify() == []
    assert list(store_dir.rglob("*.tmp")) == []


# ---------------------------------------------------------------- SIGKILL at random points

def test_sigkill_at_random_points_then_next_run_completes(location: tuple[str, str | None], tmp_path: Path) -> None:
    """A smaller run of bench/kill_test.py: ingests of a folder are killed at random moments."""
    folder = _docs(tmp_path / "docs", 6, "k", sections=40)
    rng = random.Random(7)
    open_store(location).close()
    for _ in range(4):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, location[0], str(folder)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=worker_env(location))
        time.sleep(rng.uniform(1.5, 5.0))
        proc.kill()
        proc.wait()
        store = open_store(location)
        assert store.verify() == []
        for d in store.documents():
            assert len(list(store.tree(d.doc_id).walk())) == 40
        store.close()
    done = subprocess.run([sys.executable, "-c", WRITER, location[0], str(folder)], capture_output=True, text=True,
                          timeout=600, env=worker_env(location))
    assert done.returncode == 0, done.stderr
    store = open_store(location)
    assert sorted(d.doc_id for d in store.documents()) == [f"k{i:03d}" for i in range(6)]
    assert all(d.version == 1 for d in store.documents()) and store.verify() == []


# ---------------------------------------------------------------- relocation (issue 11, item 2)

def test_copied_store_works_after_the_original_is_deleted(tmp_path: Path) -> None:
    original = tmp_path / "original"
    ingest(write(tmp_path / "a.md", big_md(20, "alpha")), original)
    ingest(write(tmp_path / "b.md", big_md(15, "beta")), original)
    assert parquet_files(original / "data")  # real data files, not only rows inlined in the catalog
    copy = tmp_path / "moved" / "copy"
    shutil.copytree(original, copy)
    shutil.rmtree(original)
    # Python API
    store = Store(copy)
    assert store.tree("a").node("0004").text().startswith("Part 4 alpha")
    # the CLI
    res = runner.invoke(app, ["list", "--store", str(copy)])
    assert res.exit_code == 0 and "a" in res.output and "b" in res.output, res.output
    # a plain DuckDB client: from the store folder with the catalog's relative data path, or from anywhere
    # with the data path given; it reads the copy's files (the original is gone)
    for cwd, attach in [(copy, "ATTACH 'ducklake:sqlite:catalog.sqlite' AS tb (READ_ONLY)"),
                        (tmp_path, f"ATTACH 'ducklake:sqlite:{copy}/catalog.sqlite' AS tb "
                                   f"(READ_ONLY, DATA_PATH '{copy}/data/', OVERRIDE_DATA_PATH true)")]:
        script = textwrap.dedent(f"""
            import duckdb
            from treebuild.store.lake import load_extension
            con = duckdb.connect()
            for name in ("ducklake", "sqlite_scanner"):
                load_extension(con, name)
            con.execute("{attach}")
            con.execute("USE tb")
            print(con.execute("SELECT text FROM node_text('b', '0007')").fetchone()[0].split()[:3])
        """)
        out = subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "['Part', '7', 'beta']"
    # writing into the copy writes inside the copy
    ingest(write(tmp_path / "c.md", big_md(12, "gamma")), store)
    assert not original.exists()
    assert store.tree("c").node("0001").text().startswith("Part 1 gamma")
    assert all(copy in f.parents for f in parquet_files(copy))


# ---------------------------------------------------------------- migration from schema version 1

def test_migrate_a_version_1_store(tmp_path: Path) -> None:
    from legacy_store_v1 import write_v1

    root = tmp_path / "old"
    shash = BuildSettings().hash()
    docs = {name: write(tmp_path / f"{name}.md", big_md(n, name)) for name, n in [("one", 3), ("two", 16)]}
    built = {name: treebuild.build(p) for name, p in docs.items()}
    for name, tree in built.items():
        tree.meta = {"fy": "2022"}
        assert write_v1(root, tree, doc_id=name, settings_hash=shash) == 1
    write_v1(root, treebuild.build(write(tmp_path / "two-edit.md", big_md(17, "two"))), doc_id="two",
             settings_hash="other")
    write_v1(root, built["one"], doc_id="one", settings_hash=shash, with_tree_row=False)  # a killed commit
    with pytest.raises(StoreError, match="schema version 1.*treebuild migrate"):
        Store(root)
    res = runner.invoke(app, ["migrate", "--store", str(root)])
    assert res.exit_code == 0, res.output
    assert "migrated 3 versions of 2 documents" in res.output and "skipped 2 orphan files" in res.output
    store = Store(root)
    assert [v.version for v in store.versions("one")] == [1]
    assert [v.version for v in store.versions("two")] == [1, 2]
    for name, tree in built.items():
        loaded = store.tree(name, 1)
        assert [(n.node_id, n.title, n.text()) for n in loaded.walk()] == \
            [(n.node_id, n.title, n.text()) for n in tree.walk()]
        assert loaded.meta == {"fy": "2022"}
    assert store.sql("SELECT DISTINCT schema_version FROM trees").to_pylist() == [{"schema_version": 1}]
    assert store.sql("SELECT count(*) AS n FROM node_text('two', '0016')").to_pylist() == [{"n": 1}]
    assert ingest(docs["one"], store).status == "unchanged"  # sha256 and settings hash came along
    assert ingest(write(docs["two"], big_md(16, "two, edited")), store).version == 3
    assert (root / "v1-backup" / "trees" / "one" / "v000001.parquet").exists() and not (root / "trees").exists()
    assert store.verify() == []


# ---------------------------------------------------------------- compaction and garbage collection

CRASH = textwrap.dedent("""
    import os, signal, sys
    from treebuild.ingestion import ingest
    from treebuild.store import Store
    store = Store(sys.argv[1])
    store._crash_hook = lambda p: os.kill(os.getpid(), signal.SIGKILL) if p == "before_commit" else None
    ingest(sys.argv[2], store, force=True)
""")


def test_gc_removes_orphans_of_killed_commits_and_applies_retention(tmp_path: Path) -> None:
    store_dir = tmp_path / "s"
    doc = write(tmp_path / "g.md", big_md(20, "g"))
    store = Store(store_dir)
    for _ in range(3):
        ingest(doc, store, force=True)
    listed = len(parquet_files(store_dir / "data"))
    proc = subprocess.run([sys.executable, "-c", CRASH, str(store_dir), str(doc)], capture_output=True, timeout=120)
    assert proc.returncode == -9
    assert len(parquet_files(store_dir / "data")) > listed  # the killed commit's files are on disk
    assert store.gc()["files_deleted"] == 0  # younger than the grace period: a commit might still be running
    assert store.gc(grace=__import__("datetime").timedelta(0))["files_deleted"] >= 2
    assert len(parquet_files(store_dir / "data")) == listed
    res = runner.invoke(app, ["gc", "--store", str(store_dir), "--keep-versions", "1", "--grace", "0s"])
    assert res.exit_code == 0, res.output
    assert "deleted 2 old versions" in res.output
    assert [v.version for v in store.versions("g")] == [3]
    assert store.tree("g").node("0005").text().startswith("Part 5 g")
    assert len(parquet_files(store_dir / "data")) < listed
    assert store.verify() == []
    with pytest.raises(StoreError, match="at least 1"):
        store.gc(keep_versions=0)


def test_compact_merges_small_files_and_reads_stay_equal(tmp_path: Path) -> None:
    store_dir = tmp_path / "s"
    store = Store(store_dir)
    for i in range(8):
        ingest(write(tmp_path / f"c{i}.md", big_md(12, f"c{i}")), store)
    before = {d.doc_id: [n.text() for n in store.tree(d.doc_id).walk()] for d in store.documents()}
    res = runner.invoke(app, ["compact", "--store", str(store_dir)])
    assert res.exit_code == 0, res.output
    counts = [int(x) for x in res.output.split("data files:")[1].split("(")[0].split("->")]
    assert counts[1] < counts[0]
    assert {d.doc_id: [n.text() for n in store.tree(d.doc_id).walk()] for d in store.documents()} == before
    on_disk = len(parquet_files(store_dir / "data"))
    store.gc(grace=__import__("datetime").timedelta(0))
    assert len(parquet_files(store_dir / "data")) < on_disk
    assert {d.doc_id: [n.text() for n in store.tree(d.doc_id).walk()] for d in store.documents()} == before


def test_s3_store_needs_a_catalog(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="needs a catalog location"):
        Store("s3://lake/prefix")


def test_plain_duckdb_sees_no_uncommitted_rows_of_a_running_commit(tmp_path: Path) -> None:
    """The commit point is the DuckLake transaction: a client attached meanwhile sees the old state."""
    store = Store(tmp_path / "s")
    doc = write(tmp_path / "t.md", big_md(11))
    ingest(doc, store)
    con = duckdb.connect()
    for name in ("ducklake", "sqlite_scanner"):
        load_extension(con, name)
    con.execute(f"ATTACH 'ducklake:sqlite:{store.catalog_path}' AS tb (READ_ONLY)")
    seen = []
    store._crash_hook = lambda point: seen.append(con.execute("SELECT count(*) FROM tb.nodes").fetchone())
    ingest(doc, store, force=True)
    assert seen == [(11,)] * 3
    assert con.execute("SELECT count(*) FROM tb.nodes").fetchone() == (22,)
    con.close()


def test_cli_on_an_s3_store(s3: dict[str, str], tmp_path: Path) -> None:
    env = {"TREEBUILD_CATALOG": str(tmp_path / "cat" / "catalog.sqlite")}
    doc = write(tmp_path / "cli.md", big_md(12, "cli"))
    store = f"s3://lake/{tmp_path.name}-cli"
    res = runner.invoke(app, ["ingest", str(doc), "--store", store], env=env)
    assert res.exit_code == 0 and "created" in res.output, res.output
    res = runner.invoke(app, ["sql", "SELECT count(*) AS n FROM latest_nodes", "--store", store, "-f", "csv"], env=env)
    assert res.exit_code == 0 and res.output.splitlines()[:2] == ["n", "12"], res.output
    res = runner.invoke(app, ["sql", "DROP VIEW latest_trees", "--store", store], env=env)
    assert res.exit_code == 1 and "read-only" in res.output, res.output
    res = runner.invoke(app, ["gc", "--store", store, "--grace", "0s"], env=env)
    assert res.exit_code == 0, res.output
    assert Store(store, catalog=env["TREEBUILD_CATALOG"]).tree("cli").node("0002").text().startswith("Part 2 cli")


# ---------------------------------------------------------------- paging, options, gc during commits

def test_list_pages_through_documents_by_doc_id(tmp_path: Path) -> None:
    store_dir = tmp_path / "s"
    store = Store(store_dir)
    for i in range(5):
        ingest(write(tmp_path / f"p{i}.md", big_md(3, f"p{i}")), store)
    ingest(write(tmp_path / "p2.md", big_md(3, "p2 edited")), store)  # p2 has two versions: a page shows v2
    every = store.documents()
    assert [(d.doc_id, d.version) for d in every] == [("p0", 1), ("p1", 1), ("p2", 2), ("p3", 1), ("p4", 1)]
    assert store.documents(limit=2, offset=1) == every[1:3]
    assert store.documents(limit=10, offset=4) == every[4:] and store.documents(limit=3, offset=5) == []
    assert store.document_count() == 5
    slots = {"_commit.lock"} | {f"doc-{i:04d}.lock" for i in range(4096)}  # lock files do not grow with documents
    assert {f.name for f in (store_dir / "locks").iterdir()} <= slots
    res = runner.invoke(app, ["list", "--store", str(store_dir), "--limit", "2", "--offset", "1"])
    assert res.exit_code == 0, res.output
    assert "p1" in res.output and "p2" in res.output and "p0" not in res.output and "p3" not in res.output
    assert "documents 2-3 of 5; next page: --offset 3" in res.output
    res = runner.invoke(app, ["list", "--store", str(store_dir), "--limit", "0"])
    assert res.exit_code == 0 and all(f"p{i}" in res.output for i in range(5)), res.output
    assert "of 5" not in res.output  # the whole list needs no footer


def test_every_store_command_takes_the_catalog_option() -> None:
    import typer.main

    group = typer.main.get_group(app)
    store_commands = {name for name, cmd in group.commands.items()
                      if any(p.name == "store" for p in cmd.params)}
    without = sorted(name for name in store_commands
                     if not any(p.name == "catalog" for p in group.commands[name].params))
    assert without == ["migrate"]  # migrate converts a version-1 folder, whose catalog is always inside it
    assert {"list", "show", "text", "sql", "ingest", "versions", "gc", "compact", "query", "backfill"} <= store_commands


def test_s3_location_stays_a_string(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="lost a slash"):
        Store(Path("s3://lake/prefix"), catalog=str(tmp_path / "c.sqlite"))


GC_LOOP = textwrap.dedent("""
    import sys
    from pathlib import Path
    from typer.testing import CliRunner
    from treebuild.cli import app
    runs = 0
    while not Path(sys.argv[2]).exists():
        res = CliRunner().invoke(app, ["gc", "--store", sys.argv[1], "--grace", "0s"])
        assert res.exit_code == 0, res.output
        runs += 1
    print(runs)
""")


def test_gc_while_another_process_commits_loses_nothing(tmp_path: Path) -> None:
    """`treebuild gc --grace 0s` in a loop while a writer process commits 8 documents: every commit
    stays whole and readable (gc takes the same short write lock as a commit, so it never sees a commit's
    files before they are referenced)."""
    store_dir = tmp_path / "s"
    folder = _docs(tmp_path / "docs", 8, "gcw", sections=15)
    Store(store_dir).close()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(store_dir), str(folder)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    stop = tmp_path / "stop"
    collector = subprocess.Popen([sys.executable, "-c", GC_LOOP, str(store_dir), str(stop)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, errs = writer.communicate(timeout=600)
    stop.touch()
    gc_out, gc_errs = collector.communicate(timeout=300)
    assert writer.returncode == 0, errs[-2000:]
    assert collector.returncode == 0 and int(gc_out) >= 2, gc_errs[-2000:]  # gc ran while the writer committed
    assert len(out.splitlines()) == 8 and all(" created 1" in line for line in out.splitlines()), out
    store = Store(store_dir)
    assert store.verify() == []
    assert sorted(d.doc_id for d in store.documents()) == [f"gcw{i:03d}" for i in range(8)]
    for d in store.documents():
        assert store.tree(d.doc_id).node("0007").text().startswith("Part 7 gcw")
    assert store.gc(grace=__import__("datetime").timedelta(0))["files_deleted"] == 0  # nothing was left behind


# ---------------------------------------------------------------- a shared PostgreSQL catalog

def _pg_binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(candidates[-1]) if candidates else None


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster reached through a Unix socket in a temp folder (no TCP port, trust
    auth); yields the DuckLake catalog string. PostgreSQL refuses to run as root, so as root it runs as an
    unprivileged user."""
    import pwd
    import tempfile

    initdb, pg_ctl = _pg_binary("initdb"), _pg_binary("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    as_user: dict[str, int] = {}
    if os.geteuid() == 0:
        account = next((a for a in ("postgres", "nobody") if _has_user(a)), None)
        if account is None:
            pytest.skip("running as root and no unprivileged account (postgres, nobody) to run PostgreSQL as")
        pw = pwd.getpwnam(account)
        as_user = {"user": pw.pw_uid, "group": pw.pw_gid}
    base = Path(tempfile.mkdtemp(prefix="tb-pg-"))
    base.chmod(0o777)  # the cluster's owner (maybe not us) writes here
    data, port = base / "data", 5432  # the socket file's name: the cluster listens on no TCP port
    subprocess.run([initdb, "-D", str(data), "-A", "trust", "-U", "tb", "-E", "UTF8", "--no-sync"], check=True,
                   capture_output=True, timeout=120, **as_user)  # type: ignore[call-overload]
    subprocess.run([pg_ctl, "-D", str(data), "-l", str(base / "server.log"), "-w", "-t", "60",
                    "-o", f"-h '' -p {port} -k {base} -F", "start"], check=True, capture_output=True,
                   timeout=120, **as_user)  # type: ignore[call-overload]
    try:
        yield f"postgres:dbname=postgres host={base} port={port} user=tb"  # a folder: libpq's Unix socket
    finally:
        subprocess.run([pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True, timeout=60,
                       **as_user)  # type: ignore[call-overload]
        shutil.rmtree(base, ignore_errors=True)


def _has_user(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def test_shared_postgres_catalog_two_writer_processes(postgres: str, tmp_path: Path) -> None:
    """Two processes commit different documents through one PostgreSQL catalog (no lock files: DuckLake's
    own transactions and our retries); a third reads everything back, through the CLI too."""
    store_dir = tmp_path / "shared"
    Store(store_dir, catalog=postgres).close()
    folders = [_docs(tmp_path / f"pg{w}", 5, f"pg{w}d") for w in range(2)]
    env = {**os.environ, "TREEBUILD_CATALOG": postgres}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(store_dir), str(f)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for f in folders]
    outputs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outputs]
    lines = [line for o in outputs for line in o[0].splitlines()]
    assert len(lines) == 10 and all(" created 1" in line for line in lines), lines
    store = Store(store_dir, catalog=postgres)
    assert store.sql("SELECT count(*) AS n, count(DISTINCT doc_id) AS d FROM trees").to_pylist() == [{"n": 10, "d": 10}]
    assert store.verify() == []
    assert store.sql("SELECT text FROM node_text('pg1d004', '0003')").to_pylist()[0]["text"].startswith("Part 3 pg1")
    assert not (store_dir / "catalog.sqlite").exists() and parquet_files(store_dir / "data")  # catalog is remote
    res = runner.invoke(app, ["list", "--store", str(store_dir), "--catalog", postgres, "--limit", "5"])
    assert res.exit_code == 0 and "pg0d004" in res.output and "documents 1-5 of 10" in res.output, res.output
