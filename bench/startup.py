"""Start-up time of the ``treebuild`` command: cold processes, several runs each.

Builds a small store from one example document, then runs ``--help``, ``list``, ``show``,
``sql`` (and ``build --help``) as fresh processes and prints min / median / max wall seconds
against the 0.5 s goal, plus which heavy modules each command imported. Figures are noisy on a
shared machine: compare the minimum, and rerun when the load average is high.

    .venv/bin/python bench/startup.py            # 7 runs per command
    .venv/bin/python bench/startup.py --runs 15
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_SECONDS = 0.5  # issue 11: --help, list, show and sql start in under half a second
HEAVY = ("litellm", "prefect", "pymupdf", "fitz", "docx", "pydantic_settings", "pyarrow", "duckdb", "pydantic")
EXAMPLE = ROOT / "examples" / "storage-guide.md"

_PROBE = """
import sys
sys.argv = ["treebuild", *sys.argv[1:]]
try:
    from treebuild.cli import main
    main()
except SystemExit:
    pass
finally:
    heavy = {heavy!r}
    sys.stderr.write("\\nLOADED " + ",".join(m for m in heavy if m in sys.modules) + "\\n")
"""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system, less sensitive to other load) and heavy modules loaded."""
    cpu0, t0 = _cpu(), time.perf_counter()
    res = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
    seconds, cpu = time.perf_counter() - t0, _cpu() - cpu0
    loaded = next((line[7:] for line in res.stderr.splitlines() if line.startswith("LOADED ")), "")
    return seconds, cpu, loaded


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "store")
        env = {**os.environ, "TREEBUILD_STORE": store}
        subprocess.run([sys.executable, "-c", "from treebuild.cli import main; main()", "ingest", str(EXAMPLE)],
                       check=True, capture_output=True, env=env, cwd=ROOT)
        commands = {
            "--help": ["--help"],
            "build --help": ["build", "--help"],
            "list": ["list"],
            "show": ["show", EXAMPLE.stem],
            "sql": ["sql", "SELECT count(*) FROM latest_nodes"],
            "python -c pass": None,
        }
        try:
            load = os.getloadavg()[0]
        except OSError:
            load = float("nan")
        print(f"start-up, {args.runs} cold runs each (load average {load:.1f}; goal < {GOAL_SECONDS} s)")
        print(f"{'command':<16} {'wall min':>8} {'median':>7} {'max':>6}  {'cpu min':>7} {'median':>7}  "
              f"{'goal':<5} heavy modules imported")
        for name, cmd in commands.items():
            walls, cpus = [], []
            loaded = ""
            argv = [sys.executable, "-c", "pass"] if cmd is None else \
                [sys.executable, "-c", _PROBE.format(heavy=HEAVY), *cmd]
            for _ in range(args.runs):
                wall, cpu, loaded = _run(argv, env)
                walls.append(wall)
                cpus.append(cpu)
            med = statistics.median(walls)
            verdict = "ok" if med < GOAL_SECONDS else "OVER"
            print(f"{name:<16} {min(walls):8.3f} {med:7.3f} {max(walls):6.3f}  {min(cpus):7.3f} "
                  f"{statistics.median(cpus):7.3f}  {verdict:<5} {loaded or '-'}")


if __name__ == "__main__":
    main()
