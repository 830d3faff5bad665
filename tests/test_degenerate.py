"""Degenerate numbers never abort a document (issue 25 item 1): text of size 0 (a typewriter book whose Type3
fonts report size 0 made heading detection divide by a body size of 0), NaN and infinite sizes and boxes from any
reader, zero-area pages, text outside the page, very many lines on a page, empty pages, and a page tree MuPDF
cannot count. Each document still gets a tree, or a clear error naming the file."""

from __future__ import annotations

import math
import re
from pathlib import Path

import fuzzgen as fg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import treebuild
from treebuild.errors import ReadError
from treebuild.model import Line, SourceDoc, Unit
from treebuild.pipeline import build_doc

HEADS = ["1. Introduction", "2. Scope", "3. Definitions"]


def _write(path: Path, spec: fg.DocSpec) -> Path:
    path.write_bytes(fg.render_pdf(spec))
    return path


def _page(head: str, body_size: float, font: str = "std") -> fg.PageSpec:
    body = [fg.Piece(text=f"Body text line {i} of the section {head}", font=font, size=body_size, x=72.0,
                     y=660.0 - 14.0 * i) for i in range(30)]
    return fg.PageSpec(pieces=(fg.Piece(text=head, size=16.0, x=72.0, y=700.0), *body))


@pytest.mark.parametrize(("body_size", "font"), [(0.0, "t3zero"), (0.02, "std"), (0.2, "t3")])
def test_body_text_of_no_size_does_not_abort_heading_detection(tmp_path: Path, body_size: float, font: str) -> None:
    """The body's type reports (almost) no size; the 16-point headings are still found."""
    path = _write(tmp_path / "typewriter.pdf", fg.DocSpec(tuple(_page(h, body_size, font) for h in HEADS)))
    tree = treebuild.build(path)
    assert [n.title for n in tree.walk()] == HEADS
    assert [n.start_page for n in tree.walk()] == [1, 2, 3]


def test_a_page_tree_mupdf_cannot_count_is_a_clear_error(tmp_path: Path) -> None:
    data = fg.render_pdf(fg.DocSpec(tuple(_page(h, 11.0) for h in HEADS)))
    path = tmp_path / "count.pdf"
    path.write_bytes(re.sub(rb"/Count 3\b", b"/Count 99999999999", data))
    with pytest.raises(ReadError, match=r"count\.pdf: cannot read the PDF's page tree: .*\(the file is damaged"):
        treebuild.build(path)


@pytest.mark.parametrize("case", ["zero-area pages", "text outside the page", "empty pages", "dense page"])
def test_degenerate_pages_build_a_tree(tmp_path: Path, case: str) -> None:
    body = tuple(fg.Piece(text=f"Body text line {i} with a few words", y=700.0 - 14.0 * i) for i in range(20))
    pages = {
        "zero-area pages": (fg.PageSpec(box=(0.0, 0.0, 0.0, 0.0), pieces=body),
                            fg.PageSpec(box=(0.0, 0.0, 612.0, 0.0), pieces=body)),
        "text outside the page": (fg.PageSpec(pieces=tuple(fg.Piece(text=f"Far away {i}", x=-5000.0 + i,
                                                                    y=20000.0 - 14.0 * i) for i in range(20))),
                                  fg.PageSpec(pieces=body)),
        "empty pages": (fg.PageSpec(), fg.PageSpec(), fg.PageSpec()),
        # 20,000 lines on one page (bench/README "Fuzzing": 10^5 lines build in 13 s)
        "dense page": (fg.PageSpec(pieces=tuple(fg.Piece(text=f"Line {i} of many", size=6.0, x=36.0 + i % 3 * 180.0,
                                                         y=780.0 - (i // 3 % 390) * 2.0) for i in range(20_000))),
                       fg.PageSpec(pieces=(fg.Piece(text="1. Introduction", size=16.0), *body))),
    }[case]
    tree = treebuild.build(_write(tmp_path / "degenerate.pdf", fg.DocSpec(pages)))
    assert tree.doc.page_count == len(pages) and list(tree.walk())


# Numbers any reader might hand over: sizes and boxes that are 0, negative, NaN, infinite or huge.
BAD = st.sampled_from([0.0, 0.02, 8.0, 10.0, 10.0, 12.0, 16.0, 1e5, -3.0, math.nan, math.inf, -math.inf])
COORD = st.sampled_from([0.0, 72.0, 300.0, -5000.0, 1e6, math.nan, math.inf])
TEXT = st.sampled_from([*HEADS, "PART I", "Body text of the section goes on here.", "Item 7.", "", "CONTENTS"])
ROW = st.tuples(TEXT, BAD, st.booleans(), COORD, COORD, st.sampled_from([0.0, 1.0, 14.0, math.nan]))


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(ROW, max_size=15), min_size=1, max_size=4), st.sampled_from([792.0, 0.0, math.nan]))
def test_layout_numbers_never_abort_a_build(pages: list[list[tuple[str, float, bool, float, float, float]]],
                                            height: float) -> None:
    units, layouts = [], []
    for i, rows in enumerate(pages):
        lines, parts, char = [], [], 0
        for j, (text, size, bold, x0, y0, tall) in enumerate(rows):
            lines.append(Line(text, size, bold, x0, y0, x0 + 6 * len(text), y0 + tall, char, j,
                              "Helvetica-Bold" if bold else "Helvetica", lead=0, lead_size=size))
            parts.append(text)
            char += len(text) + 1
        units.append(Unit(index=i, kind="page", text="\n".join(parts), page=i + 1, height=height))
        layouts.append(lines)
    doc = SourceDoc(path="numbers.pdf", format="pdf", units=units, sha256="0" * 64, size=0,
                    page_count=len(units), _lines=lambda u: layouts[u])
    tree = build_doc(doc)
    assert list(tree.walk())
    for lines in layouts:  # what structure saw: finite numbers only
        assert all(math.isfinite(ln.x0 + ln.y0 + ln.x1 + ln.y1 + ln.size) and ln.size >= 0 for ln in lines)


ROWS = [("Cash and cash equivalents", "4,236", "3,844"), ("Trade receivables, net", "2,065", "1,878"),
        ("Total current assets", "8,996", "8,669"), ("Goodwill", "12,787", "12,668"), ("Other assets", "(841)", "-"),
        ("Total assets", "27,165", "27,241"), ("Accounts payable", "1,120", "998"),
        ("Accrued expenses", "2,410", "2,305"), ("Total liabilities", "9,876", "9,512")]  # enough figures: tabular


@pytest.mark.parametrize("failure", ["raises", "span outside the page"])
def test_a_failing_table_pass_costs_its_page_the_tables_not_the_document_its_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str) -> None:
    """The PDF table pass is a heuristic: when it fails on a page (an exception, or a table whose span does not
    fit the page's text), that page keeps its text without tables, the other pages keep theirs, and a finding says
    so. It used to fail the whole read ("cannot extract text")."""
    from treebuild.model import Table
    from treebuild.readers import pdf_tables

    path = _write(tmp_path / "statements.pdf", fg.DocSpec((fg.statement_page(ROWS), fg.statement_page(ROWS))))
    clean = treebuild.read(path)
    assert [t.page for t in clean.tables] == [1, 2] and clean.findings == []

    real = pdf_tables.page_tables

    def failing(words: object, text: str, *, unit: int, page: int) -> list[Table]:
        if unit == 0 and failure == "raises":
            raise ZeroDivisionError("float division by zero")
        found = real(words, text, unit=unit, page=page)  # type: ignore[arg-type]
        if unit == 0:
            return [Table.from_cells([list(r) for r in ROWS], unit=0, start=0, end=len(text) + 10, page=1)]
        return found

    monkeypatch.setattr(pdf_tables, "page_tables", failing)
    doc = treebuild.read(path)
    assert [u.text for u in doc.units] == [u.text for u in clean.units]
    assert doc.tables == clean.tables[1:]
    [finding] = doc.findings
    assert (finding.code, finding.stage, finding.page) == ("table_pass_failed", "read", 1)
    cause = "ZeroDivisionError: float division by zero" if failure == "raises" else "a table spans characters 0-"
    assert finding.message.startswith(f"table pass failed on 1 page(s), first on page 1: {cause}")
    assert finding.message.endswith("; their text is kept, without tables")
    tree = treebuild.build(path)  # a whole build goes on, and says so
    assert any(f.code == "table_pass_failed" for f in tree.findings)
