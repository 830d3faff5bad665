"""Every prompt treebuild sends, the numbers that decide what a prompt shows, and their version.

Change a prompt or a number here and bump :data:`PROMPT_VERSION`: it is part of every
``summary_key`` and the default of ``BuildSettings.prompt_version``, so summaries made under
the old prompt are not reused and the new tree is a new version.

A summary request shows one or more blocks and asks for ``{"id": "summary"}`` JSON for the ids
on its last line (``Ids: 0003, 0004``). Blocks come in three shapes:

* a whole subtree, small enough to show in full, with a marker line per section;
* the head of a section too long to show, with the distinctive terms of the rest;
* a parent too long to show: its own lead text plus its subsections' summaries.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "PROMPT_VERSION",
    "Policy",
    "POLICY",
    "SUMMARY_SYSTEM",
    "STRUCTURE_SYSTEM",
    "DOCUMENT_ID",
    "whole_block",
    "head_block",
    "merge_block",
    "roots_block",
    "summary_messages",
    "answer_tokens",
    "structure_messages",
]

PROMPT_VERSION = "1"

DOCUMENT_ID = "document"
"""The id under which a request asks for the document's one-line description."""


@dataclass(frozen=True)
class Policy:
    """How much a request shows; part of the prompt version (bump it when changing these)."""

    short_tokens: int = 80  # a section this short keeps its own text as its summary, no request
    pack_tokens: int = 3000  # at most this much section text per request; a subtree this small is shown whole
    head_tokens: int = 1500  # a longer leaf shows its first this many tokens plus terms of the rest
    lead_tokens: int = 400  # a longer parent shows this much of its own lead, then children's summaries
    max_ids: int = 16  # summaries asked per request when several blocks share one request
    summary_words: int = 50
    child_words: int = 20  # a parent reads the first this many words of each child's summary
    description_words: int = 30
    terms: int = 8  # distinctive terms named for the unseen rest of a long section
    structure_window_tokens: int = 3000  # page text shown per structure request


POLICY = Policy()

SUMMARY_SYSTEM = (
    "You summarise sections of a document for a reader who finds information by reading section "
    "titles and summaries. Answer with one JSON object and nothing else."
)


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


def merge_block(node_id: str, title: str, lead: str, children: list[tuple[str, str, str]]) -> str:
    """A long parent: its own lead text, then ``(id, title, summary)`` of each subsection."""
    lines = [_marker(node_id, title, 1, "its lead text, then summaries of its subsections")]
    if lead.strip():
        lines.append(lead.strip())
    lines.extend(_item(cid, ctitle, summary) for cid, ctitle, summary in children)
    return "\n".join(lines)


def _item(node_id: str, title: str, summary: str) -> str:
    return f"- [{node_id}] {title}: {summary}" if summary else f"- [{node_id}] {title}"


def roots_block(roots: list[tuple[str, str, str]]) -> str:
    """The top-level sections and their summaries, for the document description."""
    lines = ["# Top-level sections of the document"]
    lines.extend(_item(rid, title, summary) for rid, title, summary in roots)
    return "\n".join(lines)


def summary_messages(doc_title: str, blocks: list[str], ids: list[str],
                     policy: Policy = POLICY) -> list[dict[str, str]]:
    """The request asking summaries for ``ids`` (and the description when ``document`` is one)."""
    instructions = [
        f"For each id below write a summary of at most {policy.summary_words} words: what the section covers, "
        "with the specific names, figures and terms a reader would search for. Do not start with \"This section\".",
    ]
    if DOCUMENT_ID in ids:
        instructions.append(
            f'For "{DOCUMENT_ID}" write one line of at most {policy.description_words} words saying what the '
            "whole document is and what it covers."
        )
    instructions.append('Answer as JSON: {"<id>": "<summary>", ...}.')
    instructions.append("Ids: " + ", ".join(ids))
    user = f"Document: {doc_title}\n\n" + "\n\n".join(blocks) + "\n\n" + "\n".join(instructions)
    return [{"role": "system", "content": SUMMARY_SYSTEM}, {"role": "user", "content": user}]


def answer_tokens(ids: list[str], policy: Policy = POLICY) -> int:
    """Completion tokens to allow for ``ids`` (about two tokens a word, plus JSON)."""
    return 40 + len(ids) * (2 * policy.summary_words + 24)


STRUCTURE_SYSTEM = (
    "You find the section headings of a document that has no table of contents. "
    "Answer with one JSON object and nothing else."
)


def structure_messages(doc_title: str, pages: list[tuple[int, str]]) -> list[dict[str, str]]:
    """Ask for the section headings that start on ``pages`` (``(page number, text)``)."""
    shown = "\n\n".join(f"=== page {page} ===\n{text.strip()}" for page, text in pages)
    user = (
        f"Document: {doc_title}\n\n{shown}\n\n"
        "List the headings of the document's sections and subsections that appear on these pages, in order. "
        "Copy each title exactly as printed; give the page it is on and its level (1 = top). "
        "Ignore running headers, footers, figure and table captions. "
        'Answer as JSON: {"sections": [{"title": "...", "page": 1, "level": 1}, ...]} '
        '(an empty list when none start here).'
    )
    return [{"role": "system", "content": STRUCTURE_SYSTEM}, {"role": "user", "content": user}]
