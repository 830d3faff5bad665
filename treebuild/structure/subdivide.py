"""Recursive subdivision of oversized nodes (placeholder; issue 3)."""

from __future__ import annotations

from ..model import Node, SourceDoc
from ..settings import BuildSettings

__all__ = ["subdivide"]


def subdivide(doc: SourceDoc, roots: list[Node], settings: BuildSettings) -> list[str]:
    """Split leaves larger than the page/token limits; returns warnings. Placeholder: no-op."""
    return []
