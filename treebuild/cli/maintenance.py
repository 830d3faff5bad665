"""Store maintenance commands: ``migrate`` (from the version-1 folder layout), ``compact`` and ``gc``."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Annotated

import typer

from ..errors import TreebuildError, UsageError
from .options import CatalogOpt, StoreOpt, app, err, fail, out

__all__ = ["migrate", "compact", "gc"]

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


def _duration(text: str) -> timedelta:
    m = _DURATION.match(text)
    if not m:
        raise UsageError(f"invalid duration {text!r}", hint="use a number and s, m, h or d, e.g. 30m or 1h")
    return timedelta(**{_UNITS[m.group(2)]: float(m.group(1))})


@app.command()
def migrate(store: StoreOpt = None) -> None:
    """Convert a store written by treebuild's first layout (one folder per document) to the DuckLake layout."""
    from ..store import Store
    from ..store.legacy import migrate as run_migration
    from ..store.store import default_store_path

    root = Path(store) if store is not None else default_store_path()
    try:
        report = run_migration(root, on_progress=lambda done, total: err.print(f"migrated {done}/{total} versions"))
        docs = Store(root, create=False).documents()
    except TreebuildError as exc:
        fail(exc)
    out.print(f"migrated {report.versions} versions of {report.documents} documents ({report.nodes} nodes, "
              f"{report.units} units); {len(docs)} documents readable", highlight=False)
    if report.orphans_skipped:
        out.print(f"skipped {report.orphans_skipped} orphan files of killed commits (never visible)", highlight=False)
    out.print(f"old files moved to {report.backup}; delete that folder once you are satisfied", highlight=False)


@app.command()
def compact(store: StoreOpt = None, catalog: CatalogOpt = None) -> None:
    """Merge small data files into larger ones sorted by doc_id (safe while others read and write)."""
    from ..store import Store

    try:
        result = Store(store, catalog=catalog).compact()
    except TreebuildError as exc:
        fail(exc)
    out.print(f"data files: {result['files_before']} -> {result['files_after']} "
              "(replaced files are deleted by `treebuild gc` after its grace period)", highlight=False)


@app.command()
def gc(
    store: StoreOpt = None,
    catalog: CatalogOpt = None,
    keep_versions: Annotated[int | None, typer.Option(
        "--keep-versions", min=1, help="Keep only the N newest versions of each document (the latest always stays).")]
    = None,
    grace: Annotated[str, typer.Option(
        "--grace", help="Only delete files unused for this long (a running commit or query may still need "
                        "newer ones), e.g. 30m, 1h, 0s.")] = "1h",
) -> None:
    """Delete files of killed commits and of expired snapshots, and apply a version retention policy."""
    from ..store import Store

    try:
        result = Store(store, catalog=catalog).gc(keep_versions=keep_versions, grace=_duration(grace))
    except TreebuildError as exc:
        fail(exc)
    out.print(f"deleted {result['versions_deleted']} old versions and {result['files_deleted']} files",
              highlight=False)
