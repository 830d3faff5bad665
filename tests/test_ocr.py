"""OCR of pages without usable text: which pages, the text layer it makes, the cache, limits and warnings.

Scans are made here: a generated PDF rendered to grey images and rebuilt as an image-only PDF
(:func:`docgen.scan_copy`), read by the real Tesseract (tesserocr + Debian's trained data, installed by
``./scripts/test``). Without them the module is skipped, unless ``TREEBUILD_REQUIRE_OCR=1`` (set by
``./scripts/test``) makes that a failure.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from docgen import BODY_SIZE, Text, scan_copy, write_pdf

from treebuild import ingest
from treebuild.errors import ReadError, TreebuildError
from treebuild.pipeline import build
from treebuild.readers import ocr as ocr_module
from treebuild.readers import read
from treebuild.readers.ocr import Box, OcrLine, OcrMode, OcrRequest, OcrUnavailable, OcrWord, PageImage, engine
from treebuild.readers.ocr_pages import ocr_progress, page_needs_ocr
from treebuild.settings import BuildSettings, resolve_settings

try:
    engine()
except OcrUnavailable as exc:
    if os.environ.get("TREEBUILD_REQUIRE_OCR") == "1":
        raise
    pytest.skip(f"no OCR engine: {exc}", allow_module_level=True)

HEADING = 16.0
CHAPTERS = [
    ("1 Introduction", ["The harbour authority publishes tide tables every spring.",
                        "Ferries leave the northern pier at dawn."]),
    ("2 Lighthouse keepers", ["Keepers record the weather in a leather logbook.",
                              "Whales were sighted near the reef in October."]),
    ("3 Cargo manifests", ["Each manifest lists timber, copper and woollen cloth.",
                           "Customs officers stamp every crate before loading."]),
]


def _lines(title: str, body: list[str]) -> list[Text | str]:
    return [Text(title, 100, HEADING, True), *body]


def handbook(path: Path) -> Path:
    """A cover with a printed contents list, then one chapter a page under a large bold numbered heading."""
    contents: list[Text | str] = [Text("Contents", 100, HEADING, True)]
    contents += [f"{title} . . . . . . . . {k + 2}" for k, (title, _) in enumerate(CHAPTERS)]
    return write_pdf(path, [contents, *(_lines(t, b) for t, b in CHAPTERS)])


class Counting:
    """The real engine, counting its calls (pages read, and lines read again past a leader)."""

    def __init__(self, real: Any):
        self.real = real
        self.identity = real.identity
        self.calls = 0
        self.lines = 0

    def recognize(self, image: PageImage, seconds: float) -> list[OcrLine] | None:
        self.calls += 1
        return self.real.recognize(image, seconds)  # type: ignore[no-any-return]

    def read_lines(self, image: PageImage, boxes: list[Box], seconds: float) -> list[list[OcrWord]] | None:
        self.lines += len(boxes)
        return self.real.read_lines(image, boxes, seconds)  # type: ignore[no-any-return]


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Counting:
    real = engine()
    wrapper = Counting(real)
    monkeypatch.setitem(ocr_module._made, ("tesseract", "eng"), wrapper)
    return wrapper


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "ocr-cache"
    monkeypatch.setenv("TREEBUILD_OCR_CACHE", str(cache))
    return cache


def _words(text: str) -> set[str]:
    """Words without dot leaders (a scan's spaced leader dots run together)."""
    return {w.strip(".") for w in text.split()} - {""}


def test_scanned_pages_get_a_text_layer_with_lines_sizes_and_structure(tmp_path: Path, counting: Counting) -> None:
    src = handbook(tmp_path / "handbook.pdf")
    scan = scan_copy(src, tmp_path / "scan.pdf")
    assert not any(p.get_text().strip() for p in pymupdf.open(scan))  # really image-only
    doc = read(scan)
    assert counting.calls == 4
    original = read(src, ocr=OcrRequest(mode=OcrMode.off))
    for got, want in zip(doc.units, original.units, strict=True):
        words = _words(want.text)
        assert len(words & _words(got.text)) >= 0.8 * len(words)
    # lines: boxes in page points, at the original's place, sizes estimated from the line heights
    for k, (title, _body) in enumerate(CHAPTERS, start=1):
        lines = doc.lines(k)
        head = next(ln for ln in lines if ln.text == title)
        body = [ln for ln in lines if ln is not head]
        assert abs(head.size - HEADING) <= 1.5 and all(abs(ln.size - BODY_SIZE) <= 1.0 for ln in body)
        assert head.bold and not any(ln.bold for ln in body)  # from the strokes' width
        assert 72 - 3 <= head.x0 <= 72 + 3 and 100 - HEADING <= head.y0 < head.y1 <= 100 + 5
        assert doc.units[k].text[head.char:].startswith(title)
    assert doc.ocr is not None and doc.ocr["pages"] == 4 and doc.ocr["page_list"] == "1-4"
    assert doc.ocr["engine"].startswith("tesseract 5.") and 0.8 <= doc.ocr["confidence"] <= 1.0
    assert doc.warnings == []
    tree = build(scan)  # the structure sources read the OCR'd pages as any other
    titles = [n.title for n in tree.walk()]
    assert [t for t in titles if t[0].isdigit()] == [t for t, _ in CHAPTERS]
    assert [n.start_page for n in tree.walk() if n.title[0].isdigit()] == [2, 3, 4]
    assert tree.stats["ocr"]["pages"] == 4
    born = {n.title: n for n in build(src).walk()}
    for node in (n for n in tree.walk() if n.title[0].isdigit()):  # the source's confidence times the OCR's
        assert node.origin == born[node.title].origin
        assert node.confidence == pytest.approx(born[node.title].confidence * doc.text_confidence(node.start))
        assert 0.5 < doc.text_confidence(node.start) < 1.0


def test_text_confidence_is_the_reader_s_for_the_line_holding_a_position() -> None:
    from treebuild.model import Format, Pos, SourceDoc, Unit, UnitKind

    units = [Unit(0, UnitKind.page, "Born digital\n", page=1), Unit(1, UnitKind.page, "Title\nBody text\n", page=2)]
    doc = SourceDoc("x.pdf", Format.pdf, units, "0" * 64, 1, read_confidence={1: [(0, 0.6), (6, 0.9)]})
    assert doc.text_confidence(Pos(0, 3)) == 1.0
    assert [doc.text_confidence(Pos(1, c)) for c in (0, 5, 6, 12)] == [0.6, 0.6, 0.9, 0.9]


def test_only_image_only_pages_are_read_and_a_reread_makes_no_ocr_call(tmp_path: Path, counting: Counting) -> None:
    src = handbook(tmp_path / "handbook.pdf")
    mixed = scan_copy(src, tmp_path / "mixed.pdf", pages=[1, 3])  # chapters 1 and 3 scanned, the rest born-digital
    original = read(src, ocr=OcrRequest(mode=OcrMode.off))
    doc = read(mixed)
    assert counting.calls == 2 and doc.ocr is not None and doc.ocr["page_list"] == "2,4"
    assert doc.units[0].text == original.units[0].text and doc.units[2].text == original.units[2].text
    assert doc.lines(0)[0].font != "OCR" and doc.lines(1)[0].font == "OCR"
    again = read(mixed)
    assert counting.calls == 2  # every page from the cache
    assert again.ocr is not None and again.ocr["cached"] == 2
    assert [u.text for u in again.units] == [u.text for u in doc.units]
    born = read(src)
    assert counting.calls == 2 and born.ocr is None  # born-digital pages are never read by OCR


def test_table_cells_far_apart_are_lines_of_their_own(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    for k, (label, value) in enumerate([("Net sales", "6,269"), ("Operating profit", "675")]):
        page.insert_text((72, 100 + 20 * k), label, fontsize=11)
        page.insert_text((400, 100 + 20 * k), value, fontsize=11)
    doc.save(tmp_path / "table.pdf")
    scan = read(scan_copy(tmp_path / "table.pdf", tmp_path / "scan.pdf"))
    assert [ln.text for ln in scan.lines(0)] == ["Net sales", "6,269", "Operating profit", "675"]
    assert scan.units[0].text == "Net sales\n6,269\nOperating profit\n675\n"


CONTENTS = [("1 Introduction", 3), ("1.1 Terminology", 3), ("2 Packages", 5), ("2.1 Manifest", 6),
            ("2.2 Encryption Process", 8), ("3 Digital Signatures", 9)]


def _leader_row(title: str, page: int, size: float = 11.0, right: float = 540.0) -> tuple[str, float]:
    """``title`` and its page joined by periods set close (a word processor's dot leader), and its width."""
    font = pymupdf.Font("helv")
    dots = int((right - 72 - font.text_length(f"{title}{page}", size)) / font.text_length(".", size))
    text = f"{title}{'.' * dots}{page}"
    return text, font.text_length(text, size)


def test_dense_dot_leaders_become_leaders_and_the_titles_read_clean(tmp_path: Path, counting: Counting) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Table of Contents", fontsize=16, fontname="hebo")
    for k, (title, number) in enumerate(CONTENTS):
        page.insert_text((72, 120 + 22 * k), _leader_row(title, number)[0], fontsize=11)
    doc.save(tmp_path / "contents.pdf")
    scan = read(scan_copy(tmp_path / "contents.pdf", tmp_path / "scan.pdf"))
    rows = [ln.text for ln in scan.lines(0)][1:]
    assert counting.lines >= len(CONTENTS)  # each title read again, without its leader
    for (title, number), row in zip(CONTENTS, rows, strict=True):
        assert re.fullmatch(rf"{re.escape(title)} \.{{20,}} {number}", row), row


def test_light_text_on_a_dark_box_is_read(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(72, 80, 160, 104), color=None, fill=(0.3, 0.3, 0.3))
    page.insert_text((78, 98), "Note 4 :", fontsize=14, color=(1, 1, 1))
    page.insert_text((170, 98), "Earnings per share", fontsize=14)
    page.insert_text((72, 130), "We compute earnings per share from the weighted shares outstanding.", fontsize=11)
    doc.save(tmp_path / "note.pdf")
    scan = read(scan_copy(tmp_path / "note.pdf", tmp_path / "scan.pdf"))
    assert re.match(r"Note 4 ?:\s+Earnings per share\n", scan.units[0].text), scan.units[0].text


def test_list_bullets_read_as_bullets(tmp_path: Path) -> None:
    items = ["Client computing revenue grew.", "Data center revenue fell.", "Network revenue was flat."]
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Highlights of the quarter", fontsize=12, fontname="hebo")
    for k, item in enumerate(items):
        page.insert_text((80, 110 + 20 * k), "\u2022", fontsize=11)
        page.insert_text((96, 110 + 20 * k), item, fontsize=11)
    doc.save(tmp_path / "list.pdf")
    scan = read(scan_copy(tmp_path / "list.pdf", tmp_path / "scan.pdf"))
    assert [ln.text for ln in scan.lines(0)][1:] == [f"\u2022 {item}" for item in items]


def _counting_renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from treebuild.readers import ocr_pages

    renders: list[int] = []
    real = ocr_pages.render_page

    def render(page: pymupdf.Page, dpi: int = ocr_pages.OCR_DPI) -> PageImage:
        renders.append(page.number or 0)
        return real(page, dpi)

    monkeypatch.setattr(ocr_pages, "render_page", render)
    return renders


def test_cached_pages_are_found_without_rendering_them_again(tmp_path: Path, counting: Counting,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    src = write_pdf(tmp_path / "a.pdf", [["Tide tables for the northern pier"], ["Lighthouse keepers' log"]])
    scan = scan_copy(src, tmp_path / "scan.pdf")
    first = read(scan)
    renders = _counting_renders(monkeypatch)
    assert counting.calls == 2
    again = read(scan)  # the same file: found by what its pages are drawn from
    assert renders == [] and counting.calls == 2 and again.ocr is not None and again.ocr["cached"] == 2
    assert [u.text for u in again.units] == [u.text for u in first.units]
    assert [ln.bold for ln in again.lines(0)] == [ln.bold for ln in first.lines(0)]
    # saved again by another tool: objects renumbered and reordered, streams as they were
    with pymupdf.open(scan) as doc:
        doc.insert_page(0, text="A cover sheet added in front")
        doc.save(tmp_path / "renumbered.pdf", garbage=4)
    moved = read(tmp_path / "renumbered.pdf")
    assert renders == [] and counting.calls == 2 and moved.units[1].text == first.units[0].text
    # the images' streams compressed anew: the pages are rendered, the pictures are the same, no OCR call
    with pymupdf.open(scan) as doc:
        for page in doc:
            for info in page.get_images(full=True):
                doc.update_stream(info[0], doc.xref_stream(info[0]), compress=False)
        doc.save(tmp_path / "recompressed.pdf")
    again = read(tmp_path / "recompressed.pdf")
    assert renders == [0, 1] and counting.calls == 2 and again.units[1].text == first.units[1].text


def test_modes_off_and_force(tmp_path: Path, counting: Counting) -> None:
    src = write_pdf(tmp_path / "born.pdf", [["Anchors and chains"], ["Sails and rigging"]])
    forced = read(src, ocr=OcrRequest(mode=OcrMode.force))
    assert counting.calls == 2 and forced.ocr is not None and forced.ocr["pages"] == 2
    assert "rigging" in forced.units[1].text
    scan = scan_copy(src, tmp_path / "scan.pdf")
    off = read(scan, ocr=OcrRequest(mode=OcrMode.off))
    assert counting.calls == 2 and off.ocr is None
    assert off.warnings == ["no text layer on 2 of 2 pages and OCR is off: ingest with --ocr auto "
                            "(or TREEBUILD_OCR=auto) to read them"]


def _image_page(doc: pymupdf.Document) -> pymupdf.Page:
    """A page covered by a picture of writing (a scan): ink on paper."""
    src = pymupdf.open()
    text_page = src.new_page()
    text_page.insert_text((72, 100), "Ledger of the harbour master, page one", fontsize=14)
    pix = text_page.get_pixmap(dpi=100, colorspace=pymupdf.csGRAY)
    page = doc.new_page()
    page.insert_image(page.rect, pixmap=pix)
    return page


def test_which_pages_need_ocr(tmp_path: Path) -> None:
    doc = pymupdf.open()
    born = doc.new_page()
    born.insert_text((72, 100), "A born-digital page of ordinary text.", fontsize=11)
    _image_page(doc)  # 1: a scan
    invisible = _image_page(doc)  # 2: a scan with an earlier OCR's invisible layer
    invisible.insert_text((72, 100), "Ledger of the harbour master, page one", fontsize=14, render_mode=3)
    stamped = _image_page(doc)  # 3: a scan with a visible Bates number
    stamped.insert_text((500, 780), "HBR-000123", fontsize=8)
    over = _image_page(doc)  # 4: a full-page picture under plenty of visible text (a designed page)
    for k in range(40):
        over.insert_text((72, 60 + 18 * k), f"Visible text set over a background picture, line {k}.", fontsize=12)
    figure = doc.new_page()  # 5: a figure with a caption on a text page
    picture = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 8, 8), 0)
    figure.insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=picture)
    figure.insert_text((72, 320), "Figure 1. The harbour at dawn.", fontsize=10)
    infographic = doc.new_page()  # 6: a large picture (70% of the page) and a footnote: born-digital all the same
    infographic.insert_image(pymupdf.Rect(30, 30, 565, 720), pixmap=picture)
    infographic.insert_text((40, 780), "(1) Non-GAAP measure. See Item 7.", fontsize=8)
    garbage = doc.new_page()  # 7: an embedded font without its ToUnicode map: glyph ids, not characters
    garbage.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)
    garbage.insert_text((72, 100), "Ledger of the harbour master", fontsize=11, fontname="F0")
    path = tmp_path / "kinds.pdf"
    doc.save(path)
    broken = pymupdf.open(path)
    for xref in range(1, broken.xref_length()):
        if "/ToUnicode" in broken.xref_object(xref):
            broken.xref_set_key(xref, "ToUnicode", "null")
    broken.save(tmp_path / "broken.pdf")
    pages = list(pymupdf.open(tmp_path / "broken.pdf"))
    assert pages[7].get_text().startswith("-FEHFS\x01PG")  # what such a page reads as
    reasons = [page_needs_ocr(p, p.get_text()) for p in pages]
    assert reasons == [None, "no text layer", "invisible text layer over a page image",
                       "text covering almost none of a page image", None, None, None,
                       "text layer of undecodable characters"]


def test_missing_engine_or_language_warns_what_to_install(tmp_path: Path) -> None:
    scan = scan_copy(write_pdf(tmp_path / "a.pdf", [["Tide tables"]]), tmp_path / "scan.pdf")
    doc = read(scan, ocr=OcrRequest(lang="zzz"))
    assert [f.code for f in doc.findings] == ["ocr_unavailable"]
    assert doc.warnings == ["1 of 1 pages have no usable text layer and were not read: no Tesseract "
                            "language data for 'zzz' (install it with `apt-get install tesseract-ocr-zzz` (or set "
                            "TESSDATA_PREFIX to the folder holding zzz.traineddata))"]
    with pytest.raises(OcrUnavailable, match="unknown OCR engine 'nope'"):
        engine("nope")


def test_limits_pages_per_document_and_seconds_per_page(tmp_path: Path, counting: Counting) -> None:
    scan = scan_copy(write_pdf(tmp_path / "a.pdf", [["Tide tables"], ["Pier lights"]]), tmp_path / "scan.pdf")
    with pytest.raises(ReadError) as err:
        read(scan, ocr=OcrRequest(max_pages=1))
    assert str(err.value) == (f"{scan}: 2 pages need OCR, over the limit of 1 (raise it with TREEBUILD_OCR_MAX_PAGES "
                              "if the document is genuine, or ingest with --ocr off)")
    assert counting.calls == 0
    doc = read(scan, ocr=OcrRequest(page_seconds=0.001))
    assert doc.ocr is None and all(not u.text for u in doc.units)
    assert doc.warnings[0] == "OCR gave up on 2 page(s) after 0.001 s each (raise " \
                              "TREEBUILD_OCR_PAGE_SECONDS): pages 1-2"


def test_progress_is_reported_for_long_documents(tmp_path: Path) -> None:
    src = write_pdf(tmp_path / "a.pdf", [[f"Chapter {k} of the voyage"] for k in range(4)])
    scan = scan_copy(src, tmp_path / "scan.pdf")
    seen: list[tuple[str, int, int]] = []
    with ocr_progress(lambda path, done, total: seen.append((path, done, total))):
        read(scan)
    assert seen == [(str(scan), k, 4) for k in range(1, 5)]


def test_settings_from_environment_and_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    base = BuildSettings()
    assert base.hash() == BuildSettings(ocr="auto").hash()  # defaults leave earlier versions' hash alone
    assert BuildSettings(ocr="off").hash() != base.hash() != BuildSettings(ocr_lang="deu").hash()
    monkeypatch.setenv("TREEBUILD_OCR", "force")
    assert resolve_settings(None, None)[0].ocr == "force"
    assert resolve_settings(BuildSettings(ocr="off"), None)[0].ocr == "off"  # given wins
    monkeypatch.setenv("TREEBUILD_OCR", "sometimes")
    with pytest.raises(TreebuildError, match="invalid TREEBUILD_OCR='sometimes'.*use auto, off or force"):
        resolve_settings(None, None)


def test_ingest_records_ocr_on_the_tree_row_and_reingest_makes_no_call(tmp_path: Path, counting: Counting) -> None:
    scan = scan_copy(handbook(tmp_path / "handbook.pdf"), tmp_path / "scan.pdf", pages=[2, 3])
    res = ingest(scan, tmp_path / "store")
    assert res.status == "created" and counting.calls == 2
    from treebuild.store import Store

    st = Store(tmp_path / "store")
    row = st.sql("SELECT json_extract(stats, '$.ocr.pages')::INT AS n, json_extract_string(stats, '$.ocr.page_list') "
                 "AS pages FROM trees").to_pylist()
    assert row == [{"n": 2, "pages": "3-4"}]
    again = ingest(scan, tmp_path / "store", force=True)
    assert again.status == "created" and counting.calls == 2  # a new version, every page from the cache


def test_cli_ingests_a_mixed_folder_and_query_finds_words_only_on_scanned_pages(
        tmp_path: Path, counting: Counting) -> None:
    from typer.testing import CliRunner

    from treebuild.cli import app

    runner = CliRunner()
    folder = tmp_path / "in"
    folder.mkdir()
    handbook(tmp_path / "handbook.pdf")
    scan_copy(tmp_path / "handbook.pdf", folder / "scanned.pdf")
    scan_copy(tmp_path / "handbook.pdf", folder / "partly.pdf", pages=[3])  # only "3 Cargo manifests" scanned
    write_pdf(folder / "born.pdf", [[Text("1 Budget", 100, HEADING, True), "Figures for the fiscal year."]])
    (folder / "notes.md").write_text("# Notes\n\nNothing about ships.\n")
    store = str(tmp_path / "store")
    res = runner.invoke(app, ["ingest", str(folder), "--store", store])
    assert res.exit_code == 0, res.output
    # the scan's 4 pages; the partly scanned file's one scanned page is the same image as the scan's page 4, so
    # it comes from the cache; born-digital pages are never read by OCR
    assert counting.calls == 4
    assert "4 documents: 4 created, 0 warnings" in res.output
    again = runner.invoke(app, ["ingest", str(folder), "--store", store, "--force"])
    assert again.exit_code == 0 and counting.calls == 4  # a re-ingest reads every scanned page from the cache
    off = runner.invoke(app, ["ingest", str(folder / "scanned.pdf"), "--store", store, "--ocr", "off"])
    assert off.exit_code == 0 and "OCR is off" in off.output and counting.calls == 4
    # "timber" and "copper" are printed on the scanned page of chapter 3 only
    hits = runner.invoke(app, ["query", "which manifest lists timber and copper", "--store", store,
                               "--doc", "partly", "--json"])
    assert hits.exit_code == 0, hits.output
    import json

    passages = json.loads(hits.output)["passages"]
    assert passages and passages[0]["title"] == "3 Cargo manifests" and passages[0]["start_page"] == 4


def test_a_page_of_the_largest_size_is_read_at_a_lower_resolution(tmp_path: Path) -> None:
    """A page of 200 by 200 inches (PDF's largest) holding a scan: rendered at 300 dpi it would be 3.6 billion
    pixels, which MuPDF refuses, and the whole read failed ("Overly large image"); at the resolution that keeps
    it to MAX_OCR_PIXELS its large type is read."""
    from treebuild.readers.ocr_pages import MAX_OCR_PIXELS, OCR_DPI, render_page

    src = write_pdf(tmp_path / "a.pdf", [["Tide tables for the northern pier"]])
    picture = pymupdf.open(src)[0].get_pixmap(dpi=150, colorspace=pymupdf.csGRAY)
    doc = pymupdf.open()
    page = doc.new_page(width=14400, height=14400)
    page.insert_image(pymupdf.Rect(0, 0, 14400, 14400 * picture.height / picture.width), pixmap=picture)
    doc.save(tmp_path / "poster.pdf")
    image = render_page(pymupdf.open(tmp_path / "poster.pdf")[0])
    assert image.width * image.height <= MAX_OCR_PIXELS and image.dpi < OCR_DPI
    poster = read(tmp_path / "poster.pdf")
    assert "northern pier" in poster.units[0].text and poster.ocr is not None
