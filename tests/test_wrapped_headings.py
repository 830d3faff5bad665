"""Headings wrapped over several lines are one heading (issue 24 item 3), on generated PDFs: a title
hanging under the words after its label, three rows and more, a contents entry whose title wraps under
the row that prints its page; and what must stay apart: headings stacked a paragraph's gap apart in
one type, a Part over its Item, a numbered title under a chapter's, a heading in another size."""

from __future__ import annotations

from pathlib import Path

import pymupdf
from structgen import LEFT, Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes
from treebuild.structure.typography.headings import scan_headings


def _rows(w: Writer, rows: list[tuple[float, str]], size: float, *, pitch: float = 1.25, bold: bool = True,
          space: float = 12.0) -> None:
    """Rows of one heading (or of headings stacked), each at its own left edge ``x``, ``pitch`` type
    sizes apart top to top; the text follows."""
    if w.y > 520:
        w.new_page()
    w.y += space
    assert w.page is not None
    for x, text in rows:
        w.page.insert_text((x, w.y + size), text, fontsize=size, fontname="hebo" if bold else "helv")
        w.y += size * pitch
    w.y += 4
    w.paras(2)


def _label_width(label: str, size: float) -> float:
    return pymupdf.get_text_length(label, fontname="hebo", fontsize=size)


def _titles(path: Path) -> list[str]:
    return [h.title for h in scan_headings(read(path)).major()]


def test_a_title_wrapped_under_the_words_after_its_label_is_one_heading(tmp_path: Path) -> None:
    """A report's goals in 14-point bold: a title wrapped over two rows and one over three, the later
    rows hanging under the words after ``Strategic Goal 2:`` (60 points in: the typesetter made them
    blocks of their own); a numbered title's second row hanging under the words after ``4.``. Each is
    one heading titled with all its rows. Stacked close under them and not joined: the next goal (its
    own label), a sub-heading in a smaller size, and ``PART II`` over ``Item 5. Market ...``."""
    w = Writer(header="Agency Performance Report")
    hang = LEFT + _label_width("Strategic Goal 2: ", 14)
    _rows(w, [(LEFT, "Strategic Goal 1: Strengthen the program")], 14)
    _rows(w, [(LEFT, "Strategic Goal 2: Provide leadership in helping"),
              (hang, "employees be engaged and energized to put forth")], 14)
    _rows(w, [(LEFT, "Strategic Goal 3: Build a workforce that is ready"),
              (hang, "for the work ahead and the demands of a"),
              (hang, "changing world")], 14)
    w.new_page()
    _rows(w, [(LEFT, "4. Modernize the information systems of"),
              (LEFT + _label_width("4. ", 14), "the agency")], 14)
    _rows(w, [(LEFT, "Strategic Goal 5: Keep the records"), (LEFT, "Strategic Goal 6: Serve the public")], 14)
    w.y += 12
    assert w.page is not None
    w.page.insert_text((LEFT, w.y + 14), "Strategic Goal 7: Protect the data", fontsize=14, fontname="hebo")
    w.page.insert_text((LEFT, w.y + 14 + 17), "Objectives and measures", fontsize=12, fontname="hebo")
    w.y += 40
    w.paras(2)
    _rows(w, [(LEFT, "PART II"), (LEFT, "Item 5. Market for the Agency's Bonds")], 14)
    titles = _titles(w.save(tmp_path / "goals.pdf"))
    assert "Strategic Goal 2: Provide leadership in helping employees be engaged and energized to put forth" in titles
    assert "Strategic Goal 3: Build a workforce that is ready for the work ahead and the demands of a changing world" \
        in titles
    assert "4. Modernize the information systems of the agency" in titles
    for alone in ("Strategic Goal 5: Keep the records", "Strategic Goal 6: Serve the public", "PART II",
                  "Item 5. Market for the Agency's Bonds", "Strategic Goal 1: Strengthen the program"):
        assert alone in titles
    assert not any(t.startswith(("employees", "for the work", "changing", "the agency")) for t in titles)
    assert "Strategic Goal 7: Protect the data" in titles  # the 12-point row under it is not its title's


def test_headings_stacked_a_paragraph_gap_apart_in_one_type_stay_two(tmp_path: Path) -> None:
    """Body-size bold headings in capitals over 10-point text: ``FINANCIAL CONDITION`` over ``LIQUIDITY``
    two type sizes apart (top to top) are two sections, as is ``NOTE 2: DEBT`` over a table's title; an
    Item's title wrapped at single spacing (``... AND FINANCIAL`` / ``CONDITION``) stays one."""
    w = Writer(header="Example Corp Annual Report")
    w.paras(1)
    _rows(w, [(LEFT, "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF RESULTS OF OPERATIONS AND FINANCIAL"),
              (LEFT, "CONDITION")], 10, pitch=1.15)
    _rows(w, [(LEFT, "RESULTS OF OPERATIONS")], 10)
    w.paras(2)
    _rows(w, [(LEFT, "FINANCIAL CONDITION"), (LEFT, "LIQUIDITY")], 10, pitch=2.0)
    w.paras(2)
    _rows(w, [(LEFT, "CAPITAL RESOURCES")], 10)
    titles = _titles(w.save(tmp_path / "stacked.pdf"))
    assert "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF RESULTS OF OPERATIONS AND FINANCIAL CONDITION" in titles
    assert "FINANCIAL CONDITION" in titles and "LIQUIDITY" in titles
    assert "FINANCIAL CONDITION LIQUIDITY" not in titles


def _walk(roots: list[Node]) -> list[Node]:
    return [n for r in roots for n in r.walk()]


def test_a_contents_title_wrapped_under_the_row_with_its_page_is_one_entry(tmp_path: Path) -> None:
    """A filing's contents set as a table: ``Item 5.`` | ``Market for ... of Equity`` | ``3``, the title's
    last word on the row under it in the title's column, then ``Item 6.`` at the label's edge. The entry
    is one (its node titled with the whole title, no ``Securities`` node). A page-less row under an entry
    with rows indented under it is a group's title, not the entry's wrapped end."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((LEFT, 80), "TABLE OF CONTENTS", fontsize=12, fontname="hebo")
    rows = [("Item 5.", "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer", "3"),
            (None, "Purchases of Equity Securities", None),
            ("Item 6.", "Selected Financial Data", "3"),
            ("Item 8.", "Financial Statements and Supplementary Data", "4"),
            (None, "Consolidated Financial Statements", None),
            (None, "    Consolidated Balance Sheets", "4"),
            (None, "    Consolidated Statements of Income", "5"),
            ("Item 9.", "Controls and Procedures", "6")]
    y = 110.0
    for label, title, ref in rows:
        if label:
            page.insert_text((LEFT, y), label, fontsize=9, fontname="helv")
        indent = 20.0 if title.startswith("    ") else 0.0
        page.insert_text((130 + indent, y), title.strip(), fontsize=9, fontname="helv")
        if ref:
            page.insert_text((530, y), ref, fontsize=9, fontname="helv")
        y += 14
    heads = {3: ["Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases "
                 "of Equity Securities", "Item 6. Selected Financial Data"],
             4: ["Item 8. Financial Statements and Supplementary Data", "Consolidated Balance Sheets"],
             5: ["Consolidated Statements of Income"], 6: ["Item 9. Controls and Procedures"]}
    filler = "The company reports its results every quarter and the figures are checked against the ledger."
    for n in range(2, 7):
        page = doc.new_page(width=612, height=792)
        y = 90.0
        for head in heads.get(n, []):
            words, line = head.split(), ""
            for word in words:  # the body wraps the long title too
                if len(line) + len(word) > 80:
                    page.insert_text((LEFT, y), line, fontsize=10, fontname="hebo")
                    y, line = y + 12, ""
                line = f"{line} {word}".strip()
            page.insert_text((LEFT, y), line, fontsize=10, fontname="hebo")
            y += 20
            for _ in range(8):
                page.insert_text((LEFT, y), filler, fontsize=10, fontname="helv")
                y += 13
            y += 12
    path = tmp_path / "contents.pdf"
    doc.save(path)
    doc.close()
    roots, _ = build_nodes(read(path), BuildSettings(ignore_outline=True, subdivide=False))
    titles = [n.title for n in _walk(roots)]
    assert "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of " \
           "Equity Securities" in titles
    assert not any(t.startswith("Purchases of Equity") for t in titles)
    assert "Item 6. Selected Financial Data" in titles
    assert not any("Data Consolidated Financial Statements" in t for t in titles)


def _centred(w: Writer, rows: list[tuple[str, float]], size: float = 10.0) -> None:
    """Centred bold rows, each ``gap`` type sizes below the one above (top to top)."""
    assert w.page is not None
    for text, gap in rows:
        w.y += size * gap
        width = pymupdf.get_text_length(text, fontname="hebo", fontsize=size)
        w.page.insert_text(((612 - width) / 2, w.y), text, fontsize=size, fontname="hebo")
    w.y += 8
    w.paras(2)


def test_a_centred_title_block_is_one_heading_with_its_qualifier_and_its_spaced_lines(tmp_path: Path) -> None:
    """Centred bold title blocks in capitals: ``NOTES TO CONSOLIDATED FINANCIAL STATEMENTS`` with ``(unaudited)``
    under it is one heading (the qualifier no section of its own, dropped from the title); an exhibit's
    title whose lines a paragraph's gap apart (``2006 EQUITY INCENTIVE PLAN`` / ``RESTRICTED STOCK UNIT
    AGREEMENT``) stays one title, as centred title blocks set them."""
    w = Writer(header="Example Corp Form 10-Q")
    w.heading("Item 1. Financial Statements", size=12)
    w.paras(2)
    w.new_page()
    _centred(w, [("NOTES TO CONSOLIDATED FINANCIAL STATEMENTS", 1.0), ("(unaudited)", 1.2)])
    w.new_page()
    _centred(w, [("EXAMPLE CORPORATION", 1.0), ("2006 EQUITY INCENTIVE PLAN", 1.1),
                 ("RESTRICTED STOCK UNIT AGREEMENT", 2.0)])
    titles = _titles(w.save(tmp_path / "blocks.pdf"))
    assert "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS" in titles
    assert "(unaudited)" not in titles
    assert "EXAMPLE CORPORATION 2006 EQUITY INCENTIVE PLAN RESTRICTED STOCK UNIT AGREEMENT" in titles
