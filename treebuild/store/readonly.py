"""The read-only guard of the store's SQL: which statements :meth:`Store.sql` runs by default.

Queries only: ``SELECT`` (``WITH``, ``FROM``, ``DESCRIBE``, ``SHOW`` and ``SUMMARIZE`` parse as SELECT)
and ``EXPLAIN``. ``CALL`` is refused too: ``CHECKPOINT`` parses as CALL, and on a DuckLake store
CHECKPOINT and the maintenance functions rewrite or delete files, which they can also do from a SELECT,
hence the second list. Checked before anything runs, so a refused query changes nothing.
"""

from __future__ import annotations

import re

import duckdb

from ..errors import TreebuildError

__all__ = ["READ_ONLY_STATEMENTS", "check_read_only"]

READ_ONLY_STATEMENTS = frozenset({"SELECT", "EXPLAIN"})
_WRITING_FUNCTION = re.compile(r"\bducklake[._](?:expire_snapshots|merge_adjacent_files|rewrite_data_files|"
                               r"cleanup_old_files|delete_orphaned_files|flush_inlined_data|set_option|"
                               r"add_data_files|set_commit_message)\b", re.IGNORECASE)
_HINT = "query the views with SELECT; the store changes only through ingest (`treebuild ingest`)"


def check_read_only(con: duckdb.DuckDBPyConnection, query: str) -> None:
    """Raise :class:`~treebuild.errors.TreebuildError` unless every statement of ``query`` only reads."""
    for stmt in con.extract_statements(query):
        kind = stmt.type.name
        if kind not in READ_ONLY_STATEMENTS:
            raise TreebuildError(f"the store's SQL is read-only: {kind} statements are refused; nothing was changed",
                                 hint=_HINT)
    found = _WRITING_FUNCTION.search(query)
    if found:
        raise TreebuildError(f"the store's SQL is read-only: {found.group(0)} changes the store; nothing was "
                             "changed", hint=_HINT)
