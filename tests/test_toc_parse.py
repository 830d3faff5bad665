"""The TOC line parser and level assignment on real TOC lines copied from the corpus
(debian policy and FHS, R-exts, sbcl, pari, reportlab, ODF, IRS manual, 10-K/10-Q filings)."""

from __future__ import annotations

import pytest

from treebuild.structure.toc.detect import toc_keyword
from treebuild.structure.toc.parse import TocEntry, assign_levels, parse_line
from treebuild.text.normalize import normalize_title, title_similarity
from treebuild.text.numbering import parse_numbering

REAL_LINES = [
    # (line as extracted, title, page, label kind, label depth)
    ("3.4. /bin : Essential user command binaries (for use by all users) ......................................... 5",
     "3.4. /bin : Essential user command binaries (for use by all users)", "5", "decimal", 2),
    ("2. Warming up . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 7",
     "2. Warming up", "7", "decimal", 1),
    ("Getting Support and Reporting Bugs . . . . . . . . . . . . . . . . . . . . . . . . . 1",
     "Getting Support and Reporting Bugs", "1", None, 0),
    ("4.16.14.1   <manifest:file-entry>...............................................................25",
     "4.16.14.1 <manifest:file-entry>", "25", "decimal", 4),
    ("1.1 About this document .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . 6",
     "1.1 About this document", "6", "decimal", 2),
    ("A.2 Standard Fonts and Colors .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  . 133",
     "A.2 Standard Fonts and Colors", "133", "appendix", 2),
    ("Chapter 2 Graphics and Text with pdfgen", "Chapter 2 Graphics and Text with pdfgen", None, "chapter", 1),
    ("PART II.\u00a0\u00a0OTHER INFORMATION", "PART II. OTHER INFORMATION", None, "part", 1),
    ("ITEM 4(a). Information about our Executive Officers      .....................................",
     "ITEM 4(a). Information about our Executive Officers", None, "item", 1),
    ("Item\u00a0\u00a01A. Risk Factors", "Item 1A. Risk Factors", None, "item", 1),
    ("2.3.59-1 Command Code BMFOL/BMFOR Input Display", "2.3.59-1 Command Code BMFOL/BMFOR Input Display", None,
     "exhibit", 4),
    ("Function and variable index . . . . . . . . . . . . . . . . . . . . . 223",
     "Function and variable index", "223", None, 0),
    ("5.6.12.1 Epochs should be used sparingly . . . . . . . . . . . . . . . . . . . . . . . 39",
     "5.6.12.1 Epochs should be used sparingly", "39", "decimal", 4),
    ("12.3. Class Groups and Units, bnf . . . . . . . . . . . . . . . . . . . . . . . . . . 42",
     "12.3. Class Groups and Units, bnf", "42", "decimal", 2),
    ("Appendix B Sample Forms .............................. B-1", "Appendix B Sample Forms", "B-1", "appendix", 1),
    ("Preface . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . xiii",
     "Preface", "xiii", None, 0),
    ("(a) Definitions and interpretation ........ 4", "(a) Definitions and interpretation", "4", "paren", 1),
    ("Article IV Covenants .......... 31", "Article IV Covenants", "31", "article", 1),
    ("Section 2.01 Purchase and Sale .......... 12", "Section 2.01 Purchase and Sale", "12", "section", 2),
]


@pytest.mark.parametrize(("line", "title", "page", "kind", "depth"), REAL_LINES)
def test_real_toc_lines(line: str, title: str, page: str | None, kind: str | None, depth: int) -> None:
    entry = parse_line(line)
    assert entry is not None
    assert entry.title == title
    assert entry.page == page
    if kind is None:
        assert entry.label is None
    else:
        assert entry.label is not None
        assert (entry.label.kind, entry.label.depth) == (kind, depth)


def test_numbers_inside_titles_are_not_pages() -> None:
    e = parse_line("22.53 Version 3.2.1.1")
    assert e is not None and e.page is None
    e = parse_line("Disclosure Pursuant to Section 13(r) of the Securities Exchange Act of 1934")
    assert e is not None and e.page is None and e.label is None


def test_bare_title_drops_the_label() -> None:
    e = parse_line("Item 7A. Quantitative and Qualitative Disclosures About Market Risk ..... 51")
    assert e is not None
    assert e.bare_title == "Quantitative and Qualitative Disclosures About Market Risk"
    e = parse_line("A Quarter in Review ...... 3")  # an article, not an appendix letter
    assert e is not None and e.label is None


@pytest.mark.parametrize(("text", "kind"), [
    ("Contents", "toc"), ("TABLE OF CONTENTS", "toc"), ("C O N T E N T S", "toc"), ("Inhaltsverzeichnis", "toc"),
    ("Table des matières", "toc"), ("Índice", "toc"), ("Spis treści", "toc"), ("Sommaire", "toc"),
    ("Table of Contents (continued)", "toc"), ("Index to the Form 10-K", "toc"),
    ("List of Figures", "list"), ("LIST OF TABLES", "list"),
    ("Contents of a grovel-constants-file", None), ("Chapter 1 Introduction", None),
])
def test_toc_titles(text: str, kind: str | None) -> None:
    assert toc_keyword(text) == kind


def _entry(title: str, x0: float, size: float = 10.0, bold: bool = False) -> TocEntry:
    return TocEntry(title=title, page="1", label=parse_numbering(title, entry=True), x0=x0, size=size, bold=bold)


def test_levels_from_numbering_beat_flat_indentation() -> None:
    # Pfizer 10-Q: Parts and Items share the left margin; statements are indented under Item 1
    entries = assign_levels([
        _entry("PART I. FINANCIAL INFORMATION", 19), _entry("Item 1. Financial Statements", 19),
        _entry("Condensed Consolidated Balance Sheets", 35), _entry("Item 2. Management's Discussion", 19),
        _entry("PART II. OTHER INFORMATION", 19), _entry("Item 1A. Risk Factors", 19), _entry("Signature", 19),
    ])
    assert [e.level for e in entries] == [1, 2, 3, 2, 1, 2, 1]


def test_levels_from_decimal_depth_and_indentation_combined() -> None:
    entries = assign_levels([
        _entry("Acknowledgements", 90, 14.3), _entry("1 Creating R packages", 90, 14.3, True),
        _entry("1.1 Package structure", 105), _entry("1.1.1 The DESCRIPTION file", 120),
        _entry("1.1.3.1 Suggested packages", 135), _entry("1.2 Configure and cleanup", 105),
        _entry("2 Writing R documentation files", 90, 14.3, True), _entry("Function and variable index", 90, 14.3),
    ])
    assert [e.level for e in entries] == [1, 1, 2, 3, 4, 2, 1, 1]


def test_levels_from_indentation_and_type_size_alone() -> None:
    entries = assign_levels([
        _entry("Forward-Looking Statements", 34), _entry("Consolidated Financial Statements", 34),
        _entry("Balance Sheets", 54, 9), _entry("Key Terms", 54, 9), _entry("Other Key Information", 34),
        _entry("Risk Factors", 54, 9), _entry("Overview", 34, 12, True), _entry("Background", 34, 10),
    ])
    assert [e.level for e in entries] == [1, 1, 2, 2, 1, 2, 1, 2]


def test_chapters_sections_and_lettered_clauses() -> None:
    entries = assign_levels([
        _entry("Chapter 1 Introduction", 78, 14, True), _entry("1.1 About this document", 98),
        _entry("Article IV Covenants", 78), _entry("Section 4.01 Conduct of Business", 90),
        _entry("(a) Ordinary course", 110), _entry("(i) Exceptions", 130), _entry("(b) Notices", 110),
        _entry("Appendix A Reference", 78, 14, True), _entry("A.1 Standard Fonts", 98),
    ])
    assert [e.level for e in entries] == [1, 2, 1, 2, 3, 4, 3, 1, 2]


def test_normalize_and_similarity() -> None:
    assert normalize_title("ITEM 1.  BUSINESS") == normalize_title("Item 1. Business") == "item 1 business"
    assert normalize_title("Management’s Discussion") == normalize_title("Management's Discussion")
    assert normalize_title("Table des matières") == "table des matieres"
    assert normalize_title("Введение") == "введение"
    assert title_similarity("Principal Accountant Fees", "Principal Accounting Fees") > 0.85
    assert title_similarity("Risk Factors", "Legal Proceedings") < 0.5
    assert title_similarity("", "") == 1.0 and title_similarity("x", "") == 0.0
