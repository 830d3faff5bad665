"""Tables on PDF pages (issue 24 item 5): how many, how they read on statement pages, and what the pass costs.

For every PDF of the folders given:

- the pages the cheap test calls tabular and the tables found on them;
- statement pages: pages whose text carries a primary statement's title (balance sheet, income/operations,
  comprehensive income, cash flows, equity) in capitals or title case near its top. On each, the check wants
  a table with at least 10 body rows, header rows, a label column and a ``Total ...`` or ``Net ...`` row label
  (a grid that reads right), and counts cut words: label cells that start in lower case (``oodwill``);
- the CPU time of the table pass per page (``looks_tabular`` on every page, ``page_tables`` on the tabular
  ones) against the CPU time of reading the page text it runs on.

``--compare`` runs PyMuPDF's ``find_tables`` (its ``lines`` and ``text`` strategies) and, when installed,
pdfplumber's ``extract_tables`` (``text`` strategy) on the same statement pages, with the same checks.

    .venv/bin/python bench/tables_eval.py /work/shared/corpus/filings /work/shared/corpus/pdf [--compare]
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pymupdf

from treebuild.model import is_figure
from treebuild.readers.pdf_tables import looks_tabular, page_tables

_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
STATEMENT = re.compile(r"^\s*(?:CONDENSED\s+)?CONSOLIDATED\s+(?:BALANCE\s+SHEETS?|STATEMENTS?\s+OF\s+"
                       r"(?:INCOME|OPERATIONS|EARNINGS|COMPREHENSIVE\s+(?:INCOME|LOSS|EARNINGS)|CASH\s+FLOWS|"
                       r"(?:CHANGES\s+IN\s+)?(?:SHAREHOLDERS|STOCKHOLDERS|SHAREOWNERS)['’]?\s+EQUITY|FINANCIAL\s+"
                       r"POSITION))\s*$", re.I | re.M)
TOP_CHARS = 400  # the title stands near the page's top
_TOTAL = re.compile(r"^(?:Total|Net)\b")  # a statement's grid has a total or net line among its row labels


def grid_ok(rows: Sequence[Sequence[str]], header_rows: int, labels: bool) -> tuple[bool, int]:
    """(reads right, cut words) for one grid: 10+ body rows, header rows, a label column with a Total row."""
    body = rows[header_rows:]
    first = [r[0] for r in body if r and r[0]] if labels else []
    cut = sum(1 for r in rows for c in r[:1] if c and c[0].islower())
    ok = len(body) >= 10 and header_rows >= 1 and labels and any(_TOTAL.match(c) for c in first)
    return ok, cut


def ours(page: pymupdf.Page, index: int) -> list[tuple[list[list[str]], int, bool]]:
    tp = page.get_textpage(flags=_FLAGS)
    text = tp.extractText()
    return [([list(r) for r in t.rows], t.header_rows, bool(t.label_columns))
            for t in page_tables(tp.extractWORDS(), text, unit=index, page=index + 1)]


def pymupdf_finder(strategy: str) -> Callable[[pymupdf.Page, int], list[tuple[list[list[str]], int, bool]]]:
    def find(page: pymupdf.Page, _index: int) -> list[tuple[list[list[str]], int, bool]]:
        kw = {"strategy": "lines"} if strategy == "lines" else {"vertical_strategy": "text",
                                                                 "horizontal_strategy": "text"}
        out = []
        for t in page.find_tables(**kw).tables:
            rows = [[" ".join((c or "").split()) for c in r] for r in t.extract()]
            head = 1 if t.header and not t.header.external else 0
            out.append((rows, head, _labels(rows[head:])))
        return out
    return find


def _labels(body: Sequence[Sequence[str]]) -> bool:
    first = [r[0] for r in body if r and r[0]]
    return bool(first) and sum(not is_figure(c) for c in first) >= 0.6 * len(first)


def plumber_finder(path: Path) -> Callable[[pymupdf.Page, int], list[tuple[list[list[str]], int, bool]]] | None:
    try:
        import pdfplumber
    except ImportError:
        return None
    pdf = pdfplumber.open(path)

    def find(_page: pymupdf.Page, index: int) -> list[tuple[list[list[str]], int, bool]]:
        tables = pdf.pages[index].extract_tables({"vertical_strategy": "text", "horizontal_strategy": "text"})
        out = []
        for t in tables:
            rows = [[" ".join((c or "").split()) for c in r] for r in t]
            out.append((rows, 1, _labels(rows[1:])))  # pdfplumber names no header: count the first row as one
        return out
    return find


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--compare", action="store_true", help="also run find_tables and pdfplumber on statement pages")
    args = ap.parse_args()
    names = ["treebuild"] + (["find_tables lines", "find_tables text", "pdfplumber text"] if args.compare else [])
    totals = {n: [0, 0, 0, 0.0] for n in names}  # statement pages read right, cut words, pages, seconds
    pages = tabular = tables = 0
    text_cpu = pass_cpu = 0.0
    for folder in args.folders:
        for path in sorted(folder.glob("*.pdf")):
            doc = pymupdf.open(path)
            statements: list[int] = []
            n_tab = n_tables = 0
            for i, page in enumerate(doc):
                t0 = time.process_time()
                tp = page.get_textpage(flags=_FLAGS)
                text = tp.extractText()
                t1 = time.process_time()
                if looks_tabular(text):
                    n_tab += 1
                    n_tables += len(page_tables(tp.extractWORDS(), text, unit=i, page=i + 1))
                t2 = time.process_time()
                text_cpu += t1 - t0
                pass_cpu += t2 - t1
                if STATEMENT.search(text[:TOP_CHARS]):
                    statements.append(i)
            pages += len(doc)
            tabular += n_tab
            tables += n_tables
            finders: dict[str, Callable[[pymupdf.Page, int], list[tuple[list[list[str]], int, bool]]] | None] = {
                "treebuild": ours}
            if args.compare:
                finders |= {"find_tables lines": pymupdf_finder("lines"), "find_tables text": pymupdf_finder("text"),
                            "pdfplumber text": plumber_finder(path)}
            line = [f"{path.name[:44]:44s} {len(doc):4d} p, tabular {n_tab:3d}, tables {n_tables:3d}, statements"
                    f" {len(statements):2d}"]
            for name, finder in finders.items():
                if finder is None:
                    continue
                good = cut = 0
                t0 = time.process_time()
                for i in statements:
                    found = finder(doc[i], i)
                    checks = [grid_ok(rows, head, labels) for rows, head, labels in found]
                    good += any(ok for ok, _ in checks)
                    cut += sum(c for _, c in checks)
                dt = time.process_time() - t0
                totals[name][0] += good
                totals[name][1] += cut
                totals[name][2] += len(statements)
                totals[name][3] += dt
                line.append(f"{name}: {good}/{len(statements)} read right, {cut} cut")
            print(" | ".join(line))
    print(f"\nALL: {pages} pages, {tabular} tabular ({tabular / max(pages, 1):.0%}), {tables} tables; table pass "
          f"{1000 * pass_cpu / max(pages, 1):.2f} ms CPU a page ({pass_cpu / max(text_cpu, 1e-9):.0%} of the CPU "
          f"time of reading the page text, {1000 * text_cpu / max(pages, 1):.2f} ms a page)")
    for name, (good, cut, n, secs) in totals.items():
        if n:
            print(f"statement pages, {name:18s}: {good}/{n} read right ({good / n:.0%}), {cut} cut label cells, "
                  f"{1000 * secs / n:.1f} ms CPU a page")


if __name__ == "__main__":
    main()
