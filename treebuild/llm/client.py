"""The model seam every stage uses: bounded concurrency, timeouts, retries with backoff,
a per-document budget, and usage (calls, tokens, cost, retries, failures) added into the
tree's :class:`~treebuild.model.Usage`.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import TypeVar

from pydantic import BaseModel

from ..model import Usage
from ..settings import ModelConfig
from .budget import Budget
from .failures import ModelError, classify
from .gate import request_gate
from .structured import parse_json
from .tokens import count_tokens
from .transport import ChatRequest, ChatResponse, LiteLLMTransport, Transport

__all__ = ["ModelClient", "MAX_BACKOFF"]

T = TypeVar("T", bound=BaseModel)

MAX_BACKOFF = 30.0
"""Longest wait between retries, in seconds (a server's Retry-After is capped at twice this)."""


class ModelClient:
    """Sends chat requests for one document build.

    Every request that finally fails is counted once in ``usage.failures`` by kind and
    raised as :class:`ModelError`; callers keep their offline result for it.
    """

    def __init__(self, config: ModelConfig, usage: Usage, *, transport: Transport | None = None,
                 budget: Budget | None = None) -> None:
        self.config = config
        self.usage = usage
        self.transport: Transport = transport or LiteLLMTransport()
        self.budget = budget or Budget(usage, config.max_calls, config.max_tokens, config.max_seconds)
        self._semaphore: asyncio.Semaphore | None = None

    async def chat(self, messages: list[dict[str, str]], *, max_tokens: int, json: bool = False) -> ChatResponse:
        """One answer, retried on transient errors; raises :class:`ModelError` when there is none."""
        try:
            return await self._with_retries(messages, max_tokens, json)
        except ModelError as exc:
            self.usage.add_failure(exc.kind)
            raise

    async def structured(self, messages: list[dict[str, str]], schema: type[T], *, max_tokens: int) -> T:
        """An answer parsed as JSON and validated against ``schema``."""
        response = await self.chat(messages, max_tokens=max_tokens, json=True)
        try:
            return parse_json(response.content or "", schema)
        except ModelError as exc:
            self.usage.add_failure(exc.kind)
            raise

    async def _with_retries(self, messages: list[dict[str, str]], max_tokens: int, json: bool) -> ChatResponse:
        attempt = 0
        while True:
            try:
                return await self._attempt(messages, max_tokens, json)
            except ModelError as exc:
                if not exc.retryable or attempt >= self.config.max_retries:
                    raise
                wait = self._backoff(attempt, exc.retry_after)
                left = self.budget.remaining_seconds()
                if left is not None and wait >= left:
                    self.budget.stop(f"max_seconds={self.config.max_seconds:g} reached while retrying ({exc.kind})")
                attempt += 1
                self.usage.retries += 1
                await asyncio.sleep(wait)

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, 2 * MAX_BACKOFF)
        base = self.config.backoff * (2**attempt)
        return min(MAX_BACKOFF, base * (1 + 0.25 * random.random()))

    async def _attempt(self, messages: list[dict[str, str]], max_tokens: int, json: bool) -> ChatResponse:
        if self._semaphore is None:
            self.transport.prepare()  # litellm's import takes seconds: not on any request's clock
            self._semaphore = asyncio.Semaphore(self.config.concurrency)
        estimate = sum(count_tokens(m["content"]) + 4 for m in messages)
        async with self._semaphore, request_gate():  # the gate: a limit shared with other processes
            reserved = estimate + max_tokens
            self.budget.reserve(reserved)
            try:
                timeout = self.config.timeout
                left = self.budget.remaining_seconds()
                limited_by_budget = left is not None and left < timeout
                if left is not None:
                    timeout = max(0.001, min(timeout, left))
                request = ChatRequest(model=self.config.model, messages=messages, max_tokens=max_tokens,
                                      timeout=timeout, temperature=self.config.temperature, json=json,
                                      api_base=self.config.api_base, api_key=self.config.api_key)
                self.usage.calls += 1
                started = time.monotonic()
                try:
                    response = await asyncio.wait_for(self.transport(request), timeout + 0.5)
                except Exception as exc:  # litellm, openai, httpx errors and wait_for's TimeoutError
                    error = classify(exc)
                    if error.kind == "timeout" and limited_by_budget and time.monotonic() - started >= timeout * 0.9:
                        self.budget.stop(f"max_seconds={self.config.max_seconds:g} reached during a request")
                    raise error from exc
                self._count(response, estimate)
            finally:
                self.budget.release(reserved)
        if response.refusal or response.finish_reason == "content_filter":
            raise ModelError("refusal", (response.refusal or "content filter")[:200])
        if not (response.content or "").strip():
            raise ModelError("malformed", f"empty answer (finish_reason={response.finish_reason})")
        return response

    def _count(self, response: ChatResponse, estimate: int) -> None:
        self.usage.prompt_tokens += response.prompt_tokens if response.prompt_tokens is not None else estimate
        completion = response.completion_tokens
        self.usage.completion_tokens += completion if completion is not None else count_tokens(response.content or "")
        if response.cost_usd:
            self.usage.cost_usd += response.cost_usd

