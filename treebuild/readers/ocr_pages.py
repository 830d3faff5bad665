"""Pages without usable text, read by OCR into a text layer like any other.

Which pages (``--ocr`` / ``TREEBUILD_OCR``, :class:`OcrMode`): ``auto`` reads a page by OCR when it has
no text but shows something, when its text is mostly characters that decode to nothing (U+FFFD,
private-use code points, control characters), or when an image covers (nearly) the whole of it and the text
on it is invisible (an earlier OCR layer) or covers almost none of it (a scan with a stamped Bates number or a
running head). Born-digital pages are never read by OCR in ``auto`` (a figure with its caption keeps its text
layer); ``force`` reads every page, ``off`` none.

How: a page is looked up in the result cache (``ocr_cache``) by what it is drawn from, without rendering it;
else it is rendered once in grey at :data:`OCR_DPI` and looked up by its pixels (the same scan in another file);
so reading the same scan again (a re-ingest, a new version of the document, another store) makes no OCR call.
Pages missing from the cache are read on ``TREEBUILD_OCR_WORKERS`` threads (libtesseract releases the GIL;
rendering stays on the calling thread, PyMuPDF being single-threaded): light text on dark boxes is turned dark
first, lines holding a dot leader are read again without it, and each word's ink is measured (``ocr_image``).

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
from ..findings import Finding, Stage
from ..model import Line
from .fonts import font_traits
from .ocr import (
    WORKERS_ENV,
    Box,
    OcrEngine,
    OcrLine,
    OcrMode,
    OcrRequest,
    OcrUnavailable,
    OcrWord,
    PageImage,
    engine,
    ocr_threads,
)
from .ocr_cache import CACHE_ENV, cache_dir, content_key, image_key, link, load, page_digest, store
from .ocr_image import (
    Leader,
    bullet_before,
    dark_pixels,
    find_leader,
    ink_box,
    ink_end,
    invert_dark_boxes,
    looks_like_bullet,
    stroke_counts,
)

__all__ = ["OcrPage", "OcrOutcome", "render_page", "page_needs_ocr", "read_pages",
           "estimate_size", "ocr_layout", "ocr_progress", "progress_files", "OCR_DPI", "CACHE_ENV", "WORKERS_ENV",
           "PROGRESS_ENV"]


OCR_DPI = 300
"""Render resolution for OCR: the resolution archive scans are made at, and Tesseract's sweet spot. A 150-dpi
scan reads as well at 150 in less time (``bench/README.md``, "Issue 28, OCR"), but a 300-dpi one would lose half
its detail."""
IMAGE_PAGE_SHARE = 0.85
"""A page whose images cover at least this share of it is an image page (a scan: the scanner's picture is the
whole page). Born-digital pages with a large figure and its caption stay below it (the most covered of the
corpora's, an annual report's infographic, 0.70): their text layer is good and is kept (``bench/README.md``,
"Issue 28, OCR")."""
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
    line_confidence: list[float] = field(default_factory=list)  # each line's mean word confidence


@dataclass
class OcrOutcome:
    """The pages read by OCR (by unit index), what the tree records, and the findings."""

    pages: dict[int, OcrPage] = field(default_factory=dict)
    engine: str | None = None
    unavailable: bool = False  # pages needed OCR but the engine is not installed (the findings say what to install)
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)

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


# ---------------------------------------------------------------------- rendering
MAX_OCR_PIXELS = 64_000_000
"""A page is rendered for OCR at :data:`OCR_DPI` unless that makes more pixels than this (64 MB in grey: a page of
26 by 26 inches, an A0 poster at 250 dpi); a larger page is rendered at the resolution that makes this many. A page
of 200 by 200 inches (PDF's largest) at 300 dpi would be 3.6 billion pixels, which MuPDF refuses ("Overly large
image"), and the whole read failed; at 40 dpi its large type still reads."""


def render_page(page: pymupdf.Page, dpi: int = OCR_DPI) -> PageImage:
    """The page in grey at ``dpi``, or lower when that would exceed :data:`MAX_OCR_PIXELS`."""
    inches = abs(page.rect) / 72**2  # square inches
    if inches * dpi * dpi > MAX_OCR_PIXELS:
        dpi = max(1, int((MAX_OCR_PIXELS / inches) ** 0.5))
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    return PageImage(bytes(pix.samples), pix.width, pix.height, dpi)


def _blank(image: PageImage) -> bool:
    """Nothing to read: fewer dark pixels than a few characters make, rules left out (tinted boxes, a page holding
    only its header's rule, an empty page)."""
    return dark_pixels(image) < BLANK_DARK_PIXELS * (image.dpi / OCR_DPI) ** 2


BLANK_DARK_PIXELS = 1500
"""A page rendered at :data:`OCR_DPI` with fewer pixels darker than mid-grey (outside rules) is blank (a 12-point
word is about 3,000)."""


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


PROGRESS_ENV = "TREEBUILD_OCR_PROGRESS"
"""A folder: when set and no :func:`ocr_progress` hook is, each document being read by OCR in this process keeps a
small file there saying how far it got (removed when done), for a parent process to show (``treebuild backfill``
sets it for its worker processes and draws a bar per file)."""


def _file_hook(folder: Path) -> ProgressHook:
    def hook(path: str, done: int, total: int) -> None:
        name = hashlib.sha1(f"{os.getpid()}|{path}".encode()).hexdigest()[:16]
        target = folder / f"{name}.json"
        try:
            if done >= total:
                target.unlink(missing_ok=True)
                return
            tmp = folder / f"{name}.tmp"
            tmp.write_text(json.dumps({"path": path, "done": done, "total": total}))
            os.replace(tmp, target)
        except OSError:  # progress is a courtesy: never the build's failure
            pass
    return hook


def progress_files(folder: Path) -> list[tuple[str, int, int]]:
    """(file, pages done, pages to read) of each document whose OCR progress is kept in ``folder``
    (:data:`PROGRESS_ENV`), in file-name order."""
    out: list[tuple[str, int, int]] = []
    for entry in sorted(folder.glob("*.json")):
        try:
            data = json.loads(entry.read_text())
            out.append((str(data["path"]), int(data["done"]), int(data["total"])))
        except (OSError, ValueError, KeyError, TypeError):  # removed or replaced while read
            continue
    return out


def _hook() -> ProgressHook | None:
    if _progress is not None:
        return _progress
    folder = os.environ.get(PROGRESS_ENV)
    return _file_hook(Path(folder)) if folder else None


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
        outcome.findings.append(Finding("ocr_unavailable", Stage.read, f"{len(todo)} of {len(texts)} pages have "
                                        f"no usable text layer and were not read: {exc}"))
        return outcome
    outcome.engine = eng.identity
    t0 = time.perf_counter()
    _read(doc, todo, texts, path, eng, request, outcome)
    outcome.seconds = time.perf_counter() - t0
    low = outcome.low()
    if low:
        outcome.findings.append(Finding("ocr_low_confidence", Stage.read, f"OCR read {len(low)} page(s) with low "
                                        f"confidence (below {LOW_CONFIDENCE:.0%}): pages {_ranges(low)}; check them "
                                        "against the scan"))
    return outcome


def _read(doc: pymupdf.Document, todo: dict[int, str], texts: list[str], path: str, eng: OcrEngine,
          request: OcrRequest, outcome: OcrOutcome) -> None:
    folder = cache_dir()
    hook = _hook() if len(todo) >= PROGRESS_MIN_PAGES else None
    done = 0
    timeouts: list[int] = []
    workers = min(ocr_threads(), len(todo))
    pending: dict[int, tuple[Future[list[OcrLine] | None], str, str, int]] = {}
    memo: dict[int, bytes] = {}  # the document's objects hashed so far, for the content keys

    def finish(i: int, lines: list[OcrLine] | None, dpi: int, cached: bool) -> None:
        nonlocal done
        if lines is None:
            timeouts.append(i)
        else:
            layout = ocr_layout(lines, dpi)
            if layout.text.strip() or not texts[i].strip():
                layout.cached = cached
                outcome.pages[i] = layout
        done += 1
        if hook is not None:
            hook(path, done, len(todo))

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="treebuild-ocr") as pool:
        for i in todo:
            page = doc[i]
            drawn = content_key(eng, page_digest(doc, page, memo), OCR_DPI)
            hit = load(folder, drawn)  # the same page read before: no rendering
            if hit is not None:
                finish(i, hit[1], hit[0], True)
                continue
            image = render_page(page)
            key = image_key(eng, image)
            hit = load(folder, key)  # the same picture read before, in this file or another
            if hit is None and _blank(image):
                hit = (image.dpi, [])
                store(folder, key, image.dpi, [])
            if hit is not None:
                link(folder, drawn, key)
                finish(i, hit[1], hit[0], True)
                continue
            pending[i] = (pool.submit(_recognize, eng, image, request.page_seconds), key, drawn, image.dpi)
            del image  # the worker holds it until read: at most 2 x workers images (8 MB each) are alive
            while len(pending) >= 2 * workers:
                _collect(pending, folder, finish)
        while pending:
            _collect(pending, folder, finish)
    mark_bold(outcome.pages.values())
    if timeouts:
        outcome.findings.append(Finding("ocr_timeout", Stage.read, f"OCR gave up on {len(timeouts)} page(s) after "
                                        f"{request.page_seconds:g} s each (raise TREEBUILD_OCR_PAGE_SECONDS): pages "
                                        f"{_ranges(sorted(timeouts))}"))


def _collect(pending: dict[int, tuple[Future[list[OcrLine] | None], str, str, int]], folder: Path | None,
             finish: Callable[[int, list[OcrLine] | None, int, bool], None]) -> None:
    i = next(iter(pending))  # in page order, so progress and the cache fill in order
    future, key, drawn, dpi = pending.pop(i)
    lines = future.result()
    if lines is not None:
        store(folder, key, dpi, lines)
        link(folder, drawn, key)
    finish(i, lines, dpi, False)


def _recognize(eng: OcrEngine, image: PageImage, seconds: float) -> list[OcrLine] | None:
    """What the engine reads on ``image``, light text on dark boxes turned dark on light first, lines holding a
    dot leader read again without it, each word's ink measured; ``None`` when the engine ran out of time (one
    that cannot stop early is judged by the clock afterwards)."""
    t0 = time.perf_counter()
    image, _boxes = invert_dark_boxes(image)
    lines = eng.recognize(image, seconds)
    if lines is None:
        return None
    lines = [ln if ln.words else dataclasses.replace(ln, words=(OcrWord(ln.text, ln.box, ln.confidence),))
             for ln in lines]
    lines = _past_leaders(eng, image, lines, seconds - (time.perf_counter() - t0))
    if lines is None or time.perf_counter() - t0 > seconds:
        return None
    return [_measured(image, ln) for ln in lines]


BULLET = "\u2022"
BULLET_CHARS = 2
"""A line's first word of at most this many characters may be a bullet misread (``«=``)."""


def _measured(image: PageImage, ln: OcrLine) -> OcrLine:
    """``ln`` with each word's ink counted (:attr:`OcrWord.ink`), its box cut free of a rule running through it
    (:func:`ink_box`), and a list bullet (by its shape: :func:`looks_like_bullet`) written as a bullet, whether
    the engine misread it (``«=``) or left it out; a bullet gets the confidence of its line's words."""
    words = [dataclasses.replace(w, box=ink_box(image, w.box), ink=stroke_counts(image, w.box)) for w in ln.words]
    first = words[0]
    known = statistics.fmean(w.confidence for w in words)
    if len(words) > 1 and len(first.text) <= BULLET_CHARS and first.text != BULLET and \
            looks_like_bullet(image, first.box, ln.box):
        words[0] = dataclasses.replace(first, text=BULLET, confidence=known)
    elif (dot := bullet_before(image, ln.box)) is not None:  # the engine left it out
        words.insert(0, OcrWord(BULLET, dot, known, stroke_counts(image, dot)))
    box = (min(w.box[0] for w in words), min(w.box[1] for w in words), max(w.box[2] for w in words),
           max(w.box[3] for w in words))
    return OcrLine(" ".join(w.text for w in words), box, ln.confidence, ln.block, tuple(words))


LINE_MARGIN = 0.2
"""The words before a leader are read again in their line's box widened by this many line heights on the left,
top and bottom: read tight, the edges of the first digits are lost (``3.1`` read as ``31``)."""
LEADER_SLACK = 0.25
LEADER_REACH = 6.0
"""The page number after a leader is looked for within this many line heights past its last dot (the engine
sometimes ends the line at the leader)."""
"""A word ends before a dot leader when it reaches at most this many line heights into it (the scan's blur)."""


def _past_leaders(eng: OcrEngine, image: PageImage, lines: list[OcrLine], seconds: float) -> list[OcrLine] | None:
    """``lines`` with each dot leader (:func:`find_leader`) as one word of periods, and the words on either side
    of it read again as lines of their own: read with the leader, they come out garbled (``INTPOCDUCTION. oon.
    cece``) or run into it (``cccee3``). The words after it are kept as the engine read them when one of them
    starts past the leader. ``None`` when reading again ran out of time."""
    found: dict[int, Leader] = {}
    for k, ln in enumerate(lines):
        leader = find_leader(image, ln.box)
        if leader is not None:
            found[k] = leader
    if not found:
        return lines
    boxes: dict[tuple[int, str], Box] = {}
    for k, leader in found.items():
        ln = lines[k]
        x0, y0, x1, y1 = ln.box
        pad = LINE_MARGIN * (y1 - y0)
        slack = LEADER_SLACK * (y1 - y0)
        if leader.x0 - x0 > y1 - y0:  # room for a word before the leader
            boxes[k, "before"] = (x0 - pad, y0 - pad, (leader.after + leader.x0) / 2, y1 + pad)  # clear of both
        if not any(w.box[0] >= leader.x1 - slack for w in ln.words):  # the page number, missed or run in
            end = ink_end(image, (leader.x1, y0, leader.x1 + LEADER_REACH * (y1 - y0), y1), y1 - y0)
            if end is not None:
                boxes[k, "after"] = (leader.x1, y0 - pad, end + pad, y1 + pad)
    reread = eng.read_lines(image, list(boxes.values()), max(0.0, seconds)) if boxes else []
    if reread is None:
        return None
    again = dict(zip(boxes, reread, strict=True))
    out = list(lines)
    for k, leader in found.items():
        ln = lines[k]
        slack = LEADER_SLACK * (ln.box[3] - ln.box[1])
        before = again.get((k, "before")) or [w for w in ln.words if w.box[2] <= leader.x0 + slack]
        after = again.get((k, "after")) or [w for w in ln.words if w.box[0] >= leader.x1 - slack]
        known = [w.confidence for w in (*before, *after)]
        dots = OcrWord("." * leader.dots, (leader.x0, ln.box[1], leader.x1, ln.box[3]),
                       statistics.fmean(known) if known else 0.0)
        words = (*before, dots, *after)
        out[k] = OcrLine(" ".join(w.text for w in words), ln.box, statistics.fmean(w.confidence for w in words),
                         ln.block, words)
    tails = [boxes[key] for key in boxes if key[1] == "after"]
    return [ln for k, ln in enumerate(out) if k in found or not any(  # read again as a leader's tail
        t[0] <= ln.box[0] and ln.box[2] <= t[2] and t[1] <= (ln.box[1] + ln.box[3]) / 2 <= t[3] for t in tails)]


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


def _stroke(words: Iterable[OcrWord]) -> float | None:
    """Mean length in pixels of the runs of ink along the rows of ``words`` (:attr:`OcrWord.ink`): the width of
    the strokes crossed (vertical stems mostly), which bold type makes about 1.5 times wider."""
    ink = runs = 0
    for w in words:
        ink += w.ink[0]
        runs += w.ink[1]
    return ink / runs if runs else None


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


def ocr_layout(lines: list[OcrLine], dpi: int) -> OcrPage:
    """A page's text, :class:`Line` objects and blocks from the engine's lines (pixels of an image at ``dpi``);
    each line's stroke width over its type size is kept for :func:`mark_bold`."""
    scale = 72 / dpi
    strokes: list[float | None] = []
    parts: list[str] = []
    out: list[Line] = []
    blocks: list[tuple[float, float, int]] = []
    confidences: list[float] = []
    line_confidence: list[float] = []
    char = 0
    current: int | None = None
    for ln, row_size in ((piece, estimate_size(row, scale)) for row in lines for piece in split_columns(row)):
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
        known = [w.confidence for w in ln.words] if ln.words else [ln.confidence]
        confidences.extend(known)
        line_confidence.append(statistics.fmean(known))
        x0, y0, x1, y1 = (v * scale for v in ln.box)
        if current != ln.block:
            current = ln.block
            blocks.append((y0, y1, char))
        else:
            b0, b1, start = blocks[-1]
            blocks[-1] = (min(b0, y0), max(b1, y1), start)
        size = row_size  # a cell's few words would give a noisy size; its row's are more and of one type
        out.append(Line(text, size, False, x0, y0, x1, y1, char, len(blocks) - 1, "OCR", 0, 0.0, *font_traits("OCR")))
        stroke = _stroke(ln.words)
        strokes.append(stroke / (size / scale) if stroke is not None and size > 0 else None)
        parts.append(text + "\n")
        char += len(text) + 1
    confidence = round(statistics.fmean(confidences), 3) if confidences else None
    return OcrPage("".join(parts), out, blocks, confidence, strokes=strokes, line_confidence=line_confidence)
