"""The model seam every stage uses: bounded concurrency, timeouts, retries with backoff,
a per-document budget, and usage (calls, tokens, cost, retries, failures) added into the
tree's :class:`~treebuild.model.Usage`.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from ..model import Usage
from ..settings import ModelConfig
from .budget import Budget
from .failures import ModelError, classify
from .gate import request_gate
from .schema import for_server, schema_supported, self_hosted
from .structured import parse_json
from .tokens import count_tokens
from .transport import ChatRequest, ChatResponse, LiteLLMTransport, Transport, import_litellm

__all__ = ["ModelClient", "MAX_BACKOFF"]

T = TypeVar("T", bound=BaseModel)

MAX_BACKOFF = 30.0
"""Longest wait between retries, in seconds (a server's Retry-After is capped at twice this)."""


class ModelClient:
    """Sends chat requests for one document build.

    Every request that finally fails is counted once in ``usage.failures`` by kind and
    raised as :class:`ModelError`; callers keep their offline result for it.

    A structured request sends its strict JSON schema where the server enforces schemas
    (``config.response_schema``, see :mod:`.schema`), else asks for a JSON object. Under
    ``auto``, a server that refuses the schema (HTTP 400) is asked again at once for a JSON
    object, and so is every later request; :attr:`schema_refused` says why.
    """

    def __init__(self, config: ModelConfig, usage: Usage, *, transport: Transport | None = None,
                 budget: Budget | None = None, sleep: Callable[[float], Awaitable[Any]] | None = None) -> None:
        self.config = config
        self._sleep = sleep or asyncio.sleep  # the wait between retries (tests pass one that records it)
        self.usage = usage
        self.transport: Transport = transport or LiteLLMTransport()
        self.budget = budget or Budget(usage, config.max_calls, config.max_tokens, config.max_seconds)
        self._semaphore: asyncio.Semaphore | None = None
        self._schemas: bool | None = None  # decided on the first structured request
        self._self_hosted = False
        self.schema_refused: str | None = None  # the server's answer when it refused a schema

    async def chat(self, messages: list[dict[str, str]], *, max_tokens: int, json: bool = False,
                   json_schema: dict[str, Any] | None = None, schema_name: str = "answer") -> ChatResponse:
        """One answer, retried on transient errors; raises :class:`ModelError` when there is none.

        ``json_schema`` is sent as a strict response schema when :meth:`sends_schemas` (else the
        request asks for a JSON object)."""
        schema = None
        if json_schema is not None and self.sends_schemas():
            schema = for_server(json_schema, self._self_hosted)
        try:
            return await self._with_retries(messages, max_tokens, json or json_schema is not None, schema,
                                            schema_name)
        except ModelError as exc:
            self.usage.add_failure(exc.kind)
            raise

    async def structured(self, messages: list[dict[str, str]], schema: type[T], *, max_tokens: int,
                         json_schema: dict[str, Any] | None = None, schema_name: str = "answer") -> T:
        """An answer parsed as JSON and validated against ``schema``; ``json_schema`` (a strict JSON
        schema whose answers ``schema`` accepts) constrains the answer where the server can."""
        response = await self.chat(messages, max_tokens=max_tokens, json=True, json_schema=json_schema,
                                   schema_name=schema_name)
        try:
            return parse_json(response.content or "", schema)
        except ModelError as exc:
            self.usage.add_failure(exc.kind)
            raise

    def sends_schemas(self) -> bool:
        """Whether structured requests carry their JSON schema (``config.response_schema``)."""
        mode = self.config.response_schema
        if mode == "never":
            return False
        if self._schemas is None:
            litellm = import_litellm()
            self._schemas = schema_supported(litellm, self.config.model, self.config.api_base)
            self._self_hosted = self_hosted(litellm, self.config.model, self.config.api_base)
        if mode == "always":
            return True
        return self._schemas and self.schema_refused is None

    async def _with_retries(self, messages: list[dict[str, str]], max_tokens: int, json: bool,
                            schema: dict[str, Any] | None, schema_name: str) -> ChatResponse:
        attempt = 0
        while True:
            try:
                return await self._attempt(messages, max_tokens, json, schema, schema_name)
            except ModelError as exc:
                if schema is not None and _refuses_schema(exc) and self.config.response_schema == "auto":
                    self.schema_refused = str(exc)[:300]
                    schema = None  # this server takes no schemas: ask for a JSON object, now and from now on
                    self.usage.retries += 1
                    continue
                if not exc.retryable or attempt >= self.config.max_retries:
                    raise
                wait = self._backoff(attempt, exc.retry_after)
                left = self.budget.remaining_seconds()
                if left is not None and wait >= left:
                    self.budget.stop(f"max_seconds={self.budget.max_seconds:g} reached while retrying ({exc.kind})")
                attempt += 1
                self.usage.retries += 1
                await self._sleep(wait)

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, 2 * MAX_BACKOFF)
        base = self.config.backoff * (2**attempt)
        return min(MAX_BACKOFF, base * (1 + 0.25 * random.random()))

    async def _attempt(self, messages: list[dict[str, str]], max_tokens: int, json: bool,
                       schema: dict[str, Any] | None = None, schema_name: str = "answer") -> ChatResponse:
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
                                      schema=schema, schema_name=schema_name,
                                      api_base=self.config.api_base, api_key=self.config.api_key)
                self.usage.calls += 1
                started = time.monotonic()
                try:
                    response = await asyncio.wait_for(self.transport(request), timeout + 0.5)
                except Exception as exc:  # litellm, openai, httpx errors and wait_for's TimeoutError
                    error = classify(exc)
                    if error.kind == "timeout" and limited_by_budget and time.monotonic() - started >= timeout * 0.9:
                        self.budget.stop(f"max_seconds={self.budget.max_seconds:g} reached during a request")
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


_SCHEMA_WORDS = ("response_format", "json_schema", "schema", "grammar")


def _refuses_schema(exc: ModelError) -> bool:
    """A 400 about the response format (not about the prompt, such as a context too long)."""
    text = str(exc).lower()
    return exc.kind == "bad_request" and any(word in text for word in _SCHEMA_WORDS)
