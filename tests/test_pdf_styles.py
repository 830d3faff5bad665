"""The PDF layout pass through MuPDF's JSON and HTML writers (``treebuild.readers.pdf_styles``) gives
the lines ``extractDICT`` gives, on pages generated here: words set one by one as TeX sets them
(MuPDF inserts the spaces), mixed faces and sizes in a line, a run-in head in a larger type,
superscripts, an escaped character; and a page the writers cannot type goes through ``extractDICT``."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import treebuild.readers.pdf as pdf_reader
from treebuild.model import Line
from treebuild.readers import read
from treebuild.readers.pdf_styles import FontBook, page_styles

_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
_Word = tuple[str, str, float]  # text, base-14 font, size


def _set_words(page: pymupdf.Page, y: float, words: list[_Word], rise: dict[int, float] | None = None) -> None:
    """Each word placed on its own with no space character, as TeX output is (``rise`` lifts some)."""
    x = 72.0
    for i, (word, font, size) in enumerate(words):
        page.insert_text((x, y - (rise or {}).get(i, 0.0)), word, fontname=font, fontsize=size)
        x += pymupdf.get_text_length(word, fontname=font, fontsize=size) + size * 0.35


def _tex_like(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    _set_words(page, 90, [("2.3", "hebo", 14), ("Mixed", "hebo", 14), ("Faces", "hebo", 14)])
    _set_words(page, 130, [("Body", "helv", 10), ("text", "helv", 10), ("with", "helv", 10), ("a", "helv", 10),
                           ("verbatim_name", "cour", 10), ("inside", "helv", 10), ("it.", "helv", 10)])
    _set_words(page, 160, [("Europe", "hebo", 13), ("-", "helv", 10), ("In", "helv", 10), ("March", "helv", 10),
                           ("sales", "helv", 10), ("rose.", "helv", 10)])
    _set_words(page, 190, [("Energy", "helv", 10), ("is", "helv", 10), ("mc", "helv", 10), ("2", "helv", 7),
                           ("here", "helv", 10)], rise={3: 4.0})
    _set_words(page, 220, [("Fish", "helv", 10), ("&", "helv", 10), ("Chips", "helv", 10), ("<ok>", "cour", 10)])
    _set_words(page, 250, [("Bold", "hebo", 11), ("all", "hebo", 11), ("through", "hebo", 11)])
    page.insert_text((72, 280), "Plain line with real spaces in one run", fontname="helv", fontsize=10)
    page.insert_text((300, 760), "17", fontname="helv", fontsize=9)
    doc.save(path)
    return path


def _lines(path: Path, writers: bool) -> list[Line]:
    with pymupdf.open(path) as doc:
        page = doc[0]
        tp = page.get_textpage(flags=_FLAGS)
        text = tp.extractText()
        book = FontBook()
        if writers:
            assert page_styles(tp, book, pdf_reader.LEAD_STEP) is not None  # the writers typed this page
            out, _blocks = pdf_reader._page_layout(page, text, tp, book)
            return out
        original = pdf_reader.page_styles
        pdf_reader.page_styles = lambda *_args: None
        try:
            out, _blocks = pdf_reader._page_layout(page, text, tp, book)
        finally:
            pdf_reader.page_styles = original
        return out


def test_writers_give_the_lines_extractdict_gives(tmp_path: Path) -> None:
    path = _tex_like(tmp_path / "tex.pdf")
    with pymupdf.open(path) as raw:
        spans = [len(ln["spans"]) for b in raw[0].get_text("dict")["blocks"] for ln in b.get("lines", ())]
    assert max(spans) >= 10  # the premise: words and inserted spaces are spans of their own
    fast, slow = _lines(path, writers=True), _lines(path, writers=False)
    assert [ln.text for ln in fast] == [ln.text for ln in slow]
    mixed_text, run_in_text = "Body text with a verbatim_name inside it.", "Europe - In March sales rose."
    for a, b in zip(fast, slow, strict=True):
        assert (a.x0, a.y0, a.x1, a.y1) == pytest.approx((b.x0, b.y0, b.x1, b.y1), abs=0.01), a.text
        if a.text in (mixed_text, run_in_text):  # the two intended differences, below
            continue
        assert (a.size, a.bold, a.font, a.lead, a.lead_size, a.char, a.block) == \
            (b.size, b.bold, b.font, b.lead, b.lead_size, b.char, b.block), a.text
    by_text = {ln.text: ln for ln in fast}
    head = by_text["2.3 Mixed Faces"]
    assert head.bold and head.size == pytest.approx(14) and "Bold" in head.font
    # a line's font is its run of most characters (the prose), where extractDICT's spans made it its
    # longest word (the verbatim name)
    mixed = by_text[mixed_text]
    assert not mixed.bold and mixed.font == "Helvetica" and mixed.size == pytest.approx(10)
    assert {ln.text: ln for ln in slow}[mixed_text].font == "Courier"
    # a run-in head is a larger first run before the line's main type; extractDICT's spans made the
    # head, the line's longest word, its main type, and saw no head
    run_in = by_text[run_in_text]
    assert run_in.lead == len("Europe") and run_in.lead_size == pytest.approx(13) and run_in.size == pytest.approx(10)
    assert ({ln.text: ln for ln in slow}[run_in_text].size, {ln.text: ln for ln in slow}[run_in_text].lead) == (13, 0)
    assert by_text["Fish & Chips <ok>"].font == "Helvetica"
    assert by_text["Bold all through"].bold


def test_the_reader_uses_the_writers_and_keeps_offsets(tmp_path: Path) -> None:
    """Through ``read``: every line's ``char`` points at its text in the page unit, as before."""
    path = _tex_like(tmp_path / "tex.pdf")
    doc = read(path)
    lines = doc.lines(0)
    text = doc.units[0].text
    assert len(lines) == 8
    assert all(text[ln.char:].startswith(ln.text) for ln in lines)
    assert lines == _lines(path, writers=True)


def test_a_page_whose_writings_differ_goes_through_extractdict(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """If the HTML writer's lines do not match the JSON writer's (here: one line dropped), the page
    is not typed from them; the reader gives ``extractDICT``'s lines instead."""
    import treebuild.readers.pdf_styles as styles

    path = _tex_like(tmp_path / "tex.pdf")
    expected = _lines(path, writers=False)
    written = styles._written

    def one_line_short(tp: pymupdf.TextPage, writer: str, arg: float) -> bytes:
        data = written(tp, writer, arg)
        if writer.endswith("html"):
            start = data.index(b"<p ")
            data = data[:start] + data[data.index(b"</p>", start) + 4:]
        return data

    monkeypatch.setattr(styles, "_written", one_line_short)
    with pymupdf.open(path) as raw:
        assert page_styles(raw[0].get_textpage(flags=_FLAGS), FontBook(), pdf_reader.LEAD_STEP) is None
    assert read(path).lines(0) == expected


def test_font_book_types_seen_only_inside_lines() -> None:
    """A type that opens a line is known exactly; one seen only inside lines takes the font its
    family-and-tags opened a line with and the exact size seen for its printed size, or else its
    family and printed size; a type seen with two fonts is not guessed."""
    book = FontBook()
    book.learn(("CMR10,serif", "10.0", ""), 9.96, "CMR10")
    book.learn(("CMTT10,monospace", "10.0", "<tt>"), 9.96, "CMTT10")
    assert book.look(("CMR10,serif", "10.0", "")) == (9.96, "CMR10")
    assert book.look(("CMR10,serif", "12.0", "")) == (12.0, "CMR10")
    assert book.look(("CMR10,serif", "10.0", "<i>")) is None
    book.learn(("Arial,sans-serif", "9.0", "<b>"), 9.0, "Arial-BoldMT")
    book.learn(("Arial,sans-serif", "9.0", "<b>"), 9.0, "Arial-Black")
    assert book.look(("Arial,sans-serif", "9.0", "<b>")) is None


def test_boxes_of_short_fonts_are_stretched_as_pymupdf_does() -> None:
    """MuPDF's box of a font whose ascender and descender add up to less than its size is shorter
    than the size; PyMuPDF stretches it about the baseline, and so does the writers' path."""
    from treebuild.readers.pdf_styles import SCALE, _box

    def scaled(v: float) -> int:
        return round(v * SCALE)

    box = {"x": scaled(90), "y": scaled(136.8), "w": scaled(3.2), "h": scaled(4.2)}
    x0, y0, x1, y1 = _box(box, base=140.0, size=5.98)
    assert y1 - y0 == pytest.approx(5.98, abs=0.002)
    assert (140.0 - y0) / (y1 - 140.0) == pytest.approx((140.0 - 136.8) / (141.0 - 140.0), rel=1e-3)
    tall = {"x": scaled(72), "y": scaled(100), "w": scaled(50), "h": scaled(12)}
    assert _box(tall, base=109.0, size=10.0)[1:4:2] == pytest.approx((100.0, 112.0), abs=0.002)


def test_the_structure_stage_runs_without_cyclic_collections(tmp_path: Path) -> None:
    """``build_nodes`` pauses the cyclic collector (its many objects hold no cycles) and gives it back
    as it found it: on stays on, off stays off."""
    import gc

    from docgen import write_pdf

    from treebuild.settings import BuildSettings
    from treebuild.structure import build_nodes

    pages: list[list[object]] = [[f"{p}.{i} Section heading words" if i % 5 == 0 else f"body line {i} of page {p}"
                                  for i in range(25)] for p in range(60)]
    doc = read(write_pdf(tmp_path / "doc.pdf", pages))  # type: ignore[arg-type]
    started: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    settings = BuildSettings()
    build_nodes(read(tmp_path / "doc.pdf"), settings)  # the lazy imports done (they may collect)
    gc.collect()
    gc.callbacks.append(count)
    try:
        build_nodes(doc, settings)
        assert gc.isenabled()
        # tens of thousands of allocations (four collections without the pause), and only the
        # one the collector owes them once it is back on
        assert len(started) <= 1
        gc.disable()
        try:
            build_nodes(read(tmp_path / "doc.pdf"), settings)
            assert not gc.isenabled()
        finally:
            gc.enable()
    finally:
        gc.callbacks.remove(count)
