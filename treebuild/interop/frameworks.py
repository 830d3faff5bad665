"""What the framework retrievers share: one query's settings and a passage's metadata.

The metadata of every returned node or document (LlamaIndex ``TextNode.metadata``, LangChain
``Document.metadata``): ``doc_id``, ``version``, ``node_id``, ``title``, ``path`` (titles from the top
section down, joined by ``" > "``), ``pages`` (physical, ``"54"`` or ``"54-55"``; None without pages),
``start_page``, ``end_page``, ``labels`` (printed page labels, ``"F-3"`` or ``"F-3-F-4"``, when the
document has them), ``truncated`` (the text was cut by a budget) and ``score`` (the passage's rank score;
higher is better).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..answer import default_navigator
from ..answer.result import labels_text, pages_text
from ..query import AccessFilter, Limits, Navigator, Passage
from ..settings import ModelConfig
from ..store import Store

__all__ = ["RetrieverSettings", "passage_metadata", "passage_key", "passage_score"]


def passage_score(p: Passage, rank: int, count: int) -> float:
    """The passage's own score when navigation gives one, else its rank as a score in (0, 1] (the first, 1)."""
    own = getattr(p, "score", None)  # Passage.score: the query's ranking, where navigation provides it
    return float(own) if isinstance(own, int | float) else (count - rank) / count


def passage_key(p: Passage) -> str:
    """A stable id for a passage: the same section of the same version gives the same id."""
    return f"{p.doc_id}:v{p.version}:{p.node_id}"


def passage_metadata(p: Passage, score: float) -> dict[str, Any]:
    return {"doc_id": p.doc_id, "version": p.version, "node_id": p.node_id, "title": p.title,
            "path": " > ".join(e.title for e in p.path), "pages": pages_text(p), "start_page": p.start_page,
            "end_page": p.end_page, "labels": labels_text(p), "truncated": p.truncated, "score": score}


@dataclass
class RetrieverSettings:
    """A store and how to query it: documents, filter, navigator, model connection and query limits
    (:class:`treebuild.query.Limits`, e.g. ``max_pages=10``), checked when the retriever is made."""

    store: Store | str | Path
    docs: Sequence[str] | None = None
    filter: AccessFilter | Mapping[str, Any] | None = None
    navigator: str | Navigator | None = None
    config: ModelConfig | None = None
    limits: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        Limits.of(dict(self.limits))  # an unknown or out-of-range limit fails here, not at the first query
        self.filter = AccessFilter.of(self.filter)
        if not isinstance(self.store, Store):
            self.store = Store(self.store, create=False)

    def navigate_args(self) -> dict[str, Any]:
        return {"store": self.store, "docs": list(self.docs) if self.docs else None, "filter": self.filter,
                "navigator": self.navigator or default_navigator(self.config), "config": self.config,
                **self.limits}
