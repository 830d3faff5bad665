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

String lengths (``minLength``, ``maxLength``) and list lengths (``maxItems``) are sent to self-hosted servers
only (:func:`for_server`): their grammars enforce them, so a small model that rambles inside a
string, or repeats ids in a list, is made to close it instead of running out of tokens with the
whole answer unparsable; hosted strict modes may reject the keywords, so they are dropped there
(the prompt still asks for the length).
"""

from __future__ import annotations

from typing import Any

__all__ = ["SELF_HOSTED_PROVIDERS", "required_strings", "id_enum", "bounded_string", "response_format",
           "schema_supported", "self_hosted", "for_server"]

SELF_HOSTED_PROVIDERS = frozenset({"hosted_vllm", "vllm", "ollama", "ollama_chat", "lm_studio", "llamafile"})
"""litellm providers that serve local models through servers enforcing JSON schemas."""

_OPENAI_COMPATIBLE = frozenset({"openai", "openai_like", "custom_openai", "text-completion-openai"})
_OPENAI_HOSTS = ("api.openai.com",)
_GRAMMAR_ONLY = frozenset({"minLength", "maxLength", "maxItems"})
"""Keywords sent to self-hosted servers only (their grammars enforce them)."""


def bounded_string(max_chars: int | None = None, min_chars: int | None = None) -> dict[str, Any]:
    """A string of ``min_chars`` to ``max_chars`` where the server enforces lengths (see :func:`for_server`)."""
    schema: dict[str, Any] = {"type": "string"}
    if min_chars is not None:
        schema["minLength"] = min_chars
    if max_chars is not None:
        schema["maxLength"] = max_chars
    return schema


def required_strings(ids: list[str], max_chars: int | None = None) -> dict[str, Any]:
    """An object whose keys are exactly ``ids``, each a non-blank string of at most ``max_chars``
    (the summary answer; a blank one would be missing, and asked again)."""
    return {
        "type": "object",
        "properties": {i: bounded_string(max_chars, 1) for i in ids},
        "required": list(ids),
        "additionalProperties": False,
    }


def id_enum(ids: list[str], max_items: int | None = None) -> dict[str, Any]:
    """A list of at most ``max_items`` items, each one of ``ids`` (an empty list when nothing was offered)."""
    if not ids:
        return {"type": "array", "items": {"type": "string"}, "maxItems": 0}
    schema: dict[str, Any] = {"type": "array", "items": {"type": "string", "enum": list(ids)}}
    if max_items is not None:
        schema["maxItems"] = max_items
    return schema


def response_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAI ``response_format`` asking for a strict ``schema`` named ``name``."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}


def _provider(litellm: Any, model: str, api_base: str | None) -> str | None:
    try:
        _, provider, _, _ = litellm.get_llm_provider(model=model, api_base=api_base)
    except Exception:  # litellm does not know the provider
        return None
    return str(provider)


def self_hosted(litellm: Any, model: str, api_base: str | None) -> bool:
    """Whether ``model`` at ``api_base`` is served by a self-hosted OpenAI-compatible server."""
    provider = _provider(litellm, model, api_base)
    if provider in SELF_HOSTED_PROVIDERS:
        return True
    return provider in _OPENAI_COMPATIBLE and bool(api_base) and not any(h in (api_base or "") for h in _OPENAI_HOSTS)


def for_server(schema: dict[str, Any], self_hosted: bool) -> dict[str, Any]:
    """``schema`` as sent: without the length keywords unless the server is self-hosted."""
    if self_hosted:
        return schema

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in _GRAMMAR_ONLY}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    stripped: dict[str, Any] = strip(schema)
    return stripped


def schema_supported(litellm: Any, model: str, api_base: str | None) -> bool:
    """Whether ``model`` (a litellm id) at ``api_base`` is expected to enforce a JSON schema."""
    provider = _provider(litellm, model, api_base)
    if provider is None:  # ask for JSON only
        return False
    if self_hosted(litellm, model, api_base):
        return True
    try:
        return bool(litellm.supports_response_schema(model=model, custom_llm_provider=provider))
    except Exception:  # not in litellm's model map
        return False
