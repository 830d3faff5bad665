"""Access filters and the one way the query runtime reads trees.

Every tree read of a query (document listing for selection, named documents, hybrid seeds)
goes through :class:`TreeReader`, which checks the filter against the document's tree row
*before* its nodes or units are read: a query never reads a tree outside its filter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import NotFound, TreebuildError, UsageError
from ..model import Tree
from ..store import Store, valid_doc_id
from .spi import DocumentCandidate

__all__ = ["AccessFilter", "TreeReader", "parse_filter_items"]

ROW_COLUMNS = ["doc_id", "version", "title", "description", "format", "page_count", "meta", "source_name"]
"""What the filter and document selection read of a tree row (never nodes or units)."""


def _values(value: Any) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset({value})
    if isinstance(value, Iterable):
        return frozenset(str(v) for v in value)
    return frozenset({str(value)})


@dataclass(frozen=True)
class AccessFilter:
    """Documents a query may read: all conditions must hold; a condition's values are alternatives.

    ``doc_ids`` and ``formats`` restrict those fields; ``meta`` maps a tag to its allowed values
    (a document without the tag does not pass).
    """

    doc_ids: frozenset[str] | None = None
    formats: frozenset[str] | None = None
    meta: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, value: AccessFilter | Mapping[str, Any] | None) -> AccessFilter:
        """From a mapping: ``{"doc_id": [...], "format": "pdf", "meta": {"fy": "2022"}}``; any other
        key is a meta tag (``{"fy": ["2021", "2022"]}``)."""
        if value is None:
            return cls()
        if isinstance(value, AccessFilter):
            return value
        if not isinstance(value, Mapping):
            raise TreebuildError(f"a filter is a mapping of field or tag to value(s), got {type(value).__name__}",
                                 hint='e.g. {"format": "pdf", "meta": {"fy": "2022"}}')
        meta: dict[str, frozenset[str]] = {}
        doc_ids = formats = None
        for key, raw in value.items():
            if key == "doc_id":
                doc_ids = _values(raw)
            elif key == "format":
                formats = _values(raw)
            elif key == "meta":
                if not isinstance(raw, Mapping):
                    raise TreebuildError("filter 'meta' must map tag names to value(s)")
                meta.update({str(k): _values(v) for k, v in raw.items()})
            else:
                meta[str(key)] = _values(raw)
        return cls(doc_ids=doc_ids, formats=formats, meta=meta)

    @property
    def empty(self) -> bool:
        return self.doc_ids is None and self.formats is None and not self.meta

    def allows(self, row: Mapping[str, Any]) -> bool:
        """Whether a tree row (``doc_id``, ``format``, ``meta``) passes."""
        if self.doc_ids is not None and row["doc_id"] not in self.doc_ids:
            return False
        if self.formats is not None and row["format"] not in self.formats:
            return False
        tags = dict(row.get("meta") or [])
        return all(tags.get(key) in allowed for key, allowed in self.meta.items())

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.doc_ids is not None:
            out["doc_id"] = sorted(self.doc_ids)
        if self.formats is not None:
            out["format"] = sorted(self.formats)
        if self.meta:
            out["meta"] = {k: sorted(v) for k, v in sorted(self.meta.items())}
        return out


def parse_filter_items(items: Sequence[str]) -> AccessFilter:
    """``key=value`` strings (CLI ``--filter``); a repeated key accepts any of its values."""
    grouped: dict[str, list[str]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--filter expects key=value, got {item!r}",
                                 hint="e.g. --filter format=pdf --filter fy=2022 (other keys are --meta tags)")
        grouped.setdefault(key.strip(), []).append(value)
    return AccessFilter.of(grouped)


class TreeReader:
    """Reads trees of one store for one query, never outside ``access``."""

    def __init__(self, store: Store, access: AccessFilter) -> None:
        self.store = store
        self.access = access

    def candidates(self) -> list[DocumentCandidate]:
        """Every document that passes the filter, from tree rows only (no nodes, no units)."""
        return [self._candidate(r) for r in self.store.tree_rows(columns=ROW_COLUMNS) if self.access.allows(r)]

    def candidate(self, doc_id: str) -> DocumentCandidate | None:
        """One document, or None when it does not exist or the filter excludes it (indistinguishable
        on purpose: a filtered-out document is not revealed)."""
        try:
            valid_doc_id(doc_id)
        except TreebuildError:
            return None
        rows = self.store.tree_rows(doc_id, columns=ROW_COLUMNS)
        if not rows or not self.access.allows(rows[0]):
            return None
        return self._candidate(rows[0])

    def sections(self, candidates: Sequence[DocumentCandidate]) -> list[tuple[str, str, str | None]]:
        """``(doc_id, title, summary)`` of every node of documents that passed the filter (the versions
        shown to selection), in one read without their text."""
        allowed = [(c.doc_id, c.version) for c in candidates
                   if self.access.allows({"doc_id": c.doc_id, "format": c.format, "meta": c.meta})]
        rows = self.store.node_rows(allowed, ["doc_id", "title", "summary"])
        return [(r["doc_id"], r["title"], r["summary"]) for r in rows]

    def tree(self, candidate: DocumentCandidate) -> Tree:
        """The tree of a document that passed the filter (the version shown to selection)."""
        if self.candidate(candidate.doc_id) is None:
            raise NotFound(f"no document {candidate.doc_id!r} within the query's filter", path=str(self.store.root))
        return self.store.tree(candidate.doc_id, candidate.version)

    @staticmethod
    def _candidate(row: Mapping[str, Any]) -> DocumentCandidate:
        return DocumentCandidate(doc_id=row["doc_id"], version=row["version"], title=row["title"],
                                 description=row["description"], format=row["format"],
                                 page_count=row["page_count"], meta=dict(row.get("meta") or []),
                                 source_name=row["source_name"])
