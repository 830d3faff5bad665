"""Token counting without importing litellm: tiktoken's ``cl100k_base`` from the copy litellm
ships (so it works offline), else a characters/4 estimate.

Counts are used to cap what a prompt shows and to measure economy (prompt tokens against the
document's own tokens); they need to be consistent, not exact for every model.
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["count_tokens", "truncate_tokens", "encoding_name"]


@cache
def _encoding() -> Any | None:
    spec = importlib.util.find_spec("litellm")
    if spec is not None and spec.submodule_search_locations:
        bundled = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
        if bundled.is_dir():
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(bundled))
    try:
        import tiktoken

        return tiktoken.get_encoding("cl100k_base")
    except Exception:  # no tiktoken, or no cached encoding and no network
        return None


def encoding_name() -> str:
    """``cl100k_base`` when tiktoken is usable, else ``chars/4``."""
    return "cl100k_base" if _encoding() is not None else "chars/4"


def count_tokens(text: str) -> int:
    """Tokens in ``text`` (cl100k_base, or an estimate of one token per four characters)."""
    if not text:
        return 0
    enc = _encoding()
    if enc is None:
        return (len(text) + 3) // 4
    return len(enc.encode(text, disallowed_special=()))


def truncate_tokens(text: str, limit: int) -> tuple[str, bool]:
    """The first ``limit`` tokens of ``text`` cut back to a word boundary, and whether it was cut."""
    enc = _encoding()
    if enc is None:
        if len(text) <= limit * 4:
            return text, False
        head = text[: limit * 4]
    else:
        ids = enc.encode(text, disallowed_special=())
        if len(ids) <= limit:
            return text, False
        head = enc.decode(ids[:limit])
    cut = max(head.rfind(" "), head.rfind("\n"))
    if cut > len(head) // 2:
        head = head[:cut]
    return head.rstrip(), True
