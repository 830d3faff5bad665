"""Summary keys: what a summary was made from, so an unchanged input is never summarised twice.

A key is a pure function of the section's text hash, the model, the prompt version and how the
summary was made; a parent summarised from its children's summaries also folds in their keys
(its input includes them), so editing one section changes its key and its ancestors' keys only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

__all__ = ["summary_key", "text_hash"]


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def summary_key(text_sha256: str, model: str, prompt_version: str, kind: str, *, title: str = "",
                parts: Iterable[str] = ()) -> str:
    """sha256 over (prompt version, model, kind, text hash, title, parts...), fields separated."""
    h = hashlib.sha256()
    for part in (prompt_version, model, kind, text_sha256, title, *parts):
        h.update(part.encode())
        h.update(b"\x1f")
    return h.hexdigest()
