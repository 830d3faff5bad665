"""Which HTML parser the HTML reader uses, by measurement (issue 27).

Each candidate parses every file of a folder and walks the whole tree once, reading what the reader
reads of each element (its tag, its ``style`` attribute, its text and tail): the parse alone is not
the cost that matters, the walk over ~100,000 elements a filing is too. Printed per parser: MB/s of
HTML (parse, parse + walk), peak Python memory over the file size (tracemalloc: lxml's and lexbor's
own C allocations are not all seen, so the RSS growth of a fresh process is printed too), elements
seen. Parsers that are not installed are skipped (``pip install selectolax html5lib beautifulsoup4``
to measure them all; the reader depends on lxml only).

    nice -n 10 .venv/bin/python bench/html_parsers.py /work/shared/corpus/html
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

MB = 1 << 20


def _lxml_xml(raw: bytes) -> int:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, remove_comments=True)
    root = etree.fromstring(raw, parser)
    return _walk_lxml(root)


def _lxml_html(raw: bytes) -> int:
    from lxml import etree

    parser = etree.HTMLParser(no_network=True, huge_tree=True, remove_comments=True)
    root = etree.fromstring(raw, parser)
    return _walk_lxml(root)


def _walk_lxml(root: object) -> int:
    n = 0
    chars = 0
    for el in root.iter():  # type: ignore[attr-defined]
        n += 1
        el.get("style")
        chars += len(el.text or "") + len(el.tail or "")
    return n


def _selectolax(raw: bytes) -> int:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(raw)
    n = 0
    root = tree.root
    assert root is not None
    for node in root.traverse(include_text=True):
        n += 1
        if node.tag == "-text":
            node.text_content  # noqa: B018 - the walk reads it, as the reader would
        else:
            node.attributes.get("style")
    return n


def _html5lib(raw: bytes) -> int:
    import html5lib

    root = html5lib.parse(raw, treebuilder="lxml", namespaceHTMLElements=False)
    return _walk_lxml(root.getroot())


def _bs4(raw: bytes) -> int:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(raw, "lxml")
    n = 0
    for el in soup.descendants:
        n += 1
        if hasattr(el, "get"):
            el.get("style")
    return n


PARSERS: dict[str, Callable[[bytes], int]] = {
    "lxml-xml": _lxml_xml, "lxml-html": _lxml_html, "selectolax": _selectolax,
    "html5lib": _html5lib, "bs4-lxml": _bs4,
}
_MODULES = {"lxml-xml": "lxml", "lxml-html": "lxml", "selectolax": "selectolax", "html5lib": "html5lib",
            "bs4-lxml": "bs4"}


def _child(name: str, path: str) -> None:
    """One parse in a fresh process: prints the RSS growth (KiB) as JSON."""
    raw = Path(path).read_bytes()
    __import__(_MODULES[name])
    before = _peak_kib()
    PARSERS[name](raw)
    print(json.dumps({"rss_kib": _peak_kib() - before}))


def _peak_kib() -> int:
    """This process's peak resident memory (``VmHWM``; ``ru_maxrss`` keeps the parent's across ``exec``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # html5lib and bs4 warn about XHTML names on every file
    if args.child:
        _child(*args.child)
        return
    files = sorted(p for p in args.folder.iterdir() if p.suffix.lower() in (".htm", ".html", ".xhtml"))
    total = sum(p.stat().st_size for p in files)
    print(f"{len(files)} files, {total / MB:.1f} MB")
    print(f"{'parser':12} {'parse MB/s':>10} {'+walk MB/s':>10} {'RSS x file':>10} {'elements':>10}")
    for name, fn in PARSERS.items():
        try:
            __import__(_MODULES[name])
        except ImportError:
            print(f"{name:12} not installed")
            continue
        parse_s = walk_s = 0.0
        elements = 0
        ratios = []
        for p in files:
            raw = p.read_bytes()
            gc.collect()
            t0 = time.process_time()
            if name.startswith("lxml"):
                from lxml import etree

                parser = (etree.XMLParser(huge_tree=True, no_network=True) if name == "lxml-xml"
                          else etree.HTMLParser(huge_tree=True, no_network=True))
                try:
                    etree.fromstring(raw, parser)
                except etree.XMLSyntaxError:
                    pass
            t1 = time.process_time()
            try:
                elements += fn(raw)
            except Exception as exc:  # a parser that cannot read the file: say so, go on
                print(f"{name:12} {p.name}: {type(exc).__name__}: {exc}")
                continue
            t2 = time.process_time()
            parse_s += t1 - t0
            walk_s += t2 - t1
            out = subprocess.run([sys.executable, __file__, str(p), "--child", name, str(p)],
                                 capture_output=True, text=True, check=False)
            if out.returncode == 0 and out.stdout.strip():
                ratios.append(json.loads(out.stdout.strip().splitlines()[-1])["rss_kib"] * 1024 / p.stat().st_size)
        parse_rate = f"{total / MB / parse_s:.1f}" if parse_s and name.startswith("lxml") else "-"
        ratio = f"{max(ratios):.1f}" if ratios else "-"
        print(f"{name:12} {parse_rate:>10} {total / MB / walk_s:>10.1f} {ratio:>10} {elements:>10}")


if __name__ == "__main__":
    main()
