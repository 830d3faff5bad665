"""A page that lists the document's own sections spends no page budget, and a hybrid page seed stands for
the section printed on that page that matches the question.

Real stores of PDFs generated here with PyMuPDF. (1) A 10-K-like report with a printed table of contents
(its own outline entry) before ten sections: a question spanning several sections matches the contents
page best of all (it prints every title), yet it holds none of their text. (2) A page that holds the end
of one section and the headings of the next two: a hybrid seed naming that page must reach the section
whose text made the page match, not only the deepest section starting there (bench/README.md, "Issue 24,
navigation pass 3")."""

from __future__ import annotations

import pytest
from docgen import Text, dest_y, toc_row, write_pdf

from treebuild import Store, ingest
from treebuild.query import navigate
from treebuild.query.listing import listing_pages

FILLER = [f"Paragraph {i} covers routine matters in general words." for i in range(5)]

SECTIONS: list[tuple[str, list[str]]] = [
    ("Item 1. Business", ["Acme designs and sells industrial pumps to utilities."]),
    ("Item 1A. Risk Factors", ["Demand for pumps is cyclical and falls when utilities cut spending."]),
    ("Item 2. Properties", ["We own three plants and lease two warehouses."]),
    ("Item 3. Legal Proceedings", ["A supplier dispute over a warranty claim is pending in state court."]),
    ("Item 5. Market for Common Equity", ["Our shares trade on a national exchange."]),
    ("Item 7. Liquidity and Capital Resources", ["Cash from operations funded the new plant."]),
    ("Item 7A. Quantitative Disclosures About Market Risk", ["A rise in interest rates raises our borrowing cost."]),
    ("Item 8. Financial Statements and Supplementary Data", ["The statements follow the auditor's report."]),
    ("Item 9A. Controls and Procedures", ["Management evaluated the disclosure controls."]),
    ("Item 15. Exhibits and Financial Statement Schedules", ["The exhibits are listed in the index."]),
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Store:
    folder = tmp_path_factory.mktemp("listing")
    contents: list[Text | str] = [Text("Table of Contents", 100, 14, True), "Page"]
    contents += [f"{title} {k + 3}" for k, (title, _) in enumerate(SECTIONS)]
    pages: list[list[Text | str]] = [["ACME CORP ANNUAL REPORT ON FORM 10-K", "For the fiscal year 2022."], contents]
    toc = [[1, "Table of Contents", 2]]
    for title, lines in SECTIONS:
        toc.append([1, title, len(pages) + 1])
        pages.append([Text(title, 100, 14, True), *lines, *FILLER])
    path = write_pdf(folder / "acme-10k.pdf", pages, toc=toc, metadata={"title": "Acme Corp"})
    st = Store(folder / "store")
    result = ingest(path, st, doc_id="acme-10k")
    assert result.status == "created", result.error
    assert "Table of Contents" in [n.title for n in st.tree("acme-10k").walk()]
    return st


def test_the_contents_page_is_a_listing_and_no_other_page_is(report: Store) -> None:
    tree = report.tree("acme-10k")
    texts: dict[int, list[str]] = {}
    for unit in tree.doc.units:
        if unit.page is not None:
            texts.setdefault(unit.page, []).append(unit.text)
    assert listing_pages(tree, texts) == {2}


@pytest.mark.parametrize("question", [
    "How do the risk factors and the legal proceedings relate to liquidity and capital resources?",
    "Which market risk and interest rate disclosures accompany the financial statements and controls?",
])
def test_a_multi_section_question_spends_no_page_on_the_contents(report: Store, question: str) -> None:
    result = navigate(question, report, docs=["acme-10k"], max_pages=6)
    pages = {p for x in result.passages if x.start_page is not None
             for p in range(x.start_page, (x.end_page or x.start_page) + 1)}
    assert pages, result.passages
    assert 2 not in pages, [(x.title, x.start_page, x.end_page, x.stop_reason) for x in result.passages]
    assert all(x.title != "Table of Contents" for x in result.passages)


# --- hybrid: a page seed names the section printed on the page that matches -----------------------

SEGMENTS_HEAD = Text("Segment Operating Performance", 420, 12, True)
AMERICAS_HEAD = Text("Americas", 470, 11, True)


@pytest.fixture(scope="module")
def mdna(tmp_path_factory: pytest.TempPathFactory) -> Store:
    folder = tmp_path_factory.mktemp("seeds")
    pages: list[list[Text | str]] = [
        [Text("Item 2. Management's Discussion and Analysis", 100, 14, True), *FILLER],
        [Text("Quarterly Highlights", 100, 12, True), "The quarter brought new product launches.", *FILLER],
        ["During the quarter the company repurchased 25 million shares of its common stock",
         "for 19 billion dollars under its share repurchase program and paid dividends.",
         SEGMENTS_HEAD, AMERICAS_HEAD,
         Text("Americas net sales rose on higher demand for phones in the region.", 500)],
        [Text("Europe", 100, 11, True), "Europe net sales fell on weaker currencies in the region.", *FILLER],
    ]
    toc = [[1, "Item 2. Management's Discussion and Analysis", 1], [2, "Quarterly Highlights", 2],
           toc_row(2, SEGMENTS_HEAD.text, 3, dest_y(SEGMENTS_HEAD)),
           toc_row(3, AMERICAS_HEAD.text, 3, dest_y(AMERICAS_HEAD)), [3, "Europe", 4]]
    path = write_pdf(folder / "mdna.pdf", pages, toc=toc, metadata={"title": "Acme Corp"})
    st = Store(folder / "store")
    result = ingest(path, st, doc_id="mdna")
    assert result.status == "created", result.error
    spans = {n.title: (n.start_page, n.end_page) for n in st.tree("mdna").walk()}
    assert spans["Quarterly Highlights"] == (2, 3) and spans["Americas"] == (3, 3), spans
    return st


def test_a_page_seed_reaches_the_section_that_ends_on_that_page(mdna: Store) -> None:
    question = "What was the scale of the share repurchase program in the quarter?"
    result = navigate(question, mdna, seeds={"mdna": [3]}, max_pages=3)
    assert [x.title for x in result.passages][:1] == ["Quarterly Highlights"], \
        [(x.title, x.start_page, x.end_page) for x in result.passages]
    assert any(x.start_page is not None and x.start_page <= 3 <= (x.end_page or x.start_page)
               for x in result.passages)
