"""Nodes that look like half of a heading wrapped over two lines, per corpus folder (issue 24 item 3).

A *wrapped half* is a node whose next node (in reading order: its next sibling or its first child)
starts on the same page right below the node's last title line (top to top 0.5-1.5 type sizes), in the
same type (size within 0.3 pt, same weight and typeface), with no section number or label opening it,
and with no text of
the node's own between its title and that next node: the two nodes are one title cut in two
(``Strategic Goal 6: Provide leadership in helping`` / ``engaged and energized to put forth ...``).
The check reads the page's own lines, not the code under test's rows.

A *lead-in* is a node whose title line opens a list item (a bullet glyph in it, or printed alone just
left of it); a *table cell* is a node titled with a column heading or a row label of a table detected
on its page (``doc.tables``, in a row with other cells filled). Both are counted as well.

    TREEBUILD_OCR=off nice -n 10 .venv/bin/python bench/wrapped_titles.py /work/shared/corpus/pdf \\
        /work/shared/corpus/filings /work/dev2/pdf [-v] [--build] [--only NAME]

By default the eval view is read (outline ignored, subdivision off, as ``structure_eval.py``);
``--build`` reads the default build's tree (outline used when trusted, subdivision on).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from pathlib import Path

from treebuild.model import Line, Node, SourceDoc
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import build_nodes

SAME_SIZE = 0.3
"""Points within which two lines are one type size."""
PITCH = (0.5, 1.5)
"""The second line's top is this many type sizes below the first's (a wrapped title's own leading: single
spacing is 1.15-1.25; two headings stacked are a paragraph's gap apart)."""
NOT_PREDICTIONS = ("preface", "window", "single")
_LABEL = re.compile(
    r"^(?:(?:part|item|chapter|section|appendix|annex|note|article|schedule|exhibit|step|goal|objective)\s+"
    r"(?:\d+(?:\.\d+)*[a-z]?|[ivxlcdm]+|[a-z])\b|\(?\d+(?:\.\d+)*[a-z]?[.)]?\s|\(?[ivxlcdm]+[.)]\s|\(?[a-z][.)]\s)",
    re.IGNORECASE,
)
_BULLETS = "•●▪◦■□➢►‣⁃∙·–—-*o§"


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _line_at(lines: list[Line], char: int) -> int | None:
    """The line that holds character ``char`` of its page (the last line starting at or before it)."""
    best = None
    for j, ln in enumerate(lines):
        if ln.char <= char:
            best = j
    return best


def _first_line(doc: SourceDoc, n: Node) -> int | None:
    lines = doc.lines(n.start.unit)
    if not lines:
        return None
    if n.start.char == 0:  # the section owns its page: its title is the line that prints it
        key = _norm(n.title)[:20]
        for j, ln in enumerate(lines):
            if key and _norm(ln.text)[:20] and (key.startswith(_norm(ln.text)[:20]) or _norm(ln.text).startswith(key)):
                return j
        return None
    return _line_at(lines, n.start.char)


def _same_type(a: Line, b: Line) -> bool:
    return abs(a.size - b.size) < SAME_SIZE and a.bold == b.bold and a.italic == b.italic \
        and (a.family == b.family or a.font == b.font)


def wrapped_half(doc: SourceDoc, a: Node, b: Node) -> bool:
    """``b`` starts on ``a``'s page right under ``a``'s last title line, in its type, unlabelled."""
    if b.start.unit != a.start.unit or b.start.char <= a.start.char:
        return False
    lines = doc.lines(a.start.unit)
    jb = _line_at(lines, b.start.char)
    ja = _first_line(doc, a)
    if jb is None or ja is None or jb <= ja:
        return False
    own = doc.units[a.start.unit].text[lines[ja].char:lines[jb].char]
    if len(_norm(own)) > len(_norm(a.title)) + 4:
        return False  # the node has text of its own between its title and the next node
    above, below = lines[jb - 1], lines[jb]
    if not _same_type(above, below) or not _same_type(lines[ja], below):
        return False
    if not PITCH[0] * below.size <= below.y0 - above.y0 <= PITCH[1] * below.size:
        return False
    return not _LABEL.match(b.title.strip())


def _bullet(text: str) -> bool:
    """A list item's glyph: a bullet, a dash, a symbol font's private-use glyph, a lone ``o``."""
    t = text.strip()
    return bool(t) and (t[0] in _BULLETS and t[1:2] in (" ", "\u00a0", "") or "\uf000" <= t[0] <= "\uf0ff")


def lead_in(doc: SourceDoc, n: Node) -> bool:
    """The node's title line opens a list item: a bullet glyph in its text or a glyph printed alone just
    left of it on its baseline."""
    j = _first_line(doc, n)
    if j is None:
        return False
    lines = doc.lines(n.start.unit)
    line = lines[j]
    if _bullet(line.text) and len(line.text.strip()) > 1:
        return True
    return any(_bullet(o.text) and len(o.text.strip()) == 1 and o.x1 <= line.x0 + 1 and line.x0 - o.x1 < 40
               and abs(o.y0 - line.y0) < 0.4 * line.size for o in lines)


def _norm_cell(text: str) -> str:
    return " ".join(text.split()).casefold()


def table_cell(doc: SourceDoc, n: Node) -> bool:
    """The node's title line sits inside a table detected on its page and is one of its cells: a column
    heading or a row label, in a row with other cells filled (a heading absorbed whole into a table's box
    is not counted)."""
    title = _norm_cell(n.title)
    j = _first_line(doc, n)
    if j is None:
        return False
    line = doc.lines(n.start.unit)[j]
    mx, my = (line.x0 + line.x1) / 2, (line.y0 + line.y1) / 2
    for t in doc.tables:
        if t.unit != n.start.unit or t.bbox is None:
            continue
        if not (t.bbox[0] - 2 <= mx <= t.bbox[2] + 2 and t.bbox[1] - 2 <= my <= t.bbox[3] + 2):
            continue  # the title is printed outside the table (a heading over it naming a row)
        for k, row in enumerate(t.rows):
            filled = [c for c in row if c.strip()]
            if len(filled) < 2:
                continue
            header = k < t.header_rows
            cells = filled if header else filled[:1]
            if any(_norm_cell(c) == title for c in cells):
                return True
    return False


def _preorder(roots: Iterable[Node]) -> list[Node]:
    out: list[Node] = []
    for r in roots:
        out.extend(r.walk())
    return out


def check(path: Path, build: bool) -> tuple[int, list[tuple[str, str, str]]]:
    doc = read(path)
    settings = BuildSettings() if build else BuildSettings(ignore_outline=True, subdivide=False,
                                                             prompt_version="eval")
    roots, _ = build_nodes(doc, settings)
    nodes = [n for n in _preorder(roots) if n.origin.value not in NOT_PREDICTIONS]
    found: list[tuple[str, str, str]] = []
    for a, b in zip(nodes, nodes[1:], strict=False):
        if wrapped_half(doc, a, b):
            found.append(("wrapped", a.title, b.title))
    for n in nodes:
        if lead_in(doc, n):
            found.append(("lead-in", n.title, ""))
        elif table_cell(doc, n):
            found.append(("table", n.title, ""))
    return len(nodes), found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every node counted")
    ap.add_argument("--build", action="store_true", help="the default build's tree, not the eval view")
    ap.add_argument("--only", default="", help="only files whose name contains this")
    args = ap.parse_args()
    print(f"{'folder':40s} {'docs':>5s} {'nodes':>6s} {'wrapped':>8s} {'lead-in':>8s} {'table':>6s}")
    for folder in args.folders:
        totals = {"wrapped": 0, "lead-in": 0, "table": 0}
        docs = nodes = 0
        rows: list[str] = []
        for path in sorted(Path(folder).glob("*.pdf")):
            if args.only and args.only not in path.name:
                continue
            try:
                count, found = check(path, args.build)
            except Exception as exc:  # a bad file is reported, the folder goes on
                rows.append(f"  {path.name}: {type(exc).__name__}: {exc}")
                continue
            docs += 1
            nodes += count
            for kind, a, b in found:
                totals[kind] += 1
                rows.append(f"  {path.name} {kind}: {a!r}" + (f" / {b!r}" if b else ""))
        print(f"{folder:40s} {docs:5d} {nodes:6d} {totals['wrapped']:8d} {totals['lead-in']:8d} {totals['table']:6d}",
              flush=True)
        if args.verbose:
            print("\n".join(rows), flush=True)


if __name__ == "__main__":
    main()
