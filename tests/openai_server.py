"""A real OpenAI-compatible chat completions server on 127.0.0.1 for tests and benchmarks.

It speaks ``POST /v1/chat/completions`` (and ``GET /v1/models``) over HTTP in a background
thread on an ephemeral port, answers with ``usage`` like the real API, and records every
request. What it answers is scripted per test:

* ``server.script(reply, ...)`` queues replies that the next requests get, in order;
* otherwise ``server.responder(request)`` decides (default :func:`echo_summaries`, which
  answers every summary request with a deterministic summary derived from the prompt).

A :class:`Reply` can be a good answer, a raw broken body, an HTTP error status (429, 500 ...),
or any of those after a delay (for timeouts and slow answers). Each request's ``response_format``
is recorded (:attr:`Request.response_format`, :attr:`Request.json_schema`); with
``server.accepts_schemas = False`` the server answers a JSON-schema request with HTTP 400, as
servers without structured outputs do. Example::

    with OpenAIServer() as server:
        server.script(Reply(status=429), Reply(content="fine"))
        ...  # litellm.acompletion(model="openai/test", api_base=server.url, api_key="x", ...)
        assert len(server.requests) == 2
"""

from __future__ import annotations

import json
import re
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from treebuild.llm.tokens import count_tokens
from treebuild.settings import ModelConfig

__all__ = ["OpenAIServer", "Reply", "Request", "echo_summaries", "summary_for", "asked_ids", "max_overlap",
           "server_config"]


SLOW = 60.0
"""Seconds to delay an answer no client should wait for. The server stops holding it as soon as the client hangs
up and records that (``Request.hung_up``): tests assert on that order, never on elapsed time."""


@dataclass
class Reply:
    """One scripted answer.

    ``content`` is the assistant message; ``body`` replaces the whole HTTP body (use it for
    broken JSON); ``status`` other than 200 sends an OpenAI-style error object; ``delay``
    sleeps first (a client timeout shorter than it sees a timeout).
    """

    content: str | None = None
    status: int = 200
    body: str | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str = "stop"
    refusal: str | None = None


@dataclass
class Request:
    """A request the server received: path, headers (lower-case names), parsed JSON body, arrival time."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float  # time.monotonic() on arrival
    done: float | None = None  # when the answer was sent (or the client hung up)
    hung_up: bool = False  # the client closed the connection while the server delayed its answer

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = self.body.get("messages", [])
        return messages

    @property
    def prompt(self) -> str:
        """All message contents joined: what the model reads."""
        return "\n".join(str(m.get("content") or "") for m in self.messages)

    @property
    def response_format(self) -> dict[str, Any] | None:
        """The request's ``response_format`` (``{"type": "json_object"}``, ``{"type": "json_schema", ...}``)."""
        value = self.body.get("response_format")
        return value if isinstance(value, dict) else None

    @property
    def json_schema(self) -> dict[str, Any] | None:
        """The strict schema a ``json_schema`` response format asks for, else None."""
        fmt = self.response_format
        if not fmt or fmt.get("type") != "json_schema":
            return None
        schema: dict[str, Any] = fmt["json_schema"]["schema"]
        return schema

    @property
    def user(self) -> str:
        """The last user message."""
        users = [m for m in self.messages if m.get("role") == "user"]
        return str(users[-1].get("content") or "") if users else ""


Responder = Callable[[Request], "Reply | str"]

_ASK = re.compile(r"^Ids:\s*(.+)$", re.MULTILINE)
_ID = re.compile(r"\b(\d{4,}|document)\b")


def asked_ids(request: Request) -> list[str]:
    """The ids a summary request asks for (its last ``Ids: 0001, 0002`` line)."""
    found = _ASK.findall(request.user)
    return _ID.findall(found[-1]) if found else []


def summary_for(node_id: str, request: Request, words: int = 0) -> str:
    """The deterministic summary :func:`echo_summaries` gives ``node_id`` for ``request``.

    With ``words``, it is padded to ``words`` words with every other word that follows the id's
    marker (``[0003]``) in the prompt: about a real summary's length and vocabulary, never a
    verbatim copy of the section's text.
    """
    import hashlib

    digest = hashlib.sha256(f"{node_id}\n{request.user}".encode()).hexdigest()[:8]
    base = f"Model summary {digest} of {node_id}."
    if not words:
        return base
    after = request.user.split(f"[{node_id}]", 1)
    source = (after[1] if len(after) == 2 else request.user).split()
    filler = (source[::2] + ["etc."] * words)[: max(0, words - 5)]
    return f"{base} {' '.join(filler)}"


def echo_summaries(request: Request, words: int = 0) -> Reply:
    """Answer a treebuild summary request with ``{id: summary}`` JSON for every id it asks."""
    ids = asked_ids(request)
    return Reply(content=json.dumps({i: summary_for(i, request, words) for i in ids}))


class OpenAIServer:
    """Loopback OpenAI chat completions server; use as a context manager or ``start()``/``close()``."""

    def __init__(self, responder: Responder | None = None, *, model: str = "test") -> None:
        self.responder: Responder = responder or echo_summaries
        self._default_responder = self.responder
        self.model = model
        self.accepts_schemas = True  # False: a json_schema response_format is refused with HTTP 400
        self.requests: list[Request] = []
        self.in_flight = 0
        self.max_in_flight = 0  # most chat requests being answered at the same time
        self._queue: deque[Reply | str] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------
    def start(self) -> OpenAIServer:
        server = self

        class Handler(_Handler):
            owner = server

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="openai-server", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()  # wake handlers sleeping in a delay
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- scripting -------------------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """The ``api_base`` to give a client: ``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def script(self, *replies: Reply | str) -> None:
        """Queue replies for the next requests, in order; then the responder takes over."""
        with self._lock:
            self._queue.extend(replies)

    def reset(self) -> None:
        """Forget recorded requests and queued replies, and answer with the default responder again."""
        with self._lock:
            self.requests.clear()
            self._queue.clear()
            self.responder = self._default_responder
            self.accepts_schemas = True
            self.max_in_flight = self.in_flight

    def settled(self, count: int = 0, timeout: float = 30.0) -> list[Request]:
        """The chat requests once at least ``count`` arrived and every one is answered or hung up (waiting at
        most ``timeout`` seconds): a test then asserts on ``hung_up``, the order of client and server, not on
        elapsed time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                arrived = sum(r.path.endswith("/chat/completions") for r in self.requests)
                if self.in_flight == 0 and arrived >= count:
                    break
            time.sleep(0.02)
        return self.chat_requests

    @property
    def chat_requests(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    # -- internals -------------------------------------------------------------------
    def _reply_for(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            scripted = self._queue.popleft() if self._queue else None
        reply = scripted if scripted is not None else self.responder(request)
        return Reply(content=reply) if isinstance(reply, str) else reply

    def _enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _wait(self, seconds: float, connection: socket.socket) -> bool:
        """Sleep up to ``seconds``; False as soon as the client hangs up (it timed out) or on close."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if self._stop.wait(min(left, 0.05)):
                return False
            readable, _, _ = select.select([connection], [], [], 0)
            if readable:
                try:
                    if connection.recv(1, socket.MSG_PEEK) == b"":
                        return False
                except OSError:
                    return False
        return True


class _Handler(BaseHTTPRequestHandler):
    owner: OpenAIServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence stderr
        return

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, {"object": "list", "data": [{"id": self.owner.model, "object": "model"}]})
        else:
            self._send(404, _error("not found", "invalid_request_error"))

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send(400, _error("request body is not JSON", "invalid_request_error"))
            return
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, _error(f"no route {self.path}", "invalid_request_error"))
            return
        request = Request(path=self.path, headers={k.lower(): v for k, v in self.headers.items()}, body=body,
                          at=time.monotonic())
        self.owner._enter()
        try:
            self._answer(request)
        finally:
            request.done = time.monotonic()
            self.owner._leave()

    def _answer(self, request: Request) -> None:
        if request.json_schema is not None and not self.owner.accepts_schemas:
            with self.owner._lock:
                self.owner.requests.append(request)
            self._send(400, _error("response_format json_schema is not supported by this server",
                                   "invalid_request_error"))
            return
        reply = self.owner._reply_for(request)
        if reply.delay and not self.owner._wait(reply.delay, self.connection):
            request.hung_up = not self.owner._stop.is_set()
            self.close_connection = True
            return
        if reply.body is not None:
            self._send_raw(reply.status, reply.body.encode(), reply.headers)
        elif reply.status != 200:
            kind = "rate_limit_exceeded" if reply.status == 429 else "server_error"
            self._send(reply.status, _error(f"scripted {reply.status}", kind), reply.headers)
        else:
            self._send(200, self._completion(request, reply), reply.headers)

    def _completion(self, request: Request, reply: Reply) -> dict[str, Any]:
        content = reply.content or ""
        prompt_tokens = reply.prompt_tokens
        if prompt_tokens is None:
            prompt_tokens = sum(count_tokens(str(m.get("content") or "")) + 4 for m in request.messages)
        completion_tokens = reply.completion_tokens
        if completion_tokens is None:
            completion_tokens = count_tokens(content)
        message: dict[str, Any] = {"role": "assistant", "content": content if reply.refusal is None else None}
        if reply.refusal is not None:
            message["refusal"] = reply.refusal
        return {
            "id": f"chatcmpl-{len(self.owner.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.body.get("model", self.owner.model),
            "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens},
        }

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode(), headers)

    def _send_raw(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout); nothing to answer


def server_config(server: OpenAIServer, **kw: Any) -> ModelConfig:
    """A model configuration that talks to ``server``: model ``openai/test``, a short back-off; ``kw`` overrides."""
    values: dict[str, Any] = {"model": "openai/test", "api_base": server.url, "api_key": "x", "backoff": 0.01}
    values.update(kw)
    return ModelConfig(**values)


def max_overlap(requests: list[Request]) -> int:
    """Most of ``requests`` being answered at the same moment."""
    events = sorted([(r.at, 1) for r in requests] + [(r.done or float("inf"), -1) for r in requests],
                    key=lambda e: (e[0], e[1]))
    best = current = 0
    for _, step in events:
        current += step
        best = max(best, current)
    return best


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": kind}}
