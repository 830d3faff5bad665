"""Parse and validate a model's JSON answer with pydantic, tolerating the usual wrapping
(code fences, a sentence before or after the object)."""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .failures import ModelError

__all__ = ["parse_json", "extract_json", "REFUSAL"]

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
REFUSAL = re.compile(r"^\s*(?:I'?m sorry|I am sorry|I can(?:no|')t|I (?:won't|will not)|Sorry,|As an AI)",
                     re.IGNORECASE)


def extract_json(content: str) -> Any:
    """The JSON value in ``content``; raises :class:`ModelError` ``malformed`` or ``refusal``."""
    text = content.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if starts:
        start = min(starts)
        closer = "}" if text[start] == "{" else "]"
        end = text.rfind(closer)
        if end > start:
            try:
                return json.loads(text[start : end + 1])
            except json.JSONDecodeError:
                pass
    if REFUSAL.match(content):
        raise ModelError("refusal", content.strip()[:200])
    raise ModelError("malformed", f"answer is not JSON: {content.strip()[:120]!r}")


def parse_json(content: str, schema: type[T]) -> T:
    """``content`` parsed as JSON and validated against ``schema``."""
    value = extract_json(content)
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        raise ModelError("malformed", f"answer does not match {schema.__name__}: {exc.errors()[0]['msg']}") from exc
