"""Caps on one document (:class:`~treebuild.settings.Limits`), enforced before the heavy work.

Each check raises a :class:`~treebuild.errors.ReadError` naming the file, what it measured, the
cap and the environment variable that raises it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ReadError

if TYPE_CHECKING:
    from ..model import SourceDoc
    from ..settings import Limits

__all__ = ["check_file_size", "check_pages", "check_unpacked", "check_text", "LimitExceeded"]

_MiB = 1 << 20


class LimitExceeded(ReadError):
    """A document is larger than a configured cap."""


def _over(path: Path, what: str, value: str, cap: str, env: str) -> LimitExceeded:
    return LimitExceeded(f"{what} {value} is over the limit of {cap}", path=str(path),
                         hint=f"raise it with {env} if the document is genuine")


def check_file_size(path: Path, limits: Limits) -> None:
    size = path.stat().st_size
    if size > limits.max_file_bytes:
        raise _over(path, "file size", f"{size / _MiB:,.1f} MB", f"{limits.max_file_mb:g} MB", "TREEBUILD_MAX_FILE_MB")


def check_pages(path: Path, pages: int, limits: Limits) -> None:
    if pages > limits.max_pages:
        raise _over(path, "page count", f"{pages:,}", f"{limits.max_pages:,} pages", "TREEBUILD_MAX_PAGES")


def check_unpacked(path: Path, unpacked: int, limits: Limits) -> None:
    if unpacked > limits.max_unpacked_bytes:
        raise _over(path, "unpacked size", f"{unpacked / _MiB:,.1f} MB", f"{limits.max_unpacked_mb:g} MB "
                    "(a zip bomb, or a huge document)", "TREEBUILD_MAX_UNPACKED_MB")


def check_text(path: Path, doc: SourceDoc, limits: Limits) -> None:
    if len(doc.units) > limits.max_units:
        raise _over(path, "unit count (pages, paragraphs, tables)", f"{len(doc.units):,}",
                    f"{limits.max_units:,} units", "TREEBUILD_MAX_UNITS")
    chars = sum(len(u.text) for u in doc.units)
    if chars > limits.max_chars:
        raise _over(path, "text length", f"{chars:,} characters", f"{limits.max_chars:,} characters",
                    "TREEBUILD_MAX_CHARS")
