"""Pages without usable text, read by OCR into a text layer like any other.

Which pages (``--ocr`` / ``TREEBUILD_OCR``, :class:`OcrMode`): ``auto`` reads a page by OCR when it has
no text but shows something, when its text is mostly characters that decode to nothing (U+FFFD,
private-use code points, control characters), or when images cover most of it and the text on it is
invisible (an earlier OCR layer) or covers almost none of it (a scan with a stamped Bates number or a
running head). Born-digital pages are never read by OCR in ``auto``; ``force`` reads every page,
``off`` none.

How: each page is rendered once in grey at :data:`OCR_DPI`; the image's hash, with the engine's
identity, is the key of a result cache on disk (``TREEBUILD_OCR_CACHE``), so reading the same scan
again (a re-ingest, a new version of the document, another store) makes no OCR call. Pages missing
from the cache are read by the engine on ``TREEBUILD_OCR_WORKERS`` threads (libtesseract releases
the GIL; rendering stays on the calling thread, PyMuPDF being single-threaded).

What: each engine line becomes a :class:`~treebuild.model.Line` in page points with a type size
estimated from its words' heights (:func:`estimate_size`), the engine's blocks become text blocks,
and the page text is the lines in the engine's reading order, one per text line as MuPDF writes
them; so the printed-TOC, heading and numbering sources, page labels, furniture and summaries read
an OCR'd page as they read any other.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

from ..errors import ReadError
from ..model import Line
from .ocr import OcrEngine, OcrLine, OcrMode, OcrRequest, OcrUnavailable, OcrWord, PageImage, engine

__all__ = ["OcrPage", "OcrOutcome", "render_page", "page_needs_ocr", "read_pages",
           "estimate_size", "ocr_progress", "OCR_DPI", "CACHE_ENV", "WORKERS_ENV"]


OCR_DPI = 300
"""Render resolution for OCR: the resolution archive scans are made at, and Tesseract's sweet spot. A 150-dpi
scan reads as well at 150 in less time (``bench/README.md``, "Issue 28, OCR"), but a 300-dpi one would lose half
its detail."""
IMAGE_PAGE_SHARE = 0.5
"""A page whose images cover at least this share of it is an image page (a scan)."""
SPARSE_TEXT_SHARE = 0.15
"""... and its text layer covers almost none of it when the text lines' boxes cover less than this share of
the images' area (a Bates number, a running head over a scanned page)."""
GARBAGE_SHARE = 0.3
"""A text layer with at least this share of U+FFFD (characters MuPDF could not decode) is garbage ..."""
GLYPH_GAPS = 3
"""... and so is one whose words are glyph ids: a font without its ToUnicode map reads as shifted letters with a
control character for each space (``)FMMP\x01XPSME``); at least this many such gaps, and more of them than
spaces. (Math and music fonts also map glyphs to controls and private-use code points, but not between
letters: those born-digital pages are left alone.)"""
_GLYPH_GAP = re.compile(r"(?<=[^\W\d_])[\x00-\x08\x0b\x0c\x0e-\x1f](?=[^\W\d_])")
LOW_CONFIDENCE = 0.7
"""A page whose mean word confidence is below this is listed in the warnings as read with low confidence."""
MIN_WORD_CONFIDENCE = 0.2
"""Words the engine is less sure of are dropped: on a scan's photographs and rules, what Tesseract reads
below this is noise (``|``, ``ee``), and so is a dense dot leader read at 150 dpi (``cccceeee``)."""
CACHE_ENV = "TREEBUILD_OCR_CACHE"
WORKERS_ENV = "TREEBUILD_OCR_WORKERS"
_CACHE_VERSION = 1
"""Part of every cache key: a change of what is cached makes new entries instead of misreading old ones."""

# word heights over type size, by the letters a word has: tall (capitals, digits, ascenders, dotted i and j)
# and deep (descenders); measured on a 10-Q set in Arial, rasterised at 150 dpi and read by Tesseract (the
# median of each class over 5,762 words matched to the born-digital lines; bench/README.md "Issue 28, OCR")
_TALL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdfhijklt()[]{}|/\\$%&@#!?")  # i and j: their dots
_DEEP = frozenset("gjpqy()[]{}|,;")
HEIGHT_RATIO = {(True, True): 0.93, (True, False): 0.75, (False, True): 0.75, (False, False): 0.56}
"""A word's box height over the type size, by (has a tall letter, has a deep letter)."""


@dataclass
class OcrPage:
    """A page read by OCR: its text, lines and blocks as the PDF reader makes them, and its confidence."""

    text: str
    lines: list[Line]
    blocks: list[tuple[float, float, int]]
    confidence: float | None  # mean word confidence; None: nothing read
    cached: bool = False
    strokes: list[float | None] = field(default_factory=list)  # each line's stroke width over its type size


@dataclass
class OcrOutcome:
    """The pages read by OCR (by unit index), what the tree records, and the warnings."""

    pages: dict[int, OcrPage] = field(default_factory=dict)
    engine: str | None = None
    unavailable: bool = False  # pages needed OCR but the engine is not installed (the warnings say what to install)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    def facts(self) -> dict[str, Any] | None:
        """``stats.ocr`` of the tree row: engine, pages read (count and list), mean confidence, cache hits."""
        if not self.pages:
            return None
        confidences = [p.confidence for p in self.pages.values() if p.confidence is not None]
        return {"engine": self.engine, "pages": len(self.pages), "page_list": _ranges(sorted(self.pages)),
                "confidence": round(statistics.fmean(confidences), 3) if confidences else None,
                "low_confidence": _ranges(self.low()),
                "cached": sum(1 for p in self.pages.values() if p.cached), "seconds": round(self.seconds, 2)}

    def low(self) -> list[int]:
        """Pages read with a mean confidence below :data:`LOW_CONFIDENCE` (pages where nothing was read aside)."""
        return sorted(i for i, p in self.pages.items() if p.confidence is not None and p.confidence < LOW_CONFIDENCE)


def _ranges(indexes: list[int]) -> str:
    """1-based page numbers of sorted 0-based indexes as ``1-3,7``."""
    runs: list[list[int]] = []
    for i in indexes:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in runs)


# ---------------------------------------------------------------------- which pages
def _garbage(text: str) -> bool:
    chars = len(text) - sum(map(text.count, " \n\t\r"))
    if chars > 0 and text.count("\ufffd") >= GARBAGE_SHARE * chars:
        return True
    gaps = len(_GLYPH_GAP.findall(text))
    return gaps >= GLYPH_GAPS and gaps > text.count(" ")


def page_needs_ocr(page: pymupdf.Page, text: str, tp: pymupdf.TextPage | None = None) -> str | None:
    """Why ``page`` (whose text layer reads ``text``) needs OCR in ``auto`` mode, or ``None``."""
    if not text.strip():
        return "no text layer"
    if _garbage(text):
        return "text layer of undecodable characters"
    if not page.get_images(full=False):  # cheap (the page's resources): most born-digital pages stop here
        return None
    area = abs(page.rect)
    images = pymupdf.Rect()
    covered = 0.0
    for info in page.get_image_info():
        r = pymupdf.Rect(info["bbox"]) & page.rect
        covered += abs(r)
        images |= r
    if area <= 0 or covered < IMAGE_PAGE_SHARE * area:
        return None
    visible = [s for s in page.get_texttrace() if s.get("type") != 3 and s.get("opacity", 1) > 0]
    if not visible:
        return "invisible text layer over a page image"
    text_area = sum(abs(pymupdf.Rect(s["bbox"])) for s in visible)
    if text_area < SPARSE_TEXT_SHARE * abs(images):
        return "text covering almost none of a page image"
    return None


# ---------------------------------------------------------------------- rendering, cache
def render_page(page: pymupdf.Page, dpi: int = OCR_DPI) -> PageImage:
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    return PageImage(bytes(pix.samples), pix.width, pix.height, dpi)


def _blank(image: PageImage) -> bool:
    """Nothing to read: fewer dark pixels than a few characters make (rules, tinted boxes, an empty page)."""
    dark = len(image.samples) - len(image.samples.translate(None, _DARK))
    return dark < BLANK_DARK_PIXELS * (image.dpi / OCR_DPI) ** 2


BLANK_DARK_PIXELS = 1500
"""A page rendered at :data:`OCR_DPI` with fewer pixels darker than mid-grey is blank (a 12-point word is
about 3,000)."""
_DARK = bytes(range(128))


def _cache_dir() -> Path | None:
    value = os.environ.get(CACHE_ENV)
    if value is not None:
        return None if value.strip().lower() in {"", "off", "0", "none"} else Path(value).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "treebuild" / "ocr"


def _key(eng: OcrEngine, image: PageImage) -> str:
    h = hashlib.sha256(f"{_CACHE_VERSION}|{eng.identity}|{image.dpi}|{image.width}x{image.height}|".encode())
    h.update(image.samples)
    return h.hexdigest()


def _load(folder: Path | None, key: str) -> list[OcrLine] | None:
    if folder is None:
        return None
    try:
        data = json.loads((folder / key[:2] / f"{key}.json").read_text())
        return [OcrLine(d["t"], tuple(d["b"]), d["c"], d["k"],
                        tuple(OcrWord(w[0], tuple(w[1]), w[2]) for w in d["w"])) for d in data]
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def _store(folder: Path | None, key: str, lines: list[OcrLine]) -> None:
    if folder is None:
        return
    data = [{"t": ln.text, "b": ln.box, "c": ln.confidence, "k": ln.block,
             "w": [[w.text, w.box, w.confidence] for w in ln.words]} for ln in lines]
    target = folder / key[:2] / f"{key}.json"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh, separators=(",", ":"))
        os.replace(tmp, target)
    except OSError:  # a read-only or full cache costs a later OCR call, never the build
        pass


# ---------------------------------------------------------------------- progress
ProgressHook = Callable[[str, int, int], None]
"""(file, pages done, pages to read) after each page read by OCR."""
_progress: ProgressHook | None = None
_progress_lock = threading.Lock()
PROGRESS_MIN_PAGES = 4
"""Documents with at least this many pages to read report progress (a bar in the CLI)."""


@contextmanager
def ocr_progress(hook: ProgressHook) -> Iterator[None]:
    """Report OCR progress of the documents read inside the block to ``hook`` (the CLI's bar)."""
    global _progress
    with _progress_lock:
        previous, _progress = _progress, hook
    try:
        yield
    finally:
        with _progress_lock:
            _progress = previous


def _workers() -> int:
    try:
        return max(1, int(os.environ.get(WORKERS_ENV) or 0) or (os.cpu_count() or 1))
    except ValueError:
        return os.cpu_count() or 1


# ---------------------------------------------------------------------- reading
def read_pages(doc: pymupdf.Document, texts: list[str], path: str, request: OcrRequest) -> OcrOutcome:
    """OCR the pages of ``doc`` that need it under ``request.mode`` (``texts``: each page's text layer)."""
    outcome = OcrOutcome()
    if request.mode == OcrMode.off:
        return outcome
    todo: dict[int, str] = {}
    for i, text in enumerate(texts):
        reason = "forced" if request.mode == OcrMode.force else page_needs_ocr(doc[i], text)
        if reason is not None:
            todo[i] = reason
    if not todo:
        return outcome
    if len(todo) > request.max_pages:
        raise ReadError(f"{len(todo):,} pages need OCR, over the limit of {request.max_pages:,}", path=path,
                        hint="raise it with TREEBUILD_OCR_MAX_PAGES if the document is genuine, or ingest "
                             "with --ocr off")
    try:
        eng = engine(request.engine, request.lang)
    except OcrUnavailable as exc:
        outcome.unavailable = True
        outcome.warnings.append(f"{path}: {len(todo)} of {len(texts)} pages have no usable text layer and were "
                                f"not read: {exc}")
        return outcome
    outcome.engine = eng.identity
    t0 = time.perf_counter()
    _read(doc, todo, texts, path, eng, request, outcome)
    outcome.seconds = time.perf_counter() - t0
    low = outcome.low()
    if low:
        outcome.warnings.append(f"{path}: OCR read {len(low)} page(s) with low confidence (below "
                                f"{LOW_CONFIDENCE:.0%}): pages {_ranges(low)}; check them against the scan")
    return outcome


def _read(doc: pymupdf.Document, todo: dict[int, str], texts: list[str], path: str, eng: OcrEngine,
          request: OcrRequest, outcome: OcrOutcome) -> None:
    folder = _cache_dir()
    hook = _progress if len(todo) >= PROGRESS_MIN_PAGES else None
    done = 0
    timeouts: list[int] = []
    workers = min(_workers(), len(todo))
    pending: dict[int, tuple[Future[list[OcrLine] | None], str, PageImage]] = {}

    def finish(i: int, lines: list[OcrLine] | None, image: PageImage, cached: bool) -> None:
        nonlocal done
        if lines is None:
            timeouts.append(i)
        else:
            layout = ocr_layout(lines, image)
            if layout.text.strip() or not texts[i].strip():
                layout.cached = cached
                outcome.pages[i] = layout
        done += 1
        if hook is not None:
            hook(path, done, len(todo))

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="treebuild-ocr") as pool:
        for i in todo:
            image = render_page(doc[i])
            if _blank(image):
                finish(i, [], image, True)
                continue
            key = _key(eng, image)
            cached = _load(folder, key)
            if cached is not None:
                finish(i, cached, image, True)
                continue
            pending[i] = (pool.submit(_recognize, eng, image, request.page_seconds), key, image)
            while len(pending) >= 2 * workers:  # bounded: a 300-dpi page image is about 8 MB
                _collect(pending, folder, finish)
        while pending:
            _collect(pending, folder, finish)
    mark_bold(outcome.pages.values())
    if timeouts:
        outcome.warnings.append(f"{path}: OCR gave up on {len(timeouts)} page(s) after {request.page_seconds:g} s "
                                f"each (raise TREEBUILD_OCR_PAGE_SECONDS): pages {_ranges(sorted(timeouts))}")


def _collect(pending: dict[int, tuple[Future[list[OcrLine] | None], str, PageImage]], folder: Path | None,
             finish: Callable[[int, list[OcrLine] | None, PageImage, bool], None]) -> None:
    i = next(iter(pending))  # in page order, so progress and the cache fill in order
    future, key, image = pending.pop(i)
    lines = future.result()
    if lines is not None:
        _store(folder, key, lines)
    finish(i, lines, image, False)


def _recognize(eng: OcrEngine, image: PageImage, seconds: float) -> list[OcrLine] | None:
    """The engine's lines, or ``None`` when it ran out of time (an engine that cannot stop early is
    judged by the clock afterwards)."""
    t0 = time.perf_counter()
    lines = eng.recognize(image, seconds)
    return None if lines is None or time.perf_counter() - t0 > seconds else lines


# ---------------------------------------------------------------------- lines into a text layer
def estimate_size(line: OcrLine, scale: float) -> float:
    """Type size in points of a line from its words' heights (``scale``: points per pixel): each word's
    height over the share of the type size its letters reach (:data:`HEIGHT_RATIO`), the median of them."""
    words = line.words or (OcrWord(line.text, line.box, line.confidence),)
    sizes = []
    for w in words:
        letters = [c for c in w.text if c.isalnum() or c in _TALL or c in _DEEP]
        if not letters:
            continue
        tall = any(c in _TALL or c.isupper() for c in letters)
        deep = any(c in _DEEP for c in letters)
        sizes.append((w.box[3] - w.box[1]) * scale / HEIGHT_RATIO[(tall, deep)])
    if not sizes:
        return round((line.box[3] - line.box[1]) * scale, 1)
    return round(statistics.median(sizes) * 2) / 2  # half points: the steps heading styles are told apart by


def stroke_width(image: PageImage, box: tuple[float, float, float, float]) -> float | None:
    """Mean length in pixels of the dark runs along the rows of ``box``: the width of the strokes crossed
    (vertical stems mostly), which bold type makes about 1.5 times wider."""
    w = image.width
    x0, x1 = max(0, int(box[0])), min(w, int(box[2]) + 1)
    dark = runs = 0
    for y in range(max(0, int(box[1])), min(image.height, int(box[3]) + 1)):
        row = image.samples[y * w + x0:y * w + x1].translate(_BINARY)
        dark += row.count(1)
        runs += row.count(b"\x00\x01") + (row[:1] == b"\x01")
    return dark / runs if runs else None


_BINARY = bytes(1 if i < 128 else 0 for i in range(256))
BOLD_STEP = 1.25
"""A line whose strokes are this much wider than the document's body text (both over their type size) is
bold: on a 10-Q's Arial rasterised at 150 dpi, bold lines measure 0.137-0.163 (quartiles) and regular ones
0.098-0.103 (bench/README.md, "Issue 28, OCR")."""
MIN_BODY_CHARS = 200
"""The body's stroke is known from this many characters; fewer, and no line is marked bold."""


def mark_bold(pages: Iterable[OcrPage]) -> None:
    """Mark bold the lines whose strokes are :data:`BOLD_STEP` wider than the body text's, the stroke width
    (over the type size) holding most characters of the document's OCR'd pages."""
    pages = list(pages)
    weighted = sorted((r, len(ln.text)) for p in pages for ln, r in zip(p.lines, p.strokes, strict=True)
                      if r is not None)
    total = sum(n for _, n in weighted)
    if total < MIN_BODY_CHARS:
        return
    half, body = total / 2, weighted[-1][0]
    for r, n in weighted:
        half -= n
        if half <= 0:
            body = r
            break
    for p in pages:
        p.lines = [dataclasses.replace(ln, bold=True) if r is not None and r >= BOLD_STEP * body else ln
                   for ln, r in zip(p.lines, p.strokes, strict=True)]


COLUMN_GAP = 2.0
"""A gap between two words of an engine line wider than this many type sizes separates two lines (table
cells, a TOC entry's page number far right), as MuPDF splits a born-digital page's text."""


def split_columns(ln: OcrLine) -> list[OcrLine]:
    """``ln`` cut at gaps wider than :data:`COLUMN_GAP` type sizes between its words."""
    if len(ln.words) < 2:
        return [ln]
    limit = COLUMN_GAP * estimate_size(ln, 1.0)  # in pixels
    pieces: list[list[OcrWord]] = [[ln.words[0]]]
    for prev, word in zip(ln.words, ln.words[1:], strict=False):
        if word.box[0] - prev.box[2] > limit:
            pieces.append([])
        pieces[-1].append(word)
    if len(pieces) == 1:
        return [ln]
    return [OcrLine(" ".join(w.text for w in ws), (min(w.box[0] for w in ws), min(w.box[1] for w in ws),
                    max(w.box[2] for w in ws), max(w.box[3] for w in ws)),
                    statistics.fmean(w.confidence for w in ws), ln.block, tuple(ws)) for ws in pieces]


def ocr_layout(lines: list[OcrLine], image: PageImage) -> OcrPage:
    """A page's text, :class:`Line` objects and blocks from the engine's lines (pixels of ``image``); each
    line's stroke width over its type size is kept for :func:`mark_bold`."""
    scale = 72 / image.dpi
    strokes: list[float | None] = []
    parts: list[str] = []
    out: list[Line] = []
    blocks: list[tuple[float, float, int]] = []
    confidences: list[float] = []
    char = 0
    current: int | None = None
    for ln in (piece for engine_line in lines for piece in split_columns(engine_line)):
        words = [w for w in ln.words if w.confidence >= MIN_WORD_CONFIDENCE] if ln.words else None
        if words is not None and not words:
            continue
        text = " ".join(w.text for w in words) if words else ln.text
        if words is not None and len(words) != len(ln.words):
            xs = [w.box for w in words]
            box = (min(b[0] for b in xs), min(b[1] for b in xs), max(b[2] for b in xs), max(b[3] for b in xs))
            ln = OcrLine(text, box, ln.confidence, ln.block, tuple(words))
        if ln.confidence < MIN_WORD_CONFIDENCE and not ln.words:
            continue
        confidences.extend(w.confidence for w in ln.words) if ln.words else confidences.append(ln.confidence)
        x0, y0, x1, y1 = (v * scale for v in ln.box)
        if current != ln.block:
            current = ln.block
            blocks.append((y0, y1, char))
        else:
            b0, b1, start = blocks[-1]
            blocks[-1] = (min(b0, y0), max(b1, y1), start)
        size = estimate_size(ln, scale)
        out.append(Line(text, size, False, x0, y0, x1, y1, char, len(blocks) - 1, "OCR"))
        stroke = stroke_width(image, ln.box) if image.samples else None
        strokes.append(stroke / (size / scale) if stroke is not None and size > 0 else None)
        parts.append(text + "\n")
        char += len(text) + 1
    confidence = round(statistics.fmean(confidences), 3) if confidences else None
    return OcrPage("".join(parts), out, blocks, confidence, strokes=strokes)
