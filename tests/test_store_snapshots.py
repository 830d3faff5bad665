"""Maintenance a reader never notices: a transaction (or an open Store) keeps one consistent snapshot through
`treebuild compact` and `treebuild gc` with the default grace, and `gc --grace` is honoured for the files
compaction replaced. Readers and writers also run in other processes during both."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from treebuild.ingestion import ingest
from treebuild.store import Store

# Per (doc_id, version): the tree row's counts, the rows really there, and a digest of their text.
SNAPSHOT_SQL = """
    WITH n AS (SELECT doc_id, version, count(*) AS c, sum(hash(title || coalesce(summary, ''))) AS h
               FROM nodes GROUP BY ALL),
         u AS (SELECT doc_id, version, count(*) AS c, sum(hash(text)) AS h FROM units GROUP BY ALL)
    SELECT t.doc_id, t.version, t.node_count, n.c AS nodes, n.h AS node_hash, t.unit_count, u.c AS units,
           u.h AS unit_hash
    FROM trees t LEFT JOIN n USING (doc_id, version) LEFT JOIN u USING (doc_id, version)
    ORDER BY t.doc_id, t.version"""


def big_md(n: int, tag: str) -> str:
    """More sections than DuckLake inlines in the catalog, so every commit writes Parquet files."""
    return "\n".join(f"# Part {i} {tag}\n\nBody of part {i} {tag}, with some words.\n" for i in range(n))


def snapshot(con: duckdb.DuckDBPyConnection) -> list[tuple[object, ...]]:
    rows = con.execute(SNAPSHOT_SQL).fetchall()
    assert rows, "the reader sees no tree at all"
    for r in rows:  # every version whole
        assert (r[2], r[5]) == (r[3], r[6]), r
    return rows


def parquet_files(store_dir: Path) -> set[Path]:
    return set((store_dir / "data").rglob("*.parquet"))


def cli(*args: str) -> str:
    res = subprocess.run([sys.executable, "-m", "treebuild", *args], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


def small_files_store(tmp_path: Path, docs: int = 5) -> Path:
    store_dir = tmp_path / "s"
    store = Store(store_dir)
    for i in range(docs):
        doc = tmp_path / f"d{i}.md"
        for v in range(2):
            doc.write_text(big_md(25, f"d{i}v{v}"), encoding="utf-8")
            ingest(doc, store)
    store.close()
    return store_dir


@pytest.mark.parametrize("where", ["another process", "this process"])
def test_a_reader_transaction_keeps_its_snapshot_through_compact_and_gc(tmp_path: Path, where: str) -> None:
    store_dir = small_files_store(tmp_path)
    reader = Store(store_dir, create=False).connect()
    reader.execute("BEGIN TRANSACTION")
    seen = snapshot(reader)
    files = parquet_files(store_dir)

    if where == "another process":
        out = cli("compact", "--store", str(store_dir))
        before, after = (int(x) for x in out.split("data files:")[1].split("(")[0].split("->"))
    else:
        counts = Store(store_dir).compact()
        before, after = counts["files_before"], counts["files_after"]
    assert after < before
    assert snapshot(reader) == seen  # the replaced files are still this transaction's files

    for args in (["gc"], ["gc", "--grace", "1h"]):  # the default grace, and the one the issue names
        if where == "another process":
            assert "and 0 files" in cli(*args, "--store", str(store_dir))
        else:
            assert Store(store_dir).gc()["files_deleted"] == 0
        assert snapshot(reader) == seen
        assert files <= parquet_files(store_dir)  # nothing the reader might read was deleted
    reader.execute("COMMIT")

    fresh = Store(store_dir, create=False)
    assert snapshot(reader) == seen == snapshot(fresh.connect())  # compaction moved rows, changed none
    assert Store(store_dir).gc(grace=timedelta(0))["files_deleted"] >= before - after
    assert not files & parquet_files(store_dir)  # every replaced file is gone once no one can need it
    assert snapshot(fresh.connect()) == seen
    assert fresh.verify() == []
    assert Store(store_dir).compact()["files_after"] == after  # merged once: nothing left to merge


def test_gc_grace_counts_from_when_a_snapshot_was_superseded(tmp_path: Path) -> None:
    """A store idle for longer than the grace period: its latest snapshot is old, and a reader pins it a moment
    before `compact`. gc must not expire that snapshot (nor delete its files) for a grace period counted from
    the compaction, not from when the snapshot was made."""
    store_dir = small_files_store(tmp_path, docs=3)
    store = Store(store_dir)
    pinned_at = store.sql("SELECT max(snapshot_time) AS t FROM ducklake_snapshots('tb')").to_pylist()[0]["t"]
    reader = Store(store_dir, create=False).connect()
    reader.execute("BEGIN TRANSACTION")
    seen = snapshot(reader)
    while datetime.now(UTC) <= pinned_at + timedelta(milliseconds=50):
        time.sleep(0.01)
    middle = datetime.now(UTC)  # after the pinned snapshot was made, before it was superseded
    while datetime.now(UTC) <= middle + timedelta(milliseconds=50):
        time.sleep(0.01)
    store.compact()
    # The grace that puts the cutoff between the pinned snapshot's making and the compaction: the pinned
    # snapshot is "older than the grace", but it was the latest until less than the grace ago.
    store.gc(grace=datetime.now(UTC) - middle)
    assert snapshot(reader) == seen
    reader.execute("COMMIT")
    assert snapshot(reader) == seen


def test_gc_deletes_files_replaced_by_compaction_only_after_the_grace(tmp_path: Path) -> None:
    store_dir = small_files_store(tmp_path, docs=3)
    store = Store(store_dir)
    files = parquet_files(store_dir)
    compacted_at = datetime.now(UTC)
    store.compact()
    assert store.gc(grace=timedelta(hours=1))["files_deleted"] == 0
    assert files <= parquet_files(store_dir)
    store.gc(grace=datetime.now(UTC) - compacted_at)  # the cutoff just before the compaction: still needed
    assert files <= parquet_files(store_dir)
    assert store.gc(grace=timedelta(0))["files_deleted"] >= len(files) - 3
    assert not files & parquet_files(store_dir)


READER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from treebuild.store import Store
    sql, stop = Path(sys.argv[2]).read_text(), Path(sys.argv[3])
    con = Store(sys.argv[1], create=False).connect()
    transactions = 0
    while not stop.exists():
        con.execute("BEGIN TRANSACTION")
        first = con.execute(sql).fetchall()
        time.sleep(0.3)  # maintenance and commits happen meanwhile
        second = con.execute(sql).fetchall()
        con.execute("COMMIT")
        broken = [r for r in first if (r[2], r[5]) != (r[3], r[6])]
        if first != second or broken:
            print("INCONSISTENT", first, second, broken)
            sys.exit(1)
        transactions += 1
    print(transactions)
""")

WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from treebuild.ingestion import ingest
    from treebuild.store import Store
    store = Store(sys.argv[1])
    for round in range(2):
        for i in range(8):
            doc = Path(sys.argv[2]) / f"w{i}.md"
            doc.write_text("\\n".join(f"# Part {j} w{i}r{round}\\n\\nBody {j} of w{i} round {round}.\\n"
                                     for j in range(20)))
            print(ingest(doc, store).status)
""")

MAINTENANCE = textwrap.dedent("""
    import sys
    from pathlib import Path
    from treebuild.store import Store
    runs = 0
    while not Path(sys.argv[2]).exists():
        store = Store(sys.argv[1])
        store.compact()
        store.gc()
        runs += 1
    print(runs)
""")


def test_readers_and_writers_during_compact_and_gc(tmp_path: Path) -> None:
    """A writer commits 16 versions, a reader checks in each of its transactions that two reads 0.3 s apart see
    the same whole versions, and another process runs compact + gc (default grace) in a loop meanwhile."""
    store_dir = small_files_store(tmp_path, docs=2)
    sql, stop, docs = tmp_path / "snapshot.sql", tmp_path / "stop", tmp_path / "w"
    sql.write_text(SNAPSHOT_SQL)
    docs.mkdir()
    popen = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
    reader = subprocess.Popen([sys.executable, "-c", READER, str(store_dir), str(sql), str(stop)], **popen)
    maintenance = subprocess.Popen([sys.executable, "-c", MAINTENANCE, str(store_dir), str(stop)], **popen)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(store_dir), str(docs)], **popen)
    try:
        out, err = writer.communicate(timeout=600)
    finally:
        stop.touch()
    read_out, read_err = reader.communicate(timeout=300)
    kept_out, kept_err = maintenance.communicate(timeout=600)
    assert writer.returncode == 0, err[-2000:]
    assert out.split() == ["created"] * 16
    assert reader.returncode == 0 and int(read_out) >= 3, (read_out[-3000:], read_err[-2000:])
    assert maintenance.returncode == 0 and int(kept_out) >= 2, kept_err[-2000:]
    store = Store(store_dir)
    assert store.verify() == []
    final = snapshot(store.connect())
    assert len(final) == 2 * 2 + 8 * 2
    store.gc(grace=timedelta(0))
    assert snapshot(store.connect()) == final
    for i in range(8):
        assert store.tree(f"w{i}").node("0004").text().startswith("Part 4 w")
