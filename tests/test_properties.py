"""Properties of every tree, over generated Markdown, DOCX and PDF documents (hypothesis), and a
fuzz test of the TOC-line, numbering and heading parsers, which must never raise.

Tree properties: node ids unique and in preorder; a parent covers its children (span and pages);
siblings in order and non-overlapping; every character of the document belongs to exactly one
node's own text (the own spans partition the document); a store round trip gives equal trees.
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator
from pathlib import Path

import docx
import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import treebuild
from treebuild.model import Line, Pos, SourceDoc, Tree, Unit
from treebuild.settings import BuildSettings
from treebuild.store import Store
from treebuild.structure.toc import parse as toc_parse
from treebuild.structure.typography import headings
from treebuild.text import normalize as text
from treebuild.text import numbering

# ---------------------------------------------------------------------------- generated documents

WORD = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd")), min_size=1, max_size=9)
TITLE = st.lists(WORD, min_size=1, max_size=5).map(" ".join)
PARAGRAPH = st.lists(WORD, min_size=1, max_size=40).map(" ".join)
SECTION = st.tuples(st.integers(1, 4), TITLE, st.lists(PARAGRAPH, min_size=0, max_size=3))
SECTIONS = st.lists(SECTION, min_size=1, max_size=10)
PREFACE = st.lists(PARAGRAPH, max_size=2)
# small limits so generated documents also exercise subdivision into windows
SETTINGS = BuildSettings(max_node_tokens=100, max_node_pages=1)


def _markdown(folder: Path, preface: list[str], sections: list[tuple[int, str, list[str]]]) -> Path:
    blocks = list(preface)
    for level, title, paras in sections:
        blocks.append("#" * level + " " + title)
        blocks.extend(paras)
    path = folder / "gen.md"
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return path


def _docx(folder: Path, preface: list[str], sections: list[tuple[int, str, list[str]]]) -> Path:
    document = docx.Document()
    for p in preface:
        document.add_paragraph(p)
    for level, title, paras in sections:
        document.add_heading(title, level=level)
        for p in paras:
            document.add_paragraph(p)
    path = folder / "gen.docx"
    document.save(str(path))
    return path


def _pdf(folder: Path, preface: list[str], sections: list[tuple[int, str, list[str]]], outline: bool) -> Path:
    """One section per page region: a bold heading line and wrapped body text, with bookmarks or not."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72.0
    toc: list[list[object]] = []
    last_level = 0

    def line(text_: str, size: float, font: str) -> None:
        nonlocal page, y
        if y > 720:
            page = doc.new_page()
            y = 72.0
        page.insert_text((72, y), text_, fontsize=size, fontname=font)
        y += size * 1.6

    for p in preface:
        for i in range(0, len(p), 80):
            line(p[i:i + 80], 10, "helv")
    for level, title, paras in sections:
        level = min(level, last_level + 1)  # bookmarks may not skip levels
        last_level = level
        y += 8
        line(title, 20 - 2 * level, "hebo")
        toc.append([level, title, doc.page_count, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(72, y - 30),
                                                   "page": doc.page_count - 1}])
        for p in paras:
            for i in range(0, len(p), 80):
                line(p[i:i + 80], 10, "helv")
    if outline:
        doc.set_toc(toc)
    path = folder / "gen.pdf"
    doc.save(path)
    return path


# ---------------------------------------------------------------------------- the properties

def check_tree(tree: Tree) -> None:
    nodes = list(tree.walk())
    ids = [n.node_id for n in nodes]
    assert len(set(ids)) == len(ids), "node ids are not unique"
    assert ids == sorted(ids), "node ids are not in preorder"
    for n in nodes:
        assert n.start <= n.end, n
        siblings = n.children
        for child in siblings:
            assert child.parent is n and child.depth == n.depth + 1
            assert n.start <= child.start and child.end <= n.end, (n, child)
            if n.start_page is not None and child.start_page is not None:
                assert n.start_page <= child.start_page and child.end_page <= n.end_page, (n, child)
        for a, b in zip(siblings, siblings[1:], strict=False):
            assert a.ordinal < b.ordinal and a.end <= b.start, (a, b)
    for a, b in zip(tree.roots, tree.roots[1:], strict=False):
        assert a.end <= b.start, (a, b)
    # own spans [start, own_end) of all nodes, in document order, tile [0, end of document) exactly
    spans = sorted((n.start, n.own_end()) for n in nodes if n.start < n.own_end())
    cursor = Pos(0, 0)
    doc = tree.doc
    for i, (start, end) in enumerate(spans):
        if i == 0:  # only white space may come before the first node (no preface node is made for it)
            assert not doc.span_text(cursor, start).strip(), f"text before {start} belongs to no node"
        else:
            assert start >= cursor, f"own texts overlap at {start}"
            assert start == cursor, f"{doc.span_text(cursor, start)[:40]!r} before {start} belongs to no node"
        cursor = end
    assert cursor == doc.end(), "text at the end belongs to no node"
    own = "".join(n.own_text() for n in nodes)
    whole = doc.span_text(Pos(0, 0), doc.end())
    assert "".join(own.split()) == "".join(whole.split()), "own texts do not add up to the document"


_DOC_IDS = itertools.count()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """One store for the module's examples (creating a DuckLake catalog per example cost more than the
    round trip itself); each example commits a new document, so no example sees another's rows."""
    st = Store(tmp_path_factory.mktemp("properties") / "store")
    yield st
    st.close()


def check_round_trip(tree: Tree, path: Path, store: Store) -> None:
    did = f"gen-{next(_DOC_IDS)}"
    result = treebuild.ingest(path, store, doc_id=did, settings=SETTINGS)
    assert (result.status, result.version) == ("created", 1)
    loaded = store.tree(did)

    def facts(t: Tree) -> list[tuple[object, ...]]:
        return [(n.node_id, n.title, n.depth, n.ordinal, n.parent_id, n.start, n.end, n.start_page, n.end_page,
                 n.origin, n.summary, n.text()) for n in t.walk()]

    assert facts(loaded) == facts(tree)
    assert [u.text for u in loaded.doc.units] == [u.text for u in tree.doc.units]
    check_tree(loaded)


PROPERTY_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(preface=PREFACE, sections=SECTIONS)
def test_markdown_trees_keep_their_properties(store: Store, preface: list[str],
                                         sections: list[tuple[int, str, list[str]]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _markdown(Path(tmp), preface, sections)
        tree = treebuild.build(path, SETTINGS)
        check_tree(tree)
        check_round_trip(tree, path, store)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preface=PREFACE, sections=SECTIONS)
def test_docx_trees_keep_their_properties(store: Store, preface: list[str],
                                         sections: list[tuple[int, str, list[str]]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _docx(Path(tmp), preface, sections)
        tree = treebuild.build(path, SETTINGS)
        check_tree(tree)
        check_round_trip(tree, path, store)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preface=PREFACE, sections=SECTIONS, outline=st.booleans())
def test_pdf_trees_keep_their_properties(store: Store, preface: list[str],
                                         sections: list[tuple[int, str, list[str]]], outline: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _pdf(Path(tmp), preface, sections, outline)
        tree = treebuild.build(path, SETTINGS)
        check_tree(tree)
        check_round_trip(tree, path, store)


# ---------------------------------------------------------------------------- parser fuzzing

LABELS = st.sampled_from(["", "1", "1.2", "1.2.3", "2-1", "IV.", "A.", "A.1", "(a)", "(iv)", "§ 3", "Item 7A.",
                          "Part II", "Chapter Two", "Appendix B-2", "Article XI", "Section 12.4", "Note 3",
                          "Exhibit 10.1", "Schedule C", "ITEM 1A", "12)", "0.", "999.999.999"])
FILLERS = st.sampled_from(["", " ", " . . . . ", "....", "\t", " \u2026 ", "\u2014", "  ", " -- ", "|"])
PAGES = st.sampled_from(["", "1", "iv", "F-3", "A-12", "N/A", "123456", "-", "12-14", "xx"])
TOC_LINE = st.tuples(LABELS, FILLERS, st.text(max_size=40), FILLERS, PAGES).map(
    lambda p: f"{p[0]} {p[2]}{p[1]}{p[3]}{p[4]}")
ANY_TEXT = st.one_of(st.text(max_size=80), TOC_LINE,
                     st.text(alphabet="1234567890.-()§IVXLCivx ABCabc\t\n:\u2013\u2014\u00a0", max_size=40))


@settings(max_examples=600, deadline=None)
@given(line=ANY_TEXT, other=ANY_TEXT)
def test_toc_line_numbering_and_title_parsers_never_raise(line: str, other: str) -> None:
    entry = toc_parse.parse_line(line)
    if entry is not None:
        assert isinstance(entry.title, str) and entry.title
        assert isinstance(entry.bare_title, str)
    label = numbering.parse_numbering(line, entry=True)
    assert label is None or label.label and label.rank > 0
    found = numbering.parse_numbering(line)
    assert found is None or isinstance(found.rest, str)
    assert isinstance(numbering.strip_numbering(line), str)
    assert isinstance(numbering.strip_dates(line), str)
    assert isinstance(numbering.is_label(line), bool)
    assert isinstance(headings.body_text_like(line), bool)
    assert isinstance(text.normalize_title(line), str)
    assert 0.0 <= text.title_similarity(line, other) <= 1.0
    entries = [e for e in (toc_parse.parse_line(x) for x in (line, other, line + " 2")) if e is not None]
    levels = toc_parse.assign_levels(entries)
    assert all(e.level >= 1 for e in levels)
    numbers = [n.parts for n in (numbering.parse_numbering(x) for x in (line, other)) if n is not None]
    assert 0 <= numbering.common_prefix(numbers) if numbers else True


STYLED_LINE = st.tuples(ANY_TEXT.map(lambda s: s.replace("\n", " ")), st.sampled_from([8.0, 10.0, 12.0, 14.0, 18.0]),
                        st.booleans(), st.sampled_from([0.0, 72.0, 200.0]))


def _lines_doc(pages: list[list[tuple[str, float, bool, float]]]) -> SourceDoc:
    units: list[Unit] = []
    layouts: list[list[Line]] = []
    for i, rows in enumerate(pages):
        lines: list[Line] = []
        parts: list[str] = []
        char, y = 0, 60.0
        for j, (t, size, bold, x0) in enumerate(rows):
            lines.append(Line(text=t.strip(), size=size, bold=bold, x0=x0, y0=y, x1=x0 + 6 * len(t), y1=y + size,
                              char=char, block=j, font="Helvetica-Bold" if bold else "Helvetica"))
            parts.append(t)
            char += len(t) + 1
            y += size * 1.5
        units.append(Unit(index=i, kind="page", text="\n".join(parts), page=i + 1, height=792.0))
        layouts.append(lines)
    return SourceDoc(path="fuzz.pdf", format="pdf", units=units, sha256="0" * 64, size=0, page_count=len(units),
                     _lines=lambda u: layouts[u])


@settings(max_examples=150, deadline=None)
@given(pages=st.lists(st.lists(STYLED_LINE, max_size=12), min_size=1, max_size=4))
def test_heading_scan_never_raises(pages: list[list[tuple[str, float, bool, float]]]) -> None:
    doc = _lines_doc(pages)
    scan = headings.scan_headings(doc)
    for h in scan.headings:
        assert 0 <= h.unit < len(doc.units) and h.level >= 0
    marks = headings.to_marks(scan.headings)
    assert all(m.level >= 1 for m in marks)


@given(line=ANY_TEXT)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_normalize_title_fast_path_matches_the_pattern(line: str) -> None:
    """ASCII titles take a byte-table path: it must give what the word pattern gives (runs of
    anything but letters and digits, underscores too, become one space; ends stripped)."""
    for s in (line, line.encode("ascii", "replace").decode("ascii"), f"_{line}__x\t\x1f9 ", "a_b\x0bC-1.2"):
        folded = s.casefold()
        if folded.isascii():
            assert text.normalize_title(s) == text._NON_WORD.sub(" ", folded).strip()
