"""Bottom-up summaries with a model, reading each token of the document about once.

Every node first gets its extractive summary (the fallback). Then each node takes one of four
routes, decided by its size alone (of its compacted text, see :mod:`.compact`) so that the same
text always takes the same route:

* ``text``: the whole section is at most ``short_tokens``; its compacted text is its summary, no request;
* ``whole``: the section with its subsections fits in ``pack_tokens``; it is shown in full, once,
  and every section in it is summarised from that one showing;
* ``head``: a longer leaf shows its first ``head_tokens`` plus the distinctive terms of the rest;
* ``merge``: a longer parent shows its own lead text plus its subsections' titles and the first
  words of their summaries, never their text; it waits for them (waves, deepest first).

A section's text is shown at most once: a merge parent's own text is in no whole block (those
are subtrees of whole-route sections only), and its children appear by title and summary only.
Blocks of different sections share one request up to ``request_tokens`` and ``max_ids``. Before
asking, each node's ``summary_key`` is looked up in the cache (summaries of earlier versions); a
hit costs nothing.
Every request sends a strict JSON schema whose required keys are the ids it asks for, where the
server enforces schemas (see :mod:`treebuild.llm.schema`); the answer is validated either way.
Ids missing from an answer are asked again once, in a smaller request showing only their blocks.
A failed request leaves its nodes with their extractive summaries and is counted by kind.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import RootModel

from ..findings import Finding, Stage
from ..llm.client import ModelClient
from ..llm.failures import ModelError
from ..llm.runner import run_sync
from ..llm.schema import required_strings
from ..llm.tokens import count_tokens, truncate_tokens
from ..llm.transport import Transport
from ..model import Node, Tree
from ..settings import OFFLINE_MODEL, ModelConfig
from ..text.furniture import PageFurniture
from ..text.normalize import one_line
from . import prompts
from .compact import compact_text
from .extractive import Extractive, clean_own_texts, strip_heading
from .keys import summary_key, text_hash

__all__ = ["SummaryCache", "Summarizer", "SummaryAnswer", "document_title"]

EXTRACTIVE = "extractive"
TEXT = "text"


class SummaryCache(Protocol):
    """Summaries made earlier, looked up by ``summary_key`` (text hash, model, prompt version)."""

    def get(self, key: str) -> str | None: ...


class SummaryAnswer(RootModel[dict[str, Any] | list[Any]]):
    """``{"id": "summary"}``; also accepted: ``{"summaries": {...}}`` and ``[{"id", "summary"}]``."""

    def summaries(self) -> dict[str, str]:
        value: Any = self.root
        if isinstance(value, dict) and isinstance(value.get("summaries"), dict | list):
            value = value["summaries"]
        if isinstance(value, list):
            value = {str(item.get("id")): item.get("summary") for item in value if isinstance(item, dict)}
        out: dict[str, str] = {}
        for key, item in value.items():
            text = item.get("summary") if isinstance(item, dict) else item
            if isinstance(text, str) and text.strip():
                out[str(key).strip().strip("[]")] = text
        return out


@dataclass
class _Block:
    first: int  # preorder index of its first node, to keep document order
    text: str
    ids: list[str]
    tokens: int = 0


@dataclass
class _Plan:
    node: Node
    own: str  # own text as shown: heading line and page furniture removed, compacted
    own_tokens: int
    tokens: int  # the whole span's tokens (own text plus subsections)
    sha: str  # content hash: normalised own text (furniture removed) and the children's hashes
    route: str = ""  # text | whole | head | merge
    wave: int = 0


@dataclass
class Summarizer:
    """Summaries for one tree; :meth:`run` fills every node, the description and the usage."""

    tree: Tree
    config: ModelConfig
    cache: SummaryCache | None = None
    transport: Transport | None = None
    policy: prompts.Policy = prompts.POLICY
    prompt_version: str = prompts.PROMPT_VERSION
    plans: dict[str, _Plan] = field(default_factory=dict)
    fallback: Counter[str] = field(default_factory=Counter)  # nodes left extractive, by failure kind
    furniture: PageFurniture | None = None  # the layout's page furniture, when the build made one

    def __post_init__(self) -> None:
        self.model = self.config.model
        self.nodes = list(self.tree.walk())
        self.order = {n.node_id: i for i, n in enumerate(self.nodes)}
        self.doc_title = document_title(self.tree)

    # -- entry ----------------------------------------------------------------------
    def run(self) -> None:
        own_texts = clean_own_texts(self.tree, self.furniture)
        self.extractive = Extractive(self.tree, own_texts)
        self._plan(own_texts)
        for node in self.nodes:
            self._set_offline(node)
        self.tree.model = self.model
        self.tree.description = self.extractive.description()
        self.tree.description_key = self._description_key(EXTRACTIVE)
        if self.model == OFFLINE_MODEL:
            return
        self.client = ModelClient(self.config, self.tree.usage, transport=self.transport)
        run_sync(self._run_model())
        self._warn()

    # -- planning -------------------------------------------------------------------
    def _plan(self, own_texts: dict[str, str]) -> None:
        for node in reversed(self.nodes):  # children before parents
            own = compact_text(strip_heading(own_texts[node.node_id], node.title))
            own_tokens = count_tokens(own)
            tokens = own_tokens + sum(self.plans[c.node_id].tokens for c in node.children)
            # What the summary depends on: the section's words without page furniture, so text that
            # only moved to another page (an edit earlier in the document reflows it) keeps its key.
            sha = text_hash("\x1e".join([" ".join(own_texts[node.node_id].split()),
                                          *(self.plans[c.node_id].sha for c in node.children)]))
            if node.text_sha256 is None:
                node.text_sha256 = text_hash(node.text())
            plan = _Plan(node, own, own_tokens, tokens, sha)
            if tokens <= self.policy.short_tokens:
                plan.route = TEXT
            elif tokens <= self.policy.pack_tokens:
                plan.route = "whole"
            elif node.is_leaf:
                plan.route = "head"
            else:
                plan.route = "merge"
                plan.wave = 1 + max(self.plans[c.node_id].wave for c in node.children)
            self.plans[node.node_id] = plan

    def _set_offline(self, node: Node) -> None:
        plan = self.plans[node.node_id]
        if plan.route == TEXT:
            texts = (compact_text(self.extractive.own_texts[n.node_id]) for n in node.walk())
            node.summary = one_line(" ".join(texts))
            node.summary_origin = TEXT
            node.summary_key = summary_key(plan.sha, "", self.prompt_version, TEXT, title=node.title)
        else:
            node.summary = self.extractive.summary(node)
            node.summary_origin = EXTRACTIVE
            node.summary_key = self._key(node, EXTRACTIVE)

    def _key(self, node: Node, model: str) -> str:
        plan = self.plans[node.node_id]
        kind = EXTRACTIVE if model == EXTRACTIVE else plan.route
        parts = [c.summary_key or "" for c in node.children] if kind == "merge" else []
        return summary_key(plan.sha, model, self.prompt_version, kind, title=node.title, parts=parts)

    def _description_key(self, model: str) -> str:
        roots = self.tree.roots
        return summary_key(text_hash(self.doc_title), model, self.prompt_version, "description",
                           parts=[r.summary_key or "" for r in roots])

    def _reuse(self, node: Node) -> bool:
        """Take the node's summary from the cache when its model key is there."""
        key = self._key(node, self.model)
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is None:
            return False
        node.summary, node.summary_origin, node.summary_key = hit, self.model, key
        self.tree.usage.reused += 1
        return True

    # -- requests -------------------------------------------------------------------
    async def _run_model(self) -> None:
        first = self._first_wave()
        describe = self._describe_first(first)
        await self._send(first, describe=describe == "now")
        last_wave = max((p.wave for p in self.plans.values()), default=0)
        for wave in range(1, last_wave + 1):
            blocks = []
            for node in self.nodes:
                plan = self.plans[node.node_id]
                if plan.route == "merge" and plan.wave == wave and not self._reuse(node):
                    blocks.append(self._merge_block(node))
            await self._send(blocks)
        if describe == "later":
            await self._describe()

    def _first_wave(self) -> list[_Block]:
        blocks: list[_Block] = []
        for node in self.nodes:
            plan = self.plans[node.node_id]
            parent_route = self.plans[node.parent.node_id].route if node.parent is not None else None
            if plan.route == "whole" and parent_route != "whole":
                asked: set[str] = set()
                for n in node.walk():
                    if self.plans[n.node_id].route == "whole" and not self._reuse(n):
                        asked.add(n.node_id)
                for n in node.walk():
                    if n.node_id in asked and (n is node or n.parent_id not in asked):
                        blocks.append(self._whole_block(n, asked))
            elif plan.route == "head" and not self._reuse(node):
                blocks.append(self._head_block(node))
        blocks.sort(key=lambda b: b.first)
        return blocks

    def _describe_first(self, blocks: list[_Block]) -> str:
        """``now`` when the first request shows every top-level section (small documents: one request
        in all), ``done`` when the cache has the description that request would give, else ``later``."""
        if any(p.route == "merge" for p in self.plans.values()) or len(self._groups(blocks)) != 1:
            return "later"
        asked = {i for b in blocks for i in b.ids}
        if not all(self.plans[r.node_id].route == TEXT or r.node_id in asked for r in self.tree.roots):
            return "later"
        return "done" if self._reuse_description(self._description_key_if_ok(asked)) else "now"

    def _description_key_if_ok(self, asked: set[str]) -> str:
        """The description key as it will be when every asked node gets its model summary."""
        keys = [self._key(r, self.model) if r.node_id in asked else (r.summary_key or "") for r in self.tree.roots]
        return summary_key(text_hash(self.doc_title), self.model, self.prompt_version, "description", parts=keys)

    def _reuse_description(self, key: str) -> bool:
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is None:
            return False
        self.tree.description, self.tree.description_key = hit, key
        self.tree.usage.reused += 1
        return True

    async def _describe(self) -> None:
        roots = self.tree.roots
        if all(self.plans[r.node_id].route == TEXT for r in roots):
            return  # nothing worth a request; the extractive description stands
        if self._reuse_description(self._description_key(self.model)):
            return
        tops = roots + roots[0].children if len(roots) == 1 else roots
        text = prompts.roots_block(*self._listing(tops))
        await self._send([_Block(len(self.nodes), text, [prompts.DOCUMENT_ID], count_tokens(text))])

    def _groups(self, blocks: list[_Block]) -> list[list[_Block]]:
        groups: list[list[_Block]] = []
        tokens = ids = 0
        for block in blocks:
            if groups and tokens + block.tokens <= self.policy.request_tokens \
                    and ids + len(block.ids) <= self.policy.max_ids:
                groups[-1].append(block)
                tokens += block.tokens
                ids += len(block.ids)
            else:
                groups.append([block])
                tokens, ids = block.tokens, len(block.ids)
        return groups

    async def _send(self, blocks: list[_Block], *, describe: bool = False) -> None:
        groups = self._groups(blocks)
        if describe and groups:
            groups[-1][-1].ids.append(prompts.DOCUMENT_ID)
        await asyncio.gather(*(self._request(g) for g in groups))

    async def _request(self, group: list[_Block], *, again: bool = False) -> None:
        ids = [i for b in group for i in b.ids]
        messages = prompts.summary_messages(self.doc_title, [b.text for b in group], ids, self.policy)
        try:
            schema = required_strings(ids, prompts.summary_chars(self.policy))
            answer = await self.client.structured(messages, SummaryAnswer, max_tokens=prompts.answer_tokens(ids),
                                                  json_schema=schema, schema_name="summaries")
        except ModelError as exc:
            self.fallback[exc.kind] += len(ids)
            return
        summaries = answer.summaries()
        for node_id in ids:
            if node_id in summaries:
                self._accept(node_id, summaries[node_id])
        missing = [i for i in ids if i not in summaries]
        if not missing:
            return
        if not again and len(missing) < len(ids):
            # once, in a smaller request: only the blocks holding missing ids, asking only those
            smaller = [_Block(b.first, b.text, [i for i in b.ids if i in missing], b.tokens)
                       for b in group if any(i in missing for i in b.ids)]
            self.tree.usage.retries += 1
            await self._request(smaller, again=True)
            return
        self.tree.usage.add_failure("incomplete")
        self.fallback["incomplete"] += len(missing)

    def _accept(self, node_id: str, summary: str) -> None:
        text = _clean(summary, 3 * self.policy.summary_words)
        if node_id == prompts.DOCUMENT_ID:
            self.tree.description = text
            self.tree.description_key = self._description_key(self.model)
            return
        node = self.nodes[self.order[node_id]]
        node.summary, node.summary_origin, node.summary_key = text, self.model, self._key(node, self.model)

    # -- blocks ---------------------------------------------------------------------
    def _whole_block(self, top: Node, asked: set[str]) -> _Block:
        sections = [(n.node_id, n.title, n.depth - top.depth + 1, self.plans[n.node_id].own) for n in top.walk()]
        text = prompts.whole_block(sections)
        ids = [n.node_id for n in top.walk() if n.node_id in asked]
        return _Block(self.order[top.node_id], text, ids, count_tokens(text))

    def _head_block(self, node: Node) -> _Block:
        plan = self.plans[node.node_id]
        head, _ = truncate_tokens(plan.own, self.policy.head_tokens)
        rest = plan.own[len(head):]
        terms = self.extractive.text_terms(rest, self.policy.terms, exclude=f"{node.title} {head}")
        shown = count_tokens(head)
        text = prompts.head_block(node.node_id, node.title, head, shown, plan.tokens, terms)
        return _Block(self.order[node.node_id], text, [node.node_id], count_tokens(text))

    def _merge_block(self, node: Node) -> _Block:
        plan = self.plans[node.node_id]
        lead, _ = truncate_tokens(plan.own, self.policy.lead_tokens)
        text = prompts.merge_block(node.node_id, node.title, lead, *self._listing(node.children))
        return _Block(self.order[node.node_id], text, [node.node_id], count_tokens(text))

    def _listing(self, nodes: list[Node]) -> tuple[list[tuple[str, str, str]], int]:
        """``(id, title, summary)`` of ``nodes`` and how many were left out.

        Each summary is cut to its first words: ``child_words`` at most and ``listing_words`` spread
        over them all (the parent's own summary has room for about that much; its lead and the titles
        say the rest), titles only when that leaves fewer than ``min_child_words`` each. Past
        ``listing_titles`` nodes, that many evenly spaced ones stand for all (a parent with hundreds
        of subsections costs no more than one with a few dozen). A summary that repeats the title
        (a short section's own text) is shown without it.
        """
        policy = self.policy
        shown = nodes
        if len(nodes) > policy.listing_titles:
            step = len(nodes) / policy.listing_titles
            shown = [nodes[int(i * step)] for i in range(policy.listing_titles)]
        words = min(policy.child_words, policy.listing_words // max(1, len(shown)))
        if words < policy.min_child_words:
            words = 0
        listing = [(n.node_id, n.title, _clean(_drop_title(n.summary or "", n.title), words) if words else "")
                   for n in shown]
        return listing, len(nodes) - len(shown)

    # -- reporting ------------------------------------------------------------------
    def _finding(self, code: str, message: str) -> None:
        self.tree.findings.append(Finding(code, Stage.summarize, message))

    def _warn(self) -> None:
        if self.client.schema_refused is not None:
            self._finding(
                "response_schema_refused",
                f"the model server refused JSON-schema answers ({self.client.schema_refused}); summaries were "
                "asked as plain JSON and validated; set TREEBUILD_RESPONSE_SCHEMA=never to skip the attempt")
        budget = self.client.budget
        left = self.fallback.get("budget", 0)
        if budget.exceeded is not None:
            self._finding(
                "model_budget_spent",
                f"model budget spent ({budget.exceeded}): {left} summaries stay extractive; raise the limit "
                f"(--max-calls, --max-tokens, --max-seconds) to summarise them with {self.model}")
        other = {k: v for k, v in self.fallback.items() if k != "budget"}
        if other:
            kinds = ", ".join(f"{k}: {v}" for k, v in sorted(other.items()))
            self._finding(
                "summaries_extractive_after_failures",
                f"{sum(other.values())} summaries stay extractive after model failures ({kinds}); "
                "building again retries only those")


def _clean(summary: str, max_words: int) -> str:
    words = one_line(summary).split()
    if len(words) > max_words:
        return " ".join(words[:max_words]) + " …"
    return " ".join(words)


def _drop_title(summary: str, title: str) -> str:
    """``summary`` without a leading copy of ``title`` (a short section's summary is its text, heading included)."""
    flat, head = one_line(summary), one_line(title)
    if head and flat.casefold().startswith(head.casefold()):
        return flat[len(head):].lstrip(" .:-–—")
    return flat


def document_title(tree: Tree) -> str:
    """The title every summary request names: the document's own, its one root's, or the file name."""
    doc = tree.doc
    if doc.title and doc.title.strip():
        return doc.title.strip()
    if len(tree.roots) == 1:
        return tree.roots[0].title
    return Path(doc.path).stem
