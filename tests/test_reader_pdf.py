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
from treebuild.model import SourceDoc
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
    assert doc.warnings == [f"no text on {blank} of 4 pages, OCR included"]
    assert [(f.code, f.stage) for f in doc.findings] == [("no_text_layer", "read")]
    assert doc.findings[0] in build(path).findings  # the pipeline reports it with the tree


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
    """The whole-word repair re-joins ``OVERVI EW`` from its glyphs, in the page text and in the
    page's lines alike, but a short line of an 11 pt body (``of x and y.``, ``a mod p.``) keeps its
    word spaces (they used to be dropped: ``ofxandy.``), bold or not."""
    path = _body_with_short_lines(tmp_path / "body.pdf")
    with pymupdf.open(path) as raw:
        assert "OVERVI EW" in raw[0].get_text()  # the premise: the text layer splits the heading
    doc = read(path)
    assert doc.units[0].text.startswith("OVERVIEW\n")
    texts = [ln.text for ln in doc.lines(0)]
    assert texts[0] == "OVERVIEW"
    assert texts.count("of x and y.") == 2 and texts.count("a mod p.") == 2
    assert doc.lines(0)[-1].bold and texts[-1] == "a mod p."
    assert all(doc.units[0].text[ln.char:].startswith(ln.text) for ln in doc.lines(0))


def _raw_page(path: Path, rows: list[tuple[str, float, str]], extra: tuple[str, ...] = ()) -> Path:
    """A page whose rows are written as raw PDF text operators (a ``TJ`` array with its kerning, a
    ``Tc`` letter spacing), each ``(font, y from the top, operators)`` in a base-14 font at 12 pt,
    after ``extra`` lines of ordinary text (words the document prints whole)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 72.0
    for line in extra:
        y += 20
        page.insert_text((72, y), line, fontname="helv", fontsize=10)
    for font in sorted({f for f, _y, _ops in rows}):
        page.insert_font(fontname=font)  # a page resource named as the font
    ops = [f"BT /{font} 12 Tf 72 {792 - top} Td 0 Tc {row} ET" for font, top, row in rows]
    xref = page.get_contents()[-1]
    doc.update_stream(xref, doc.xref_stream(xref) + ("\n" + "\n".join(ops) + "\n").encode())
    doc.save(path)
    return path


WHOLE_ROWS = [
    ("helv", 300, "[(Incom) -160 (e statement)] TJ"),  # kerned past MuPDF's 0.15 em: ``Incom e``
    ("tiro", 330, "[(Cash Flow) -170 (s)] TJ"),  # the same in Times, whose space is narrower
    ("helv", 360, "2.2 Tc (CONTENTS) Tj"),  # tracked: every letter apart
    ("helv", 390, "2.2 Tc (OVERVIEW of results) Tj"),  # tracked, with the file's own word spaces
    ("helv", 420, "[(black) -333 (box) -333 (and) -333 (blackbox)] TJ"),  # words set apart, no space glyph
    ("tiro", 450, "[(clean) -230 (up)] TJ"),  # a word gap TeX shrank, next to ``cleanup`` printed whole
]
WHOLE_TEXT = ["Income statement", "Cash Flows", "CONTENTS", "OVERVIEW of results", "black box and blackbox",
              "clean up"]
PRINTED = ("The cleanup of the blackbox income: an overview of the results and contents.",)


def test_split_words_are_joined_from_the_glyphs(tmp_path: Path) -> None:
    """Spaces the text layer puts inside words (a kerned gap past MuPDF's threshold, letter spacing)
    are taken out of the page text and the page's lines alike (a run of single letters where the
    document prints its words whole); word gaps stay, whether the file prints a space glyph or sets
    the words apart (TeX), even where the two words joined are a word the document prints
    (``cleanup``, ``blackbox``)."""
    path = _raw_page(tmp_path / "split.pdf", WHOLE_ROWS, PRINTED)
    with pymupdf.open(path) as raw:  # the premise: the text layer splits the words
        raw_text = raw[0].get_text()
    assert "Incom e" in raw_text and "Flow s" in raw_text and "C O N T E N T S" in raw_text
    doc = read(path)
    assert doc.units[0].text.splitlines()[1:] == WHOLE_TEXT
    assert [ln.text for ln in doc.lines(0)][1:] == WHOLE_TEXT
    assert all(doc.units[0].text[ln.char:].startswith(ln.text) for ln in doc.lines(0))


def test_split_words_are_joined_on_the_dict_path_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page whose JSON and HTML writings do not match is typed through ``extractDICT``: its lines
    get the same repair as the page text."""
    from treebuild.readers import pdf

    monkeypatch.setattr(pdf, "page_styles", lambda *_a: None)
    doc = read(_raw_page(tmp_path / "split.pdf", WHOLE_ROWS, PRINTED))
    assert [ln.text for ln in doc.lines(0)][1:] == WHOLE_TEXT


def test_split_words_glyph_pass_only_for_lines_that_may_hold_one(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The glyph pass is paid only for lines of the text holding a piece that may belong to its
    neighbour (a word of one or two letters the document does not use throughout) or a run of single
    letters: pages of prose whose short words are its common ones (``of``, ``a``, ``to``) are not
    looked at, a split heading among them is."""
    from treebuild.readers import pdf_words

    looked: list[set[int]] = []
    line_chars = pdf_words._line_chars

    def spy(tp: pymupdf.TextPage, wanted: set[int]) -> dict[int, list[pdf_words._Char]]:
        looked.append(set(wanted))
        return line_chars(tp, wanted)

    monkeypatch.setattr(pdf_words, "_line_chars", spy)
    prose = ["It is a rule of the house to go by the book, as we do in all of our work, and so on.",
             "We are to be at the desk by nine, if it is a day of work; on it we do as we say."]
    read(write_pdf(tmp_path / "plain.pdf", [prose * 3] * 8))
    assert looked == []
    doc = pymupdf.open(tmp_path / "plain.pdf")
    _tracked_word(doc[0], 72, 40, "OVERVI", 12, 1.5)
    _tracked_word(doc[0], pymupdf.get_text_length("OVERVI", fontname="hebo", fontsize=12) + 72 + 10, 40, "EW", 12, 1.5)
    doc.save(tmp_path / "split.pdf")
    read(tmp_path / "split.pdf")
    assert len(looked) == 1 and len(looked[0]) == 1  # one page, one line


def test_tables_of_a_repaired_page_point_into_its_whole_words(tmp_path: Path) -> None:
    """A statement page whose title the text layer splits (``Incom e``): the page text is repaired, and
    the page's table keeps its span on the same rows of the repaired text, its title repaired too."""
    path = _raw_page(tmp_path / "statement.pdf", [("helv", 60, "[(Consolidated Statements of Incom) -160 (e)] TJ")],
                     ("Income taxes and other income are shown below.",))
    doc = pymupdf.open(path)
    page = doc[0]
    labels = ["Revenue", "Cost of sales", "Gross margin", "Research", "Marketing", "Operating income",
              "Other income", "Income before taxes", "Taxes", "Net income"]
    y = 150.0
    for col, year in ((420, "2023"), (500, "2022")):
        page.insert_text((col, y), year, fontname="helv", fontsize=10)
    for i, label in enumerate(labels):
        y += 16
        page.insert_text((72, y), label, fontname="helv", fontsize=10)
        for col in (420, 500):
            page.insert_text((col, y), f"{(i + 3) * 1234 + col:,}", fontname="helv", fontsize=10)
    doc.save(tmp_path / "table.pdf")
    read_doc = read(tmp_path / "table.pdf")
    text = read_doc.units[0].text
    assert "Consolidated Statements of Income\n" in text
    assert read_doc.tables, "the premise: the page holds a table"
    for table in read_doc.tables:
        span = text[table.start:table.end]
        assert span.startswith("2023\n2022\nRevenue\n") and span.rstrip().endswith("Net income\n15,228\n15,308")
        assert table.title is None or "Incom e" not in table.title
