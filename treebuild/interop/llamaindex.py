"""A LlamaIndex retriever over a treebuild store (``pip install 'treebuild[llamaindex]'``).

:class:`TreebuildRetriever` is a ``llama_index.core.retrievers.BaseRetriever``: ``retrieve(question)``
navigates the stored trees and returns one ``NodeWithScore`` per passage, a ``TextNode`` holding the
section's exact text with the metadata of :mod:`.frameworks` (doc_id, version, node_id, path, pages,
labels ...) and the document as its source node. Documents, filter, navigator and budgets
(``max_pages=10`` ...) are the retriever's; ``last_result`` keeps the last query's audit record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from llama_index.core.callbacks import CallbackManager
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeRelationship, NodeWithScore, QueryBundle, RelatedNodeInfo, TextNode

from ..query import AccessFilter, Navigator, QueryResult, navigate, navigate_async
from ..settings import ModelConfig
from ..store import Store
from .frameworks import RetrieverSettings, passage_key, passage_metadata, passage_score

__all__ = ["TreebuildRetriever", "to_nodes"]


def to_nodes(result: QueryResult) -> list[NodeWithScore]:
    """The passages of ``result`` as scored LlamaIndex nodes, in the order navigation returned them."""
    out = []
    count = len(result.passages)
    for rank, p in enumerate(result.passages):
        score = passage_score(p, rank, count)
        node = TextNode(id_=passage_key(p), text=p.text, metadata=passage_metadata(p, score),
                        relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=p.doc_id)})
        out.append(NodeWithScore(node=node, score=score))
    return out


class TreebuildRetriever(BaseRetriever):
    """Navigates a treebuild store for each query; see the module docstring."""

    def __init__(self, store: Store | str | Path, *, docs: Sequence[str] | None = None,
                 filter: AccessFilter | Mapping[str, Any] | None = None, navigator: str | Navigator | None = None,
                 config: ModelConfig | None = None, callback_manager: CallbackManager | None = None,
                 verbose: bool = False, **limits: Any) -> None:
        self.settings = RetrieverSettings(store, docs, filter, navigator, config, dict(limits))
        self.last_result: QueryResult | None = None
        super().__init__(callback_manager=callback_manager, verbose=verbose)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        self.last_result = navigate(query_bundle.query_str, **self.settings.navigate_args())
        return to_nodes(self.last_result)

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        self.last_result = await navigate_async(query_bundle.query_str, **self.settings.navigate_args())
        return to_nodes(self.last_result)
