"""Ranking across documents and the first stage, over a real store of PDFs generated here with
PyMuPDF: a plotting manual and two 10-K-like filings (statements, certifications, exhibits) and a
bland reference guide. One index over every navigated document makes scores comparable; a weak
document is cut; the page budget goes to the best passages of the whole query first; selection
reads the sections inside the trees; the first stage scores node text (navigators see it as
``text_score``), can seed the walk, and returns a long section's best pages; the ``lexical``
navigator reads the statement a question's figure comes from first (the segment note when it
asks for results by segment or product line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from docgen import Text, write_pdf

from treebuild import Store, ingest
from treebuild.query import Decision, StepRequest, StopReason, navigate
from treebuild.query.first_stage import FirstStage
from treebuild.query.navigators.lexical import document_text
from treebuild.query.navigators.statements import section_kind, statement_kind, statements_asked
from treebuild.query.outline import TreeView
from treebuild.query.terms import bm25, counts

# a section: (level, title, pages of body lines); each page of a section is one PDF page
Section = tuple[int, str, list[list[str]]]

FILLER = [f"Paragraph {i} describes routine matters of the section in general words." for i in range(6)]


def filing(name: str, segment: str) -> list[Section]:
    return [
        (1, "Item 1. Business", [[f"{name} designs and sells industrial equipment.", *FILLER]]),
        (1, "Item 1A. Risk Factors", [["Demand for equipment is cyclical and depends on the economy.", *FILLER]]),
        (1, "Item 7. Management's Discussion and Analysis", [
            ["Revenue grew in the year because shipments rose.", *FILLER],
            [f"The {segment} segment sold more units than last year.", *FILLER]]),
        (1, "Item 8. Financial Statements", [["The statements follow.", *FILLER]]),
        (2, "Consolidated Statements of Operations", [[
            "(In millions)", "Revenue 1,200", "Cost of revenue 700", "Gross profit 500",
            "Research and development 100", "Operating income 400", "Net income 300"]]),
        (2, "Consolidated Balance Sheets", [[
            "(In millions)", "Total current assets 900", "Total current liabilities 400", "Total assets 2,000"]]),
        (2, "Consolidated Statements of Cash Flows", [[
            "(In millions)", "Net cash provided by operating activities 350", "Purchases of equipment (80)"]]),
        (2, "Note 5. Segment Information", [[
            "Revenue by product category (In millions)", f"{segment} 700", "Pumps 300", "Services 200"]]),
        (1, "Exhibit 31.1 Certification", [[
            "I certify that I have reviewed this annual report on Form 10-K filed with the Commission.",
            "The report does not contain any untrue statement of a material fact.", *FILLER]]),
        (1, "Exhibit 101 Interactive Data Files", [[
            "The cover page interactive data file is formatted as Inline XBRL and filed as an exhibit.",
            "Each data file is an electronic file submitted with the report.", *FILLER]]),
    ]


REFERENCE_PAGES = [[f"Command {i} changes a setting of the drawing canvas.", *FILLER] for i in range(6)]
REFERENCE_PAGES[4] = ["The vectorize command writes the current drawing to the SVG format.", *FILLER]

DOCS: dict[str, tuple[str, list[Section]]] = {
    "plotting-manual": ("Plotting Manual", [
        (1, "Getting started", [["Install the package and import the plotting module.", *FILLER]]),
        (1, "Line charts", [["Draw a line chart from two lists of numbers.", *FILLER]]),
        (1, "Saving figures", [["Call savefig to save a plot as a PNG image file or a PDF file.",
                                "The dpi option sets the resolution of the saved image.", *FILLER]]),
        (1, "Colour maps", [["A colour map turns values into colours.", *FILLER]]),
        (1, "Command reference", REFERENCE_PAGES),
    ]),
    "acme-10k": ("Acme Annual Report", filing("Acme", "Turbines")),
    "globex-10k": ("Globex Annual Report", filing("Globex", "Helium")),
    "reference-guide": ("Reference Guide", [
        (1, "Overview", [["This guide covers general procedures for staff.", *FILLER]]),
        (1, "Procedures", [["Staff follow the procedures of their office.", *FILLER]]),
        (1, "Appendix", [["Cryogenic storage keeps liquid nitrogen below its boiling point.", *FILLER]]),
    ]),
}


def write_doc(path: Path, title: str, sections: list[Section]) -> Path:
    pages: list[list[Text | str]] = []
    toc = []
    for level, heading, body in sections:
        toc.append([level, heading, len(pages) + 1])
        for k, lines in enumerate(body):
            pages.append([Text(heading, 100, 14, True), *lines] if k == 0 else list(lines))
    return write_pdf(path, pages, toc=toc, metadata={"title": title})


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    folder = tmp_path_factory.mktemp("ranking")
    st = Store(folder / "store")
    for doc_id, (title, sections) in DOCS.items():
        result = ingest(write_doc(folder / f"{doc_id}.pdf", title, sections), st, doc_id=doc_id)
        assert result.status == "created", result.error
    return st


def titled(store: Store, doc_id: str, title: str) -> str:
    (node,) = [n for n in store.tree(doc_id).walk() if n.title == title]
    return node.node_id


# ---------------------------------------------------------------- across documents

def test_the_manual_section_comes_first_and_no_filing_exhibit_is_returned(store: Store) -> None:
    """The issue's example: over a store of manuals and 10-Ks, with no document named."""
    result = navigate("How do I save a plot as a PNG image file?", store, max_documents=3, max_pages=10)
    assert result.selection is not None and "plotting-manual" in result.selection.selected
    first = result.passages[0]
    assert (first.doc_id, first.title) == ("plotting-manual", "Saving figures")
    assert {p.doc_id for p in result.passages} == {"plotting-manual"}
    assert not any("Exhibit" in p.title or "Certification" in p.title for p in result.passages)
    # the filings navigated were cut as a whole, and the audit says why
    for record in result.documents:
        if record.doc_id != "plotting-manual":
            assert any(s.reason is StopReason.CUT_OFF for s in record.stops), record.stops
            assert set(record.dropped) == set(record.chosen)


def test_cli_without_doc_over_a_manual_and_two_filings_returns_the_manual_first(tmp_path: Path) -> None:
    """The issue's example through ``treebuild query`` with no ``--doc``: a store of exactly a manual and
    two 10-K-like filings, so every document is navigated (no selection); the filings' certification
    and exhibit sections, which share "file" and "image" words with the question, are cut."""
    import json

    from typer.testing import CliRunner

    from treebuild.cli import app

    st = Store(tmp_path / "store")
    for doc_id in ("plotting-manual", "acme-10k", "globex-10k"):
        title, sections = DOCS[doc_id]
        assert ingest(write_doc(tmp_path / f"{doc_id}.pdf", title, sections), st, doc_id=doc_id).status == "created"
    res = CliRunner().invoke(app, ["query", "How do I save a plot as a PNG image file?", "--store",
                                   str(tmp_path / "store"), "--max-pages", "10", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["selection"] is None and {d["doc_id"] for d in out["documents"]} == {
        "plotting-manual", "acme-10k", "globex-10k"}
    first = out["passages"][0]
    assert (first["doc_id"], first["title"]) == ("plotting-manual", "Saving figures")
    filings = [p for p in out["passages"] if p["doc_id"] != "plotting-manual"]
    assert not filings, [p["title"] for p in filings]
    for record in out["documents"]:
        if record["doc_id"] != "plotting-manual":
            assert "cut_off" in [s["reason"] for s in record["stops"]] and record["chosen"], record
            assert sorted(record["dropped"]) == sorted(record["chosen"])  # chosen, then cut as a whole


def test_scores_compare_across_documents_and_the_budget_goes_to_the_best_first(store: Store) -> None:
    question = "How many units did the helium segment sell?"
    # acme is named first and its navigator still chooses sections; globex holds the answer
    result = navigate(question, store, docs=["acme-10k", "globex-10k"], max_pages=1, document_cutoff=0)
    (passage,) = result.passages
    assert passage.doc_id == "globex-10k" and "Helium" in passage.text
    acme = next(d for d in result.documents if d.doc_id == "acme-10k")
    assert acme.chosen and set(acme.dropped) == set(acme.chosen)  # chosen, but the budget went to globex
    # passages come best first, by scores of one index over both documents
    result = navigate(question, store, docs=["acme-10k", "globex-10k"], max_pages=10, document_cutoff=0)
    scores = [p.score for p in result.passages]
    assert scores == sorted(scores, reverse=True) and result.passages[0].doc_id == "globex-10k"
    assert max(p.score for p in result.passages if p.doc_id == "acme-10k") < scores[0]


def test_a_weak_document_returns_nothing_but_a_single_document_is_never_cut(store: Store) -> None:
    question = "Which colour map turns values into colours?"
    result = navigate(question, store, docs=["plotting-manual", "acme-10k"], max_pages=10)
    assert {p.doc_id for p in result.passages} == {"plotting-manual"}
    assert result.passages[0].title == "Colour maps"
    # the cut-off is relative to the best document of the query: alone, a document keeps its passages
    alone = navigate("Which segment sold more units?", store, docs=["acme-10k"], max_pages=10)
    assert alone.passages and not any(s.reason is StopReason.CUT_OFF for s in alone.documents[0].stops)


def test_bm25_over_several_documents_shares_its_statistics() -> None:
    docs = counts(["helium sales rose", "turbine sales rose", "turbine orders fell", "turbine output"])
    together = bm25(["helium", "turbin"], docs)
    assert together[0] > together[1] > 0  # the rarer term weighs more, across every text scored together
    assert bm25(["helium"], docs[1:]) == [0.0, 0.0, 0.0]


# ---------------------------------------------------------------- selection

def test_selection_reads_the_sections_inside_the_trees(store: Store) -> None:
    question = "How is liquid nitrogen kept in cryogenic storage?"
    candidates = {d.doc_id: d for d in store.documents()}
    assert "reference-guide" in candidates
    result = navigate(question, store, max_documents=1)
    assert result.selection is not None and result.selection.selected == ["reference-guide"]
    assert result.passages[0].title == "Appendix"
    # what made the difference is inside the tree: the document's own row does not name the topic
    from treebuild.query.access import AccessFilter, TreeReader

    row = TreeReader(store, AccessFilter()).candidate("reference-guide")
    assert row is not None and "nitrogen" not in document_text(row).casefold()


# ---------------------------------------------------------------- first stage

def test_navigators_see_the_first_stage_score_of_each_node(store: Store) -> None:
    seen: list[StepRequest] = []

    class Recorder:
        name = "recorder"
        is_language_model = False

        async def decide(self, request: StepRequest) -> Decision:
            seen.append(request)
            best = max(request.candidates, key=lambda c: c.text_score)
            return Decision(read=(best.node_id,), reasoning="best text score")

        async def select_documents(self, request: Any) -> Any:
            raise AssertionError("not expected")

    result = navigate("Which command writes SVG?", store, docs=["plotting-manual"], navigator=Recorder())
    scores = {c.title: c.text_score for c in seen[0].candidates}
    # the title "Command reference" shares no word with the question; its text does
    assert max(scores, key=scores.__getitem__) == "Command reference" and scores["Line charts"] == 0.0
    assert result.passages[0].title == "Command reference"


def test_a_long_section_returns_its_best_pages(store: Store) -> None:
    node = store.tree("plotting-manual").node(titled(store, "plotting-manual", "Command reference"))
    assert node.end_page is not None and node.start_page is not None and node.end_page - node.start_page >= 5
    svg_page = node.start_page + 4
    result = navigate("Which command writes the drawing to the SVG format?", store, docs=["plotting-manual"],
                      max_pages=10)
    zoomed = [p for p in result.passages if p.node_id == node.node_id and p.stop_reason is not StopReason.FIRST_STAGE]
    assert zoomed and all(p.best_pages and p.truncated for p in zoomed)
    assert any(p.start_page is not None and p.start_page <= svg_page <= (p.end_page or p.start_page) for p in zoomed)
    assert sum(p.pages for p in zoomed) <= 3 and "vectorize command" in "".join(p.text for p in zoomed)
    # an agent reading on from such a passage is sent to the section's start, not to an offset past the pages
    from treebuild.agents import StoreTools

    out = StoreTools(store).navigate("Which command writes the drawing to the SVG format?", doc_ids=["plotting-manual"])
    (item,) = [p for p in out["passages"] if "vectorize command" in p["text"]]
    assert item["citation"]["node_id"] == node.node_id and item["best_pages"]
    assert item["next"] == f"get_section(doc_id='plotting-manual', node_id='{node.node_id}')"
    # without zoom the section is read from its start, and the page is past the budget
    plain = navigate("Which command writes the drawing to the SVG format?", store, docs=["plotting-manual"],
                     max_pages=3, zoom_pages=None)
    assert all(not p.best_pages for p in plain.passages)
    assert not any(p.node_id == node.node_id and (p.end_page or 0) >= svg_page for p in plain.passages)


def test_pages_the_choices_leave_go_to_the_best_pages_of_the_documents_read(store: Store) -> None:
    question = "Which command writes the drawing to the SVG format?"
    result = navigate(question, store, docs=["plotting-manual"], max_pages=10)
    chosen = [p for p in result.passages if p.stop_reason is not StopReason.FIRST_STAGE]
    filled = [p for p in result.passages if p.stop_reason is StopReason.FIRST_STAGE]
    assert chosen and filled and result.passages[: len(chosen)] == chosen  # the navigator's choices come first

    def pages(passages: list[Any]) -> set[int]:
        return {page for p in passages for page in range(p.start_page, p.end_page + 1)}

    assert not pages(chosen) & pages(filled) and all(p.best_pages and p.text for p in filled)
    view = TreeView(store.tree("plotting-manual"))
    stage = FirstStage(question, {"plotting-manual": view})
    scores = stage.page_scores("plotting-manual")
    left = sorted((p for p in scores if p not in pages(chosen) and scores[p] > 0), key=lambda p: (-scores[p], p))
    assert pages(filled) == set(left[: 10 - len(pages(chosen))])  # the best pages the choices left, each once
    assert len(pages(result.passages)) == min(10, len(pages(chosen)) + len(left))
    for p in filled:  # each in the deepest section holding it, recorded in the audit
        assert p.node_id == view.node_for_page(p.start_page)
        assert any(s.reason is StopReason.FIRST_STAGE and s.node_id == p.node_id for s in result.documents[0].stops)
    # without a page budget, or with fill_pages off, only the navigator's choices come back
    for kwargs in ({}, {"max_pages": 10, "fill_pages": False}):
        plain = navigate(question, store, docs=["plotting-manual"], **kwargs)
        assert [p.node_id for p in plain.passages if p.stop_reason is StopReason.FIRST_STAGE] == []
    # a language model's choices come back as it made them, unless the query asks for the fill

    class Model:
        name = "model"
        is_language_model = True

        async def decide(self, request: StepRequest) -> Decision:
            return Decision(read=(max(request.candidates, key=lambda c: c.text_score).node_id,), reasoning="best")

        async def select_documents(self, request: Any) -> Any:
            raise AssertionError("not expected")

    for fill, expected in ((None, False), (True, True)):
        picked = navigate(question, store, docs=["plotting-manual"], navigator=Model(), max_pages=10, fill_pages=fill)
        assert any(p.stop_reason is StopReason.FIRST_STAGE for p in picked.passages) is expected
    # a document cut off gives no pages either: over the manual and a filing, every page comes from the manual
    across = navigate(question, store, docs=["plotting-manual", "acme-10k"], max_pages=10)
    assert {p.doc_id for p in across.passages} == {"plotting-manual"}
    assert any(p.stop_reason is StopReason.FIRST_STAGE for p in across.passages)


def test_first_stage_seeds_the_walk_and_the_audit_records_them(store: Store) -> None:
    result = navigate("Which colour map turns values into colours?", store, docs=["plotting-manual"], seed_nodes=1)
    (record,) = result.documents
    colour = titled(store, "plotting-manual", "Colour maps")
    assert record.seeds == [colour] and record.steps[0].shown == [colour]
    assert result.passages[0].node_id == colour
    # nothing matches: the whole outline is walked, no seed recorded
    result = navigate("zyxxy quux", store, docs=["plotting-manual"], seed_nodes=2)
    assert result.documents[0].seeds == [] and len(result.documents[0].steps[0].shown) == 5


def test_first_stage_node_text_is_title_summary_and_own_text(store: Store) -> None:
    view = TreeView(store.tree("plotting-manual"))
    stage = FirstStage("savefig resolution", {"plotting-manual": view})
    saving = titled(store, "plotting-manual", "Saving figures")
    assert stage.best_nodes("plotting-manual", 1) == [saving]
    pages = stage.page_scores("plotting-manual")
    node = view.nodes[saving]
    assert max(pages, key=pages.__getitem__) == node.start_page


# ---------------------------------------------------------------- statements

def test_the_statement_a_figure_comes_from_is_read_first(store: Store) -> None:
    cases = {
        "Has Acme's operating margin improved?": "Consolidated Statements of Operations",
        "Does Acme have positive working capital?": "Consolidated Balance Sheets",
        "What was Acme's capital expenditure?": "Consolidated Statements of Cash Flows",
        "How much did Acme spend on R&D?": "Consolidated Statements of Operations",
        # no word of the question is in the note: "business lines" asks for results by segment
        "What share came from each of Acme's business lines?": "Note 5. Segment Information",
    }
    for question, title in cases.items():
        result = navigate(question, store, docs=["acme-10k"], max_pages=10)
        assert result.passages[0].title == title, (question, [p.title for p in result.passages])
        assert "statements the question asks for" in result.documents[0].steps[0].reasoning


def test_statement_vocabulary() -> None:
    assert statements_asked("Does Adobe have an improving free cashflow conversion?") == ["cash"]
    assert statements_asked("What is the fixed asset turnover ratio?") == ["income", "balance"]
    assert statements_asked("How do I save a plot as a PNG image file?") == []
    assert statement_kind("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS") == "income"
    assert statement_kind("Statements of Operations and Comprehensive Loss") == "income"
    assert statement_kind("Consolidated Statements of Comprehensive Income") == "comprehensive"
    assert statement_kind("INCOME STATEMENTS") == "income"
    assert statement_kind("Statement of Financial Position") == "balance"
    assert statement_kind("Notes to Consolidated Financial Statements") is None
    assert statement_kind("Financial Statements") is None
    assert statements_asked("Which geographic region had the biggest drop in revenue?") == ["income", "segments"]
    assert statements_asked("What revenue did the cloud services bring?") == ["income"]  # "revenue by" is no phrase
    assert section_kind("Summary of Business Segment Data") == "segments"
    assert section_kind("Note 13. Segment, Geographic and Other Revenue Information") == "segments"
    assert section_kind("Risks Related to Our Segments") is None
    assert section_kind("Consolidated Balance Sheets") == "balance"
