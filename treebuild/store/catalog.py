"""The store's tables, views and macros, kept in its DuckLake catalog.

Tables ``trees``, ``nodes``, ``units`` and ``grids`` are DuckLake tables whose columns come from the
Arrow schemas in ``schema.py``. One commit inserts into all four in one DuckLake transaction (one
snapshot), so a reader sees a whole version or none of it. The views and macros are stored in
the catalog too, so any DuckDB client that attaches the catalog can use them.

DuckLake 1.5.5 cannot persist a macro parameter whose default is ``NULL`` (attaching fails to
cast it back), so the optional version parameter defaults to ``0``: ``v`` omitted, ``NULL`` or
``0`` all mean "the latest version".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import duckdb

from .schema import SCHEMA_VERSION

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["view_sql", "table_sql", "CATALOG_FORMAT", "install", "catalog_format"]

CATALOG_FORMAT = "6"  # bump when tables, views, macros or table options change, so a writer re-creates them on open
# 4: the `grids` table and the `tables` / `latest_tables` views (a store of format 3 gains them when a writer opens it)
# 5: the `findings` column of `trees` (a store of an earlier format gains it, NULL for its rows, on a writer's open)
# 6: `grids` rows are never inlined in the catalog (NOT_INLINED)

# Tables whose rows always go to Parquet files, never inlined in the catalog. DuckLake 1.5.5 keeps inlined rows as
# text and casts them back on every read; a nested list (`grids.header`, `grids.rows`: VARCHAR[][]) whose cell holds
# an unbalanced "]" (a table cell "])" or "]") fails that cast, and then every read of the table fails, for every
# document in the store. Parquet keeps the cells as they are.
NOT_INLINED = ("grids",)

# Per-document reads prune data files by their doc_id statistics; sorting merged files keeps that true
# after `treebuild compact` (files cover disjoint doc_id ranges).
SORT_KEYS = {"trees": "doc_id, version", "nodes": "doc_id, version, node_id", "units": "doc_id, version, unit_index",
             "grids": "doc_id, version, table_index"}


def _duck_type(t: pa.DataType) -> str:
    import pyarrow as pa

    if pa.types.is_map(t):
        return f"MAP({_duck_type(t.key_type)}, {_duck_type(t.item_type)})"
    if pa.types.is_list(t):
        return f"{_duck_type(t.value_type)}[]"
    if pa.types.is_struct(t):
        return f"STRUCT({', '.join(f'{f.name} {_duck_type(f.type)}' for f in t)})"
    if pa.types.is_timestamp(t):
        return "TIMESTAMPTZ" if t.tz else "TIMESTAMP"
    scalars = {pa.string(): "VARCHAR", pa.int16(): "SMALLINT", pa.int32(): "INTEGER", pa.int64(): "BIGINT",
               pa.float32(): "FLOAT", pa.float64(): "DOUBLE"}
    if t not in scalars:
        raise TypeError(f"no DuckDB type for {t}")
    return scalars[t]


def table_sql() -> str:
    """CREATE TABLE statements for the store's tables."""
    from .schema import TABLES

    out = []
    for name, schema in TABLES.items():
        cols = ",\n  ".join(f"{f.name} {_duck_type(f.type)}" for f in schema)
        out.append(f"CREATE TABLE IF NOT EXISTS {name} (\n  {cols}\n);")
    return "\n".join(out)


def added_columns_sql(con: duckdb.DuckDBPyConnection) -> list[str]:
    """ALTER TABLE statements for the columns a store made by an earlier version lacks (its rows read NULL)."""
    from .schema import TABLES

    out = []
    for name, schema in TABLES.items():
        have = {r[0] for r in con.execute("SELECT column_name FROM duckdb_columns() WHERE database_name = "
                                          "current_database() AND table_name = ?", [name]).fetchall()}
        out += [f"ALTER TABLE {name} ADD COLUMN {f.name} {_duck_type(f.type)}" for f in schema if f.name not in have]
    return out


def view_sql() -> str:
    """All view and macro definitions (no paths: they name the catalog's tables)."""
    return f"""
CREATE OR REPLACE VIEW latest_trees AS
  SELECT * FROM trees QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY version DESC) = 1;
CREATE OR REPLACE VIEW latest_nodes AS
  SELECT n.* FROM nodes n SEMI JOIN latest_trees t ON n.doc_id = t.doc_id AND n.version = t.version;
CREATE OR REPLACE VIEW tables AS
  SELECT doc_id, version, node_id, table_index, page, title, to_json(header) AS header, to_json(rows) AS rows,
         to_json(row_labels) AS row_labels, n_rows, n_cols, markdown, unit_index, start_char, end_char, bbox
  FROM grids;
CREATE OR REPLACE VIEW latest_tables AS
  SELECT g.* FROM tables g SEMI JOIN latest_trees t ON g.doc_id = t.doc_id AND g.version = t.version;
CREATE OR REPLACE VIEW store_info AS
  SELECT {SCHEMA_VERSION} AS schema_version, '{CATALOG_FORMAT}' AS catalog_format;
CREATE OR REPLACE MACRO tree_version(d, v) AS
  coalesce(nullif(v, 0), (SELECT max(version) FROM trees WHERE doc_id = d));
CREATE OR REPLACE MACRO subtree(d, nid, v := 0) AS TABLE
  SELECT * FROM nodes
  WHERE doc_id = d AND version = tree_version(d, v) AND (node_id = nid OR list_contains(path_ids, nid))
  ORDER BY node_id;
CREATE OR REPLACE MACRO node_path(d, nid, v := 0) AS TABLE
  WITH target AS (
    SELECT path_ids FROM nodes WHERE doc_id = d AND version = tree_version(d, v) AND node_id = nid
  )
  SELECT n.* FROM nodes n, target
  WHERE n.doc_id = d AND n.version = tree_version(d, v)
    AND (n.node_id = nid OR list_contains(target.path_ids, n.node_id))
  ORDER BY n.depth;
CREATE OR REPLACE MACRO node_text(d, nid, v := 0) AS TABLE
  WITH n AS (
    SELECT * FROM nodes WHERE doc_id = d AND version = tree_version(d, v) AND node_id = nid
  ), u AS (
    SELECT unit_index, text FROM units WHERE doc_id = d AND version = tree_version(d, v)
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
  FROM n JOIN u
    ON u.unit_index BETWEEN n.start_unit AND n.end_unit
   AND NOT (u.unit_index = n.end_unit AND n.end_char = 0 AND n.end_unit > n.start_unit)
  GROUP BY n.doc_id, n.version, n.node_id, n.title;
"""


def catalog_format(con: duckdb.DuckDBPyConnection) -> str | None:
    """The catalog format a store was set up with, or None for a new (or foreign) catalog."""
    try:
        row = con.execute("SELECT catalog_format FROM store_info").fetchone()
    except duckdb.Error:
        return None
    return None if row is None else str(row[0])


def install(con: duckdb.DuckDBPyConnection) -> None:
    """Create the tables (if missing) and their columns added since, set their options, then (re)define views and
    macros. Tables and views go in two transactions because DuckLake sets no option on a table created in the
    same transaction; the catalog format (``store_info``, a view) is written last, so a writer that stops half
    way leaves an older format behind and the next writer's open runs all of it again."""
    _transaction(con, [table_sql(), lambda: added_columns_sql(con)])
    lake = con.execute("SELECT current_database()").fetchone()
    for name in NOT_INLINED:
        con.execute(f"CALL {lake[0] if lake else ''}.set_option('data_inlining_row_limit', 0, table_name => ?)",
                    [name])
    _transaction(con, [*(f"ALTER TABLE {name} SET SORTED BY ({keys})" for name, keys in SORT_KEYS.items()),
                       view_sql()])


def _transaction(con: duckdb.DuckDBPyConnection, steps: list[str | Callable[[], list[str]]]) -> None:
    """Run ``steps`` in one transaction: a statement, or a function giving statements from what the ones before
    made."""
    con.execute("BEGIN")
    try:
        for step in steps:
            for statement in [step] if isinstance(step, str) else step():
                con.execute(statement)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
