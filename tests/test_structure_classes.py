"""Failure classes of structure detection (issue 8), each on a PDF generated in the test: API
entries in manuals, running section headers, letter-spaced headings, a document's own preface."""

from __future__ import annotations

from pathlib import Path

from structgen import LOREM, Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)


def _titles(roots: list[Node]) -> list[tuple[str, int]]:
    return [(n.title, n.depth) for r in roots for n in r.walk() if n.origin != "preface"]


def test_api_entries_of_a_manual_are_not_sections(tmp_path: Path) -> None:
    """A package manual sets every macro it documents in bold above its description; the macros
    are entries of a reference list, not sections (they used to outnumber the sections 3 to 1)."""
    w = Writer(header=None)
    sections = ["1 Introduction", "2 Usage", "3 Keys", "4 Styles"]
    entries = [r"\karnaughmap[<key=value>]{<entries>}", r"\kmapcolorfield{<map size>}{<field>}",
               "omitzeros=<true/false>", "{kmapstyle} environment", "@kmap@internal"]
    for s in sections:
        w.heading(s, size=16)
        w.para(LOREM)
        for e in entries:
            w.heading(e, size=11, space=4)
            w.para(LOREM)
    roots, _ = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert _titles(roots) == [(s, 1) for s in sections]


def test_a_document_with_its_own_preface_gets_no_second_one(tmp_path: Path) -> None:
    """Text before the first section goes into a generated node; it is not titled "Preface" when the
    document has its own Preface (two nodes of that name used to confuse a reader)."""
    w = Writer(header=None)
    w.para("The Widget Handbook, second edition, published by the Widget Society for its members.")
    w.new_page()
    for title in ("Preface", "1 Getting Started", "2 Assembly", "3 Maintenance"):
        w.heading(title, size=16)
        w.paras(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "handbook.pdf")), DETECT)
    titles = [r.title for r in roots]
    assert titles.count("Preface") == 1
    assert roots[0].origin == "preface" and roots[0].title == "Front matter"
    assert titles[1:] == ["Preface", "1 Getting Started", "2 Assembly", "3 Maintenance"]


def _tracked(w: Writer, text: str, size: float = 12.0, track: float = 1.5, wide: int | None = None) -> int:
    """A bold heading set letter by letter with ``track`` points between letters, one gap (before
    letter ``wide``) a point wider, as letter-spaced headings come out of layout programs."""
    import pymupdf

    if w.y + size * 3 > 720:
        w.new_page()
    w.y += 10
    assert w.page is not None
    x = 72.0
    for k, ch in enumerate(text):
        if ch != " ":
            w.page.insert_text((x, w.y + size), ch, fontsize=size, fontname="hebo")
        x += pymupdf.get_text_length(ch, fontname="hebo", fontsize=size) + track + (1.0 if k + 1 == wide else 0.0)
    w.y += size * 1.25 + 4
    return w.page_number


def test_letter_spaced_headings_are_read_as_words(tmp_path: Path) -> None:
    """``OVERVI EW``, ``Incom e``: the text layer splits letter-spaced headings where a gap passes the
    extractor's threshold; the heading titles are re-joined from the glyph positions."""
    w = Writer(header=None)
    for text, wide in (("OVERVIEW", 6), ("Income Taxes", 5), ("RISK FACTORS", 3)):
        _tracked(w, text, wide=wide)
        w.paras(3)
    doc = read(w.save(tmp_path / "spaced.pdf"))
    assert "OVERVI EW" in doc.units[0].text  # the page text keeps what the text layer says
    roots, _ = build_nodes(doc, DETECT)
    assert [t for t, _ in _titles(roots)] == ["OVERVIEW", "Income Taxes", "RISK FACTORS"]


def test_running_section_headers_are_not_headings(tmp_path: Path) -> None:
    """A 10-K that prints its current Part and Item atop every page of the Item ("PART I | Item 1A"):
    the running header is page furniture, so each Item starts at its own heading and holds its text
    (it used to become a second "Item 1A" section of a few characters, or a duplicated Part)."""
    w = Writer(header=None)
    w.heading("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", size=14)
    w.heading("FORM 10-K", size=16)
    w.para("Annual report pursuant to Section 13 of the Securities Exchange Act of 1934.")
    pages: dict[str, int] = {}
    items = [("PART I", "Item 1.", "Business"), ("PART I", "Item 1A.", "Risk Factors"),
             ("PART I", "Item 2.", "Properties"), ("PART II", "Item 5.", "Market for Common Equity"),
             ("PART II", "Item 7.", "Management's Discussion and Analysis")]
    part = ""
    for p, label, title in items:
        w.header = f"{p} | {label.rstrip('.')}"
        w.new_page()
        if p != part:
            pages[p] = w.heading(p, size=12)
            part = p
        pages[label] = w.heading(f"{label} {title}", size=11)
        w.fill_pages(3)
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    got = [(n.title, n.depth, n.start_page) for r in roots for n in r.walk() if n.origin != "preface"]
    assert [(t, d) for t, d, _ in got] == [("PART I", 1), ("Item 1. Business", 2), ("Item 1A. Risk Factors", 2),
                                           ("Item 2. Properties", 2), ("PART II", 1),
                                           ("Item 5. Market for Common Equity", 2),
                                           ("Item 7. Management's Discussion and Analysis", 2)]
    assert [p for _, _, p in got] == [pages["PART I"], pages["Item 1."], pages["Item 1A."], pages["Item 2."],
                                      pages["PART II"], pages["Item 5."], pages["Item 7."]]


def test_statement_titles_lose_footnote_markers_and_qualifiers(tmp_path: Path) -> None:
    """Earnings releases title their tables with glued footnote markers and a qualifier in brackets;
    the section is the title itself (an outline, a reader and a navigator all say "Consolidated
    Balance Sheets"), while a bracket that is part of the name stays."""
    w = Writer(header=None)
    printed = ["Consolidated Statements of Earnings1 (unaudited; in millions, except per share data)",
               "QUARTERLY FINANCIAL HIGHLIGHTS (Second-Quarter 2023 vs. Second-Quarter 2022)",
               "SELECTED REPORTED COSTS AND EXPENSES(2)", "Revenue Volume(a)", "Leases (Topic 842)"]
    for title in printed:
        w.heading(title, size=13)
        w.paras(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "release.pdf")), DETECT)
    assert [t for t, _ in _titles(roots)] == ["Consolidated Statements of Earnings", "QUARTERLY FINANCIAL HIGHLIGHTS",
                                              "SELECTED REPORTED COSTS AND EXPENSES", "Revenue Volume",
                                              "Leases (Topic 842)"]


def test_centred_capital_section_titles_in_the_body_type(tmp_path: Path) -> None:
    """The AMS article style sets ``1. INTRODUCTION`` centred, in capitals, in the body type and
    weight, directly above its first paragraph; it used to be read as the paragraph's first line."""
    import pymupdf

    w = Writer(header=None)
    words, line = LOREM.split(), ""
    for word in words:  # one full-measure line, repeated: justified text fills the column
        if pymupdf.get_text_length(f"{line} {word}", fontname="helv", fontsize=10) > 468:
            break
        line = f"{line} {word}".strip()
    titles = ["1. INTRODUCTION", "2. USAGE", "3. ALTERNATE SYMBOLS", "4. COMMANDS"]
    for t in titles:
        w.centred(t, size=10, bold=False)
        for _ in range(12):
            w.line(line)
    roots, _ = build_nodes(read(w.save(tmp_path / "article.pdf")), DETECT)
    assert [t for t, _ in _titles(roots)] == titles


def test_an_annual_reports_form_cover_is_not_a_section(tmp_path: Path) -> None:
    """An annual report wraps the 10-K behind its own cover: the form's cover page (Commission,
    form, registrant) is not a run of sections, wherever it sits among the first pages."""
    w = Writer(header=None)
    w.para("Example Foods 2023 Annual Report to shareholders.")
    w.new_page()
    w.heading("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", size=14)
    w.heading("FORM 10-K", size=16)
    w.heading("EXAMPLE FOODS, INC.", size=14)
    w.para("Annual report pursuant to Section 13 of the Securities Exchange Act of 1934.")
    for part, items in (("PART I", ["Item 1. Business", "Item 1A. Risk Factors", "Item 2. Properties"]),
                        ("PART II", ["Item 5. Market for Common Equity", "Item 7. Management's Discussion"])):
        w.new_page()
        w.heading(part, size=12)
        for item in items:
            w.heading(item, size=11)
            w.fill_pages(1)
    roots, _ = build_nodes(read(w.save(tmp_path / "annual.pdf")), DETECT)
    assert [t for t, _ in _titles(roots)][:3] == ["PART I", "Item 1. Business", "Item 1A. Risk Factors"]


def test_a_bold_name_that_opens_a_sentence_is_not_a_heading(tmp_path: Path) -> None:
    """A paragraph that opens with a bold name filling its first line (``Northwind Industrial
    Holdings Corporation`` / ``is our largest customer ...``) is running text: it used to become a
    section that swallowed the rest of its parent."""
    w = Writer(header=None)
    for title in ("Overview", "Results of Operations", "Liquidity"):
        w.heading(title, size=14)
        w.para(LOREM)
        w.y += 8
        w.line("Northwind Industrial Holdings Corporation and Subsidiaries", bold=True)
        w.line("is our largest customer and accounts for a fifth of the revenue of the segment in the year.")
        w.para(LOREM)
    roots, _ = build_nodes(read(w.save(tmp_path / "mdna.pdf")), DETECT)
    assert [t for t, _ in _titles(roots)] == ["Overview", "Results of Operations", "Liquidity"]
