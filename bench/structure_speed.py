"""Speed of the structure stage alone, in pages per second of CPU time and of wall clock.

The loop of ``structure_eval.py`` (read each PDF, then ``build_nodes`` with the outline ignored and
subdivision off), timed with ``time.process_time`` as well: on a shared machine the process's CPU
time is the steadier figure. Reading is excluded.

    .venv/bin/python bench/structure_speed.py /work/shared/corpus/pdf /work/shared/corpus/filings
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes


def main(folders: list[str]) -> None:
    settings = BuildSettings(ignore_outline=True, subdivide=False, prompt_version="eval")
    for folder in folders:
        pages, cpu, wall = 0, 0.0, 0.0
        for path in sorted(Path(folder).glob("*.pdf")):
            doc = read(path)
            c0, w0 = time.process_time(), time.perf_counter()
            build_nodes(doc, settings)
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            pages += len(doc.units)
        if pages:
            print(f"{folder}: {pages} pages; structure stage {pages / cpu:.0f} pages/s CPU, "
                  f"{pages / wall:.0f} pages/s wall clock")


if __name__ == "__main__":
    main(sys.argv[1:])
