"""The query runtime over a real store of PDFs generated here with PyMuPDF: the offline ``lexical``
navigator, and a scripted test navigator (passed as an instance or through an injected provider
registry) for the runtime's own rules: single pass, beam, unknown ids, budgets, timeouts, errors,
cancellation, document selection, access filters, the hybrid seam, navigator resolution through
entry points, passages and their caps, the agent tool and the CLI."""

from __future__ import annotations

import asyncio
import inspect
import json
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from docgen import Text, statement_pdf, write_pdf
from typer.testing import CliRunner

from treebuild import Store, ingest
from treebuild import navigate as top_level_navigate
from treebuild.agents import ToolArguments, run_tool, tool_schema
from treebuild.cli import app
from treebuild.query import (
    ENTRY_POINT_GROUP,
    CancellationToken,
    Decision,
    NavigatorResolutionError,
    NavigatorUsage,
    Selection,
    SelectionRequest,
    StepRequest,
    StopReason,
    navigate,
    resolve,
    spi,
)
from treebuild.query.navigators.lexical import LexicalProvider

runner = CliRunner()

# doc_id -> (meta tags, sections as (level, title, body lines)); each section starts a new page
DOCS: dict[str, tuple[dict[str, str], list[tuple[int, str, list[str]]]]] = {
    "handbook": ({"team": "support", "fy": "2024"}, [
        (1, "Billing", ["How customers pay for their orders."]),
        (2, "Refunds", ["Refunds are issued within 14 days of a returned order.",
                        "A refund goes back to the original payment card."]),
        (2, "Invoices", ["Invoices list every charge with its tax."]),
        (1, "Shipping", ["How parcels travel to customers."]),
        (2, "Delivery times", ["Standard delivery takes three to five working days."]),
        (2, "Customs duties", ["Customs duties on imports are paid by the recipient."]),
        (1, "Security", ["How accounts are protected."]),
        (2, "Passwords", ["Passwords are hashed with a slow salted function."]),
        (2, "Encryption keys", ["Encryption keys rotate every ninety days."]),
    ]),
    "shipping-guide": ({"team": "ops", "fy": "2024"}, [
        (1, "Warehouses", ["Parcels leave the warehouse every morning."]),
        (1, "Carriers", ["Carriers collect parcels and scan every label."]),
    ]),
    "legal-memo": ({"team": "legal", "fy": "2023"}, [
        (1, "Confidential refunds settlement", ["Refunds owed under the settlement are confidential."]),
        (1, "Refunds litigation", ["Refunds litigation is pending in two courts."]),
    ]),
    "security-manual": ({"team": "it", "fy": "2024"}, [
        (1, "Access control", ["Access to servers requires two factors."]),
        (1, "Key management", ["Encryption keys are stored in a hardware module."]),
    ]),
}
LABEL_PREFIX = "H-"


def write_doc(path: Path, sections: list[tuple[int, str, list[str]]], *, labelled: bool) -> Path:
    pages: list[list[Text | str]] = []
    toc = []
    for level, title, body in sections:
        pages.append([Text(title, 100, 14, True), *body])
        toc.append([level, title, len(pages)])
    labels = [{"startpage": 0, "prefix": LABEL_PREFIX, "style": "D", "firstpagenum": 1}] if labelled else None
    return write_pdf(path, pages, toc=toc, labels=labels, metadata={"title": path.stem.replace("-", " ").title()})


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    folder = tmp_path_factory.mktemp("query")
    st = Store(folder / "store")
    for doc_id, (meta, sections) in DOCS.items():
        pdf = write_doc(folder / f"{doc_id}.pdf", sections, labelled=doc_id == "handbook")
        result = ingest(pdf, st, doc_id=doc_id, meta=meta)
        assert result.status == "created", result.error
    return st


def node_id(store: Store, doc_id: str, title: str) -> str:
    return store.tree(doc_id).find(title)[0].node_id


Step = Callable[[StepRequest], Decision | Awaitable[Decision]]


class Scripted:
    """A test navigator: answers each step with the next scripted function, then stops."""

    name = "scripted"
    is_language_model = True

    def __init__(self, *steps: Step, select: Callable[[SelectionRequest], Selection] | None = None) -> None:
        self.steps = list(steps)
        self.requests: list[StepRequest] = []
        self.selections: list[SelectionRequest] = []
        self.select = select

    async def decide(self, request: StepRequest) -> Decision:
        self.requests.append(request)
        if not self.steps:
            return Decision.stop_here("script finished")
        answer = self.steps.pop(0)(request)
        return await answer if inspect.isawaitable(answer) else answer

    async def select_documents(self, request: SelectionRequest) -> Selection:
        self.selections.append(request)
        assert self.select is not None, "selection was not expected"
        return self.select(request)


class ScriptedProvider:
    """Provider for the registry tests; supports exactly ``scripted``."""

    made: list[str] = []

    def supports(self, name: str) -> bool:
        return name == "scripted"

    def create(self, name: str, config: Any) -> Scripted:
        self.made.append(name)
        return Scripted()


class AnyNameProvider:
    """A greedy plugin that claims every name (to test that two matches are refused)."""

    def supports(self, name: str) -> bool:
        return True

    def create(self, name: str, config: Any) -> Scripted:
        return Scripted()


def ids(candidates: Any) -> list[str]:
    return [c.node_id for c in candidates]


BEAM = {"single_pass_max_chars": 1}  # every outline is "too large": walk level by level


# ---------------------------------------------------------------- lexical, single pass, passages

def test_lexical_single_pass_returns_exact_text_pages_labels_and_path(store: Store) -> None:
    result = navigate("How many days until refunds are issued?", store, docs=["handbook"])
    assert result.navigator == "lexical" and result.is_language_model is False
    refunds = node_id(store, "handbook", "Refunds")
    first = result.passages[0]
    assert first.node_id == refunds
    tree = store.tree("handbook")
    assert first.text == tree.node(refunds).text() and "14 days" in first.text
    assert (first.start_page, first.end_page, first.start_label, first.end_label) == (2, 2, "H-2", "H-2")
    assert [e.title for e in first.path] == ["Billing", "Refunds"]
    assert (first.doc_id, first.version, first.truncated) == ("handbook", 1, False)
    doc = result.documents[0]
    assert doc.mode == "single_pass" and len(doc.steps) == 1
    assert doc.steps[0].shown == [n.node_id for n in tree.walk()]  # the whole outline, one call
    assert "not a language model" in doc.steps[0].reasoning
    assert any(s.node_id == refunds and s.reason is StopReason.LEAF for s in doc.stops)
    assert result.usage.calls == 0 and result.usage.input_tokens == 0


def test_lexical_beam_descends_and_the_top_level_navigate_agrees(store: Store) -> None:
    result = navigate("Which encryption keys rotate?", store, docs=["handbook"], **BEAM)
    doc = result.documents[0]
    assert doc.mode == "beam"
    assert doc.steps[0].shown == [n.node_id for n in store.tree("handbook").roots]
    security, keys = node_id(store, "handbook", "Security"), node_id(store, "handbook", "Encryption keys")
    assert doc.steps[0].expanded[0] == security
    assert keys in doc.steps[1].read
    assert result.passages[0].node_id == keys
    same = top_level_navigate("Which encryption keys rotate?", store, docs=["handbook"], **BEAM)
    assert [p.node_id for p in same.passages] == [p.node_id for p in result.passages]  # deterministic


def test_passage_caps_cut_text_and_pages(store: Store) -> None:
    billing = node_id(store, "handbook", "Billing")  # pages 1-3 with its subsections
    whole = store.tree("handbook").node(billing).text()
    pick = Scripted(lambda r: Decision(read=(billing,)))
    one_page = navigate("billing", store, docs=["handbook"], navigator=pick, max_pages=1).passages[0]
    assert (one_page.start_page, one_page.end_page, one_page.node_end_page) == (1, 1, 3)
    assert one_page.truncated and whole.startswith(one_page.text) and "Refunds" not in one_page.text
    pick = Scripted(lambda r: Decision(read=(billing,)))
    short = navigate("billing", store, docs=["handbook"], navigator=pick, max_passage_chars=20).passages[0]
    assert short.text == whole[:20] and short.truncated and short.end_page == 1
    pick = Scripted(lambda r: Decision(read=(billing,)))
    units = navigate("billing", store, docs=["handbook"], navigator=pick, max_units_per_node=2).passages[0]
    assert units.end_page == 2 and units.truncated


def test_context_cap_across_passages_drops_what_does_not_fit(store: Store) -> None:
    tree = store.tree("handbook")
    first, second = node_id(store, "handbook", "Refunds"), node_id(store, "handbook", "Invoices")
    pick = Scripted(lambda r: Decision(read=(first, second)))
    size = len(tree.node(first).text())
    result = navigate("x", store, docs=["handbook"], navigator=pick, max_context_chars=size)
    assert [p.node_id for p in result.passages] == [first]
    assert result.documents[0].dropped == [second]


def test_passages_show_tables_as_markdown_and_are_cut_around_them(tmp_path: Path) -> None:
    """A model reads a passage's tables as Markdown; its character cap counts in that text, never cuts a
    table in two, and the pages it cites are those of the text returned (the Markdown of a table is
    longer than the table's exact text, so counting exact characters would cite a page not read)."""
    st = Store(tmp_path / "store")
    doc_id = ingest(statement_pdf(tmp_path / "bs.pdf"), st).doc_id
    tree = st.tree(doc_id)
    [table] = tree.doc.tables
    node = next(n for n in reversed(list(tree.walk())) if table in n.tables())
    rendered = node.text(tables=True)
    assert node.start_page == table.page and node.end_page == table.page + 1
    assert len(table.markdown()) > table.end - table.start  # the rendered text runs ahead of the exact one

    def passage(**limits: Any) -> Any:
        pick = Scripted(lambda r: Decision(read=(node.node_id,)))
        (one,) = navigate("total assets", st, docs=[doc_id], navigator=pick, zoom_pages=None, **limits).passages
        return one

    whole = passage()
    assert whole.text == rendered and table.markdown() in whole.text and not whole.truncated
    assert (whole.start_page, whole.end_page) == (table.page, table.page + 1)
    # cut at the end of the table's page: the next page is not cited
    next_page = rendered.index("\n" + tree.doc.units[table.unit + 1].text[:20])
    up_to_page = passage(max_passage_chars=next_page)
    assert up_to_page.text == rendered[:next_page] and table.markdown() in up_to_page.text
    assert up_to_page.truncated and (up_to_page.start_page, up_to_page.end_page) == (table.page, table.page)
    # a cap inside the Markdown: the table is left out whole, the text before it kept
    table_at = rendered.index(table.markdown())
    before = passage(max_passage_chars=table_at + len(table.markdown()) // 2)
    assert "|" not in before.text and rendered.startswith(before.text.rstrip()) and before.text.strip()
    assert before.truncated and before.end_page == table.page
    # a long section's best pages read the same way
    zoomed = navigate("total assets", st, docs=[doc_id], navigator=Scripted(lambda r: Decision(read=(node.node_id,))),
                      zoom_pages=1).passages
    assert [(p.start_page, p.best_pages) for p in zoomed] == [(table.page, True)]
    assert table.markdown() in zoomed[0].text


# ---------------------------------------------------------------- the runtime's rules, scripted

def test_beam_offers_each_level_and_reads_what_is_chosen(store: Store) -> None:
    tree = store.tree("handbook")
    billing, refunds = node_id(store, "handbook", "Billing"), node_id(store, "handbook", "Refunds")
    nav = Scripted(lambda r: Decision(expand=(billing,), reasoning="billing covers refunds"),
                   lambda r: Decision(read=(refunds,), reasoning="refunds answers it"))
    result = navigate("refund time", store, docs=["handbook"], navigator=nav, **BEAM)
    first, second = nav.requests
    assert ids(first.candidates) == [n.node_id for n in tree.roots] and first.current == ()
    assert ids(second.current) == [billing]
    assert ids(second.candidates) == [c.node_id for c in tree.node(billing).children]
    assert first.candidates[0].summary and first.candidates[0].start_page == 1  # titles, pages, summaries
    assert second.candidates[0].ancestors == ("Billing",)
    steps = result.documents[0].steps
    assert (steps[0].expanded, steps[1].read) == ([billing], [refunds])
    assert [s.reasoning for s in steps] == ["billing covers refunds", "refunds answers it"]
    assert [p.node_id for p in result.passages] == [refunds]


def test_nodes_still_marked_for_expansion_at_the_last_step_are_read_whole(store: Store) -> None:
    billing = node_id(store, "handbook", "Billing")
    nav = Scripted(lambda r: Decision(expand=(billing,)))
    result = navigate("x", store, docs=["handbook"], navigator=nav, max_steps=1, **BEAM)
    assert [p.node_id for p in result.passages] == [billing]
    assert result.passages[0].stop_reason is StopReason.MAX_DEPTH and len(nav.requests) == 1


def test_depth_bound_reads_instead_of_expanding(store: Store) -> None:
    billing = node_id(store, "handbook", "Billing")
    nav = Scripted(lambda r: Decision(expand=(billing,)))
    result = navigate("x", store, docs=["handbook"], navigator=nav, max_depth=1, **BEAM)
    assert result.passages[0].node_id == billing and result.passages[0].stop_reason is StopReason.MAX_DEPTH


def test_unknown_ids_are_recorded_and_never_followed(store: Store) -> None:
    billing, refunds = node_id(store, "handbook", "Billing"), node_id(store, "handbook", "Refunds")
    shipping = node_id(store, "handbook", "Shipping")
    nav = Scripted(lambda r: Decision(expand=(billing, "9999"), read=("../etc",)),
                   # a real id of this tree that was not offered at this step is unknown too
                   lambda r: Decision(read=(refunds, shipping)))
    result = navigate("x", store, docs=["handbook"], navigator=nav, **BEAM)
    doc = result.documents[0]
    assert doc.steps[0].unknown == ["../etc", "9999"] and doc.steps[1].unknown == [shipping]
    unknown = [s.node_id for s in doc.stops if s.reason is StopReason.UNKNOWN_NODE]
    assert unknown == ["../etc", "9999", shipping]
    assert [p.node_id for p in result.passages] == [refunds]


def test_single_pass_unknown_ids_and_node_cap(store: Store) -> None:
    tree = store.tree("handbook")
    every = tuple(n.node_id for n in tree.walk() if n.is_leaf)
    nav = Scripted(lambda r: Decision(read=("nope", *every)))
    result = navigate("x", store, docs=["handbook"], navigator=nav, max_nodes=2)
    doc = result.documents[0]
    assert doc.steps[0].unknown == ["nope"] and len(result.passages) == 2
    assert doc.steps[0].read == list(every[:2]) and doc.steps[0].ignored == list(every[2:])


def test_budget_exhausted_mid_walk_returns_what_was_chosen(store: Store) -> None:
    billing = node_id(store, "handbook", "Billing")
    spent = NavigatorUsage(calls=1, input_tokens=500, output_tokens=20, cost_usd=0.001)
    nav = Scripted(lambda r: Decision(expand=(billing,), usage=spent))
    result = navigate("x", store, docs=["handbook"], navigator=nav, max_calls=1, **BEAM)
    assert len(nav.requests) == 1  # the second step is never asked
    assert [p.node_id for p in result.passages] == [billing]
    assert result.passages[0].stop_reason is StopReason.BUDGET_EXHAUSTED
    assert "max_calls=1" in result.documents[0].stops[-1].detail
    assert (result.usage.calls, result.usage.input_tokens, result.usage.cost_usd) == (1, 500, 0.001)


def test_tokens_and_visits_bound_the_walk(store: Store) -> None:
    billing = node_id(store, "handbook", "Billing")
    nav = Scripted(lambda r: Decision(expand=(billing,), usage=NavigatorUsage(calls=1, input_tokens=70)))
    result = navigate("x", store, docs=["handbook"], navigator=nav, max_input_tokens=50, **BEAM)
    assert result.passages[0].stop_reason is StopReason.BUDGET_EXHAUSTED and len(nav.requests) == 1
    roots = [n.node_id for n in store.tree("handbook").roots]
    nav = Scripted(lambda r: Decision(expand=tuple(roots)))
    result = navigate("x", store, docs=["handbook"], navigator=nav, max_visits=2, **BEAM)
    doc = result.documents[0]
    assert doc.steps[0].expanded == roots[:2] and doc.steps[0].ignored == roots[2:]
    assert any(s.reason is StopReason.BUDGET_EXHAUSTED and "max_visits" in s.detail for s in doc.stops)


def test_a_slow_navigator_times_out_and_keeps_what_was_chosen(store: Store) -> None:
    billing = node_id(store, "handbook", "Billing")

    async def slow(request: StepRequest) -> Decision:
        await asyncio.sleep(30)
        return Decision()

    nav = Scripted(lambda r: Decision(expand=(billing,)), slow)
    result = navigate("x", store, docs=["handbook"], navigator=nav, max_seconds=0.5, **BEAM)
    assert [p.node_id for p in result.passages] == [billing]
    assert result.passages[0].stop_reason is StopReason.TIMEOUT
    assert result.documents[0].steps[1].outcome.startswith("timeout")


def test_a_failing_navigator_ends_the_walk_not_the_query(store: Store) -> None:
    def boom(request: StepRequest) -> Decision:
        raise RuntimeError("model exploded")

    result = navigate("x", store, docs=["handbook", "shipping-guide"], navigator=Scripted(boom), **BEAM)
    first = result.documents[0]
    assert first.stops[0].reason is StopReason.ERROR and "model exploded" in first.stops[0].detail
    assert result.passages == [] and result.documents[1].steps  # the other document was still navigated


def test_cancellation_is_not_a_failure(store: Store) -> None:
    billing = node_id(store, "handbook", "Billing")
    token = CancellationToken()

    async def hang(request: StepRequest) -> Decision:
        threading.Timer(0.2, token.cancel, args=("user pressed stop",)).start()
        await asyncio.sleep(30)
        return Decision()

    nav = Scripted(lambda r: Decision(expand=(billing,)), hang)
    result = navigate("x", store, docs=["handbook"], navigator=nav, cancel=token, **BEAM)
    assert result.cancelled and [p.node_id for p in result.passages] == [billing]
    assert result.passages[0].stop_reason is StopReason.CANCELLED
    # cancelled before the query: nothing is asked, nothing fails
    nav = Scripted()
    result = navigate("x", store, docs=["handbook"], navigator=nav, cancel=token)
    assert nav.requests == [] and result.documents[0].stops[0].reason is StopReason.CANCELLED


# ---------------------------------------------------------------- selection and filters

def test_document_selection_when_more_documents_than_max(store: Store) -> None:
    def select(request: SelectionRequest) -> Selection:
        return Selection(doc_ids=("security-manual", "made-up"), reasoning="keys live there")

    nav = Scripted(lambda r: Decision(read=(r.candidates[0].node_id,)), select=select)
    result = navigate("encryption keys", store, navigator=nav, max_documents=2)
    request = nav.selections[0]
    assert sorted(c.doc_id for c in request.candidates) == sorted(DOCS) and request.max_documents == 2
    shown = {c.doc_id: c for c in request.candidates}
    assert shown["handbook"].meta["team"] == "support" and shown["handbook"].format == "pdf"
    sel = result.selection
    assert sel is not None and sel.selected == ["security-manual"] and sel.unknown == ["made-up"]
    assert [d.doc_id for d in result.documents] == ["security-manual"]
    assert sel.reasoning == "keys live there" and sel.candidates == 4


def test_lexical_selection_navigates_the_selected_documents(store: Store) -> None:
    result = navigate("Which encryption keys are stored in a hardware module?", store, max_documents=1)
    assert result.selection is not None and result.selection.selected == ["security-manual"]
    assert result.passages[0].doc_id == "security-manual" and "hardware module" in result.passages[0].text


def test_selection_shows_at_most_max_selection_candidates(store: Store) -> None:
    nav = Scripted(select=lambda r: Selection(doc_ids=()))
    result = navigate("refunds", store, navigator=nav, max_documents=1, max_selection_candidates=2)
    assert len(nav.selections[0].candidates) == 2 and result.selection is not None
    assert result.selection.candidates == 4 and len(result.selection.shown) == 2 and result.passages == []


def test_filters_exclude_trees_from_selection_and_every_read(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    real = Store.tree
    monkeypatch.setattr(Store, "tree", lambda self, doc_id, version=None: loaded.append(doc_id) or real(self, doc_id,
                                                                                                     version))
    nav = Scripted(select=lambda r: Selection(doc_ids=tuple(c.doc_id for c in r.candidates) + ("legal-memo",)))
    result = navigate("refunds", store, navigator=nav, filter={"fy": "2024"}, max_documents=1)
    assert sorted(c.doc_id for c in nav.selections[0].candidates) == ["handbook", "security-manual",
                                                                       "shipping-guide"]
    assert result.selection is not None and "legal-memo" in result.selection.unknown
    assert "legal-memo" not in loaded and all(p.doc_id != "legal-memo" for p in result.passages)
    # a named document outside the filter is reported like a missing one and never loaded
    loaded.clear()
    result = navigate("refunds", store, docs=["legal-memo"], filter={"meta": {"team": ["support", "ops"]}})
    assert loaded == [] and result.passages == []
    assert result.documents[0].error == "no such document within the query's filter"
    # format and doc_id lists; a filter that leaves few documents needs no selection
    result = navigate("refunds", store, filter={"doc_id": ["handbook", "legal-memo"], "format": "pdf"})
    assert result.selection is None and {d.doc_id for d in result.documents} == {"handbook", "legal-memo"}
    assert result.filter == {"doc_id": ["handbook", "legal-memo"], "format": ["pdf"]}
    assert navigate("refunds", store, filter={"format": "docx"}).documents == []
    # seeds cannot reach outside the filter either
    loaded.clear()
    result = navigate("refunds", store, seeds={"legal-memo": [1]}, filter={"team": "support"})
    assert loaded == [] and result.passages == []


def test_loading_one_tree_reads_only_its_document(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A query over named documents loads only their trees (the store prunes per document)."""
    read: list[str] = []
    real = Store.tree

    def spy(self: Store, doc_id: str, version: int | None = None) -> Any:
        read.append(doc_id)
        return real(self, doc_id, version)

    monkeypatch.setattr(Store, "tree", spy)
    navigate("refunds", store, docs=["handbook"])
    assert read and set(read) == {"handbook"}


# ---------------------------------------------------------------- hybrid seam

def test_hybrid_seeds_start_from_the_hits_and_their_ancestors(store: Store) -> None:
    tree = store.tree("handbook")
    billing, refunds = node_id(store, "handbook", "Billing"), node_id(store, "handbook", "Refunds")
    keys = node_id(store, "handbook", "Encryption keys")
    security = node_id(store, "handbook", "Security")
    nav = Scripted(lambda r: Decision(read=(refunds,)))
    result = navigate("x", store, navigator=nav, seeds={"handbook": [refunds, 9, "4242"]})
    assert ids(nav.requests[0].candidates) == [billing, refunds, security, keys]  # hits (page 9: keys) + ancestors
    assert [p.node_id for p in result.passages] == [refunds] and result.selection is None
    assert any(s.node_id == "4242" and s.reason is StopReason.UNKNOWN_NODE for s in result.documents[0].stops)
    # in a beam the first level is the same set; expanding an ancestor offers all its children
    nav = Scripted(lambda r: Decision(expand=(billing,)), lambda r: Decision(read=(r.candidates[-1].node_id,)))
    result = navigate("x", store, navigator=nav, seeds={"handbook": [refunds]}, **BEAM)
    assert ids(nav.requests[0].candidates) == [billing, refunds]
    assert ids(nav.requests[1].candidates) == [c.node_id for c in tree.node(billing).children]


# ---------------------------------------------------------------- resolution

def test_resolution_is_deterministic_and_happens_before_any_walk(store: Store,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for blank in ("", "  "):
        with pytest.raises(NavigatorResolutionError, match="blank"):
            resolve(blank)
    with pytest.raises(NavigatorResolutionError, match="no navigator provider supports 'nope'"):
        resolve("nope", providers=[("scripted", ScriptedProvider())])
    both = [("b-any", AnyNameProvider()), ("a-scripted", ScriptedProvider())]
    for order in (both, both[::-1]):  # install order never picks a winner
        with pytest.raises(NavigatorResolutionError, match="2 navigator providers support 'scripted': a-scripted, "
                                                           "b-any"):
            resolve("scripted", providers=order)
    assert isinstance(resolve("scripted", providers=[("s", ScriptedProvider)]), ScriptedProvider)  # class: built
    monkeypatch.setattr(Store, "tree", lambda *a, **k: pytest.fail("a tree was read before resolution"))
    with pytest.raises(NavigatorResolutionError):
        navigate("x", store, docs=["handbook"], navigator="nope")


def test_providers_come_from_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(resolve("lexical"), LexicalProvider)  # the built-in is registered like any plugin
    installed = list(metadata.entry_points(group=ENTRY_POINT_GROUP))
    extra = [metadata.EntryPoint("scripted", "test_query:ScriptedProvider", ENTRY_POINT_GROUP),
             metadata.EntryPoint("greedy", "test_query:AnyNameProvider", ENTRY_POINT_GROUP),
             metadata.EntryPoint("broken", "no_such_module_xyz:Provider", ENTRY_POINT_GROUP)]

    def fake(group: str) -> list[metadata.EntryPoint]:
        return [*installed, *extra] if group == ENTRY_POINT_GROUP else []

    monkeypatch.setattr(spi.metadata, "entry_points", fake)
    with pytest.raises(NavigatorResolutionError) as two:
        resolve("scripted")
    assert "greedy (test_query:AnyNameProvider)" in str(two.value) and "scripted (" in str(two.value)
    with pytest.raises(NavigatorResolutionError, match="2 navigator providers support 'lexical'"):
        resolve("lexical")  # the greedy plugin claims it too: refused, not silently shadowed
    extra.pop(1)
    assert isinstance(resolve("scripted"), ScriptedProvider)
    with pytest.raises(NavigatorResolutionError, match="no_such_module_xyz"):
        resolve("unheard-of")  # a plugin that fails to load is named


# ---------------------------------------------------------------- agent tool and CLI

def test_tool_schema_round_trip(store: Store) -> None:
    schema = tool_schema()
    fn = schema["function"]
    params = fn["parameters"]
    assert schema["type"] == "function" and fn["strict"] is True and fn["name"] == "navigate_documents"
    assert set(params["properties"]) == set(ToolArguments.model_fields) == set(params["required"])
    assert params["additionalProperties"] is False
    json.dumps(schema)  # serialisable as sent to a model
    arguments = json.dumps({"question": "How fast are refunds issued?", "doc_ids": ["handbook"], "max_pages": 2})
    answer = run_tool(arguments, store)
    json.dumps(answer)
    first = answer["passages"][0]
    assert first["doc_id"] == "handbook" and first["title"] == "Refunds" and "14 days" in first["text"]
    assert answer["audit"]["navigator"] == "lexical" and answer["audit"]["is_language_model"] is False
    assert sum(p["end_page"] - p["start_page"] + 1 for p in answer["passages"]) <= 2
    assert "error" in run_tool({"question": "x", "doc_ids": None}, store)  # every property is required
    assert "error" in run_tool({"question": "x", "doc_ids": None, "max_pages": None, "filter": {}}, store)
    # the caller's filter binds the agent: a document outside it yields nothing
    fenced = run_tool({"question": "refunds", "doc_ids": ["legal-memo"], "max_pages": None}, store,
                      filter={"team": "support"})
    assert fenced["passages"] == [] and fenced["audit"]["documents"][0]["error"]


def test_cli_query_plain_and_json(store: Store) -> None:
    res = runner.invoke(app, ["query", "How fast are refunds issued?", "--doc", "handbook", "--store",
                              str(store.root)])
    assert res.exit_code == 0, res.output
    assert "handbook v1 [" in res.stdout and "Billing > Refunds" in res.stdout and "p. 2 (printed H-2)" in res.stdout
    assert "| Refunds are issued within 14 days" in res.stdout
    res = runner.invoke(app, ["query", "refunds", "--filter", "team=legal", "--json", "--max-pages", "1",
                              "--store", str(store.root)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {p["doc_id"] for p in data["passages"]} == {"legal-memo"} and data["filter"] == {"meta": {"team": ["legal"]}}
    assert data["documents"][0]["steps"][0]["shown"] and data["passages"][0]["stop_reason"] == "leaf"
    assert data["limits"]["max_pages"] == 1 and data["navigator"] == "lexical"
    res = runner.invoke(app, ["query", "x", "--navigator", "nope", "--store", str(store.root)])
    assert res.exit_code == 1 and "no navigator provider supports 'nope'" in res.output
    res = runner.invoke(app, ["query", "x", "--filter", "broken", "--store", str(store.root)])
    assert res.exit_code == 2 and "--filter expects key=value" in res.output


def test_cli_text_prints_exact_section_text(store: Store) -> None:
    refunds = node_id(store, "handbook", "Refunds")
    res = runner.invoke(app, ["text", "handbook", refunds, "--store", str(store.root)])
    assert res.exit_code == 0, res.output
    assert res.stdout == store.tree("handbook").node(refunds).text().rstrip("\n") + "\n"
    res = runner.invoke(app, ["text", "handbook", "9999", "--store", str(store.root)])
    assert res.exit_code == 1 and "no node '9999'" in res.output and "treebuild show handbook" in res.output
    res = runner.invoke(app, ["text", "nope", "0000", "--store", str(store.root)])
    assert res.exit_code == 1 and "no document 'nope'" in res.output
    res = runner.invoke(app, ["text", "handbook", refunds, "--version", "7", "--store", str(store.root)])
    assert res.exit_code == 1 and "no version 7" in res.output


def test_selected_documents_are_navigated_concurrently_up_to_the_limit(store: Store) -> None:
    running = {"now": 0, "most": 0}

    async def busy(request: StepRequest) -> Decision:
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        await asyncio.sleep(0.2)
        running["now"] -= 1
        return Decision(read=(request.candidates[0].node_id,))

    nav = Scripted(*([busy] * 4))
    result = navigate("x", store, navigator=nav, max_documents=4, concurrency=2)
    assert len(result.documents) == 4 and all(d.steps for d in result.documents)
    assert running["most"] == 2
    assert [p.doc_id for p in result.passages] == [d.doc_id for d in result.documents]  # document order kept


def test_a_query_never_imports_the_pdf_engine(store: Store) -> None:
    """Stored trees carry their text: querying (documents navigated concurrently) never touches PyMuPDF."""
    code = ("import sys, treebuild; r = treebuild.navigate('refunds', sys.argv[1]); "
            "assert r.passages; print(sorted(m for m in sys.modules if m.split('.')[0] in ('pymupdf', 'fitz', "
            "'pdfplumber', 'docx')))")
    out = subprocess.run([sys.executable, "-c", code, str(store.root)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_query_budget_binds_documents_navigated_concurrently(store: Store) -> None:
    async def one_call(request: StepRequest) -> Decision:
        await asyncio.sleep(0.1)
        return Decision(read=(request.candidates[0].node_id,), usage=NavigatorUsage(calls=1, input_tokens=10))

    nav = Scripted(*([one_call] * 4))
    result = navigate("x", store, navigator=nav, max_documents=4, concurrency=4, query_max_calls=2)
    assert result.usage.calls == 2 and len(nav.requests) == 2
    starved = [d for d in result.documents if not d.steps]
    assert len(starved) == 2 and all(d.stops[0].reason is StopReason.BUDGET_EXHAUSTED for d in starved)
    assert "max_calls=2" in starved[0].stops[0].detail
    assert nav.requests[1].remaining.calls == 1  # the step in flight holds the other call


# ---------------------------------------------------------------- lexical: outline size and page budget

def test_outline_limit_is_the_navigators_own_unless_the_query_sets_one() -> None:
    from treebuild.query.limits import MODEL_SINGLE_PASS_CHARS, Limits, single_pass_chars
    from treebuild.query.navigators.lexical import LexicalNavigator

    assert single_pass_chars(Limits(), LexicalNavigator()) is None  # BM25 scores any outline at once
    assert single_pass_chars(Limits(), object()) == MODEL_SINGLE_PASS_CHARS  # a model's context is bounded
    assert single_pass_chars(Limits(single_pass_max_chars=1), LexicalNavigator()) == 1  # the query's limit wins


def test_lexical_spends_the_last_pages_on_the_next_best_node_cut() -> None:
    from treebuild.query.navigators.lexical import LexicalNavigator
    from treebuild.query.spi import Candidate, Remaining

    big = Candidate("0001", "Results of operations", 1, start_page=1, end_page=3)
    small = [Candidate(f"000{i}", f"Note {i}", 1, start_page=3 + i, end_page=3 + i) for i in (2, 3)]
    scored = [(3.0, big), (2.0, small[0]), (1.0, small[1])]

    def fit(pages: int) -> list[str]:
        remaining = Remaining(calls=None, input_tokens=None, output_tokens=None, seconds=None, visits=15, nodes=5,
                              pages=pages)
        request = StepRequest(question="q", doc_id="d", doc_title=None, mode="single_pass", step=1, max_steps=1,
                              current=(), candidates=(big, *small), max_choices=5, remaining=remaining,
                              cancel=CancellationToken())
        return LexicalNavigator._fit((), scored, request)

    assert fit(2) == ["0001"]  # the best node is taken (its passage cut to 2 pages), not two worse ones that fit
    assert fit(4) == ["0001", "0002"]
    assert fit(10) == ["0001", "0002", "0003"]
