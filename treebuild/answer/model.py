"""The answer written by a language model through the one model seam (:mod:`treebuild.llm`).

One request (:mod:`.prompts`): the question and the passages, each cut so that the prompt fits
``max_input_tokens`` (shared fairly: short passages whole, the rest cut to equal shares; the audit
notes every cut). Where the server enforces JSON schemas the citations are an ``enum`` of the ids of
the passages shown. The answer is parsed and validated with pydantic either way; one that is not the
asked JSON is asked again once, within ``max_calls``. Every claim's citations are checked
(:mod:`.citations`). No usable answer (a timeout, a refusal, the budget, an answer still malformed)
is a ``failed`` answer whose audit says why and keeps the model's last text: never dropped silently.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..llm.budget import Budget
from ..llm.client import ModelClient
from ..llm.failures import ModelError
from ..llm.structured import parse_json
from ..llm.tokens import count_tokens, truncate_tokens
from ..llm.transport import Transport
from ..model import Usage
from ..query import CancellationToken, NavigatorUsage, Passage
from ..settings import ModelConfig
from . import prompts
from .citations import check_claim
from .limits import AnswerLimits
from .result import AnswerAudit, AnswerPassage, AnswerStatus, Claim, pages_text

__all__ = ["ModelAnswerer", "ModelAnswer", "fit_passages", "MIN_PASSAGE_TOKENS", "RAW_CHARS"]

MIN_PASSAGE_TOKENS = 40
"""A passage given fewer tokens than this shows too little to answer from: it is left out (noted)."""
RAW_CHARS = 2_000
"""Characters of an unusable answer kept in the audit."""
POLL_SECONDS = 0.05
"""How often a pending answer is checked against the cancellation token."""

T = TypeVar("T")


class _ClaimAnswer(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str = ""
    citations: list[str] = Field(default_factory=list)

    @field_validator("text", mode="before")
    @classmethod
    def _text(cls, value: Any) -> str:
        return "" if value is None else str(value)

    @field_validator("citations", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> list[str]:
        items = value if isinstance(value, list) else [] if value is None else [value]
        return [str(i) for i in items if isinstance(i, str | int) and not isinstance(i, bool)]


class ModelAnswer(BaseModel):
    """The model's answer as parsed: ``found`` and the claims (ids checked afterwards, not here)."""

    model_config = ConfigDict(extra="ignore")

    found: bool | None = None
    claims: list[_ClaimAnswer] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, value: Any) -> Any:
        if isinstance(value, dict) and "claims" not in value and "found" not in value:
            raise ValueError(f"neither claims nor found in the answer (keys: {', '.join(map(str, value)) or 'none'})")
        return value


def fit_passages(question: str, passages: Sequence[Passage], limits: AnswerLimits) -> tuple[list[AnswerPassage],
                                                                                              list[str]]:
    """Passages with ids ``P1``... and the prefix of each text shown, so that the prompt fits
    ``max_input_tokens``; and notes on what was cut or left out."""
    base = prompts.answer_messages(question, [], max_claims=limits.max_claims,
                                   max_claim_chars=limits.max_claim_chars, max_citations=limits.max_citations)
    left = limits.max_input_tokens - sum(count_tokens(m["content"]) + 4 for m in base)
    need = [count_tokens(p.text) for p in passages]
    given = [0] * len(passages)
    order = sorted(range(len(passages)), key=lambda i: need[i])
    for rank, i in enumerate(order):
        share = max(0, left // (len(order) - rank) - prompts.PASSAGE_OVERHEAD_TOKENS)
        given[i] = min(need[i], share)
        left -= given[i] + prompts.PASSAGE_OVERHEAD_TOKENS
    out: list[AnswerPassage] = []
    notes: list[str] = []
    for i, p in enumerate(passages):
        pid = f"P{i + 1}"
        if given[i] >= need[i]:
            out.append(AnswerPassage(pid, p, len(p.text)))
            continue
        if given[i] < min(MIN_PASSAGE_TOKENS, need[i]):
            out.append(AnswerPassage(pid, p, 0))
            notes.append(f"{pid} left out: no room within max_input_tokens={limits.max_input_tokens}")
            continue
        head, _ = truncate_tokens(p.text, given[i])
        shown = len(head) if p.text.startswith(head) else _common_prefix(p.text, head)
        out.append(AnswerPassage(pid, p, shown))
        notes.append(f"{pid} shown in part ({given[i]} of {need[i]} tokens) to fit "
                     f"max_input_tokens={limits.max_input_tokens}")
    return out, notes


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _usage(usage: Usage) -> NavigatorUsage:
    return NavigatorUsage(calls=usage.calls, input_tokens=usage.prompt_tokens, output_tokens=usage.completion_tokens,
                          cost_usd=usage.cost_usd, retries=usage.retries, failures=dict(usage.failures))


class _NoAnswer(Exception):
    """The answer step ended without a usable answer; ``outcome`` says why."""

    def __init__(self, outcome: str) -> None:
        super().__init__(outcome)
        self.outcome = outcome


async def _unless_cancelled(work: Awaitable[T], cancel: CancellationToken) -> T:
    task: asyncio.Future[T] = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=POLL_SECONDS)
            if done:
                return task.result()
            if cancel.cancelled:
                raise _NoAnswer(f"cancelled: {cancel.reason}")
    finally:
        if not task.done():
            task.cancel()


class ModelAnswerer:
    """Writes the answer with a language model; see the module docstring."""

    is_language_model = True

    def __init__(self, config: ModelConfig, limits: AnswerLimits, *, transport: Transport | None = None) -> None:
        self.config = config
        self.limits = limits
        self.transport = transport

    @property
    def name(self) -> str:
        return self.config.model

    async def answer(self, question: str, passages: Sequence[Passage], cancel: CancellationToken,
                     ) -> tuple[AnswerStatus, list[Claim], list[AnswerPassage], AnswerAudit]:
        started = time.monotonic()
        audit = AnswerAudit(answerer=self.name, is_language_model=True, prompt_version=prompts.PROMPT_VERSION)
        shown, audit.notes = fit_passages(question, passages, self.limits)
        usage = Usage()
        status, claims = AnswerStatus.FAILED, list[Claim]()
        try:
            if not any(p.shown_chars for p in shown):
                raise _NoAnswer(f"budget: no passage fits max_input_tokens={self.limits.max_input_tokens}")
            if cancel.cancelled:
                raise _NoAnswer(f"cancelled: {cancel.reason}")
            parsed = await _unless_cancelled(self._ask(question, shown, usage, audit), cancel)
            status, claims = self._claims(parsed, shown, audit)
        except _NoAnswer as exc:
            audit.outcome = exc.outcome
        audit.usage = _usage(usage)
        audit.seconds = time.monotonic() - started
        return status, claims, shown, audit

    async def _ask(self, question: str, shown: list[AnswerPassage], usage: Usage, audit: AnswerAudit) -> ModelAnswer:
        lim = self.limits
        records = [prompts.passage_record(p.id, p.passage.doc_id, " > ".join(e.title for e in p.passage.path),
                                          pages_text(p.passage), p.shown_text) for p in shown if p.shown_chars]
        ids = [r["id"] for r in records]
        shape = {"max_claims": lim.max_claims, "max_claim_chars": lim.max_claim_chars,
                 "max_citations": lim.max_citations}
        messages = prompts.answer_messages(question, records, **shape)
        schema = prompts.answer_schema(ids, **shape)
        max_tokens = min(lim.max_output_tokens, prompts.answer_tokens(**shape))
        budget = Budget(usage, lim.max_calls, None, lim.max_seconds)
        client = ModelClient(self.config, usage, transport=self.transport, budget=budget)
        while True:
            try:
                response = await client.chat(messages, max_tokens=max_tokens, json=True, json_schema=schema,
                                             schema_name="answer")
            except ModelError as exc:
                raise _NoAnswer(str(exc)[:500]) from None
            finally:
                audit.schema = "json_schema" if client.sends_schemas() else "json_object"
            content = response.content or ""
            try:
                return parse_json(content, ModelAnswer)
            except ModelError as exc:
                usage.add_failure(exc.kind)
                audit.raw = content[:RAW_CHARS]
                if exc.kind != "malformed" or usage.calls >= lim.max_calls or budget.exceeded is not None:
                    raise _NoAnswer(str(exc)[:500]) from None
                usage.retries += 1
                messages = [*messages, {"role": "assistant", "content": content[:RAW_CHARS]},
                            {"role": "user", "content": (
                                f"Your answer could not be used ({str(exc)[:300]}). Answer again with only the JSON "
                                "object in the requested shape, citing only ids from the data.")}]

    def _claims(self, parsed: ModelAnswer, shown: list[AnswerPassage], audit: AnswerAudit,
                ) -> tuple[AnswerStatus, list[Claim]]:
        given = [c for c in parsed.claims if c.text.strip()]
        if len(given) < len(parsed.claims):
            audit.notes.append(f"{len(parsed.claims) - len(given)} blank claim(s) left out")
        if len(given) > self.limits.max_claims:
            audit.notes.append(f"{len(given) - self.limits.max_claims} claim(s) past max_claims="
                               f"{self.limits.max_claims} left out")
            given = given[: self.limits.max_claims]
        claims = [check_claim(n, c.text, c.citations, shown) for n, c in enumerate(given, 1)]
        if parsed.found is False and claims:
            audit.notes.append(f"the model said found=false but gave {len(claims)} claim(s): they are kept")
        if parsed.found and not claims:
            audit.notes.append("the model said found=true but gave no claim")
        return (AnswerStatus.ANSWERED if claims else AnswerStatus.NOT_FOUND), claims
