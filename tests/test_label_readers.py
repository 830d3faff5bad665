"""Every label reader takes its words from one vocabulary (``numbering.LABEL_KEYWORDS``).

The parser, ``strip_numbering``, ``is_label``, the TOC-page readers (a TOC printed without page numbers
and its text pre-filter), TOC placement's introducing words and the SEC Part/Item reader read the same
label words; each test pins a case where a reader used to have its own shorter word list.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import Writer
from tocgen import Builder, Heading, TocRow

from treebuild.readers import read
from treebuild.readers.pdf import PdfReader
from treebuild.structure.combine import levels_from_numbering
from treebuild.structure.filing.items import form_label
from treebuild.structure.toc import place as toc_place
from treebuild.structure.toc.marks import toc_marks
from treebuild.structure.typography.headings import scan_headings
from treebuild.text.normalize import normalize_title
from treebuild.text.numbering import (
    LABEL_KEYWORDS,
    LONE_LABEL_WORDS,
    NUMBERED_LINES,
    NUMBERED_START,
    is_label,
    parse_numbering,
    spaced_label,
    strip_numbering,
)

CHAPTERS = ["Getting Started", "Installing the Tools", "Daily Operation", "Routine Maintenance",
            "Fault Finding", "Spare Parts"]


def test_pageless_toc_of_chapter_labels_is_read(tmp_path: Path) -> None:
    """A TOC printed without page numbers whose rows open with ``Chapter N``: the page pre-filter counted
    only rows opening with a digit, the full test counts keyword labels too; both read one pattern now."""
    b = Builder(tmp_path / "pageless.pdf")
    b.blank("Field Manual")
    b.toc([TocRow(0, f"Chapter {i} {t}") for i, t in enumerate(CHAPTERS, start=1)], style="plain")
    for i, t in enumerate(CHAPTERS, start=1):
        b.body([Heading(f"Chapter {i} {t}")], lines=12)
    doc = PdfReader().read(b.save())
    res = toc_marks(doc)
    assert res is not None
    assert res.toc_pages == [1]
    assert [(m.title, m.pos.unit) for m in res.marks] == [
        (f"Chapter {i} {t}", i + 1) for i, t in enumerate(CHAPTERS, start=1)]


@pytest.mark.parametrize("word", sorted(LABEL_KEYWORDS))
def test_every_reader_knows_every_label_word(word: str) -> None:
    """One vocabulary: a word added to ``LABEL_KEYWORDS`` is read by every label reader."""
    for text in (f"{word} 3 Scope of Work", f"{word.upper()} 3 Scope of Work"):
        n = parse_numbering(text, entry=True)
        assert n is not None and n.kind == LABEL_KEYWORDS[word] and n.rest == "Scope of Work"
        assert strip_numbering(text) == "Scope of Work"
        assert NUMBERED_START.match(text)
        assert len(NUMBERED_LINES.findall(f"intro\n{text}\n")) == 1
    assert is_label(f"{word} 3") and is_label(f"{word.upper()} 12.")
    assert normalize_title(word) in toc_place._LEAD_WORD_SET
    assert toc_place._strip_lead(normalize_title(f"{word} 3 scope")) == "3 scope"


@pytest.mark.parametrize("word", LONE_LABEL_WORDS)
def test_lone_label_words_label_only_their_own_line(word: str) -> None:
    assert is_label(f"{word.upper()} 3") and spaced_label(f"{word.upper()}3") == f"{word.upper()} 3"
    assert parse_numbering(f"{word} 2 is connected to the bus") is None


@pytest.mark.parametrize(("text", "kind", "label", "rest"), [
    ("PART I", "part", "I", ""),
    ("Part II. Other Information", "part", "II", "Other Information"),
    ("PART I.\u2014FINANCIAL INFORMATION", "part", "I", "FINANCIAL INFORMATION"),
    ("PART IV - ITEM 15. EXHIBITS", "part", "IV", "ITEM 15. EXHIBITS"),
    ("Item 1A. Risk Factors", "item", "1A", "Risk Factors"),
    ("ITEM 7A \u2013 QUANTITATIVE DISCLOSURES", "item", "7A", "QUANTITATIVE DISCLOSURES"),
    ("Item 4(a). Executive Officers", "item", "4(a)", "Executive Officers"),
    ("ITEM 9C. DISCLOSURE", "item", "9C", "DISCLOSURE"),
])
def test_form_labels_read_by_the_parser(text: str, kind: str, label: str, rest: str) -> None:
    n = form_label(text, kind)
    assert n is not None and n.parts[0].upper() == label.upper() and n.rest == rest


@pytest.mark.parametrize(("text", "kind"), [
    ("Part V Appendix", "part"),  # the forms have Parts I to IV
    ("Item 123 Something", "item"),
    ("Item 1.01 Entry into an Agreement", "item"),  # an 8-K's item number, not a 10-K Item
    ("Items 1 and 2. Business", "item"),
    ("Partners", "part"),
    ("Note 5 Debt", "item"),
])
def test_form_labels_reject_other_labels(text: str, kind: str) -> None:
    assert form_label(text, kind) is None



COMMANDS = ["tar", "gzip", "zip", "cpio", "pax", "ar"]
OPTIONS = ["--create", "--extract", "--list", "--verbose"]


def test_toc_levels_follow_numbers_of_entries_named_in_lower_case(tmp_path: Path) -> None:
    """A TOC whose indentation drifts after a page break (the second page set one step deeper) gets its
    levels from the numbers. The numbers of TOC titles are read as entries: ``1 tar`` and ``2.1 --create``
    name a command and an option; read as body lines (a lone number before lower case, a dotted one before
    a dash, are no heading labels) no number was found and the drift stayed."""
    rows = []
    for i, command in enumerate(COMMANDS, start=1):
        rows.append(TocRow(0, f"{i} {command}", str(i)))
        rows.extend(TocRow(1, f"{i}.{j} {option}", str(i)) for j, option in enumerate(OPTIONS, start=1))
    b = Builder(tmp_path / "options.pdf")
    b.blank("Archiving Tools")
    b.toc(rows[:20], style="dots")
    b.toc([TocRow(r.indent + 1, r.text, r.ref) for r in rows[20:]], title=None, style="dots")
    for p in range(1, len(COMMANDS) + 1):
        b.body([Heading(r.text, size=12) for r in rows if r.ref == str(p)], folio=str(p), lines=20)
    doc = PdfReader().read(b.save())
    res = toc_marks(doc)
    assert res is not None and [m.title for m in res.marks] == [r.text for r in rows]
    assert [m.level for m in res.marks][20:] == [2, 3, 3, 3, 3] * 2  # the drift is there
    assert [m.level for m in levels_from_numbering(res.marks)] == [1, 2, 2, 2, 2] * len(COMMANDS)


@pytest.mark.parametrize(("text", "label"), [
    ("SCHEDULE II", "II"), ("Schedule II \u2014 Valuation and Qualifying Accounts", "II"),
    ("Schedule IV. Reinsurance", "IV")])
def test_schedule_labels_of_regulation_sx(text: str, label: str) -> None:
    n = form_label(text, "schedule")
    assert n is not None and n.parts[0].upper() == label


@pytest.mark.parametrize("text", ["Schedule A Terms", "Schedule 1.1 Definitions", "Schedule 3 Fees"])
def test_agreement_schedules_are_no_form_schedules(text: str) -> None:
    assert form_label(text, "schedule") is None


def test_bold_note_over_running_text_is_no_heading(tmp_path: Path) -> None:
    """``is_label`` reads every label word: a bold ``NOTE`` alone on a line is a label waiting for its
    title, and with running text below it no heading (as ``CHAPTER`` alone); it was a section of its own."""
    w = Writer()
    for c in range(1, 4):
        w.heading(f"Chapter Title {c}", size=16)
        w.paras(2)
        w.heading("NOTE", size=10, bold=True, space=6)
        w.para("Back up the configuration before you change it; the tool does not keep a copy of the old one.")
        w.paras(1)
    doc = read(w.save(tmp_path / "note.pdf"))
    assert [h.title for h in scan_headings(doc).headings] == [f"Chapter Title {c}" for c in range(1, 4)]
