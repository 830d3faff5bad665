"""Compaction and garbage collection that an open reader never notices.

DuckLake's own maintenance calls are not snapshot-safe for readers already inside a transaction
(DuckLake 1.5.5):

- ``ducklake_merge_adjacent_files`` and ``ducklake_flush_inlined_data`` replace files *in place*: the
  old files leave the catalog and the merged file gets a new id. A transaction pinned to an earlier
  snapshot only considers files whose id is below that snapshot's ``next_file_id``, so it sees
  neither the old files nor the merged one: 0 rows, with no error.
- ``older_than`` on a SQLite catalog compares the stored text timestamp (``2026-01-02 10:00:00+00``)
  with a rendered one (``2026-01-02T09:00:00+00``) as strings, so everything of the cutoff's day
  counts as older than the cutoff: ``gc --grace 1h`` expired the snapshots and deleted the files of
  the last minutes.

So compaction here is an ordinary write transaction: the rows of a table's small files are inserted
again (sorted) and deleted from the old files, in one snapshot. The old files stay in the catalog as
files of the earlier snapshots, which is what a reader pinned there reads; they become garbage only
when those snapshots expire. Expiry picks snapshot ids itself, by the time a snapshot stopped being
the latest (a transaction pinned to it began before then), and the clean-up cutoff is chosen so that
it is conservative under both the string comparison and a correct one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import duckdb

from .lake import LAKE

__all__ = ["SMALL_FILE_BYTES", "rewrite_small_files", "expire_superseded", "scheduled_files", "cleanup_scheduled"]

# A data file below this size is merged by `compact`; larger files are left alone (a file this large is already
# read by row groups pruned on doc_id statistics, and rewriting it again would only copy its bytes).
SMALL_FILE_BYTES = 64 * 1024 * 1024
# Snapshot ids per ducklake_expire_snapshots call (the list is spelled out in the SQL text).
EXPIRE_BATCH = 500
_META = f'"__ducklake_metadata_{LAKE}"."main"'  # DuckLake's name for the attached catalog's own tables


def rewrite_small_files(cur: duckdb.DuckDBPyConnection, table: str, sort_keys: str) -> int:
    """Move the rows of ``table``'s small files (and its rows inlined in the catalog) into new files sorted by
    ``sort_keys``, in one transaction on ``cur``. Returns how many sources were merged (0: nothing to do).

    A file with deleted rows is rewritten whatever its size (its live rows only). Nothing is merged when there
    is a single small file and no inlined rows: one file is already as merged as it gets.
    """
    listed = cur.execute(f"SELECT data_file, data_file_size_bytes, delete_file FROM ducklake_list_files('{LAKE}', ?)",
                         [table]).fetchall()
    big = {path for path, size, deletes in listed if (size or 0) >= SMALL_FILE_BYTES and deletes is None}
    sources = [row[0] for row in cur.execute(f"SELECT DISTINCT filename FROM {table}").fetchall()]
    files = {path for path, _size, _deletes in listed}
    small = [s for s in sources if s not in big]
    inlined = [s for s in small if s not in files]
    if not inlined and len(small) < 2:
        return 0
    cur.execute("BEGIN")
    try:
        cur.execute("CREATE OR REPLACE TEMP TABLE _compact_sources (f VARCHAR)")
        cur.executemany("INSERT INTO _compact_sources VALUES (?)", [[s] for s in small])
        cur.execute(f"CREATE OR REPLACE TEMP TABLE _compact_rows AS SELECT rowid AS r FROM {table} "
                    "WHERE filename IN (SELECT f FROM _compact_sources)")
        cur.execute(f"INSERT INTO {table} SELECT * FROM {table} WHERE rowid IN (SELECT r FROM _compact_rows) "
                    f"ORDER BY {sort_keys}")
        cur.execute(f"DELETE FROM {table} WHERE rowid IN (SELECT r FROM _compact_rows)")
        cur.execute("DROP TABLE _compact_rows")
        cur.execute("DROP TABLE _compact_sources")
        cur.execute("COMMIT")
    except BaseException:
        try:
            cur.execute("ROLLBACK")
        except duckdb.Error:
            pass
        raise
    return len(small)


def expire_superseded(cur: duckdb.DuckDBPyConnection, cutoff: datetime) -> int:
    """Expire every snapshot that stopped being the latest before ``cutoff``; returns how many.

    A transaction pinned to a snapshot began while it was the latest, so one superseded before the cutoff
    is needed only by a transaction older than the grace period. (Its own creation time says nothing: a
    store idle for a week has a week-old latest snapshot that a reader may have pinned a second ago.)
    """
    rows = cur.execute(f"""
        SELECT snapshot_id FROM (
          SELECT snapshot_id, lead(snapshot_time) OVER (ORDER BY snapshot_id) AS superseded
          FROM ducklake_snapshots('{LAKE}'))
        WHERE superseded < ? ORDER BY snapshot_id""", [cutoff]).fetchall()
    ids = [int(r[0]) for r in rows]
    for i in range(0, len(ids), EXPIRE_BATCH):
        batch = ", ".join(str(s) for s in ids[i:i + EXPIRE_BATCH])
        cur.execute(f"CALL ducklake_expire_snapshots('{LAKE}', versions => [{batch}])")
    return len(ids)


def scheduled_files(cur: duckdb.DuckDBPyConnection) -> dict[int, datetime | None]:
    """The files DuckLake has scheduled for deletion: data_file_id -> when (None: a time that does not parse)."""
    rows = cur.execute(f"SELECT data_file_id, TRY_CAST(schedule_start AS TIMESTAMPTZ) "
                       f"FROM {_META}.ducklake_files_scheduled_for_deletion").fetchall()
    return {int(r[0]): r[1] for r in rows}


def cleanup_scheduled(cur: duckdb.DuckDBPyConnection, cutoff: datetime, earlier: dict[int, datetime | None]) -> None:
    """Delete the scheduled files no snapshot within the grace period can need.

    ``earlier`` is what was scheduled before this run's :func:`expire_superseded`: those count as unneeded
    once scheduled before ``cutoff``; files scheduled by this run's expiry were only used by snapshots
    superseded before ``cutoff`` and go now. When every scheduled file may go, all go. Otherwise the cutoff
    handed to DuckLake is the end of the (UTC) day before the youngest one's day: under the catalog's string
    comparison that selects whole days before it, under a correct comparison the files scheduled before it;
    either way only files older than the youngest to keep. The rest wait for a later run.
    """
    now = scheduled_files(cur)
    if not now:
        return
    keep = [t for i, t in now.items() if i in earlier and (t is None or t >= cutoff)]
    if not keep:
        cur.execute(f"CALL ducklake_cleanup_old_files('{LAKE}', cleanup_all => true)")
        return
    if any(t is None for t in keep):
        return  # a schedule time that does not parse: keep everything rather than guess
    day_start = min(t for t in keep if t is not None).astimezone(UTC).replace(hour=0, minute=0, second=0,
                                                                              microsecond=0)
    if any(t is not None and t < day_start for t in now.values()):
        limit = (day_start - timedelta(microseconds=1)).isoformat(sep=" ")
        cur.execute(f"CALL ducklake_cleanup_old_files('{LAKE}', older_than => TIMESTAMPTZ '{limit}')")
