"""Page furniture, decided once per document (``text.furniture.PageFurniture``) and read by
outline and TOC placement, the model fallback and the summaries. PDFs are generated per test."""

from __future__ import annotations

from pathlib import Path

from docgen import BODY_TOP, LINE_GAP, Text, dest_y, toc_row, write_pdf

import treebuild
from treebuild.readers import read
from treebuild.structure import analyze
from treebuild.structure.outline.marks import outline_marks
from treebuild.summarize.extractive import clean_own_texts
from treebuild.text.furniture import PageFurniture

CHAPTER = "Chapter 1 Introduction"
FOOTER_Y = 750.0
WORDS = ("valve pump sensor relay gauge filter switch motor cable panel fuse drive clamp seal hose "
         "spring lever gasket bearing piston nozzle rotor stator tank duct frame bolt shaft gear belt").split()


def _body(page: int, first: int, n: int) -> list[Text]:
    """Body lines that differ in their words, not only in their figures."""
    lines = []
    for k in range(n):
        words = " ".join(WORDS[(page * 7 + k * 3 + i) % len(WORDS)] for i in range(6))
        lines.append(Text(f"The {words} are checked.", BODY_TOP + LINE_GAP * (first + k)))
    return lines


def _manual(path: Path) -> tuple[Path, Text, Text]:
    """Five pages: the chapter heading and its first subsection on page 1; the chapter title as the
    running footer of pages 2-5, a folio under it; eight body lines a page."""
    heading = Text(CHAPTER, BODY_TOP, 16, bold=True)
    sub = Text("1.1 About this manual", BODY_TOP + LINE_GAP, 13, bold=True)
    pages: list[list[Text | str]] = [[heading, sub, *_body(1, 2, 8)]]
    for page in range(2, 6):
        pages.append([*_body(page, 0, 8), Text(CHAPTER, FOOTER_Y), Text(str(page), FOOTER_Y + 20)])
    toc = [toc_row(1, CHAPTER, 1, dest_y(heading)), toc_row(2, sub.text, 1, dest_y(sub))]
    return write_pdf(path, pages, toc=toc), heading, sub


def test_running_footer_is_furniture_everywhere_it_is_read(tmp_path: Path) -> None:
    path, _, _ = _manual(tmp_path / "m.pdf")
    doc = read(path)
    furniture = analyze(doc).furniture
    assert furniture.keys >= {"chapter # introduction", "#"}
    assert furniture.is_running(CHAPTER) and furniture.is_running("3")
    assert not furniture.is_running(_body(2, 0, 1)[0].text)
    tree = treebuild.build(path)
    own = clean_own_texts(tree, furniture)
    body = "\n".join(own.values())
    assert CHAPTER not in body.replace(CHAPTER + "\n1.1", "")  # only the heading itself is left
    assert all(line.text in body for page in range(2, 6) for line in _body(page, 0, 8))
    assert not any(line.strip() == "3" for line in body.splitlines())


def test_a_title_repeated_as_running_text_still_heads_its_page(tmp_path: Path) -> None:
    """The chapter's title runs in the footer of its later pages; on its first page it is the heading,
    so the first subsection starts below it, not at the page top."""
    path, _, sub = _manual(tmp_path / "m.pdf")
    doc = read(path)
    marks = outline_marks(doc, PageFurniture(doc))
    assert [m.title for m in marks] == [CHAPTER, sub.text]
    assert marks[0].pos.char == 0
    assert marks[1].pos.char == doc.units[0].text.index(sub.text) > 0
