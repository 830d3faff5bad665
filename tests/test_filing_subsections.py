"""Sub-sections inside a filing's Items (issue 8, filings pass 3), each class on a 10-K generated in
the test: a short MD&A keeps its sub-sections, a one-off heading look does not outrank an Item's
sub-sections, a sub-section whose title extends its Item's is not the Item printed again."""

from __future__ import annotations

from pathlib import Path

from structgen import LOREM, Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)


def _children(roots: list[Node], prefix: str) -> list[str]:
    node = next(n for r in roots for n in r.walk() if n.title.startswith(prefix))
    return [c.title for c in node.children]


def _cover(w: Writer) -> None:
    w.centred("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 17)
    w.heading("FORM 10-K", size=17, space=40)
    w.paras(2)
    w.new_page()


def _item(w: Writer, title: str, heads: list[str], pages_each: int = 1, size: float = 10.0,
          bold: bool = True) -> None:
    w.heading(title, size=10, bold=True, space=14)
    w.para()
    for head in heads:
        w.heading(head, size=size, bold=bold)
        w.fill_pages(pages_each)


def test_a_short_mdna_keeps_its_sub_sections(tmp_path: Path) -> None:
    """Short Items are read whole (their run-in heads are noise in a table of contents), but MD&A is
    the narrative the form asks filers to divide: a 3-page MD&A in a 40-page 10-K keeps its
    sub-sections (they used to be dropped with every short Item's), a 3-page Item 1 does not."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.heading("PART I", size=10, bold=True, space=14)
    _item(w, "Item 1. Business", ["Company Background", "Products", "Competition"])
    _item(w, "Item 1A. Risk Factors", ["Macroeconomic Risks", "Business Risks", "Legal Risks", "Financial Risks"],
          pages_each=4)
    w.heading("PART II", size=10, bold=True, space=14)
    mdna = ["Fiscal Year Highlights", "Results of Operations", "Liquidity and Capital Resources"]
    _item(w, "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations", mdna)
    _item(w, "Item 8. Financial Statements and Supplementary Data", ["Basis of Presentation"], pages_each=20)
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert _children(roots, "Item 7.") == mdna
    assert _children(roots, "Item 1.") == []
    assert _children(roots, "Item 1A.") == ["Macroeconomic Risks", "Business Risks", "Legal Risks", "Financial Risks"]


def test_a_one_off_heading_look_does_not_outrank_an_items_sub_sections(tmp_path: Path) -> None:
    """An Item 1 divided by large plain headings, with one chart title in a smaller size: the chart
    title is a one-off look (one title in the whole filing), ranked with the common look of its
    size and weight (the numbered notes'), so the Item keeps exactly its sub-sections. Ranked by the
    document's style levels the chart title used to be a sub-section of its own (here) or, in a 10-K
    whose numbered notes' style reset that ranking, the Item's most prominent heading, and every real
    sub-section was dropped."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.heading("PART I", size=10, bold=True, space=14)
    heads = ["Executive Summary", "Overview", "Customers", "Human Capital Management"]
    w.heading("Item 1. Business", size=10, bold=True, space=14)
    w.para()
    for head in heads:
        w.heading(head, size=16, bold=False)
        w.fill_pages(3)
        if head == "Customers":
            w.centred("Employees by Region", 14, bold=False)
            w.paras(2)
    _item(w, "Item 1A. Risk Factors", [])
    _item(w, "Item 2. Properties", [])
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading("Item 8. Financial Statements and Supplementary Data", size=10, bold=True, space=14)
    w.para()
    for n, note in enumerate(["GENERAL", "INVENTORY", "DEBT", "LEASES", "EQUITY"], start=1):
        w.heading(f"{n}. {note}", size=14, bold=False)
        w.fill_pages(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert _children(roots, "Item 1.") == heads


def test_a_sub_section_whose_title_extends_its_items_is_kept(tmp_path: Path) -> None:
    """``BUSINESS OVERVIEW`` a third of a page under ``Item 1. Business`` is the Item's first
    sub-section: its title only contains the Item's, and it stands well below it. It used to be
    taken for the Item's own heading printed again, and dropped."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.heading("PART I", size=10, bold=True, space=14)
    w.heading("Item 1. Business", size=10, bold=True, space=14)
    w.paras(3)
    heads = ["BUSINESS OVERVIEW", "SEGMENTS", "COMPETITION", "EMPLOYEES"]
    for head in heads:
        w.centred(head, 10)
        w.fill_pages(3)
    _item(w, "Item 1A. Risk Factors", [])
    _item(w, "Item 2. Properties", [])
    w.heading("PART II", size=10, bold=True, space=14)
    _item(w, "Item 8. Financial Statements and Supplementary Data", ["Basis of Presentation"], pages_each=6)
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert _children(roots, "Item 1.") == heads


def test_a_toc_entry_placed_on_its_running_footer_moves_up_to_its_heading(tmp_path: Path) -> None:
    """The notes' pages repeat their section title in the running footer; a printed TOC entry
    placed on that footer line of the section's first page moves up to its heading at the top of
    the page, so notes 1 and 2 printed between them are its children (they used to sit in the
    previous section and be dropped)."""
    from test_structure_classes import _contents_page, _overview_then_statements

    w, pages = _overview_then_statements()
    w.paras(3)
    w.new_page()
    notes_title = "Notes to Consolidated Financial Statements"
    pages[notes_title] = w.heading(notes_title, size=18, bold=False)
    first = w.page_number
    notes = ["Note 1: Basis of Presentation", "Note 2: Accounting Policies", "Note 3: Revenue", "Note 4: Leases"]
    for note in notes:
        w.heading(note, size=14, bold=False)
        w.paras(3)
    last = w.page_number
    for p in range(first, last + 1):
        w.doc[p - 1].insert_text((300, 765), notes_title, fontsize=8, fontname="helv")
    w.new_page()
    pages["Controls and Procedures"] = w.heading("Controls and Procedures", size=20)
    w.fill_pages(2)
    listed = [(0, "Overview"), (0, "Financial Statements"), (1, "Notes to the Consolidated Financial Statements"),
              (0, "Controls and Procedures")]
    pages["Notes to the Consolidated Financial Statements"] = pages[notes_title]
    _contents_page(w, 1, [(i, t, pages[t]) for i, t in listed])
    roots, result = build_nodes(read(w.save(tmp_path / "report.pdf")), DETECT)
    assert "toc" in result.method
    assert _children(roots, "Notes to the") == notes


def test_a_centred_sub_section_a_little_off_the_middle_is_set_like_the_others(tmp_path: Path) -> None:
    """Item 1's sub-sections are centred bold capitals; two of them sit 14 points right of the
    column's middle (their page's measure differs), and bold run-in heads follow at the margin.
    The off-centre titles are set off from the margin like the centred ones and rank with them
    (they used to rank below them, with the flush-left capitals, and were dropped)."""
    import pymupdf

    words, full = LOREM.split(), ""
    for word in words:  # one full-measure line: justified text fills the column
        if pymupdf.get_text_length(f"{full} {word}", fontname="helv", fontsize=10) > 468:
            break
        full = f"{full} {word}".strip()

    def text(lines: int) -> None:
        for _ in range(lines):
            w.line(full)

    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.heading("PART I", size=10, bold=True, space=14)
    w.heading("Item 1. Business", size=10, bold=True, space=14)
    text(8)
    heads = ["BUSINESS OVERVIEW", "SEGMENTS", "COMPETITION", "PRINCIPAL PRODUCTS AND SERVICES", "EMPLOYEES"]
    for k, head in enumerate(heads):
        w.y += 10
        if head in ("COMPETITION", "PRINCIPAL PRODUCTS AND SERVICES"):
            width = pymupdf.get_text_length(head, fontname="hebo", fontsize=10)
            w.line(head, bold=True, x=(72 + 540 - width) / 2 + 14)
        else:
            w.centred(head, 10)
        text(10)
        for run_in in ("Digital Media", "Publishing"):
            w.heading(f"{run_in} {k + 1}", size=10, bold=True)
            text(40)
    _item(w, "Item 1A. Risk Factors", [])
    _item(w, "Item 2. Properties", [])
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading("Item 8. Financial Statements and Supplementary Data", size=10, bold=True, space=14)
    for n, note in enumerate(["GENERAL", "INVENTORY", "DEBT", "LEASES"], start=1):
        w.heading(f"NOTE {n}. {note}", size=10, bold=True)
        text(80)
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert _children(roots, "Item 1.") == heads


def test_an_annual_reports_back_pages_after_the_signatures_are_top_level(tmp_path: Path) -> None:
    """An annual report binds its own pages (a performance graph, the board, corporate information)
    after the 10-K's Signatures, in its large display type: they are the report's sections, at the
    top level beside the Signatures (they used to be the Signatures' sub-sections)."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.heading("PART I", size=10, bold=True, space=14)
    _item(w, "Item 1. Business", ["Company Background", "Products"], pages_each=3)
    _item(w, "Item 1A. Risk Factors", ["Business Risks", "Financial Risks"], pages_each=3)
    _item(w, "Item 2. Properties", [])
    w.new_page()
    w.heading("SIGNATURES", size=10, bold=True)
    w.paras(2)
    back = ["Comparison of Five-Year Cumulative Total Return", "Board of Directors", "Corporate Information"]
    for title in back:
        w.new_page()
        w.heading(title, size=16, bold=True)
        w.paras(2)
    roots, _ = build_nodes(read(w.save(tmp_path / "annual.pdf")), DETECT)
    assert [r.title for r in roots if r.origin != "preface"][-4:] == ["SIGNATURES", *back]


def test_the_cover_pages_own_parts_on_the_next_page_are_not_sections(tmp_path: Path) -> None:
    """The form's cover runs on to a second page, with its ``DOCUMENTS INCORPORATED BY REFERENCE``
    part set like a heading, before Part I: it is cover matter, not the filing's first section
    (it used to come out as a section ahead of Part I)."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.centred("DOCUMENTS INCORPORATED BY REFERENCE", 10)
    w.paras(2)
    w.new_page()
    w.heading("PART I", size=10, bold=True, space=14)
    _item(w, "Item 1. Business", [])
    _item(w, "Item 1A. Risk Factors", [])
    _item(w, "Item 2. Properties", [])
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert [r.title for r in roots if r.origin != "preface"] == ["PART I"]


def _titles(roots: list[Node]) -> list[str]:
    return [n.title for r in roots for n in r.walk()]


def test_an_auditors_report_salutation_is_not_a_section(tmp_path: Path) -> None:
    """The auditor's report opens with its salutation (``To the Stockholders and the Board of
    Directors of ...``) set larger than the body, then the parts the auditing standard prescribes
    (``Opinion on the Financial Statements``, ``Basis for Opinion``): the report's text, not
    sections (the salutation used to come out as the report's child, the parts in its place)."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    for title in ("Management's Discussion and Analysis", "Risk Factors",
                  "Report of Independent Registered Public Accounting Firm", "Consolidated Balance Sheets",
                  "Consolidated Statements of Income"):
        w.heading(title, size=18, bold=False)
        if title.startswith("Report"):
            w.heading("To the Stockholders and the Board of Directors of Example Corp", size=12, bold=False)
            w.para()
            for head in ("Opinion on the Financial Statements", "Basis for Opinion", "Critical Audit Matter"):
                w.heading(head, size=10, bold=False)
                w.paras(2)
        w.fill_pages(3)
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    titles = _titles(roots)
    assert "Report of Independent Registered Public Accounting Firm" in titles
    assert not [t for t in titles if t.startswith("To the Stockholders")]
    assert not {"Opinion on the Financial Statements", "Basis for Opinion", "Critical Audit Matter"} & set(titles)


def test_a_toc_row_naming_a_part_and_its_item_is_two_entries(tmp_path: Path) -> None:
    """The printed TOC lists the last Part and its only Item on one row (``PART IV - ITEM 15.
    ...``) and the body prints them on two lines, the Item's under the Part's: the Part is a section
    with the Item inside it, found on its own line (the row used to become one Part titled with the
    Item, and the body's Item line was read as the Part's title)."""
    from test_structure_classes import _contents_page

    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.new_page()  # page 2 is the contents page, filled in below
    rows: list[tuple[int, str, int]] = []
    for part, items in (("PART I", ["ITEM 1. BUSINESS", "ITEM 1A. RISK FACTORS"]),
                        ("PART II", ["ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS", "ITEM 8. FINANCIAL STATEMENTS"])):
        rows.append((0, part, w.heading(part, size=10, bold=True, space=14)))
        for item in items:
            rows.append((1, item, w.heading(item, size=10, bold=True, space=14)))
            w.fill_pages(2)
    w.new_page()
    assert w.page is not None
    w.page.insert_text((72, 90), "PART IV\nITEM 15. EXHIBITS AND FINANCIAL STATEMENT SCHEDULES", fontsize=10,
                       fontname="hebo")  # one text block, the Item's line right under the Part's
    page = w.page_number
    w.y = 120
    w.fill_pages(2)
    rows.append((0, "PART IV - ITEM 15. EXHIBITS AND FINANCIAL STATEMENT SCHEDULES", page))
    _contents_page(w, 2, rows)
    roots, result = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert "toc" in result.method
    assert [r.title for r in roots if r.origin != "preface"][-1] == "PART IV"
    part = next(r for r in roots if r.title == "PART IV")
    assert [c.title for c in part.children] == ["ITEM 15. EXHIBITS AND FINANCIAL STATEMENT SCHEDULES"]
    assert part.children[0].start > part.start  # the Item found on its own line, under the Part's


def test_an_exhibits_title_ends_where_its_table_begins(tmp_path: Path) -> None:
    """An exhibit's title is centred under its label in two lines, and the list under it opens with
    a bold column header at the right (``Jurisdiction``), alone on its row: the header is the
    table's, not the title's (it used to be read as the title's third line)."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    _cover(w)
    w.heading("PART I", size=10, bold=True, space=14)
    _item(w, "Item 1. Business", [])
    _item(w, "Item 1A. Risk Factors", [])
    w.heading("PART IV", size=10, bold=True, space=14)
    _item(w, "Item 15. Exhibits and Financial Statement Schedules", [])
    _item(w, "Item 16. Form 10-K Summary", [])
    w.new_page()
    w.centred("Signatures", 10)
    w.para()
    w.new_page()
    w.right("Exhibit 21.1", 9)
    w.centred("Subsidiaries of", 9)
    w.centred("Example Corp*", 9)
    w.y += 14
    w.line("Jurisdiction", 8, bold=True, x=470)
    for name, place in (("Example Asia Limited", "Hong Kong"), ("Example Holdings LLC", "Delaware, U.S.")):
        w.line(name)
        w.y -= 12.5
        w.line(place, x=470)
    w.new_page()
    w.right("Exhibit 31.1", 9)
    w.centred("CERTIFICATION", 9)
    w.para()
    roots, _ = build_nodes(read(w.save(tmp_path / "tenk.pdf")), DETECT)
    assert _children(roots, "Exhibits") == ["Exhibit 21.1 Subsidiaries of Example Corp*", "Exhibit 31.1 CERTIFICATION"]
