"""Scanned copies of born-digital PDFs with author outlines, side by side with the originals: character
error rate of the OCR'd text, structure F1 / TOC score against the outline, pages per second.

Every PDF of the folders whose outline has at least ``--min-entries`` entries (and at most ``--max-pages``
pages: OCR costs seconds a page; with ``--cut N``, a longer one is cut to its first N pages, the outline entries
on them kept, and scored as a document of N pages) is rendered at ``--scan-dpi`` (150) in grey into an
image-only copy (no text layer, no outline), cached under ``--work``. Both are read and built exactly as
``bench/structure_eval.py`` builds (outline ignored, subdivision off) and scored against the original's
outline with that scorer's own functions. CER = summed Levenshtein distance / summed reference length over
the pages whose text layer holds all their text (pages mostly covered by images are left out: a scanned
exhibit inside a born-digital file has no reference). OCR results are cached under ``--work`` too, so a
second run measures the structure code only; the OCR seconds printed are those of the run that read the
pages (``cached`` says how many came from the cache).

    nice -n 10 .venv/bin/python bench/ocr_structure.py /work/shared/corpus/pdf /work/shared/corpus/filings \\
        --max-pages 60

``--misses`` lists, for each document, the outline entries the scan loses (found in the original, not in the
scan) and gains, and the scan's spurious sections that the original does not have.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import unicodedata
from pathlib import Path

import pymupdf
from rapidfuzz.distance import Levenshtein

sys.path.insert(0, str(Path(__file__).parent))
from structure_eval import Entry, Score, match, predictions, raw_outline, relative_levels, title_key  # noqa: E402

from treebuild.model import SourceDoc  # noqa: E402
from treebuild.readers import read  # noqa: E402
from treebuild.readers.ocr import OcrMode, OcrRequest  # noqa: E402
from treebuild.settings import BuildSettings  # noqa: E402
from treebuild.structure import build_nodes  # noqa: E402

MAX_IMAGE_SHARE = 0.3
"""Pages of the original whose images cover more of the page are left out of the CER."""


def scan_copy(src: Path, dst: Path, dpi: int) -> Path:
    """An image-only PDF of ``src``: every page rendered at ``dpi`` in grey, nothing else kept."""
    if dst.exists() and dst.stat().st_mtime >= src.stat().st_mtime:
        return dst
    out = pymupdf.open()
    with pymupdf.open(src) as doc:
        for page in doc:
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pix)
    dst.parent.mkdir(parents=True, exist_ok=True)
    out.save(dst, garbage=3, deflate=True)
    return dst


def normalise(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def cer(original: SourceDoc, scan: SourceDoc, path: Path) -> tuple[float, int]:
    """Summed distance over summed length, pages of the original whose images cover little of them."""
    dist = total = pages = 0
    with pymupdf.open(path) as doc:
        for ref, hyp, page in zip(original.units, scan.units, doc, strict=True):
            covered = sum(abs(pymupdf.Rect(im["bbox"]) & page.rect) for im in page.get_image_info())
            r = normalise(ref.text)
            if not r or covered > MAX_IMAGE_SHARE * abs(page.rect):
                continue
            dist += Levenshtein.distance(normalise(hyp.text), r)
            total += len(r)
            pages += 1
    return dist / max(1, total), pages


def cut_copy(src: Path, dst: Path, pages: int) -> Path:
    """The first ``pages`` pages of ``src`` with the outline entries that point into them."""
    if dst.exists() and dst.stat().st_mtime >= src.stat().st_mtime:
        return dst
    with pymupdf.open(src) as doc:
        doc.select(list(range(pages)))
        dst.parent.mkdir(parents=True, exist_ok=True)
        doc.save(dst, garbage=3, deflate=True)
    return dst


def differences(a: Score, b: Score) -> list[str]:
    """What the scan ``b`` loses and gains against the original ``a``, and its spurious sections ``a`` lacks."""
    def key(e: Entry) -> tuple[str, int]:
        return (e.title, e.page)

    missed_a, missed_b = {key(e) for e in a.missed}, {key(e) for e in b.missed}
    spurious_a = {(title_key(e.title), e.page) for e in a.spurious}
    out = [f"    lost     p{e.page:<4} L{e.level} {e.title[:90]}" for e in b.missed if key(e) not in missed_a]
    out += [f"    gained   p{e.page:<4} L{e.level} {e.title[:90]}" for e in a.missed if key(e) not in missed_b]
    out += [f"    spurious p{e.page:<4} L{e.level} {e.title[:90]}" for e in b.spurious
            if (title_key(e.title), e.page) not in spurious_a]
    return out


def score(gt_path: Path, doc: SourceDoc) -> Score:
    gt, unplaced = raw_outline(gt_path)
    t1 = time.perf_counter()
    roots, result = build_nodes(doc, BuildSettings(ignore_outline=True, subdivide=False, prompt_version="eval"))
    struct_s = time.perf_counter() - t1
    pred = predictions(roots)
    pairs = match(gt, pred)
    mg, mp = {i for i, _ in pairs}, {j for _, j in pairs}
    gl, pl = relative_levels(gt, mg), relative_levels(pred, mp)
    wrong = [(gt[i], gl[i], pl[j]) for i, j in pairs if gl[i] != pl[j]]
    return Score(name=gt_path.name, pages=len(doc.units), gt=len(gt), unplaced=unplaced, pred=len(pred),
                 matched=len(pairs), level_ok=len(pairs) - len(wrong), method=result.method, read_s=0.0,
                 struct_s=struct_s, missed=[g for i, g in enumerate(gt) if i not in mg],
                 spurious=[p for j, p in enumerate(pred) if j not in mp], wrong_level=wrong)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--min-entries", type=int, default=8)
    ap.add_argument("--max-pages", type=int, default=60)
    ap.add_argument("--scan-dpi", type=int, default=150)
    ap.add_argument("--only", default=None, help="comma-separated parts of file names: only those documents")
    ap.add_argument("--cut", type=int, default=0, help="cut documents over --max-pages to their first N pages")
    ap.add_argument("--misses", action="store_true", help="list the scan's missed and spurious sections")
    ap.add_argument("--work", type=Path, default=Path("/tmp/treebuild-ocr-bench"))
    args = ap.parse_args()
    os.environ.setdefault("TREEBUILD_OCR_CACHE", str(args.work / "cache"))
    print(f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; OCR threads "
          f"{os.environ.get('TREEBUILD_OCR_WORKERS') or os.cpu_count()}")
    hdr = (f"{'document':34} {'pages':>5} {'gt':>4} | {'F1':>5} {'TOC':>5} {'p/s':>6} | {'F1':>5} {'TOC':>5} "
           f"{'p/s':>5} {'CER':>6} {'conf':>5} {'cached':>6} | {'dF1':>5}")
    print(f"{'':46}| {'born-digital':^18} | {'scanned at ' + str(args.scan_dpi) + ' dpi, OCR':^38} |")
    print(hdr)
    print("-" * len(hdr))
    rows: list[tuple[Score, Score, float, float, float]] = []
    for folder in args.folders:
        for path in sorted(folder.glob("*.pdf")):
            if args.only and not any(part in path.name for part in args.only.split(",")):
                continue
            with pymupdf.open(path) as d:
                long = d.page_count > args.max_pages
                if long and not args.cut:
                    continue
                if long:
                    path = cut_copy(path, args.work / "cut" / str(args.cut) / path.name, args.cut)
            with pymupdf.open(path) as d:
                if len(d.get_toc()) < args.min_entries:
                    continue
            scan_path = scan_copy(path, args.work / "scans" / f"{args.scan_dpi}" / path.name, args.scan_dpi)
            t0 = time.perf_counter()
            original = read(path, ocr=OcrRequest(mode=OcrMode.off))
            born_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            scan = read(scan_path)
            scan_s = time.perf_counter() - t0
            facts = scan.ocr or {}
            ocr_s = facts.get("seconds", 0.0)
            err, _pages = cer(original, scan, path)
            a, b = score(path, original), score(path, scan)
            rows.append((a, b, err, len(scan.units) / max(1e-9, scan_s), facts.get("confidence", 0.0)))
            print(f"{path.name[:34]:34} {a.pages:5d} {a.gt:4d} | {a.f1:5.2f} {a.toc_score:5.1f} "
                  f"{a.pages / max(1e-9, born_s + a.struct_s):6.0f} | {b.f1:5.2f} {b.toc_score:5.1f} "
                  f"{b.pages / max(1e-9, scan_s + b.struct_s):5.2f} {err:6.3f} {facts.get('confidence', 0):5.2f} "
                  f"{facts.get('cached', 0):6d} | {b.f1 - a.f1:+5.2f}  ({ocr_s:.0f} s OCR; {a.method} / {b.method})",
                  flush=True)
            if args.misses and (lines := differences(a, b)):
                print("\n".join(lines))
    if rows:
        n = len(rows)
        fa = sum(r[0].f1 for r in rows) / n
        fb = sum(r[1].f1 for r in rows) / n
        ta = sum(r[0].toc_score for r in rows) / n
        tb = sum(r[1].toc_score for r in rows) / n
        print("-" * len(hdr))
        print(f"{'macro average (' + str(n) + ' documents)':46}| {fa:5.2f} {ta:5.1f} {'':6} | {fb:5.2f} {tb:5.1f} "
              f"{'':5} {sum(r[2] for r in rows) / n:6.3f} {sum(r[4] for r in rows) / n:5.2f} {'':6} | {fb - fa:+5.2f}")
        print(f"load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
