"""``treebuild mcp``: a read-only MCP server over a store, with the official ``mcp`` SDK (2.x).

Tools (JSON schemas come from the typed signatures): ``list_documents``, ``get_structure``,
``get_section``, ``get_pages``, ``navigate`` (the query module's navigation with its audit) and ``ask``
(navigation, then an answer of numbered claims whose citations are checked).
The logic lives in :mod:`treebuild.agents.tools`; this module only wires it to MCP: every answer
is JSON text plus the same value as structured content, every expected failure an ``is_error``
result holding ``{"error": {"code", "message", "hint"}}``, and an unexpected one the same shape
with code ``internal`` (the traceback stays in the server's log). A server-level scope
(``--filter k=v``) restricts every tool.

This module imports the SDK (the optional extra ``treebuild[mcp]``); the CLI imports it lazily.
Annotations are evaluated eagerly (no ``from __future__ import annotations``): the SDK reads the
tool signatures, whose bounds come from the server's limits.
"""

import json
import logging
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from .. import __version__
from ..errors import TreebuildError
from ..query import DEFAULT_NAVIGATOR, AccessFilter, Navigator, resolve_navigator
from ..settings import ModelConfig
from ..store import Store
from .tools import StoreTools, ToolFailure, ToolLimits

__all__ = ["create_server", "serve", "INSTRUCTIONS"]

log = logging.getLogger("treebuild.mcp")

INSTRUCTIONS = """\
Documents here are stored as table-of-contents trees: sections with titles, page ranges and summaries.
Ask navigate(question) to have the sections that answer a question found for you, or browse: find a document
with list_documents, read its outline with get_structure (titles and summaries; go deeper with node_id), then
read only the sections you need with get_section, or exact pages with get_pages.
Answers are capped in size; when one says "truncated", call what its "next" field says. Cite doc_id,
node_id and pages from the "citation" field."""

DocId = Annotated[str, Field(description="Document id, from list_documents.", min_length=1, max_length=200)]
NodeId = Annotated[str, Field(description="Node id from get_structure, e.g. '0007'.", min_length=1, max_length=20)]
Offset = Annotated[int, Field(ge=0, description="Continue from here (the 'next' call of a truncated answer).")]
FilterArg = Annotated[dict[str, str | list[str]] | None,
                      Field(description="Only documents whose tags (or doc_id, format) match, e.g. "
                                        "{\"fy\": \"2022\"} or {\"fy\": [\"2021\", \"2022\"], \"format\": \"pdf\"}; "
                                        "it narrows the documents this server shows, never widens them.")]


class NavigateBudget(BaseModel):
    """Bounds of one navigation; unset fields keep the query module's defaults."""

    model_config = ConfigDict(extra="forbid")

    max_pages: int | None = Field(default=None, ge=1, le=50, description="Pages of text returned, at most.")
    max_nodes: int | None = Field(default=None, ge=1, le=10, description="Sections returned per document.")
    max_documents: int | None = Field(default=None, ge=1, le=10,
                                      description="Documents navigated when doc_ids is not given.")
    max_calls: int | None = Field(default=None, ge=0, le=50, description="Navigator (model) calls per document.")
    max_seconds: float | None = Field(default=None, gt=0, le=300, description="Seconds per document.")


def _result(value: dict[str, Any], *, error: bool = False) -> CallToolResult:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=value, is_error=error)


def _run(name: str, fn: Callable[[], dict[str, Any]]) -> CallToolResult:
    try:
        return _result(fn())
    except ToolFailure as exc:
        return _result(exc.as_dict(), error=True)
    except TreebuildError as exc:
        return _result(ToolFailure("store_error", str(exc)).as_dict(), error=True)
    except Exception as exc:  # a bug: log it here, tell the agent without a traceback
        log.exception("tool %s failed", name)
        return _result(ToolFailure("internal", f"{name} failed: {type(exc).__name__}: {exc}",
                                   "this is a server bug; try another call").as_dict(), error=True)


class _StructuredErrors:
    """Middleware: argument errors the SDK reports as plain text (schema validation, unknown tool)
    come back in the same ``{"error": {...}}`` shape as the tools' own failures."""

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        result = await call_next(ctx)
        if ctx.method != "tools/call":
            return result
        if isinstance(result, CallToolResult):
            result = result.model_dump(by_alias=True, mode="json")
        if not isinstance(result, dict) or not result.get("isError") or result.get("structuredContent") is not None:
            return result
        text = " ".join(str(c.get("text", "")) for c in result.get("content") or [] if isinstance(c, dict))
        lines = [ln.strip() for ln in text.splitlines() if ln.strip() and "errors.pydantic.dev" not in ln]
        message = "; ".join(lines) or "the call failed"
        if "unknown tool" in message.casefold():
            failure = ToolFailure("unknown_tool", message, "list the tools with tools/list")
        else:
            failure = ToolFailure("bad_argument", message, "check the arguments against the tool's input schema")
        return _result(failure.as_dict(), error=True)


def create_server(store: Store, scope: AccessFilter | Mapping[str, Any] | None = None,
                  limits: ToolLimits | None = None, *, navigator: str | Navigator = DEFAULT_NAVIGATOR,
                  config: ModelConfig | None = None) -> MCPServer:
    """An ``MCPServer`` exposing the read-only tools over ``store``, restricted to ``scope``; ``navigate``
    uses ``navigator`` (a registered name, checked here, or an instance) with ``config``."""
    resolved = resolve_navigator(navigator, config)  # an unknown name fails at start, not at the first call
    tools = StoreTools(store, scope, limits, navigator=navigator, config=config)
    lim = tools.limits
    server = MCPServer("treebuild", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING",
                       middleware=[_StructuredErrors()])
    # The SDK logs through a root handler; a library that sets its own logger to DEBUG would print
    # its chatter to the client's log: the handlers keep warnings and errors only.
    for handler in logging.getLogger().handlers:
        handler.setLevel(logging.WARNING)
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                open_world_hint=False)

    @server.tool(annotations=read_only)
    def list_documents(
        query: Annotated[str | None, Field(description="Words that must all appear in the doc_id, title, "
                                           "description or file name (case-insensitive).")] = None,
        filter: FilterArg = None,
        limit: Annotated[int, Field(ge=1, le=lim.documents, description="Documents per answer.")] = 20,
        offset: Offset = 0,
    ) -> CallToolResult:
        """List the documents you can read (latest versions): doc_id, title, description, pages, version, meta.
        Start here; then call get_structure(doc_id)."""
        return _run("list_documents", lambda: tools.list_documents(query, filter, limit, offset))

    @server.tool(annotations=read_only)
    def get_structure(
        doc_id: DocId,
        node_id: Annotated[str | None, Field(description="Show the sections under this node; omit for the whole "
                                             "document.", max_length=20)] = None,
        depth: Annotated[int, Field(ge=1, le=20, description="Levels below the starting point.")] = 2,
        offset: Offset = 0,
    ) -> CallToolResult:
        """A document's outline: node_id, title, pages and summary of each section, `depth` levels down from
        the top (or from node_id). Sections marked more_below have deeper ones: call again with their node_id.
        Large outlines come in pages: follow 'next'."""
        return _run("get_structure", lambda: tools.get_structure(doc_id, node_id, depth, offset))

    @server.tool(annotations=read_only)
    def get_section(
        doc_id: DocId,
        node_id: NodeId,
        max_chars: Annotated[int | None, Field(ge=1, le=lim.max_text_chars, description=f"Characters to return "
                                               f"(default {lim.text_chars}).")] = None,
        offset: Offset = 0,
    ) -> CallToolResult:
        """The exact text of one section (its subsections included) with a citation: doc_id, version, node_id,
        title, path and pages. Long sections come in parts: follow 'next'."""
        return _run("get_section", lambda: tools.get_section(doc_id, node_id, max_chars, offset))

    @server.tool(annotations=read_only)
    def get_pages(
        doc_id: DocId,
        pages: Annotated[str, Field(description="1-based physical pages: \"5\", \"5-7\" or \"1,3,8-9\" "
                                    f"(at most {lim.pages_per_call}).", min_length=1, max_length=200)],
        max_chars: Annotated[int | None, Field(ge=1, le=lim.max_text_chars, description=f"Characters to return "
                                               f"(default {lim.text_chars}).")] = None,
    ) -> CallToolResult:
        """The exact text of PDF pages with a citation and the sections on them. Documents without pages
        (DOCX, Markdown) are read with get_section instead."""
        return _run("get_pages", lambda: tools.get_pages(doc_id, pages, max_chars))

    kind = "a language model" if resolved.is_language_model else "not a language model: offline and deterministic"
    nav_name = navigator if isinstance(navigator, str) else type(navigator).__name__

    @server.tool(annotations=read_only, description=(
        f"Find the sections that answer a question by navigating the documents' tables of contents (navigator "
        f"'{nav_name}', {kind}). Returns passages (exact text with a citation: doc_id, version, node_id, title, path, "
        "pages) and the audit of how they were chosen (per document: steps, reasoning, stop reasons). Name "
        "doc_ids to search those documents, or leave it out to let the navigator choose among all you can read. "
        "A cut passage gives the get_section call that reads on."))
    def navigate(
        question: Annotated[str, Field(min_length=1, max_length=2_000, description="A full question.")],
        doc_ids: Annotated[list[str] | None, Field(max_length=20, description="Documents to search (from "
                                                   "list_documents); omit to search all.")] = None,
        filter: FilterArg = None,
        budget: Annotated[NavigateBudget | None, Field(description="Bounds of this navigation.")] = None,
    ) -> CallToolResult:
        return _run("navigate", lambda: tools.navigate(question, doc_ids, filter,
                                                       budget.model_dump() if budget is not None else None))

    answerer = ("extractive: the passages' sentences that best match the question, not a language model"
                if config is None or config.offline else f"written by the model {config.model}")

    @server.tool(annotations=read_only, description=(
        f"Answer a question from the documents: navigate (as navigate does), then answer from the returned passages "
        f"only (answer {answerer}). Returns the answer as numbered claims, each citing passage ids (P1, P2 ...) "
        "with every citation checked: a claim citing nothing, naming a passage that was not given, or stating a "
        "number its passages do not print is flagged (verified: false). status is answered, not_found or failed "
        "(outcome says why). The passages carry their citations (doc_id, version, node_id, path, pages); the audit "
        "covers navigation and answer (calls, tokens, cost, seconds)."))
    def ask(
        question: Annotated[str, Field(min_length=1, max_length=2_000, description="A full question.")],
        doc_ids: Annotated[list[str] | None, Field(max_length=20, description="Documents to answer from (from "
                                                   "list_documents); omit to search all.")] = None,
        filter: FilterArg = None,
        budget: Annotated[NavigateBudget | None, Field(description="Bounds of the navigation.")] = None,
    ) -> CallToolResult:
        return _run("ask", lambda: tools.ask(question, doc_ids, filter,
                                             budget.model_dump() if budget is not None else None))

    return server


def serve(store: Store, scope: AccessFilter | Mapping[str, Any] | None = None, *,
          transport: Literal["stdio", "http"] = "stdio", host: str = "127.0.0.1", port: int = 8000,
          limits: ToolLimits | None = None, navigator: str | Navigator = DEFAULT_NAVIGATOR,
          config: ModelConfig | None = None, on_listening: Callable[[str], None] | None = None) -> None:
    """Run the server until it is stopped (stdio: until the client closes the pipe).

    Over HTTP the socket is bound first (``port=0``: any free port) and ``on_listening`` gets the URL with the
    port actually bound, before the first request can arrive."""
    server = create_server(store, scope, limits, navigator=navigator, config=config)
    if transport == "stdio":
        server.run("stdio")
        return
    import socket

    import anyio
    import uvicorn  # the MCP SDK's own HTTP server

    app = server.streamable_http_app(host=host)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family)
    bound = sock.getsockname()[1]
    if on_listening is not None:
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        on_listening(f"http://{shown}:{bound}/mcp")
    http = uvicorn.Server(uvicorn.Config(app, log_level=server.settings.log_level.lower()))
    try:
        anyio.run(lambda: http.serve(sockets=[sock]))
    finally:
        sock.close()
