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

__all__ = ["BuildSettings", "ModelConfig", "Limits", "OFFLINE_MODEL", "PROMPT_VERSION", "settings_hash",
           "resolve_settings"]

OFFLINE_MODEL = "extractive"
"""The offline default: deterministic extractive summaries, no language model involved."""

PROMPT_VERSION = "2"
"""The version of the prompts a build sends (summaries: ``treebuild.summarize.prompts``; structure:
``treebuild.structure.prompt``). Bump it when changing either: it is the default of
``BuildSettings.prompt_version`` and part of every ``summary_key``, so summaries made under the old
prompt are not reused and the new tree is a new version."""


class BuildSettings(BaseModel):
    """Options that shape a tree; changing any of them makes a new version."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ignore_outline: bool = False
    max_node_pages: int = Field(default=10, ge=1)
    max_node_tokens: int = Field(default=20_000, ge=100)
    subdivide: bool = True
    model: str = OFFLINE_MODEL
    # Defaults to the version of the build's prompts (``PROMPT_VERSION``) so that changing a prompt
    # makes a new tree version; summary keys include it too.
    prompt_version: str = PROMPT_VERSION
    structure_fallback: bool = False  # ask the model for sections when nothing else is found
    # pages without usable text: read by OCR in ``auto`` (only those), every page in ``force``, none in ``off``;
    # with this engine and language (``TREEBUILD_OCR``, ``TREEBUILD_OCR_ENGINE``, ``TREEBUILD_OCR_LANG``)
    ocr: Literal["auto", "off", "force"] = "auto"
    ocr_engine: Literal["tesseract", "rapidocr"] = "tesseract"
    ocr_lang: str = Field(default="eng", pattern=r"^[a-z_]+(\+[a-z_]+)*$")
    # sub-headings set at the body size inside a filing's notes (bold or italic lines of their own, in a look
    # that walks through a note) as sections: opt-in while authors' outlines, which mostly omit them, are
    # the structure benchmark (bench/README.md, "Issue 24, note sub-headings")
    note_subheadings: bool = False

    def hash(self) -> str:
        values = self.model_dump()
        for name in HASHED_WHEN_SET:  # versions built before these settings existed keep their identity
            if values[name] == type(self).model_fields[name].default:
                del values[name]
        return settings_hash(values)


HASHED_WHEN_SET = ("ocr", "ocr_engine", "ocr_lang", "note_subheadings")
"""Settings added after stores existed: part of the hash only away from their defaults, so a store's
versions still match the same bytes built with the defaults (and are not all built again on upgrade)."""
SETTINGS_ENV = {"ocr": "TREEBUILD_OCR", "ocr_engine": "TREEBUILD_OCR_ENGINE", "ocr_lang": "TREEBUILD_OCR_LANG",
                "note_subheadings": "TREEBUILD_NOTE_SUBHEADINGS"}
"""Build settings a deployment sets once for every build (workers, scheduled flows) by environment variable."""


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


def settings_hash(values: dict[str, Any]) -> str:
    """A short stable hash of settings (sorted JSON)."""
    blob = json.dumps(values, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def resolve_settings(settings: BuildSettings | None, config: ModelConfig | None) -> tuple[BuildSettings, ModelConfig]:
    """The build settings and model connection for one build, agreeing on the model.

    This is the one settings path of the library, the CLI and the flows: whatever is not given
    comes from ``TREEBUILD_*`` environment variables (``TREEBUILD_MODEL`` included), then the
    defaults, so the same environment gives the same build everywhere. Either argument may be
    omitted; a ``BuildSettings`` that does not name its model takes the connection's (or the
    environment's). Both naming different models is a mistake (the tree would record one model
    and be summarised by another), so it is refused.
    """
    from .errors import TreebuildError

    named = settings is not None and "model" in settings.model_fields_set
    if config is None:
        config = ModelConfig(model=settings.model) if named and settings is not None else ModelConfig()
    if settings is None:
        settings = BuildSettings(model=config.model)
    elif not named:
        settings = settings.model_copy(update={"model": config.model})
    if config.model != settings.model:
        raise TreebuildError(f"the build settings name model {settings.model!r} but the model connection "
                             f"names {config.model!r}", hint="pass the same model to both")
    return _from_env(settings), config


def _from_env(settings: BuildSettings) -> BuildSettings:
    """The :data:`SETTINGS_ENV` settings not given, from their variables (validated: a wrong value is refused,
    naming it)."""
    import os

    from pydantic import ValidationError

    from .errors import TreebuildError

    update = {k: os.environ[env] for k, env in SETTINGS_ENV.items()
              if k not in settings.model_fields_set and os.environ.get(env)}
    if not update:
        return settings
    try:
        return BuildSettings(**{**settings.model_dump(exclude_unset=True), **update})
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0])
        raise TreebuildError(f"invalid {SETTINGS_ENV.get(name, name)}={update.get(name)!r}: {first['msg']}",
                             hint=_ENV_HINTS.get(name)) from None


_ENV_HINTS = {"ocr": "use auto, off or force", "ocr_engine": "use tesseract or rapidocr",
              "ocr_lang": "Tesseract language codes joined by +, e.g. eng+deu", "note_subheadings": "use 1 or 0"}


_MiB = 1 << 20


class Limits(BaseSettings):
    """Caps on one document, checked before the heavy work (reading text, building the tree).

    Read from ``TREEBUILD_MAX_FILE_MB``, ``TREEBUILD_MAX_PAGES``, ``TREEBUILD_MAX_UNITS``,
    ``TREEBUILD_MAX_CHARS``, ``TREEBUILD_MAX_UNPACKED_MB``, ``TREEBUILD_OCR_MAX_PAGES`` and
    ``TREEBUILD_OCR_PAGE_SECONDS``. They never change a tree (a document
    is built whole or refused), so they are not part of the settings hash. The defaults take a
    5,000-page PDF (about 25 million characters, a few hundred MB) with room to spare.
    """

    model_config = SettingsConfigDict(env_prefix="TREEBUILD_", extra="ignore")

    max_file_mb: float = Field(default=2048, gt=0)  # bytes on disk, checked before the file is opened
    max_pages: int = Field(default=50_000, ge=1)  # PDF pages, checked before any text is extracted
    max_units: int = Field(default=2_000_000, ge=1)  # pages or blocks (paragraphs, tables), after reading
    max_chars: int = Field(default=250_000_000, ge=1)  # characters of text, after reading, before structure
    max_unpacked_mb: float = Field(default=1024, gt=0)  # DOCX: XML once unzipped (zip bombs), before parsing
    ocr_max_pages: int = Field(default=2_000, ge=1)  # pages read by OCR per document, checked before the first
    ocr_page_seconds: float = Field(default=120, gt=0)  # OCR time per page; a page over it is left empty (warned)
    max_html_mb: float = Field(default=256, gt=0)  # HTML and text files: a document in markup, not a data dump

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * _MiB)

    @property
    def max_html_bytes(self) -> int:
        return int(self.max_html_mb * _MiB)

    @property
    def max_unpacked_bytes(self) -> int:
        return int(self.max_unpacked_mb * _MiB)
