"""Strict JSON-schema responses: the schemas treebuild sends and whether a model's server enforces them.

Where the server supports ``response_format: {"type": "json_schema", ...}`` (OpenAI, vLLM,
llama.cpp's server, Ollama, LM Studio), constrained decoding makes an answer outside the schema
impossible: a summary answer must have every asked id as a key, a navigation answer can only
name ids from an ``enum`` of the ids just offered. Elsewhere the request asks for a JSON object
and the answer is validated with pydantic as before; it is validated in both cases.

:func:`schema_supported` decides for ``ModelConfig.response_schema == "auto"``: litellm's own
``supports_response_schema`` for models it knows, and yes for self-hosted OpenAI-compatible
servers (a provider that only serves local models, or ``openai/...`` with an ``api_base`` that
is not OpenAI's): vLLM, llama.cpp and Ollama all enforce schemas there. A server that refuses
the schema anyway (HTTP 400) gets JSON-object requests from then on (see ``ModelClient``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SELF_HOSTED_PROVIDERS", "required_strings", "id_enum", "response_format", "schema_supported"]

SELF_HOSTED_PROVIDERS = frozenset({"hosted_vllm", "vllm", "ollama", "ollama_chat", "lm_studio", "llamafile"})
"""litellm providers that serve local models through servers enforcing JSON schemas."""

_OPENAI_COMPATIBLE = frozenset({"openai", "openai_like", "custom_openai", "text-completion-openai"})
_OPENAI_HOSTS = ("api.openai.com",)


def required_strings(ids: list[str]) -> dict[str, Any]:
    """An object whose keys are exactly ``ids``, each a string (the summary answer)."""
    return {
        "type": "object",
        "properties": {i: {"type": "string"} for i in ids},
        "required": list(ids),
        "additionalProperties": False,
    }


def id_enum(ids: list[str]) -> dict[str, Any]:
    """A list whose items can only be one of ``ids`` (an empty list when nothing was offered)."""
    if not ids:
        return {"type": "array", "items": {"type": "string"}, "maxItems": 0}
    return {"type": "array", "items": {"type": "string", "enum": list(ids)}}


def response_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAI ``response_format`` asking for a strict ``schema`` named ``name``."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}


def schema_supported(litellm: Any, model: str, api_base: str | None) -> bool:
    """Whether ``model`` (a litellm id) at ``api_base`` is expected to enforce a JSON schema."""
    try:
        _, provider, _, _ = litellm.get_llm_provider(model=model, api_base=api_base)
    except Exception:  # litellm does not know the provider: ask for JSON only
        return False
    if provider in SELF_HOSTED_PROVIDERS:
        return True
    if provider in _OPENAI_COMPATIBLE and api_base and not any(host in api_base for host in _OPENAI_HOSTS):
        return True
    try:
        return bool(litellm.supports_response_schema(model=model, custom_llm_provider=provider))
    except Exception:  # not in litellm's model map
        return False
