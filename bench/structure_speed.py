"""Speed of the structure stage alone, in pages per second of CPU time and of wall clock.

The loop of ``structure_eval.py`` (read each PDF, then ``build_nodes`` with the outline ignored and
subdivision off), timed with ``time.process_time`` as well: on a shared machine the process's CPU
time is the steadier figure. Reading is excluded.

    .venv/bin/python bench/structure_speed.py /work/shared/corpus/pdf /work/shared/corpus/filings

``--per-doc N`` also lists the N slowest documents per page of each folder (CPU pages/s, pages,
CPU seconds), to find what makes some documents slower than others.

``--floor`` also times the one C call the stage cannot do without, PyMuPDF's ``extractDICT`` of every
page (on a text page made beforehand, as reading makes it): the stage can be no faster than that
call alone, so a folder whose floor is near or under a speed goal cannot reach it with this reader.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pymupdf

from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes


def dict_floor(path: Path) -> float:
    """CPU seconds of ``extractDICT`` alone over every page of ``path`` (text pages made untimed)."""
    flags = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP  # the reader's flags
    cpu = 0.0
    pymupdf.TOOLS.mupdf_display_errors(False)  # damaged streams are the reader's to report, not this timer's
    with pymupdf.open(path) as doc:
        for page in doc:
            tp = page.get_textpage(flags=flags)
            c0 = time.process_time()
            tp.extractDICT()
            cpu += time.process_time() - c0
    return cpu


def main(folders: list[str], per_doc: int = 0, floor: bool = False, note_subheadings: bool = False) -> None:
    settings = BuildSettings(ignore_outline=True, subdivide=False, prompt_version="eval",
                             note_subheadings=note_subheadings)
    for folder in folders:
        pages, cpu, wall, dict_cpu = 0, 0.0, 0.0, 0.0
        docs: list[tuple[float, int, float, str]] = []
        for path in sorted(Path(folder).glob("*.pdf")):
            doc = read(path)
            c0, w0 = time.process_time(), time.perf_counter()
            build_nodes(doc, settings)
            c1 = time.process_time() - c0
            cpu += c1
            wall += time.perf_counter() - w0
            pages += len(doc.units)
            if floor:
                dict_cpu += dict_floor(path)
            docs.append((len(doc.units) / max(c1, 1e-9), len(doc.units), c1, path.name))
        if pages:
            print(f"{folder}: {pages} pages; structure stage {pages / cpu:.0f} pages/s CPU, "
                  f"{pages / wall:.0f} pages/s wall clock")
        if pages and dict_cpu:
            print(f"    floor: extractDICT alone {pages / dict_cpu:.0f} pages/s CPU "
                  f"({dict_cpu / cpu:.0%} of the stage's CPU time)")
        for rate, n, c1, name in sorted(docs)[:per_doc]:
            print(f"    {rate:7.0f} pages/s  {n:5d} pages  {c1:6.2f} s  {name}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--per-doc", type=int, default=0, metavar="N",
                        help="list the N slowest documents per page of each folder")
    parser.add_argument("--floor", action="store_true",
                        help="also time PyMuPDF's extractDICT alone, the stage's lower bound")
    parser.add_argument("--note-subheadings", action="store_true",
                        help="build with BuildSettings.note_subheadings (the notes' body-size sub-headings, opt-in)")
    args = parser.parse_args()
    main(args.folders, args.per_doc, args.floor, args.note_subheadings)
