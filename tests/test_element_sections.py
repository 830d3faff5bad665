"""A schema specification names its numbered sections for the XML elements they define (issue 8):
``4.2 <manifest:manifest>`` is a section, though an angle bracket opens its title; on a specification
generated in the test."""

from __future__ import annotations

from pathlib import Path

from structgen import Writer

from treebuild.model import Node
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

DETECT = BuildSettings(ignore_outline=True, subdivide=False)
TEXT = ("The element is usable within the following elements and has the attributes listed below; "
        "each attribute is described in its own section of this chapter. ")


def _tree(roots: list[Node]) -> list[tuple[int, str]]:
    return [(n.depth, n.title) for r in roots for n in r.walk() if n.origin != "preface"]


def test_numbered_sections_named_for_elements_are_sections(tmp_path: Path) -> None:
    """Each element of the manifest has a numbered section titled with its tag (they used to be read
    as API entries, as a bold ``\\command[<key>]`` line is, and left out); an unnumbered bold line
    holding a tag and more is still an API entry."""
    w = Writer(header="OpenDocument Packages Specification")
    w.heading("4 Manifest File", size=18)
    w.heading("4.1 Introduction", size=14)
    w.para(TEXT * 3)
    elements = ["<manifest:manifest>", "<manifest:file-entry>", "<manifest:encryption-data>", "<manifest:algorithm>"]
    for n, tag in enumerate(elements, start=2):
        w.heading(f"4.{n} {tag}", size=14)
        w.para(TEXT * 2)
        w.line(f"{tag} <manifest:file-entry manifest:full-path=\"/\">", bold=True)
        w.para(TEXT)
    roots, _ = build_nodes(read(w.save(tmp_path / "spec.pdf")), DETECT)
    assert _tree(roots) == [(1, "4 Manifest File"), (2, "4.1 Introduction")] + [
        (2, f"4.{n} {tag}") for n, tag in enumerate(elements, start=2)]
