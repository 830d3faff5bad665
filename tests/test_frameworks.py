"""The LlamaIndex and LangChain retrievers with the real packages (``llama-index-core``, ``langchain-core``),
offline: the README's examples run as written against a store of generated 10-K-like PDFs, and each retriever
honours documents, filters and page budgets, returns the metadata to cite (doc_id, version, node_id, path, pages,
printed labels), runs async, and works inside each framework's own machinery (a LlamaIndex query engine with its
offline MockLLM; a LangChain runnable chain)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from readme import annual_report, python_blocks, run_python

from treebuild import Store, TreebuildError, ingest

SECTION = "## Use with LlamaIndex and LangChain"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``treestore`` (the README's store name) with two years of reports."""
    root = tmp_path_factory.mktemp("frameworks")
    store = Store(root / "treestore")
    for year in (2022, 2021):
        pdf = annual_report(root / f"acme-{year}.pdf", year)
        assert ingest(pdf, store, doc_id=f"ACME_{year}_10K", meta={"fy": str(year)}).status == "created"
    return root


def test_readme_examples_run(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    llama, langchain = python_blocks(SECTION)
    assert "from treebuild.interop.llamaindex import TreebuildRetriever" in llama
    assert "from treebuild.interop.langchain import TreebuildRetriever" in langchain
    lines = run_python(llama, workdir, monkeypatch)
    assert lines and all(line.startswith("ACME_2022_10K 1 ") for line in lines)  # the filter: fy 2022 only
    assert any(" Income Taxes 3 F-3 " in line for line in lines)
    lines = run_python(langchain, workdir, monkeypatch)
    assert lines and lines[0].startswith("ACME_2021_10K 3 Income Taxes ")  # the document named
    assert "The effective tax rate was 18.0 percent" in lines[0]


# -- LlamaIndex ---------------------------------------------------------------------------------------


def test_llamaindex_nodes_carry_text_and_metadata_to_cite(workdir: Path) -> None:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, TextNode

    from treebuild.interop.llamaindex import TreebuildRetriever

    store = Store(workdir / "treestore")
    retriever = TreebuildRetriever(store, docs=["ACME_2022_10K"], max_pages=2)
    assert isinstance(retriever, BaseRetriever)
    hits = retriever.retrieve("What was the effective tax rate?")
    assert hits and all(isinstance(h, NodeWithScore) and isinstance(h.node, TextNode) for h in hits)
    tree = store.tree("ACME_2022_10K")
    top = hits[0]
    m = top.node.metadata
    node = tree.node(m["node_id"])
    assert m["title"] == node.title == "Income Taxes" and top.node.get_content() == node.text()
    assert m["doc_id"] == "ACME_2022_10K" and m["version"] == 1 and m["path"] == "Income Taxes"
    assert (m["pages"], m["start_page"], m["end_page"], m["labels"]) == ("3", 3, 3, "F-3")
    ranked = retriever.last_result
    assert ranked is not None and m["truncated"] is False
    assert top.score == m["score"] == ranked.passages[0].score > 0  # the query's own ranking (Passage.score)
    assert top.node.node_id == "ACME_2022_10K:v1:" + m["node_id"] and top.node.ref_doc_id == "ACME_2022_10K"
    assert sum(h.node.metadata["end_page"] - h.node.metadata["start_page"] + 1 for h in hits) <= 2  # the budget
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    audit = retriever.last_result
    assert audit is not None and audit.navigator == "lexical" and [d.doc_id for d in audit.documents] == [
        "ACME_2022_10K"]
    asynced = asyncio.run(retriever.aretrieve("What was the effective tax rate?"))
    assert [h.node.node_id for h in asynced] == [h.node.node_id for h in hits]


def test_llamaindex_query_engine_runs_offline(workdir: Path) -> None:
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import RetrieverQueryEngine

    from treebuild.interop.llamaindex import TreebuildRetriever

    retriever = TreebuildRetriever(workdir / "treestore", filter={"fy": "2021"}, max_pages=3)
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    response = engine.query("What was the effective tax rate?")
    sources = response.source_nodes
    assert sources and {s.node.metadata["doc_id"] for s in sources} == {"ACME_2021_10K"}


def test_llamaindex_refuses_a_bad_limit_at_once(workdir: Path) -> None:
    from treebuild.interop.llamaindex import TreebuildRetriever

    with pytest.raises(TreebuildError, match="unknown query limit"):
        TreebuildRetriever(workdir / "treestore", max_pagez=3)


# -- LangChain ----------------------------------------------------------------------------------------


def test_langchain_documents_honour_filters_documents_and_budgets(workdir: Path) -> None:
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    from treebuild.interop.langchain import TreebuildRetriever

    retriever = TreebuildRetriever(store=str(workdir / "treestore"), filter={"fy": ["2021", "2022"]},
                                   limits={"max_pages": 1, "max_documents": 2})
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke("What was the effective tax rate?")
    assert docs and all(isinstance(d, Document) for d in docs)
    assert sum(d.metadata["end_page"] - d.metadata["start_page"] + 1 for d in docs) <= 1  # one page in all
    first = docs[0]
    assert first.metadata["title"] == "Income Taxes" and first.id == (f"{first.metadata['doc_id']}:v1:"
                                                                       f"{first.metadata['node_id']}")
    assert set(first.metadata) >= {"doc_id", "version", "node_id", "path", "pages", "labels", "start_page",
                                   "end_page", "truncated", "score"}
    outside = TreebuildRetriever(store=workdir / "treestore", filter={"fy": "1999"})
    assert outside.invoke("What was the effective tax rate?") == []
    named = TreebuildRetriever(store=workdir / "treestore", docs=["ACME_2021_10K"])
    assert {d.metadata["doc_id"] for d in asyncio.run(named.ainvoke("What was revenue?"))} == {"ACME_2021_10K"}
    assert named.last_result is not None and named.last_result.question == "What was revenue?"
    with pytest.raises(TreebuildError, match="unknown query limit"):
        TreebuildRetriever(store=workdir / "treestore", limits={"bogus": 1})


def test_langchain_retriever_in_a_chain(workdir: Path) -> None:
    from langchain_core.runnables import RunnableLambda

    from treebuild.interop.langchain import TreebuildRetriever

    retriever = TreebuildRetriever(store=workdir / "treestore", docs=["ACME_2022_10K"], limits={"max_pages": 2})

    def cite(docs: list[Any]) -> str:
        return "\n".join(f"[{d.metadata['doc_id']} p.{d.metadata['pages']}] {d.page_content.splitlines()[1]}"
                         for d in docs)

    chain = retriever | RunnableLambda(cite)
    text = chain.invoke("What was the effective tax rate?")
    assert text.splitlines()[0] == "[ACME_2022_10K p.3] The effective tax rate was 21.5 percent in fiscal 2022."
