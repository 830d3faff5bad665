"""Store scale: synthetic stores of N documents made of real stored trees replicated under new doc_ids.

For each size it prints: commit seconds per document (real ``Store.commit`` calls into a store of that
size), ``count(*) FROM latest_trees``, ``subtree``, ``node_text``, ``Store.tree``, the first page of
``treebuild list`` (``Store.documents(limit=50)``, and the whole list for reference), size on disk and
file count. Reads are medians over random documents from a freshly opened store.

How a store is built: the first ``--commit-docs`` documents are committed one by one (one DuckLake
transaction each, as ``ingest`` does); the rest are inserted in batches of ``--batch`` documents per
transaction (the same rows, fewer snapshots) to keep the build short; then ``compact`` and ``gc`` run, as
on a maintained store. Reads are measured before and after that maintenance.

    nice -n 10 .venv/bin/python bench/store_scale.py --sizes 1000,10000
    nice -n 10 .venv/bin/python bench/store_scale.py --sizes 100000 --source /path/to/a/real/store

Source trees: ``--source STORE`` (its latest versions), else the documents in ``examples/`` ingested
with the offline default into a temporary store.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from treebuild.ingestion import ingest_many
from treebuild.store import Store

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 5  # reads per figure (median reported)
PAGE = 50  # rows of the first page of `treebuild list`


def source_rows(store: Store) -> list[tuple[pa.Table, pa.Table, pa.Table]]:
    out = []
    for d in store.documents():
        key = [d.doc_id, d.version]
        out.append(tuple(store.sql(f"SELECT * FROM {t} WHERE doc_id = ? AND version = ?", key)
                         for t in ("trees", "nodes", "units")))
    return out  # type: ignore[return-value]


def relabel(rows: tuple[pa.Table, pa.Table, pa.Table], doc_id: str) -> tuple[pa.Table, pa.Table, pa.Table]:
    load_id = uuid.uuid4().hex
    out = []
    for t in rows:
        t = t.set_column(t.schema.get_field_index("doc_id"), "doc_id", pa.array([doc_id] * t.num_rows))
        t = t.set_column(t.schema.get_field_index("version"), "version", pa.array([1] * t.num_rows, pa.int32()))
        t = t.set_column(t.schema.get_field_index("load_id"), "load_id", pa.array([load_id] * t.num_rows))
        out.append(t)
    return out[0], out[1], out[2]


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def median_of(fn: Callable[[], object]) -> float:
    return statistics.median(timed(fn) for _ in range(REPEATS))


def disk(folder: Path) -> tuple[float, int]:
    files = [f for f in folder.rglob("*") if f.is_file()]
    return sum(f.stat().st_size for f in files) / 2**20, len(files)


def measure(path: Path, n: int, source: list[tuple[pa.Table, pa.Table, pa.Table]], label: str) -> dict[str, float]:
    rng = random.Random(n)
    t0 = time.perf_counter()
    store = Store(path, create=False)
    open_s = time.perf_counter() - t0
    ids = [f"syn-{rng.randrange(n):07d}" for _ in range(REPEATS)]
    nodes = {i: store.sql("SELECT max(node_id) AS m FROM latest_nodes WHERE doc_id = ?", [i]).to_pylist()[0]["m"]
             for i in ids}
    it = iter(ids * 4)

    def one(q: str) -> Callable[[], object]:
        def run() -> object:
            d = next(it)
            return store.sql(q, [d, min(nodes[d], "0003")])
        return run

    figures = {
        "open": open_s,
        "count": median_of(lambda: store.sql("SELECT count(*) FROM latest_trees")),
        "subtree": median_of(one("SELECT * FROM subtree(?, ?)")),
        "node_text": median_of(one("SELECT * FROM node_text(?, ?)")),
        "tree": median_of(lambda: store.tree(rng.choice(ids))),
        "list_page": median_of(lambda: store.documents(limit=PAGE)),
        "list_all": timed(lambda: store.documents()),
    }
    mib, files = disk(path)
    print(f"  {label:15} open {figures['open']:.2f}s  count {figures['count']:.3f}s  "
          f"subtree {figures['subtree']:.3f}s  node_text {figures['node_text']:.3f}s  "
          f"Store.tree {figures['tree']:.3f}s  list page {figures['list_page']:.3f}s  "
          f"(all {figures['list_all']:.2f}s)  {mib:.0f} MiB  {files} files", flush=True)
    store.close()
    return figures


def commit_rate(store: Store, source: list[tuple[pa.Table, pa.Table, pa.Table]], start: int, k: int) -> float:
    """Seconds per document of ``k`` real commits (trees rebuilt from the source rows, then Store.commit)."""
    from treebuild.store.rows import load_tree

    total = 0.0
    for j in range(k):
        t, nd, u = source[(start + j) % len(source)]
        tree = load_tree(t.to_pylist()[0], nd.to_pylist(), u.to_pylist())
        shash = t["settings_hash"][0].as_py()
        t0 = time.perf_counter()
        store.commit(tree, doc_id=f"syn-{start + j:07d}", settings_hash=shash)
        total += time.perf_counter() - t0
    return total / k


def build(path: Path, n: int, source: list[tuple[pa.Table, pa.Table, pa.Table]], commit_docs: int,
          batch: int) -> float:
    store = Store(path)
    k = min(commit_docs, n)
    per_doc = commit_rate(store, source, 0, k)
    i = k
    t0 = time.perf_counter()
    while i < n:
        parts: list[list[pa.Table]] = [[], [], []]
        for j in range(i, min(n, i + batch)):
            for p, t in zip(parts, relabel(source[j % len(source)], f"syn-{j:07d}"), strict=True):
                p.append(t)
        store.insert_versions(*(pa.concat_tables(p) for p in parts))
        i = min(n, i + batch)
        if (i // batch) % 10 == 0:
            print(f"    {i}/{n} documents ({time.perf_counter() - t0:.0f}s)", flush=True)
    store.close()
    return per_doc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--source", type=Path, help="store whose latest trees are replicated (default: examples/)")
    ap.add_argument("--work", type=Path, help="folder for the synthetic stores (default: a temporary folder)")
    ap.add_argument("--commit-docs", type=int, default=200, help="documents committed one by one per store")
    ap.add_argument("--batch", type=int, default=500, help="documents per bulk transaction after that")
    ap.add_argument("--keep", action="store_true", help="keep the synthetic stores")
    ap.add_argument("--reuse", action="store_true", help="measure (compact, commit into) stores kept in --work "
                                                         "by an earlier --keep run instead of building them")
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="store-scale-"))
    if args.source:
        src_store = Store(args.source, create=False)
    else:
        src_store = Store(work / "source")
        ingest_many([ROOT / "examples"], src_store)
    source = source_rows(src_store)
    nodes = sum(t[1].num_rows for t in source)
    chars = sum(pc.sum(pc.utf8_length(t[2]["text"])).as_py() or 0 for t in source)
    print(f"source: {len(source)} trees, {nodes} nodes, {chars / 1e6:.2f} M characters of text per copy")
    for n in [int(s) for s in args.sizes.split(",")]:
        path = work / f"n{n}"
        print(f"{n} documents", flush=True)
        if args.reuse and (path / "catalog.sqlite").exists():
            n = Store(path, create=False).document_count()
            print(f"  reusing {path} ({n} documents)", flush=True)
        else:
            shutil.rmtree(path, ignore_errors=True)
            t0 = time.perf_counter()
            first = build(path, n, source, args.commit_docs, args.batch)
            print(f"  built in {time.perf_counter() - t0:.0f}s; commit {first:.3f} s/doc into an empty store",
                  flush=True)
        measure(path, n, source, "before compact")
        store = Store(path)
        t0 = time.perf_counter()
        res = store.compact()
        store.gc(grace=timedelta(0))
        print(f"  compact + gc {time.perf_counter() - t0:.0f}s: data files {res['files_before']} -> "
              f"{res['files_after']}", flush=True)
        later = commit_rate(store, source, n, 20)
        print(f"  commit {later:.3f} s/doc into the store of {n} documents", flush=True)
        store.close()
        measure(path, n + 20, source, "after compact")
        for label, extra in [("first page", []), ("page at the middle", ["--offset", str(n // 2)])]:
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "treebuild", "list", "--store", str(path), *extra],
                                 capture_output=True, text=True)
            print(f"  `treebuild list` {label} (new process, start-up included): {time.perf_counter() - t0:.2f}s, "
                  f"{out.stdout.count('syn-')} rows; {out.stderr.strip()}", flush=True)
        if not args.keep:
            shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    main()
