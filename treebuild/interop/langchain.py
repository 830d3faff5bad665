"""A LangChain retriever over a treebuild store (``pip install 'treebuild[langchain]'``).

:class:`TreebuildRetriever` is a ``langchain_core.retrievers.BaseRetriever`` (a Runnable:
``invoke(question)``, ``ainvoke``, ``batch``, and usable in any chain): each query navigates the stored
trees and returns one ``Document`` per passage, its ``page_content`` the section's exact text and its
metadata that of :mod:`.frameworks` (doc_id, version, node_id, path, pages, labels ...). Documents,
filter, navigator and budgets (``limits={"max_pages": 10}``) are the retriever's fields.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field, PrivateAttr

from ..query import QueryResult, navigate, navigate_async
from .frameworks import RetrieverSettings, passage_key, passage_metadata, passage_score

__all__ = ["TreebuildRetriever", "to_documents"]


def to_documents(result: QueryResult) -> list[Document]:
    """The passages of ``result`` as LangChain documents, in the order navigation returned them."""
    count = len(result.passages)
    return [Document(id=passage_key(p), page_content=p.text,
                     metadata=passage_metadata(p, passage_score(p, rank, count)))
            for rank, p in enumerate(result.passages)]


class TreebuildRetriever(BaseRetriever):
    """Navigates a treebuild store for each query; see the module docstring.

    ``store`` is a :class:`treebuild.Store` or its path; ``docs``, ``filter``, ``navigator`` and ``config``
    are :func:`treebuild.navigate`'s; ``limits`` its query limits (``{"max_pages": 10}``)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    store: Any
    docs: list[str] | None = None
    filter: Any = None
    navigator: Any = None
    config: Any = None
    limits: dict[str, Any] = Field(default_factory=dict)
    _settings: RetrieverSettings = PrivateAttr()
    _last: QueryResult | None = PrivateAttr(default=None)

    def model_post_init(self, context: Any) -> None:
        self._settings = RetrieverSettings(self.store, self.docs, self.filter, self.navigator, self.config,
                                           dict(self.limits))

    @property
    def last_result(self) -> QueryResult | None:
        """The last query's result: passages and the audit record."""
        return self._last

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        self._last = navigate(query, **self._settings.navigate_args())
        return to_documents(self._last)

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun) -> list[Document]:
        self._last = await navigate_async(query, **self._settings.navigate_args())
        return to_documents(self._last)
