"""Kill test: SIGKILL ingest processes at random moments, then check that no partial tree is visible.

Each round starts ``treebuild ingest DIR --force`` (every round commits new versions, so kills land in
reading, building and committing alike), waits until it has committed its first document (so start-up
time on a busy machine does not swallow the kills), kills it after a further random delay, and checks the store with a
fresh process: ``Store.verify()`` (every version has exactly its nodes and units, one tree row) and
``Store.tree`` of every latest version. At the end one run must complete, ``gc`` removes the files of
killed commits, and the store must verify again. tests/test_store_lake.py runs a small version in CI.

    nice -n 10 .venv/bin/python bench/kill_test.py --rounds 100
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

from treebuild.store import Store

SECTIONS = 40  # per synthetic document: more rows than DuckLake inlines, so every commit writes Parquet files


def make_docs(folder: Path, n: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        body = "\n".join(f"# Part {k} of doc {i}\n\n" + f"Sentence {k} of document {i}. " * 20 + "\n"
                         for k in range(SECTIONS))
        (folder / f"doc{i:03d}.md").write_text(body, encoding="utf-8")


def check(store_dir: Path) -> tuple[list[str], int]:
    store = Store(store_dir, create=False)
    problems = store.verify()
    docs = store.documents()
    for d in docs:
        tree = store.tree(d.doc_id)
        if len(list(tree.walk())) != SECTIONS:
            problems.append(f"{d.doc_id} v{d.version}: {len(list(tree.walk()))} nodes loaded")
    versions = store.sql("SELECT count(*) AS n FROM trees").to_pylist()[0]["n"]
    store.close()
    return problems, versions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--docs", type=int, default=8)
    ap.add_argument("--max-delay", type=float, default=3.0,
                    help="kill within this many seconds after the first document is committed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", type=Path)
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="kill-test-"))
    folder, store_dir = work / "docs", work / "store"
    make_docs(folder, args.docs)
    Store(store_dir).close()
    rng = random.Random(args.seed)
    cmd = [sys.executable, "-m", "treebuild", "ingest", str(folder), "--store", str(store_dir), "--force"]
    outcomes: Counter[str] = Counter()
    t_start = time.perf_counter()
    for r in range(args.rounds):
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(os.environ), text=True)
        assert proc.stdout is not None
        proc.stdout.readline()  # "created doc000 v..." once the first commit is done
        time.sleep(rng.uniform(0.0, args.max_delay))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            outcomes["killed"] += 1
        else:
            outcomes["finished before the kill"] += 1
        proc.wait()
        problems, versions = check(store_dir)
        if problems:
            print(f"round {r + 1}: PARTIAL TREE VISIBLE: {problems[:5]}")
            sys.exit(1)
        if (r + 1) % 10 == 0:
            print(f"round {r + 1}: {versions} whole versions, no partial tree ({dict(outcomes)})", flush=True)
    final = subprocess.run(cmd[:-1], capture_output=True, text=True)
    if final.returncode != 0:
        print("the run after the kills failed:", final.stderr[-2000:])
        sys.exit(1)
    store = Store(store_dir)
    on_disk = sum(1 for _ in (store_dir / "data").rglob("*.parquet"))
    res = store.gc(grace=timedelta(0))
    after = sum(1 for _ in (store_dir / "data").rglob("*.parquet"))
    problems, versions = check(store_dir)
    tmp = list(store_dir.rglob("*.tmp"))
    print(f"{args.rounds} rounds in {time.perf_counter() - t_start:.0f}s: {dict(outcomes)}; final run completed; "
          f"{versions} versions, all whole: {not problems}; gc removed {res['files_deleted']} files "
          f"({on_disk} -> {after} Parquet files); *.tmp left: {len(tmp)}")
    sys.exit(1 if problems or tmp else 0)


if __name__ == "__main__":
    main()
