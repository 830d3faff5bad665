"""DOCX reader (placeholder until the readers helper lands)."""
from __future__ import annotations

from pathlib import Path

from ..model import SourceDoc


class DocxReader:
    suffixes = (".docx",)
    format = "docx"
    def read(self, path: Path) -> SourceDoc:
        raise NotImplementedError
