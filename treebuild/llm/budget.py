"""A per-document spending limit on model requests: calls, tokens and wall-clock seconds.

Requests run concurrently, so each one reserves its expected tokens before it is sent and
settles the real count after; a limit is never overrun by requests already in flight.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..model import Usage
from .failures import BudgetExceeded

__all__ = ["Budget"]


@dataclass
class Budget:
    """Limits checked against ``usage`` (so every stage sharing a Usage shares the budget)."""

    usage: Usage
    max_calls: int | None = None
    max_tokens: int | None = None
    max_seconds: float | None = None
    started: float | None = None  # the clock starts with the first request
    reserved_calls: int = 0
    reserved_tokens: int = 0
    exceeded: str | None = None  # why spending stopped, once it has

    def remaining_seconds(self) -> float | None:
        if self.max_seconds is None:
            return None
        if self.started is None:
            return self.max_seconds
        return self.max_seconds - (time.monotonic() - self.started)

    def reserve(self, tokens: int) -> None:
        """Claim one call and ``tokens``; raises :class:`BudgetExceeded` when that would overrun."""
        if self.exceeded is not None:
            raise BudgetExceeded(self.exceeded)
        if self.started is None:
            self.started = time.monotonic()
        reason = None
        if self.max_calls is not None and self.usage.calls + self.reserved_calls + 1 > self.max_calls:
            reason = f"max_calls={self.max_calls} reached"
        elif self.max_tokens is not None and self._spent_tokens() + self.reserved_tokens + tokens > self.max_tokens:
            reason = f"max_tokens={self.max_tokens} would be exceeded"
        elif (left := self.remaining_seconds()) is not None and left <= 0:
            reason = f"max_seconds={self.max_seconds:g} reached"
        if reason is not None:
            self.stop(reason)
        self.reserved_calls += 1
        self.reserved_tokens += tokens

    def release(self, tokens: int) -> None:
        """Return a reservation once the request has been counted in ``usage`` (or not sent)."""
        self.reserved_calls -= 1
        self.reserved_tokens -= tokens

    def stop(self, reason: str) -> None:
        """Stop all further spending; raises :class:`BudgetExceeded`."""
        if self.exceeded is None:
            self.exceeded = reason
        raise BudgetExceeded(self.exceeded)

    def _spent_tokens(self) -> int:
        return self.usage.prompt_tokens + self.usage.completion_tokens
