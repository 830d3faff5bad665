"""Read-only tools over a store for agents: list documents, outline, section text, page text, navigate.

The logic behind ``treebuild mcp``, kept free of the MCP SDK so it can be used and tested on
its own. Every answer is a JSON-ready dict, bounded in size; a truncated answer says so and
names the call that gets the rest (``next``). Failures raise :class:`ToolFailure` with a code,
a message and what to do, never a traceback.

A *scope* (an :class:`~treebuild.query.AccessFilter`, the query module's filter: user tags from
``--meta`` at ingest, ``doc_id`` and ``format``) restricts what a tool set can see: a document
is visible only when its latest version passes it, and ``navigate`` runs with the scope narrowed
by the caller's filter, so navigation never reads a tree outside it. A document outside the
scope is reported exactly like one that does not exist: a tenant learns nothing about others'.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from ..errors import NotFound, TreebuildError
from ..model import Node, Tree
from ..query import DEFAULT_NAVIGATOR, AccessFilter, Navigator, QueryResult
from ..settings import ModelConfig
from ..store import Store

__all__ = ["ToolLimits", "ToolFailure", "StoreTools", "parse_pages", "narrow"]


@dataclass(frozen=True)
class ToolLimits:
    """Size bounds of tool answers (characters of JSON text unless said otherwise)."""

    response_chars: int = 40_000  # about 10k tokens: one answer never floods an agent's context
    text_chars: int = 8_000  # default text per get_section / get_pages call
    max_text_chars: int = 30_000  # the most a caller may ask for in one call
    summary_chars: int = 400  # per node in outlines and listings
    description_chars: int = 600  # per document in listings
    structure_nodes: int = 200  # nodes per get_structure page
    pages_per_call: int = 20  # pages per get_pages call
    reasoning_chars: int = 600  # navigator reasoning per step in the navigate audit
    documents: int = 100  # the most documents one list_documents call returns
    cached_trees: int = 8  # loaded trees kept in memory


class ToolFailure(Exception):
    """An expected failure: ``code`` (not_found, bad_argument, not_paged, ...), message, hint."""

    def __init__(self, code: str, message: str, hint: str | None = None):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint

    def as_dict(self) -> dict[str, Any]:
        out = {"code": self.code, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        return {"error": out}


def _meet(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    return b if a is None else a if b is None else a & b


def narrow(scope: AccessFilter, extra: AccessFilter) -> AccessFilter:
    """A filter that passes what passes both: a caller's filter can narrow the scope, never widen it."""
    meta = dict(scope.meta)
    for key, values in extra.meta.items():
        meta[key] = meta[key] & values if key in meta else values
    return AccessFilter(doc_ids=_meet(scope.doc_ids, extra.doc_ids), formats=_meet(scope.formats, extra.formats),
                        meta=meta)


def _access(value: Mapping[str, Any] | None) -> AccessFilter:
    try:
        return AccessFilter.of(value)
    except TreebuildError as exc:
        raise ToolFailure("bad_argument", exc.cause, exc.hint or 'e.g. {"format": "pdf", "fy": ["2021", "2022"]}') \
            from None


_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_pages(spec: str, page_count: int, limit: int) -> list[int]:
    """``"5"``, ``"5-7"`` or ``"1,3,8-9"`` -> sorted 1-based pages; errors say what is allowed."""
    pages: set[int] = set()
    for part in str(spec).split(","):
        m = _RANGE.match(part)
        if not m:
            raise ToolFailure("bad_argument", f"cannot read pages {spec!r}",
                              "give one page (\"5\"), a range (\"5-7\") or a list (\"1,3,8-9\")")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo < 1 or hi < lo:
            raise ToolFailure("bad_argument", f"bad page range {part.strip()!r}",
                              "pages are 1-based and a range runs low-high")
        if hi > page_count:
            raise ToolFailure("bad_argument", f"page {hi} is past the end: the document has {page_count} pages",
                              f"ask for pages 1-{page_count}")
        pages.update(range(lo, hi + 1))
        if len(pages) > limit:
            raise ToolFailure("too_large", f"{len(pages)}+ pages asked for; at most {limit} per call",
                              f"split the request, e.g. pages=\"{lo}-{min(lo + limit - 1, page_count)}\"")
    return sorted(pages)


def _cap(text: str | None, limit: int) -> str | None:
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def _pages(node: Node) -> str | None:
    if node.start_page is None:
        return None
    return str(node.start_page) if node.start_page == node.end_page else f"{node.start_page}-{node.end_page}"


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str))


def _call(name: str, **args: Any) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in args.items() if v is not None)
    return f"{name}({shown})"


class StoreTools:
    """The read-only tools over one store, restricted to ``scope``."""

    def __init__(self, store: Store, scope: AccessFilter | Mapping[str, Any] | None = None,
                 limits: ToolLimits | None = None, *, navigator: str | Navigator = DEFAULT_NAVIGATOR,
                 config: ModelConfig | None = None):
        self.store = store
        self.scope = AccessFilter.of(scope)
        self.limits = limits or ToolLimits()
        self.navigator = navigator
        self.config = config
        self._trees: OrderedDict[tuple[str, int], Tree] = OrderedDict()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ visibility
    def _catalog(self) -> list[dict[str, Any]]:
        try:
            rows = self.store.sql(
                "SELECT doc_id, version, title, description, format, method, page_count, node_count, "
                "source_name, meta, created_at FROM latest_trees ORDER BY doc_id").to_pylist()
        except TreebuildError as exc:
            raise ToolFailure("store_error", str(exc)) from None
        for r in rows:
            r["meta"] = dict(r["meta"] or [])
        return rows

    def visible_documents(self, extra: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Catalog rows (latest versions) inside the scope and the ``extra`` filter."""
        access = narrow(self.scope, _access(extra))
        return [r for r in self._catalog() if access.allows(r)]

    def _document(self, doc_id: str) -> dict[str, Any]:
        for row in self.visible_documents():
            if row["doc_id"] == doc_id:
                return row
        raise ToolFailure("not_found", f"no document {doc_id!r}",
                          "call list_documents to see the doc_ids you can read")

    def tree(self, doc_id: str) -> Tree:
        """The latest visible version of ``doc_id`` (loaded once, then cached)."""
        row = self._document(doc_id)
        key = (doc_id, int(row["version"]))
        with self._lock:
            if key in self._trees:
                self._trees.move_to_end(key)
                return self._trees[key]
        try:
            tree = self.store.tree(doc_id, key[1])
        except NotFound as exc:
            raise ToolFailure("not_found", exc.cause, "call list_documents to see the doc_ids you can read") from None
        except TreebuildError as exc:
            raise ToolFailure("store_error", str(exc)) from None
        with self._lock:
            self._trees[key] = tree
            while len(self._trees) > self.limits.cached_trees:
                self._trees.popitem(last=False)
        return tree

    def _node(self, tree: Tree, node_id: str) -> Node:
        try:
            return tree.node(node_id)
        except KeyError:
            raise ToolFailure("not_found", f"document {tree.doc_id!r} has no node {node_id!r}",
                              _call("get_structure", doc_id=tree.doc_id) + " lists its node_ids") from None

    def _citation(self, tree: Tree, node: Node | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"doc_id": tree.doc_id, "version": tree.version,
                               "source": PurePath(tree.doc.path).name, "sha256": tree.doc.sha256}
        if node is not None:
            out.update(node_id=node.node_id, title=node.title, path=[n.title for n in node.path()],
                       pages=_pages(node))
        return out

    # ------------------------------------------------------------------ tools
    def list_documents(self, query: str | None = None, filter: Mapping[str, Any] | None = None,
                       limit: int = 20, offset: int = 0) -> dict[str, Any]:
        rows = self.visible_documents(filter)
        words = (query or "").casefold().split()
        if words:
            def text(r: dict[str, Any]) -> str:
                return " ".join(str(r.get(k) or "") for k in ("doc_id", "title", "description", "source_name"))
            rows = [r for r in rows if all(w in text(r).casefold() for w in words)]
        total = len(rows)
        limit = max(1, min(limit, self.limits.documents))
        docs: list[dict[str, Any]] = []
        budget = self.limits.response_chars - 1_000
        for r in rows[offset: offset + limit]:
            doc = {"doc_id": r["doc_id"], "title": r["title"] or PurePath(r["source_name"] or r["doc_id"]).stem,
                   "description": _cap(r["description"], self.limits.description_chars),
                   "pages": r["page_count"], "format": r["format"], "version": r["version"],
                   "nodes": r["node_count"], "meta": r["meta"], "source": r["source_name"]}
            budget -= _size(doc)
            if budget < 0 and docs:
                break
            docs.append(doc)
        out: dict[str, Any] = {"documents": docs, "total": total, "offset": offset}
        end = offset + len(docs)
        if end < total:
            out["truncated"] = True
            out["next"] = _call("list_documents", query=query, filter=filter, limit=limit, offset=end)
        out["hint"] = "call get_structure(doc_id) for a document's outline"
        return out

    def get_structure(self, doc_id: str, node_id: str | None = None, depth: int = 2,
                      offset: int = 0) -> dict[str, Any]:
        tree = self.tree(doc_id)
        if node_id is not None:
            top = self._node(tree, node_id)
            base, candidates = top.depth, [n for c in top.children for n in c.walk()]
        else:
            top, base, candidates = None, 0, list(tree.walk())
        depth = max(1, depth)
        within = [n for n in candidates if n.depth - base <= depth]
        nodes: list[dict[str, Any]] = []
        budget = self.limits.response_chars - 2_000
        for n in within[offset: offset + self.limits.structure_nodes]:
            item = {"node_id": n.node_id, "title": n.title, "depth": n.depth, "pages": _pages(n),
                    "summary": _cap(n.summary, self.limits.summary_chars), "children": len(n.children)}
            if n.children and n.depth - base == depth:
                item["more_below"] = True
            budget -= _size(item)
            if budget < 0 and nodes:
                break
            nodes.append(item)
        out: dict[str, Any] = {"doc_id": tree.doc_id, "version": tree.version, "title": tree.doc.display_title,
                               "description": _cap(tree.description, self.limits.description_chars),
                               "pages": tree.doc.page_count}
        if top is not None:
            out["node"] = {"node_id": top.node_id, "title": top.title, "pages": _pages(top),
                           "path": [p.title for p in top.path()],
                           "summary": _cap(top.summary, self.limits.summary_chars)}
        out.update(nodes=nodes, total=len(within), offset=offset)
        end = offset + len(nodes)
        if end < len(within):
            out["truncated"] = True
            out["next"] = _call("get_structure", doc_id=doc_id, node_id=node_id, depth=depth, offset=end)
        out["hint"] = ("nodes with more_below have deeper sections: get_structure(doc_id, node_id=...); "
                       "read one with get_section(doc_id, node_id)")
        return out

    def _max_chars(self, max_chars: int | None) -> int:
        return max(1, min(max_chars or self.limits.text_chars, self.limits.max_text_chars))

    def get_section(self, doc_id: str, node_id: str, max_chars: int | None = None,
                    offset: int = 0) -> dict[str, Any]:
        tree = self.tree(doc_id)
        node = self._node(tree, node_id)
        text = node.text(tables=True)  # tables as Markdown; offsets count in this text
        size = self._max_chars(max_chars)
        if offset > len(text):
            raise ToolFailure("bad_argument", f"offset {offset} is past the end of the section ({len(text)} chars)",
                              "start again from offset 0")
        chunk = text[offset: offset + size]
        out: dict[str, Any] = {"citation": self._citation(tree, node), "text": chunk, "offset": offset,
                               "returned_chars": len(chunk), "total_chars": len(text)}
        end = offset + len(chunk)
        if end < len(text):
            out["truncated"] = True
            out["next"] = _call("get_section", doc_id=doc_id, node_id=node_id, max_chars=size, offset=end)
            if node.children:
                out["hint"] = (f"the section has {len(node.children)} subsections; reading one at a time may be "
                               f"cheaper: {_call('get_structure', doc_id=doc_id, node_id=node_id, depth=1)}")
        return out

    def get_pages(self, doc_id: str, pages: str, max_chars: int | None = None) -> dict[str, Any]:
        tree = self.tree(doc_id)
        doc = tree.doc
        if not doc.paged or not doc.page_count:
            raise ToolFailure("not_paged", f"document {doc_id!r} is {doc.format}, which has no pages",
                              f"read it by section: {_call('get_structure', doc_id=doc_id)}, then get_section")
        wanted = parse_pages(pages, doc.page_count, self.limits.pages_per_call)
        by_page = {u.page: u for u in doc.units if u.page is not None}
        budget = self._max_chars(max_chars)
        items: list[dict[str, Any]] = []
        truncated_at: int | None = None
        for p in wanted:
            unit = by_page.get(p)
            text = unit.text if unit is not None else ""
            if len(text) > budget:
                if budget > 0 or not items:
                    items.append({"page": p, "label": unit.label if unit else None, "text": text[:budget],
                                  "truncated": True})
                truncated_at = p
                break
            budget -= len(text)
            items.append({"page": p, "label": unit.label if unit else None, "text": text})
        out: dict[str, Any] = {"citation": {**self._citation(tree), "pages": pages}, "pages": items,
                               "sections": self._sections_on(tree, wanted)}
        if truncated_at is not None:
            out["truncated"] = True
            rest = [p for p in wanted if p >= truncated_at]
            out["next"] = (f"{_call('get_pages', doc_id=doc_id, pages=f'{rest[0]}-{rest[-1]}')} "
                           "(a page cut short comes back whole when asked for alone, up to max_chars)")
        return out

    def _sections_on(self, tree: Tree, pages: list[int]) -> list[dict[str, Any]]:
        """The deepest sections that overlap the pages: what to cite the text as."""
        lo, hi = pages[0], pages[-1]
        out = []
        for n in tree.walk():
            if n.start_page is None or n.end_page is None or n.end_page < lo or n.start_page > hi:
                continue
            if any(c.start_page is not None and c.end_page is not None and c.start_page <= hi and c.end_page >= lo
                   for c in n.children):
                continue
            out.append({"node_id": n.node_id, "title": n.title, "pages": _pages(n)})
            if len(out) >= 20:
                break
        return out

    # ------------------------------------------------------------------ navigation
    def navigate(self, question: str, doc_ids: Sequence[str] | None = None,
                 filter: Mapping[str, Any] | None = None, budget: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The query module's navigation within the scope (narrowed by ``filter``): passages with
        citations and the audit trail (path, reasoning and stop reason per document)."""
        from ..query import navigate

        try:
            result = navigate(question, self.store, **self._query(question, doc_ids, filter, budget),
                              config=self.config)
        except TreebuildError as exc:
            raise ToolFailure("bad_argument", str(exc), exc.hint) from None
        return self._fit(self._navigation(result))

    def _query(self, question: str, doc_ids: Sequence[str] | None, filter: Mapping[str, Any] | None,
               budget: Mapping[str, Any] | None) -> dict[str, Any]:
        """A navigation's arguments within the scope (narrowed by ``filter``), its passages capped to fit one
        answer next to the audit."""
        if not question.strip():
            raise ToolFailure("bad_argument", "the question is empty", "ask a full question")
        limits = {k: v for k, v in (budget or {}).items() if v is not None}
        limits["max_context_chars"] = min(int(limits.get("max_context_chars") or self.limits.response_chars // 2),
                                          self.limits.response_chars // 2)
        return {"docs": list(doc_ids) if doc_ids else None, "filter": narrow(self.scope, _access(filter)),
                "navigator": self.navigator, **limits}

    def ask(self, question: str, doc_ids: Sequence[str] | None = None, filter: Mapping[str, Any] | None = None,
            budget: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Navigate within the scope (narrowed by ``filter``), then answer from the passages only: numbered
        claims citing passage ids, each citation checked; the audit covers navigation and answer."""
        from ..answer import ask

        config = None if self.config is None or self.config.offline else self.config
        try:
            answer = ask(question, self.store, **self._query(question, doc_ids, filter, budget), config=config)
        except TreebuildError as exc:
            raise ToolFailure("bad_argument", str(exc), exc.hint) from None
        out = self._navigation(answer.navigation)
        by_key = {(p.passage.doc_id, p.passage.node_id): p.id for p in answer.passages}
        for item in out["passages"]:
            item["id"] = by_key[(item["citation"]["doc_id"], item["citation"]["node_id"])]
        a = answer.audit
        out["answer"] = {
            "status": answer.status.value, "text": answer.text,
            "claims": [{"n": c.n, "text": c.text, "citations": list(c.citations), "verified": c.verified,
                        "flags": [f.value for f in c.flags], "unknown_citations": list(c.unknown_citations),
                        "unsupported_numbers": list(c.unsupported_numbers)} for c in answer.claims],
            "answerer": a.answerer, "is_language_model": a.is_language_model, "prompt_version": a.prompt_version,
            "schema": a.schema, "outcome": a.outcome, "notes": a.notes,
            "usage": {"calls": a.usage.calls, "input_tokens": a.usage.input_tokens,
                      "output_tokens": a.usage.output_tokens, "cost_usd": a.usage.cost_usd},
            "seconds": round(a.seconds, 3),
        }
        out.pop("hint", None)
        return self._fit(out)

    def _navigation(self, result: QueryResult) -> dict[str, Any]:
        cap = self.limits.reasoning_chars
        passages = []
        for p in result.passages:
            item: dict[str, Any] = {
                "citation": {"doc_id": p.doc_id, "version": p.version, "node_id": p.node_id, "title": p.title,
                             "path": [e.title for e in p.path],
                             "pages": None if p.start_page is None else (
                                 str(p.start_page) if p.end_page in (None, p.start_page)
                                 else f"{p.start_page}-{p.end_page}"),
                             "printed_pages": p.start_label if p.end_label in (None, p.start_label)
                             else f"{p.start_label}-{p.end_label}"},
                "stop_reason": p.stop_reason.value, "text": p.text}
            if p.best_pages:
                item["best_pages"] = True
            if p.truncated:
                item["truncated"] = True
                item["next"] = self._read_on(p.doc_id, p.node_id, p.text)
            passages.append(item)
        documents = []
        for d in result.documents:
            documents.append({
                "doc_id": d.doc_id, "version": d.version, "mode": d.mode, "error": d.error,
                "steps": [{"step": s.step, "shown": len(s.shown), "expanded": s.expanded, "read": s.read,
                           "stop": s.stop, "reasoning": _cap(s.reasoning, cap), "outcome": s.outcome,
                           "unknown": s.unknown or None} for s in d.steps],
                "stops": [{"node_id": s.node_id, "reason": s.reason.value, "detail": s.detail or None}
                          for s in d.stops],
                "chosen": d.chosen, "dropped": d.dropped,
                "usage": {"calls": d.usage.calls, "input_tokens": d.usage.input_tokens,
                          "output_tokens": d.usage.output_tokens},
            })
        audit: dict[str, Any] = {
            "navigator": result.navigator, "is_language_model": result.is_language_model,
            "documents": documents, "usage": {"calls": result.usage.calls, "input_tokens": result.usage.input_tokens,
                                              "output_tokens": result.usage.output_tokens,
                                              "cost_usd": result.usage.cost_usd},
            "seconds": round(result.seconds, 3), "cancelled": result.cancelled,
        }
        if result.selection is not None:
            sel = result.selection
            audit["selection"] = {"candidates": sel.candidates, "shown": len(sel.shown), "selected": sel.selected,
                                  "reasoning": _cap(sel.reasoning, cap), "outcome": sel.outcome}
        out: dict[str, Any] = {"question": result.question, "passages": passages, "audit": audit}
        if not passages:
            out["hint"] = ("no section was chosen: rephrase the question, or browse with list_documents and "
                           "get_structure")
        return out

    def _fit(self, out: dict[str, Any]) -> dict[str, Any]:
        """Cut the longest passage texts until the answer fits; each cut one says how to read on."""
        while _size(out) > self.limits.response_chars:
            longest = max(out["passages"], key=lambda p: len(p["text"]), default=None)
            excess = _size(out) - self.limits.response_chars
            if longest is None or len(longest["text"]) <= 200:
                for doc in out["audit"]["documents"]:  # the audit itself is too long: drop the reasoning
                    for step in doc["steps"]:
                        step["reasoning"] = None
                break
            keep = max(200, len(longest["text"]) - excess - 200)
            longest["text"] = longest["text"][:keep]
            longest["truncated"] = True
            c = longest["citation"]
            longest["next"] = self._read_on(c["doc_id"], c["node_id"], longest["text"])
        return out

    def _read_on(self, doc_id: str, node_id: str, text: str) -> str:
        """The get_section call that reads on after ``text``: from its end when the section's text starts
        with it, else (the section's best pages, ``zoom_pages``) from the section's start."""
        full = self.tree(doc_id).node(node_id).text(tables=True)
        return _call("get_section", doc_id=doc_id, node_id=node_id,
                     offset=len(text) if full.startswith(text) else None)
