"""Metadata titles that say nothing (an SEC accession number, a file name, an identifier) are replaced by the
title printed largest on the first page, or by none (issue 25 item 4)."""

from __future__ import annotations

from pathlib import Path

import docx
import pymupdf
import pytest

from treebuild.readers import read
from treebuild.readers.titles import metadata_title


@pytest.mark.parametrize(("title", "kept"), [
    ("0001018724-20-000004", None),  # an SEC accession number
    ("amsclass.dvi", None),  # the file it was made from
    ("Report.PDF", None),
    ("report.pdf", None),  # the document's own file name
    ("Report", "Report"),  # ... but a title that is also the file's stem is a title
    ("12.26.2020 (Q4) - 10K", None),  # no word of three letters: an identifier
    ("  ", None),
    ("Debian Policy Manual", "Debian Policy Manual"),
    ("Form 10-Q for Microsoft Corp filed 10/24/2022", "Form 10-Q for Microsoft Corp filed 10/24/2022"),
])
def test_metadata_titles_that_say_nothing_are_dropped(title: str, kept: str | None) -> None:
    assert metadata_title(title, "/data/report.pdf") == kept


def _filing(path: Path, title: str, pages: int = 4) -> Path:
    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page()
        page.insert_text((72, 40), "Table of Contents", fontsize=24)  # a running link, larger than the title
        if i == 0:
            page.insert_text((72, 120), "UNITED STATES SECURITIES AND EXCHANGE COMMISSION", fontsize=11)
            page.insert_text((72, 160), "EXAMPLE HOLDINGS, INC.", fontsize=20)
        for j in range(25):
            page.insert_text((72, 200 + 18 * j), f"Body text of page {i + 1}, line {j}, in the usual type.",
                             fontsize=9)
    doc.set_metadata({"title": title})
    doc.save(path)
    return path


def test_a_pdf_titled_by_an_accession_number_gets_its_printed_title(tmp_path: Path) -> None:
    assert read(_filing(tmp_path / "filing.pdf", "0001018724-20-000004")).title == "EXAMPLE HOLDINGS, INC."
    assert read(_filing(tmp_path / "named.pdf", "Example Holdings Annual Report")).title == \
        "Example Holdings Annual Report"  # a usable title is kept as it is


def test_a_docx_titled_by_its_file_name_shows_no_title(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_paragraph("Plain text without a title style.")
    d.core_properties.title = "Memo.docx"
    d.save(tmp_path / "memo.docx")
    doc = read(tmp_path / "memo.docx")
    assert doc.title is None and doc.display_title == "memo"
