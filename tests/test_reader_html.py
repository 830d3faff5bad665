"""HTML reader: styles computed from inline CSS and <style>, printed pages at page breaks with their
printed numbers as labels, inline XBRL read through, tables as cells, declared headings, contents
links, encodings, limits, and trees built from generated filings."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from treebuild.errors import ReadError
from treebuild.pipeline import build
from treebuild.readers import read
from treebuild.readers.html import MAX_DEPTH, read_html, sniff_encoding
from treebuild.readers.limits import LimitExceeded
from treebuild.settings import BuildSettings
from treebuild.structure import label_pages

BREAK = '<hr style="page-break-after:always"/>'
IX = ('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL">'
      '<head><title>Widget Corp 10-Q</title></head><body>'
      '<div style="display:none"><ix:header><ix:hidden><ix:nonNumeric name="dei:Secret">HIDDEN FACT'
      '</ix:nonNumeric></ix:hidden></ix:header></div>')
BODY = "font-family:'Times New Roman';font-size:10pt"
HEAD = "font-family:'Times New Roman';font-size:10pt;font-weight:700"


def _write(tmp_path: Path, html: str, name: str = "doc.html", encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(html.encode(encoding))
    return path


def _para(text: str, style: str = BODY, align: str = "justify") -> str:
    return f'<div style="text-align:{align}"><span style="{style}">{text}</span></div>'


def _folio(n: int | str) -> str:
    return _para(str(n), align="center")


def _prose(words: int = 120, seed: str = "operations") -> str:
    return " ".join(f"The company reviewed its {seed} during the quarter and found them in order." for _ in
                    range(words // 12))


def _filing_html(items: list[tuple[str, str, int]], statements: bool = True) -> str:
    """A small 10-Q in EDGAR's inline-XBRL style: a cover page, a contents table linking to anchors, body
    pages with bold Item headings, page breaks and printed folios (1, 2, ...)."""
    rows = "".join(f'<tr><td style="width:15%"><a href="#{anchor}">{label}</a></td>'
                   f'<td style="width:75%"><a href="#{anchor}">{title}</a></td>'
                   f'<td style="width:10%;text-align:right"><a href="#{anchor}">{page}</a></td></tr>'
                   for anchor, (label, title, page) in ((f"a{i}", it) for i, it in enumerate(items)))
    pages = [IX + _para("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", HEAD, "center")
             + _para("Washington, D.C. 20549", BODY, "center") + _para("FORM 10-Q", HEAD, "center")
             + _para("Widget Corp", HEAD.replace("10pt", "16pt"), "center") + _para(_prose(60, "filings"))]
    pages.append(_para("TABLE OF CONTENTS", HEAD, "center") + f'<table style="width:100%">{rows}</table>')
    by_page: dict[int, list[tuple[int, str, str]]] = {}
    for i, (label, title, page) in enumerate(items):
        by_page.setdefault(page, []).append((i, label, title))
    last = max(by_page)
    for n in range(1, last + 1):
        body = ""
        for i, label, title in by_page.get(n, []):
            body += f'<div id="a{i}"></div>' + _para(f"{label} {title}", HEAD)
            if statements and title == "Financial Statements":
                body += _para("WIDGET CORP", HEAD, "center") + _para("CONSOLIDATED BALANCE SHEETS", HEAD, "center")
                body += ('<table style="width:100%"><tr><td style="width:70%">Cash</td><td style="width:30%;'
                         'text-align:right">$<ix:nonFraction name="us-gaap:Cash">1,234</ix:nonFraction></td></tr>'
                         '<tr><td>Total assets</td><td style="text-align:right">5,678</td></tr></table>')
            body += _para(_prose(150, title.lower()))
        pages.append(body + _para(_prose(200)) + _folio(n))
    return BREAK.join(pages) + "</body></html>"


ITEMS = [("Part I", "Financial Information", 1), ("Item 1.", "Financial Statements", 1),
         ("Item 2.", "Management's Discussion and Analysis", 2), ("Item 3.", "Quantitative and Qualitative "
          "Disclosures About Market Risk", 3), ("Item 4.", "Controls and Procedures", 3),
         ("Part II", "Other Information", 4), ("Item 1.", "Legal Proceedings", 4), ("Item 1A.", "Risk Factors", 4),
         ("Item 6.", "Exhibits", 5)]


def test_pages_at_page_breaks_with_printed_labels_and_hidden_content_left_out(tmp_path: Path) -> None:
    doc = read(_write(tmp_path, _filing_html(ITEMS)))
    assert doc.paged and doc.page_count == 7 and [u.page for u in doc.units] == list(range(1, 8))
    assert doc.folio_labels and not any(u.label for u in doc.units)  # the structure stage reads the folios
    label_pages(doc)
    assert [u.label for u in doc.units] == [None, None, "1", "2", "3", "4", "5"]
    text = "\n".join(u.text for u in doc.units)
    assert "HIDDEN FACT" not in text and "1,234" in text  # ix:header left out, ix:nonFraction read through
    assert doc.title == "Widget Corp 10-Q"
    assert doc.metadata["page_breaks"] == "6"


def test_lines_carry_the_computed_typography(tmp_path: Path) -> None:
    html = ("<html><head><style>.big { font-size: 18pt; font-weight: bold } p.note { font-style: italic }"
            " div > .caps { text-transform: uppercase } @media screen { .big { font-size: 40pt } }</style></head>"
            '<body style="font-family: Arial; font-size: 10pt">'
            '<div class="big" style="text-align:center">Annual Report</div>'
            '<p class="note">An italic note.</p><div><span class="caps">shouted words</span></div>'
            '<p>Plain <b>bold run</b> text that goes on</p><font size="5"><b>Legacy font</b></font>'
            f"{BREAK}<p>Second page</p></body></html>")
    doc = read(_write(tmp_path, html))
    lines = {ln.text: ln for ln in doc.lines(0)}
    big = lines["Annual Report"]
    assert big.size == 18.0 and big.bold and big.x0 > 200 and abs((big.x0 + big.x1) / 2 - 306) < 1  # centred
    assert lines["An italic note."].font == "Arial-Italic" and not lines["An italic note."].bold
    assert "SHOUTED WORDS" in lines  # text-transform applied, as the page prints it
    assert not lines["Plain bold run text that goes on"].bold  # bold only where every run is
    assert lines["Legacy font"].size == 18.0 and lines["Legacy font"].bold
    assert doc.lines(1)[0].text == "Second page" and doc.lines(2) == []
    ys = [ln.y0 for ln in doc.lines(0)]
    assert ys == sorted(ys)  # laid out top down
    assert all(doc.units[0].text[ln.char:ln.char + len(ln.text)] == ln.text for ln in doc.lines(0))


def test_long_paragraphs_wrap_and_table_cells_share_their_row(tmp_path: Path) -> None:
    html = ("<body>" + _para(_prose(120)) + '<table style="width:100%"><tr><td style="width:60%">Revenue</td>'
            '<td style="width:20%;text-align:right">1,000</td><td style="width:20%;text-align:right">900</td></tr>'
            "</table>" + BREAK + "<p>end</p></body>")
    doc = read(_write(tmp_path, html))
    lines = doc.lines(0)
    prose = [ln for ln in lines if ln.text not in ("Revenue", "1,000", "900")]
    assert len(prose) > 2 and len({ln.block for ln in prose}) == 1  # one paragraph, wrapped into lines
    assert all(ln.x1 <= 576.5 for ln in lines)
    row = [ln for ln in lines if ln.text in ("Revenue", "1,000", "900")]
    assert len({ln.y0 for ln in row}) == 1 and row[0].x1 < row[1].x0 < row[2].x0
    assert abs(row[2].x1 - 574) < 1  # right-aligned in the last column


def test_filing_tree_has_its_items_on_their_printed_pages(tmp_path: Path) -> None:
    tree = build(_write(tmp_path, _filing_html(ITEMS)), BuildSettings(subdivide=False))
    labels = {n.title.split(" ")[0] + " " + n.title.split(" ")[1]: tree.doc.units[n.start.unit].label
              for n in tree.walk() if n.title.startswith(("Item", "Part"))}
    assert labels["Item 2."] == "2" and labels["Item 3."] == "3" and labels["Item 6."] == "5"
    items = [n.title for n in tree.walk() if n.title.startswith("Item")]
    assert [t.split(" ")[1] for t in items] == ["1.", "2.", "3.", "4.", "1.", "1A.", "6."]
    assert any("BALANCE SHEETS" in n.title.upper() for n in tree.walk())
    part = next(n for n in tree.walk() if n.title.upper().startswith("PART I") and n.depth == 1)
    assert part.children and part.children[0].title.startswith("Item 1")


def test_declared_headings_without_page_breaks_are_heading_units(tmp_path: Path) -> None:
    html = ("<html><body><h1>Guide</h1><p>Intro text.</p><h2>Install</h2><p>Steps.</p>"
            "<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>"
            "<h3>On Linux</h3><ul><li>first</li><li>second</li></ul><ol><li>one</li><li>two</li></ol></body></html>")
    doc = read(_write(tmp_path, html))
    assert not doc.paged and doc.page_count is None
    assert [(u.heading_level, u.text) for u in doc.units if u.kind == "heading"] == [
        (1, "Guide"), (2, "Install"), (3, "On Linux")]
    table = next(u for u in doc.units if u.kind == "table")
    assert table.text == "Name | Value\na | 1"
    assert [u.text for u in doc.units if u.text.startswith(("•", "1.", "2."))] == ["• first", "• second",
                                                                                    "1. one", "2. two"]
    tree = build(doc.path, BuildSettings(subdivide=False))
    assert [(n.depth, n.title) for n in tree.walk()] == [(1, "Guide"), (2, "Install"), (3, "On Linux")]
    assert tree.roots[0].start_page is None  # no pages to cite: the section path is the citation


def test_declared_headings_of_a_paged_document_are_its_outline(tmp_path: Path) -> None:
    html = ("<body><h1>Chapter One</h1><p>Text.</p>" + BREAK + "<p>More text.</p><h2>A Section</h2><p>x</p>"
            + BREAK + "<h1>Chapter Two</h1><p>End.</p></body>")
    doc = read(_write(tmp_path, html))
    assert [(e.level, e.title, e.page) for e in doc.outline] == [(1, "Chapter One", 1), (2, "A Section", 2),
                                                                 (1, "Chapter Two", 3)]
    tree = build(doc.path, BuildSettings(subdivide=False))
    assert [(n.depth, n.title, n.start_page) for n in tree.walk()] == [
        (1, "Chapter One", 1), (2, "A Section", 2), (1, "Chapter Two", 3)]
    assert tree.method == "outline"


def test_encodings_declared_bom_and_sniffed(tmp_path: Path) -> None:
    text = "<html><body><p>Caf\u00e9 &amp; cr\u00e8me &#8212; na&iuml;ve</p></body></html>"
    utf16 = _write(tmp_path, "\ufeff" + text, "bom.html", "utf-16-le")
    assert "Café & crème — naïve" in read(utf16).units[0].text
    declared = _write(tmp_path, '<meta charset="windows-1252">' + text, "cp.html", "cp1252")
    assert "Café & crème" in read(declared).units[0].text and not read(declared).warnings
    latin = _write(tmp_path, text, "latin.html", "latin-1")
    doc = read(latin)
    assert "Café & crème" in doc.units[0].text and "read as windows-1252" in doc.warnings[0]
    # EDGAR declares ASCII over UTF-8 bytes: the bytes win
    assert sniff_encoding(b"<?xml version='1.0' encoding='ASCII'?><p>\xe2\x80\x94</p>") == ("utf-8", "declared")


def test_binary_named_html_depth_and_size_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    png = tmp_path / "image.html"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    with pytest.raises(ReadError, match=r"binary content \(a PNG image\), not HTML"):
        read(png)
    deep = _write(tmp_path, "<html><body>" + "<div>" * 10_000 + "deep" + "</div>" * 10_000 + "</body></html>",
                  "deep.html")
    with pytest.raises(LimitExceeded, match=f"elements nested more than {MAX_DEPTH} deep"):
        read(deep)
    monkeypatch.setenv("TREEBUILD_MAX_HTML_MB", "0.001")
    with pytest.raises(LimitExceeded, match=r"HTML file size .* is over the limit of 0.001 MB .*TREEBUILD_MAX_HTML_MB"):
        read(_write(tmp_path, "<p>" + "x" * 5000 + "</p>", "big.html"))


def test_nothing_is_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    html = ('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">'
            '<html><head><link rel="stylesheet" href="http://example.com/x.css"/><style>@import url("http://example.com/'
            'y.css"); p { font-weight: bold }</style><script src="http://example.com/x.js"></script></head><body>'
            '<img src="http://example.com/logo.png" alt="logo"/><p>Text</p></body></html>')
    doc = read(_write(tmp_path, html))
    assert [u.text for u in doc.units] == ["Text"]
    assert any("@import" in w and "not fetched" in w for w in doc.warnings)


def test_megabytes_of_pages_read_whole(tmp_path: Path) -> None:
    """Several MB of filing-like pages read whole, streamed (``bench/html_filings.py --big 50`` measures a
    50 MB page's speed and memory)."""
    raw = big_html(4.0)
    doc = read_html(raw, path="big.html")
    label_pages(doc)
    assert doc.page_count is not None and doc.page_count > 20 and doc.units[-1].label == str(doc.page_count)


def big_html(megabytes: float) -> bytes:
    """About ``megabytes`` MB of numbered pages of prose and tables."""
    page = _para(_prose(120)) + '<table style="width:100%"><tr><td>Revenue</td><td>1,000</td></tr></table>'
    chunk = page * 40 + _folio("{n}") + BREAK
    pages = [chunk.replace("{n}", str(n)) for n in range(1, 1 + int(megabytes * (1 << 20)) // len(chunk))]
    return ("<html><body>" + "".join(pages) + "</body></html>").encode()


def test_contents_links_declare_the_headings_of_a_page_without_breaks(tmp_path: Path) -> None:
    def page(order: list[str]) -> str:
        toc = ('<ul><li><a href="#s1">Getting started</a><ul><li><a href="#s11">Installing</a></li>'
               '<li><a href="#s12">First run</a></li></ul></li><li><a href="#s2">Reference</a></li></ul>')
        body = "".join(f'<div id="{k}" style="font-weight:bold">{title}</div><p>Text of {title}.</p>'
                       for k, title in order)
        return f"<html><body><p>Contents</p>{toc}{body}</body></html>"

    ordered = [("s1", "Getting started"), ("s11", "Installing"), ("s12", "First run"), ("s2", "Reference")]
    doc = read(_write(tmp_path, page(ordered)))
    assert [(u.heading_level, u.text) for u in doc.units if u.kind == "heading"] == [
        (1, "Getting started"), (2, "Installing"), (2, "First run"), (1, "Reference")]
    assert doc.metadata["contents_links"] == "4"
    shuffled = [ordered[2], ordered[0], ordered[1], ordered[3]]  # targets out of the contents' order
    doc = read(_write(tmp_path, page(shuffled), "shuffled.html"))
    assert not [u for u in doc.units if u.kind == "heading"] and "contents_links" not in doc.metadata


def test_the_same_filing_as_html_and_as_chromiums_pdf_has_the_same_top_two_levels(tmp_path: Path) -> None:
    """The generated filing printed to PDF by headless Chromium (as a user would print the HTML): both
    trees have the same first two levels, titles and depths in order."""
    import subprocess

    from browser import chromium_path

    chromium = chromium_path()
    if chromium is None:
        pytest.skip("no Chromium (TREEBUILD_SETUP_BROWSER=1 ./scripts/setup installs Debian's)")
    html = _write(tmp_path, _filing_html(ITEMS), "widget.html")
    pdf = tmp_path / "widget.pdf"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--no-pdf-header-footer", f"--user-data-dir={tmp_path / 'profile'}", f"--print-to-pdf={pdf}",
                    html.as_uri()], capture_output=True, timeout=120, check=False)
    assert pdf.exists() and pdf.stat().st_size > 1000

    def top_two(path: Path) -> list[tuple[int, str]]:
        tree = build(path, BuildSettings(subdivide=False))
        return [(n.depth, " ".join(n.title.split())) for n in tree.walk() if n.depth <= 2 and n.origin != "preface"]

    from_html = top_two(html)
    assert from_html == top_two(pdf)
    assert [t for d, t in from_html if d == 2][:2] == ["Item 1. Financial Statements",
                                                        "Item 2. Management's Discussion and Analysis"]


def test_tables_kept_as_data_with_figures_joined_to_their_signs(tmp_path: Path) -> None:
    """An EDGAR statement table: spacer columns, ``$`` and ``)`` in cells of their own, headings centred
    across each figure's group of columns. As data: one column per figure, headings over them, row labels."""
    def cell(text: str, align: str = "left", span: int = 1) -> str:
        return f'<td colspan="{span}" style="text-align:{align}">{text}</td>'

    head = ("<tr>" + cell("", span=2) + cell("June 28, 2025", "center", 3) + cell("") + cell("June 29, 2024",
            "center", 3) + "</tr>")
    body = "".join("<tr>" + cell(label) + cell("") + cell(sign) + cell(a, "right") + cell(close) + cell("")
                   + cell(sign) + cell(b, "right") + cell("") + "</tr>"
                   for label, sign, a, b, close in (("Net sales", "$", "94,036", "85,777", ""),
                                                    ("Other expense", "", "(171", "142", ")")))
    html = (f"<body><p>CONSOLIDATED STATEMENTS OF OPERATIONS</p><table style='width:100%'>{head}{body}</table>"
            f"<p>Notes follow.</p>{BREAK}<p>Next page</p></body>")
    doc = read(_write(tmp_path, html))
    (table,) = doc.tables
    assert table.rows == (("", "June 28, 2025", "June 29, 2024"), ("Net sales", "$94,036", "$85,777"),
                          ("Other expense", "(171)", "142"))
    assert (table.header_rows, table.label_columns, table.unit, table.page) == (1, 1, 0, 1)
    assert table.title == "CONSOLIDATED STATEMENTS OF OPERATIONS"
    assert doc.units[0].text[table.start:table.end].startswith("June 28, 2025")
    assert "| Net sales     |       $94,036 |       $85,777 |" in doc.span_text(*_whole(doc), tables=True)
    unpaged = read(_write(tmp_path, html.replace(BREAK, ""), "unpaged.html"))
    (table,) = unpaged.tables
    assert unpaged.units[table.unit].kind == "table" and table.rows[1] == ("Net sales", "$94,036", "$85,777")


def _whole(doc: object) -> tuple[object, object]:
    from treebuild.model import Pos

    return Pos(0, 0), doc.end()  # type: ignore[attr-defined]


def test_a_page_without_breaks_headings_or_links_gets_its_headings_from_type_and_numbering(tmp_path: Path) -> None:
    """An exported wiki page: a lone ``<h1>`` names it, its headings are styled ``<div>`` s (larger, bold) and
    numbered bold lines, with no page breaks, no other ``<h1>``-``<h6>`` and no contents links. The structure
    stage reads its layout view (the blocks as a browser prints them, cut into sheets) and the sections land
    on the blocks, without pages."""
    big = "font-size:18px;font-weight:bold;margin-top:20px"
    small = "font-size:14px;font-weight:bold;margin-top:14px"
    parts = ['<h1>Widget Handbook</h1>', _para(_prose(60, "handbook"))]  # a lone <h1> declares no structure
    for i, chapter in enumerate(["Setting Up", "Daily Use", "Looking After It"], start=1):
        parts.append(f'<div style="{big}">{i}. {chapter}</div>' + _para(_prose(90, chapter.lower())))
        for j in range(1, 3):
            parts.append(f'<div style="{small}">{i}.{j} Topic {chapter} part {j}</div>')
            parts += [_para(_prose(200, f"topic {i}.{j}")) for _ in range(3)]
            if (i, j) == (2, 1):
                parts.append('<table><tr><td>Setting</td><td>Value</td></tr><tr><td>speed</td><td>3</td></tr></table>')
    doc = read(_write(tmp_path, "<html><body>" + "".join(parts) + "</body></html>"))
    assert not doc.paged and doc.layout_view is not None and [u.heading_level for u in doc.units if u.heading_level] \
        == [1]
    assert len(doc.layout_view().doc.units) > 2  # the view runs over several sheets
    tree = build(doc.path, BuildSettings(subdivide=False))
    titles = [(n.depth, n.title) for n in tree.walk() if n.origin != "preface"]
    assert (1, "1. Setting Up") in titles and (2, "2.1 Topic Daily Use part 1") in titles
    assert titles.index((1, "3. Looking After It")) > titles.index((2, "2.2 Topic Daily Use part 2"))
    for node in tree.walk():
        assert node.start_page is None  # cited by its path
        assert node.origin == "preface" or node.text().startswith(node.title)
    assert "speed | 3" in tree.find("2.1 Topic Daily Use part 1")[0].text()


def test_the_layout_view_is_made_anew_from_the_blocks_and_maps_back_to_them(tmp_path: Path) -> None:
    """The reader keeps a page without breaks' laid-out lines as columns (the text left in the block units)
    and makes the view each time it is asked: every line of every sheet reads what its block unit holds at
    the place it maps back to (a paragraph's wrapped line), or is a cell of its table unit, and a second
    view is the same as the first."""
    from treebuild.model import Pos, UnitKind

    head = "font-size:16px;font-weight:bold;margin-top:12px"
    parts = []
    for i in range(1, 9):
        parts.append(f'<div style="{head}">{i}. Part {i}</div>' + _para(_prose(400, f"part {i}")))
        parts.append('<table><tr><td>Setting with a name long enough to wrap in its narrow column of the table</td>'
                     f'<td>Value</td></tr><tr><td>speed</td><td>{i}</td></tr></table>')
    doc = read(_write(tmp_path, "<html><body>" + "".join(parts) + "</body></html>"))
    assert doc.layout_view is not None
    view = doc.layout_view()
    assert len(view.doc.units) > 2
    cells = 0
    for page in view.doc.units:
        lines = view.doc.lines(page.index)
        assert page.text == "\n".join(ln.text for ln in lines)
        for ln in lines:
            assert page.text.startswith(ln.text, ln.char)
            at = view.to_unit(Pos(page.index, ln.char))
            unit = doc.units[at.unit]
            if unit.kind == UnitKind.table:
                assert ln.text in [c.strip() for row in unit.text.split("\n") for c in row.split(" | ")] \
                    or ln.text in unit.text
                cells += 1
            else:
                assert unit.text.startswith(ln.text, at.char)
    assert cells >= 8 * 4
    again = doc.layout_view()
    assert again is not view and [u.text for u in again.doc.units] == [u.text for u in view.doc.units]
    assert [view.doc.lines(i) for i in range(len(view.doc.units))] == \
        [again.doc.lines(i) for i in range(len(again.doc.units))]


def test_a_contents_row_holding_a_part_and_its_first_item_and_a_wrapped_item_title(tmp_path: Path) -> None:
    """A filing's contents sets ``PART I`` in the first cell of Item 1's row and lists the statements in the
    title column under it: the Part is an entry of its own, the statements nest under Item 1 (as in the
    filing printed to PDF), and the Part's section takes the body's title. An Item head set as a table row,
    its title wrapped in a narrow column (``UNRESOLVED STAFF`` over ``COMMENTS``; the contents leaves it out),
    keeps its whole title."""
    def row(*cells: str) -> str:
        widths = (10, 10, 70, 10)
        return "<tr>" + "".join(f'<td style="width:{w}%">{c}</td>' for w, c in zip(widths, cells, strict=True)) \
            + "</tr>"

    contents = ('<table style="width:100%">' + row("PART I", "Item 1.", "Financial Statements", "1")
                + row("", "", "Consolidated Balance Sheets", "1")
                + row("", "", "Consolidated Statements of Income", "2")
                + row("", "Item 2.", "Management's Discussion and Analysis", "3")
                + row("PART II", "Item 6.", "Exhibits", "5")
                + "</table>")
    pages = [IX + _para("FORM 10-Q", HEAD, "center") + _para(_prose(60, "filings")),
             _para("TABLE OF CONTENTS", HEAD, "center") + contents]
    heads = {1: ["PART I. FINANCIAL INFORMATION", "Item 1. Financial Statements", "CONSOLIDATED BALANCE SHEETS"],
             2: ["CONSOLIDATED STATEMENTS OF INCOME"], 3: ["Item 2. Management's Discussion and Analysis"],
             4: ["PART II. OTHER INFORMATION"], 5: ["Item 6. Exhibits"]}
    for n in range(1, 6):
        body = "".join(_para(h, HEAD) + _para(_prose(120, h.lower())) for h in heads[n])
        if n == 4:
            body += ('<table style="width:100%"><tr><td style="width:12%;' + HEAD + '">ITEM 1B.</td>'
                     '<td style="width:18%;' + HEAD + '">UNRESOLVED STAFF COMMENTS</td><td style="width:70%"></td>'
                     '</tr></table>' + _para("Not applicable."))
        pages.append(body + _para(_prose(150)) + _folio(n))
    tree = build(_write(tmp_path, BREAK.join(pages) + "</body></html>"), BuildSettings(subdivide=False))
    nodes = {" ".join(n.title.split()): n for n in tree.walk()}
    part = next(n for t, n in nodes.items() if t.startswith("PART I."))
    assert part.title.startswith("PART I. FINANCIAL INFORMATION") and part.depth == 1
    item = next(n for t, n in nodes.items() if t.startswith("Item 1. Financial"))
    assert item.parent is part
    sheets = next(n for t, n in nodes.items() if t.casefold() == "consolidated balance sheets")
    assert sheets.parent is item
    assert any(t.upper() == "ITEM 1B. UNRESOLVED STAFF COMMENTS" for t in nodes), list(nodes)
