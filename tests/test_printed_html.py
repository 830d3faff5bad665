"""Pages printed from HTML (issue 8): a browser or an office suite prints ``h4`` to ``h6`` below the
text size, and a heading that names a program sets most of its line in code type; their dotted
numbers and the bold weight still make them headings. On a document generated in the test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)
TEXT = ("This section describes the tool and when a maintainer needs it, with the options that matter most "
        "and the files it reads and writes during a build of the package. ")
# (level, number, name, size, number's font, name's font): sizes as a browser prints h1..h6 over 12-point text
HEADS = [
    (1, "1.", "Overview of Maintainer Tools", 18, "tibo", "tibo"),
    (2, "1.1.", "Core tools", 14, "tibo", "tibo"),
    (3, "1.1.1.", "dpkg-dev", 12, "tibo", "cobo"),
    (3, "1.1.2.", "debconf", 12, "tibo", "cobo"),
    (4, "1.1.2.1.", "Stable, testing, and unstable", 10, "tibo", "tibo"),
    (4, "1.1.2.2.", "Experimental", 10, "tibo", "tibo"),
    (5, "1.1.2.2.1.", "string", 7, "tibo", "tibo"),
    (5, "1.1.2.2.2.", "boolean", 7, "tibo", "tibo"),
    (2, "1.2.", "Package lint tools", 14, "tibo", "tibo"),
    (3, "1.2.1.", "lintian", 12, "tibo", "cobo"),
    (1, "2.", "Packaging Workflow", 18, "tibo", "tibo"),
    (2, "2.1.", "Uploads", 14, "tibo", "tibo"),
    (3, "2.1.1.", "dupload", 12, "tibo", "cobo"),
    (4, "2.1.1.1.", "Delayed uploads", 10, "tibo", "tibo"),
]


def _document(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 60.0
    for _, number, name, size, num_font, name_font in HEADS:
        if y > 620:
            page, y = doc.new_page(), 60.0
        y += size * 1.6
        page.insert_text((57, y), number, fontsize=size, fontname=num_font)
        x = 57 + pymupdf.get_text_length(number + " ", fontname=num_font, fontsize=size)
        page.insert_text((x, y), name, fontsize=size, fontname=name_font)
        y += 8
        words, line = TEXT.split() * 2, ""
        for word in words:
            if pymupdf.get_text_length(f"{line} {word}", fontname="tiro", fontsize=12) > 480:
                y += 14
                page.insert_text((57, y), line, fontsize=12, fontname="tiro")
                line = word
            else:
                line = f"{line} {word}".strip()
        y += 14
        page.insert_text((57, y), line, fontsize=12, fontname="tiro")
        y += 10
    doc.save(path)
    return path


def _tree(roots: list[Node]) -> list[tuple[int, str]]:
    return [(n.depth, n.title) for r in roots for n in r.walk() if n.origin != "preface"]


def test_numbered_bold_heads_below_the_text_size_or_in_code_type_are_headings(tmp_path: Path) -> None:
    """Levels 4 and 5 in 10 and 7 points under 12-point text, and level-3 heads naming a program in
    bold monospace, are sections at their depth (they used to be left out: smaller than the body, or
    taken for code)."""
    roots, _ = build_nodes(read(_document(tmp_path / "printed.pdf")), DETECT)
    assert _tree(roots) == [(level, f"{number} {name}") for level, number, name, *_ in HEADS]


class _Flow:
    """A page printed from HTML: lines down the page, a new page when it is full."""

    def __init__(self) -> None:
        self.doc = pymupdf.open()
        self.page = self.doc.new_page()
        self.y = 40.0

    def line(self, text: str, size: float = 12, font: str = "tiro", x: float = 57, gap: float = 2) -> int:
        if self.y + size + gap > 790:
            self.page, self.y = self.doc.new_page(), 40.0
        self.y += size + gap
        self.page.insert_text((x, self.y), text, fontsize=size, fontname=font)
        return self.doc.page_count


TOPICS = ["Purpose", "Requirements", "Specific options", "Rationale", "Layout", "Permissions", "Links", "Caches",
          "Logs", "History", "Mounts", "Backups"]
PARTS = ["Introduction", "Root filesystem", "User hierarchy", "Variable data", "Operating systems"]
CHAPTERS = {f"{c}. {name}": [f"{c}.{k}. {topic} of the {name.lower()}" for k, topic in enumerate(TOPICS, start=1)]
            for c, name in enumerate(PARTS, start=1)}


def test_a_contents_without_page_numbers_runs_from_a_title_at_a_page_foot_into_the_text(tmp_path: Path) -> None:
    """A page printed from HTML lists its sections as links: the ``Table of Contents`` title is the
    first page's last line, the entries fill the next page and end near the top of the one after,
    where the text begins; each chapter then opens with its own contents of its sections. Every
    entry is placed on its heading, not on the chapter's listing of it (the contents used to be
    missed, a chapter's listing read in its place; or its last page, shared with the text, dropped)."""
    f = _Flow()
    f.line("Filesystem Hierarchy Standard", 24, "tibo")
    while f.y < 740:
        f.line(TEXT[:90])
    f.y = 770.0
    f.line("Table of Contents", 12, "tibo")
    f.page, f.y = f.doc.new_page(), 40.0
    for chapter, sections in CHAPTERS.items():
        f.line(chapter)
        for s in sections:
            f.line(s, x=85)
    for _ in range(12):
        f.line(TEXT[:90])  # the text begins under the contents' last entries
    where: dict[str, int] = {}
    for chapter, sections in CHAPTERS.items():
        f.page, f.y = f.doc.new_page(), 40.0
        where[chapter] = f.line(f"Chapter {chapter}", 24, "tibo")
        f.line("Table of Contents", 12, "tibo", gap=10)
        for s in sections:
            f.line(s, x=85)
        for s in sections:
            where[s] = f.line(s, 18, "tibo", gap=14)
            for _ in range(3):
                f.line(TEXT[:90])
    path = tmp_path / "printed.pdf"
    f.doc.save(path)
    doc = read(path)
    from treebuild.structure.toc.marks import toc_marks

    res = toc_marks(doc)
    assert res is not None and res.paged is False and res.toc_pages == [0, 1, 2]
    assert [(m.title, m.pos.unit + 1) for m in res.marks] == [
        (t, where[t]) for chapter, sections in CHAPTERS.items() for t in (chapter, *sections)]


def test_numbered_heads_set_apart_by_typeface_alone_are_headings(tmp_path: Path) -> None:
    """An office suite prints a page's ``h3`` heads in its serif face at the size of the sans-serif
    text, neither bold nor larger: their dotted numbers and the other typeface make them sections
    (they used to be read as text); a numbered line in the text's own face stays text."""
    f = _Flow()
    expected: list[tuple[int, str]] = []
    for c, chapter in enumerate(["Introduction", "Compiler", "Debugger"], start=1):
        f.line(f"{c} {chapter}", 18, "hebo", gap=12)
        expected.append((1, f"{c} {chapter}"))
        for k, sub in enumerate(["Overview", "Options", "Limits"], start=1):
            f.line(f"{c}.{k} {sub} of the {chapter.lower()}", 12, "tiro", gap=10)
            expected.append((2, f"{c}.{k} {sub} of the {chapter.lower()}"))
            f.y += 6  # the space under a heading
            for _ in range(4):
                f.line(TEXT[:95], 12, "helv")
            f.line(f"{c}.{k}.1 versions before 2.0 behave differently, see the release notes", 12, "helv")
    path = tmp_path / "printed.pdf"
    f.doc.save(path)
    roots, _ = build_nodes(read(path), DETECT)
    assert _tree(roots) == expected


def test_the_text_typeface_is_the_one_the_text_size_is_set_in(tmp_path: Path) -> None:
    """Pages of sans-serif tables in 12 and 11 points come before a paper in 13-point serif whose numbered
    heads are 13-point sans-serif: the text's size is 13 points (more characters than either table size)
    and its typeface is read at that size (serif), so the heads stand apart (the tables' characters, more
    than the paper's in all, used to make sans-serif the body face, and no head was found)."""
    f = _Flow()
    for size in (12, 11):  # the tables, in the heads' face
        for year in range(1975, 2025):
            f.line(f"{year}    New cases per 100,000    {year % 97 + 100}.{year % 10}    Deaths    {year % 53}",
                   size, "helv")
    f.page, f.y = f.doc.new_page(), 40.0
    heads = [f"{c}.{k}. {t}" for c, t0 in ((1, "Methods"), (2, "Results")) for k, t in
             enumerate([f"Design of the {t0.lower()}", f"Measures of the {t0.lower()}", "Analysis"], start=1)]
    for head in heads:
        f.line(head, 13, "helv", gap=14)
        f.y += 4
        for _ in range(9):
            f.line(TEXT[:80], 13, "tiro")
    path = tmp_path / "paper.pdf"
    f.doc.save(path)
    roots, _ = build_nodes(read(path), DETECT)
    assert [t for _, t in _tree(roots)] == heads
