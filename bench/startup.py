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


def _run(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", _PROBE.format(heavy=HEAVY), *args], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    seconds = time.perf_counter() - t0
    loaded = next((line[7:] for line in res.stderr.splitlines() if line.startswith("LOADED ")), "?")
    return seconds, loaded


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
        print(f"{'command':<16} {'min':>6} {'median':>7} {'max':>6}  {'goal':<5} heavy modules imported")
        for name, argv in commands.items():
            times = []
            loaded = ""
            for _ in range(args.runs):
                if argv is None:
                    t0 = time.perf_counter()
                    subprocess.run([sys.executable, "-c", "pass"], check=True)
                    times.append(time.perf_counter() - t0)
                else:
                    seconds, loaded = _run(argv, env)
                    times.append(seconds)
            med = statistics.median(times)
            verdict = "ok" if med < GOAL_SECONDS else "OVER"
            print(f"{name:<16} {min(times):6.3f} {med:7.3f} {max(times):6.3f}  {verdict:<5} {loaded or '-'}")


if __name__ == "__main__":
    main()
