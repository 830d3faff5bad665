"""``litellm``: a language model judges each step, through the one model seam (:mod:`treebuild.llm`).

Any model litellm reaches (``--model openai/gpt-4o-mini``, ``ollama/llama3.1``, ``openai/NAME``
with ``--api-base`` for vLLM or llama.cpp). Each step is one request built in
:mod:`treebuild.query.prompts`: the whole outline in a single pass, one level of candidates in a
beam step, or the documents in document selection. Where the server enforces JSON schemas the
answer's ids are an ``enum`` of the ids just offered; every answer is validated with pydantic
either way, and the runtime checks the ids again.

Budgets: each request is sent only when it fits what the runtime says is left (calls, input and
output tokens, seconds); retries of transient errors count against the same calls. A step that
cannot be afforded, or whose answer is unusable after one corrective retry, ends that walk with
the reason in its reasoning (the runtime keeps what was chosen so far). Usage (calls, tokens,
cost, retries, failures by kind) is returned with every decision and added to the result.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ...errors import TreebuildError
from ...llm.budget import Budget
from ...llm.client import ModelClient
from ...llm.failures import BudgetExceeded, ModelError
from ...llm.tokens import count_tokens
from ...llm.transport import Transport, import_litellm
from ...model import Usage
from ...settings import ModelConfig
from .. import prompts
from ..spi import Decision, NavigatorUsage, Remaining, Selection, SelectionRequest, StepRequest

__all__ = ["NAME", "ModelNavigator", "ModelProvider", "NavigationAnswer", "SelectionAnswer", "MIN_ANSWER_TOKENS"]

NAME = "litellm"

MIN_ANSWER_TOKENS = 24
"""Fewer output tokens left than this cannot hold an answer naming one id: the step is not sent."""

CORRECTIVE_RETRIES = 1
"""An answer that is not the asked JSON is asked again this many times (when the budget allows)."""


def _id_list(value: Any) -> list[str]:
    """Ids as strings; a single id for a list, numbers as their text, blanks dropped."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, dict):  # {"id": "0003", ...}
            item = item.get("id")
        if isinstance(item, str | int) and not isinstance(item, bool) and str(item).strip():
            out.append(str(item).strip().strip("[]"))
    return out


def _needs(value: Any, keys: tuple[str, ...]) -> Any:
    """An answer must carry at least one of ``keys``: ``{"answer": "0003"}`` is not an empty choice
    but an answer in another shape, refused as malformed (and asked again), never read as "nothing"."""
    if isinstance(value, dict) and not any(k in value for k in keys):
        raise ValueError(f"none of {', '.join(keys)} in the answer (keys: {', '.join(map(str, value)) or 'none'})")
    return value


class _Answer(BaseModel):
    """What every navigator answer shares: unknown keys ignored, ``reasoning`` as text."""

    model_config = ConfigDict(extra="ignore")

    reasoning: str = ""

    @field_validator("reasoning", mode="before")
    @classmethod
    def _text(cls, value: Any) -> str:
        return "" if value is None else str(value)


class NavigationAnswer(_Answer):
    """A step's answer: ids to read, ids to expand, stop, and why."""

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, value: Any) -> Any:
        return _needs(value, ("read", "expand", "stop"))

    read: list[str] = Field(default_factory=list)
    expand: list[str] = Field(default_factory=list)
    stop: bool = False

    @field_validator("read", "expand", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> list[str]:
        return _id_list(value)


class SelectionAnswer(_Answer):
    """Document selection's answer."""

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, value: Any) -> Any:
        return _needs(value, ("documents",))

    documents: list[str] = Field(default_factory=list)

    @field_validator("documents", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> list[str]:
        return _id_list(value)


class _Unaffordable(Exception):
    """The step's request does not fit the remaining budget; nothing was sent."""


class ModelNavigator:
    """Asks a language model each step; see the module docstring."""

    name = NAME
    is_language_model = True

    def __init__(self, config: ModelConfig, *, transport: Transport | None = None) -> None:
        self.config = config
        self.transport = transport
        self.schema_refused: str | None = None  # remembered across steps once a server refuses schemas

    # -- SPI --------------------------------------------------------------------------
    async def decide(self, request: StepRequest) -> Decision:
        request.cancel.raise_if_cancelled()
        ids = [c.node_id for c in request.candidates]
        if request.mode == "single_pass":
            messages = prompts.single_pass_messages(request)
            schema = prompts.single_pass_schema(ids, request.max_choices)
        else:
            messages = prompts.beam_messages(request)
            schema = prompts.beam_schema(ids, request.max_choices)
        usage = Usage()
        try:
            answer = await self._ask(messages, NavigationAnswer, schema, "navigation",
                                     prompts.answer_tokens(request.max_choices), request.remaining, usage)
        except (_Unaffordable, BudgetExceeded) as exc:
            return Decision.stop_here(f"[{NAME}] budget: {_reason(exc)}", _usage(usage))
        except ModelError as exc:
            return Decision.stop_here(f"[{NAME}] no usable answer ({exc.kind}): {_reason(exc)}", _usage(usage))
        request.cancel.raise_if_cancelled()
        expand = () if request.mode == "single_pass" else tuple(answer.expand)
        return Decision(expand=expand, read=tuple(answer.read), stop=answer.stop, reasoning=answer.reasoning,
                        usage=_usage(usage))

    async def select_documents(self, request: SelectionRequest) -> Selection:
        request.cancel.raise_if_cancelled()
        documents = list(request.candidates)
        messages = prompts.selection_messages(request.question, documents, request.max_documents)
        schema = prompts.selection_schema([d.doc_id for d in documents], request.max_documents)
        usage = Usage()
        try:
            answer = await self._ask(messages, SelectionAnswer, schema, "documents",
                                     prompts.answer_tokens(request.max_documents), request.remaining, usage)
        except (_Unaffordable, ModelError) as exc:
            # no usable answer: rank the documents lexically instead, and say so in the audit
            from .lexical import rank_documents

            kind = exc.kind if isinstance(exc, ModelError) else "budget"
            ranked = rank_documents(request.question, documents)[: request.max_documents]
            return Selection(tuple(d.doc_id for d in ranked),
                             f"[{NAME}] no usable selection ({kind}: {_reason(exc)}); documents ranked lexically "
                             "instead (BM25 over titles, descriptions and the section titles and summaries "
                             "inside, not a language model)", _usage(usage))
        request.cancel.raise_if_cancelled()
        return Selection(tuple(answer.documents), answer.reasoning, _usage(usage))

    # -- one structured request within the remaining budget ----------------------------
    async def _ask(self, messages: list[dict[str, str]], shape: type[Any], schema: dict[str, Any], name: str,
                   answer_tokens: int, remaining: Remaining, usage: Usage) -> Any:
        prompt_tokens = sum(count_tokens(m["content"]) + 4 for m in messages)
        if remaining.input_tokens is not None and prompt_tokens > remaining.input_tokens:
            raise _Unaffordable(f"the prompt needs ~{prompt_tokens} input tokens, {remaining.input_tokens} are left")
        max_tokens = answer_tokens
        if remaining.output_tokens is not None:
            max_tokens = min(max_tokens, remaining.output_tokens)
            if max_tokens < MIN_ANSWER_TOKENS:
                raise _Unaffordable(f"{remaining.output_tokens} output tokens are left")
        if remaining.calls is not None and remaining.calls < 1:
            raise _Unaffordable("no model calls are left")
        tokens = None
        if remaining.input_tokens is not None and remaining.output_tokens is not None:
            tokens = remaining.input_tokens + remaining.output_tokens
        budget = Budget(usage, remaining.calls, tokens, remaining.seconds)
        client = ModelClient(self.config, usage, transport=self.transport, budget=budget)
        client.schema_refused = self.schema_refused
        attempt = 0
        while True:
            try:
                return await client.structured(messages, shape, max_tokens=max_tokens, json_schema=schema,
                                               schema_name=name)
            except ModelError as exc:
                if exc.kind != "malformed" or attempt >= CORRECTIVE_RETRIES or budget.exceeded is not None:
                    raise
                attempt += 1
                usage.retries += 1
                messages = [*messages, {"role": "user", "content": (
                    f"Your answer could not be used ({_reason(exc)}). Answer again with only the JSON object "
                    "in the requested shape, using only ids from the data.")}]
            finally:
                self.schema_refused = client.schema_refused


def _reason(exc: BaseException) -> str:
    text = str(exc)
    return text[:300]


def _usage(usage: Usage) -> NavigatorUsage:
    return NavigatorUsage(calls=usage.calls, input_tokens=usage.prompt_tokens, output_tokens=usage.completion_tokens,
                          cost_usd=usage.cost_usd, retries=usage.retries, failures=dict(usage.failures))


class ModelProvider:
    """Provides ``litellm`` (registered under the ``treebuild.navigators`` entry-point group)."""

    def supports(self, name: str) -> bool:
        return name.strip().casefold() == NAME

    def create(self, name: str, config: ModelConfig) -> ModelNavigator:
        if config.offline:
            raise TreebuildError(f"the {NAME} navigator needs a language model, and the model is "
                                 f"{config.model!r} (the offline default)",
                                 hint="pass --model (a litellm id such as openai/gpt-4o-mini, or openai/NAME with "
                                      "--api-base for a local server), or use --navigator lexical")
        import_litellm()  # seconds of import here, at resolution, not on the first step's clock
        return ModelNavigator(config)
