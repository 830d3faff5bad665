"""Build settings: what changes a tree. Their hash is part of a version's identity.

Secrets and connection details (api key, api base, timeouts) live in :class:`ModelConfig`
and are never hashed or stored; only what shapes the output is.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["BuildSettings", "ModelConfig", "OFFLINE_MODEL", "settings_hash", "resolve_settings"]

OFFLINE_MODEL = "extractive"
"""The offline default: deterministic extractive summaries, no language model involved."""


class BuildSettings(BaseModel):
    """Options that shape a tree; changing any of them makes a new version."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ignore_outline: bool = False
    max_node_pages: int = Field(default=10, ge=1)
    max_node_tokens: int = Field(default=20_000, ge=100)
    subdivide: bool = True
    model: str = OFFLINE_MODEL
    # Defaults to the version of the prompts in ``treebuild.summarize.prompts`` so that changing
    # a prompt there makes a new tree version; summary keys include it too.
    prompt_version: str = Field(default_factory=lambda: _prompt_version())
    structure_fallback: bool = False  # ask the model for sections when nothing else is found

    def hash(self) -> str:
        return settings_hash(self.model_dump())


class ModelConfig(BaseSettings):
    """How to reach the model: read from ``TREEBUILD_*`` environment variables or flags.

    ``model`` is a litellm model id (``openai/gpt-4o-mini``, ``ollama/llama3.1``, ``openai/NAME``
    with ``api_base`` for any OpenAI-compatible server such as vLLM or llama.cpp), or
    ``extractive`` for the offline default. The ``max_*`` fields are a per-document budget:
    when one is reached the remaining nodes keep their extractive summaries.
    """

    model_config = SettingsConfigDict(env_prefix="TREEBUILD_", extra="ignore")

    model: str = OFFLINE_MODEL
    api_base: str | None = None
    api_key: str | None = None
    timeout: float = Field(default=60.0, gt=0)  # seconds per request
    max_retries: int = Field(default=3, ge=0)  # retries on 429, 5xx, timeouts and connection errors
    backoff: float = Field(default=1.0, ge=0)  # first retry wait in seconds; doubles each retry (Retry-After wins)
    concurrency: int = Field(default=4, ge=1)  # requests in flight at once
    temperature: float = 0.0
    max_calls: int | None = Field(default=None, ge=0)  # requests sent per document, retries included
    max_tokens: int | None = Field(default=None, ge=0)  # prompt + completion tokens per document
    max_seconds: float | None = Field(default=None, gt=0)  # wall-clock seconds of model work per document
    # JSON-schema answers: "auto" where the server enforces them (see treebuild.llm.schema), "always", "never"
    response_schema: Literal["auto", "always", "never"] = "auto"

    @property
    def offline(self) -> bool:
        """True for the extractive default: no model, no network."""
        return self.model == OFFLINE_MODEL


def _prompt_version() -> str:
    from .summarize.prompts import PROMPT_VERSION

    return PROMPT_VERSION


def settings_hash(values: dict[str, Any]) -> str:
    """A short stable hash of settings (sorted JSON)."""
    blob = json.dumps(values, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def resolve_settings(settings: BuildSettings | None, config: ModelConfig | None) -> tuple[BuildSettings, ModelConfig]:
    """The build settings and model connection for one build, agreeing on the model.

    Either may be omitted: the other names the model. Given both with different models is a
    mistake (the tree would record one model and be summarised by another), so it is refused.
    """
    from .errors import TreebuildError

    if settings is None:
        settings = BuildSettings(model=config.model) if config is not None else BuildSettings()
    if config is None:
        config = ModelConfig(model=settings.model)
    if config.model != settings.model:
        raise TreebuildError(f"the build settings name model {settings.model!r} but the model connection "
                             f"names {config.model!r}", hint="pass the same model to both")
    return settings, config
