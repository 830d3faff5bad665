"""The page budget is not spent on the text in which a filing names itself.

A real store of a 10-K-like PDF generated here with PyMuPDF: a cover page before the first
section (the tree's preface), topical sections, a signature page and two certifications, each of
which says "this report" over and over. Questions name the document they are asked of and the
part they mean ("in the latest report filed", "the risk factors section") and wrap the topic in a
template ("analyze how ... relates to ..."): those words tell nothing about where to look, and
kept they find the cover, the signatures and the certifications before the sections that hold the
answer (bench/README.md, "Issue 24, navigation pass 2")."""

from __future__ import annotations

import pytest
from docgen import Text, write_pdf

from treebuild import Store, ingest
from treebuild.query import navigate
from treebuild.query.first_stage import FirstStage
from treebuild.query.outline import TreeView
from treebuild.query.terms import query_terms

FILLER = [f"Paragraph {i} covers routine matters in general words." for i in range(6)]

COVER = ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-K",
         "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT",
         "For the fiscal year ended December 31, 2022. Commission file number 001-00001.",
         "Indicate by check mark whether the registrant has filed all reports required to be filed",
         "by Section 13 or 15(d) during the preceding 12 months, and whether this report is the latest.",
         "The most recent report filed with the Commission is incorporated by reference in this section."]


def certification(officer: str) -> list[str]:
    return [f"I, {officer}, certify that I have reviewed this annual report on Form 10-K.",
            "Based on my knowledge, this report does not contain any untrue statement of a material fact.",
            "The financial information included in this report fairly presents the periods in this report.",
            "We designed disclosure controls so that information is made known to us while this report is prepared.",
            "We evaluated the controls as of the end of the period covered by this report and present in this",
            "report our conclusions; this report is filed under Section 302 and the latest rules of the section."]


SECTIONS: list[tuple[str, list[str]]] = [
    ("Item 1. Business", ["Acme designs and sells industrial pumps to utilities.", *FILLER]),
    ("Item 1A. Risk Factors", ["Demand for pumps is cyclical and falls when utilities cut spending.",
                               "Cyclical demand can reduce our backlog and our margins.", *FILLER]),
    ("Item 2. Properties", ["We own three plants and lease two warehouses.", *FILLER]),
    ("Item 7. Management's Discussion and Analysis", ["Revenue grew because pump shipments rose.",
                                                      "Backlog at year end was higher than a year ago.", *FILLER]),
    ("Item 7A. Market Risk", ["Interest rate changes affect our variable rate borrowings.", *FILLER]),
    ("Signatures", ["Pursuant to the requirements of Section 13 or 15(d) of the Exchange Act, the registrant",
                    "has duly caused this report to be signed on its behalf; this report is filed as the latest.",
                    *FILLER]),
    ("Exhibit 31.1 Certification", certification("Jane Roe, Chief Executive Officer")),
    ("Exhibit 31.2 Certification", certification("John Doe, Chief Financial Officer")),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    folder = tmp_path_factory.mktemp("boilerplate")
    pages: list[list[Text | str]] = [list(COVER)]
    toc = []
    for title, lines in SECTIONS:
        toc.append([1, title, len(pages) + 1])
        pages.append([Text(title, 100, 14, True), *lines])
    path = write_pdf(folder / "acme-10k.pdf", pages, toc=toc, metadata={"title": "Acme Corp"})
    st = Store(folder / "store")
    result = ingest(path, st, doc_id="acme-10k")
    assert result.status == "created", result.error
    titles = [n.title for n in st.tree("acme-10k").walk()]
    assert titles[0] == "Preface" and "Exhibit 31.2 Certification" in titles, titles
    return st


SELF_NAMING = {"Preface", "Signatures", "Exhibit 31.1 Certification", "Exhibit 31.2 Certification"}

QUESTIONS = {
    "In Acme's latest report filed, how does the risk factors section discuss cyclical demand?":
        "Item 1A. Risk Factors",
    "Analyze how the backlog reported in the most recent filing relates to the revenue discussion.":
        "Item 7. Management's Discussion and Analysis",
    "What plants and warehouses are reported in the properties section of the latest report?":
        "Item 2. Properties",
    # words asking for what mattered most or what caused it: "chief" is every certification's officer title
    "What was the chief factor affecting the backlog, and the key factors influencing revenue?":
        "Item 7. Management's Discussion and Analysis",
}


@pytest.mark.parametrize("question", list(QUESTIONS))
def test_the_budget_goes_to_the_topic_not_to_the_text_a_filing_names_itself_in(store: Store, question: str) -> None:
    result = navigate(question, store, docs=["acme-10k"], max_pages=10)
    titles = [p.title for p in result.passages]
    assert titles and titles[0] == QUESTIONS[question], titles
    assert not SELF_NAMING & set(titles), titles


def test_words_naming_the_document_are_dropped_unless_nothing_else_is_left() -> None:
    assert query_terms("In the latest report filed, how does the risk factors section discuss demand?") == [
        "risk", "demand"]
    assert query_terms("Analyze how inventory levels relate to the supply chain discussion") == [
        "inventori", "level", "suppli", "chain"]
    # a question of nothing else still asks something
    assert query_terms("Which report was filed?") == ["which", "report", "file"]


@pytest.fixture(scope="module")
def untitled(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The same filing titled by its form only: the company's name is printed on the cover and in every
    certification, not in the title or the doc_id."""
    folder = tmp_path_factory.mktemp("untitled")
    pages: list[list[Text | str]] = [["ACME CORP", *COVER]]
    toc = []
    for title, lines in SECTIONS:
        if "Certification" in title:
            lines = [*lines, "Acme Corp: the other certifying officer and I are responsible for Acme Corp's",
                     "controls; Acme Corp's auditors were told of every deficiency in Acme Corp's controls."]
        toc.append([1, title, len(pages) + 1])
        pages.append([Text(title, 100, 14, True), *lines])
    path = write_pdf(folder / "filing.pdf", pages, toc=toc, metadata={"title": "FORM 10-K"})
    st = Store(folder / "store")
    assert ingest(path, st, doc_id="filing-2022").status == "created"
    return st


def test_the_name_the_document_prints_on_its_cover_is_no_topic(untitled: Store) -> None:
    question = "How did Acme's risk factors describe cyclical demand from utilities?"
    view = TreeView(untitled.tree("filing-2022"))
    assert "acm" not in FirstStage(question, {"filing-2022": view}).query
    result = navigate(question, untitled, docs=["filing-2022"], max_pages=10)
    titles = [p.title for p in result.passages]
    assert titles and titles[0] == "Item 1A. Risk Factors", titles
    assert not SELF_NAMING & set(titles), titles
