"""Ingest throughput and memory in one process: ingest a corpus copied N times into a fresh store.

    python bench/ingest_memory.py ../shared/corpus/pdf [--copies 5] [--store DIR]

Each copy is a symlink with its own file name (so its own doc_id); prints documents and pages per
second, peak resident memory of the process, store size, and a second pass over the same files
(everything unchanged: only hashing). The offline default model is used.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from pathlib import Path

import treebuild
from treebuild.readers import SUPPORTED_SUFFIXES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--copies", type=int, default=5)
    ap.add_argument("--store", type=Path)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="treebuild-backfill-"))
    try:
        inbox = work / "inbox"
        inbox.mkdir()
        sources = sorted(p for p in args.corpus.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES)
        for k in range(args.copies):
            for src in sources:
                (inbox / f"{src.stem}__copy{k}{src.suffix}").symlink_to(src.resolve())
        store = treebuild.Store(args.store or work / "store")
        for label in ("first pass", "second pass (unchanged)"):
            pages = 0
            t0 = time.perf_counter()
            results = treebuild.ingest_many([inbox], store)
            seconds = time.perf_counter() - t0
            pages = sum(r.pages or 0 for r in results)
            statuses: dict[str, int] = {}
            for r in results:
                statuses[r.status] = statuses.get(r.status, 0) + 1
            peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"{label}: {len(results)} documents {statuses}, {seconds:.1f} s, "
                  f"{len(results) / seconds:.1f} documents/s" + (f", {pages / seconds:.0f} pages/s" if pages else "")
                  + f", peak RSS {peak_mb:.0f} MiB")
        size = sum(f.stat().st_size for f in store.root.rglob("*") if f.is_file())
        print(f"store: {size / 2**20:.1f} MiB for {len(store.documents())} documents")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
