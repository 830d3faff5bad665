"""Prefect flow: ingest a folder or list of documents into a store, one task per document.

Each task calls :func:`treebuild.ingest.ingest`; a bad document fails only its own task and
is reported in the flow's result, so a backfill goes on. Run it locally::

    python -m flows.ingest examples/ --store treestore

or deploy it (see ``deploy/README.md``).
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.futures import wait

from treebuild.errors import TreebuildError
from treebuild.ingestion import expand_paths, ingest
from treebuild.settings import BuildSettings

__all__ = ["ingest_corpus", "ingest_document"]


@task(name="ingest-document", retries=1, retry_delay_seconds=5, task_run_name="ingest {path}")
def ingest_document(path: str, store: str, meta: dict[str, str] | None = None,
                    settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """Build and commit one document; expected failures are returned as an error result."""
    try:
        res = ingest(path, store, meta=meta, settings=BuildSettings(**(settings or {})))
    except TreebuildError as exc:
        get_run_logger().error(str(exc))
        return {"path": path, "status": "error", "error": str(exc)}
    return asdict(res)


@flow(name="treebuild-ingest")
def ingest_corpus(paths: list[str], store: str = "treestore", meta: dict[str, str] | None = None,
                  settings: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Ingest every supported file under ``paths``; returns one result per document."""
    files = [str(p) for p in expand_paths(paths)]
    futures = [ingest_document.submit(f, store, meta, settings) for f in files]
    wait(futures)
    results = [f.result() for f in futures]
    logger = get_run_logger()
    counts: dict[str, int] = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    logger.info("ingested %d document(s): %s", len(results), counts)
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description="Run the treebuild ingest flow once.")
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--store", default="treestore")
    args = ap.parse_args()
    ingest_corpus([str(Path(p)) for p in args.paths], args.store)


if __name__ == "__main__":
    main()
