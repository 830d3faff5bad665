"""Sub-sections of the notes to the financial statements, on 10-Ks generated in the test: a note walked
through by heads larger than the body gets them as sub-sections (issue 8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from structgen import LEFT, LOREM, Writer, ten_k_opening

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

POLICIES = ["Use of Estimates", "Revenue Recognition", "Inventories", "Property, Plant and Equipment", "Leases"]
PARAGRAPH_HEADS = ["Debt Investments", "Equity Investments"]
CAPTIONS = ["Short-Term Debt", "Long-Term Debt", "Senior Notes", "Commercial Paper"]
STATEMENTS = ["Consolidated Statements of Income", "Consolidated Balance Sheets"]


def _ten_k_with_notes(path: Path, *, items: bool) -> Path:
    """A 10-K whose notes are set in 14 points over 10-point text: the accounting-policies note walks
    through five topics under heads in 12 points, the investments note has two such heads, the
    borrowings note four bold table captions in the body's size. With ``items`` the statements sit in
    Item 8; without, the report prints no Items but a contents page listing its own sections (the
    notes' section among them), as some filers lay out their 10-K."""
    w = Writer(header="Example Corp 2022 Form 10-K")
    w.heading("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", size=14)
    w.heading("FORM 10-K", size=16)
    w.heading("ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934", size=10)
    w.paras(2)
    w.new_page()
    contents: list[tuple[int, str, int]] = []
    if items:
        w.heading("PART I", size=10, bold=True, space=14)
        w.heading("Item 1. Business", size=10, bold=True)
        w.fill_pages(5)
        w.heading("PART II", size=10, bold=True, space=14)
        w.heading("Item 8. Financial Statements and Supplementary Data", size=10, bold=True)
    else:
        w.heading("Contents", size=18, bold=False)
        w.new_page()
        for title in ("Our Business", "Risk Factors"):
            contents.append((0, title, w.heading(title, size=18, bold=False)))
            w.fill_pages(3)
        w.new_page()
        contents.append((0, "Financial Statements", w.heading("Financial Statements", size=18, bold=False)))
    for title in STATEMENTS:
        w.new_page()
        w.centred(title, 18, bold=False)
        for row in ("Net sales", "Cost of sales", "Gross margin", "Operating income"):
            w.line(row)
            w.y -= 12.5
            w.line("1,234", x=470)
    w.new_page()
    contents.append((1, "Notes to Consolidated Financial Statements",
                     w.heading("Notes to Consolidated Financial Statements", size=18, bold=False)))

    def note(n: int, title: str, heads: list[str], size: float, bold: bool) -> None:
        w.heading(f"Note {n} : {title}", size=14, bold=False)
        w.para(LOREM)
        for head in heads:
            w.heading(head, size=size, bold=bold)
            w.paras(2)

    note(1, "Accounting Policies", POLICIES, 12, False)
    note(2, "Investments", PARAGRAPH_HEADS, 12, False)
    note(3, "Borrowings", CAPTIONS, 10, True)
    note(4, "Commitments and Contingencies", [], 12, False)
    w.new_page()
    if items:
        w.heading("Item 9. Changes in and Disagreements with Accountants", size=10, bold=True)
    else:
        contents.append((0, "Other Information", w.heading("Other Information", size=18, bold=False)))
    w.paras(2)
    w.new_page()
    w.centred("Signatures", 10)
    w.para("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly "
           "caused this report to be signed on its behalf by the undersigned, thereunto duly authorized.")
    for k, (indent, title, page) in enumerate(contents):
        w.doc[1].insert_text((72 + 20 * indent, 140 + 18 * k), title, fontsize=10, fontname="helv")
        w.doc[1].insert_text((520, 140 + 18 * k), str(page), fontsize=10, fontname="helv")
    return w.save(path)


def _children(roots: list[Node], prefix: str) -> list[str]:
    node = next(n for r in roots for n in r.walk() if n.title.startswith(prefix))
    return [c.title for c in node.children]


@pytest.mark.parametrize("items", [True, False], ids=["items", "printed-contents"])
def test_a_note_walked_through_by_heads_larger_than_the_body_gets_them_as_sub_sections(
        tmp_path: Path, items: bool) -> None:
    """Heads set larger than the body on their own lines inside a numbered note are its sub-sections
    when they walk through it (four or more, each title once); two such heads are paragraph heads,
    and bold heads in the body's size (table captions) stay out."""
    roots, _ = build_nodes(read(_ten_k_with_notes(tmp_path / "tenk.pdf", items=items)),
                           BuildSettings(ignore_outline=True, subdivide=False))
    assert _children(roots, "Notes to Consolidated") == [
        "Note 1 : Accounting Policies", "Note 2 : Investments", "Note 3 : Borrowings",
        "Note 4 : Commitments and Contingencies"]
    assert _children(roots, "Note 1 ") == POLICIES
    assert _children(roots, "Note 2 ") == []
    assert _children(roots, "Note 3 ") == []


def test_with_note_subheadings_a_look_that_walks_through_one_note_divides_the_others(tmp_path: Path) -> None:
    """With ``note_subheadings``, the 12-point look that walks through the policies note makes the
    investments note's two 12-point heads its sub-sections, and the borrowings note's four bold heads at
    the body size, each over its paragraphs, walk through that note (the default keeps both out)."""
    roots, _ = build_nodes(read(_ten_k_with_notes(tmp_path / "tenk.pdf", items=True)),
                           BuildSettings(ignore_outline=True, subdivide=False, note_subheadings=True))
    assert _children(roots, "Note 1 ") == POLICIES
    assert _children(roots, "Note 2 ") == PARAGRAPH_HEADS
    assert _children(roots, "Note 3 ") == CAPTIONS
    assert _children(roots, "Note 4 ") == []


ITALIC_POLICIES = ["Basis of Presentation", "Use of Estimates", "Revenue Recognition", "Inventories",
                   "Concentration of Risk"]
ITALIC_PAIR = ["Cash Flow Hedges", "Non-Designated Hedges"]
BOLD_CAPS = ["NOTES PAYABLE", "LONG-TERM DEBT"]
BOLD_BENEFITS = ["Defined Benefit Pension Plans", "Other Postretirement Benefit Plans", "Assumptions",
                 "Defined Contribution Plans"]


def _ten_k_with_body_size_heads(path: Path, *, notes_heading: bool) -> Path:
    """A 10-K (Item 8) whose notes are titled in bold capitals at the 10-point body size and divided by
    heads in the body's size too, as many filers print them: the policies note walks through five topics
    under italic heads, the derivatives note has two italic heads and an italic sentence, the leases note
    one italic head (a lead-in), the debt note two bold-capitals heads (a look no note walks through), the
    fair-value note a bold table caption whose rows follow, a bold column header far right, and a bold
    caption wrapped over two lines above its table, all in the look of the retirement note's four bold
    heads. With ``notes_heading`` the notes sit under their
    ``Notes to Consolidated Financial Statements`` title; without, that title is only a running header
    (each page's top line), so the notes nest under the last statement."""
    w = ten_k_opening() if notes_heading else ten_k_opening("NOTES TO CONSOLIDATED FINANCIAL STATEMENTS")
    w.fill_pages(5)
    w.heading("PART II", size=10, bold=True, space=14)
    w.heading("Item 8. Financial Statements and Supplementary Data", size=10, bold=True)
    for title in STATEMENTS:
        w.new_page()
        w.centred(title, 18, bold=False)
        for row in ("Net sales", "Cost of sales", "Gross margin", "Operating income"):
            w.row([(LEFT, row), (470, "1,234")])
    w.new_page()
    if notes_heading:
        w.heading("Notes to Consolidated Financial Statements", size=18, bold=False)

    def head(text: str, font: str) -> None:
        w.y += 10
        w.line(text, font=font)
        w.y += 4

    def note(n: int, title: str) -> None:
        w.heading(f"NOTE {n}. {title}", size=10, bold=True)

    note(1, "SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES")
    for h in ITALIC_POLICIES:
        head(h, "heit")
        w.paras(1)
    note(2, "DERIVATIVE FINANCIAL INSTRUMENTS")
    w.para()
    head("See Note 1 for further information regarding the fair value of our instruments.", "heit")
    w.para()
    for h in ITALIC_PAIR:
        head(h, "heit")
        w.paras(1)
    note(3, "LEASES")
    head("Operating Leases", "heit")
    w.paras(2)
    note(4, "DEBT")
    for h in BOLD_CAPS:
        head(h, "hebo")
        w.paras(1)
    note(5, "FAIR VALUE MEASUREMENTS")
    w.para()
    w.line("December 31, 2022", bold=True, x=400)
    head("Assets", "hebo")
    for row in ("Mutual funds", "Government securities", "Derivatives"):
        w.row([(LEFT, row), (470, "897")])
    w.para()
    head("In Millions, Except Per", "hebo")
    w.line("Share Amounts", bold=True)
    for row in ("Net sales", "Net earnings"):
        w.row([(LEFT, row), (470, "2,345")])
    w.paras(1)
    note(6, "RETIREMENT BENEFITS")
    for h in BOLD_BENEFITS:
        head(h, "hebo")
        w.paras(1)
    w.new_page()
    w.heading("Item 9. Changes in and Disagreements with Accountants", size=10, bold=True)
    w.paras(2)
    return w.save(path)


@pytest.mark.parametrize("notes_heading", [True, False], ids=["notes-title", "running-header"])
def test_body_size_note_heads_in_a_look_that_walks_through_a_note_are_sub_sections(
        tmp_path: Path, notes_heading: bool) -> None:
    """With ``note_subheadings``, heads of a note set at the body size and apart only by their slant are its
    sub-sections when their look walks through a note (five italic heads); in another note two heads of that
    look are too, one alone is a lead-in, an italic sentence is no head; bold capitals no note walks through
    stay out, and so do a table's row-group label, a column header and a caption wrapped over two lines in
    the look of bold heads that walk through another note. Without the
    option the notes keep no such sub-sections (the default)."""
    path = _ten_k_with_body_size_heads(tmp_path / "tenk.pdf", notes_heading=notes_heading)
    on, _ = build_nodes(read(path), BuildSettings(ignore_outline=True, subdivide=False, note_subheadings=True))
    assert _children(on, "NOTE 1.") == ITALIC_POLICIES
    assert _children(on, "NOTE 2.") == ITALIC_PAIR
    assert _children(on, "NOTE 3.") == []
    assert _children(on, "NOTE 4.") == []
    assert _children(on, "NOTE 5.") == []
    assert _children(on, "NOTE 6.") == BOLD_BENEFITS
    off, _ = build_nodes(read(path), BuildSettings(ignore_outline=True, subdivide=False))
    assert all(_children(off, f"NOTE {n}.") == [] for n in range(1, 7))


def test_the_option_keeps_the_settings_hash_of_earlier_builds() -> None:
    """``note_subheadings`` left at its default does not change a version's identity (stores built before
    it existed keep their versions); set, it makes a new version."""
    assert BuildSettings().hash() == BuildSettings(note_subheadings=False).hash()
    assert BuildSettings(note_subheadings=True).hash() != BuildSettings().hash()


def test_the_cli_flag_and_the_environment_turn_the_option_on(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``--note-subheadings`` or ``TREEBUILD_NOTE_SUBHEADINGS=1`` reach the build (the CLI, the flows and the
    library resolve settings through one path); the flag wins over the variable; a wrong value is refused."""
    import json

    from typer.testing import CliRunner

    from treebuild.cli import app
    from treebuild.errors import TreebuildError
    from treebuild.settings import resolve_settings

    path = _ten_k_with_body_size_heads(tmp_path / "tenk.pdf", notes_heading=True)
    runner = CliRunner()

    def note_one(*args: str) -> list[str]:
        out = tmp_path / "tree.json"
        res = runner.invoke(app, ["build", str(path), "--ignore-outline", "--no-subdivide", "-o", str(out), *args])
        assert res.exit_code == 0, res.output
        nodes = json.loads(out.read_text())["structure"]
        stack = list(nodes)
        while stack:
            n = stack.pop()
            if n["title"].startswith("NOTE 1."):
                return [c["title"] for c in n.get("nodes", [])]
            stack.extend(n.get("nodes", []))
        raise AssertionError("no NOTE 1.")

    assert note_one() == []
    assert note_one("--note-subheadings") == ITALIC_POLICIES
    monkeypatch.setenv("TREEBUILD_NOTE_SUBHEADINGS", "1")
    assert note_one() == ITALIC_POLICIES
    assert note_one("--no-note-subheadings") == []
    assert resolve_settings(None, None)[0].note_subheadings
    monkeypatch.setenv("TREEBUILD_NOTE_SUBHEADINGS", "maybe")
    with pytest.raises(TreebuildError, match="invalid TREEBUILD_NOTE_SUBHEADINGS='maybe'.*use 1 or 0"):
        resolve_settings(None, None)
