"""Helpers shared by readers."""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["file_digest"]


def file_digest(path: Path) -> tuple[str, int]:
    """SHA-256 hex digest and size in bytes, read in chunks so large files stay cheap."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size
