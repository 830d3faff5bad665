"""Plain-text reader: headings from underlines, numbering and capitals; form feeds as printed pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from treebuild.errors import ReadError
from treebuild.model import Pos
from treebuild.pipeline import build
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import label_pages

MANUAL = """WIDGET MANUAL

Introduction
============

This manual describes the widget, how to install it and how to look after it.

Installation
------------

1. Requirements

The widget needs a flat surface and a power outlet.

1.1 Power

Use the supplied cable; other cables void the warranty.

2. Assembly

Fit the base to the body and tighten the four screws.

Care
----

Wipe it with a dry cloth, never with water.
"""


def _write(tmp_path: Path, text: str, name: str = "doc.txt", encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def _tree(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    tree = build(str(_write(tmp_path, text)), BuildSettings(subdivide=False))
    return [(n.depth, n.title) for n in tree.walk() if n.origin != "preface"]


def test_blocks_without_form_feeds_get_headings_from_the_layout_view(tmp_path: Path) -> None:
    """No pages: paragraph units, each line set apart by a convention a unit of its own; the structure stage
    reads the headings (underline ranks, capitals, numbering depth) on the text's layout view and its
    marks land on the blocks, whose text each section then starts with."""
    doc = read(_write(tmp_path, MANUAL))
    assert not doc.paged and doc.page_count is None and doc.layout_view is not None
    assert all(u.kind == "paragraph" and u.heading_level is None for u in doc.units)
    assert "=====" not in "\n".join(u.text for u in doc.units)  # the underlines are the headings' marks, not text
    view = doc.layout_view()
    assert view.doc.paged and view.to_unit(Pos(0, 0)) == Pos(0, 0)
    tree = build(doc.path, BuildSettings(subdivide=False))
    titles = [(n.depth, n.title) for n in tree.walk()]
    assert (1, "Introduction") in titles and (2, "Installation") in titles and (2, "1.1 Power") in titles
    for node in tree.walk():
        assert node.text().startswith(node.title) and node.start_page is None  # cited by its path
    care = tree.find("Care")[0]
    assert "never with water" in care.text()


def test_sentences_and_list_items_are_not_headings(tmp_path: Path) -> None:
    text = ("Overview\n========\n\nThe plan has two steps.\n\n1. We measure the room, then we order parts.\n\n"
            "NOTE: keep the receipt.\n\nA. First option,\nstill the same sentence\n\n"
            "1. The committee follows the procedure set out below, and a vote that\n"
            "changes it needs a majority of two thirds of the members present.\n")
    assert [t for _, t in _tree(tmp_path, text)] == ["Overview"]


def test_a_printed_contents_without_pages_gives_the_sections_and_their_levels(tmp_path: Path) -> None:
    """A FAQ-like text without form feeds: its contents (numbered entries filling the first screen, no page
    numbers, a long question wrapped to a second row) is read as the printed contents; its entries are not
    sections, the body's are, at the depth of their numbers, the wrapped title whole."""
    body = "   The protocol sends a message and the server answers it with a status code.\n" * 3
    wrapped = "How does the client tell the server that it has read every message it was sent"
    topics = ["Basics", "Installing", "Messages", "Servers", "Clients", "Errors", "Security", "Tuning", "Logs",
              "Support"]
    secs = [(f"{i}.", topics[i - 1], [(f"{i}.{j}.", wrapped if (i, j) == (2, 1) else f"How to use {topic} well")
                                      for j, topic in enumerate(topics[:4], start=1)]) for i in range(1, 11)]
    lines = ["Widget Transfer Protocol FAQ", "", "Table of Contents", ""]
    for n, title, subs in secs:
        lines.append(f"{n} {title}")
        for m, sub in subs:
            entry = f"    {m} {sub}"
            cut = entry.rfind(" ", 0, 70)
            lines += [entry[:cut], f"    {entry[cut:].strip()}"] if len(entry) > 70 else [entry]
    for n, title, subs in secs:
        lines += ["", f"{n} {title}", "", body]
        for m, sub in subs:
            lines += ["", f"{m} {sub}", "", body]
    tree = build(str(_write(tmp_path, "\n".join(lines) + "\n")), BuildSettings(subdivide=False))
    assert tree.method == "toc"
    titles = [(n.depth, n.title) for n in tree.walk() if n.origin != "preface"]
    assert len(titles) == 50 and titles[:2] == [(1, "1. Basics"), (2, "1.1. How to use Basics well")]
    assert (2, f"2.1. {wrapped}") in titles and titles[-1] == (2, "10.4. How to use Servers well")
    assert all(n.text().startswith(n.title[:20]) for n in tree.walk() if n.origin != "preface")


def test_form_feeds_are_pages_with_printed_numbers(tmp_path: Path) -> None:
    pages = []
    for n in range(1, 6):
        body = f"{n}. SECTION {n}\n\n" + "Text of the section that goes on for a while.\n" * 12
        pages.append(f"Widget Report                                    May 2025\n\n{body}\n\n"
                     f"                                 {n}\n")
    doc = read(_write(tmp_path, "\f".join(pages)))
    label_pages(doc)
    assert doc.paged and doc.page_count == 5 and [u.label for u in doc.units] == ["1", "2", "3", "4", "5"]
    line = doc.lines(1)[1]
    assert line.text == "2. SECTION 2" and line.bold and doc.units[1].text[line.char:].startswith("2. SECTION 2")
    folio = doc.lines(0)[-1]
    assert folio.text == "1" and folio.x0 > 200  # at its column
    tree = build(doc.path, BuildSettings(subdivide=False))
    assert [(n.title, n.start_page) for n in tree.walk()] == [(f"{n}. SECTION {n}", n) for n in range(1, 6)]


def test_encoding_and_binary(tmp_path: Path) -> None:
    doc = read(_write(tmp_path, "Caf\u00e9 cr\u00e8me\n", "latin.txt", "latin-1"))
    assert doc.units[0].text == "Café crème" and "read as windows-1252" in doc.warnings[0]
    assert read(_write(tmp_path, "\ufeffCaf\u00e9\n", "bom.txt", "utf-16-le")).units[0].text == "Café"
    blob = tmp_path / "blob.txt"
    blob.write_bytes(b"\x00\x01\x02" * 100)
    with pytest.raises(ReadError, match=r"binary content \(binary data \(NUL bytes\)\), not plain text"):
        read(blob)


def test_a_contents_entry_missing_from_a_pageless_text_names_no_sheet(tmp_path: Path) -> None:
    """A text without form feeds is laid out on sheets the reader never shows: a finding about the
    contents' sheet ("printed TOC on page(s) 1") would point at a page that does not exist."""
    body = "   The protocol sends a message and the server answers it with a status code.\n" * 3
    topics = ["Basics", "Installing", "Messages", "Servers", "Clients", "Errors", "Security", "Tuning", "Logs",
              "Support"]
    secs = [(f"{i}.", topics[i - 1], [f"{i}.{j}. How to use {t} well" for j, t in enumerate(topics[:4], start=1)])
            for i in range(1, 11)]
    lines = ["Widget Transfer Protocol FAQ", "", "Table of Contents", ""]
    for n, title, subs in secs:
        lines += [f"{n} {title}"] + [f"    {sub}" for sub in subs]
    lines.append("11. Retired Interfaces")  # listed, never printed
    for n, title, subs in secs:
        lines += ["", f"{n} {title}", "", body]
        for sub in subs:
            lines += ["", sub, "", body]
    tree = build(str(_write(tmp_path, "\n".join(lines) + "\n")), BuildSettings(subdivide=False))
    assert tree.method == "toc" and len([n for n in tree.walk() if n.origin != "preface"]) == 50
    assert not [f for f in tree.findings if f.page is not None or "page" in f.text], tree.findings
