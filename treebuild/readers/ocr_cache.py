"""The OCR result cache on disk: what the engine read on a page, found again without reading it.

Two keys lead to one entry. The **image key** hashes the page as rendered for OCR (pixels, size, resolution):
the same picture in another file, or the same scan saved again by another tool, finds its result after a
render. The **content key** hashes what the page is drawn from (:func:`page_digest`: its content streams and
everything they use, as stored bytes, whatever the objects' numbers), so reading the same file again (a
re-ingest, a backfill's second pass, the next version of a document whose other pages changed) finds the
result without rendering the page at all; a content entry only points at an image entry. Both keys include
the engine's identity and :data:`CACHE_VERSION`.

The folder is ``TREEBUILD_OCR_CACHE`` (``off`` for none), else ``$XDG_CACHE_HOME/treebuild/ocr``. A cache that
cannot be written or read costs an OCR call, never the build.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

import pymupdf

from .ocr import OcrEngine, OcrLine, OcrWord, PageImage

__all__ = ["CACHE_ENV", "CACHE_VERSION", "Cached", "cache_dir", "image_key", "content_key", "page_digest", "load",
           "store", "link"]

CACHE_ENV = "TREEBUILD_OCR_CACHE"
CACHE_VERSION = 2
"""Part of every key: a change of what is cached (2: pages read after light-on-dark boxes are turned and past dot
leaders, with each word's ink) makes new entries instead of misreading old ones."""

Cached = tuple[int, list[OcrLine]]
"""What an entry holds: the resolution the page was read at, and the engine's lines."""


def cache_dir() -> Path | None:
    value = os.environ.get(CACHE_ENV)
    if value is not None:
        return None if value.strip().lower() in {"", "off", "0", "none"} else Path(value).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "treebuild" / "ocr"


def image_key(eng: OcrEngine, image: PageImage) -> str:
    h = hashlib.sha256(f"{CACHE_VERSION}|{eng.identity}|{image.dpi}|{image.width}x{image.height}|".encode())
    h.update(image.samples)
    return h.hexdigest()


def content_key(eng: OcrEngine, digest: str, dpi: int) -> str:
    return hashlib.sha256(f"{CACHE_VERSION}|{eng.identity}|{dpi}|page|{digest}".encode()).hexdigest()


# ---------------------------------------------------------------------- what a page is drawn from
_REF = re.compile(rb"(\d+) (\d+) R")
_BACK_REF = re.compile(rb"/(?:Parent|P|Popup|StructParent|StructParents|Metadata)\s+\d+ \d+ R")
"""References out of a page's own drawing: up the page tree, an annotation's page and popup, the structure tree,
XMP metadata. Left out, so the walk stays on what is drawn (and never walks the whole document)."""
_PAGE_KEYS = ("Contents", "Resources", "Annots", "Group", "UserUnit")
_INHERITED = ("Resources",)


def page_digest(doc: pymupdf.Document, page: pymupdf.Page, memo: dict[int, bytes]) -> str:
    """A hash of everything that draws ``page``: its boxes and rotation, its content streams, resources (images,
    fonts, forms, colour spaces) and annotations, objects as stored (streams still compressed), each reference
    replaced by the hash of what it refers to (so a file saved again with renumbered objects gives the same
    digest). ``memo`` holds the objects hashed so far in ``doc`` (a font or image shared by pages is hashed once)."""
    h = hashlib.sha256()
    h.update(repr((tuple(page.mediabox), tuple(page.cropbox), page.rotation)).encode())
    for key in _PAGE_KEYS:
        kind, value = _page_key(doc, page.xref, key)
        if kind != "null":
            h.update(f"/{key} {kind} ".encode())
            h.update(_resolved(doc, value.encode(), memo))
    return h.hexdigest()


def _page_key(doc: pymupdf.Document, xref: int, key: str) -> tuple[str, str]:
    kind, value = doc.xref_get_key(xref, key)
    seen = {xref}
    while kind == "null" and key in _INHERITED:  # from the page tree above
        pkind, parent = doc.xref_get_key(xref, "Parent")
        if pkind != "xref":
            break
        xref = int(parent.split()[0])
        if xref in seen:
            break
        seen.add(xref)
        kind, value = doc.xref_get_key(xref, key)
    return kind, value


def _resolved(doc: pymupdf.Document, source: bytes, memo: dict[int, bytes]) -> bytes:
    source = _BACK_REF.sub(b"", source)
    return _REF.sub(lambda m: b"<" + _object(doc, int(m.group(1)), memo) + b">", source)


def _object(doc: pymupdf.Document, xref: int, memo: dict[int, bytes]) -> bytes:
    if xref in memo:
        return memo[xref]
    if not 0 < xref < doc.xref_length():
        return b"missing"
    memo[xref] = f"cycle {xref}".encode()  # a reference back to an object being hashed
    h = hashlib.sha256(_resolved(doc, doc.xref_object(xref, compressed=True).encode(), memo))
    if doc.xref_is_stream(xref):
        h.update(doc.xref_stream_raw(xref) or b"")
    memo[xref] = h.hexdigest().encode()
    return memo[xref]


# ---------------------------------------------------------------------- entries
def _path(folder: Path, key: str) -> Path:
    return folder / key[:2] / f"{key}.json"


def load(folder: Path | None, key: str) -> Cached | None:
    """The entry of ``key`` (an image key, or a content key leading to one)."""
    if folder is None:
        return None
    try:
        data = json.loads(_path(folder, key).read_text())
        if "image" in data:
            data = json.loads(_path(folder, data["image"]).read_text())
        lines = [OcrLine(d["t"], tuple(d["b"]), d["c"], d["k"],
                         tuple(OcrWord(w[0], tuple(w[1]), w[2], (w[3], w[4])) for w in d["w"]))
                 for d in data["lines"]]
        return int(data["dpi"]), lines
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def store(folder: Path | None, key: str, dpi: int, lines: list[OcrLine]) -> None:
    _write(folder, key, {"dpi": dpi, "lines": [
        {"t": ln.text, "b": ln.box, "c": ln.confidence, "k": ln.block,
         "w": [[w.text, w.box, w.confidence, *w.ink] for w in ln.words]} for ln in lines]})


def link(folder: Path | None, key: str, image: str) -> None:
    """Make the content key ``key`` lead to the entry of the image key ``image``."""
    _write(folder, key, {"image": image})


def _write(folder: Path | None, key: str, data: object) -> None:
    if folder is None:
        return
    target = _path(folder, key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh, separators=(",", ":"))
        os.replace(tmp, target)
    except OSError:  # a read-only or full cache costs a later OCR call, never the build
        pass
