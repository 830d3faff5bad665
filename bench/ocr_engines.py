"""OCR engines compared on born-digital pages rasterised as scans: character error rate against the
page's own text layer, and seconds per page.

Each sampled page is rendered at ``--scan-dpi`` (150: an office scanner's default) in grey, put into an
image-only PDF page of the same size (what a scanned PDF is), and that page rendered again at the OCR
resolution, exactly as the reader does (:mod:`treebuild.readers.ocr_pages`). CER = Levenshtein
distance / reference length over texts normalised the same way (NFKC, every run of white space one
space); reading order counts, so a table read column-wise costs. One process, one thread per engine
(``OMP_THREAD_LIMIT=1``); run it with ``nice -n 10`` on a shared machine.

    nice -n 10 .venv/bin/python bench/ocr_engines.py /work/shared/corpus/pdf /work/shared/corpus/filings \\
        --pages-per-doc 2 --engines tesseract,rapidocr,mupdf
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

import pymupdf  # noqa: E402
from rapidfuzz.distance import Levenshtein  # noqa: E402

from treebuild.readers.ocr import OcrLine, PageImage, engine, tessdata_dir  # noqa: E402
from treebuild.readers.ocr_pages import render_page  # noqa: E402

MIN_OUTLINE = 8
"""Documents whose outline has at least this many entries (structure_eval's default)."""
MAX_IMAGE_SHARE = 0.3
"""Pages whose images cover more of the page are left out: their text layer is not all the text on them."""


class MupdfTesseract:
    """The Tesseract compiled into PyMuPDF (``Page.get_textpage_ocr``), measured here only: it reports no
    confidences, which the reader records, so it is no engine of the seam."""

    def __init__(self) -> None:
        self.tessdata = str(tessdata_dir("eng"))
        self.identity = f"mupdf-tesseract {pymupdf.VersionBind} eng"

    def recognize(self, image: PageImage, seconds: float) -> list[OcrLine]:
        pix = pymupdf.Pixmap(pymupdf.csGRAY, image.width, image.height, image.samples, False)
        doc = pymupdf.open()
        page = doc.new_page(width=image.width * 72 / image.dpi, height=image.height * 72 / image.dpi)
        page.insert_image(page.rect, pixmap=pix)
        tp = page.get_textpage_ocr(flags=0, language="eng", dpi=image.dpi, full=True, tessdata=self.tessdata)
        return [OcrLine(line, (0, 0, 0, 0), 1.0, 0) for line in tp.extractText().splitlines() if line.strip()]


def get_engine(name: str) -> object:
    if name == "mupdf":
        if name not in _LOCAL:
            _LOCAL[name] = MupdfTesseract()
        return _LOCAL[name]
    return engine(name)


_LOCAL: dict[str, object] = {}


def normalise(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def cer(hyp: str, ref: str) -> float:
    h, r = normalise(hyp), normalise(ref)
    return Levenshtein.distance(h, r) / max(1, len(r))


def scan_copy(page: pymupdf.Page, dpi: int) -> pymupdf.Document:
    """A one-page image-only PDF of ``page`` rendered at ``dpi`` in grey."""
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    out = pymupdf.open()
    new = out.new_page(width=page.rect.width, height=page.rect.height)
    new.insert_image(new.rect, pixmap=pix)
    return out


def sample(folders: list[Path], per_doc: int) -> list[tuple[Path, int]]:
    picks: list[tuple[Path, int]] = []
    for folder in folders:
        for path in sorted(folder.glob("*.pdf")):
            with pymupdf.open(path) as doc:
                if len(doc.get_toc()) < MIN_OUTLINE:
                    continue
                n = doc.page_count
                # evenly spaced pages past the cover, with text on them
                for k in range(per_doc):
                    i = min(n - 1, 1 + (k + 1) * (n - 1) // (per_doc + 1))
                    page = doc[i]
                    covered = sum(abs(pymupdf.Rect(im["bbox"]) & page.rect) for im in page.get_image_info())
                    if page.get_text().strip() and covered < MAX_IMAGE_SHARE * abs(page.rect):
                        picks.append((path, i))
    return picks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--pages-per-doc", type=int, default=2)
    ap.add_argument("--engines", default="tesseract,rapidocr")
    ap.add_argument("--scan-dpi", type=int, default=150)
    ap.add_argument("--ocr-dpi", default="300", help="comma-separated render resolutions for OCR")
    args = ap.parse_args()
    picks = sample(args.folders, args.pages_per_doc)
    print(f"{len(picks)} pages of {len({p for p, _ in picks})} documents; load {os.getloadavg()[0]:.1f}")
    names = args.engines.split(",")
    dpis = [int(d) for d in args.ocr_dpi.split(",")]
    rows: dict[tuple[str, int], list[tuple[float, float]]] = {(n, d): [] for n in names for d in dpis}
    for name in names:
        t0 = time.perf_counter()
        eng: Any = get_engine(name)
        print(f"{eng.identity}: ready in {time.perf_counter() - t0:.2f}s", flush=True)
    for path, i in picks:
        with pymupdf.open(path) as doc:
            ref = doc[i].get_text()
            scan = scan_copy(doc[i], args.scan_dpi)
        cells = []
        for name in names:
            for dpi in dpis:
                image = render_page(scan[0], dpi)
                t0 = time.perf_counter()
                lines = get_engine(name).recognize(image, 600) or []  # type: ignore[attr-defined]
                seconds = time.perf_counter() - t0
                err = cer("\n".join(ln.text for ln in lines), ref)
                rows[(name, dpi)].append((err, seconds))
                cells.append(f"{name}@{dpi} {err:.3f} {seconds:.2f}s")
        print(f"{path.name[:40]:40} p{i + 1:<4} " + "  ".join(cells), flush=True)
    print(f"\n{'engine':24} {'CER median':>10} {'CER mean':>9} {'s/page':>7}  (load {os.getloadavg()[0]:.1f})")
    for (name, dpi), vals in rows.items():
        errs = [e for e, _ in vals]
        secs = [s for _, s in vals]
        print(f"{name + '@' + str(dpi):24} {statistics.median(errs):10.3f} {statistics.fmean(errs):9.3f} "
              f"{statistics.fmean(secs):7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
