"""Build settings: what changes a tree. Their hash is part of a version's identity.

Secrets and connection details (api key, api base, timeouts) live in :class:`ModelConfig`
and are never hashed or stored; only what shapes the output is.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["BuildSettings", "ModelConfig", "OFFLINE_MODEL", "settings_hash"]

OFFLINE_MODEL = "extractive"
"""The offline default: deterministic extractive summaries, no language model involved."""


class BuildSettings(BaseModel):
    """Options that shape a tree; changing any of them makes a new version."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ignore_outline: bool = False
    max_node_pages: int = Field(10, ge=1)
    max_node_tokens: int = Field(20_000, ge=100)
    subdivide: bool = True
    model: str = OFFLINE_MODEL
    prompt_version: str = "1"
    structure_fallback: bool = False  # ask the model for sections when nothing else is found

    def hash(self) -> str:
        return settings_hash(self.model_dump())


class ModelConfig(BaseSettings):
    """How to reach the model: read from ``TREEBUILD_*`` environment variables or flags."""

    model_config = SettingsConfigDict(env_prefix="TREEBUILD_", extra="ignore")

    model: str = OFFLINE_MODEL
    api_base: str | None = None
    api_key: str | None = None
    timeout: float = 60.0
    max_retries: int = 3
    concurrency: int = 4
    max_calls: int | None = None
    max_tokens: int | None = None
    max_seconds: float | None = None


def settings_hash(values: dict[str, Any]) -> str:
    """A short stable hash of settings (sorted JSON)."""
    blob = json.dumps(values, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
