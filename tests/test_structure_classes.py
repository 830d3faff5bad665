"""Failure classes of structure detection (issue 8), each on a PDF generated in the test: API
entries in manuals, running section headers, letter-spaced headings, a document's own preface,
statements after the auditor's report, group labels inside tables, parts over numbered chapters."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from structgen import LOREM, Writer

from treebuild.model import Mark, Node, Origin, Pos
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes
from treebuild.structure.combine import nest
from treebuild.structure.typography.headings import Heading, StyleKey
from treebuild.text.numbering import parse_numbering

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
    extractor's threshold; the reader re-joins them from the glyph positions, in the page text and in
    the heading titles alike."""
    import pymupdf

    w = Writer(header=None)
    for text, wide in (("OVERVIEW", 6), ("Income Taxes", 5), ("RISK FACTORS", 3)):
        _tracked(w, text, wide=wide)
        w.paras(3)
    path = w.save(tmp_path / "spaced.pdf")
    with pymupdf.open(path) as raw:
        assert "OVERVI EW" in raw[0].get_text()  # the premise: the text layer splits the heading
    doc = read(path)
    assert "OVERVIEW" in doc.units[0].text and "OVERVI EW" not in doc.units[0].text
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


def _full_line() -> str:
    """One full-measure line of body text: repeated, it fills the column as justified text does."""
    import pymupdf

    words, line = LOREM.split(), ""
    for word in words:
        if pymupdf.get_text_length(f"{line} {word}", fontname="helv", fontsize=10) > 468:
            break
        line = f"{line} {word}".strip()
    return line


def test_centred_capital_section_titles_in_the_body_type(tmp_path: Path) -> None:
    """The AMS article style sets ``1. INTRODUCTION`` centred, in capitals, in the body type and
    weight, directly above its first paragraph; it used to be read as the paragraph's first line."""
    w = Writer(header=None)
    line = _full_line()
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


def _contents_page(w: Writer, page: int, rows: list[tuple[int, str, int]]) -> None:
    """A printed table of contents on ``page`` (1-based): indented titles, dot leaders, page numbers."""
    p = w.doc[page - 1]
    p.insert_text((72, 100), "Contents", fontsize=18, fontname="hebo")
    y = 140.0
    for indent, title, target in rows:
        x = 72.0 + 18 * indent
        p.insert_text((x, y), f"{title} " + "." * 40, fontsize=10, fontname="helv")
        p.insert_text((500, y), str(target), fontsize=10, fontname="helv")
        y += 16


def _overview_then_statements() -> tuple[Writer, dict[str, int]]:
    """A report opening with a two-page Overview and then a Financial Statements heading; the start
    page of each heading written, by title."""
    w = Writer(header=None)
    w.new_page()
    pages = {"Overview": w.heading("Overview", size=20)}
    w.fill_pages(2)
    pages["Financial Statements"] = w.heading("Financial Statements", size=20)
    return w, pages


def test_statements_after_the_auditors_report_are_its_siblings(tmp_path: Path) -> None:
    """A printed TOC lists the auditor's report and the notes, not the statements between them.
    The statements are set like the listed entries: they are siblings of the report, not sections
    inside it (the report used to absorb them, and they were dropped as no finer than it)."""
    w, pages = _overview_then_statements()
    w.para(LOREM)
    pages["Report of Independent Auditors"] = w.heading("Report of Independent Auditors", size=16)
    w.paras(3)
    statements = ["Statement of Income", "Balance Sheet", "Statement of Cash Flows"]
    for title in statements:
        w.new_page()
        pages[title] = w.heading(title, size=16)
        w.paras(2)
    w.new_page()
    pages["Notes to the Financial Statements"] = w.heading("Notes to the Financial Statements", size=16)
    for note in ("Accounting Policies", "Revenue", "Income Taxes"):
        w.heading(note, size=12)
        w.fill_pages(1)
    pages["Controls and Procedures"] = w.heading("Controls and Procedures", size=16)
    w.fill_pages(2)
    listed = [(0, "Overview"), (0, "Financial Statements"), (1, "Report of Independent Auditors"),
              (1, "Notes to the Financial Statements"), (1, "Controls and Procedures")]
    _contents_page(w, 1, [(i, t, pages[t]) for i, t in listed])
    roots, result = build_nodes(read(w.save(tmp_path / "report.pdf")), DETECT)
    assert "toc" in result.method
    fs = next(r for r in roots if r.title == "Financial Statements")
    assert [c.title for c in fs.children] == ["Report of Independent Auditors", *statements,
                                             "Notes to the Financial Statements", "Controls and Procedures"]
    assert not fs.children[0].children


def _table(w: Writer, rows: list[tuple[str, bool, list[str]]]) -> None:
    """Table rows: a label at the left margin and figures in right-aligned columns (a label with no
    figures is a group label row, set off by a little space above it)."""
    import pymupdf

    for label, bold, figures in rows:
        if w.y + 30 > 720:
            w.new_page()
        if not figures:
            w.y += 8
        assert w.page is not None
        w.page.insert_text((72, w.y + 10), label, fontsize=10, fontname="hebo" if bold else "helv")
        for col, fig in enumerate(figures):
            width = pymupdf.get_text_length(fig, fontname="helv", fontsize=10)
            w.page.insert_text((400 + 70 * col - width, w.y + 10), fig, fontsize=10, fontname="helv")
        w.y += 13.5


def test_a_bold_group_label_inside_a_table_is_not_a_heading(tmp_path: Path) -> None:
    """A filing's MD&A prints its heads in bold body type; a table inside it has bold group labels
    (``GAAP``, ``Non-GAAP``) alone on their row between rows of figures. They are table cells, not
    sections (``GAAP`` used to become the parent of every MD&A section after it)."""
    w = Writer(header=None)
    sections = ["Overview", "Results of Operations", "Segment Results", "Liquidity and Capital Resources"]
    for title in sections:
        w.heading(title, size=10, space=8)
        w.para(LOREM)
        if title == "Results of Operations":
            _table(w, [("(Dollars in millions)", False, ["2022", "2021", "2020"]),
                       ("Revenues", False, ["$66,608", "$62,286", "$58,158"]),
                       ("GAAP", True, []),
                       ("Loss from operations", False, ["(3,547)", "(2,902)", "(12,767)"]),
                       ("Operating margins", False, ["(5.3)%", "(4.7)%", "(22.0)%"]),
                       ("Non-GAAP", True, []),
                       ("Core operating loss", False, ["(4,690)", "(4,075)", "(14,150)"]),
                       ("Core loss per share", False, ["(11.06)", "(9.44)", "(23.25)"])])
            w.y += 8
        w.para(LOREM)
    roots, _ = build_nodes(read(w.save(tmp_path / "mdna.pdf")), DETECT)
    assert [t for t, _ in _titles(roots)] == sections


def test_part_headings_hold_the_numbered_chapters_after_them(tmp_path: Path) -> None:
    """A manual grouped in parts (``Part I. Preliminaries``) numbers its chapters through the parts
    (``1.``, ``2.`` ... ``4.1.``): each part holds the chapters after it, one level up from them (the
    parts used to be siblings of the chapters, and every chapter a level too high)."""
    w = Writer(header=None)
    layout = [("Part I. Preliminaries", ["1. License", "2. Motivation"]),
              ("Part II. Main Modules", ["3. The Charges Module", "4. The Phases Module"])]
    for part, chapters in layout:
        w.heading(part, size=20)
        for chapter in chapters:
            w.heading(chapter, size=16)
            w.para(LOREM)
            w.heading(f"{chapter.split('.')[0]}.1. Basics", size=12)
            w.paras(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert _titles(roots) == [("Part I. Preliminaries", 1), ("1. License", 2), ("1.1. Basics", 3),
                              ("2. Motivation", 2), ("2.1. Basics", 3),
                              ("Part II. Main Modules", 1), ("3. The Charges Module", 2), ("3.1. Basics", 3),
                              ("4. The Phases Module", 2), ("4.1. Basics", 3)]


def test_a_toc_whose_indentation_drifts_keeps_the_levels_its_numbers_give() -> None:
    """A printed TOC whose continuation page was read two steps too deep (a TeX manual's second
    contents page holds no chapter entry, so ``4.3`` came out a child of ``4.2.7``, and most
    entries disagreed with their numbers): the top-numbered entries' offset between printed
    level and number depth is kept, so every section sits where its number says. (A generated
    two-page TOC is read without the drift, so the placed marks are given here.)"""
    from treebuild.model import Mark, Pos
    from treebuild.structure.combine import levels_from_numbering

    printed = [(1, "1 Introduction"), (2, "1.1 Scope"), (1, "2 Options"), (1, "3 Data Types"), (1, "4 The Macros"),
               (2, "4.1 Files"), (2, "4.2 Objects"), (3, "4.2.1 Points"),
               (4, "4.3 Colors"), (5, "4.3.1 Color functions"), (5, "4.3.2 Default colors"), (4, "4.4 Figures"),
               (5, "4.4.1 Closure"), (5, "4.4.2 Reversal"), (4, "4.5 Rendering"), (5, "4.5.1 Drawing")]
    marks = [Mark(t, lvl, Pos(n, 0), "toc", 0.9) for n, (lvl, t) in enumerate(printed)]
    assert [(m.title, m.level) for m in levels_from_numbering(marks)] == \
        [(t, t.split()[0].count(".") + 1) for _, t in printed]


def test_a_chapter_label_set_without_a_space_joins_its_title(tmp_path: Path) -> None:
    """TeX sets ``CHAPTER5`` (no space) on its own line above the chapter title: it is the title's
    label (``CHAPTER 5 Advanced Topics``), not a section of its own."""
    w = Writer(header=None)
    chapters = ["Introduction", "Basic Usage", "Advanced Topics"]
    for n, title in enumerate(chapters, start=1):
        w.new_page()
        w.heading(f"CHAPTER{n}", size=14)
        w.heading(title, size=14, space=2)
        w.para(LOREM)
        w.heading(f"{n}.1 Overview", size=11)
        w.paras(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "book.pdf")), DETECT)
    assert [(t, d) for t, d in _titles(roots) if d == 1] == \
        [(f"CHAPTER {n} {t}", 1) for n, t in enumerate(chapters, start=1)]


def _short_toc_manual(chapters: int, example: str | None = None) -> tuple[Writer, dict[str, int]]:
    """A manual of ``chapters`` numbered chapters (18 pt) of two sections (13 pt) each and an ``Index``
    set like the chapters, a blank page left for its contents; ``example``: an unnumbered heading set
    like the chapters inside chapter 1. Returns the writer and each heading's page."""
    w = Writer(header=None)
    w.new_page()
    pages: dict[str, int] = {}
    all_chapters = [("1 Introduction", ["1.1 Scope", "1.2 Terms"]), ("2 Design", ["2.1 Layout", "2.2 Storage"]),
                    ("3 Operation", ["3.1 Startup", "3.2 Shutdown"]), ("4 Maintenance", ["4.1 Backups", "4.2 Repair"])]
    for n, (chapter, sections) in enumerate(all_chapters[:chapters]):
        w.new_page()
        pages[chapter] = w.heading(chapter, size=18)
        w.para(LOREM)
        for s in sections:
            pages[s] = w.heading(s, size=13)
            w.fill_pages(1)
        if n == 0 and example is not None:
            w.heading(example, size=18)
            w.para(LOREM)
    w.heading("Index", size=18)
    w.para("backups, 12; repair, 13; startup, 9; shutdown, 10; storage, 7; layout, 6")
    return w, pages


def test_chapters_after_the_end_of_a_short_toc_are_chapters(tmp_path: Path) -> None:
    """A printed TOC read only as far as chapter 2 (the rest on a page it did not recognise): the
    later chapters and the unnumbered ``Index``, set like the listed chapters, are chapters, not
    sub-sections of the last entry."""
    w, pages = _short_toc_manual(4)
    listed = [(0, "1 Introduction"), (1, "1.1 Scope"), (1, "1.2 Terms"), (0, "2 Design"), (1, "2.1 Layout"),
              (1, "2.2 Storage")]
    _contents_page(w, 1, [(i, t, pages[t]) for i, t in listed])
    roots, result = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert "toc" in result.method
    assert _titles(roots)[-7:] == [("3 Operation", 1), ("3.1 Startup", 2), ("3.2 Shutdown", 2),
                                   ("4 Maintenance", 1), ("4.1 Backups", 2), ("4.2 Repair", 2), ("Index", 1)]


def test_an_unnumbered_head_between_numbered_chapters_is_no_chapter(tmp_path: Path) -> None:
    """A short TOC's later chapters are found as above, but an unnumbered heading set as large as
    the chapters inside chapter 1 (the title of a worked example or a music score in a figure) is
    no chapter: an unnumbered chapter comes after the numbered ones (``Index``), not between them."""
    w, pages = _short_toc_manual(3, example="Worked Example")
    listed = [(0, "1 Introduction"), (1, "1.1 Scope"), (1, "1.2 Terms"), (0, "2 Design"), (1, "2.1 Layout")]
    _contents_page(w, 1, [(i, t, pages[t]) for i, t in listed])
    roots, result = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert "toc" in result.method
    titles = _titles(roots)
    assert ("Worked Example", 1) not in titles
    assert titles[-4:] == [("3 Operation", 1), ("3.1 Startup", 2), ("3.2 Shutdown", 2), ("Index", 1)]


def test_a_sentence_set_in_bold_is_not_a_heading(tmp_path: Path) -> None:
    """A manual sets a lead sentence of a paragraph in bold on its own line (``Objects are typeset
    using the obj macro.``), a filing its risk factors (``Competition is increasing and could
    adversely affect us.``): whole sentences, not section titles; a short title with a stop stays."""
    w = Writer(header=None)
    sections = ["Introduction", "Objects.", "Arrows and Morphisms"]
    for title in sections:
        w.heading(title, size=14)
        w.para(LOREM)
        for sentence in ("Objects are typeset using the obj macro.",
                         "Competition is increasing and could adversely affect us."):
            w.heading(sentence, size=10, space=6)
            w.para(LOREM)
    roots, _ = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert [t for t, _ in _titles(roots)] == sections


def test_a_capitals_heading_with_a_mixed_case_qualifier_ranks_with_the_capitals(tmp_path: Path) -> None:
    """An earnings release sets its sections in bold capitals and their sub-sections in bold mixed
    case; ``QUARTERLY FINANCIAL HIGHLIGHTS (Second-Quarter 2023 vs. Second-Quarter 2022)`` is a
    capitals heading whose qualifier (dropped from the title) is not: its style is the title's, so
    it is a section beside the others (it used to rank with the mixed-case sub-sections)."""
    w = Writer(header=None)
    printed = [("EXECUTIVE COMMENTARY", 1), ("Overall Commentary", 2),
               ("QUARTERLY FINANCIAL HIGHLIGHTS (Second-Quarter 2023 vs. Second-Quarter 2022)", 1),
               ("GAAP Reported Highlights", 2), ("SELECTED COSTS AND EXPENSES", 1), ("Adjusted Highlights", 2)]
    for title, _ in printed:
        w.heading(title, size=11)
        w.paras(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "release.pdf")), DETECT)
    assert _titles(roots) == [(t.split(" (")[0], d) for t, d in printed]


def test_a_numbered_title_set_tight_under_text_in_a_larger_type_starts_a_section(tmp_path: Path) -> None:
    """Notes to financial statements in 14-point capitals, one of them set right under the last
    line of the previous note's text, in the same text block: the larger numbered line starts the
    note (it used to be read as part of the paragraph above, and the note was lost)."""
    w = Writer(header=None)
    notes = ["1. GENERAL", "2. INVENTORY", "3. DEBT", "4. LEASES", "5. EQUITY"]
    for note in notes:
        w.heading(note, size=14, bold=False, space=-4 if note.startswith("4.") else 10)
        w.para()
    doc = read(w.save(tmp_path / "notes.pdf"))
    page = next(u for u in range(len(doc.units)) if any(ln.text.startswith("4.") for ln in doc.lines(u)))
    lines = doc.lines(page)
    k = next(j for j, ln in enumerate(lines) if ln.text.startswith("4."))
    assert k > 0 and lines[k - 1].block == lines[k].block  # the case: one text block with the paragraph
    roots, _ = build_nodes(doc, DETECT)
    assert [t for t, _ in _titles(roots)] == notes

def _listing(w: Writer, lines: list[str], size: float = 9.0) -> None:
    """A code listing set in Courier, smaller than the prose, one statement a line."""
    assert w.page is not None
    for text in lines:
        if w.y + size > 700:
            w.new_page()
        assert w.page is not None
        w.page.insert_text((90, w.y + size), text, fontsize=size, fontname="cour")
        w.y += size * 1.25
    w.y += 6


def test_code_listings_do_not_set_the_body_size(tmp_path: Path) -> None:
    """A documented-source manual: its listings (9 pt monospace) outweigh its prose (10 pt). The
    short prose comments between listings (``Handle optional settings``) are running text in the
    body type, not headings larger than the body (they used to outnumber the sections 3 to 1)."""
    w = Writer(header=None)
    sections = ["1 Usage", "2 Implementation", "3 Graphs"]
    code = [r"\cs_new_protected:Npn \__stats_setup:nn #1 #2", r"  { \keys_set:nn { stats } { #1 } }",
            r"\tl_new:N \l__stats_data_tl", r"\seq_new:N \l__stats_values_seq",
            r"\fp_zero:N \l__stats_total_fp", r"\keyval_parse:NNV \__stats_count:n"] * 2
    for s in sections:
        w.heading(s, size=14)
        w.para(LOREM)
        for comment in ("Handle optional settings", "Get the data inline", "Loop again and output the table"):
            w.line(comment)
            w.y += 4
            _listing(w, code)
    roots, _ = build_nodes(read(w.save(tmp_path / "dtx.pdf")), DETECT)
    assert _titles(roots) == [(s, 1) for s in sections]


def test_the_first_section_below_the_toc_on_its_page_is_found(tmp_path: Path) -> None:
    """A manual prints its contents and starts section 1 below them on the same page. The TOC page
    is not searched for headings, so ``1 Introduction`` used to be dropped and its text fell to the
    front matter; it is looked for below the last TOC row."""
    w = Writer(header=None)
    sections = ["1 Introduction", "2 Usage", "3 Options", "4 Examples", "5 Styles", "6 Colours", "7 Fonts",
                "8 Limitations", "9 Internals", "10 History"]
    _contents_page(w, 1, [(0, t, k + 1) for k, t in enumerate(sections)])  # one page a section
    w.y = 140 + 16 * len(sections) + 30
    for k, title in enumerate(sections):
        assert w.heading(title, size=14) == k + 1
        w.paras(3)
        w.new_page()
    roots, result = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert "toc" in result.method
    assert [t for t, _ in _titles(roots) if t != "Contents"] == sections
    intro = next(n for r in roots for n in r.walk() if n.title == "1 Introduction")
    assert intro.start_page == 1


def test_change_history_entries_are_not_sections(tmp_path: Path) -> None:
    """A manual's change history sets every version in the heading style (``Changes between 6.12
    and 6.13``, ``Version 4.0``): a run of headings that differ only in their version numbers is one
    list, not dozens of sections (they used to be a third of a manual's tree); other headings in
    that style stay."""
    w = Writer(header=None)
    sections = ["Introduction", "Usage", "Options", "Change history"]
    for title in sections:
        w.heading(title, size=16)
        w.para(LOREM)
        w.heading(f"Examples of {title.lower()}", size=12)
        w.para(LOREM)
    for k in range(9, 0, -1):
        w.heading(f"Changes between versions 2.{k - 1} and 2.{k}" + (" (and 2.1a)" if k == 1 else ""), size=12)
        w.para("New key for the arrows; the documentation was revised.")
    roots, _ = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert _titles(roots) == [x for t in sections for x in ((t, 1), (f"Examples of {t.lower()}", 2))]


def _numbered(w: Writer, sections: list[str], subs: Callable[[int], list[str]],
              above: Callable[[Writer], None] | None = None) -> list[tuple[str, int]]:
    """Numbered sections (16 pt) with numbered sub-sections (12 pt), a paragraph under each; ``subs(k)``
    titles section k's sub-sections, ``above`` writes something just above each. Returns the expected
    ``(title, depth)`` list."""
    expected: list[tuple[str, int]] = []
    for k, section in enumerate(sections, start=1):
        w.heading(f"{k} {section}", size=16)
        expected.append((f"{k} {section}", 1))
        w.para(LOREM)
        for j, sub in enumerate(subs(k), start=1):
            if above is not None:
                above(w)
            w.heading(f"{k}.{j} {sub}", size=12)
            expected.append((f"{k}.{j} {sub}", 2))
            w.para(LOREM)
    return expected


def test_a_figures_number_above_a_heading_is_not_its_label(tmp_path: Path) -> None:
    """A Karnaugh map's cell indexes or a diagram's atom numbers (bare numbers in the body type)
    printed just above a heading used to be taken for a chapter label: ``3 2.1 Small maps``."""
    w = Writer(header=None)

    def cells(w: Writer) -> None:
        for cell in ("12", "13"):
            w.line(cell, x=300)

    expected = _numbered(w, ["Basics", "Maps", "Styles"], lambda k: ["Small examples", "Large examples"], cells)
    roots, _ = build_nodes(read(w.save(tmp_path / "maps.pdf")), DETECT)
    assert _titles(roots) == expected


def test_a_section_title_that_opens_with_a_count_keeps_its_number(tmp_path: Path) -> None:
    """``6.1 2 Variables - 4 Fields``: the title after a dotted section number opens with a count.
    It used to lose its numbering, and as an unnumbered heading in the sub-section style it was
    set aside as minor."""
    w = Writer(header=None)
    expected = _numbered(w, ["Usage", "Options", "Reference"],
                         lambda k: ["Basic keys", f"{k + 1} Variables - {2 ** (k + 1)} Fields", "More keys"])
    roots, _ = build_nodes(read(w.save(tmp_path / "reference.pdf")), DETECT)
    assert _titles(roots) == expected


def test_implementation_notes_in_a_numbered_manual_stay_minor_beside_a_change_history(tmp_path: Path) -> None:
    """A documented-source manual numbers its user sections; its implementation part has unnumbered
    headings in the numbered sub-section style (``Technical definitions``) and ends with a long change
    history. The change entries are set aside first, so the manual still counts as numbered and the
    implementation headings stay minor (they used to be sections, a change history outnumbering the
    numbered headings)."""
    w = Writer(header=None)
    expected = _numbered(w, ["Usage", "Keys", "Blocks", "Rules"], lambda k: ["General case", "Special cases"])
    for title, entries in (("Implementation", ["Declaration of the package", "Technical definitions",
                                               "Parameters", "Error messages"]),
                           ("Change history", [f"Changes between versions 6.{k} and 6.{k + 1}" for k in range(12)])):
        w.heading(title, size=16)
        expected.append((title, 1))
        for entry in entries:
            w.heading(entry, size=12)
            w.para("The code of this part is documented inline.")
    roots, _ = build_nodes(read(w.save(tmp_path / "dtx.pdf")), DETECT)
    assert _titles(roots) == expected


def _paragraph(w: Writer, first: str, line: str) -> None:
    """A paragraph in the body type opening with ``first`` (a run-in head's line), five lines long."""
    w.y += 6
    w.line(first)
    for _ in range(5):
        w.line(line)


def test_run_in_subsections_open_their_paragraphs(tmp_path: Path) -> None:
    """The AMS article style: ``2.1. Priority Trees. Note the ...`` opens a paragraph in the body type,
    the title running into the text. A series of them under a numbered section is its sub-sections
    (they used to be missed, the whole section one node); a lone numbered sentence is text."""
    w = Writer(header=None)
    line = _full_line()

    def paragraph(first: str) -> None:
        _paragraph(w, first, line)

    expected: list[tuple[str, int]] = []
    subs = {2: ["Priority Trees", "Computations", "Set Notation"]}
    for k, section in enumerate(["INTRODUCTION", "COMMANDS", "RELEASE NOTES"], start=1):
        w.y += 6
        w.centred(f"{k}. {section}", size=10, bold=False)
        expected.append((f"{k}. {section}", 1))
        paragraph(line)
        for j, sub in enumerate(subs.get(k, []), start=1):
            paragraph(f"{k}.{j}. {sub}. Note the commands in this part double as suggestions.")
            expected.append((f"{k}.{j}. {sub}", 2))
    paragraph("3.1. Install the package. Then run the tests again and compare.")
    roots, _ = build_nodes(read(w.save(tmp_path / "article.pdf")), DETECT)
    assert _titles(roots) == expected


def test_a_run_in_title_holding_an_abbreviation_keeps_its_words(tmp_path: Path) -> None:
    """``4.9. Recursive vs. Computable. To disable ...``: the stop of ``vs.`` is not the run-in
    title's end (the title used to be cut to ``Recursive vs``)."""
    w = Writer(header=None)
    line = _full_line()
    w.centred("1. NOTATION", size=10, bold=False)
    _paragraph(w, line, line)
    subs = ["Recursive vs. Computable", "Sets cf. Classes", "Quantifiers"]
    for j, sub in enumerate(subs, start=1):
        _paragraph(w, f"1.{j}. {sub}. To disable these commands pass the option to the package.", line)
    roots, _ = build_nodes(read(w.save(tmp_path / "notation.pdf")), DETECT)
    assert _titles(roots) == [("1. NOTATION", 1)] + [(f"1.{j}. {sub}", 2) for j, sub in enumerate(subs, start=1)]


def test_a_diagrams_labels_beside_a_heading_do_not_make_it_a_table_row(tmp_path: Path) -> None:
    """A two-column manual: a structure diagram in the right column has tiny atom numbers at the height
    of a heading in the left column. Numbers beside a line used to make it a table row's label."""
    w = Writer(header=None)
    expected: list[tuple[str, int]] = []
    for k, section in enumerate(["Syntax", "Bonds", "Atoms"], start=1):
        w.heading(f"{k} {section}", size=16)
        expected.append((f"{k} {section}", 1))
        w.para(LOREM[:200])
        for j, sub in enumerate(["Make bond", "Change bond type"], start=1):
            y = w.y + 10
            w.heading(f"{k}.{j} {sub}", size=12)
            expected.append((f"{k}.{j} {sub}", 2))
            w.para(LOREM[:200])
            assert w.page is not None
            for n, x in enumerate(range(330, 480, 18), start=1):  # the diagram's atom numbers, drawn later
                w.page.insert_text((x, y + 8 + (n % 2) * 4), str(n), fontsize=5, fontname="helv")
    roots, _ = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert _titles(roots) == expected


def test_a_section_titled_contents_over_a_diagram_is_not_a_listing_page(tmp_path: Path) -> None:
    """``Register contents`` atop a page of bit-field diagrams (rows of bare bit numbers) made the page
    a contents listing, whose headings are entries, so ``2.5 Not-so-common tricks`` below was lost.
    A listing's title opens with its word (``Contents``, ``Table of Contents``, ``Index to ...``)."""
    w = Writer(header=None)
    expected: list[tuple[str, int]] = []
    for k, section in enumerate(["Usage", "Fields"], start=1):
        w.heading(f"{k} {section}", size=16)
        expected.append((f"{k} {section}", 1))
        w.para(LOREM)
    w.new_page()
    for j, title in enumerate(["Register contents", "Bit numbers", "Not-so-common tricks"], start=1):
        w.heading(f"2.{j} {title}", size=12)
        expected.append((f"2.{j} {title}", 2))
        for bits in ("0", "7", "8", "15", "16", "31"):  # a diagram's bit numbers, one to a line
            w.line(bits, x=300)
        w.para(LOREM[:120])
    roots, _ = build_nodes(read(w.save(tmp_path / "fields.pdf")), DETECT)
    assert _titles(roots) == expected


def test_a_documents_own_title_is_not_a_section(tmp_path: Path) -> None:
    """A manual opens with its title, larger than any heading, over its author line and abstract
    (``The fruit package``); the title names the document, it is not its first section (every
    manual without a bookmarked title got one spurious top-level entry)."""
    w = Writer(header=None)
    w.centred("The fruit package", size=20, bold=False)
    w.centred("Ann Gardener, version 2.1", size=12, bold=False)
    w.para(LOREM)
    for title in ("1 Introduction", "2 Usage", "3 Options", "4 Examples"):
        w.heading(title, size=14)
        w.paras(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "manual.pdf")), DETECT)
    assert _titles(roots) == [("1 Introduction", 1), ("2 Usage", 1), ("3 Options", 1), ("4 Examples", 1)]


def test_the_headings_of_a_title_page_are_not_sections(tmp_path: Path) -> None:
    """A title page (title, subtitle and authors, little else) set no larger than the chapters the
    manual has later: its lines are the document's title block, not sections."""
    w = Writer(header=None)
    w.centred("The Orchard Book", size=16)
    w.centred("Growing and keeping fruit", size=14)
    w.centred("Ann Gardener and Bob Grower", size=10, bold=False)
    w.new_page()
    for title in ("Preface", "Planting", "Pruning", "Harvest"):
        w.heading(title, size=18)
        w.paras(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "book.pdf")), DETECT)
    assert _titles(roots) == [("Preface", 1), ("Planting", 1), ("Pruning", 1), ("Harvest", 1)]


def test_a_heading_past_a_first_part_contents_opens_the_next_part() -> None:
    """A contents printed per part lists only Part I's sections (the skeleton). Past its last entry a
    heading more prominent than the listed sections (``Part II Examples``) opens a division the TOC does
    not list, and the sections after it, set like the listed ones, are its children. They used to be
    dropped as no finer than the last entry, which then held the rest of the document."""
    chapter: StyleKey = (14.3, True, False, False, "serif")
    section: StyleKey = (12.0, True, False, False, "serif")

    def head(title: str, unit: int, char: int, style: StyleKey, level: int) -> Heading:
        return Heading(unit, char, title, style, parse_numbering(title), 90.0, 72.0, 1, level=level)

    skeleton = [Mark(t, 1, Pos(u, 0), Origin.toc) for t, u in [("1 Preamble", 1), ("2 Usage", 3), ("3 Todo", 5)]]
    heads = [head("1 Preamble", 1, 0, chapter, 2), head("2 Usage", 3, 0, chapter, 2), head("3 Todo", 5, 0, chapter, 2),
             head("Part II Examples", 7, 0, chapter, 1), head("4 Simple example", 8, 0, chapter, 2),
             head("4.1 Variation", 8, 900, section, 3), head("5 Energy diagram", 10, 0, chapter, 2)]
    marks = nest(skeleton, heads, finer_only=True, peers=True)
    assert [(m.title, m.level) for m in marks][3:] == [("Part II Examples", 1), ("4 Simple example", 2),
                                                       ("4.1 Variation", 3), ("5 Energy diagram", 2)]
