"""The second engine behind the OCR seam: RapidOCR (``TREEBUILD_OCR_ENGINE=rapidocr``, the ``rapidocr`` extra; its
models ship inside the wheel). A generated page is scanned (:func:`docgen.scan_copy`) and read through the PDF
reader with that engine. Skipped without the package, unless ``TREEBUILD_REQUIRE_OCR=1`` (``./scripts/test``,
whose setup installs it) makes that a failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from docgen import Text, scan_copy, write_pdf

from treebuild.readers import read
from treebuild.readers.ocr import OcrRequest, OcrUnavailable, engine
from treebuild.readers.ocr_pages import render_page

try:
    engine("rapidocr")
except OcrUnavailable as exc:
    if os.environ.get("TREEBUILD_REQUIRE_OCR") == "1":
        raise
    pytest.skip(f"no RapidOCR: {exc}", allow_module_level=True)


def _letters(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())  # RapidOCR drops some spaces between words


def test_rapidocr_reads_a_scanned_page_into_lines_with_boxes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TREEBUILD_OCR_CACHE", str(tmp_path / "cache"))
    lines = ["Ferries leave the northern pier at dawn.", "Keepers record the weather in a logbook."]
    src = write_pdf(tmp_path / "a.pdf", [[Text("Harbour Rules", 100, 16.0, True), *lines]])
    doc = read(scan_copy(src, tmp_path / "scan.pdf"), ocr=OcrRequest(engine="rapidocr"))
    assert doc.ocr is not None and doc.ocr["engine"].startswith("rapidocr ") and doc.ocr["pages"] == 1
    got = [(_letters(ln.text), ln) for ln in doc.lines(0)]
    assert [text for text, _ in got] == [_letters(t) for t in ["Harbour Rules", *lines]]
    head = got[0][1]
    assert 72 - 4 <= head.x0 <= 72 + 4 and 100 - 16 <= head.y0 < head.y1 <= 100 + 5 and head.font == "OCR"
    assert head.size > got[1][1].size  # the heading's type is larger


def test_rapidocr_reads_a_box_as_one_line(tmp_path: Path) -> None:
    import pymupdf

    src = write_pdf(tmp_path / "a.pdf", [["Customs officers stamp every crate."]])
    image = render_page(pymupdf.open(scan_copy(src, tmp_path / "scan.pdf"))[0])
    scale = image.dpi / 72
    [words] = engine("rapidocr").read_lines(image, [(60 * scale, 85 * scale, 300 * scale, 106 * scale)], 60.0) or []
    assert _letters(" ".join(w.text for w in words)) == _letters("Customs officers stamp every crate.")
