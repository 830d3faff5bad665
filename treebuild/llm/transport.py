"""The one place a request leaves treebuild: a :class:`Transport` turns a :class:`ChatRequest`
into a :class:`ChatResponse`. The default, :class:`LiteLLMTransport`, goes through
``litellm.acompletion`` so any provider litellm knows works, including OpenAI-compatible
servers (vLLM, llama.cpp, Ollama) reached by ``api_base``.

litellm is imported on the first request, never at import time of treebuild: the import
takes seconds and the offline default never needs it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Protocol

from .schema import response_format

__all__ = ["ChatRequest", "ChatResponse", "Transport", "LiteLLMTransport", "import_litellm"]


@dataclass(frozen=True)
class ChatRequest:
    model: str
    messages: list[dict[str, str]]
    max_tokens: int
    timeout: float
    temperature: float = 0.0
    json: bool = False  # ask for a JSON object (dropped for providers that cannot)
    schema: dict[str, Any] | None = None  # ask for JSON matching this strict schema (implies json)
    schema_name: str = "answer"
    api_base: str | None = None
    api_key: str | None = None


@dataclass(frozen=True)
class ChatResponse:
    content: str | None
    finish_reason: str | None = None
    refusal: str | None = None
    prompt_tokens: int | None = None  # as the server reported them; None when it did not
    completion_tokens: int | None = None
    cost_usd: float | None = None  # when litellm knows the model's price


class Transport(Protocol):
    """Sends one request. ``prepare()`` is called before any timer starts (slow imports go there)."""

    def prepare(self) -> None: ...

    async def __call__(self, request: ChatRequest) -> ChatResponse: ...


def import_litellm() -> Any:
    """Import litellm quietly and offline (local cost map, no feedback banners)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    return litellm


class LiteLLMTransport:
    """Sends requests with ``litellm.acompletion``; litellm's own retries are off (the client counts its own)."""

    def __init__(self) -> None:
        self._litellm: Any = None

    def prepare(self) -> None:
        if self._litellm is None:
            self._litellm = import_litellm()

    async def __call__(self, request: ChatRequest) -> ChatResponse:
        self.prepare()
        litellm = self._litellm
        kwargs: dict[str, Any] = {
            "model": request.model,
            "messages": request.messages,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "timeout": request.timeout,
            "num_retries": 0,
            "max_retries": 0,
            "drop_params": True,
        }
        if request.schema is not None:
            kwargs["response_format"] = response_format(request.schema_name, request.schema)
        elif request.json:
            kwargs["response_format"] = {"type": "json_object"}
        if request.api_base:
            kwargs["api_base"] = request.api_base
        if request.api_key:
            kwargs["api_key"] = request.api_key
        response = await litellm.acompletion(**kwargs)
        choice = response.choices[0]
        message = choice.message
        usage = getattr(response, "usage", None)
        return ChatResponse(
            content=message.content,
            finish_reason=choice.finish_reason,
            refusal=getattr(message, "refusal", None),
            prompt_tokens=getattr(usage, "prompt_tokens", None),
            completion_tokens=getattr(usage, "completion_tokens", None),
            cost_usd=_cost(litellm, response),
        )


def _cost(litellm: Any, response: Any) -> float | None:
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost")
    if cost is None:
        try:
            cost = litellm.completion_cost(completion_response=response)
        except Exception:  # unknown model or price: cost stays unknown
            return None
    return float(cost) if cost else None
