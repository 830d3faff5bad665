"""PDF reader: page units with exact text and block geometry, page labels, outline entries,
typographic lines, metadata and the errors a user sees. PDFs are written with PyMuPDF."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pymupdf
import pytest
from docgen import BODY_SIZE, PAGE_HEIGHT, Text, dest_y, page_text, rewrite_destinations, toc_row, write_pdf

from treebuild import build
from treebuild.errors import ReadError, UnsupportedFormat
from treebuild.model import Line, SourceDoc
from treebuild.readers import read

DATA = Path(__file__).parent / "data"

PAGES: list[list[Text | str]] = [
    ["Cover line", "second cover line"],
    [Text("Chapter heading", 130, 18, bold=True), "body one", "body two"],
    ["only line"],
]


def test_one_unit_per_page_with_exact_text_and_blocks(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "doc.pdf", PAGES)
    doc = read(path)
    assert doc.format == "pdf" and doc.paged and doc.page_count == 3
    assert [(u.index, u.kind, u.page) for u in doc.units] == [(0, "page", 1), (1, "page", 2), (2, "page", 3)]
    assert [u.text for u in doc.units] == [page_text(p) for p in PAGES]
    for unit in doc.units:
        assert unit.height == pytest.approx(PAGE_HEIGHT)
        assert unit.label is None
        assert unit.blocks is not None
        # each block's offset points at a line start, top-down, in text order
        starts = [unit.text[off:].split("\n", 1)[0] for _, _, off in unit.blocks]
        assert starts == unit.text.splitlines()
        assert [b[0] for b in unit.blocks] == sorted(b[0] for b in unit.blocks)
        assert all(y0 < y1 for y0, y1, _ in unit.blocks)
    data = path.read_bytes()
    assert doc.sha256 == hashlib.sha256(data).hexdigest() and doc.size == len(data)
    assert doc.end() == (2, len(doc.units[2].text))


def test_block_geometry_matches_placed_lines(tmp_path: Path) -> None:
    doc = read(write_pdf(tmp_path / "geo.pdf", [[Text("top", 100), Text("bottom", 700)]]))
    (y0a, y1a, _), (y0b, y1b, off) = doc.units[0].blocks or []
    assert y0a < 100 <= y1a + 1 and y0b < 700 <= y1b + 1  # baseline sits inside the line box
    assert doc.units[0].text[off:] == "bottom\n"


def test_roman_and_prefixed_page_labels(tmp_path: Path) -> None:
    labels = [
        {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
        {"startpage": 3, "prefix": "", "style": "D", "firstpagenum": 1},
        {"startpage": 5, "prefix": "A-", "style": "D", "firstpagenum": 1},
    ]
    doc = read(write_pdf(tmp_path / "labels.pdf", [[f"p{i}"] for i in range(7)], labels=labels))
    assert [u.label for u in doc.units] == ["i", "ii", "iii", "1", "2", "A-1", "A-2"]
    assert [u.page for u in doc.units] == list(range(1, 8))


def test_outline_entries_with_levels_pages_and_y(tmp_path: Path) -> None:
    heading = Text("Part 2", 400, 16, bold=True)
    toc = [
        toc_row(1, "Part 1", 1, 80.0),
        toc_row(2, "  Part   1.1\n", 1, 300.0),
        toc_row(1, "Part 2", 2, dest_y(heading)),
        toc_row(2, "No destination point", 3),
    ]
    doc = read(write_pdf(tmp_path / "outline.pdf", [["a"], ["b", heading], ["c"]], toc=toc))
    got = [(e.level, e.title, e.page) for e in doc.outline]
    assert got == [(1, "Part 1", 1), (2, "Part 1.1", 1), (1, "Part 2", 2), (2, "No destination point", 3)]
    assert [e.y for e in doc.outline[:3]] == pytest.approx([80.0, 300.0, dest_y(heading)])


def test_named_destinations_give_the_same_y_as_goto(tmp_path: Path) -> None:
    """LaTeX/Sphinx/Texinfo bookmarks name their destination; PyMuPDF gives its point bottom-up."""
    heading = Text("Part 2", 400, 16, bold=True)
    toc = [toc_row(1, "Part 1", 1, 80.0), toc_row(2, "Part 1.1", 1, 300.0), toc_row(1, "Part 2", 2, dest_y(heading)),
           toc_row(1, "Part 3", 3, 700.0)]
    goto = write_pdf(tmp_path / "goto.pdf", [["a"], ["b", heading], ["c"]], toc=toc)
    named = rewrite_destinations(Path(shutil.copy(goto, tmp_path / "named.pdf")), "named")
    assert {row[3]["kind"] for row in pymupdf.open(named).get_toc(simple=False)} == {pymupdf.LINK_NAMED}
    want = [80.0, 300.0, dest_y(heading), 700.0]
    assert [e.y for e in read(goto).outline] == pytest.approx(want)
    got = read(named).outline
    assert [e.y for e in got] == pytest.approx(want)
    assert [(e.level, e.title, e.page) for e in got] == [(e.level, e.title, e.page) for e in read(goto).outline]


def test_destinations_without_a_usable_point_have_no_y(tmp_path: Path) -> None:
    """A point off the page, or a page-only named destination (``/Fit``), means the page top."""
    toc = [toc_row(1, "Below the page", 1, PAGE_HEIGHT + 500), toc_row(1, "Above the page", 2, -50.0),
           toc_row(1, "On the page", 3, 200.0)]
    path = write_pdf(tmp_path / "off.pdf", [["a"], ["b"], ["c"]], toc=toc)
    assert [e.y for e in read(path).outline] == [None, None, pytest.approx(200.0)]
    fit = rewrite_destinations(write_pdf(tmp_path / "fit.pdf", [["a"], ["b"]], toc=[toc_row(1, "A", 1, 300.0),
                                                                                 toc_row(1, "B", 2, 300.0)]),
                               "named-fit")
    assert {row[3]["kind"] for row in pymupdf.open(fit).get_toc(simple=False)} == {pymupdf.LINK_NAMED}
    assert [(e.title, e.page, e.y) for e in read(fit).outline] == [("A", 1, None), ("B", 2, None)]


def test_typographic_lines_point_into_unit_text(tmp_path: Path) -> None:
    doc = read(write_pdf(tmp_path / "lines.pdf", PAGES))
    lines = doc.lines(1)
    assert [ln.text for ln in lines] == ["Chapter heading", "body one", "body two"]
    head, body = lines[0], lines[1]
    assert head.size == pytest.approx(18) and head.bold
    assert body.size == pytest.approx(BODY_SIZE) and not body.bold
    assert "Bold" in head.font
    text = doc.units[1].text
    assert all(text[ln.char:].startswith(ln.text) for ln in lines)
    assert head.y1 <= body.y0 and head.x0 == pytest.approx(72, abs=1)
    assert doc.lines(1) is lines  # computed once per page


def test_metadata_title(tmp_path: Path) -> None:
    doc = read(write_pdf(tmp_path / "meta.pdf", [["x"]], metadata={"title": "A Title", "author": "Someone"}))
    assert doc.title == "A Title"
    assert doc.metadata["author"] == "Someone"
    untitled = read(write_pdf(tmp_path / "plain.pdf", [["x"]]))
    assert untitled.title is None


@pytest.mark.parametrize(("content", "figures", "blank"), [
    ([[], [], [], []], (0, 1, 2, 3), 4),  # a scan: images only
    ([["Only this page has text"], [], [], []], (1, 2), 3),  # most pages blank, the last one empty
])
def test_pdf_without_text_layer_warns(tmp_path: Path, content: list[list[Text | str]], figures: tuple[int, ...],
                                      blank: int) -> None:
    path = write_pdf(tmp_path / "scan.pdf", content, figures=figures)
    doc = read(path)
    assert sum(not u.text.strip() for u in doc.units) == blank
    assert doc.warnings == [f"{path}: no text on {blank} of 4 pages, OCR included"]
    assert doc.warnings[0] in build(path).warnings  # the pipeline reports it with the tree


def test_pdf_with_some_figure_pages_does_not_warn(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "figs.pdf", [["text one"], [], ["text three"], ["text four"]], figures=(1, 2))
    assert read(path).warnings == []
    assert not any("text layer" in w for w in build(path).warnings)


def test_encrypted_pdf_is_a_read_error(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "secret.pdf", [["secret text"]], encrypt=True)
    with pytest.raises(ReadError, match="password") as info:
        read(path)
    assert info.value.path == str(path) and info.value.hint


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9])
def test_truncated_pdf_is_a_read_error(tmp_path: Path, keep: float) -> None:
    full = write_pdf(tmp_path / "full.pdf", [[f"page {i} text"] for i in range(6)],
                     toc=[toc_row(1, f"S{i}", i + 1) for i in range(6)]).read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(full[: int(len(full) * keep)])
    with pytest.raises(ReadError) as info:
        read(path)
    assert str(path) in str(info.value)


def test_repaired_but_complete_pdf_still_reads(tmp_path: Path) -> None:
    """A wrong startxref offset makes MuPDF repair the file, but nothing is missing."""
    data = write_pdf(tmp_path / "ok.pdf", [["page one"], ["page two"]]).read_bytes()
    at = data.rindex(b"startxref") + len(b"startxref")
    broken = data[:at] + b"\n1\n%%EOF\n"
    path = tmp_path / "badxref.pdf"
    path.write_bytes(broken)
    doc = read(path)
    assert [u.text for u in doc.units] == ["page one\n", "page two\n"]


@pytest.mark.parametrize("content", [b"", b"%PDF-1.7\nnot really", b"plain text"])
def test_garbage_is_a_read_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "junk.pdf"
    path.write_bytes(content)
    with pytest.raises(ReadError) as info:
        read(path)
    assert info.value.path == str(path)


def test_dispatch_errors_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pdf"
    with pytest.raises(ReadError, match="not found"):
        read(missing)
    odd = tmp_path / "notes.xyz"
    odd.write_text("x")
    with pytest.raises(UnsupportedFormat) as info:
        read(odd)
    assert info.value.path == str(odd) and ".pdf" in (info.value.hint or "")
    upper = write_pdf(tmp_path / "UPPER.PDF", [["shout"]])
    assert read(upper).units[0].text == "shout\n"


def test_real_pdf_fixture_outline_and_labels() -> None:
    """First 12 pages of the OASIS ODF 1.4 Part 2 PDF (LibreOffice export, see tests/data/README.md)."""
    doc = read(DATA / "odf-packages-p1-12.pdf")
    assert doc.page_count == 12
    assert len(doc.outline) == 15
    assert all(1 <= e.page <= 12 and e.y is not None for e in doc.outline)
    assert doc.outline[0].title == "1 Introduction" and doc.outline[0].level == 1
    assert max(e.level for e in doc.outline) == 3
    for e in doc.outline:  # every bookmarked title is printed on its page
        assert " ".join(e.title.split()[1:]) in " ".join(doc.units[e.page - 1].text.split())
    assert pymupdf.open(DATA / "odf-packages-p1-12.pdf").page_count == doc.page_count


def test_reading_pages_retains_no_python_memory(tmp_path: Path) -> None:
    """A backfill reads thousands of documents in one process: reading a PDF, its block
    geometry and its typography must not leave Python objects behind (PyMuPDF's
    get_text("blocks") leaks about 7 KiB a page, which is why the reader does not use it)."""
    import gc
    import tracemalloc

    doc = pymupdf.open()
    for p in range(40):
        page = doc.new_page()
        for k in range(30):
            page.insert_text((72, 60 + 22 * k), f"Line {k} of page {p}, with a few words to index.", fontsize=11)
    path = tmp_path / "many.pdf"
    doc.save(path)

    def read_all() -> None:
        src = read(path)
        for unit in src.units:
            assert unit.blocks
            src.lines(unit.index)

    read_all()  # warm-up: imports, caches, interned strings
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(3):
        read_all()
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    retained = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert retained < 100_000, f"{retained} bytes retained after reading 120 pages"


def test_layout_from_the_kept_text_page_equals_a_fresh_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading keeps each page's MuPDF text page for the layout pass (one interpretation per page);
    the lines, blocks and text are the same as from text pages built afresh, within the character
    budget or past it, and after the document released what it kept."""
    import treebuild.readers.pdf as pdf_reader

    pages: list[list[Text | str]] = [
        [Text("Chapter heading", 130, 18, bold=True), "body one", "body two"],
        ["Second page line", Text("Bold run-in", 200, BODY_SIZE, bold=True), "tail"],
        ["only line"],
    ]
    path = write_pdf(tmp_path / "doc.pdf", pages)

    def layout(doc_: SourceDoc) -> list[object]:
        # block positions first (the word pass, as outline placement asks), then the lines
        return [(doc_.units[i].blocks, doc_.lines(i)) for i in range(len(doc_.units))]

    kept = read(path)
    monkeypatch.setattr(pdf_reader, "KEEP_CHARS", 0)  # nothing kept: every pass interprets the page again
    fresh = read(path)
    monkeypatch.setattr(pdf_reader, "KEEP_CHARS", len(page_text(pages[0])))  # only the first page fits
    partly = read(path)
    released = read(path)
    released.release()
    with pymupdf.open(path) as raw:
        expected = [p.get_text("text", flags=pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP)
                    for p in raw]
    for doc in (kept, fresh, partly, released):
        assert [u.text for u in doc.units] == expected
    assert layout(kept) == layout(fresh) == layout(partly) == layout(released)
    assert any(line.bold and line.text == "Chapter heading" for line in kept.lines(0))


def _word_by_word(path: Path) -> Path:
    """A page set as TeX sets it: every word placed on its own, no space characters between them
    (MuPDF inserts and flags the spaces, so each word and each space is a span of its own)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    rows = [
        (100, [("Section", "hebo", 14), ("Overview", "hebo", 14), ("Notes", "hebo", 14)]),
        (140, [("Run", "hebo", 10), ("ordinary", "helv", 10), ("body", "helv", 10), ("words", "helv", 10)]),
        (180, [("a", "helv", 10), ("Tremendous", "helv", 12), ("b", "helv", 10)]),
        (220, [("Alpha", "helv", 12), ("Gamma", "helv", 10)]),
        (260, [("Bold", "hebo", 10), (" ", "helv", 10), ("Title", "hebo", 10)]),
    ]
    for y, words in rows:
        x = 72.0
        for word, font, size in words:
            page.insert_text((x, y), word, fontname=font, fontsize=size)
            x += pymupdf.get_text_length(word, fontname=font, fontsize=size) + (size * 0.4 if word.strip() else 0)
    doc.save(path)
    return path


def test_lines_set_word_by_word_read_whole(tmp_path: Path) -> None:
    """A line of many spans (a LaTeX page's usual line) reads as one line: its words with single
    spaces, bold only when every word is (a blank span in a regular face does not count), and the
    size and font of its first longest word; the layout pass leaves Python's garbage collector as
    it found it."""
    import gc

    path = _word_by_word(tmp_path / "tex.pdf")
    with pymupdf.open(path) as raw:
        spans = [len(ln["spans"]) for b in raw[0].get_text("dict")["blocks"] for ln in b.get("lines", ())]
    assert max(spans) >= 5  # the premise: words and inserted spaces are separate spans
    doc = read(path)
    assert gc.isenabled()
    lines = doc.lines(0)
    assert gc.isenabled()
    gc.disable()
    try:
        read(path).lines(0)
        assert not gc.isenabled()  # left off by whoever turned it off
    finally:
        gc.enable()
    assert [ln.text for ln in lines][:4] == ["Section Overview Notes", "Run ordinary body words", "a Tremendous b",
                                             "Alpha Gamma"]
    assert " ".join(lines[4].text.split()) == "Bold Title"
    head, mixed, sized, tie, spaced = lines
    assert head.bold and head.size == pytest.approx(14) and "Bold" in head.font
    assert not mixed.bold and "Bold" not in mixed.font
    assert not sized.bold and sized.size == pytest.approx(12)
    assert tie.size == pytest.approx(12)  # the first of two equally long words
    assert spaced.bold
    text = doc.units[0].text
    assert all(text[ln.char:].startswith(ln.text) for ln in lines)


def _tracked_word(page: pymupdf.Page, x: float, y: float, word: str, size: float, track: float) -> float:
    """``word`` set letter by letter in bold Helvetica, ``track`` points between letters; where it ends."""
    for ch in word:
        page.insert_text((x, y), ch, fontsize=size, fontname="hebo")
        x += pymupdf.get_text_length(ch, fontname="hebo", fontsize=size) + track
    return x


def _body_with_short_lines(path: Path) -> Path:
    """A page in an 11 pt body (a TeX default) whose paragraphs end in short lines of words and
    one-letter variables (``of x and y.``), a bold short line of the same kind, and one
    letter-spaced bold heading whose gap before ``EW`` passes the extractor's space threshold."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 90.0
    x = _tracked_word(page, 72, y, "OVERVI", 12, 1.5)
    _tracked_word(page, x + 1.0, y, "EW", 12, 1.5)  # a point wider: the text layer says ``OVERVI EW``
    body = ("The result holds for every pair of elements drawn from the same group, and the proof given "
            "below uses nothing but the definition of the group law and the two facts stated before it, "
            "which hold for every one")
    y += 30
    for short in ("of x and y.", "a mod p.", "of x and y."):
        words = body.split()
        for start in range(0, len(words), 14):
            page.insert_text((72, y), " ".join(words[start:start + 14]), fontsize=11, fontname="tiro")
            y += 13.5
        page.insert_text((72, y), short, fontsize=11, fontname="tiro")
        y += 24
    page.insert_text((72, y), "a mod p.", fontsize=11, fontname="tibo")
    doc.save(path)
    return path


def test_letter_spacing_repair_leaves_body_lines_alone(tmp_path: Path) -> None:
    """The letter-spacing repair re-joins ``OVERVI EW`` from its glyphs, but a short line of an
    11 pt body (``of x and y.``, ``a mod p.``) is not a heading: it keeps its word spaces (they
    used to be dropped: ``ofxandy.``). Neither does a bold short line lose the spaces the text
    layer put at its word gaps."""
    path = _body_with_short_lines(tmp_path / "body.pdf")
    doc = read(path)
    assert "OVERVI EW" in doc.units[0].text  # the premise: the text layer splits the heading
    texts = [ln.text for ln in doc.lines(0)]
    assert texts[0] == "OVERVIEW"
    assert texts.count("of x and y.") == 2 and texts.count("a mod p.") == 2
    assert doc.lines(0)[-1].bold and texts[-1] == "a mod p."


def test_letter_spacing_repair_looks_only_at_lines_above_the_body_type(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The glyph pass of the repair is paid only for lines that stand out from the page's body type
    (bold, capitals or larger than it): an 11 pt body's short lines are not looked at, although 11 pt
    is larger than the usual 10 pt body."""
    from treebuild.readers import pdf

    looked: list[str] = []
    repair = pdf._repair_spacing

    def spy(page: pymupdf.Page, out: list[Line], spaced: list[int]) -> None:
        looked.extend(out[i].text for i in spaced)
        repair(page, out, spaced)

    monkeypatch.setattr(pdf, "_repair_spacing", spy)
    read(_body_with_short_lines(tmp_path / "body.pdf")).lines(0)
    assert looked == ["OVERVI EW", "a mod p."]
