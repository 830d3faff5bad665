"""Small JPEG thumbnails of PDF pages, rendered with PyMuPDF and embedded as data URIs."""

from __future__ import annotations

import base64
from collections.abc import Iterable
from pathlib import Path

from ..readers.common import file_digest

__all__ = ["THUMB_WIDTH", "JPEG_QUALITY", "source_problem", "render_thumbnails"]

THUMB_WIDTH = 180  # pixels: enough to recognise a page's layout and headings, ~5-10 KB each
JPEG_QUALITY = 55  # thumbnails are for recognising a page, not reading it


def source_problem(path: str, sha256: str | None) -> str | None:
    """Why the stored source file cannot be used for thumbnails, or ``None`` when it can."""
    p = Path(path)
    if "://" in path:
        return f"the source {path} is not a local file"
    if not p.is_file():
        return f"the source file {path} is not there any more"
    try:
        digest, _ = file_digest(p)
    except OSError as exc:
        return f"the source file {path} cannot be read ({exc.strerror or exc})"
    if sha256 and digest != sha256:
        return f"the source file {path} has changed since this version was built (SHA-256 differs)"
    return None


def render_thumbnails(path: str, pages: Iterable[int], *,
                      width: int = THUMB_WIDTH) -> tuple[dict[int, str], str | None]:
    """``{page: data URI}`` for the 1-based ``pages`` of the PDF at ``path``, and a problem
    message when some or all of them could not be rendered."""
    import pymupdf

    out: dict[int, str] = {}
    try:
        doc = pymupdf.open(path)
    except Exception as exc:  # PyMuPDF raises several types for damaged files
        return out, f"the source PDF {path} cannot be opened ({exc})"
    failed = 0
    try:
        for page_no in pages:
            if not 1 <= page_no <= doc.page_count:
                continue
            try:
                page = doc[page_no - 1]
                scale = width / max(page.rect.width, 1.0)
                pix = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False)
                data = pix.tobytes("jpeg", jpg_quality=JPEG_QUALITY)
            except Exception:  # one damaged page must not cost the others
                failed += 1
                continue
            out[page_no] = "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii")
    finally:
        doc.close()
    return out, (f"{failed} page thumbnail(s) could not be rendered" if failed else None)
