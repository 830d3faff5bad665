"""DuckDB views and macros over the store's Parquet files.

The same SQL serves an in-memory connection (``treebuild sql``, ``Store.sql``) and the
``catalog.duckdb`` file kept in the store, which any DuckDB client can open from any working
directory because the views use absolute paths. Nodes and units are only visible for versions
whose tree row exists: the tree row is the commit point.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

__all__ = ["view_sql", "connect", "write_catalog", "CATALOG_NAME", "CATALOG_FORMAT"]

CATALOG_NAME = "catalog.duckdb"
CATALOG_FORMAT = "2"  # bump when the views change, so existing catalogs are rewritten


def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def view_sql(root: Path) -> str:
    """All view and macro definitions for a store at ``root`` (absolute paths)."""
    root = root.resolve()

    def glob(table: str) -> str:
        return _q(str(root / table / "*" / "*.parquet"))

    return f"""
CREATE OR REPLACE VIEW trees AS
  SELECT * FROM read_parquet({glob('trees')}, union_by_name = true, hive_partitioning = false);
CREATE OR REPLACE VIEW nodes AS
  SELECT n.* FROM read_parquet({glob('nodes')}, union_by_name = true, hive_partitioning = false) n
  SEMI JOIN trees t ON n.doc_id = t.doc_id AND n.version = t.version;
CREATE OR REPLACE VIEW units AS
  SELECT u.* FROM read_parquet({glob('units')}, union_by_name = true, hive_partitioning = false) u
  SEMI JOIN trees t ON u.doc_id = t.doc_id AND u.version = t.version;
CREATE OR REPLACE VIEW latest_trees AS
  SELECT * FROM trees QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY version DESC) = 1;
CREATE OR REPLACE VIEW latest_nodes AS
  SELECT n.* FROM nodes n SEMI JOIN latest_trees t ON n.doc_id = t.doc_id AND n.version = t.version;
CREATE OR REPLACE MACRO tree_version(d, v) AS
  coalesce(v, (SELECT max(version) FROM trees WHERE doc_id = d));
CREATE OR REPLACE MACRO subtree(d, nid, v := NULL) AS TABLE
  SELECT * FROM nodes
  WHERE doc_id = d AND version = tree_version(d, v) AND (node_id = nid OR list_contains(path_ids, nid))
  ORDER BY node_id;
CREATE OR REPLACE MACRO node_path(d, nid, v := NULL) AS TABLE
  WITH target AS (
    SELECT path_ids FROM nodes WHERE doc_id = d AND version = tree_version(d, v) AND node_id = nid
  )
  SELECT n.* FROM nodes n, target
  WHERE n.doc_id = d AND n.version = tree_version(d, v)
    AND (n.node_id = nid OR list_contains(target.path_ids, n.node_id))
  ORDER BY n.depth;
CREATE OR REPLACE MACRO node_text(d, nid, v := NULL) AS TABLE
  WITH n AS (
    SELECT * FROM nodes WHERE doc_id = d AND version = tree_version(d, v) AND node_id = nid
  )
  SELECT n.doc_id, n.version, n.node_id, n.title,
         coalesce(string_agg(
           CASE
             WHEN u.unit_index = n.start_unit AND u.unit_index = n.end_unit
               THEN substr(u.text, n.start_char + 1, n.end_char - n.start_char)
             WHEN u.unit_index = n.start_unit THEN substr(u.text, n.start_char + 1)
             WHEN u.unit_index = n.end_unit THEN substr(u.text, 1, n.end_char)
             ELSE u.text
           END, chr(10) ORDER BY u.unit_index), '') AS text
  FROM n JOIN units u
    ON u.doc_id = n.doc_id AND u.version = n.version
   AND u.unit_index BETWEEN n.start_unit AND n.end_unit
   AND NOT (u.unit_index = n.end_unit AND n.end_char = 0 AND n.end_unit > n.start_unit)
  GROUP BY n.doc_id, n.version, n.node_id, n.title;
"""


def connect(root: Path, database: str = ":memory:", read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection with the store's views defined (in memory unless ``database`` is given)."""
    con = duckdb.connect(database, read_only=read_only)
    if not read_only:
        con.execute(view_sql(root))
    return con


def write_catalog(root: Path) -> Path:
    """Create or refresh ``catalog.duckdb`` for a store at ``root``; returns its path."""
    path = root / CATALOG_NAME
    tmp = root / (CATALOG_NAME + ".tmp")
    if tmp.exists():
        tmp.unlink()
    con = duckdb.connect(str(tmp))
    try:
        con.execute(view_sql(root))
        con.execute("CREATE OR REPLACE TABLE treebuild_catalog AS SELECT ? AS root, ? AS format",
                    [str(root.resolve()), CATALOG_FORMAT])
    finally:
        con.close()
    tmp.replace(path)
    return path
