"""DOCX reader: units in body order, headings from styles and outline levels, TOC lines
ignored, core properties, errors. Documents are built with python-docx in each test."""

from __future__ import annotations

import datetime as dt
import hashlib
import zipfile
from pathlib import Path

import docx
import pytest
from docgen import add_field, add_style, add_toc_field, add_toc_sdt, add_tracked_deletion, set_outline_level
from docx.oxml.ns import qn

import treebuild
from treebuild.errors import ReadError
from treebuild.model import SourceDoc
from treebuild.readers import read
from treebuild.structure.assemble import PREFACE_TITLE

DATA = Path(__file__).parent / "data"


def _save(document: docx.document.Document, path: Path) -> Path:
    document.save(str(path))
    return path


def _headings(doc: SourceDoc) -> list[tuple[int | None, str]]:
    return [(u.heading_level, u.text) for u in doc.units if u.kind == "heading"]


def test_style_headings_paragraphs_and_contiguous_indexes(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_paragraph("Intro before any heading.")
    d.add_paragraph("")  # empty paragraphs are skipped
    d.add_heading("Chapter One", level=1)
    d.add_paragraph("   ")
    d.add_paragraph("Body of chapter one.")
    d.add_heading("Section 1.1", level=2)
    d.add_heading("Detail 1.1.1", level=3)
    d.add_paragraph("Detail text.")
    doc = read(_save(d, tmp_path / "styles.docx"))

    assert doc.format == "docx" and doc.page_count is None
    assert [u.index for u in doc.units] == list(range(len(doc.units)))
    assert [(u.kind, u.text) for u in doc.units] == [
        ("paragraph", "Intro before any heading."),
        ("heading", "Chapter One"),
        ("paragraph", "Body of chapter one."),
        ("heading", "Section 1.1"),
        ("heading", "Detail 1.1.1"),
        ("paragraph", "Detail text."),
    ]
    assert _headings(doc) == [(1, "Chapter One"), (2, "Section 1.1"), (3, "Detail 1.1.1")]
    assert [u.style for u in doc.units] == ["Normal", "Heading 1", "Normal", "Heading 2", "Heading 3", "Normal"]
    assert all(u.page is None and u.label is None for u in doc.units)


def test_heading_style_without_outline_level_is_known_by_name(tmp_path: Path) -> None:
    """Generators often write "Heading N" styles without w:outlineLvl; the built-in name decides."""
    d = docx.Document()
    for name in ("Heading 1", "Heading 2"):
        ppr = d.styles[name].element.pPr
        for el in ppr.findall(qn("w:outlineLvl")):
            ppr.remove(el)
    d.add_paragraph("Top", style="Heading 1")
    d.add_paragraph("Sub", style="Heading 2")
    assert _headings(read(_save(d, tmp_path / "noolvl.docx"))) == [(1, "Top"), (2, "Sub")]


def test_localised_style_id_uses_builtin_name(tmp_path: Path) -> None:
    """Localised Word files keep the English built-in name but translate the style id."""
    d = docx.Document()
    d.styles["Heading 2"].element.set(qn("w:styleId"), "berschrift2")
    ppr = d.styles["Heading 2"].element.pPr
    for el in ppr.findall(qn("w:outlineLvl")):
        ppr.remove(el)
    p = d.add_paragraph("Abschnitt")
    p._p.get_or_add_pPr().get_or_add_pStyle().set(qn("w:val"), "berschrift2")
    doc = read(_save(d, tmp_path / "de.docx"))
    assert _headings(doc) == [(2, "Abschnitt")]
    assert doc.units[0].style == "Heading 2"


def test_direct_outline_levels_on_normal_paragraphs(tmp_path: Path) -> None:
    d = docx.Document()
    levels = [0, 1, 2, 1, 9]
    for k, level in enumerate(levels):
        set_outline_level(d.add_paragraph(f"p{k}"), level)
        d.add_paragraph(f"body {k}")
    doc = read(_save(d, tmp_path / "olvl.docx"))
    assert _headings(doc) == [(1, "p0"), (2, "p1"), (3, "p2"), (2, "p3")]
    assert doc.units[-2].kind == "paragraph" and doc.units[-2].text == "p4"  # level 9 = body text
    assert all(u.style == "Normal" for u in doc.units)


def test_paragraph_outline_level_overrides_style(tmp_path: Path) -> None:
    d = docx.Document()
    promoted = d.add_paragraph("Promoted", style="Heading 3")
    set_outline_level(promoted, 0)
    demoted = d.add_paragraph("Looks like a heading, is body", style="Heading 1")
    set_outline_level(demoted, 9)
    doc = read(_save(d, tmp_path / "override.docx"))
    assert _headings(doc) == [(1, "Promoted")]
    assert doc.units[1].kind == "paragraph" and doc.units[1].heading_level is None


def test_custom_styles_inherit_outline_level_through_based_on(tmp_path: Path) -> None:
    d = docx.Document()
    add_style(d, "Chapter Title", outline_level=0)  # Normal-based, outline level 0 -> level 1
    add_style(d, "Chapter Title Variant", based_on="Chapter Title")  # inherits level 1
    add_style(d, "Custom Sub", based_on="Heading 2")  # level 2 through the chain
    add_style(d, "Custom Sub Deep", based_on="Custom Sub")  # two hops
    add_style(d, "Not A Heading", based_on="Heading 2", outline_level=9)  # own level 9 wins
    add_style(d, "Plain Custom")  # no level anywhere
    for style in ("Chapter Title", "Chapter Title Variant", "Custom Sub", "Custom Sub Deep", "Not A Heading",
                  "Plain Custom"):
        d.add_paragraph(f"text in {style}", style=style)
    doc = read(_save(d, tmp_path / "custom.docx"))
    assert _headings(doc) == [
        (1, "text in Chapter Title"),
        (1, "text in Chapter Title Variant"),
        (2, "text in Custom Sub"),
        (2, "text in Custom Sub Deep"),
    ]
    assert [u.style for u in doc.units if u.kind == "paragraph"] == ["Not A Heading", "Plain Custom"]


def test_tables_in_document_order_with_merged_cells_once(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_heading("Data", level=1)
    d.add_paragraph("Before the table.")
    table = d.add_table(rows=3, cols=3)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"r{r}c{c}"
    table.cell(0, 0).merge(table.cell(0, 1)).text = "wide"  # horizontal merge (gridSpan)
    table.cell(1, 2).merge(table.cell(2, 2)).text = "tall"  # vertical merge (vMerge)
    table.cell(2, 0).add_paragraph("second para")
    d.add_paragraph("After the table.")
    d.add_table(rows=1, cols=2)  # an empty table yields no unit
    d.add_paragraph("End.")
    doc = read(_save(d, tmp_path / "tables.docx"))
    assert [u.kind for u in doc.units] == ["heading", "paragraph", "table", "paragraph", "paragraph"]
    tbl = doc.units[2]
    assert tbl.text == "wide | r0c2\nr1c0 | r1c1 | tall\nr2c0 second para | r2c1"
    assert tbl.text.count("tall") == 1
    assert tbl.heading_level is None


def test_heading_in_a_table_cell_is_table_text(tmp_path: Path) -> None:
    d = docx.Document()
    cell = d.add_table(rows=1, cols=1).cell(0, 0)
    cell.paragraphs[0].style = d.styles["Heading 1"]
    cell.paragraphs[0].text = "Boxed title"
    doc = read(_save(d, tmp_path / "cellheading.docx"))
    assert [(u.kind, u.text, u.heading_level) for u in doc.units] == [("table", "Boxed title", None)]


def test_toc_styles_sdt_and_field_are_not_headings(tmp_path: Path) -> None:
    d = docx.Document()
    add_style(d, "toc 1", based_on="Heading 1")  # a TOC style even when built on a heading
    d.add_paragraph("Contents", style="TOC Heading")
    d.add_paragraph("Styled TOC line\t3", style="toc 1")
    add_toc_sdt(d, [("Heading 1", "In a TOC control\t4")])
    end = add_toc_field(d, [("Heading 1", "Field entry one\t5"), ("Heading 2", "Field entry two\t6")],
                        then=("Heading 1", "Real Chapter"))
    d.add_paragraph("Chapter body.")
    d.add_heading("Second Chapter", level=1)
    doc = read(_save(d, tmp_path / "toc.docx"))
    assert end.text == "Real Chapter"
    assert _headings(doc) == [(1, "Real Chapter"), (1, "Second Chapter")]
    texts = [u.text for u in doc.units]
    assert "Field entry one\t5" in texts and "In a TOC control\t4" in texts and "Styled TOC line\t3" in texts


def test_toc_field_ending_in_own_paragraph(tmp_path: Path) -> None:
    d = docx.Document()
    add_toc_field(d, [("Heading 1", "Entry\t2")])
    d.add_heading("After", level=1)
    assert _headings(read(_save(d, tmp_path / "toc2.docx"))) == [(1, "After")]


def test_other_fields_keep_result_text_and_drop_instructions(tmp_path: Path) -> None:
    d = docx.Document()
    h = d.add_heading("Figure ", level=2)
    add_field(h, "SEQ Figure \\* ARABIC", "7")
    p = d.add_paragraph("Kept ")
    add_tracked_deletion(p, "removed words")
    p.add_run("text\tafter tab")
    doc = read(_save(d, tmp_path / "fields.docx"))
    assert _headings(doc) == [(2, "Figure 7")]
    assert doc.units[1].text == "Kept text\tafter tab"


def test_title_style_and_core_properties(tmp_path: Path) -> None:
    d = docx.Document()
    cp = d.core_properties
    cp.title = "Core Title"
    cp.author = "Ada Lovelace"
    cp.subject = "Engines"
    cp.keywords = "analytical, engine"
    cp.created = dt.datetime(2020, 1, 2, 3, 4, 5)
    cp.modified = dt.datetime(2021, 6, 7, 8, 9, 10)
    d.add_paragraph("Visible   Title", style="Title")
    d.add_heading("First", level=1)
    path = _save(d, tmp_path / "props.docx")
    doc = read(path)
    assert doc.title == "Visible Title"  # what the reader sees beats a possibly stale property
    assert doc.units[0].kind == "paragraph" and doc.units[0].heading_level is None
    assert _headings(doc) == [(1, "First")]
    assert doc.metadata["title"] == "Core Title"
    assert doc.metadata["author"] == "Ada Lovelace"
    assert doc.metadata["subject"] == "Engines"
    assert doc.metadata["keywords"] == "analytical, engine"
    assert doc.metadata["created"].startswith("2020-01-02T03:04:05")
    assert doc.metadata["modified"].startswith("2021-06-07T08:09:10")
    data = path.read_bytes()
    assert doc.sha256 == hashlib.sha256(data).hexdigest() and doc.size == len(data)


def test_core_title_used_without_title_paragraph(tmp_path: Path) -> None:
    d = docx.Document()
    d.core_properties.title = "Only In Properties"
    d.add_paragraph("text")
    assert read(_save(d, tmp_path / "coretitle.docx")).title == "Only In Properties"


def test_tree_has_preface_and_nests_skipped_levels(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_paragraph("Preface text one.")
    d.add_paragraph("Preface text two.")
    d.add_heading("A", level=1)
    d.add_paragraph("a body")
    d.add_heading("A.x.1", level=3)  # skips level 2: still A's child
    d.add_paragraph("deep body")
    d.add_heading("A.2", level=2)
    d.add_heading("B", level=1)
    d.add_paragraph("b body")
    tree = treebuild.build(_save(d, tmp_path / "tree.docx"))
    assert tree.method == "headings"
    got = [(n.node_id, n.title, n.depth, n.parent.title if n.parent else None) for n in tree.walk()]
    assert got == [
        ("0000", PREFACE_TITLE, 1, None),
        ("0001", "A", 1, None),
        ("0002", "A.x.1", 2, "A"),
        ("0003", "A.2", 2, "A"),
        ("0004", "B", 1, None),
    ]
    preface, a, ax1, a2, b = tree.walk()
    assert preface.text() == "Preface text one.\nPreface text two."
    assert a.text() == "A\na body\nA.x.1\ndeep body\nA.2"
    assert a.own_text() == "A\na body"
    assert ax1.text() == "A.x.1\ndeep body"
    assert b.text() == "B\nb body"
    assert [n.title for n in ax1.path()] == ["A", "A.x.1"]
    assert all(n.start_page is None and n.end_page is None for n in tree.walk())


def test_document_without_headings_is_one_node(tmp_path: Path) -> None:
    d = docx.Document()
    d.core_properties.title = "Flat"
    d.add_paragraph("just text")
    tree = treebuild.build(_save(d, tmp_path / "flat.docx"))
    assert tree.method == "single"
    assert [(n.title, n.text()) for n in tree.walk()] == [("Flat", "just text")]


@pytest.mark.parametrize("content", [b"", b"not a zip at all", b"PK\x03\x04truncated"])
def test_corrupt_file_raises_read_error_naming_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.docx"
    path.write_bytes(content)
    with pytest.raises(ReadError) as info:
        read(path)
    assert str(path) in str(info.value)
    assert info.value.path == str(path) and info.value.hint


def test_truncated_docx_and_foreign_zip(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_paragraph("x" * 2000)
    full = _save(d, tmp_path / "full.docx").read_bytes()
    cut = tmp_path / "cut.docx"
    cut.write_bytes(full[: len(full) // 2])
    foreign = tmp_path / "foreign.docx"
    with zipfile.ZipFile(foreign, "w") as z:
        z.writestr("hello.txt", "not a word document")
    for path in (cut, foreign):
        with pytest.raises(ReadError, match="cannot open DOCX") as info:
            read(path)
        assert info.value.path == str(path)


# --- committed real documents (see tests/data/README.md) ----------------------------------------

def test_real_docx_outline_levels_only() -> None:
    """A journal article whose headings are Normal paragraphs with direct outline levels."""
    doc = read(DATA / "poi__bug59058.docx")
    heads = _headings(doc)
    assert len(heads) == 18
    assert {u.style for u in doc.units if u.kind == "heading"} == {"Normal"}
    assert heads[0][1].startswith("Plasma Levels of Polychlorinated Biphenyls")
    assert (7, "3.1.1. Plausibility") in heads  # w:outlineLvl 6
    tree = treebuild.build(DATA / "poi__bug59058.docx")
    results = tree.find("3. Results")[0]
    assert [c.title for c in results.children] == ["3.1. Assessment of the Hill Criteria for Causation",
                                                   "3.2. Ecological Effects"]
    assert [c.title for c in results.children[0].children] == [
        "3.1.1. Plausibility", "3.1.2. Temporality",
        "3.1.3. Strength of Association (Causal Contribution) via Meta-Analysis"]


def test_real_docx_matches_its_pdf_twin_outline() -> None:
    """LibreOffice export of the ODF spec: Heading 1-4 plus a TOC field; same tree as the PDF."""
    doc = read(DATA / "odf-packages.lo-converted.docx")
    pdf = read(DATA / "odf-packages-p1-12.pdf")
    heads = _headings(doc)
    assert len(heads) == 86  # the TOC field repeats every title; none of those count
    assert doc.title == "Open Document Format for Office Applications (OpenDocument) Version 1.4. Part 2: Packages"
    # The PDF keeps the automatic numbers ("2.2.1 ..."); the DOCX text has none (list numbering).
    twin = [(e.level, e.title.split(" ", 1)[1]) for e in pdf.outline]
    assert len(twin) >= 10
    assert heads[: len(twin)] == twin
