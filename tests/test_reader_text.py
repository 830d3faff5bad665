"""Plain-text reader: headings from underlines, numbering and capitals; form feeds as printed pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from treebuild.errors import ReadError
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


def test_blocks_and_declared_levels_without_form_feeds(tmp_path: Path) -> None:
    doc = read(_write(tmp_path, MANUAL))
    assert not doc.paged and doc.page_count is None
    heads = [(u.heading_level, u.text) for u in doc.units if u.kind == "heading"]
    assert heads == [(1, "WIDGET MANUAL"), (2, "Introduction"), (3, "Installation"), (4, "1. Requirements"),
                     (5, "1.1 Power"), (4, "2. Assembly"), (3, "Care")]
    assert "=====" not in "\n".join(u.text for u in doc.units)  # the underlines are the headings' marks, not text
    tree = build(doc.path, BuildSettings(subdivide=False))
    care = tree.find("Care")[0]
    assert care.parent is not None and care.parent.title == "Introduction"
    assert "never with water" in care.text() and care.start_page is None


def test_sentences_and_list_items_are_not_headings(tmp_path: Path) -> None:
    text = ("Overview\n========\n\nThe plan has two steps.\n\n1. We measure the room, then we order parts.\n\n"
            "NOTE: keep the receipt.\n\nA. First option,\nstill the same sentence\n")
    heads = [u.text for u in read(_write(tmp_path, text)).units if u.kind == "heading"]
    assert heads == ["Overview"]


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
