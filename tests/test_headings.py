"""Typographic heading detection on generated PDFs: levels by size/weight and by numbering,
running headers and footers ignored, page-number lines ignored."""

from __future__ import annotations

from pathlib import Path

from structgen import Writer

from treebuild.readers import read
from treebuild.structure.furniture import furniture
from treebuild.structure.headings import scan_headings
from treebuild.structure.numbering import parse_numbering, strip_numbering


def _three_level_doc(path: Path) -> Path:
    w = Writer()
    for c in range(1, 4):
        w.heading(f"Chapter Title {c}", size=18)
        w.paras(2)
        for s in range(1, 3):
            w.heading(f"Section Heading {c}.{s}", size=14)
            w.paras(2)
            w.heading(f"Subsection Heading {c}.{s}a", size=11, bold=True, space=6)
            w.paras(3)
    return w.save(path)


def test_levels_from_size_and_weight(tmp_path: Path) -> None:
    doc = read(_three_level_doc(tmp_path / "three.pdf"))
    scan = scan_headings(doc)
    got = [(h.title, h.level) for h in scan.major()]
    expected = []
    for c in range(1, 4):
        expected.append((f"Chapter Title {c}", 1))
        for s in range(1, 3):
            expected += [(f"Section Heading {c}.{s}", 2), (f"Subsection Heading {c}.{s}a", 3)]
    assert got == expected
    assert scan.body_size == 10.0


def test_running_header_and_page_numbers_are_not_headings(tmp_path: Path) -> None:
    doc = read(_three_level_doc(tmp_path / "three.pdf"))
    assert len(doc.units) >= 4
    scan = scan_headings(doc)
    titles = [h.title for h in scan.headings]
    assert "Annual Program Manual" not in titles
    assert not any(t.isdigit() for t in titles)
    furn, _ = furniture(doc)
    # the header and the folio of every page are furniture
    header_pages = {u for u, j in furn if doc.lines(u)[j].text == "Annual Program Manual"}
    folio_pages = {u for u, j in furn if doc.lines(u)[j].text == str(u + 1)}
    assert header_pages == set(range(len(doc.units)))
    assert folio_pages == set(range(len(doc.units)))


def test_numbered_headings_in_one_style_get_levels_from_numbering(tmp_path: Path) -> None:
    w = Writer()
    numbers = ["1", "1.1", "1.1.1", "1.1.2", "1.2", "2", "2.1", "2.1.1", "3", "3.1"]
    for n in numbers:
        w.heading(f"{n} Topic number {n}", size=11, bold=True)
        w.paras(2)
    doc = read(w.save(tmp_path / "numbered.pdf"))
    got = [(h.title, h.level) for h in scan_headings(doc).major()]
    assert got == [(f"{n} Topic number {n}", n.count(".") + 1) for n in numbers]


def test_shared_number_prefix_is_not_a_level(tmp_path: Path) -> None:
    # an IRS-style manual: every number starts with 2.3.59; the first varying part is level 1
    w = Writer()
    numbers = ["2.3.59.1", "2.3.59.1.1", "2.3.59.1.2", "2.3.59.2", "2.3.59.2.1", "2.3.59.3"] * 1
    for n in numbers:
        w.heading(f"{n} Program part {n}", size=10, bold=True)
        w.paras(2)
    doc = read(w.save(tmp_path / "irs.pdf"))
    got = [h.level for h in scan_headings(doc).major()]
    assert got == [n.count(".") - 2 for n in numbers]


def test_body_bold_sentence_and_table_row_are_not_headings(tmp_path: Path) -> None:
    w = Writer()
    w.heading("Results of Operations", size=14)
    w.para("This is an ordinary paragraph of body text that explains the results in plain words for the reader.")
    w.para("Important: all figures in this paragraph are unaudited, restated, and subject to change without notice.",
           bold=True)
    assert w.page is not None
    y = w.y + 20
    w.page.insert_text((72, y), "Total revenue", fontsize=10, fontname="hebo")
    w.page.insert_text((400, y), "1,234", fontsize=10, fontname="helv")
    w.page.insert_text((480, y), "5,678", fontsize=10, fontname="helv")
    w.y = y + 20
    w.fill_pages(3)  # the bold running header repeats, so it is furniture
    doc = read(w.save(tmp_path / "table.pdf"))
    titles = [h.title for h in scan_headings(doc).headings]
    assert titles == ["Results of Operations"]


def test_parse_numbering_schemes() -> None:
    cases = {
        "1.2.3 Scope": ("decimal", 3),
        "PART II": ("part", 1),
        "Item 7A. Quantitative Disclosures": ("item", 1),
        "Article IV Covenants": ("article", 1),
        "Section 2.01 Definitions": ("section", 2),
        "Chapter 3 Results": ("chapter", 1),
        "Appendix A.1 Schemas": ("appendix", 2),
        "(a) General": ("paren", 1),
        "2.3.59-1 Command Code Display": ("exhibit", 4),
    }
    for text, (kind, depth) in cases.items():
        n = parse_numbering(text)
        assert n is not None and (n.kind, n.depth) == (kind, depth), text
    for text in ("2022 Annual Report", "$1.2 million", "Item 7 of this report", "12 months ended"):
        assert parse_numbering(text) is None, text
    assert strip_numbering("ITEM 1.  BUSINESS") == "BUSINESS"
    assert strip_numbering("Part II") == "Part II"
