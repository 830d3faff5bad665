"""The structure prompt: the model asked for a document's section headings, page window by page window
(``model_fallback``, the last-resort structure source). Change it and bump
:data:`treebuild.settings.PROMPT_VERSION`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["StructurePolicy", "STRUCTURE_POLICY", "STRUCTURE_SYSTEM", "structure_messages"]


@dataclass(frozen=True)
class StructurePolicy:
    """How much a structure request shows; part of the prompt version (bump it when changing these)."""

    window_tokens: int = 3000  # page text shown per structure request


STRUCTURE_POLICY = StructurePolicy()


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
