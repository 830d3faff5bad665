"""Orchestration settings, read from ``TREEBUILD_*`` environment variables.

They shape how documents are scheduled, never what a tree contains (that is
:class:`treebuild.BuildSettings`), so none of them is part of a version's identity.
"""

from __future__ import annotations

import os

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["FlowSettings", "default_workers"]


def default_workers() -> int:
    """One worker process per core: parsing and building are CPU-bound."""
    return os.cpu_count() or 1


class FlowSettings(BaseSettings):
    """How backfills run. ``model_limit`` names a Prefect global concurrency limit that every
    model request of every worker waits on: create it with a slot count (concurrency) or with
    ``--slot-decay-per-second`` (a rate limit), e.g. ``prefect gcl create treebuild-model --limit 8``."""

    model_config = SettingsConfigDict(env_prefix="TREEBUILD_", extra="ignore")

    model_limit: str = "treebuild-model"
    in_flight_per_worker: int = Field(default=2, ge=1)  # one running + one queued keeps a worker busy
    batch_size: int = Field(default=500, ge=1)  # documents per batch flow run of a split backfill
    progress_interval: float = Field(default=2.0, ge=0)  # seconds between progress artifact updates
