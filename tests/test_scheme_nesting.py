"""Numbering schemes that count within each other (issue 8): an agency handbook numbers its chapters,
letters the sections of each chapter (``A.``, ``B.``) and numbers the sub-sections of each lettered
section from 1 again; on a handbook generated in the test."""

from __future__ import annotations

from pathlib import Path

from structgen import LOREM, Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)

HANDBOOK = {
    "CHAPTER 1 - INTRODUCTION": {"A. PURPOSE": [], "B. ROLE OF THE UNITED STATES TRUSTEE": []},
    "CHAPTER 2 - ADMINISTRATION OF CASES": {
        "A. INITIAL REVIEW OF CASES": ["1. CONFLICTS OF INTEREST", "2. EXEMPTIONS", "3. MULTIPLE FILINGS"],
        "B. MEETING OF CREDITORS": ["1. PRESIDING OFFICER", "2. APPEARANCES", "3. OATH"],
        "C. CONFIRMATION": ["1. OBJECTIONS", "2. MODIFICATION OF PLANS"],
    },
    "CHAPTER 3 - BUDGETS": {"A. PREPARATION": ["1. SCHEDULE", "2. APPROVAL"], "B. AMENDMENTS": []},
}


def _tree(roots: list[Node]) -> list[tuple[int, str]]:
    return [(n.depth, n.title) for r in roots for n in r.walk() if n.origin != "preface"]


def _write(w: Writer, heads: list[tuple[int, str, float]]) -> list[tuple[int, str]]:
    """Each (depth, title, size) as a bold heading over a paragraph; the (depth, title) the tree should hold."""
    for _, title, size in heads:
        w.heading(title, size=size)
        w.para(LOREM)
    return [(depth, title) for depth, title, _ in heads]


def test_numbers_that_start_again_under_each_lettered_section_nest_under_it(tmp_path: Path) -> None:
    """``1.``, ``2.`` count again from 1 under every lettered section, which counts again from ``A.``
    in every chapter: the numbered heads are the lettered sections' children and the letters the
    chapters' (the numbered heads used to be top-level sections by their numbers alone, beside the
    chapters, and took every later lettered section as their child)."""
    w = Writer(header="Handbook for Standing Trustees")
    expected: list[tuple[int, str]] = []
    for chapter, sections in HANDBOOK.items():
        heads = [(1, chapter, 16.0)]
        for section, subsections in sections.items():
            heads += [(2, section, 14.0)] + [(3, sub, 13.0) for sub in subsections]
        expected += _write(w, heads)
        w.new_page()
    roots, _ = build_nodes(read(w.save(tmp_path / "handbook.pdf")), DETECT)
    assert _tree(roots) == expected


def test_numbered_sections_before_a_lettered_appendix_stay_top_level(tmp_path: Path) -> None:
    """A report numbers its sections 1 to 4 and then letters its appendices, each with sub-sections
    numbered from 1: only the appendices' numbered heads nest (under their appendix); the report's
    own sections, numbered before any letter, stay top-level."""
    w = Writer(header="Annual Report of the Agency")
    heads = [(1, title, 14.0) for title in ("1. INTRODUCTION", "2. METHODS", "3. RESULTS", "4. DISCUSSION")]
    for appendix, subs in (("A. DATA SOURCES", ["1. SURVEYS", "2. RECORDS"]),
                           ("B. STATISTICAL NOTES", ["1. WEIGHTING", "2. VARIANCE"])):
        heads += [(1, appendix, 14.0)] + [(2, sub, 14.0) for sub in subs]
    expected = _write(w, heads)
    roots, _ = build_nodes(read(w.save(tmp_path / "report.pdf")), DETECT)
    assert _tree(roots) == expected
