"""Printed TOCs of every supported layout, in real PDFs generated with PyMuPDF.

Each test writes a small document, reads it with the real PDF reader and checks which
sections ``toc_marks`` finds, on which physical page, at which character and level.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from tocgen import FILLER, WIDTH, Builder, Heading, TocRow

from treebuild.model import SourceDoc
from treebuild.readers.pdf import PdfReader
from treebuild.structure.toc.marks import TocResult, toc_marks


def _read(path: Path) -> SourceDoc:
    return PdfReader().read(path)


def _char(doc: SourceDoc, unit: int, text: str) -> int:
    """Character offset of the typographic line ``text`` on page ``unit``."""
    return next(ln.char for ln in doc.lines(unit) if ln.text == text)


def _where(res: TocResult) -> list[tuple[str, int, int]]:
    return [(m.title, m.pos.unit, m.level) for m in res.marks]


MANUAL_ROWS = [
    TocRow(0, "1 Introduction", "1", bold=True),
    TocRow(1, "1.1 Scope", "1"),
    TocRow(1, "1.2 Terms and definitions", "2"),
    TocRow(0, "2 Design", "3", bold=True),
    TocRow(1, "2.1 Architecture", "4"),
    TocRow(0, "3 Operation", "5", bold=True),
]


def _manual(path: Path, style: str, folios: bool = True, title: str = "Contents",
            rows: list[TocRow] | None = None, cover: str = "Sample Manual", last_page: bool = True) -> Path:
    """The sample manual: a cover, a TOC of ``rows`` (default MANUAL_ROWS) and the body pages whose
    headings MANUAL_ROWS names, with an empty sixth body page unless ``last_page`` is False."""
    b = Builder(path)
    b.blank(cover)
    b.toc(MANUAL_ROWS if rows is None else rows, title=title, style=style)
    _manual_body(b, folios, last_page)
    return b.save()


def _manual_body(b: Builder, folios: bool = True, last_page: bool = True) -> None:
    """The sample manual's body pages, whose headings MANUAL_ROWS names (an empty sixth page unless
    ``last_page`` is False)."""
    f = (lambda n: str(n)) if folios else (lambda n: None)
    b.body([Heading("1 Introduction"), Heading("1.1 Scope", y=400, size=12)], folio=f(1))
    b.body([Heading("1.2 Terms and definitions", size=12)], folio=f(2))
    b.body([Heading("2 Design")], folio=f(3))
    b.body([Heading("2.1 Architecture", y=300, size=12)], folio=f(4))
    b.body([Heading("3 Operation")], folio=f(5))
    if last_page:
        b.body([], folio=f(6))


EXPECTED_MANUAL = [
    ("1 Introduction", 2, 1), ("1.1 Scope", 2, 2), ("1.2 Terms and definitions", 3, 2),
    ("2 Design", 4, 1), ("2.1 Architecture", 5, 2), ("3 Operation", 6, 1),
]


@pytest.mark.parametrize("style", ["dots", "aligned"])
def test_numbered_toc_with_and_without_leaders(tmp_path: Path, style: str) -> None:
    doc = _read(_manual(tmp_path / f"{style}.pdf", style))
    res = toc_marks(doc)
    assert res is not None
    assert res.toc_pages == [1]
    assert (res.entries, res.placed, res.dropped) == (6, 6, [])
    assert _where(res) == EXPECTED_MANUAL
    assert all(m.origin == "toc" for m in res.marks)
    assert all(m.confidence >= 0.9 for m in res.marks)  # exact heading on the expected page
    assert res.page_source == "folios"


def test_section_starting_mid_page_starts_at_its_heading(tmp_path: Path) -> None:
    doc = _read(_manual(tmp_path / "mid.pdf", "dots"))
    res = toc_marks(doc)
    assert res is not None
    scope = next(m for m in res.marks if m.title == "1.1 Scope")
    assert scope.pos.char == _char(doc, 2, "1.1 Scope") > 0
    arch = next(m for m in res.marks if m.title == "2.1 Architecture")
    assert arch.pos.char == _char(doc, 5, "2.1 Architecture") > 0
    intro = next(m for m in res.marks if m.title == "1 Introduction")
    assert intro.pos.char == 0  # heading at the top of its page


def test_letter_spaced_title_and_unnumbered_entries_by_indentation(tmp_path: Path) -> None:
    b = Builder(tmp_path / "indent.pdf")
    b.blank("Field Study")
    b.toc([TocRow(0, "Overview", "1"), TocRow(1, "Background", "1"), TocRow(1, "Goals", "2"),
           TocRow(0, "Methods", "3"), TocRow(1, "Sampling plan", "3"), TocRow(0, "Results", "4")],
          title="C O N T E N T S", style="aligned")
    b.body([Heading("Overview"), Heading("Background", y=300, size=12)], folio="1")
    b.body([Heading("Goals", size=12)], folio="2")
    b.body([Heading("Methods"), Heading("Sampling plan", y=500, size=12)], folio="3")
    b.body([Heading("Results")], folio="4")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert _where(res) == [("Overview", 2, 1), ("Background", 2, 2), ("Goals", 3, 2), ("Methods", 4, 1),
                           ("Sampling plan", 4, 2), ("Results", 5, 1)]


def _front_matter(path: Path, folios: bool, labels: bool) -> Path:
    b = Builder(path)
    b.blank("Annual Handbook")
    rows = [TocRow(0, "Preface", "ii"), TocRow(0, "Acknowledgements", "iii"), TocRow(0, "1 Introduction", "1"),
            TocRow(0, "2 Eligibility rules", "3"), TocRow(1, "2.1 Exceptions", "4"), TocRow(0, "3 Appeals", "5"),
            TocRow(0, "Appendix A Glossary", "A-1")]
    b.toc(rows, style="dots", folio="i" if folios else None)
    b.body([Heading("Preface")], folio="ii" if folios else None, lines=12)
    b.body([Heading("Acknowledgements")], folio="iii" if folios else None, lines=12)
    for n, heads in enumerate([[Heading("1 Introduction")], [], [Heading("2 Eligibility rules")],
                               [Heading("2.1 Exceptions", y=420, size=12)], [Heading("3 Appeals")]], start=1):
        b.body(heads, folio=str(n) if folios else None)
    b.body([Heading("Appendix A Glossary")], folio="A-1" if folios else None)
    b.body([], folio="A-2" if folios else None)
    if labels:
        b.labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                  {"startpage": 4, "prefix": "", "style": "D", "firstpagenum": 1},
                  {"startpage": 9, "prefix": "A-", "style": "D", "firstpagenum": 1}])
    return b.save()


EXPECTED_FRONT = [("Preface", 2), ("Acknowledgements", 3), ("1 Introduction", 4), ("2 Eligibility rules", 6),
                  ("2.1 Exceptions", 7), ("3 Appeals", 8), ("Appendix A Glossary", 9)]


@pytest.mark.parametrize(("folios", "labels", "source"), [
    (True, False, "folios"),  # printed "i, ii, iii" then "1, 2, ..." then "A-1"
    (False, True, "labels"),  # nothing printed, PDF page labels
    (False, False, "offset"),  # nothing at all: offsets voted from titles found in the body
])
def test_roman_front_matter_and_arabic_body_offset(tmp_path: Path, folios: bool, labels: bool, source: str) -> None:
    doc = _read(_front_matter(tmp_path / f"front-{source}.pdf", folios, labels))
    res = toc_marks(doc)
    assert res is not None
    assert res.page_source == source
    assert [(m.title, m.pos.unit) for m in res.marks] == EXPECTED_FRONT  # TOC says 1, physical page is 5
    assert res.dropped == []


def test_entries_wrapped_over_two_lines(tmp_path: Path) -> None:
    long = "4 Procedures for handling exceptional conditions during the overnight batch runs"
    b = Builder(tmp_path / "wrap.pdf")
    b.blank("Operations Guide")
    b.toc([TocRow(0, "1 Startup", "1"), TocRow(0, long, "2"), TocRow(1, "4.1 Escalation", "3"),
           TocRow(0, "5 Shutdown", "4")], style="dots", width=230)
    b.body([Heading("1 Startup")], folio="1")
    b.body([Heading(long, size=11)], folio="2")
    b.body([Heading("4.1 Escalation", size=12)], folio="3")
    b.body([Heading("5 Shutdown")], folio="4")
    doc = _read(b.save())
    rows = [ln.text for ln in doc.lines(1)]
    assert not any(long in t for t in rows)  # the TOC really wraps the title
    res = toc_marks(doc)
    assert res is not None
    assert [e.title for e in res.parsed] == ["1 Startup", long, "4.1 Escalation", "5 Shutdown"]
    assert _where(res) == [("1 Startup", 2, 1), (long, 3, 1), ("4.1 Escalation", 4, 2), ("5 Shutdown", 5, 1)]


def test_two_column_toc_reads_left_column_first(tmp_path: Path) -> None:
    names = ["Apples", "Bananas", "Cherries", "Dates", "Elderberries", "Figs", "Grapes", "Honeydew"]
    b = Builder(tmp_path / "twocol.pdf")
    b.blank("Fruit Catalogue")
    b.toc([TocRow(0, f"{i} {n}", str(i)) for i, n in enumerate(names, start=1)], style="dots", columns=2)
    for i, n in enumerate(names, start=1):
        b.body([Heading(f"{i} {n}")], folio=str(i), lines=10)
    doc = _read(b.save())
    ys = {ln.text.split(" .")[0]: ln.y0 for ln in doc.lines(1)}
    assert abs(ys["1 Apples"] - ys["5 Elderberries"]) < 1  # the columns share their rows
    res = toc_marks(doc)
    assert res is not None
    assert [(m.title, m.pos.unit) for m in res.marks] == [(f"{i} {n}", i + 1) for i, n in enumerate(names, start=1)]


def _subjects(n: int, first_page: int = 1) -> list[TocRow]:
    """``n`` chapter rows, ``i Subject i overview`` printed on page ``i + first_page - 1``."""
    return [TocRow(0, f"{i} Subject {i} overview", str(i + first_page - 1)) for i in range(1, n + 1)]


def _subject_pages(b: Builder, rows: list[TocRow]) -> list[str]:
    """A body page per row with its heading and folio; the titles, for the checks."""
    for r in rows:
        b.body([Heading(r.text)], folio=r.ref, lines=6)
    return [r.text for r in rows]


def test_multi_page_toc_continues_without_title(tmp_path: Path) -> None:
    rows = [TocRow(0, f"{i} Subject {i} overview", str(i)) for i in range(1, 41)]
    b = Builder(tmp_path / "multi.pdf")
    b.blank("Reference")
    b.toc(rows[:32], style="dots")
    b.toc(rows[32:], title=None, style="dots")
    for i in range(1, 41):
        b.body([Heading(f"{i} Subject {i} overview")], folio=str(i), lines=6)
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert res.toc_pages == [1, 2]
    assert res.placed == 40
    assert [m.pos.unit for m in res.marks] == list(range(3, 43))


SEC_ROWS: list[tuple[str, str, str | None]] = [
    ("PART I", "", None),
    ("Item 1.", "Business", "1"),
    ("Item 1A.", "Risk Factors", "2"),
    ("Item 2.", "Properties", "3"),
    ("PART II", "", None),
    ("Item 5.", "Market for Registrant's Common Equity", "4"),
    ("Item 7.", "Management's Discussion and Analysis", "5"),
    ("Item 8.", "Financial Statements and Supplementary Data", "6"),
]


def test_sec_item_page_table(tmp_path: Path) -> None:
    b = Builder(tmp_path / "10k.pdf")
    b.blank("FORM 10-K")
    b.sec_toc(SEC_ROWS, folio=None)
    b.body([Heading("PART I", y=80, size=12), Heading("Item 1. Business", y=110, size=11)], folio="1")
    b.body([Heading("Item 1A. Risk Factors", y=380, size=11)], folio="2")
    b.body([Heading("Item 2. Properties", size=11)], folio="3")
    b.body([Heading("PART II", y=80, size=12), Heading("Item 5. Market for Registrant's Common Equity", y=110,
                                                       size=11)], folio="4")
    b.body([Heading("Item 7. Management's Discussion and Analysis", size=11)], folio="5")
    b.body([Heading("Item 8. Financial Statements and Supplementary Data", size=11)], folio="6")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert _where(res) == [
        ("PART I", 2, 1), ("Item 1. Business", 2, 2), ("Item 1A. Risk Factors", 3, 2), ("Item 2. Properties", 4, 2),
        ("PART II", 5, 1), ("Item 5. Market for Registrant's Common Equity", 5, 2),
        ("Item 7. Management's Discussion and Analysis", 6, 2),
        ("Item 8. Financial Statements and Supplementary Data", 7, 2),
    ]
    risk = res.marks[2]
    assert risk.pos.char == _char(doc, 3, "Item 1A. Risk Factors") > 0
    item1 = res.marks[1]
    assert item1.pos.char == _char(doc, 2, "Item 1. Business") > res.marks[0].pos.char


def test_toc_without_page_numbers_is_matched_in_order(tmp_path: Path) -> None:
    titles = ["1 Scope", "1.1 Background", "1.2 Authority", "2 Procedures", "2.1 Intake", "2.2 Review", "3 Records"]
    b = Builder(tmp_path / "nopages.pdf")
    b.blank("Internal Manual")
    b.toc([TocRow(t.count("."), t) for t in titles], title="Table of Contents", style="plain")
    b.body([Heading("1 Scope"), Heading("1.1 Background", y=300, size=12), Heading("1.2 Authority", y=600,
                                                                                   size=12)])
    b.body([])
    b.body([Heading("2 Procedures"), Heading("2.1 Intake", y=400, size=12)])
    b.body([Heading("2.2 Review", y=200, size=12)])
    b.body([Heading("3 Records")])
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert res.paged is False
    assert _where(res) == [("1 Scope", 2, 1), ("1.1 Background", 2, 2), ("1.2 Authority", 2, 2),
                           ("2 Procedures", 4, 1), ("2.1 Intake", 4, 2), ("2.2 Review", 5, 2), ("3 Records", 6, 1)]
    authority = res.marks[2]
    assert authority.pos.char == _char(doc, 2, "1.2 Authority")


def test_toc_without_page_numbers_over_two_pages_keeps_the_entries_after_a_group_row(tmp_path: Path) -> None:
    """A contents without page numbers that goes on to the next page, with an unnumbered group row
    (``Forms``) on its first page: the entries under that row are entries too (the document's text
    does not start on a page whose contents continues on the next one)."""
    first = ["1 Scope", "1.1 Background", "1.2 Authority", "2 Procedures", "2.1 Intake", "Forms", "3 Intake form",
             "4 Review form"]
    second = ["5 Appeal form", "6 Closing form", "7 Transfer form", "8 Records"]
    b = Builder(tmp_path / "nopages2.pdf")
    b.blank("Internal Manual")
    b.toc([TocRow(0 if "." not in t else 1, t) for t in first], title="Table of Contents", style="plain")
    b.toc([TocRow(0, t) for t in second], title=None, style="plain")
    numbered = [t for t in first + second if t[0].isdigit()]
    for t in numbered:
        b.body([Heading(t)])
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None and res.paged is False
    placed = [(m.title, m.pos.unit) for m in res.marks if m.title != "Forms"]
    assert placed == [(t, 3 + i) for i, t in enumerate(numbered)]


def test_entry_missing_from_body_is_dropped_and_counted(tmp_path: Path) -> None:
    rows = MANUAL_ROWS[:4] + [TocRow(1, "2.2 Retired interfaces", "3")] + MANUAL_ROWS[4:]
    doc = _read(_manual(tmp_path / "missing.pdf", "dots", rows=rows, last_page=False))
    res = toc_marks(doc)
    assert res is not None
    assert res.entries == 7 and res.placed == 6
    assert res.dropped == ["2.2 Retired interfaces"]
    assert "2.2 Retired interfaces" not in [m.title for m in res.marks]
    assert [(f.code, f.stage, f.page) for f in res.warnings] == [("toc_entries_dropped", "structure", 2)]
    assert "1 of 7 entries" in res.warnings[0].text
    assert _where(res) == EXPECTED_MANUAL


def test_heading_one_page_off_is_repaired(tmp_path: Path) -> None:
    b = Builder(tmp_path / "off.pdf")
    b.blank("Sample Manual")
    b.toc([TocRow(0, "1 Introduction", "1"), TocRow(0, "2 Installation", "2"), TocRow(0, "3 Usage", "3"),
           TocRow(0, "4 Troubleshooting", "4")], style="dots")
    b.body([Heading("1 Introduction")], folio="1")
    b.body([], folio="2")
    b.body([Heading("2 Installation")], folio="3")  # the TOC says 2: stale by one page
    b.body([Heading("3 Usage", y=500)], folio="4")  # stale too
    b.body([Heading("4 Troubleshooting")], folio="5")  # and this one is two pages off
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert [(m.title, m.pos.unit) for m in res.marks] == [("1 Introduction", 2), ("2 Installation", 4),
                                                        ("3 Usage", 5), ("4 Troubleshooting", 6)]
    exact, moved = res.marks[0], res.marks[3]
    assert exact.confidence > moved.confidence


def test_financial_table_is_not_a_toc(tmp_path: Path) -> None:
    b = Builder(tmp_path / "fin.pdf")
    b.blank("Annual Report")
    b.table([["Net revenue", "12", "14"], ["Cost of revenue", "7", "9"], ["Research and development", "3", "2"],
             ["Sales and marketing", "5", "6"], ["General and administrative", "2", "3"],
             ["Operating income", "8", "4"], ["Interest expense", "1", "1"], ["Income before taxes", "7", "3"],
             ["Provision for taxes", "2", "1"], ["Net income", "5", "2"]],
            title="Condensed Statements of Income (in billions)")
    b.table([["Segment revenue", "12"], ["Segment costs", "7"], ["Other items", "15"], ["Adjustments", "3"],
             ["Eliminations", "9"], ["Corporate", "4"], ["Total revenue", "11"], ["Total costs", "2"]],
            title="Segment information")
    for n in range(1, 6):
        b.body([Heading(f"Note {n}. Accounting matters")], folio=str(n))
    doc = _read(b.save())
    assert toc_marks(doc) is None


def test_list_of_figures_is_not_read_as_sections(tmp_path: Path) -> None:
    rows = MANUAL_ROWS + [TocRow(0, "List of Figures"), TocRow(0, "Figure 1 System layout", "4"),
                          TocRow(0, "Figure 2 Data flow", "5")]
    doc = _read(_manual(tmp_path / "lof.pdf", "dots", rows=rows, cover="Design Report", last_page=False))
    res = toc_marks(doc)
    assert res is not None
    assert [e.title for e in res.parsed] == [r.text for r in MANUAL_ROWS]
    assert _where(res) == EXPECTED_MANUAL


def test_back_of_book_index_is_not_a_toc(tmp_path: Path) -> None:
    b = Builder(tmp_path / "index.pdf")
    for n in range(1, 40):
        b.body([Heading(f"Lesson {n}")] if n % 3 == 1 else [], folio=str(n), lines=20)
    b.toc([TocRow(0, f"{w} term", str(p)) for p, w in enumerate(
        ["abacus", "balance", "cipher", "delta", "engine", "factor", "gamma", "harbor", "index", "joule"],
        start=2)], title="Index", style="dots")
    doc = _read(b.save())
    assert toc_marks(doc) is None


def test_toc_of_another_document_is_not_trusted(tmp_path: Path) -> None:
    b = Builder(tmp_path / "other.pdf")
    b.blank("Collected Papers")
    b.toc([TocRow(0, f"{i} Unrelated chapter {w}", str(i)) for i, w in enumerate(
        ["north", "south", "east", "west", "center"], start=1)], style="dots")
    for n in range(1, 6):
        b.body([Heading(f"Paper {n}")], folio=str(n))
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert res.marks == [] and res.placed == 0 and len(res.dropped) == 5
    assert [(f.code, f.page) for f in res.warnings] == [("toc_ignored", 2)]


def test_running_header_repeating_a_title_does_not_steal_the_section(tmp_path: Path) -> None:
    b = Builder(tmp_path / "running.pdf")
    b.blank("Guide")
    b.toc([TocRow(0, "1 Setup", "1"), TocRow(0, "2 Tuning", "3"), TocRow(0, "3 Limits", "4")], style="dots")
    b.body([Heading("1 Setup")], folio="1")
    b.body([], folio="2", running="1 Setup")
    b.body([Heading("2 Tuning", y=350)], folio="3", running="1 Setup")
    b.body([Heading("3 Limits")], folio="4", running="2 Tuning")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    tuning = res.marks[1]
    assert (tuning.pos.unit, tuning.pos.char) == (4, _char(doc, 4, "2 Tuning"))
    assert res.marks[2].pos.unit == 5


def test_toc_page_itself_never_counts_as_the_heading(tmp_path: Path) -> None:
    b = Builder(tmp_path / "self.pdf")
    b.blank("Guide", folio="1")
    b.toc([TocRow(0, "Introduction", "2"), TocRow(0, "Configuration", "4"), TocRow(0, "Maintenance", "5")],
          style="dots", folio="2")  # the TOC is printed page 2, where the TOC claims Introduction starts
    b.body([Heading("Introduction")], folio="3")
    b.body([], folio="4")
    b.body([Heading("Configuration")], folio="5")
    b.body([Heading("Maintenance", y=300)], folio="6")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert [(m.title, m.pos.unit) for m in res.marks] == [("Introduction", 2), ("Configuration", 4),
                                                        ("Maintenance", 5)]


def test_reworded_heading_is_found_by_its_number_with_lower_confidence(tmp_path: Path) -> None:
    b = Builder(tmp_path / "reworded.pdf")
    b.blank("Clinical Protocol")
    b.toc([TocRow(0, "5 Subject Enrollment", "1"), TocRow(1, "5.1 Participant Inclusion Criteria", "1"),
           TocRow(2, "5.1.1 Informed Consent", "1"), TocRow(1, "5.2 Participant Exclusion Criteria", "2"),
           TocRow(2, "5.2.1 Screen Failures", "2")], style="aligned")
    b.body([Heading("5 Subject Enrollment"), Heading("5.1 PARTICIPANT IMPROVEMENT CRITERIA", y=200, size=12),
            Heading("5.1.1 Informed Consent", y=450, size=11)], folio="1")
    b.body([Heading("5.2 Participant Exclusion Criteria", size=12), Heading("5.2.1 Screen Failures", y=400,
                                                                            size=11)], folio="2")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert res.placed == 5
    inclusion = res.marks[1]
    assert inclusion.pos == (2, _char(doc, 2, "5.1 PARTICIPANT IMPROVEMENT CRITERIA"))
    assert inclusion.confidence < min(m.confidence for i, m in enumerate(res.marks) if i != 1)
    assert res.marks[2].pos.char == _char(doc, 2, "5.1.1 Informed Consent")


def test_parenthetical_abbreviation_and_glossary_line_of_the_same_words(tmp_path: Path) -> None:
    b = Builder(tmp_path / "mdna.pdf")
    b.blank("Quarterly Report")
    b.toc([TocRow(0, "Financial Statements", "1"), TocRow(1, "Key Terms", "2"),
           TocRow(0, "Management's Discussion and Analysis (MD&A)"), TocRow(1, "Segment Results", "4"),
           TocRow(1, "Liquidity", "5")], style="aligned")
    b.body([Heading("Financial Statements")], folio="1")
    b.body([Heading("Key Terms"), Heading("Management's Discussion and Analysis", y=300, size=10, bold=False)],
           folio="2")  # a glossary line with the same words, in body type
    b.body([Heading("Management's Discussion and Analysis")], folio="3")
    b.body([Heading("Segment Results")], folio="4")
    b.body([Heading("Liquidity")], folio="5")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert [(m.title, m.pos.unit, m.level) for m in res.marks] == [
        ("Financial Statements", 2, 1), ("Key Terms", 3, 2), ("Management's Discussion and Analysis (MD&A)", 4, 1),
        ("Segment Results", 5, 2), ("Liquidity", 6, 2)]


@pytest.mark.parametrize("shift", [-36.0, 0.0])
def test_mirrored_margins_keep_indentation_levels_across_pages(tmp_path: Path, shift: float) -> None:
    first = [TocRow(0, "Overview", "1")] + [TocRow(1, f"Topic {w}", "1") for w in
                                             ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot")]
    second = [TocRow(1, "Topic golf", "2"), TocRow(0, "Installation", "3"), TocRow(1, "Requirements", "3")]
    b = Builder(tmp_path / "mirror.pdf")
    b.blank("Guide")
    b.toc(first, style="aligned")
    b.toc(second, title=None, style="aligned", shift=shift)  # a left-hand page: the block moves left
    b.body([Heading("Overview")] + [Heading(r.text, y=140 + 60 * i, size=12) for i, r in enumerate(first[1:])],
           folio="1")
    b.body([Heading("Topic golf", size=12)], folio="2")
    b.body([Heading("Installation"), Heading("Requirements", y=300, size=12)], folio="3")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert res.toc_pages == [1, 2]
    assert [m.level for m in res.marks] == [1, 2, 2, 2, 2, 2, 2, 2, 1, 2]


def test_numbered_lines_in_a_short_document_are_not_a_toc(tmp_path: Path) -> None:
    """Lines ending in rising numbers with no contents title cannot be a TOC when the numbers run
    past the document's pages (found by hypothesis: body lines "s1 body line 28" in 2 pages)."""
    doc = pymupdf.open()
    for p in range(2):
        page = doc.new_page()
        for k in range(30):
            page.insert_text((72, 60 + k * 24), f"s{p} body line {k + p * 30}", fontsize=11)
    path = tmp_path / "lines.pdf"
    doc.save(path)
    assert toc_marks(_read(path)) is None


def test_group_heading_without_page_starts_at_its_first_entry(tmp_path: Path) -> None:
    """A page-less group line ("Financial Statements" over its statements, as in Intel's 10-Q)
    becomes the parent of its entries instead of being dropped and letting them nest under the
    previous section."""
    b = Builder(tmp_path / "group.pdf")
    b.blank("Quarterly Report")
    b.toc([TocRow(0, "Overview", "1"), TocRow(0, "Financial Statements"), TocRow(1, "Balance Sheets", "2"),
           TocRow(1, "Statements of Income", "3"), TocRow(0, "Risk Factors", "4")], style="aligned")
    b.body([Heading("Overview")], folio="1")
    b.body([Heading("Balance Sheets")], folio="2")
    b.body([Heading("Statements of Income")], folio="3")
    b.body([Heading("Risk Factors")], folio="4")
    res = toc_marks(_read(b.save()))
    assert res is not None and res.dropped == []
    assert [(m.title, m.pos.unit + 1, m.level) for m in res.marks] == [
        ("Overview", 3, 1), ("Financial Statements", 4, 1), ("Balance Sheets", 4, 2),
        ("Statements of Income", 5, 2), ("Risk Factors", 6, 1)]
    group = res.marks[1]
    assert group.confidence <= 0.5 and group.pos <= res.marks[2].pos


def test_two_column_toc_under_a_wide_title_block(tmp_path: Path) -> None:
    """A two-column TOC on a page that opens with a centred title block wider than a column (the
    manual's title, author, date): the block sits above the columns, so the columns are still read
    left first (they used to be read row by row across both, every level off)."""
    names = ["Apples", "Bananas", "Cherries", "Dates", "Elderberries", "Figs"]
    rows: list[TocRow] = []
    for i, n in enumerate(names, start=1):
        rows += [TocRow(0, f"{i} {n}", str(i), bold=True), TocRow(1, f"{i}.1 Growing {n.lower()}", str(i)),
                 TocRow(1, f"{i}.2 Storing {n.lower()}", str(i))]
    b = Builder(tmp_path / "twocol.pdf")
    unit = b.toc(rows, columns=2, top=120)
    page = b.doc[unit]
    for y, text, size in ((36, "Documentation of the fruit catalogue package for growers", 16),
                          (56, "A. Gardener, 10 January 2023", 10)):
        b.text(page, (WIDTH - b.width(text, size)) / 2, y, text, size=size)
    for i, n in enumerate(names, start=1):
        b.body([Heading(f"{i} {n}"), Heading(f"{i}.1 Growing {n.lower()}"), Heading(f"{i}.2 Storing {n.lower()}")],
               folio=str(i), lines=4)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert [(m.title, m.level) for m in res.marks] == [(r.text, r.indent + 1) for r in rows]


def test_entries_only_in_the_right_column_band(tmp_path: Path) -> None:
    """A page whose "title ... page" rows all stand right of the middle, under full-width text (an
    index column beside a figure): the column split has no left rows to align to and reads the rows
    as they are (it used to fail on an empty column)."""
    from treebuild.structure.toc.detect import page_rows

    b = Builder(tmp_path / "right.pdf")
    page = b.doc.new_page(width=WIDTH, height=792)
    for k in range(3):
        b.text(page, 72, 90 + 14 * k, "Full-width prose that runs across the whole text column of the page here.")
    for k, name in enumerate(["Alpha", "Beta", "Gamma", "Delta"]):
        b.text(page, 330, 200 + 16 * k, f"{name} . . . . . . . . . . {k + 5}")
    doc = _read(b.save())
    rows = page_rows(doc, 0)
    assert [r.text.split()[0] for r in rows][-4:] == ["Alpha", "Beta", "Gamma", "Delta"]


def _multicol_page(b: Builder, rows: list[TocRow], *, offset: float, split: int, label_right: bool) -> int:
    """A two-column TOC set like LaTeX's ``multicol``: each row's label, title and page number are
    separate text runs (the page number right-aligned, a dot leader between), the gutter is narrow,
    chapters have space above them and the right column's baselines sit ``offset`` points below
    the left one's. With ``label_right`` the
    chapter labels are right-aligned in their box (``10`` starts left of ``7``). Under the columns,
    the first chapter starts on the same page."""
    page = b.doc.new_page(width=WIDTH, height=792)
    for y, text, size in ((60, "The fruit catalogue package", 18), (84, "A. Gardener, version 2.1", 11)):
        b.text(page, (WIDTH - b.width(text, size)) / 2, y, text, size=size)
    b.text(page, 72, 130, "Contents", size=13, bold=True)
    for c, part in enumerate((rows[:split], rows[split:])):
        x0, x1 = 72 + c * 238, 300 + c * 238  # a gutter narrower than a line is high
        y = 150 + (offset if c else 0)
        for r in part:
            y += 6 if r.indent == 0 else 0  # space above a chapter: the columns' rows do not pair up
            label, title = r.text.split(" ", 1)
            lx = x0 + 18 * r.indent
            right_aligned = label_right and r.indent == 0
            b.text(page, lx + 12 - b.width(label) if right_aligned else lx, y, label, bold=r.bold)
            tx = lx + (18 if r.indent == 0 else 26)  # a chapter title starts where section labels do
            if "|" in title:  # a title wrapped onto a second line under its first word
                head, title = title.split("|")
                b.text(page, tx, y, head, bold=r.bold)
                y += 12
            b.text(page, tx, y, title, bold=r.bold)
            num = x1 - b.width(r.ref or "")
            if r.indent:
                start = tx + b.width(title) + 4
                b.text(page, start, y, ". " * max(2, int((num - 6 - start) / b.width(". "))))
            b.text(page, num, y, r.ref or "")
            y += 14
    b.text(page, 72, 480, rows[0].text, size=14, bold=True)
    for k in range(4):
        b.text(page, 72, 504 + 14 * k, FILLER[k])
    b.folio(page, "1")
    return page.number


def _fruit_rows(chapters: int) -> list[TocRow]:
    """Chapter ``i`` starts on printed page ``2i - 1``, its two sections share page ``2i``."""
    rows: list[TocRow] = []
    for i in range(1, chapters + 1):
        rows += [TocRow(0, f"{i} Chapter on fruit {i}", str(2 * i - 1), bold=True),
                 TocRow(1, f"{i}.1 Growing kind {i}", str(2 * i)), TocRow(1, f"{i}.2 Storing kind {i}", str(2 * i))]
    return rows


def _fruit_body(b: Builder, chapters: int) -> None:
    """The body after the TOC page that holds chapter 1's heading."""
    for i in range(1, chapters + 1):
        if i > 1:
            title = f"{i} Chapter on fruit {i}" + (" from lands far away" if i == chapters else "")
            b.body([Heading(title, size=14)], folio=str(2 * i - 1), lines=8)
        b.body([Heading(f"{i}.1 Growing kind {i}", size=12), Heading(f"{i}.2 Storing kind {i}", y=300, size=12)],
               folio=str(2 * i), lines=8)


@pytest.mark.parametrize("label_right", [False, True])
def test_two_column_toc_with_its_own_baselines_per_column(tmp_path: Path, label_right: bool) -> None:
    """A ``multicol`` TOC: the right column's rows sit two points below the left one's, so reading
    rows across the page paired unrelated entries and the page was no TOC at all. The columns are
    read one after the other, down to the last page number (the first chapter's heading under them
    is a section, not an entry), and the right column is moved onto the left one's margins by the
    move that fits most rows (right-aligned chapter labels make ``10`` start left of ``7``: aligning
    the leftmost row put every other row a step in). A title wrapped in the narrow column is one
    entry: the column's page numbers, not the full-width text under the TOC, mark its right edge."""
    rows = _fruit_rows(12)
    printed = [TocRow(r.indent, r.text, r.ref, r.bold) for r in rows]
    printed[-3].text = "12 Chapter on fruit 12 from lands far|away"  # wrapped in the narrow column
    rows[-3].text = "12 Chapter on fruit 12 from lands far away"
    b = Builder(tmp_path / "multicol.pdf")
    _multicol_page(b, printed, offset=2.0, split=20, label_right=label_right)
    _fruit_body(b, 12)
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert [(e.title, e.level) for e in res.parsed if e.page] == [(r.text, r.indent + 1) for r in rows]
    assert [(m.title, m.pos.unit, m.level) for m in res.marks] == [
        (r.text, int(r.ref or 0) - 1, r.indent + 1) for r in rows]


def test_toc_ending_at_the_top_of_a_page_with_the_first_section_under_it(tmp_path: Path) -> None:
    """A TOC's last page holds its last few rows at the top and the first section under them (the
    section's heading and a page of text): that page continues the TOC although the entries are a
    small share of its rows (it used to be judged on the whole page, and the last rows were lost)."""
    rows = _subjects(36)
    b = Builder(tmp_path / "tail.pdf")
    b.blank("Reference")
    b.toc(rows[:32], style="dots")
    page = b.doc.new_page(width=WIDTH, height=792)
    y = 80.0
    for r in rows[32:]:
        b._toc_row(page, r, 72, 540, y, "dots", 18.0, None)
        y += 18
    b.text(page, 72, y + 30, "Preface", size=16, bold=True)
    for k in range(30):
        b.text(page, 72, y + 56 + 14 * k, FILLER[k % len(FILLER)])
    titles = _subject_pages(b, rows)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert res.toc_pages == [1, 2]
    assert [m.title for m in res.marks] == titles


def test_a_short_contents_before_the_full_table_of_contents(tmp_path: Path) -> None:
    """A book prints a ``Short Contents`` (its chapters) and then the full ``Table of Contents``
    (chapters and sections) a page or two later: the full one is the TOC to read (the search used to
    stop at the short one, and the sections were left to typography)."""
    chapters = [TocRow(0, f"{i} Chapter {i} of the handbook", str(2 * i - 1), bold=True) for i in range(1, 9)]
    full: list[TocRow] = []
    for c in chapters:
        i = int(c.text.split()[0])
        full += [c, TocRow(1, f"{i}.1 First topic of chapter {i}", str(2 * i)),
                 TocRow(1, f"{i}.2 Second topic of chapter {i}", str(2 * i))]
    b = Builder(tmp_path / "book.pdf")
    b.blank("The Handbook")
    b.toc(chapters, title="Short Contents")
    b.blank()
    b.toc(full, title="Table of Contents")
    for i in range(1, 9):
        b.body([Heading(f"{i} Chapter {i} of the handbook")], folio=str(2 * i - 1), lines=8)
        b.body([Heading(f"{i}.1 First topic of chapter {i}", size=12),
                Heading(f"{i}.2 Second topic of chapter {i}", y=300, size=12)], folio=str(2 * i), lines=8)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert res.toc_pages == [3]
    assert [(m.title, m.level) for m in res.marks] == [(r.text, r.indent + 1) for r in full]


def test_a_running_head_over_the_toc_pages_does_not_break_it(tmp_path: Path) -> None:
    """A book's TOC pages after the first carry a running head ``CONTENTS`` with the page's folio on
    the same line: read as an entry (``CONTENTS ... 4``) it made the page numbers fall back from 48 to
    4, so the TOC seemed to end, and a later page of it was taken alone."""
    rows = _subjects(60)
    b = Builder(tmp_path / "book.pdf")
    b.blank("Reference")
    for k, part in enumerate((rows[:20], rows[20:40], rows[40:])):
        unit = b.toc(part, title="Contents" if k == 0 else None, top=120 if k == 0 else 90)
        if k:
            page = b.doc[unit]
            b.text(page, 72, 50, "CONTENTS", size=9)
            b.text(page, 540 - b.width(str(unit + 1), 9), 50, str(unit + 1), size=9)
    titles = _subject_pages(b, rows)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert res.toc_pages == [1, 2, 3]
    assert [m.title for m in res.marks] == titles


def test_a_toc_that_starts_at_the_foot_of_the_cover_page(tmp_path: Path) -> None:
    """The cover page holds the title block, an epigraph and a figure's labels, and at its foot the
    ``Contents`` title with the first entries and the title's footnote; the TOC goes on over the next
    page. The share of entries is read under the contents title (over the whole page they were too
    few, and the first entries were lost), and the footnote is not an entry."""
    rows = _subjects(40, first_page=3)
    b = Builder(tmp_path / "cover.pdf")
    page = b.doc.new_page(width=WIDTH, height=792)
    b.text(page, 150, 120, "The orchard tutorial and reference manual*", size=16)
    for k, line in enumerate(["Ann Gardener", "Fruit Institute", "September 15, 2002",
                              "Growing fruit is in some ways an incredible pastime;",
                              "it basically consists of patience and water.", "Old proverb, page 632."]):
        b.text(page, 200, 160 + 16 * k, line)
    for k, label in enumerate(["a", "b", "c", "d", "e", "apple", "pear", "Double box with a shadow"]):
        b.text(page, 120 + 40 * (k % 5), 300 + 24 * k, label)
    b.text(page, 72, 560, "Contents", size=14, bold=True)
    y = 590.0
    for r in rows[:4]:
        y = b._toc_row(page, r, 72, 540, y, "dots", 16.0, None)
    b.text(page, 80, 672, "*This document describes version 1.0 of the package.", size=8)
    b.folio(page, "1")
    b.toc(rows[4:], title=None, folio="2")
    titles = _subject_pages(b, rows)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert res.toc_pages == [0, 1]
    assert [e.title for e in res.parsed] == titles
    assert [m.title for m in res.marks] == titles



@pytest.mark.parametrize("cells", [("CONTENTS", "Orchard manual 5.4"), ("Orchard manual v2.14 (2022/06/12)",),
                                   ("{folio}", "Orchard manual 5.4", "CONTENTS")])
def test_a_running_head_with_the_page_folio_over_the_toc_pages(tmp_path: Path, cells: tuple[str, ...]) -> None:
    """A book's TOC pages after the first carry a running head (``CONTENTS | the book's title | folio``, the
    title and version and the folio, or on facing pages the folio first) a little lower than the narrow
    margin band. Read as an entry, a folio at the end made the page numbers fall back, so the TOC seemed to
    end after its first page and a later page of it was taken alone; a folio first made the head a
    numbered entry placed on the chapter of that number, the entries after it nested under it."""
    rows = _subjects(60)
    b = Builder(tmp_path / "book.pdf")
    b.blank("Reference")
    for k, part in enumerate((rows[:20], rows[20:40], rows[40:])):
        unit = b.toc(part, title="Contents" if k == 0 else None, top=120 if k == 0 else 100)
        if k:
            page = b.doc[unit]
            folio = str(unit + 1)
            for x, cell in zip((72, 260, 470), cells, strict=False):
                b.text(page, x, 64, cell.format(folio=folio), size=10)
            if "{folio}" not in cells:
                b.text(page, 540 - b.width(folio), 64, folio, size=10)
    titles = _subject_pages(b, rows)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert res.toc_pages == [1, 2, 3]
    assert [e.title for e in res.parsed] == titles
    assert [m.title for m in res.marks] == titles


def test_a_first_entry_at_the_top_of_the_toc_page_is_not_its_running_head(tmp_path: Path) -> None:
    """Under its contents title a TOC may list itself (``Contents 2``) or a first chapter on page 1, in
    the top band and pointing no later than the TOC's own page: entries, not a running head's folio."""
    rows = [TocRow(0, "Contents", "2")] + _subjects(30, first_page=3)
    b = Builder(tmp_path / "top.pdf")
    b.blank("Reference")
    page = b.doc.new_page(width=WIDTH, height=792)
    b.text(page, 72, 50, "Contents", size=16, bold=True)
    y = 78.0
    for r in rows:
        y = b._toc_row(page, r, 72, 540, y, "dots", 18.0, None)
    titles = _subject_pages(b, rows[1:])
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert [e.title for e in res.parsed] == ["Contents"] + titles


def test_a_toc_that_ends_where_the_list_of_tables_begins(tmp_path: Path) -> None:
    """The TOC's last entries (``References``, ``Index``) sit at the top of a page whose upper half
    then opens the ``List of Tables``: the page was not a continuation (a list starts on it), so the
    last entries were lost; the rows above the list's title are the TOC's end, the list is not read."""
    rows = _subjects(40)
    b = Builder(tmp_path / "lists.pdf")
    b.blank("Reference")
    b.toc(rows[:34])
    unit = b.toc(rows[34:], title=None)
    page = b.doc[unit]
    b.text(page, 72, 260, "List of Tables", size=16, bold=True)
    y = 290.0
    for k in range(1, 6):
        y = b._toc_row(page, TocRow(0, f"{k} Yield of variety {k}", str(2 + 7 * k)), 72, 540, y, "dots", 18.0, None)
    titles = _subject_pages(b, rows)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert res.toc_pages == [1, 2]
    assert [m.title for m in res.marks] == titles


def test_a_long_heading_hyphenated_at_its_line_end_is_found_on_its_page(tmp_path: Path) -> None:
    # the typesetter wraps a long section title and hyphenates its last word (``reintro-`` /
    # ``ducing packages``); the title printed whole in the next page's running foot (``2. Moving,
    # ...``) must not take the section, nor push its first sub-section out of reach
    title = "2 Moving, renaming and reintroducing packages"
    b = Builder(tmp_path / "hyphen.pdf")
    b.blank("Guide")
    b.toc([TocRow(0, "1 Setup", "1"), TocRow(0, title, "2"), TocRow(1, "2.1 Moving packages", "2"),
           TocRow(0, "3 Limits", "3")], style="dots")
    b.body([Heading("1 Setup")], folio="1")
    b.body([Heading("2 Moving, renaming and reintro-", y=300), Heading("ducing packages", y=318),
            Heading("2.1 Moving packages", y=460, size=12)], folio="2")
    b.body([Heading("3 Limits", y=400), Heading("2. " + title[2:], y=720, size=8, bold=False)], folio="3")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert [(m.title, m.pos.unit) for m in res.marks] == [("1 Setup", 2), (title, 3), ("2.1 Moving packages", 3),
                                                        ("3 Limits", 4)]
    assert res.marks[1].pos.char == _char(doc, 3, "2 Moving, renaming and reintro-")


def test_entries_wrapped_over_three_lines(tmp_path: Path) -> None:
    # the middle line of a title wrapped over three lines has no page of its own: it is the title's
    # second line, not an entry (it used to keep only the first line, the rest an entry of its own)
    long = "7 Listings with a background colour and escaped formulas set inside the frame of a box"
    b = Builder(tmp_path / "wrap3.pdf")
    b.blank("Operations Guide")
    b.toc([TocRow(0, "6 Startup", "1"), TocRow(0, long, "2"), TocRow(1, "7.1 Escalation", "3"),
           TocRow(0, "8 Shutdown", "4")], style="dots", width=170)
    b.body([Heading("6 Startup")], folio="1")
    b.body([Heading(long, size=11)], folio="2")
    b.body([Heading("7.1 Escalation", size=12)], folio="3")
    b.body([Heading("8 Shutdown")], folio="4")
    doc = _read(b.save())
    rows = [ln.text for ln in doc.lines(1)]
    assert sum(1 for t in rows if t.split()[0] in long.split()) >= 3  # the TOC really wraps it three times
    res = toc_marks(doc)
    assert res is not None
    assert [e.title for e in res.parsed] == ["6 Startup", long, "7.1 Escalation", "8 Shutdown"]
    assert _where(res) == [("6 Startup", 2, 1), (long, 3, 1), ("7.1 Escalation", 4, 2), ("8 Shutdown", 5, 1)]


def test_a_toc_that_ends_partway_down_its_page_where_the_body_begins(tmp_path: Path) -> None:
    """The body starts under the TOC's last entry on the same page (its first heading, a paragraph, a
    code line, a numbered sub-heading): none of those rows prints a page, so none is an entry. A part
    title without a page between paged entries stays an entry."""
    b = Builder(tmp_path / "midpage.pdf")
    b.blank("Sample Package")
    rows = [TocRow(0, "Part I Usage", None, bold=True), TocRow(0, "1 Introduction", "1", bold=True),
            TocRow(1, "1.1 Loading the package", "1"), TocRow(0, "Part II Reference", None, bold=True),
            TocRow(0, "2 Commands", "2", bold=True), TocRow(1, "2.1 Options", "3")]
    toc = b.toc(rows, style="dots")
    page = b.doc[toc]
    b.text(page, 72, 260, "1 Introduction", size=14, bold=True)
    for k, y in enumerate(range(290, 360, 14)):
        b.text(page, 72, y, FILLER[k])
    page.insert_text((90, 380), "\\usepackage{sample}", fontsize=9, fontname="cour")
    b.text(page, 72, 410, "1.1 Loading the package", size=12, bold=True)
    b.text(page, 72, 440, FILLER[0])
    b.body([Heading("Part II Reference", size=18)], folio="1")
    b.body([Heading("2 Commands"), Heading("2.1 Options", y=400, size=12)], folio="2")
    b.body([], folio="3")
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert [(e.title, e.page) for e in res.parsed] == [(r.text, r.ref) for r in rows]


def _parts_manual(path: Path, front_pages: int) -> Path:
    """A manual whose contents is printed in pieces: Part I's short contents up front, Part II's own
    (richer) contents at the start of Part II, ``front_pages`` pages of Part I body between them."""
    b = Builder(path)
    b.blank("Sample Package")
    b.toc([TocRow(0, "1 Introduction", "1", bold=True), TocRow(1, "1.1 Scope", "1"),
           TocRow(0, "2 Design", "2", bold=True)], style="dots")
    b.body([Heading("1 Introduction"), Heading("1.1 Scope", y=400, size=12)], folio="1")
    b.body([Heading("2 Design")], folio="2")
    for k in range(front_pages):
        b.body([], folio=str(3 + k))
    part2 = 3 + front_pages
    b.toc([TocRow(0, "3 Operation", str(part2 + 1), bold=True), TocRow(1, "3.1 Start-up", str(part2 + 1)),
           TocRow(1, "3.2 Shut-down", str(part2 + 2)), TocRow(0, "4 Maintenance", str(part2 + 3), bold=True),
           TocRow(1, "4.1 Cleaning", str(part2 + 3))], style="dots", folio=str(part2))
    b.body([Heading("3 Operation"), Heading("3.1 Start-up", y=400, size=12)], folio=str(part2 + 1))
    b.body([Heading("3.2 Shut-down", size=12)], folio=str(part2 + 2))
    b.body([Heading("4 Maintenance"), Heading("4.1 Cleaning", y=400, size=12)], folio=str(part2 + 3))
    b.body([], folio=str(part2 + 4))
    return b.save()


@pytest.mark.parametrize("front_pages", [1, 14])
def test_a_contents_printed_in_pieces_is_read_whole(tmp_path: Path, front_pages: int) -> None:
    """Each part prints its own contents at its start, listing its sections; the contents up front lists
    only Part I. Every piece is read, wherever it stands (within the front pages or far past them), and
    each entry is placed on its page, the later piece's first section under its contents."""
    doc = _read(_parts_manual(tmp_path / f"parts{front_pages}.pdf", front_pages))
    res = toc_marks(doc)
    assert res is not None
    part2 = 4 + front_pages
    assert res.toc_pages == [1, part2]
    assert _where(res) == [
        ("1 Introduction", 2, 1), ("1.1 Scope", 2, 2), ("2 Design", 3, 1),
        ("3 Operation", part2 + 1, 1), ("3.1 Start-up", part2 + 1, 2), ("3.2 Shut-down", part2 + 2, 2),
        ("4 Maintenance", part2 + 3, 1), ("4.1 Cleaning", part2 + 3, 2)]


def test_a_short_contents_of_parts_before_the_detailed_one_is_no_piece(tmp_path: Path) -> None:
    """A short contents (the parts) and then the detailed one, which lists the same pages again: only the
    detailed one is read."""
    b = Builder(tmp_path / "short.pdf")
    b.blank("Sample Manual")
    b.toc([TocRow(0, "Part I Usage", "1", bold=True), TocRow(0, "Part II Reference", "3", bold=True),
           TocRow(0, "Index", "5", bold=True)], title="Short Contents", style="dots")
    b.toc(MANUAL_ROWS, style="dots")
    _manual_body(b)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert res.toc_pages == [2]
    assert [(t, u - 1, lvl) for t, u, lvl in _where(res)] == EXPECTED_MANUAL


def test_a_numbered_list_of_figures_under_the_contents_ends_it(tmp_path: Path) -> None:
    """``4 List of Figures`` set as a numbered section under the contents, on the same page: the list's
    own title (its entry above prints a page) ends the contents; the figures are no entries."""
    b = Builder(tmp_path / "figures.pdf")
    b.blank("Sample Manual")
    rows = [*MANUAL_ROWS, TocRow(0, "4 List of Figures", "1", bold=True),
            TocRow(0, "4 List of Figures", None, bold=True),
            TocRow(0, "1 The machine from the front", "2"), TocRow(0, "2 The machine from the back", "4")]
    b.toc(rows, style="dots")
    _manual_body(b)
    res = toc_marks(_read(b.save()))
    assert res is not None
    assert [e.title for e in res.parsed] == [r.text for r in rows[:7]]


def test_a_parts_title_above_its_own_contents_is_the_parts_entry(tmp_path: Path) -> None:
    """``Part II`` / ``Operation`` set above the contents that part prints at its start: the part is an
    entry, starting where its title stands, and the sections its contents lists nest under it."""
    b = Builder(tmp_path / "part-titles.pdf")
    b.blank("Sample Package")

    def part_contents(label: str, title: str, rows: list[TocRow], folio: str | None) -> None:
        page = b.doc[b.toc(rows, title=None, style="dots", top=150, folio=folio)]
        b.text(page, 72, 70, label, size=14, bold=True)
        b.text(page, 72, 98, title, size=20, bold=True)
        b.text(page, 72, 126, "Contents", size=14, bold=True)

    part_contents("Part I", "Usage", [TocRow(0, "1 Introduction", "1", bold=True), TocRow(1, "1.1 Scope", "1"),
                                      TocRow(0, "2 Design", "2", bold=True)], None)
    b.body([Heading("1 Introduction"), Heading("1.1 Scope", y=400, size=12)], folio="1")
    b.body([Heading("2 Design")], folio="2")
    part_contents("Part II", "Operation", [TocRow(0, "3 Start-up", "4", bold=True),
                                           TocRow(1, "3.1 Checks", "4"), TocRow(0, "4 Shut-down", "5", bold=True)],
                  "3")
    b.body([Heading("3 Start-up"), Heading("3.1 Checks", y=400, size=12)], folio="4")
    b.body([Heading("4 Shut-down")], folio="5")
    b.body([], folio="6")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert res.toc_pages == [1, 4]
    assert _where(res) == [
        ("Part I Usage", 1, 1), ("1 Introduction", 2, 2), ("1.1 Scope", 2, 3), ("2 Design", 3, 2),
        ("Part II Operation", 4, 1), ("3 Start-up", 5, 2), ("3.1 Checks", 5, 3), ("4 Shut-down", 6, 2)]
    assert res.marks[0].pos.char == _char(doc, 1, "Part I")


@pytest.mark.parametrize(("first", "second"), [("First Part", "Second Part"), ("Première partie", "Deuxième partie")])
def test_a_part_numbered_in_words_in_the_body_is_placed(tmp_path: Path, first: str, second: str) -> None:
    """The contents prints the parts' Roman numerals (``II Operation``), the body spells them above the
    title (``Second Part`` / ``Operation``, babel-french's ``Deuxième partie``): each part is placed
    on its page, at its number's line."""
    b = Builder(tmp_path / "parts-in-words.pdf")
    b.blank("Sample Manual")
    b.toc([TocRow(0, "I Usage", "1", bold=True), TocRow(1, "1 Introduction", "1"), TocRow(1, "2 Design", "2"),
           TocRow(0, "II Operation", "3", bold=True), TocRow(1, "3 Start-up", "3"), TocRow(1, "4 Shut-down", "4")],
          style="dots")
    for label, title, section, folio in ((first, "Usage", "1 Introduction", "1"), (None, None, "2 Design", "2"),
                                         (second, "Operation", "3 Start-up", "3"), (None, None, "4 Shut-down", "4")):
        heads = [Heading(label, y=80, size=14), Heading(title, y=110, size=20), Heading(section, y=160)] \
            if label and title else [Heading(section)]
        b.body(heads, folio=folio)
    b.body([], folio="5")
    doc = _read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert _where(res) == [("I Usage", 2, 1), ("1 Introduction", 2, 2), ("2 Design", 3, 2),
                           ("II Operation", 4, 1), ("3 Start-up", 4, 2), ("4 Shut-down", 5, 2)]
    assert res.marks[3].pos.char == _char(doc, 4, second)
