"""Helpers shared by readers."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ReadError

if TYPE_CHECKING:
    from ..settings import Limits

__all__ = ["file_digest", "read_markup"]


def file_digest(path: Path) -> tuple[str, int]:
    """SHA-256 hex digest and size in bytes, read in chunks so large files stay cheap."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


def read_markup(path: Path, limits: Limits, what: str) -> tuple[bytes, str]:
    """The bytes of a text or markup file (``what``: "HTML", "text") and their SHA-256, under the cap on
    such files (``Limits.max_html_mb``: a document, not a data dump, is read whole into memory)."""
    from .limits import LimitExceeded

    size = path.stat().st_size
    if size > limits.max_html_bytes:
        raise LimitExceeded(f"{what} file size {size / (1 << 20):,.1f} MB is over the limit of "
                            f"{limits.max_html_mb:g} MB", path=str(path),
                            hint="raise it with TREEBUILD_MAX_HTML_MB if the document is genuine")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ReadError(f"cannot read file: {exc.strerror or exc}", path=str(path)) from exc
    return raw, hashlib.sha256(raw).hexdigest()
