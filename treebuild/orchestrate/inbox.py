"""Scheduled ingest: pick up new and changed files from an inbox; idempotent.

Every run ingests the inbox's supported files; a file already committed with the same bytes and
settings is found in the cache (or by its hash in the store) and skipped, a changed file becomes
a new version, so running it on a schedule, twice, or after a crash never duplicates anything.
Serve it from one process with ``treebuild serve INBOX --cron "0 2 * * *"`` or deploy it
(``deploy/prefect.yaml``). Flow signatures are evaluated at definition (no postponed annotations):
Prefect validates parameters against them in a namespace without this module's imports.
"""

from typing import Any, Literal

from prefect import flow, get_run_logger
from prefect.states import State

from treebuild.orchestrate.backfill import build_settings, final_state, run_documents
from treebuild.orchestrate.settings import default_workers
from treebuild.orchestrate.sources import manifest, split_duplicates

__all__ = ["scheduled_ingest"]


@flow(name="treebuild-scheduled-ingest")
def scheduled_ingest(inbox: str, store: str = "treestore", workers: int | None = None,
                     meta: dict[str, str] | None = None, model: str | None = None, api_base: str | None = None,
                     executor: Literal["process", "dask"] = "process", ignore_outline: bool = False,
                     subdivide: bool = True, structure_fallback: bool = False) -> State[Any]:
    """Ingest new and changed documents found in ``inbox`` (a folder, glob, list file or URL)."""
    locations, duplicates = split_duplicates(manifest([inbox]))
    get_run_logger().info("inbox %s: %d document(s)", inbox, len(locations))
    settings = build_settings(model, ignore_outline=ignore_outline, subdivide=subdivide,
                              structure_fallback=structure_fallback)
    report = run_documents(locations, store=store, settings=settings, meta=meta, api_base=api_base,
                           workers=workers or default_workers(), executor=executor, dask_address=None,
                           refresh_cache=False, title="scheduled ingest", duplicates=duplicates)
    return final_state(report)
