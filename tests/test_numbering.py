"""One numbering parser for headings and printed TOCs (``numbering.parse_numbering``).

Every label has one kind, depth and rank wherever it is printed; only whether the text after it
reads as a title depends on the context (a body line must look like a heading, a TOC row is an
entry already). The cases where the two former parsers (``toc_parse.parse_label`` and
``parse_numbering``) disagreed are pinned here with the answer a reader gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import Writer
from tocgen import Builder, Heading, TocRow

from treebuild.readers.pdf import PdfReader
from treebuild.structure.toc.marks import toc_marks
from treebuild.structure.toc.parse import TocEntry, assign_levels
from treebuild.structure.typography.headings import scan_headings
from treebuild.text.numbering import parse_numbering

LABELS = [
    # (text, kind, depth, label, rank): every scheme the parser knows
    ("1 Introduction", "decimal", 1, "1", 30),
    ("1.2 Scope", "decimal", 2, "1.2", 40),
    ("2.3.59.1.1 Command Codes", "decimal", 5, "2.3.59.1.1", 70),
    ("12.3. Class Groups", "decimal", 2, "12.3", 40),
    ("2.3.59-1 Command Code Display", "exhibit", 4, "2.3.59-1", 60),
    ("Exhibit 2.3.59-1 Command Code Display", "exhibit", 4, "Exhibit 2.3.59-1", 60),
    ("Exhibit 10.40 Supplemental Plan", "exhibit", 1, "Exhibit 10.40", 20),
    ("Exhibit 21 Subsidiaries", "exhibit", 1, "Exhibit 21", 20),
    ("PART II Other Information", "part", 1, "PART II", 10),
    ("Part A General", "part", 1, "Part A", 10),
    ("Item 7A. Market Risk", "item", 1, "Item 7A", 30),
    ("ITEM 4(a). Executive Officers", "item", 1, "ITEM 4(a)", 30),
    ("Chapter 3 Results", "chapter", 1, "Chapter 3", 20),
    ("CHAPTER ONE ABOUT THIS MANUAL", "chapter", 1, "CHAPTER ONE", 20),
    ("Chap. 4 Methods", "chapter", 1, "Chap. 4", 20),
    ("Book 2 The Return", "chapter", 1, "Book 2", 20),
    ("Article IV Covenants", "article", 1, "Article IV", 20),
    ("ARTICLE ONE Definitions", "article", 1, "ARTICLE ONE", 20),
    ("Appendix B Sample Forms", "appendix", 1, "Appendix B", 20),
    ("Appendix A.1 Manifest Schema", "appendix", 2, "Appendix A.1", 30),
    ("Annex C Tables", "appendix", 1, "Annex C", 20),
    ("Attachment 2 Forms", "appendix", 1, "Attachment 2", 20),
    ("A.2 Standard Fonts", "appendix", 2, "A.2", 40),
    ("Schedule I Condensed Information", "schedule", 1, "Schedule I", 20),
    ("Section 2.01 Purchase and Sale", "section", 2, "Section 2.01", 50),
    ("Sec. 3 Scope", "section", 1, "Sec. 3", 40),
    ("§ 4.2 Fees", "section", 2, "§4.2", 50),
    ("Note 5 Receivables", "note", 1, "Note 5", 40),
    ("IV. Remedies", "roman", 1, "IV", 25),
    ("I. Preliminaries", "roman", 1, "I", 25),
    ("C. Chemicals", "letter", 1, "C", 30),
    ("B) Options", "letter", 1, "B", 30),
    ("(a) Definitions", "paren", 1, "(a)", 80),
    ("(iv) Waivers", "paren", 1, "(iv)", 90),
    ("(12) Notices", "paren", 1, "(12)", 85),
    ("3.4. /bin : Essential user command binaries", "decimal", 2, "3.4", 40),
]


@pytest.mark.parametrize(("text", "kind", "depth", "label", "rank"), LABELS)
def test_one_answer_per_label_in_body_and_toc(text: str, kind: str, depth: int, label: str, rank: int) -> None:
    for entry in (False, True):
        n = parse_numbering(text, entry=entry)
        assert n is not None, (text, entry)
        assert (n.kind, n.depth, n.label, n.rank) == (kind, depth, label, rank), (text, entry)


@pytest.mark.parametrize("text", ["Part I siunitx-angle \u2013 Formatting angles", "2 aux", "Item 7 of this report",
                                  "12 d\u00e9cembre 2022"])
def test_a_toc_row_is_an_entry_a_body_line_must_read_as_a_heading(text: str) -> None:
    """The label is the same, but a body line whose text reads as a sentence or a date after a lone
    number is no heading; the TOC row already is an entry (``2 aux`` names a key, a section)."""
    assert parse_numbering(text) is None
    assert parse_numbering(text, entry=True) is not None


@pytest.mark.parametrize("text", ["IV.", "A.", "(a)", "Item 2.", "PART I", "1."])
def test_a_label_alone_on_a_toc_row(text: str) -> None:
    n = parse_numbering(text, entry=True)
    assert n is not None and n.rest == ""


def test_not_labels_in_either_context() -> None:
    for text in ("2022 Annual Report", "$1.2 million", "Notes to the statements", "Parts list", "401(k) Plan",
                 "10-K Summary", "A Quarter in Review", "3D Printing"):
        assert parse_numbering(text) is None, text
        assert parse_numbering(text, entry=True) is None, text


def _entry(title: str, x0: float = 72.0) -> TocEntry:
    return TocEntry(title=title, page="1", label=parse_numbering(title, entry=True), x0=x0)


def test_ranks_nest_toc_entries_as_a_reader_does() -> None:
    def levels(*titles: str) -> list[int]:
        return [e.level for e in assign_levels([_entry(t) for t in titles])]

    assert levels("Appendix A Schemas", "Appendix A.1 Manifest Schema", "Appendix A.2 Signatures",
                  "Appendix B Forms") == [1, 2, 2, 1]
    # a filing's exhibit numbers are catalogue numbers: 10.40 is a peer of 21, not its parent's child
    assert levels("Exhibit 10.40 Supplemental Plan", "Exhibit 10.41 Severance Plan", "Exhibit 21 Subsidiaries") \
        == [1, 1, 1]
    # an IRS exhibit belongs to the section its number extends, beside that section's sub-sections
    assert levels("2.3.59 Command Codes", "2.3.59.1 Overview", "2.3.59-1 Command Code Display",
                  "2.3.60 Other Codes") == [1, 2, 2, 1]


def test_roman_parts_head_arabic_sections_in_a_flat_toc(tmp_path: Path) -> None:
    """``I.``, ``II.`` over ``1.``, ``2.``, ``3.`` printed at one indentation: the Roman parts hold the
    sections. ``I.`` used to read as the letter I in the TOC (a peer of ``1.``) while ``II.`` read as
    a Roman numeral, so the first part's sections were its siblings."""
    b = Builder(tmp_path / "parts.pdf")
    b.blank("Sample Guide")
    b.toc([TocRow(0, "I. Preliminaries", "1"), TocRow(0, "1. Installation", "1"), TocRow(0, "2. Usage", "2"),
           TocRow(0, "II. Reference", "3"), TocRow(0, "3. Commands", "3"), TocRow(0, "4. Options", "4")])
    b.body([Heading("I. Preliminaries", size=16), Heading("1. Installation", y=200)], folio="1")
    b.body([Heading("2. Usage")], folio="2")
    b.body([Heading("II. Reference", size=16), Heading("3. Commands", y=200)], folio="3")
    b.body([Heading("4. Options")], folio="4")
    doc = PdfReader().read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert [(m.title, m.level) for m in res.marks] == [
        ("I. Preliminaries", 1), ("1. Installation", 2), ("2. Usage", 2),
        ("II. Reference", 1), ("3. Commands", 2), ("4. Options", 2)]


def test_numbered_sections_named_for_a_macro_a_path_or_a_2d_thing(tmp_path: Path) -> None:
    """A manual's numbered sections named for what they document (``1.1 \\setupfoo``, ``1.3 /etc/opt :
    ...``, ``2.2 3D Commands``) are numbered sections at their number's depth, in the body as in a TOC;
    a single number before a macro stays a code line's number."""
    w = Writer(header=None)
    titles = ["1 Setting up", "1.1 \\setupfoo", "1.2 2D Commands", "1.3 /etc/opt : Configuration files",
              "2 Reference", "2.1 \\reffoo and \\refbar", "2.2 3D Commands", "2.3 Options", "3 Examples",
              "3.1 Simple use"]
    for t in titles:
        w.heading(t, size=11, bold=True)
        w.paras(2)
    doc = PdfReader().read(w.save(tmp_path / "macros.pdf"))
    got = [(h.title, h.level) for h in scan_headings(doc).major()]
    assert got == [(t, t.split()[0].count(".") + 1) for t in titles]
    assert parse_numbering("12 \\def\\x{1}") is None
