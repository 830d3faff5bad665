"""The bounds of the answer step, with their defaults and why (navigation has its own:
:class:`treebuild.query.Limits`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import TreebuildError

__all__ = ["AnswerLimits"]


@dataclass(frozen=True)
class AnswerLimits:
    """Budget and shape of one answer. ``max_seconds`` bounds the model's work on it, retries included."""

    max_calls: int = 2  # the answer and one corrective request when it is not the asked JSON
    max_input_tokens: int = 16_000  # prompt tokens of one request: passages are cut to fit (the audit says so)
    max_output_tokens: int = 1_400  # completion tokens of one request (8 claims of 400 characters fit)
    max_seconds: float = 120.0
    max_claims: int = 8
    max_claim_chars: int = 400  # a claim is one statement; a self-hosted server's grammar enforces it
    max_citations: int = 4  # passage ids one claim may cite
    extractive_sentences: int = 3  # claims of the offline extractive answer

    @classmethod
    def of(cls, value: AnswerLimits | Mapping[str, Any] | None) -> AnswerLimits:
        if value is None:
            return cls()
        if isinstance(value, AnswerLimits):
            return value
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(value) - names)
        if unknown:
            raise TreebuildError(f"unknown answer limit(s): {', '.join(unknown)}",
                                 hint=f"known: {', '.join(sorted(names))}")
        limits = cls(**{k: v for k, v in value.items() if v is not None})
        for f in dataclasses.fields(cls):
            if getattr(limits, f.name) <= 0:
                raise TreebuildError(f"answer limit {f.name} must be above 0, got {getattr(limits, f.name)}")
        return limits

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
