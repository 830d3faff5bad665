"""The one model seam: every stage that asks a language model goes through :class:`ModelClient`.

litellm is imported lazily on the first request (it takes seconds), so the offline default and
every read-only command never pay for it.
"""

from __future__ import annotations

from .budget import Budget
from .client import ModelClient
from .failures import BudgetExceeded, ModelError, classify
from .runner import run_sync
from .schema import (
    bounded_string,
    for_server,
    id_enum,
    required_strings,
    response_format,
    schema_supported,
    self_hosted,
)
from .structured import extract_json, parse_json
from .tokens import count_tokens, truncate_tokens
from .transport import ChatRequest, ChatResponse, LiteLLMTransport, Transport, import_litellm

__all__ = [
    "Budget",
    "BudgetExceeded",
    "ChatRequest",
    "ChatResponse",
    "LiteLLMTransport",
    "ModelClient",
    "ModelError",
    "Transport",
    "classify",
    "count_tokens",
    "bounded_string",
    "extract_json",
    "for_server",
    "id_enum",
    "import_litellm",
    "parse_json",
    "required_strings",
    "response_format",
    "run_sync",
    "schema_supported",
    "self_hosted",
    "truncate_tokens",
]
