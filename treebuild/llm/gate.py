"""A process-wide gate every model request passes before its clock starts.

The default gate lets everything through; an orchestrator that runs many builds at once (the
Prefect flows in ``flows/``) installs one that waits on a shared limit, so N worker processes
together never exceed a provider's concurrency or rate. One gate per process: it is set when a
worker starts, never per request.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, nullcontext

__all__ = ["RequestGate", "request_gate", "set_request_gate"]

RequestGate = Callable[[], AbstractAsyncContextManager[object]]
"""Returns an async context manager entered around one request (acquire a slot, release it)."""

_gate: RequestGate | None = None


def set_request_gate(gate: RequestGate | None) -> None:
    """Install ``gate`` for every later request in this process (``None``: no gate)."""
    global _gate
    _gate = gate


def request_gate() -> AbstractAsyncContextManager[object]:
    """The context manager the next request is sent inside."""
    return _gate() if _gate is not None else nullcontext()
