"""Every prompt treebuild sends, the numbers that decide what a prompt shows, and their version.

Change a prompt or a number here and bump :data:`treebuild.settings.PROMPT_VERSION` (re-exported
here): it is part of every ``summary_key`` and the default of ``BuildSettings.prompt_version``, so
summaries made under the old prompt are not reused and the new tree is a new version. The structure
prompt (the model as a last-resort structure source) is ``treebuild.structure.prompt``.

A summary request shows one or more blocks and asks for ``{"id": "summary"}`` JSON for the ids
on its last line (``Ids: 0003, 0004``). Blocks come in three shapes:

* a whole subtree, small enough to show in full, with a marker line per section;
* the head of a section too long to show, with the distinctive terms of the rest;
* a parent too long to show: its own lead text plus its subsections' titles and the first words
  of their summaries (fewer words each the more subsections it has; titles only past a point).

Every request carries the same system message (the instructions, cacheable by servers that reuse
a common prefix) and a user message that is the document's title, the blocks and the ids. What a
request costs beyond the text it shows is :func:`request_overhead`; a document shorter than
:data:`ECONOMY_FLOOR_REQUESTS` such overheads is measured against that floor (:func:`economy_floor`):
its one request cannot cost less than its instructions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..llm.tokens import count_tokens
from ..settings import PROMPT_VERSION

__all__ = [
    "PROMPT_VERSION",
    "Policy",
    "POLICY",
    "SUMMARY_SYSTEM",
    "DOCUMENT_ID",
    "whole_block",
    "head_block",
    "merge_block",
    "roots_block",
    "summary_messages",
    "answer_tokens",
    "summary_chars",
    "request_overhead",
    "economy_floor",
    "economy_ratio",
    "ECONOMY_TARGET",
    "ECONOMY_FLOOR_REQUESTS",
]


DOCUMENT_ID = "document"
"""The id under which a request asks for the document's one-line description."""


@dataclass(frozen=True)
class Policy:
    """How much a request shows; part of the prompt version (bump it when changing these)."""

    short_tokens: int = 80  # a section this short keeps its own text as its summary, no request
    pack_tokens: int = 3000  # a subtree this small (compacted text) is shown whole
    request_tokens: int = 4000  # blocks share a request up to this many tokens (fits an 8k context with answers)
    head_tokens: int = 1500  # a longer leaf shows its first this many tokens plus terms of the rest
    lead_tokens: int = 400  # a longer parent shows this much of its own lead, then its children
    max_ids: int = 24  # summaries asked per request when several blocks share one request
    summary_words: int = 50
    child_words: int = 20  # a parent reads at most the first this many words of each child's summary...
    listing_words: int = 160  # ...and about this many in all: a 50-word summary cannot carry more
    min_child_words: int = 6  # fewer words than this per child: titles only
    listing_titles: int = 40  # a parent with more children lists this many, evenly spaced
    description_words: int = 30
    terms: int = 8  # distinctive terms named for the unseen rest of a long section


POLICY = Policy()

ECONOMY_TARGET = 1.1
"""Summary prompt tokens per document token (:func:`economy_ratio`) that a build should stay under."""

ECONOMY_FLOOR_REQUESTS = 10
"""A document is measured against at least this many requests' fixed cost (see :func:`economy_floor`)."""


def summary_system(policy: Policy = POLICY) -> str:
    """The instructions of every summary request (one system message, the same for all)."""
    return (
        "You summarise sections of a document for a reader who finds information by scanning titles and "
        f"summaries. For each id on the last line write at most {policy.summary_words} words on what that "
        "section covers, with the names, figures and terms a reader would search for; never start with "
        '"This section". Answer with one JSON object {"<id>": "<summary>"} and nothing else.'
    )


SUMMARY_SYSTEM = summary_system()


def _marker(node_id: str, title: str, depth: int = 1, note: str = "") -> str:
    suffix = f" ({note})" if note else ""
    return f"{'#' * max(1, depth)} [{node_id}] {title}{suffix}"


def whole_block(sections: list[tuple[str, str, int, str]]) -> str:
    """A subtree shown in full: ``(id, title, relative depth, own text)`` in document order."""
    parts = []
    for node_id, title, depth, text in sections:
        parts.append(_marker(node_id, title, depth))
        if text.strip():
            parts.append(text.strip())
    return "\n".join(parts)


def head_block(node_id: str, title: str, head: str, shown: int, total: int, terms: list[str]) -> str:
    """The first ``shown`` of ``total`` tokens of a long section, and terms from the rest."""
    note = f"first {shown} of {total} tokens"
    lines = [_marker(node_id, title, 1, note), head.strip()]
    if terms:
        lines.append(f"[... the rest of this section mentions: {', '.join(terms)}]")
    return "\n".join(lines)


def merge_block(node_id: str, title: str, lead: str, children: list[tuple[str, str, str]], omitted: int = 0) -> str:
    """A long parent: its own lead text, then ``(id, title, summary)`` of its subsections (each
    summary cut to its first words, or empty: titles only) and how many were ``omitted``."""
    listed = "its subsections" + ("' summaries" if any(s for _, _, s in children) else "")
    lines = [_marker(node_id, title, 1, f"its lead, then {listed}" if lead.strip() else listed)]
    if lead.strip():
        lines.append(lead.strip())
    lines.extend(_items(children, omitted, "subsections"))
    return "\n".join(lines)


def _items(items: list[tuple[str, str, str]], omitted: int, what: str) -> list[str]:
    lines = [f"- [{i}] {title}: {summary}" if summary else f"- [{i}] {title}" for i, title, summary in items]
    if omitted:
        lines.append(f"- ... and {omitted} more {what} between those listed")
    return lines


def roots_block(roots: list[tuple[str, str, str]], omitted: int = 0) -> str:
    """The top-level sections and their summaries, for the document description."""
    return "\n".join(["# Top-level sections of the document", *_items(roots, omitted, "sections")])


def summary_messages(doc_title: str, blocks: list[str], ids: list[str],
                     policy: Policy = POLICY) -> list[dict[str, str]]:
    """The request asking summaries for ``ids`` (and the description when ``document`` is one)."""
    tail = []
    if DOCUMENT_ID in ids:
        tail.append(f'For "{DOCUMENT_ID}" write one line of at most {policy.description_words} words saying '
                    "what the whole document is and what it covers.")
    tail.append("Ids: " + ", ".join(ids))
    user = f"Document: {doc_title}\n\n" + "\n\n".join(blocks) + "\n\n" + "\n".join(tail)
    system = SUMMARY_SYSTEM if policy == POLICY else summary_system(policy)
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def summary_chars(policy: Policy = POLICY) -> int:
    """Longest summary a JSON-schema answer may give, in characters: about twice the words asked
    (a long word is 12 characters with its space); servers that enforce it make a rambling model
    close the string instead of spending every token of the answer on one summary."""
    return 12 * policy.summary_words


def answer_tokens(ids: list[str], policy: Policy = POLICY) -> int:
    """Completion tokens to allow for ``ids`` (about two tokens a word, plus JSON)."""
    return 40 + len(ids) * (2 * policy.summary_words + 24)


def request_overhead(doc_title: str, policy: Policy = POLICY) -> int:
    """Prompt tokens of a summary request beyond the blocks it shows: instructions, the document's
    title, one id, and the 4 tokens per message a chat API adds."""
    return sum(count_tokens(m["content"]) + 4 for m in summary_messages(doc_title, [], ["0000"], policy))


def economy_floor(doc_title: str, policy: Policy = POLICY) -> int:
    """The fewest document tokens the economy ratio is measured against: :data:`ECONOMY_FLOOR_REQUESTS`
    requests' overhead. Below it a single request's fixed instructions are more than a tenth of the
    document, so no prompt could keep within :data:`ECONOMY_TARGET`; such a document is still
    summarised (in one request) and its ratio taken on this floor."""
    return ECONOMY_FLOOR_REQUESTS * request_overhead(doc_title, policy)


def economy_ratio(prompt_tokens: int, document_tokens: int, doc_title: str, policy: Policy = POLICY) -> float:
    """Summary prompt tokens per document token, the document counted as at least :func:`economy_floor`."""
    return prompt_tokens / max(document_tokens, economy_floor(doc_title, policy))
