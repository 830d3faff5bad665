"""Where a backfill's CPU goes, per process: the command, its fork server and build workers, and the
Prefect server it talks to (which ``bench/backfill.py``'s CPU column leaves out).

    nice -n 10 .venv/bin/python bench/backfill_processes.py ../shared/corpus [--workers 2] [--repeat 1] [--ingest]

Starts one local Prefect server (as ``bench/backfill.py`` does), then runs ``treebuild backfill CORPUS
--workers N`` (and with ``--ingest`` plain ``treebuild ingest``) in a fresh store, sampling ``/proc`` every
``SAMPLE_SECONDS`` for every process of the command's tree and of the server's. Prints, per process role,
CPU seconds and the seconds it was alive, and for each build worker its busy share (CPU over its life: a
worker that waits for the next document, a lock or the flow process shows less than 100%). The server's
figure is its CPU during the run minus its idle rate over the same time.
Also prints the per-document build seconds the command reports and the best two-process schedule of those
documents (longest-processing-time first, and a lower bound: max(largest, total / 2)), so one can see whether
the corpus itself allows 1.7x.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from backfill import BIN, _start_server, _stop_server  # noqa: E402

SAMPLE_SECONDS = 0.05
"""How often /proc is read: a process that lives shorter than this may be missed (workers live for the run)."""
TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, user+system CPU seconds) of a live process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            raw = f.read()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _role(cmd: str, root: int, pid: int, server_root: int, parents: dict[int, int]) -> str:
    if pid == root:
        return "command (flow process)"
    if pid == server_root:
        return "prefect server"
    if "forkserver" in cmd:  # workers are forked from the server and show its command line
        return "fork server" if parents.get(pid) == root else "build worker"
    chain = pid
    while chain in parents and chain not in (root, server_root):
        chain = parents[chain]
    if chain == server_root:
        return "prefect server (child)"
    return "other child: " + cmd[:60]


def _descendants(roots: set[int]) -> dict[int, tuple[int, float]]:
    stats = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            s = _stat(int(name))
            if s is not None:
                stats[int(name)] = s
    keep: dict[int, tuple[int, float]] = {}
    for pid in stats:
        p = pid
        while p in stats and p not in roots and p > 1:
            p = stats[p][0]
        if p in roots:
            keep[pid] = stats[pid]
    return keep


def _tree_cpu(root: int) -> float:
    return sum(cpu for _, cpu in _descendants({root}).values())


def measure(cmd: list[str], env: dict[str, str], server_pid: int) -> tuple[float, dict[int, dict[str, object]], float]:
    """Run ``cmd`` sampling its processes and the server's; (wall seconds, per-pid records, server CPU delta)."""
    server_idle0 = _tree_cpu(server_pid)
    time.sleep(2.0)
    idle_rate = (_tree_cpu(server_pid) - server_idle0) / 2.0
    server0 = _tree_cpu(server_pid)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    seen: dict[int, dict[str, object]] = {}
    parents: dict[int, int] = {}
    while proc.poll() is None:
        now = time.perf_counter() - t0
        for pid, (ppid, cpu) in _descendants({proc.pid}).items():
            parents[pid] = ppid
            rec = seen.setdefault(pid, {"first": now, "cmd": _cmdline(pid), "ppid": ppid})
            rec["cpu"], rec["last"] = cpu, now
        time.sleep(SAMPLE_SECONDS)
    wall = time.perf_counter() - t0
    output = proc.stdout.read() if proc.stdout else ""
    server = _tree_cpu(server_pid) - server0 - idle_rate * wall
    for pid, rec in seen.items():
        rec["role"] = _role(str(rec["cmd"]), proc.pid, pid, -1, parents)
    seen[-1] = {"role": "prefect server (over idle)", "cpu": server, "first": 0.0, "last": wall, "output": output}
    return wall, seen, server


def _builds(output: str) -> list[float]:
    """Per-document build seconds from the command's ``created NAME vN (..., 1.23s[, n warnings])`` lines."""
    import re

    found = (re.search(r"(\d+\.\d+)s[,)]", line) for line in output.splitlines() if line.startswith("created"))
    return [float(m.group(1)) for m in found if m]


def _lpt(times: list[float], workers: int) -> float:
    """Makespan of longest-processing-time-first on ``workers`` machines."""
    load = [0.0] * workers
    for t in sorted(times, reverse=True):
        load[load.index(min(load))] += t
    return max(load)


def report(label: str, wall: float, seen: dict[int, dict[str, object]]) -> None:
    by_role: dict[str, list[float]] = {}
    total = 0.0
    for rec in seen.values():
        by_role.setdefault(str(rec["role"]), []).append(float(rec.get("cpu", 0.0)))  # type: ignore[arg-type]
        total += float(rec.get("cpu", 0.0))  # type: ignore[arg-type]
    print(f"\n{label}: {wall:.1f} s wall, {total:.1f} CPU s in all (load {os.getloadavg()[0]:.1f})")
    print(f"  {'process':<30} {'n':>3} {'CPU s':>7}")
    for role, cpus in sorted(by_role.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {role:<30} {len(cpus):>3} {sum(cpus):>7.1f}")
    for pid, rec in sorted(seen.items()):
        if rec["role"] == "build worker":
            life = float(rec["last"]) - float(rec["first"])  # type: ignore[arg-type]
            cpu = float(rec["cpu"])  # type: ignore[arg-type]
            print(f"  worker {pid}: alive {float(rec['first']):.1f}-{float(rec['last']):.1f} s, CPU {cpu:.1f} s, "  # type: ignore[arg-type]
                  f"busy {100 * cpu / max(life, 1e-9):.0f}%")
    builds = _builds(str(seen[-1].get("output", "")))
    if builds:
        s = sum(builds)
        print(f"  builds: {len(builds)} documents, {s:.1f} s in all, largest {max(builds):.1f} s; "
              f"best 2-process schedule (LPT) {_lpt(builds, 2):.1f} s = {s / _lpt(builds, 2):.2f}x the sum, "
              f"lower bound {max(max(builds), s / 2):.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--workers", type=int, nargs="+", default=[2])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--ingest", action="store_true", help="also plain `treebuild ingest` of the same files")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="treebuild-bench-procs-"))
    server, url, _ = _start_server(work / "prefect-home")
    env = {**os.environ, "PREFECT_HOME": str(work / "prefect-home"), "PREFECT_API_URL": url,
           "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "COLUMNS": "200"}
    env.pop("TREEBUILD_STORE", None)
    try:
        # A fresh server builds its API routes and caches on the first requests (~1-3 CPU s): warm it with a
        # three-document backfill first, as a long-running server would be.
        subprocess.run([str(BIN / "treebuild"), "backfill", str(args.corpus), "--limit", "3", "--store",
                        str(work / "store-warm-up")], env=env, capture_output=True, check=False)
        time.sleep(3.0)  # let the server's services settle before its idle rate is taken
        for k in range(args.repeat):
            runs = [("ingest", [str(BIN / "treebuild"), "ingest", str(args.corpus)])] if args.ingest else []
            runs += [(f"backfill --workers {w}", [str(BIN / "treebuild"), "backfill", str(args.corpus),
                                                  "--workers", str(w)]) for w in args.workers]
            for label, cmd in runs:
                store = work / f"store-{label.replace(' ', '')}-{k}"
                wall, seen, _ = measure([*cmd, "--store", str(store)], env, server.pid)
                report(label, wall, seen)
    finally:
        _stop_server(server, work)


if __name__ == "__main__":
    main()
