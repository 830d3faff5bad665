"""Prefect flow: ingest a folder or list of documents into a store, one task per document.

Each task calls :func:`treebuild.ingest`; a bad document fails only its own task and is
reported in the flow's result, so a backfill goes on. Tasks run one after another inside a
run because PyMuPDF is not thread-safe; scale out with processes instead: ``shards`` runs of
the flow (``shard=0..shards-1``) on as many workers split a corpus between them, each file
going to exactly one shard. Run it locally::

    python -m flows.ingest examples/ --store treestore

or deploy it (see ``deploy/README.md``).
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task

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
                  settings: dict[str, Any] | None = None, shard: int = 0,
                  shards: int = 1) -> list[dict[str, Any]]:
    """Ingest every supported file under ``paths`` (this shard's share); one result per document."""
    if not 0 <= shard < shards:
        raise ValueError(f"shard must be in 0..{shards - 1}, got {shard}")
    files = [str(p) for i, p in enumerate(expand_paths(paths)) if i % shards == shard]
    results = [ingest_document(f, store, meta, settings) for f in files]
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
    ap.add_argument("--shard", type=int, default=0)
    ap.add_argument("--shards", type=int, default=1)
    args = ap.parse_args()
    ingest_corpus([str(Path(p)) for p in args.paths], args.store, shard=args.shard, shards=args.shards)


if __name__ == "__main__":
    main()
