"""Markdown reader (placeholder until the readers helper lands)."""
from __future__ import annotations

from pathlib import Path

from ..model import SourceDoc


class MarkdownReader:
    suffixes = (".md", ".markdown")
    format = "markdown"
    def read(self, path: Path) -> SourceDoc:
        raise NotImplementedError
