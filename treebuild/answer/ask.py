"""``ask``: navigate, then answer from the returned passages only."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..llm.transport import Transport
from ..query import AccessFilter, CancellationToken, Navigator, QueryResult, navigate_async
from ..query.runtime import Seeds
from ..settings import ModelConfig
from ..store import Store
from .extractive import extractive_claims
from .limits import AnswerLimits
from .model import ModelAnswerer
from .result import EXTRACTIVE, Answer, AnswerAudit, AnswerPassage, AnswerStatus

__all__ = ["ask", "ask_async", "default_navigator"]


def default_navigator(config: ModelConfig | None) -> str:
    """``litellm`` when ``config`` names a model, else the offline ``lexical`` (as ``treebuild query``)."""
    return "lexical" if config is None or config.offline else "litellm"


def _extractive(question: str, result: QueryResult, limits: AnswerLimits,
                ) -> tuple[AnswerStatus, list[Any], list[AnswerPassage], AnswerAudit]:
    started = time.monotonic()
    passages = [AnswerPassage(f"P{i}", p, len(p.text)) for i, p in enumerate(result.passages, 1)]
    claims = extractive_claims(question, passages, limits)
    audit = AnswerAudit(answerer=EXTRACTIVE, is_language_model=False, seconds=time.monotonic() - started)
    if not claims and passages:
        audit.notes.append("no sentence of the passages shares a term with the question")
    return (AnswerStatus.ANSWERED if claims else AnswerStatus.NOT_FOUND), claims, passages, audit


async def ask_async(question: str, store: Store | str | Path, docs: Sequence[str] | None = None,
                    filter: AccessFilter | Mapping[str, Any] | None = None, navigator: str | Navigator | None = None,
                    *, config: ModelConfig | None = None, answer: AnswerLimits | Mapping[str, Any] | None = None,
                    seeds: Seeds | None = None, cancel: CancellationToken | None = None,
                    transport: Transport | None = None, **limits: Any) -> Answer:
    """:func:`ask` for async callers."""
    answer_limits = AnswerLimits.of(answer)
    cancel = cancel or CancellationToken()
    result = await navigate_async(question, store, docs, filter, navigator or default_navigator(config),
                                  config=config, seeds=seeds, cancel=cancel, **limits)
    offline = config is None or config.offline
    if not result.passages or result.cancelled:
        audit = AnswerAudit(answerer=EXTRACTIVE if offline else (config.model if config else EXTRACTIVE),
                            is_language_model=not offline)
        if result.cancelled:
            audit.outcome = "cancelled during navigation"
            return Answer(result.question, AnswerStatus.FAILED, [], [], result, audit)
        audit.notes.append("navigation returned no passage")
        return Answer(result.question, AnswerStatus.NOT_FOUND, [], [], result, audit)
    if offline:
        status, claims, passages, audit = _extractive(result.question, result, answer_limits)
    else:
        assert config is not None
        answerer = ModelAnswerer(config, answer_limits, transport=transport)
        status, claims, passages, audit = await answerer.answer(result.question, result.passages, cancel)
    return Answer(result.question, status, claims, passages, result, audit)


def ask(question: str, store: Store | str | Path, docs: Sequence[str] | None = None,
        filter: AccessFilter | Mapping[str, Any] | None = None, navigator: str | Navigator | None = None, *,
        config: ModelConfig | None = None, answer: AnswerLimits | Mapping[str, Any] | None = None,
        seeds: Seeds | None = None, cancel: CancellationToken | None = None, transport: Transport | None = None,
        **limits: Any) -> Answer:
    """Navigate stored trees for ``question``, then answer it from the returned passages only.

    With ``config`` naming a model (``ModelConfig(model="openai/gpt-4o-mini")``), the model writes numbered
    claims citing passage ids (an ``enum`` of the passages where the server enforces JSON schemas) and the
    navigator defaults to ``litellm``; without one (the offline default) the answer is **extractive, not a
    language model**: the passages' sentences that best match the question, each cited. Either way every
    citation is checked (:class:`~treebuild.answer.ClaimFlag`), "not found" is a valid answer, and a model
    that gives no usable answer makes a ``failed`` answer saying why. ``docs``, ``filter``, ``navigator``,
    ``seeds`` and ``**limits`` are :func:`treebuild.navigate`'s; ``answer`` bounds the answer step
    (:class:`~treebuild.answer.AnswerLimits`: calls, tokens, seconds, claims).
    """
    from ..llm.runner import run_sync

    return run_sync(ask_async(question, store, docs, filter, navigator, config=config, answer=answer, seeds=seeds,
                              cancel=cancel, transport=transport, **limits))
