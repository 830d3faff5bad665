"""EDGAR filings read from their HTML: found / expected per filing against hand labels (issue 27).

For each filing of a folder that ``bench/html_labels.json`` labels, the tree is built offline
(extractive summaries, no model) and scored:

- Items: every standard Part and Item the filing prints is a node, in form order, whose title
  opens with that Part or Item, whose text starts with it (among its first four lines: a running
  head may come first), on the printed page the labels give;
- statements: each primary statement is a node (title at least 0.85 similar, ``(Unaudited)`` and
  case aside) starting on its printed page;
- notes: each note is a node whose title opens with its number (``Note 4``, ``4.``) on its printed page.

A node's page is its start unit's printed label (the folio the reader took from the page). Also
printed: MB of HTML per CPU second for reading and for reading + structure, and peak memory over the
file size, measured in a fresh process per file after a warm-up read (RSS growth, ``VmHWM``; and
Python's own allocations, tracemalloc).

The same filing printed to PDF by Chromium (``--pdf DIR``: ``DIR/<name>.pdf``, made with
``chromium --headless --no-pdf-header-footer --print-to-pdf=DIR/<name>.pdf <name>.html``) is built too
and the top two levels of both trees compared (titles and depths, in order; ``pairs`` counts the
filings whose two levels are the same).

    nice -n 10 .venv/bin/python bench/html_filings.py /work/shared/corpus/html
    ... --misses      # the expected entries not found, with what the tree has near them
    ... --pdf /tmp/pdfs   # + the top two levels against the filing printed to PDF
    ... --big 50      # also a generated 50 MB page (prose, tables, folios, page breaks): speed and memory
    ... --flat 5      # also a generated 5 MB page of prose under styled heads, without page breaks (the layout
                      # view's worst case: text is 95% of its bytes, read as block units and laid out again)
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from rapidfuzz import fuzz

LABELS = Path(__file__).with_name("html_labels.json")
MB = 1 << 20
_ITEM = re.compile(r"^\s*(part|item)\s+([0-9]{1,2}[a-c]?|[ivx]{1,4})\b", re.IGNORECASE)
_NOTE = re.compile(r"^\s*(?:note\s+)?([0-9]{1,2})\s*(?:[-\u2013\u2014.:]|\s)", re.IGNORECASE)


def _norm(text: str) -> str:
    text = re.sub(r"\((?:unaudited|in millions[^)]*)\)", " ", text, flags=re.IGNORECASE)
    return " ".join(re.sub(r"[^\w]+", " ", text.replace("\u2019", "'")).casefold().split())


def _item_key(text: str) -> str | None:
    m = _ITEM.match(text)
    return f"{m.group(1).lower()} {m.group(2).upper()}" if m else None


def _opens_with(text: str, key: str | None) -> bool:
    """The node's text opens with the Part or Item: on one of its first lines (a page's running head
    or the Part line above an Item may come first, as on the paper page)."""
    lines = [ln for ln in text.splitlines() if ln.strip()][:_HEAD_LINES]
    return any(_item_key(ln) == key for ln in lines)


_HEAD_LINES = 4


def score(tree, labels: dict, misses: bool = False) -> dict[str, tuple[int, int]]:
    nodes = [n for n in tree.walk() if n.origin not in ("preface", "window")]
    units = tree.doc.units

    def page(n) -> str | None:
        return units[n.start.unit].label

    out: dict[str, tuple[int, int]] = {}
    found = 0
    k = 0
    for label, want in labels["items"]:
        key = _item_key(label)
        hit = None
        for j in range(k, len(nodes)):
            n = nodes[j]
            if _item_key(n.title) == key and page(n) == want and _opens_with(n.text(), key):
                hit = j
                break
        if hit is not None:
            found += 1
            k = hit + 1
        elif misses:
            near = [f"{n.title[:50]!r} p.{page(n)}" for n in nodes if _item_key(n.title) == key]
            print(f"    missed {label} p.{want}; tree: {', '.join(near) or 'none'}")
    out["items"] = (found, len(labels["items"]))
    found = 0
    for title, want in labels["statements"]:
        ok = any(fuzz.ratio(_norm(title), _norm(n.title)) >= 85 and page(n) == want for n in nodes)
        found += ok
        if not ok and misses:
            near = [f"{n.title[:50]!r} p.{page(n)}" for n in nodes
                    if fuzz.partial_ratio(_norm(title), _norm(n.title)) >= 85]
            print(f"    missed statement {title!r} p.{want}; tree: {', '.join(near[:3]) or 'none'}")
    out["statements"] = (found, len(labels["statements"]))
    found = 0
    for label, want in labels["notes"]:
        number = label.split()[-1]
        ok = False
        for n in nodes:
            m = _NOTE.match(n.title)
            if m and m.group(1) == number and page(n) == want:
                ok = True
                break
        found += ok
        if not ok and misses:
            print(f"    missed {label} p.{want}")
    out["notes"] = (found, len(labels["notes"]))
    return out


def top_two(tree) -> list[tuple[str, int]]:
    """The tree's first two levels: (title, depth) in preorder, the preface aside."""
    return [(" ".join(n.title.split()), n.depth) for n in tree.walk() if n.depth <= 2 and n.origin != "preface"]


def _big(megabytes: float, flat: bool = False) -> None:
    """A generated page of ``megabytes`` MB read and built in a fresh process: CPU seconds and memory.
    ``flat``: prose under styled ``<div>`` heads and nothing else (no page breaks, folios, tables or
    ``<h1>``-``<h6>``), so the structure stage reads the layout view."""
    import tempfile

    if flat:
        para = "<p>" + "The system reads each request and writes a record of what it found. " * 10 + "</p>"
        page = ('<div style="font-size:16px;font-weight:bold;margin-top:12px">{k}. Section {k}</div>'
                + para * 6)
    else:
        para = ("<div style=\"text-align:justify\"><span style=\"font-size:10pt\">" + "The company reviewed its "
                "operations during the quarter and found them in order. " * 12 + "</span></div>")
        table = ("<table style=\"width:100%\"><tr><td style=\"width:70%\">Revenue</td><td style=\"width:30%;"
                 "text-align:right\">$<ix:nonFraction name=\"us-gaap:Revenues\">1,000</ix:nonFraction></td></tr>"
                 "</table>")
        page = (para * 4 + table) * 8
    n = int(megabytes * MB) // (len(page) + (0 if flat else 80))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.html"
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("<html><body>")
            for k in range(1, n + 1):
                fh.write(page.replace("{k}", str(k)) if flat else
                         f"{page}<div style=\"text-align:center\">{k}</div><hr style=\"page-break-after:always\"/>")
            fh.write("</body></html>")
        warm = Path(tmp) / "warm.html"
        if flat:  # the warm-up takes the same path (block units, the layout view)
            warm.write_text("<html><body>" + "".join(page.replace("{k}", str(k)) for k in (1, 2, 3)) + "</body></html>")
        else:
            warm.write_text(f"<html><body>{page}<hr style=\"page-break-after:always\"/>{page}</body></html>")
        run = subprocess.run([sys.executable, __file__, tmp, "--memory", str(path), str(warm)], capture_output=True,
                             text=True, check=False)
        size = path.stat().st_size
        t0 = time.process_time()
        from treebuild.pipeline import build_doc
        from treebuild.readers import read
        from treebuild.settings import BuildSettings

        doc = read(path)
        t1 = time.process_time()
        tree = build_doc(doc, BuildSettings(subdivide=False))
        structure = tree.stats["stage_seconds"]["structure"]
        mem = json.loads(run.stdout.strip().splitlines()[-1]) if run.returncode == 0 and run.stdout.strip() else {}
        pages = f"{doc.page_count} pages" if doc.page_count else f"{len(doc.units)} blocks, {tree.stats['nodes']} nodes"
        print(f"generated {size / MB:.1f} MB, {pages}: read {size / MB / (t1 - t0):.1f} MB/s, read + "
              f"structure {size / MB / (t1 - t0 + structure):.1f} MB/s; RSS x {mem.get('rss', float('nan')):.1f}, "
              f"python x {mem.get('python', float('nan')):.1f}")


def _peak_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _memory(path: str, warm: str) -> None:
    """In a fresh process: RSS growth and Python's peak over the file size, reading and building."""
    from treebuild.pipeline import build
    from treebuild.settings import BuildSettings

    build(warm, BuildSettings())  # imports, caches: what every file's build pays once
    size = Path(path).stat().st_size
    before = _peak_kib()
    build(path, BuildSettings())
    rss = (_peak_kib() - before) * 1024 / size
    tracemalloc.start()  # a second build for Python's own peak (tracing inflates the RSS: measured apart)
    build(path, BuildSettings())
    _cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(json.dumps({"rss": rss, "python": peak / size}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--no-memory", action="store_true", help="skip the per-file memory processes")
    ap.add_argument("--pdf", type=Path, help="folder of the filings printed to PDF (<name>.pdf)")
    ap.add_argument("--big", type=float, help="also read and build a generated page of this many MB")
    ap.add_argument("--flat", type=float, help="... and a generated page of prose without page breaks of this many MB")
    ap.add_argument("--memory", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.memory:
        _memory(*args.memory)
        return
    if args.big:
        _big(args.big)
    if args.flat:
        _big(args.flat, flat=True)
    from treebuild.pipeline import build_doc
    from treebuild.readers import read
    from treebuild.settings import BuildSettings

    labels = json.loads(LABELS.read_text())["filings"]
    files = [args.folder / name for name in sorted(labels) if (args.folder / name).exists()]
    read(files[0])  # warm-up: imports
    print(f"{'filing':28} {'items':>7} {'stmts':>7} {'notes':>7} {'read MB/s':>9} {'+struct':>8} "
          f"{'RSS x':>6} {'py x':>5}")
    totals = {"items": [0, 0], "statements": [0, 0], "notes": [0, 0]}
    size_total = read_total = struct_total = 0.0
    worst_rss = worst_py = 0.0
    pairs = [0, 0]
    for path in files:
        size = path.stat().st_size
        t0 = time.process_time()
        doc = read(path)
        t1 = time.process_time()
        tree = build_doc(doc, BuildSettings(subdivide=False))
        structure = tree.stats["stage_seconds"]["structure"]
        result = score(tree, labels[path.name], args.misses)
        for key, (f, e) in result.items():
            totals[key][0] += f
            totals[key][1] += e
        size_total += size
        read_total += t1 - t0
        struct_total += structure
        mem = {"rss": float("nan"), "python": float("nan")}
        if not args.no_memory:
            run = subprocess.run([sys.executable, __file__, str(args.folder), "--memory", str(path), str(files[0])],
                                 capture_output=True, text=True, check=False)
            if run.returncode == 0 and run.stdout.strip():
                mem = json.loads(run.stdout.strip().splitlines()[-1])
                worst_rss, worst_py = max(worst_rss, mem["rss"]), max(worst_py, mem["python"])
        if args.pdf is not None and (args.pdf / f"{path.stem}.pdf").exists():
            pdf_tree = build_doc(read(args.pdf / f"{path.stem}.pdf"), BuildSettings(subdivide=False))
            same = top_two(tree) == top_two(pdf_tree)
            pairs[0] += same
            pairs[1] += 1
            if not same and args.misses:
                for a, b in zip(top_two(tree) + [("", 0)] * 99, top_two(pdf_tree) + [("", 0)] * 99, strict=False):
                    if a != b:
                        print(f"    HTML {a} / PDF {b}")
                        break
        cells = " ".join(f"{f:>3}/{e:<3}" for f, e in result.values())
        print(f"{path.stem:28} {cells} {size / MB / (t1 - t0):>9.1f} {size / MB / (t1 - t0 + structure):>8.1f} "
              f"{mem['rss']:>6.1f} {mem['python']:>5.1f}")
    cells = " ".join(f"{f:>3}/{e:<3}" for f, e in totals.values())
    both = size_total / MB / (read_total + struct_total)
    print(f"{'all':28} {cells} {size_total / MB / read_total:>9.1f} {both:>8.1f}"
          f" {worst_rss:>6.1f} {worst_py:>5.1f}  (MB/s: CPU seconds; memory: the worst file)")
    if pairs[1]:
        print(f"top two levels the same as the filing printed to PDF: {pairs[0]}/{pairs[1]}")


if __name__ == "__main__":
    main()
