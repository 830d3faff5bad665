"""Typographic heading detection on generated PDFs: levels by size/weight and by numbering,
running headers and footers ignored, page-number lines ignored."""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import Writer

from treebuild.readers import read
from treebuild.structure.typography.headings import body_text_like, scan_headings
from treebuild.text.furniture import furniture
from treebuild.text.numbering import parse_numbering, strip_numbering


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


def test_numbering_opens_only_with_its_openers() -> None:
    """``parse_numbering`` answers a text whose first character is not in ``OPENERS`` without its
    regexes; every scheme (and each keyword in any case IGNORECASE matches) opens with one of them."""
    from treebuild.text.numbering import OPENERS, _parse

    rests = ["art 1 Title", "tem 1 Title", "hapter 1 Title", "ppendix A Title", "nnex A Title", "rticle 1 Title",
             "ection 1 Title", "ote 1 Title", "xhibit 1 Title", "chedule 1 Title", "1 Title", ". Title",
             ".1 Title", ") Title", " 1 Title", "a) Title", "V. Title", " Title", "1.2 Title", "ook 1 Title",
             "hap. 1 Title", "ec. 1 Title", "ttachment A Title", "nnexure A Title", "1 title", "art I title", "."]
    chars = [chr(c) for c in range(0x3000)] + ["\u0130", "\u0131", "\u017f", "\u212a", "\ufb06"]
    opens = {c for c in chars for r in rests for entry in (False, True) if _parse(c + r, entry) is not None}
    assert opens <= OPENERS
    assert {c for c in OPENERS if c.isalpha() and c.islower()} == {"a", "b", "c", "e", "i", "n", "p", "s", "\u0131",
                                                                   "\u017f"}
    assert parse_numbering("\u017fection 2 Scope") == _parse("\u017fection 2 Scope") is not None
    assert parse_numbering("  1.2 Scope") == _parse("1.2 Scope")


def test_body_lines_of_a_plan_are_not_headings(tmp_path: Path) -> None:
    # a plan exhibit sets list items and wrapped sentences in bold or in a larger size than the
    # filing's body: they look prominent, but they read as running text
    w = Writer()
    w.heading("ARTICLE FOUR Benefits", size=14)
    w.paras(1)
    body_lines = [
        "(iv) requires payment of an Employee's benefit to an Alternate Payee in a form that maintains value; and",
        "1.5 percent multiplied by the Employee's Credited Service multiplied by his Average Compensation",
        "B. This Section shall only apply to an eligible Employee who is listed on Exhibit A. The eligible Employees",
        "(c) The Employee is not an elected officer of the Company, and",
    ]
    for text in body_lines:
        w.heading(text, size=11, bold=True)
        w.paras(1)
    w.heading("4.2 Company Allocations", size=11, bold=True)
    w.paras(2)
    doc = read(w.save(tmp_path / "plan.pdf"))
    assert [h.title for h in scan_headings(doc).headings] == ["ARTICLE FOUR Benefits", "4.2 Company Allocations"]


def test_body_text_like() -> None:
    for text in ("(iv) requires payment of an Employee's benefit in a form that maintains value equivalence; and",
                 "1.5 percent multiplied by the Employee's Credited Service", "(2) the month following completion of",
                 "Subsidiaries of the Registrant as of December 31, 2022 are listed below;",
                 "B. This Section 4.1B shall only apply to an eligible Employee listed on Exhibit A. The eligible"):
        assert body_text_like(text), text
    for text in ("Note 2. Acquisitions, Discontinued Operations and Research and Development Arrangement",
                 "Note 11. Earnings Per Common Share Attributable to Pfizer Inc. Common Shareholders",
                 "1.1 Scope", "3.2 make check", "Research and Development", "ARTICLE ONE Definitions",
                 "Risks Related to Our Business and Operations", "Item 7. Management's Discussion and Analysis"):
        assert not body_text_like(text), text


def test_body_size_tie_goes_to_the_size_read_first(tmp_path: Path) -> None:
    """Two sizes set with exactly as many characters: the body is the one whose first line comes first
    (counting is by style, then by size; the order must stay that of the lines)."""
    for first, second in ((10.0, 11.0), (11.0, 10.0)):
        w = Writer(header=None, footer=False)
        for i in range(12):
            w.line(f"Line {i:02d} of the first size, long enough to count for the margins here.", size=first)
            w.line(f"Line {i:02d} of the other size, long enough to count for the margins here.", size=second)
        doc = read(w.save(tmp_path / f"tie-{first}.pdf"))
        assert sum(len(ln.text) for ln in doc.lines(0) if ln.size == first) == \
            sum(len(ln.text) for ln in doc.lines(0) if ln.size == second)
        assert scan_headings(doc).body_size == first


def test_numbered_heads_in_heading_type_may_open_in_lower_case(tmp_path: Path) -> None:
    # a class manual names its sections for options and environments (``5.1 oneside | twoside``):
    # in a type well above the body they are headings, while a list item set near the body size
    # that opens in lower case still reads as running text
    w = Writer(header=None)
    w.heading("5 Class options", size=17)
    w.paras(1)
    heads = ["5.1 oneside | twoside", "5.2 bind | nobind | bindnopdf", "5.3 figure and sidewaysfigure environments"]
    for text in heads:
        w.heading(text, size=14, bold=False)
        w.paras(1)
    w.heading("1.5 percent multiplied by the Employee's Credited Service", size=11, bold=True)
    w.paras(1)
    doc = read(w.save(tmp_path / "options.pdf"))
    assert [h.title for h in scan_headings(doc).headings] == ["5 Class options", *heads]
    assert body_text_like("5.1 oneside | twoside") and not body_text_like("5.1 oneside | twoside", heading_type=True)



def _titled_manual(path: Path, *, name_line: bool, index: bool) -> Path:
    """A package manual that opens with its title in the largest type (no title page: running text
    follows on page one), with an author line under it, numbered sections and maybe an index."""
    w = Writer(header=None)
    assert w.page is not None
    if name_line:  # the package's name and version in a typewriter face, a heading of its own
        w.page.insert_text((150, 110), "package.sty v5.1 2023/01/19", fontsize=20, fontname="cour")
        w.y = 130
    w.heading("A package to attach", size=20, bold=False, space=0)
    w.heading("line numbers to paragraphs", size=20, bold=False, space=0)
    w.line("The Package Authors", size=12)
    w.paras(3)
    for c in range(1, 7):
        w.heading(f"{c} Topic number {c}", size=14)
        w.paras(1)
        w.heading(f"{c}.1 Detail of topic {c}", size=12)
        w.fill_pages(2)
    if index:
        w.new_page()
        w.heading("Index", size=20, bold=False)
        w.paras(3)
    return w.save(path)


@pytest.mark.parametrize("name_line, index", [(True, False), (False, True)])
def test_the_documents_title_is_no_section(tmp_path: Path, name_line: bool, index: bool) -> None:
    # the title block is the title whether it is read as several headings in one size (the package's
    # name line above the title) or an index at the end is set in the title's display size
    doc = read(_titled_manual(tmp_path / "titled.pdf", name_line=name_line, index=index))
    titles = [h.title for h in scan_headings(doc).major()]
    assert titles[0] == "1 Topic number 1"
    assert titles[-1] == ("Index" if index else "6.1 Detail of topic 6")
