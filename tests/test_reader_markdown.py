"""Markdown reader: ATX and Setext headings, fenced code, front matter, decoding, trees."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import treebuild
from treebuild.errors import ReadError
from treebuild.model import SourceDoc
from treebuild.readers import read
from treebuild.readers.markdown import decode_text, parse_markdown
from treebuild.structure.assemble import PREFACE_TITLE


def _write(tmp_path: Path, text: str, name: str = "doc.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _headings(doc: SourceDoc) -> list[tuple[int | None, str]]:
    return [(u.heading_level, u.text) for u in doc.units if u.kind == "heading"]


def _units(text: str) -> list[tuple[str, str, int | None]]:
    units, _ = parse_markdown(text)
    assert [u.index for u in units] == list(range(len(units)))
    return [(u.kind, u.text, u.heading_level) for u in units]


def test_atx_headings_levels_closing_hashes_and_indent() -> None:
    text = "\n".join([
        "# One",
        "## Two ##",
        "   ### Three indented #####",
        "#### Four #not-closing",
        "##### Five#",
        "###### Six",
        "####### seven hashes is text",
        "#5 no space is text",
        "    # four spaces is code, not a heading",
        "#",
        "## ##",
    ])
    got = [(lvl, t) for kind, t, lvl in _units(text) if kind == "heading"]
    assert got == [(1, "One"), (2, "Two"), (3, "Three indented"), (4, "Four #not-closing"), (5, "Five#"),
                   (6, "Six")]


def test_heading_title_is_plain_text() -> None:
    units = _units("# The *Big* `idea`, [linked](http://example.com) ![logo](x.png)\n")
    assert units == [("heading", "The Big idea, linked logo", 1)]


def test_headings_inside_quotes_and_lists_are_not_sections() -> None:
    units = _units("> # Quoted heading\n\n- ## List heading\n- item\n\n# Real")
    assert [(lvl, t) for kind, t, lvl in units if kind == "heading"] == [(1, "Real")]
    assert units[:2] == [("paragraph", "> # Quoted heading", None),
                         ("paragraph", "- ## List heading\n- item", None)]


def test_blocks_split_on_blank_lines_and_headings_interrupt_paragraphs() -> None:
    text = "first line\nsecond line\n\n\nnext block\n# Heading\nafter heading\n  \nlast"
    assert _units(text) == [
        ("paragraph", "first line\nsecond line", None),
        ("paragraph", "next block", None),
        ("heading", "Heading", 1),
        ("paragraph", "after heading", None),
        ("paragraph", "last", None),
    ]


def test_setext_headings() -> None:
    text = "\n".join([
        "Title Line",
        "==========",
        "",
        "Two line",
        "setext title",
        "---",
        "",
        "- a list item",
        "---",
        "",
        "---",
        "",
        "plain",
        "   ===   ",
        "",
        "> quoted",
        "===",
    ])
    units = _units(text)
    assert [(lvl, t) for kind, t, lvl in units if kind == "heading"] == [
        (1, "Title Line"), (2, "Two line setext title"), (1, "plain")]
    # under a list item or a blank line '---' is a rule; rules carry no text
    assert ("paragraph", "- a list item", None) in units
    assert all(t.strip() != "---" for _, t, _ in units)
    assert ("paragraph", "> quoted\n===", None) in units


def test_fenced_code_hides_headings() -> None:
    text = "\n".join([
        "# Real",
        "```python",
        "# comment, not a heading",
        "~~~",
        "```",
        "~~~~",
        "## also code",
        "```",
        "~~~",  # too short to close a 4-tilde fence
        "~~~~~",
        "````",
        "```",
        "# still code: a 3-backtick line cannot close a 4-backtick fence",
        "````",
        "## Real Two",
    ])
    units = _units(text)
    assert [(lvl, t) for kind, t, lvl in units if kind == "heading"] == [(1, "Real"), (2, "Real Two")]
    code = [t for kind, t, _ in units if kind == "code"]
    assert code == [
        "```python\n# comment, not a heading\n~~~\n```",
        "~~~~\n## also code\n```\n~~~\n~~~~~",
        "````\n```\n# still code: a 3-backtick line cannot close a 4-backtick fence\n````",
    ]
    assert parse_markdown(text)[0][1].style == "python"


def test_unclosed_fence_runs_to_the_end() -> None:
    units = _units("# A\n```\n# not a heading\n\nmore code")
    assert units == [("heading", "A", 1), ("code", "```\n# not a heading\n\nmore code", None)]


def test_backtick_fence_info_with_backtick_is_not_a_fence() -> None:
    units = _units("``` inline ` tick\n# Heading")
    assert ("heading", "Heading", 1) in units


def test_pipe_table_unit_and_html_comment() -> None:
    units = _units("| a | b |\n|:--|--:|\n| 1 | 2 |\n\n<!--\n# commented out\n-->\n# After")
    assert units == [
        ("table", "| a | b |\n|:--|--:|\n| 1 | 2 |", None),
        ("paragraph", "<!--\n# commented out\n-->", None),
        ("heading", "After", 1),
    ]


def test_front_matter_title_and_metadata(tmp_path: Path) -> None:
    text = "---\ntitle: \"Guide: Part 1\"\nauthor: Grace Hopper  # a comment\ntags:\n  - a\n  - b\n---\n# Intro\nbody\n"
    path = _write(tmp_path, text)
    doc = read(path)
    assert doc.format == "markdown" and doc.page_count is None
    assert doc.title == "Guide: Part 1"
    assert doc.metadata == {"title": "Guide: Part 1", "author": "Grace Hopper"}
    assert [(u.kind, u.text) for u in doc.units] == [("heading", "Intro"), ("paragraph", "body")]
    assert doc.sha256 == hashlib.sha256(path.read_bytes()).hexdigest() and doc.size == len(path.read_bytes())


def test_dashes_without_closing_line_are_not_front_matter() -> None:
    units, front = parse_markdown("---\ntitle: no\n\n# H")
    assert front == {}
    assert ("heading", "H", 1) in [(u.kind, u.text, u.heading_level) for u in units]


def test_decoding_bom_crlf_and_latin1(tmp_path: Path) -> None:
    bom = tmp_path / "bom.md"
    bom.write_bytes(b"\xef\xbb\xbf# Caf\xc3\xa9\r\n\r\nbody\r\nline two\r\n")
    doc = read(bom)
    assert [(u.kind, u.text) for u in doc.units] == [("heading", "Café"), ("paragraph", "body\nline two")]
    latin = tmp_path / "latin.md"
    latin.write_bytes("# Café\n\nna\xefve".encode("latin-1"))
    assert [u.text for u in read(latin).units] == ["Café", "naïve"]
    assert decode_text("# Ü".encode("utf-16")) == "# Ü"


def test_tree_nesting_with_skipped_levels_and_exact_text(tmp_path: Path) -> None:
    text = "Intro paragraph.\n\n# A\n\na text\n\n### A deep\n\ndeep text\n\n## A two\n\n# B\n\n```\n# code\n```\n"
    tree = treebuild.build(_write(tmp_path, text))
    assert tree.method == "headings"
    got = [(n.node_id, n.title, n.depth, n.parent.title if n.parent else None) for n in tree.walk()]
    assert got == [
        ("0000", PREFACE_TITLE, 1, None),
        ("0001", "A", 1, None),
        ("0002", "A deep", 2, "A"),
        ("0003", "A two", 2, "A"),
        ("0004", "B", 1, None),
    ]
    nodes = {n.title: n for n in tree.walk()}
    assert nodes[PREFACE_TITLE].text() == "Intro paragraph."
    assert nodes["A"].text() == "A\na text\nA deep\ndeep text\nA two"
    assert nodes["A deep"].text() == "A deep\ndeep text"
    assert nodes["B"].text() == "B\n```\n# code\n```"
    assert [n.title for n in nodes["A deep"].path()] == ["A", "A deep"]


def test_title_names_single_node_without_headings(tmp_path: Path) -> None:
    tree = treebuild.build(_write(tmp_path, "---\ntitle: Notes\n---\njust a paragraph\n"))
    assert [(n.title, n.text()) for n in tree.walk()] == [("Notes", "just a paragraph")]


def test_empty_file_and_unreadable_path(tmp_path: Path) -> None:
    empty = _write(tmp_path, "")
    with pytest.raises(ReadError, match="file is empty"):  # every format: an empty file is an error
        read(empty)
    folder = tmp_path / "dir.md"
    folder.mkdir()
    with pytest.raises(ReadError) as info:
        read(folder)
    assert info.value.path == str(folder)
