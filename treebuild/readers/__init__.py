"""One reader per format, chosen by file suffix (docling-style backends).

Each reader turns a file into a :class:`~treebuild.model.SourceDoc`: ordered units with text
and a source anchor, plus whatever structure the format itself declares.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ..errors import ReadError, UnsupportedFormat
from ..model import SourceDoc
from .docx import DocxReader
from .markdown import MarkdownReader
from .pdf import PdfReader

__all__ = ["Reader", "READERS", "reader_for", "read", "SUPPORTED_SUFFIXES"]


class Reader(Protocol):
    """A format backend: which suffixes it takes, the format name it records, and ``read``."""

    @property
    def suffixes(self) -> tuple[str, ...]: ...

    @property
    def format(self) -> str: ...

    def read(self, path: Path) -> SourceDoc: ...


READERS: tuple[Reader, ...] = (PdfReader(), DocxReader(), MarkdownReader())
SUPPORTED_SUFFIXES = tuple(s for r in READERS for s in r.suffixes)


def reader_for(path: Path) -> Reader:
    suffix = path.suffix.lower()
    for reader in READERS:
        if suffix in reader.suffixes:
            return reader
    raise UnsupportedFormat(
        f"unsupported file type {suffix or '(none)'!r}", path=str(path),
        hint=f"supported: {', '.join(SUPPORTED_SUFFIXES)}",
    )


def read(path: str | Path) -> SourceDoc:
    """Read a document with the reader for its suffix; errors name the file and cause."""
    p = Path(path)
    if not p.exists():
        raise ReadError("file not found", path=str(p), hint="check the path")
    if not p.is_file():
        raise ReadError("not a regular file", path=str(p))
    return reader_for(p).read(p)
