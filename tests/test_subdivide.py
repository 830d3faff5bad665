"""Recursive subdivision on generated PDFs: a long section without sub-headings becomes page
windows cut at paragraph boundaries; a long section with finer headings is split at them."""

from __future__ import annotations

from pathlib import Path

from structgen import Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes
from treebuild.structure.subdivide import subdivide, too_large

SETTINGS = BuildSettings(max_node_pages=10)


def _nodes(roots: list[Node]) -> list[Node]:
    return [n for r in roots for n in r.walk()]


def _check_tree(roots: list[Node]) -> None:
    nodes = _nodes(roots)
    assert [n.node_id for n in nodes] == [f"{i:04d}" for i in range(len(nodes))]  # preorder ids
    for n in nodes:
        for c in n.children:
            assert n.start <= c.start and c.end <= n.end
            assert n.start_page <= c.start_page and c.end_page <= n.end_page
        for a, b in zip(n.children, n.children[1:], strict=False):
            assert a.end == b.start


def test_long_section_without_headings_becomes_windows(tmp_path: Path) -> None:
    w = Writer()
    w.heading("Short Opening", size=14)
    w.paras(2)
    w.new_page()
    start = w.heading("Long Appendix", size=14)
    w.fill_pages(30)
    doc = read(w.save(tmp_path / "long.pdf"))
    roots, _ = build_nodes(doc, SETTINGS)
    long = next(n for n in roots if n.title == "Long Appendix")
    assert long.is_leaf and too_large(doc, long.start, long.end, SETTINGS)
    warnings = subdivide(doc, roots, SETTINGS)
    assert [(f.code, f.stage) for f in warnings] == [("window_nodes", "subdivide")] and "window" in warnings[0].text
    _check_tree(roots)
    kids = long.children
    assert len(kids) >= 3
    assert all(k.origin == "window" for k in kids)
    assert [k.title for k in kids] == ["Long Appendix"] + ["Long Appendix (continued)"] * (len(kids) - 1)
    assert kids[0].start == long.start and kids[0].start_page == start
    for k in kids:
        assert k.end_page - k.start_page + 1 <= SETTINGS.max_node_pages
        assert not too_large(doc, k.start, k.end, SETTINGS)
        # cuts fall on paragraph boundaries: every window but the first opens a paragraph
        if k is not kids[0]:
            before = doc.span_text(long.start, k.start).rstrip()
            assert before.endswith(".")
    assert "".join(k.text() for k in kids).replace("\n", "") == long.text().replace("\n", "")
    short = next(n for n in roots if n.title == "Short Opening")
    assert short.is_leaf  # small sections are left alone


def test_long_section_is_split_at_finer_headings(tmp_path: Path) -> None:
    w = Writer()
    w.heading("Big Chapter", size=18)
    w.paras(2)
    pages = {}
    for t in ("Background", "Method", "Findings"):
        pages[t] = w.heading(t, size=10, bold=True)  # body-size bold: minor heads, not in the TOC
        w.fill_pages(7)
    for t in ("Closing Chapter", "Another Chapter", "Last Chapter"):
        w.new_page()  # chapter heads on several pages: the document's heading style is larger than bold body
        w.heading(t, size=18)
        w.paras(2)
    doc = read(w.save(tmp_path / "finer.pdf"))
    roots, _ = build_nodes(doc, SETTINGS)
    big = next(n for n in roots if n.title == "Big Chapter")
    assert big.is_leaf  # minor heads are not sections of the tree ...
    subdivide(doc, roots, SETTINGS)
    _check_tree(roots)
    # ... but they are where an oversized section is cut
    assert [(c.title, c.start_page, c.origin) for c in big.children] == [
        (t, p, "heading") for t, p in pages.items()]
    assert all(c.is_leaf for c in big.children)


def test_subdivision_off_leaves_tree_alone(tmp_path: Path) -> None:
    w = Writer()
    w.heading("Only Chapter", size=14)
    w.fill_pages(25)
    doc = read(w.save(tmp_path / "off.pdf"))
    settings = BuildSettings(subdivide=False)
    roots, _ = build_nodes(doc, settings)
    before = [(n.node_id, n.start, n.end) for n in _nodes(roots)]
    assert subdivide(doc, roots, settings) == []
    assert [(n.node_id, n.start, n.end) for n in _nodes(roots)] == before
