"""Tables kept as data: the model (grid, header rows, row labels, Markdown), the rendered text that
substitutes a table's span, the DOCX and Markdown readers' tables, and the store's ``grids`` table with
its ``tables`` / ``latest_tables`` views (real DuckLake, real DuckDB)."""

from __future__ import annotations

import json
from pathlib import Path

import docx
import duckdb
import pytest
from docgen import BALANCE, statement_pdf
from docx.oxml.ns import qn
from hypothesis import given, settings
from hypothesis import strategies as st

from treebuild.ingestion import ingest
from treebuild.model import Format, Pos, SourceDoc, Table, Unit, UnitKind
from treebuild.readers import read
from treebuild.store import Store
from treebuild.store.catalog import CATALOG_FORMAT
from treebuild.store.rows import grid_rows, load_table

STATEMENT = [["", "2023", "2022"], ["Net revenue", "$ 1,234.5", "$ 1,100.0"], ["Cost of revenue", "(456)", "—"],
             ["Gross profit", "778.5", "1,100.0"]]


def statement(**kw: object) -> Table:
    return Table.from_cells(STATEMENT, unit=0, start=0, end=1, header_rows=1, label_columns=1, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the model


def test_markdown_aligns_figures_right_and_escapes_pipes() -> None:
    table = Table.from_cells([["Item", "Amount"], ["A | B", "12"], ["C", "(3)"]], unit=0, start=0, end=1,
                             header_rows=1, label_columns=1)
    assert table.markdown().splitlines() == [
        "| Item   | Amount |",
        "| ------ | -----: |",
        "| A \\| B |     12 |",
        "| C      |    (3) |",
    ]


def test_header_rows_join_into_one_heading_row_and_row_labels_are_the_first_column() -> None:
    table = Table.from_cells([["", "Year ended", "Year ended"], ["", "2023", "2022"], ["Revenue", "5", "4"],
                              ["Costs", "(1)", "(2)"]], unit=0, start=0, end=1, header_rows=2, label_columns=1)
    assert table.column_titles() == ["", "Year ended 2023", "Year ended 2022"]
    assert table.row_labels == ["Revenue", "Costs"]
    assert table.markdown().splitlines()[0] == "|         | Year ended 2023 | Year ended 2022 |"
    assert dataclass_replace(table, label_columns=0).row_labels == []


def test_a_table_without_header_rows_gets_an_empty_heading_row() -> None:
    table = Table.from_cells([["a", "b"], ["c"]], unit=0, start=0, end=1)
    assert table.rows == (("a", "b"), ("c", ""))  # padded to the widest row
    assert table.markdown().splitlines()[:2] == ["|     |     |", "| --- | --- |"]
    assert table.markdown().count("\n") == 3


def dataclass_replace(table: Table, **kw: object) -> Table:
    import dataclasses

    return dataclasses.replace(table, **kw)  # type: ignore[arg-type]


def page_doc(text: str, tables: list[Table]) -> SourceDoc:
    units = [Unit(index=0, kind=UnitKind.page, text="Cover\n", page=1),
             Unit(index=1, kind=UnitKind.page, text=text, page=2)]
    return SourceDoc(path="x.pdf", format=Format.pdf, units=units, sha256="0", size=1, page_count=2, tables=tables)


def test_rendered_text_substitutes_whole_tables_and_exact_text_stays_exact() -> None:
    cells = "\n".join(c for row in STATEMENT for c in row if c)
    text = f"Consolidated Statements of Income\n{cells}\nSee notes.\n"
    start = text.index("2023")
    end = text.index("1,100.0\nSee") + len("1,100.0")
    table = Table.from_cells(STATEMENT, unit=1, start=start, end=end, header_rows=1, label_columns=1, page=2)
    doc = page_doc(text, [table])
    exact = doc.span_text(Pos(0, 0), doc.end())
    assert exact == "Cover\n\n" + text  # unchanged by the table
    rendered = doc.span_text(Pos(0, 0), doc.end(), tables=True)
    assert rendered == ("Cover\n\nConsolidated Statements of Income\n\n" + table.markdown() + "\n\nSee notes.\n")
    # a span that cuts the table keeps the exact text of its part
    assert doc.span_text(Pos(1, start + 3), doc.end(), tables=True) == text[start + 3:]
    assert doc.tables_between(Pos(1, 0), doc.end()) == [table]
    assert doc.tables_between(Pos(1, start + 1), doc.end()) == []


# ---------------------------------------------------------------- readers


def _save(document: docx.document.Document, path: Path) -> Path:
    document.save(str(path))
    return path


def test_docx_table_grid_header_rows_labels_and_title(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_heading("Results", level=1)
    d.add_paragraph("Segment revenue")
    table = d.add_table(rows=4, cols=3)
    for r, row in enumerate([["Segment", "2023", "2022"], ["Cloud", "1,200", "900"], ["Devices", "(30)", "45"],
                             ["Total", "1,170", "945"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    d.add_paragraph("After the table.")
    doc = read(_save(d, tmp_path / "seg.docx"))
    [t] = doc.tables
    assert doc.units[t.unit].kind == "table" and (t.start, t.end) == (0, len(doc.units[t.unit].text))
    assert t.rows[0] == ("Segment", "2023", "2022") and t.header_rows == 1
    assert t.row_labels == ["Cloud", "Devices", "Total"] and t.title == "Segment revenue"
    assert "| Cloud   | 1,200 |  900 |" in doc.span_text(Pos(0, 0), doc.end(), tables=True)


def test_docx_merged_cells_repeated_header_rows_and_caption_below(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_paragraph("A long paragraph of prose that runs on.\nAnd a second line of it.")
    table = d.add_table(rows=4, cols=3)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"r{r}c{c}"
    table.cell(0, 0).merge(table.cell(0, 1)).text = "wide"  # gridSpan: the text in the first column
    table.cell(2, 2).merge(table.cell(3, 2)).text = "tall"  # vMerge: the continuation is blank
    for tr in table._tbl.tr_lst[:2]:  # two rows repeated on every page: the header
        tr.get_or_add_trPr().append(tr.makeelement(qn("w:tblHeader"), {}))
    table._tbl.tblPr.remove(table._tbl.tblPr.find(qn("w:tblLook")))  # no style options: labels by content
    d.add_paragraph("Table 3: Merged cells", style="Caption")
    doc = read(_save(d, tmp_path / "merged.docx"))
    [t] = doc.tables
    assert t.rows == (("wide", "", "r0c2"), ("r1c0", "r1c1", "r1c2"), ("r2c0", "r2c1", "tall"), ("r3c0", "r3c1", ""))
    assert t.header_rows == 2 and t.title == "Table 3: Merged cells" and t.label_columns == 1


def test_docx_table_without_header_option(tmp_path: Path) -> None:
    d = docx.Document()
    table = d.add_table(rows=2, cols=2)
    for r, row in enumerate([["1", "2"], ["3", "4"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    look = table._tbl.tblPr.find(qn("w:tblLook"))
    for name in ("w:firstRow", "w:firstColumn"):
        look.set(qn(name), "0")
    [t] = read(_save(d, tmp_path / "plain.docx")).tables
    assert (t.header_rows, t.label_columns, t.title) == (0, 0, None)


def test_markdown_pipe_table_as_data(tmp_path: Path) -> None:
    path = tmp_path / "t.md"
    path.write_text("# Results\n\nTable 2. Revenue by region\n\n| Region | 2023 | 2022 |\n|:--|--:|--:|\n"
                    "| **EMEA** | 1,2 | 3 |\n| A \\| B | 4 | 5 |\n\nAfter.\n\n|  |  |\n|--|--|\n| x | y |\n",
                    encoding="utf-8")
    doc = read(path)
    first, second = doc.tables
    assert first.rows == (("Region", "2023", "2022"), ("EMEA", "1,2", "3"), ("A | B", "4", "5"))
    assert (first.header_rows, first.row_labels, first.title) == (1, ["EMEA", "A | B"], "Table 2. Revenue by region")
    assert (first.unit, first.start, first.end) == (2, 0, len(doc.units[2].text))
    assert second.rows == (("x", "y"),) and second.header_rows == 0 and second.title == "After."


# ---------------------------------------------------------------- the store


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.text(max_size=8), min_size=1, max_size=4), min_size=1, max_size=5),
       st.integers(0, 3), st.booleans(), st.one_of(st.none(), st.text(max_size=20)))
def test_grid_rows_round_trip(cells: list[list[str]], header: int, labels: bool, title: str | None) -> None:
    from treebuild.model import Tree

    table = Table.from_cells(cells, unit=0, start=0, end=3, title=title, page=1, bbox=(1.0, 2.0, 3.5, 4.0))
    table = dataclass_replace(table, header_rows=min(header, len(table.rows)), label_columns=int(labels))
    doc = page_doc("abc", [])
    doc.tables = [dataclass_replace(table, unit=1)]
    rows = grid_rows(Tree(doc=doc, roots=[], method="single"), doc_id="d", version=1, load_id="x").to_pylist()
    assert load_table(rows[0]) == dataclass_replace(table, unit=1)


def test_store_keeps_tables_and_the_tables_view_reads_them(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_heading("Overview", level=1)
    d.add_paragraph("Nothing tabular here.")
    d.add_heading("Statements", level=1)
    d.add_paragraph("Consolidated balance sheet")
    table = d.add_table(rows=3, cols=3)
    for r, row in enumerate([["", "2023", "2022"], ["Cash", "10", "8"], ["Total assets", "100", "90"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    path = _save(d, tmp_path / "bs.docx")
    store = Store(tmp_path / "store")
    built = ingest(path, store)
    tree = store.tree(built.doc_id)
    [t] = tree.doc.tables
    assert t.row_labels == ["Cash", "Total assets"]
    node = tree.find("Statements")[0]
    assert node.tables() == [t] and tree.find("Overview")[0].tables() == []
    assert t.markdown() in node.text(tables=True) and t.markdown() not in node.text()
    rows = store.sql("SELECT doc_id, version, node_id, page, title, header, rows, row_labels FROM tables").to_pylist()
    assert rows == [{"doc_id": "bs", "version": 1, "node_id": node.node_id, "page": None,
                     "title": "Consolidated balance sheet", "header": '[["","2023","2022"]]',
                     "rows": '[["Cash","10","8"],["Total assets","100","90"]]',
                     "row_labels": '["Cash","Total assets"]'}]
    # JSON all the way down: a figure by row label, from plain SQL
    found = store.sql("SELECT r->>1 AS y2023 FROM latest_tables, unnest(json_extract(rows, '$[*]')) AS u(r) "
                      "WHERE r->>0 = 'Total assets'").to_pylist()
    assert found == [{"y2023": "100"}]
    assert json.loads(store.sql("SELECT rows FROM latest_tables").to_pylist()[0]["rows"])[0] == ["Cash", "10", "8"]
    # a second version with the table gone: latest_tables follows, the old version keeps its table
    d2 = docx.Document()
    d2.add_heading("Statements", level=1)
    d2.add_paragraph("No table any more.")
    _save(d2, path)
    ingest(path, store)
    assert store.sql("SELECT count(*) AS n FROM latest_tables").to_pylist() == [{"n": 0}]
    assert store.sql("SELECT version FROM tables").to_pylist() == [{"version": 1}]
    assert store.tree("bs").doc.tables == [] and store.tree("bs", 1).doc.tables == [t]
    store.gc(keep_versions=1)
    assert store.sql("SELECT count(*) AS n FROM grids").to_pylist() == [{"n": 0}]


def test_cells_with_unbalanced_brackets_leave_every_tree_of_the_store_readable(tmp_path: Path) -> None:
    """A cell holding "])" or "]" (a footnote mark, a cut-off formula) was kept by DuckLake as text in the catalog,
    which failed to cast back to a list of lists: after that one commit no tree of the store could be read."""
    store = Store(tmp_path / "store")
    cells = {"plain": [["", "2023"], ["Cash", "10"]], "brackets": [["", "2023 [a]"], ["Cash", "10])"], ["Debt", "]"]]}
    for name, grid in cells.items():
        d = docx.Document()
        d.add_heading("Statements", level=1)
        table = d.add_table(rows=len(grid), cols=2)
        for r, row in enumerate(grid):
            for c, value in enumerate(row):
                table.cell(r, c).text = value
        ingest(_save(d, tmp_path / f"{name}.docx"), store)
    for name, grid in cells.items():
        [t] = store.tree(name).doc.tables
        assert [list(r) for r in t.rows] == grid
    assert store.sql("SELECT count(*) AS n FROM latest_tables").to_pylist() == [{"n": 2}]


def test_a_store_from_before_tables_opens_read_only_and_gains_them_on_write(tmp_path: Path) -> None:
    md = tmp_path / "plain.md"
    md.write_text("# A\n\ntext\n", encoding="utf-8")
    store = Store(tmp_path / "store")
    ingest(md, store)
    store.close()
    # make it look like catalog format 3: no grids table, no table views
    with Store(tmp_path / "store").connect() as con:
        con.execute("DROP VIEW latest_tables; DROP VIEW tables; DROP TABLE grids; CREATE OR REPLACE VIEW store_info "
                    "AS SELECT 2 AS schema_version, '3' AS catalog_format")
    old = Store(tmp_path / "store", create=False)
    assert old.tree("plain").doc.tables == []
    with pytest.raises(duckdb.CatalogException):
        old.connect().execute("SELECT * FROM tables")
    writer = Store(tmp_path / "store")
    assert writer.sql("SELECT catalog_format FROM store_info").to_pylist() == [{"catalog_format": CATALOG_FORMAT}]
    assert writer.sql("SELECT count(*) AS n FROM tables").to_pylist() == [{"n": 0}]
    assert writer.tree("plain").doc.tables == []


# ---------------------------------------------------------------- PDF statements, end to end

@pytest.mark.parametrize("ruled", [False, True])
def test_pdf_statement_is_one_table_with_headings_labels_and_title(tmp_path: Path, ruled: bool) -> None:
    doc = read(statement_pdf(tmp_path / "bs.pdf", ruled=ruled))
    [t] = doc.tables
    # the units note in brackets heads the label column; the two-line headings join per column
    assert (t.page, t.unit, t.title, t.header_rows, t.label_columns) == (3, 2, "CONSOLIDATED BALANCE SHEETS", 3, 1)
    assert t.column_titles() == ["(In millions)", "December 2, 2022", "December 3, 2021"]
    assert t.body[0] == ("ASSETS", "", "") and t.body[1] == ("Current assets:", "", "")
    assert [tuple(r) for r in t.body[2:]] == BALANCE
    assert t.row_labels[2:] == [label for label, _a, _b in BALANCE]
    text = doc.units[2].text
    assert text[t.start:t.end].startswith("(In millions)") and text[t.start:t.end].rstrip().endswith("27,241")
    assert "CONSOLIDATED BALANCE SHEETS" in text[:t.start] and "See the notes" in text[t.end:]
    x0, y0, x1, y1 = t.bbox or (0, 0, 0, 0)
    assert 55 < x0 < 70 and 60 < y0 < 76 and 515 < x1 < 525 and y1 > 200  # from the units note down


def test_prose_pages_and_numbered_listings_hold_no_tables(tmp_path: Path) -> None:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    for n in range(40):  # a code listing with its line numbers in a column
        page.insert_text((60, 60 + 16 * n), f"{n + 101}", fontsize=9)
        page.insert_text((100, 60 + 16 * n), f"\\def\\macro{n}{{#{n % 3}}}%", fontsize=9)
    page = doc.new_page()
    for n in range(40):  # a contents list: titles and rising page numbers
        page.insert_text((60, 60 + 16 * n), f"Chapter {n + 1} Topic", fontsize=9)
        page.insert_text((500, 60 + 16 * n), f"{3 * n + 5}", fontsize=9)
    doc.save(tmp_path / "listing.pdf")
    assert read(tmp_path / "listing.pdf").tables == []
    assert read(statement_pdf(tmp_path / "s.pdf")).units[0].text and \
        all(t.page == 3 for t in read(statement_pdf(tmp_path / "s2.pdf")).tables)


def test_statement_reads_as_markdown_in_text_mcp_sql_and_view(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from treebuild.agents.tools import StoreTools
    from treebuild.cli import app

    pdf = statement_pdf(tmp_path / "bs.pdf")
    store_dir = tmp_path / "store"
    store = Store(store_dir)
    built = ingest(pdf, store)
    tree = store.tree(built.doc_id)
    [t] = tree.doc.tables
    holder = next(n for n in reversed(list(tree.walk())) if t in n.tables())
    runner = CliRunner()
    res = runner.invoke(app, ["text", built.doc_id, holder.node_id, "--store", str(store_dir)])
    assert res.exit_code == 0, res.output
    assert t.markdown() in res.output
    assert any(line.split("|")[1:4] == [" Total assets" + " " * 14, " " * 9 + "$ 27,165 ", " " * 9 + "$ 27,241 "]
               for line in res.output.splitlines())
    exact = runner.invoke(app, ["text", built.doc_id, holder.node_id, "--exact", "--store", str(store_dir)])
    assert "| Total assets" not in exact.output and "27,165" in exact.output
    res = runner.invoke(app, ["sql", "SELECT node_id, page, title, row_labels FROM latest_tables",
                              "--store", str(store_dir), "--format", "json"])
    assert res.exit_code == 0, res.output
    assert "CONSOLIDATED BALANCE SHEETS" in res.output and holder.node_id in res.output
    section = StoreTools(store).get_section(built.doc_id, holder.node_id, max_chars=100_000)
    assert t.markdown() in section["text"]
    # the offline summary names the statement's real row labels
    assert "Total current assets" in (holder.summary or "")
    from browser import Browser, chromium_path

    if chromium_path() is None:
        pytest.skip("no Chromium (TREEBUILD_SETUP_BROWSER=1 ./scripts/setup installs it)")
    from treebuild.view import write_view

    out = tmp_path / "view.html"
    write_view(tree, out)
    with Browser(out.as_uri()) as b:
        b.wait_for("document.body.dataset.ready === '1'")
        b.evaluate(f"location.hash = '#{holder.node_id}'")
        b.evaluate("[...document.querySelectorAll('.row')].find(r => r.querySelector('.title').textContent"
                   f" === {json.dumps(holder.title)}).click()")
        cells = b.evaluate("[...document.querySelectorAll('#detail table.md tr')].map(r => [...r.children]"
                           ".map(c => c.textContent))")
        assert ["Total assets", "$ 27,165", "$ 27,241"] in cells
        assert b.evaluate("document.querySelectorAll('#detail table.md td.num').length") == 2 * len(t.body)
