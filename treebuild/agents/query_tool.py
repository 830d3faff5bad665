"""The query as an agent tool: an OpenAI-style strict function schema and its executor.

The agent chooses the question, documents and page budget; the caller keeps the access filter
and the navigator (``run_tool(..., filter=..., navigator=...)``), so a tool call can never widen
what the query may read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import TreebuildError
from ..query import DEFAULT_NAVIGATOR, AccessFilter, Navigator, navigate
from ..settings import ModelConfig
from ..store import Store

__all__ = ["TOOL_NAME", "ToolArguments", "tool_schema", "run_tool"]

TOOL_NAME = "navigate_documents"

MAX_TOOL_PAGES = 50
"""Largest page budget an agent may ask for in one call (the caller's limits still apply)."""


class ToolArguments(BaseModel):
    """What the agent passes; every field is required and nullable, as strict schemas demand."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, description="What to find in the documents, as a full question.")
    doc_ids: list[str] | None = Field(description="Documents to search (doc_id values), or null to let the "
                                                  "navigator choose among all documents.")
    max_pages: int | None = Field(ge=1, le=MAX_TOOL_PAGES, description="Most pages of text to return, "
                                                                       "or null for the default.")


def tool_schema() -> dict[str, Any]:
    """An OpenAI-style function tool with a strict JSON schema (all properties required, no others)."""
    properties = {
        "question": {"type": "string", "description": ToolArguments.model_fields["question"].description},
        "doc_ids": {"type": ["array", "null"], "items": {"type": "string"},
                    "description": ToolArguments.model_fields["doc_ids"].description},
        "max_pages": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_TOOL_PAGES,
                      "description": ToolArguments.model_fields["max_pages"].description},
    }
    return {
        "type": "function",
        "function": {
            "name": TOOL_NAME,
            "description": "Navigate long structured documents (filings, regulations, manuals) by their tables "
                           "of contents and return the exact sections that answer a question, with document, "
                           "section path and pages to cite.",
            "strict": True,
            "parameters": {"type": "object", "properties": properties, "required": list(properties),
                           "additionalProperties": False},
        },
    }


def run_tool(arguments: str | Mapping[str, Any], store: Store | str | Path, *,
             filter: AccessFilter | Mapping[str, Any] | None = None, navigator: str | Navigator = DEFAULT_NAVIGATOR,
             config: ModelConfig | None = None, **limits: Any) -> dict[str, Any]:
    """Execute a tool call; returns a JSON-ready dict: ``passages`` and a short ``audit``, or ``error``
    (invalid arguments or an expected failure, phrased for the agent to correct)."""
    try:
        raw = json.loads(arguments) if isinstance(arguments, str) else dict(arguments)
        args = ToolArguments.model_validate(raw)
    except (json.JSONDecodeError, ValidationError, TypeError) as exc:
        return {"error": f"invalid arguments for {TOOL_NAME}: {exc}"}
    if args.max_pages is not None:
        limits = {**limits, "max_pages": min(args.max_pages, limits.get("max_pages") or args.max_pages)}
    try:
        result = navigate(args.question, store, docs=args.doc_ids or None, filter=filter, navigator=navigator,
                          config=config, **limits)
    except TreebuildError as exc:
        return {"error": str(exc)}
    return {
        "passages": [
            {"doc_id": p.doc_id, "version": p.version, "node_id": p.node_id, "title": p.title,
             "path": [e.title for e in p.path], "start_page": p.start_page, "end_page": p.end_page,
             "start_label": p.start_label, "end_label": p.end_label, "truncated": p.truncated, "text": p.text}
            for p in result.passages
        ],
        "audit": {
            "navigator": result.navigator, "is_language_model": result.is_language_model,
            "documents": [{"doc_id": d.doc_id, "mode": d.mode, "stops": [s.reason.value for s in d.stops],
                           "error": d.error} for d in result.documents],
            "selected": result.selection.selected if result.selection is not None else None,
            "calls": result.usage.calls, "input_tokens": result.usage.input_tokens,
            "output_tokens": result.usage.output_tokens, "seconds": round(result.seconds, 3),
        },
    }
