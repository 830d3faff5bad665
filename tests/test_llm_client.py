"""The model seam through the real litellm path against a loopback OpenAI-compatible server:
usage accounting, retries with backoff, timeouts, refusals, malformed answers, budgets,
bounded concurrency, and that importing treebuild never imports litellm."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest
from openai_server import SLOW, OpenAIServer, Reply, Request, max_overlap, server_config
from pydantic import BaseModel

from treebuild.llm import (
    BudgetExceeded,
    ModelClient,
    ModelError,
    count_tokens,
    for_server,
    id_enum,
    import_litellm,
    required_strings,
    run_sync,
    schema_supported,
    self_hosted,
)
from treebuild.model import Usage
from treebuild.settings import ModelConfig


@pytest.fixture(autouse=True)
def _fresh(server: OpenAIServer) -> None:
    server.reset()
    server.responder = lambda request: Reply(content=json.dumps({"echo": request.user}))


def config(server: OpenAIServer, **kw: Any) -> ModelConfig:
    return server_config(server, **{"timeout": 5.0, **kw})


def ask(client: ModelClient, text: str = "hello", *, max_tokens: int = 50) -> str:
    response = run_sync(client.chat([{"role": "user", "content": text}], max_tokens=max_tokens))
    return response.content or ""


class Echo(BaseModel):
    echo: str


def test_answer_and_usage_come_from_the_server(server: OpenAIServer) -> None:
    server.script(Reply(content="a fine answer", prompt_tokens=123, completion_tokens=7))
    usage = Usage()
    client = ModelClient(config(server), usage)
    assert ask(client, "summarise this") == "a fine answer"
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (1, 123, 7)
    request = server.chat_requests[0]
    assert request.body["model"] == "test"
    assert request.messages == [{"role": "user", "content": "summarise this"}]
    assert request.headers.get("authorization") == "Bearer x"
    assert request.body["max_tokens"] == 50


def test_cost_is_added_when_litellm_knows_the_model(server: OpenAIServer) -> None:
    server.script(Reply(content="priced", prompt_tokens=1000, completion_tokens=100),
                  Reply(content="unpriced", prompt_tokens=1000, completion_tokens=100))
    usage = Usage()
    ask(ModelClient(config(server, model="openai/gpt-4o-mini"), usage))
    price = import_litellm().model_cost["gpt-4o-mini"]
    expected = 1000 * price["input_cost_per_token"] + 100 * price["output_cost_per_token"]
    assert expected > 0 and usage.cost_usd == pytest.approx(expected)
    ask(ModelClient(config(server), usage))  # openai/test has no price: cost unchanged, no error
    assert usage.cost_usd == pytest.approx(expected) and usage.calls == 2


def test_structured_answer_is_validated(server: OpenAIServer) -> None:
    usage = Usage()
    client = ModelClient(config(server), usage)
    messages = [{"role": "user", "content": "reply in JSON"}]
    answer = run_sync(client.structured(messages, Echo, max_tokens=20))
    assert answer.echo == "reply in JSON"
    assert server.chat_requests[0].body["response_format"] == {"type": "json_object"}
    # tokens the server counted for this prompt, added to usage
    assert usage.prompt_tokens == count_tokens("reply in JSON") + 4


def test_fenced_json_is_accepted(server: OpenAIServer) -> None:
    server.script(Reply(content='Here you are:\n```json\n{"echo": "x"}\n```'))
    client = ModelClient(config(server), Usage())
    assert run_sync(client.structured([{"role": "user", "content": "q"}], Echo, max_tokens=20)).echo == "x"


@pytest.mark.parametrize(("content", "kind"), [
    ("not json at all", "malformed"),
    ('{"other": 1}', "malformed"),
    ("I'm sorry, but I can't help with that.", "refusal"),
])
def test_bad_structured_answers_are_failures(server: OpenAIServer, content: str, kind: str) -> None:
    server.script(Reply(content=content))
    usage = Usage()
    client = ModelClient(config(server), usage)
    with pytest.raises(ModelError) as info:
        run_sync(client.structured([{"role": "user", "content": "q"}], Echo, max_tokens=20))
    assert info.value.kind == kind
    assert usage.failures == {kind: 1}
    assert usage.calls == 1 and usage.retries == 0  # a bad answer is not retried


def test_refusal_field_and_empty_answer(server: OpenAIServer) -> None:
    server.script(Reply(refusal="I will not do that"), Reply(content=""))
    usage = Usage()
    client = ModelClient(config(server), usage)
    for kind in ("refusal", "malformed"):
        with pytest.raises(ModelError) as info:
            ask(client)
        assert info.value.kind == kind
    assert usage.failures == {"refusal": 1, "malformed": 1}


def test_rate_limit_then_success_is_retried_and_counted(server: OpenAIServer) -> None:
    server.script(Reply(status=429), Reply(status=503), Reply(content="ok"))
    usage = Usage()
    assert ask(ModelClient(config(server), usage)) == "ok"
    assert len(server.chat_requests) == 3
    assert (usage.calls, usage.retries, usage.failures) == (3, 2, {})


def test_retry_after_header_is_honoured(server: OpenAIServer) -> None:
    server.script(Reply(status=429, headers={"Retry-After": "0.6"}), Reply(content="ok"))
    waits: list[float] = []

    async def sleep(seconds: float) -> None:  # the client's clock: records each wait instead of sleeping
        waits.append(seconds)

    assert ask(ModelClient(config(server, backoff=0.0), Usage(), sleep=sleep)) == "ok"
    assert waits == [0.6] and len(server.chat_requests) == 2  # the server's wait, not the backoff's 0


def test_server_errors_give_up_after_max_retries(server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(status=500)
    usage = Usage()
    with pytest.raises(ModelError) as info:
        ask(ModelClient(config(server, max_retries=2), usage))
    assert info.value.kind == "server_error"
    assert len(server.chat_requests) == 3
    assert (usage.calls, usage.retries, usage.failures) == (3, 2, {"server_error": 1})


def test_broken_response_body_is_a_server_error(server: OpenAIServer) -> None:
    server.script(Reply(body='{"id": "x", "choices": [ broken'), Reply(content="recovered"))
    usage = Usage()
    assert ask(ModelClient(config(server), usage)) == "recovered"
    assert usage.retries == 1


def test_auth_error_is_not_retried(server: OpenAIServer) -> None:
    server.script(Reply(status=401))
    usage = Usage()
    with pytest.raises(ModelError) as info:
        ask(ModelClient(config(server), usage))
    assert info.value.kind == "auth"
    assert len(server.chat_requests) == 1 and usage.failures == {"auth": 1}


def test_timeout_is_retried_then_recorded(server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(content="late", delay=SLOW)
    usage = Usage()
    with pytest.raises(ModelError) as info:
        ask(ModelClient(config(server, timeout=0.3, max_retries=1), usage))
    assert info.value.kind == "timeout"
    assert [r.hung_up for r in server.settled(2)] == [True, True]  # never waited for the slow answer
    assert (usage.calls, usage.retries, usage.failures) == (2, 1, {"timeout": 1})


def test_max_calls_budget_stops_sending(server: OpenAIServer) -> None:
    usage = Usage()
    client = ModelClient(config(server, max_calls=2), usage)
    ask(client)
    ask(client)
    with pytest.raises(BudgetExceeded):
        ask(client)
    assert len(server.chat_requests) == 2
    assert usage.failures == {"budget": 1}
    assert client.budget.exceeded == "max_calls=2 reached"


def test_retries_count_against_max_calls(server: OpenAIServer) -> None:
    server.script(Reply(status=429), Reply(status=429), Reply(content="ok"))
    usage = Usage()
    with pytest.raises(BudgetExceeded):
        ask(ModelClient(config(server, max_calls=2), usage))
    assert len(server.chat_requests) == 2


def test_max_tokens_budget_reserves_before_sending(server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(content="x", prompt_tokens=40, completion_tokens=10)
    usage = Usage()
    client = ModelClient(config(server, max_tokens=120), usage)
    ask(client, "short", max_tokens=20)  # reserves ~5 + 20, spends 50
    with pytest.raises(BudgetExceeded):
        ask(client, "short", max_tokens=80)  # 50 spent + ~5 + 80 > 120: not sent
    assert len(server.chat_requests) == 1
    assert usage.prompt_tokens + usage.completion_tokens == 50


def test_slow_answer_beyond_max_seconds_is_a_budget_stop(server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(content="slow", delay=SLOW)
    usage = Usage()
    client = ModelClient(config(server, max_seconds=0.5, timeout=SLOW), usage)
    with pytest.raises(BudgetExceeded):
        ask(client)
    assert [r.hung_up for r in server.settled(1)] == [True]  # stopped at the budget, not at the answer
    assert usage.failures == {"budget": 1}
    with pytest.raises(BudgetExceeded):  # and nothing more is sent
        ask(client)
    assert len(server.chat_requests) == 1


def test_concurrency_is_bounded(server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(content="ok", delay=0.3)
    client = ModelClient(config(server, concurrency=2), Usage())

    async def many() -> list[str]:
        calls = [client.chat([{"role": "user", "content": f"q{i}"}], max_tokens=5) for i in range(6)]
        return [r.content or "" for r in await asyncio.gather(*calls)]

    assert run_sync(many()) == ["ok"] * 6
    assert max_overlap(server.chat_requests) == 2


def test_run_sync_works_inside_a_running_loop(server: OpenAIServer) -> None:
    client = ModelClient(config(server), Usage())

    async def caller() -> str:
        return ask(client, "from a loop")  # synchronous code called from async code

    assert json.loads(asyncio.run(caller()))["echo"] == "from a loop"


def test_unreachable_server_is_a_connection_failure() -> None:
    with OpenAIServer() as gone:
        url = gone.url
    usage = Usage()
    cfg = ModelConfig(model="openai/test", api_base=url, api_key="x", max_retries=1, backoff=0.01, timeout=2.0)
    with pytest.raises(ModelError) as info:
        ask(ModelClient(cfg, usage))
    assert info.value.kind == "connection"
    assert usage.retries == 1 and sum(usage.failures.values()) == 1


def test_importing_treebuild_does_not_import_litellm() -> None:
    code = (
        "import sys\n"
        "import treebuild, treebuild.pipeline, treebuild.summarize, treebuild.llm\n"
        "import treebuild.structure.model_fallback\n"
        "print('litellm' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_request_is_recorded_with_its_prompt(server: OpenAIServer) -> None:
    seen: list[Request] = []

    def respond(request: Request) -> Reply:
        seen.append(request)
        return Reply(content="ok")

    server.responder = respond
    ask(ModelClient(config(server), Usage()), "exact prompt text")
    assert seen[0].prompt == "exact prompt text" and seen == server.chat_requests


def test_model_config_reads_treebuild_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TREEBUILD_MODEL", "ollama/llama3.1")
    monkeypatch.setenv("TREEBUILD_API_BASE", "http://127.0.0.1:11434")
    monkeypatch.setenv("TREEBUILD_MAX_CALLS", "7")
    monkeypatch.setenv("TREEBUILD_MAX_SECONDS", "90")
    cfg = ModelConfig()
    assert (cfg.model, cfg.api_base, cfg.max_calls, cfg.max_seconds, cfg.offline) == \
        ("ollama/llama3.1", "http://127.0.0.1:11434", 7, 90.0, False)
    assert ModelConfig(model="extractive").offline


# -- strict JSON-schema answers ------------------------------------------------------------------


class Keyed(BaseModel):
    a: str
    b: str


def test_a_strict_schema_is_sent_where_the_server_enforces_it(server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(content=json.dumps({"a": "1", "b": "2"}))
    usage = Usage()
    client = ModelClient(config(server), usage)
    messages = [{"role": "user", "content": "two answers"}]
    answer = run_sync(client.structured(messages, Keyed, max_tokens=20, json_schema=required_strings(["a", "b"]),
                                        schema_name="keyed"))
    assert (answer.a, answer.b) == ("1", "2")
    (request,) = server.chat_requests
    assert request.response_format == {"type": "json_schema", "json_schema": {
        "name": "keyed", "strict": True, "schema": required_strings(["a", "b"])}}


def test_a_refused_schema_falls_back_to_json_object_for_good(server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(content=json.dumps({"a": "1", "b": "2"}))
    server.accepts_schemas = False
    usage = Usage()
    client = ModelClient(config(server), usage)
    messages = [{"role": "user", "content": "two answers"}]
    for _ in range(2):
        run_sync(client.structured(messages, Keyed, max_tokens=20, json_schema=required_strings(["a", "b"])))
    first, again, later = server.chat_requests
    assert first.json_schema is not None
    assert again.response_format == later.response_format == {"type": "json_object"}
    assert (usage.calls, usage.retries, usage.failures) == (3, 1, {})
    assert client.schema_refused is not None and "not supported" in client.schema_refused


def test_forced_schemas_are_not_downgraded(server: OpenAIServer) -> None:
    server.accepts_schemas = False
    usage = Usage()
    client = ModelClient(config(server, response_schema="always"), usage)
    with pytest.raises(ModelError) as info:
        run_sync(client.structured([{"role": "user", "content": "x"}], Keyed, max_tokens=20,
                                   json_schema=required_strings(["a", "b"])))
    assert info.value.kind == "bad_request" and usage.failures == {"bad_request": 1} and usage.calls == 1


def test_which_servers_get_schemas() -> None:
    litellm = import_litellm()
    local = "http://127.0.0.1:8080/v1"
    assert schema_supported(litellm, "openai/anything", local)  # vLLM, llama.cpp, Ollama's /v1
    assert schema_supported(litellm, "hosted_vllm/model", local)
    assert schema_supported(litellm, "ollama/llama3.1", None)
    assert schema_supported(litellm, "openai/gpt-4o-mini", None)  # litellm's model map says so
    assert not schema_supported(litellm, "openai/gpt-3.5-turbo", None)
    assert not schema_supported(litellm, "openai/unknown-model", None)
    assert not schema_supported(litellm, "openai/unknown-model", "https://api.openai.com/v1")
    assert schema_supported(litellm, "claude-3-5-sonnet-20241022", None) == \
        litellm.supports_response_schema("claude-3-5-sonnet-20241022")


def test_string_lengths_go_to_self_hosted_servers_only(server: OpenAIServer) -> None:
    server.responder = lambda request: Reply(content=json.dumps({"a": "1", "b": "2"}))
    schema = required_strings(["a", "b"], max_chars=40)
    assert schema["properties"]["a"] == {"type": "string", "minLength": 1, "maxLength": 40}
    assert for_server(schema, self_hosted=False)["properties"]["a"] == {"type": "string"}
    assert for_server(id_enum(["a", "b"], 1), self_hosted=False) == {"type": "array", "items": {
        "type": "string", "enum": ["a", "b"]}}
    assert for_server(id_enum(["a", "b"], 1), self_hosted=True)["maxItems"] == 1
    run_sync(ModelClient(config(server), Usage()).structured(
        [{"role": "user", "content": "x"}], Keyed, max_tokens=20, json_schema=schema))
    assert server.chat_requests[-1].json_schema == schema  # the loopback server is self-hosted
    litellm = import_litellm()
    assert self_hosted(litellm, "openai/x", "http://127.0.0.1:1/v1") and self_hosted(litellm, "ollama/x", None)
    assert not self_hosted(litellm, "openai/gpt-4o-mini", None)


def test_a_bad_request_about_the_prompt_is_not_taken_for_a_schema_refusal(server: OpenAIServer) -> None:
    server.script(Reply(status=400))  # "scripted 400": nothing about the response format
    usage = Usage()
    client = ModelClient(config(server), usage)
    with pytest.raises(ModelError) as info:
        run_sync(client.structured([{"role": "user", "content": "x"}], Keyed, max_tokens=20,
                                   json_schema=required_strings(["a", "b"])))
    assert info.value.kind == "bad_request" and usage.calls == 1 and client.schema_refused is None
    assert client.sends_schemas()
