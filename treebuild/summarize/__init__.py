"""Summaries and document description (placeholder; issue 4)."""

from __future__ import annotations

from typing import Protocol

from ..model import Tree
from ..settings import ModelConfig

__all__ = ["SummaryCache", "summarize_tree"]


class SummaryCache(Protocol):
    """Summaries made earlier, looked up by ``summary_key`` (text hash, model, prompt version)."""

    def get(self, key: str) -> str | None: ...


def summarize_tree(tree: Tree, config: ModelConfig, cache: SummaryCache | None = None) -> None:
    """Fill ``summary``, ``summary_origin``, ``summary_key`` on every node and the description."""
