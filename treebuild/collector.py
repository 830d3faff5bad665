"""Python's cyclic garbage collector, paused around work that makes many objects and no cycles."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["paused"]


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The cyclic collector off for the block, and on again after it (left alone when something
    else has already turned it off). For passes that build thousands of small dicts, tuples and
    lines, none in a reference cycle and all freed or kept by reference counting: collections
    triggered by them would only walk them again. A cycle made inside is collected once the
    collector is back on."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
