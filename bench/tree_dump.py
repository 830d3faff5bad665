"""Dump the trees of every PDF and DOCX in some folders, to diff two versions of the code (a refactoring or a
speed change must produce the same trees).

Three views per document, one line per node (depth, title, start/end position, pages, origin):

- ``eval``: the structure stage as ``structure_eval.py`` runs it (outline ignored, subdivision off);
- ``build``: a whole offline build with the default settings (outline used when trusted,
  subdivision on, extractive summaries; each node's summary is dumped too);
- ``text``: the reader's text of every page as a SHA-256 (the page text must not change either).

    .venv/bin/python bench/tree_dump.py /work/shared/corpus/pdf /work/shared/corpus/docx \
        /work/shared/corpus/filings /work/devcorpus/pdf > /tmp/trees-branch.txt
    diff /tmp/trees-main.txt /tmp/trees-branch.txt && echo identical
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from pathlib import Path

from treebuild.model import Node
from treebuild.pipeline import build_doc
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes


def _walk(roots: Iterable[Node]) -> Iterable[Node]:
    for root in roots:
        yield from root.walk()


def _line(view: str, n: Node) -> str:
    return (f"  {view} {'  ' * n.depth}{n.title!r} [{n.start.unit}:{n.start.char}-{n.end.unit}:{n.end.char}] "
            f"pp.{n.start_page}-{n.end_page} {n.origin}")


def dump(path: Path) -> list[str]:
    out = [f"== {path}"]
    doc = read(path)
    text = hashlib.sha256("\x00".join(u.text for u in doc.units).encode()).hexdigest()
    out.append(f"  text {len(doc.units)} pages sha256 {text}")
    roots, result = build_nodes(doc, BuildSettings(ignore_outline=True, subdivide=False, prompt_version="eval"))
    out.append(f"  eval method {result.method}")
    out.extend(_line("eval", n) for n in _walk(roots))
    tree = build_doc(read(path), BuildSettings())
    out.append(f"  build method {tree.method}")
    for n in tree.walk():
        out.append(_line("build", n))
        out.append(f"  build {'  ' * n.depth}  summary {n.summary!r}")
    return out


def main(folders: list[str]) -> None:
    for folder in folders:
        for path in sorted(p for p in Path(folder).iterdir() if p.suffix in (".pdf", ".docx")):
            print("\n".join(dump(path)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
