"""The detection chain on generated PDFs: SEC Parts/Items, a filing's tail (Signatures, statements,
exhibits), junk and flat outlines, the outline switch, sections that start mid-page, and page
windows when nothing else is found."""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import FILING_NOTES, FILING_STATEMENTS, LOREM, PLAN_ARTICLES, Writer, filing_with_tail

from treebuild.model import Node, OutlineEntry
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes, detect_marks
from treebuild.structure.outline.quality import assess_outline, clean_outline

SETTINGS = BuildSettings(subdivide=False)


def _nodes(roots: list[Node]) -> list[Node]:
    return [n for r in roots for n in r.walk()]


_TOC_ROWS = [("PART I", None), ("Item 1.", "Business"), ("Item 1A.", "Risk Factors"), ("Item 2.", "Properties"),
             ("PART II", None), ("Item 5.", "Market for Registrant's Common Equity"),
             ("Item 7.", "Management's Discussion and Analysis"),
             ("Item 8.", "Financial Statements and Supplementary Data"), ("PART III", None),
             ("Item 10.", "Directors, Executive Officers and Corporate Governance")]


def _ten_k(path: Path, printed_toc: bool = False) -> tuple[Path, dict[str, int]]:
    """A 10-K-like filing: cover, Parts and Items, a long Item 7 with sub-headings, cross references;
    optionally an "Item ... Page" table of contents on page 2."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    pages: dict[str, int] = {}
    w.heading("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", size=14)
    w.heading("FORM 10-K", size=16)
    w.heading("EXAMPLE CORPORATION", size=14)
    w.paras(2)
    w.new_page()
    if printed_toc:
        w.heading("TABLE OF CONTENTS", size=10)
        w.y += 10 + 16 * len(_TOC_ROWS)
        w.new_page()

    def part(label: str) -> None:
        pages[label] = w.heading(label, size=10, bold=True, space=14)

    def item(label: str, title: str, n: int = 3) -> None:
        pages[label] = w.heading(f"{label}. {title}", size=10, bold=True)
        w.paras(n)

    part("PART I")
    item("Item 1", "Business")
    w.para("For a discussion of our results, see Item 7 of this report and the notes that follow it.")
    w._line("Item 7 of this report describes the results of operations in more detail for each segment", 10, False)
    w.paras(2)
    item("Item 1A", "Risk Factors", 6)
    item("Item 2", "Properties")
    part("PART II")
    item("Item 5", "Market for Registrant's Common Equity")
    pages["Item 7"] = w.heading("Item 7. Management's Discussion and Analysis", size=10, bold=True)
    w.paras(3)
    for sub in ("RESULTS OF OPERATIONS", "LIQUIDITY AND CAPITAL RESOURCES"):
        pages[sub] = w.heading(sub, size=10, bold=True)
        w.fill_pages(6)
    item("Item 8", "Financial Statements and Supplementary Data")
    part("PART III")
    item("Item 10", "Directors, Executive Officers and Corporate Governance")
    if printed_toc:
        toc_page = w.doc[1]
        y = 130.0
        toc_page.insert_text((480, y), "Page", fontsize=10, fontname="hebo")
        for label, title in _TOC_ROWS:
            y += 16
            key = label.rstrip(".")
            if title is None:
                toc_page.insert_text((72, y), label, fontsize=10, fontname="hebo")
                continue
            toc_page.insert_text((72, y), label, fontsize=10, fontname="helv")
            toc_page.insert_text((130, y), title, fontsize=10, fontname="helv")
            toc_page.insert_text((490, y), str(pages[key]), fontsize=10, fontname="helv")
    return w.save(path), pages


@pytest.mark.parametrize("printed_toc", [False, True], ids=["headings", "printed-toc"])
def test_ten_k_parts_and_items(tmp_path: Path, printed_toc: bool) -> None:
    path, pages = _ten_k(tmp_path / "tenk.pdf", printed_toc)
    doc = read(path)
    roots, result = build_nodes(doc, SETTINGS)
    assert "sec" in result.method or "headings" in result.method
    nodes = _nodes(roots)
    parts = [n for n in nodes if n.title.startswith("PART")]
    assert [(n.title, n.depth, n.start_page) for n in parts] == [
        (p, 1, pages[p]) for p in ("PART I", "PART II", "PART III")]
    items = [n for n in nodes if n.title.startswith("Item")]
    assert [(n.title.split(".")[0], n.depth, n.start_page) for n in items] == [
        (k, 2, pages[k]) for k in ("Item 1", "Item 1A", "Item 2", "Item 5", "Item 7", "Item 8", "Item 10")]
    assert [n.parent.title for n in items] == ["PART I"] * 3 + ["PART II"] * 3 + ["PART III"]
    # the cross references ("see Item 7", "Item 7 of this report ...") are not sections
    assert sum(1 for n in nodes if "Item 7" in n.title) == 1
    # the long Item 7 gets its own sections, nested one level below it
    item7 = next(n for n in items if n.title.startswith("Item 7"))
    assert [(c.title, c.start_page) for c in item7.children] == [
        ("RESULTS OF OPERATIONS", pages["RESULTS OF OPERATIONS"]),
        ("LIQUIDITY AND CAPITAL RESOURCES", pages["LIQUIDITY AND CAPITAL RESOURCES"])]
    # the cover page names the form; it is not a section
    assert not any(n.title == "FORM 10-K" for n in nodes)
    assert all(n.origin in ("sec", "toc", "heading", "numbering", "preface") for n in nodes)
    # no signatures, statements or exhibits follow the last Item: nothing is added after it
    assert roots[-1].title == "PART III"


def _child(node: Node, prefix: str) -> Node:
    return next(c for c in node.children if c.title.startswith(prefix))


@pytest.mark.parametrize("index", [True, False], ids=["index-page", "headings-only"])
def test_filing_tail_becomes_top_level_sections(tmp_path: Path, index: bool) -> None:
    path, pages = filing_with_tail(tmp_path / "tail.pdf", index=index)
    roots, result = build_nodes(read(path), SETTINGS)
    top = [(n.title, n.start_page) for n in roots if n.origin != "preface"]
    fs_page = pages["Index"] if index else pages["Report of Independent Registered Public Accounting Firm"]
    assert top == [("PART I", pages["PART I"]), ("PART II", pages["PART II"]), ("PART IV", pages["PART IV"]),
                   ("Signatures", pages["Signatures"]), ("Financial Statements", fs_page),
                   ("Exhibits", pages["Exhibit 10.40"])]
    part4, signatures, statements, exhibits = roots[-4:]
    # the last Item ends where the signatures begin; the signature table header is no section
    item16 = part4.children[-1]
    assert item16.title.startswith("Item 16") and item16.end_page == pages["Item 16"] and not item16.children
    assert signatures.children == [] and signatures.end_page == pages["Signatures"]
    # the statements: report, each statement, the notes nested under "Notes to ..."
    expected = ["Report of Independent Registered Public Accounting Firm", *FILING_STATEMENTS,
                "Notes to Consolidated Financial Statements"]
    assert [(c.title, c.start_page) for c in statements.children] == [(t, pages[t]) for t in expected]
    notes = statements.children[-1]
    # the index places note 5, whose heading is set in the body type; headings alone cannot see it
    numbers = range(1, len(FILING_NOTES) + 1) if index else [1, 2, 3, 4, 6]
    titles = [f"{n}. {FILING_NOTES[n - 1]}" for n in numbers]
    assert [(c.title, c.start_page) for c in notes.children] == [(t, pages[t]) for t in titles]
    assert statements.end_page == pages["Exhibit 10.40"] - 1
    # one child per exhibit, titled with the lines under its label; the plan's articles nest in it
    assert [(c.title, c.start_page) for c in exhibits.children] == [
        ("Exhibit 10.40 EXAMPLE CORPORATION SUPPLEMENTAL INVESTMENT PLAN", pages["Exhibit 10.40"]),
        ("Exhibit 21 Subsidiaries of Example Corporation", pages["Exhibit 21"]),
        ("Exhibit 31.1 CERTIFICATION PURSUANT TO SECTION 302 OF THE SARBANES-OXLEY ACT OF 2002",
         pages["Exhibit 31.1"])]
    plan = exhibits.children[0]
    assert [(c.title, c.start_page) for c in plan.children] == [(a, pages[a]) for a in PLAN_ARTICLES]
    assert plan.end_page == pages["Exhibit 21"] - 1
    # body lines of the plan (set larger than the filing's body) are not sections
    titles_all = [n.title for n in _nodes(roots)]
    assert not any("requires payment" in t or "means the thing" in t for t in titles_all)
    assert roots[-1].end_page == len(read(path).units)


def test_statements_inside_item_8_stay_there(tmp_path: Path) -> None:
    path, pages = filing_with_tail(tmp_path / "item8.pdf", statements_in_item8=True)
    roots, _ = build_nodes(read(path), SETTINGS)
    assert [n.title for n in roots if n.origin != "preface"] == ["PART I", "PART II", "PART IV", "Signatures",
                                                                "Exhibits"]
    item8 = _child(roots[2], "Item 8")
    expected = ["Report of Independent Registered Public Accounting Firm", *FILING_STATEMENTS,
                "Notes to Consolidated Financial Statements"]
    assert [(c.title, c.start_page) for c in item8.children] == [(t, pages[t]) for t in expected]
    notes = item8.children[-1]
    assert [c.title for c in notes.children] == [f"{n}. {t}" for n, t in enumerate(FILING_NOTES, start=1)]
    assert _child(roots[2], "Item 9").start_page == pages["Item 9"]
    assert item8.end_page == pages["Item 9"]


def test_statements_in_item_8_without_index_are_completed_and_notes_nested(tmp_path: Path) -> None:
    path, pages = filing_with_tail(tmp_path / "item8.pdf", index=False, statements_in_item8=True)
    roots, _ = build_nodes(read(path), SETTINGS)
    item8 = _child(roots[2], "Item 8")
    assert [c.title for c in item8.children] == ["Report of Independent Registered Public Accounting Firm",
                                                  *FILING_STATEMENTS, "Notes to Consolidated Financial Statements"]
    notes = item8.children[-1]
    assert [c.start_page for c in notes.children] == [pages[f"{n}. {FILING_NOTES[n - 1]}"] for n in (1, 2, 3, 4, 6)]
    assert all(c.depth == 4 for c in notes.children)


def _headed(w: Writer) -> dict[str, int]:
    pages = {}
    for c in (1, 2, 3):
        pages[f"{c} Chapter {c}"] = w.heading(f"{c} Chapter {c}", size=16)
        w.paras(2)
        for s in (1, 2):
            pages[f"{c}.{s} Section {c}.{s}"] = w.heading(f"{c}.{s} Section {c}.{s}", size=12)
            w.paras(3)
    return pages


def test_junk_outline_is_replaced_by_detection(tmp_path: Path) -> None:
    w = Writer()
    pages = _headed(w)
    junk = [[1, f"Ex {n} Q4 2022.pdf", 1] for n in ("10.13", "21", "23", "31.1", "32")]
    doc = read(w.save(tmp_path / "junk.pdf", toc=junk))
    assert len(doc.outline) == 5
    verdict = assess_outline(doc.outline, len(doc.units))
    assert verdict.kind == "junk"
    roots, result = build_nodes(doc, SETTINGS)
    assert result.method == "headings"
    assert {(f.code, f.stage) for f in result.warnings} >= {("outline_entries_dropped", "structure"),
                                                           ("outline_ignored", "structure")}
    got = [(n.title, n.depth, n.start_page) for n in _nodes(roots) if n.origin != "preface"]
    assert got == [(t, t.split()[0].count(".") + 1, p) for t, p in pages.items()]


def test_file_name_bookmarks_are_dropped_and_their_children_lifted() -> None:
    entries = [OutlineEntry(1, "PART I", 3), OutlineEntry(2, "Item 1. Business", 3),
               OutlineEntry(1, "Ex 21 Q4 2022.pdf", 1), OutlineEntry(2, "Exhibit 21", 114),
               OutlineEntry(1, "Ex 23 Q4 2022.pdf", 1), OutlineEntry(2, "Exhibit 23", 115)]
    cleaned, dropped = clean_outline(entries, 120)
    assert dropped == 2
    assert [(e.level, e.title) for e in cleaned] == [(1, "PART I"), (2, "Item 1. Business"), (1, "Exhibit 21"),
                                                      (1, "Exhibit 23")]


def test_flat_outline_is_relevelled_from_numbering(tmp_path: Path) -> None:
    w = Writer()
    pages = _headed(w)
    flat = [[1, t, p] for t, p in pages.items()]
    doc = read(w.save(tmp_path / "flat.pdf", toc=flat))
    assert {e.level for e in doc.outline} == {1}
    roots, result = build_nodes(doc, SETTINGS)
    assert result.method.startswith("outline")
    assert [(f.code, f.stage, f.page) for f in result.warnings] == [("outline_relevelled", "structure", None)]
    got = [(n.title, n.depth) for n in _nodes(roots) if n.origin != "preface"]
    assert got == [(t, t.split()[0].count(".") + 1) for t in pages]


def test_ignore_outline_forces_detection(tmp_path: Path) -> None:
    w = Writer()
    pages = _headed(w)
    bookmarks = [[1, "Bookmark A", 1], [1, "Bookmark B", 2]]
    doc = read(w.save(tmp_path / "bm.pdf", toc=bookmarks))
    assert detect_marks(doc, SETTINGS).method == "outline"
    result = detect_marks(doc, BuildSettings(ignore_outline=True, subdivide=False))
    assert result.method == "headings"
    assert [m.title for m in result.marks] == list(pages)
    assert {m.origin for m in result.marks} <= {"heading", "numbering"}
    assert all(0 < m.confidence <= 1 for m in result.marks)


def test_section_starting_mid_page_splits_the_page(tmp_path: Path) -> None:
    w = Writer()
    w.heading("First Topic", size=14)
    w.paras(2)
    w.heading("Second Topic", size=14)
    w.paras(2)
    w.fill_pages(2)
    doc = read(w.save(tmp_path / "mid.pdf"))
    roots, _ = build_nodes(doc, SETTINGS)
    first, second = roots[0], roots[1]
    assert (first.title, second.title) == ("First Topic", "Second Topic")
    assert second.start.unit == 0 and second.start.char > 0
    assert first.end == second.start
    assert first.start_page == second.start_page == 1
    assert second.text().startswith("Second Topic")
    assert "Second Topic" not in first.text()


def test_plain_long_text_falls_back_to_page_windows(tmp_path: Path) -> None:
    w = Writer(header=None)
    w.fill_pages(24)
    doc = read(w.save(tmp_path / "plain.pdf"))
    roots, result = build_nodes(doc, BuildSettings(subdivide=False, max_node_pages=10))
    assert result.method == "windows"
    assert all(n.origin == "window" for n in roots)
    assert len(roots) == 3
    assert [n.title for n in roots] == [doc.display_title] + [doc.display_title + " (continued)"] * 2
    for n in roots:
        assert n.end_page - n.start_page + 1 <= 10
    assert roots[-1].end_page == len(doc.units)
    assert LOREM.split()[0] in roots[1].text()


def test_toc_levels_follow_numbering_and_partial_outline_is_enriched() -> None:
    from treebuild.model import Mark, Pos
    from treebuild.structure.combine import enrich_outline, levels_from_numbering

    def mark(title: str, level: int, unit: int, origin: str = "toc") -> Mark:
        return Mark(title, level, Pos(unit, 0), origin)

    # a TOC whose indentation drifted: 2.3.59-2 read one level too deep
    toc = [mark("2.3.59.1 Scope", 1, 1), mark("2.3.59.1.1 Background", 2, 1), mark("2.3.59.2 Overview", 1, 2),
           mark("2.3.59-1 Input Display", 1, 3), mark("2.3.59-2 Input Display", 2, 4)]
    assert [m.level for m in levels_from_numbering(toc)] == [1, 2, 1, 1, 1]
    # Part I > 1 > 1.1: the offset the TOC shows is kept
    parts = [mark("Part I", 1, 0), mark("1 Intro", 2, 1), mark("1.1 Scope", 3, 1), mark("2 Body", 2, 2),
             mark("2.1 Detail", 3, 3)]
    assert [m.level for m in levels_from_numbering(parts)] == [1, 2, 3, 2, 3]
    # an outline of two chapters completed from a TOC that also lists their sections
    outline = [mark("1 Intro", 1, 1, "outline"), mark("2 Body", 1, 2, "outline"),
               mark("Index", 1, 5, "outline")]
    full = [mark("1 Intro", 1, 1), mark("1.1 Scope", 2, 1), mark("1.2 Terms", 2, 1), mark("2 Body", 1, 2),
            mark("2.1 Detail", 2, 3), mark("2.2 More", 2, 4)]
    enriched = enrich_outline(outline, full)
    assert enriched is not None
    assert [(m.title, m.level) for m in enriched] == [(m.title, m.level) for m in full] + [("Index", 1)]
    assert enrich_outline(full, outline) is None


def test_bookmarks_all_aimed_at_one_page_of_a_long_document_are_junk() -> None:
    entries = [OutlineEntry(1, f"Section {i}", 1) for i in range(6)]
    assert assess_outline(entries, 40).kind == "junk"
    # a short document whose sections share a page keeps its outline
    assert assess_outline(entries, 3).kind == "good"
