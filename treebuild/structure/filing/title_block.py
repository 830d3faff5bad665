"""A statement or table page's title block under the registrant's name: the typography scan's
``TitleBlock`` hook (``scan_headings(..., title_block=statement_title_block)``).

An earnings release or a filing's statement pages print the company's name in bold over the
page's title (``PepsiCo, Inc. and Subsidiaries`` over ``Consolidated Statement of Income``), then
the period and legend lines: the title is a section however small its type. Under the filing's
own Part and Item headings on the same page (``Item 1. Financial Statements`` over the name), the
block starts mid-page at the name: the statement is a section of its own beside the Item's.
"""

from __future__ import annotations

from dataclasses import replace

from ...model import Line
from ...text.normalize import squash_spaces
from ..typography.filters import CONTINUED, clean_title
from ..typography.model import PageTitle, Row
from ..typography.rows import all_caps, join_rows
from .items import form_label
from .patterns import COMPANY_LINE, COMPANY_TITLED, LEGEND_LINE, PERIOD_LINE, STATEMENT_TITLE

__all__ = ["statement_title_block"]

BLOCK_LEADING = 1.0
"""The lines of a title block are at most this share of their type size apart (a centred block sets its
lines a little apart: 2 points between 10-point lines; a table's header under it sits further down)."""


def statement_title_block(run: list[Row], top: float, lines: list[Line]) -> PageTitle | None:
    """The page's title (the rows naming it, where its block starts when the filing's Part or Item
    headings sit above it, and its period line) when ``run`` (``top`` the page's first row's height;
    ``lines`` the page's) is a title block under the registrant's name, else ``None``."""
    if not (run[0].bold or all_caps(run[0].text)):
        return None
    start: int | None = None
    if run[0].y0 > top + 1.0:
        name = _company_over(run[0], top, lines)
        if name is None:
            return None
        start = None if name.y0 <= top + 1.0 else name.char
    elif not _under_company(run, lines):
        return None
    title, period = _block_title(_block_rows(run, lines))
    return PageTitle(title, start, period)


def _under_company(run: list[Row], lines: list[Line]) -> bool:
    """The page's first rows are a title block under the registrant's name, in bold (``PepsiCo, Inc.
    and Subsidiaries`` over ``Consolidated Statement of Income``; the name may repeat atop every
    page, as furniture): a statement or table page's title, whatever its size (a release sets them
    in a smaller type than its text). The name is not part of the title."""
    if (len(run) >= 2 and COMPANY_LINE.search(run[0].text.strip())) or COMPANY_TITLED.match(run[0].text.strip()):
        return True
    for above in reversed(lines[:run[0].first]):  # the block's bold lines above, furniture on every such page
        if not (above.bold or all_caps(above.text)):
            return False
        if COMPANY_LINE.search(above.text.strip()):
            return True
    return False


def _company_over(row: Row, top: float, lines: list[Line]) -> Line | None:
    """The registrant's name over a statement's title (not the notes' or another heading under the
    name) set in a row of its own, further above the title than the title's line spacing (``Apple
    Inc.`` over ``CONDENSED CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY``): every line above the
    title is bold (or capitals), the name is the page's first row or comes right under the filing's
    own Part and Item headings (``PART I`` and ``Item 1. Financial Statements`` over the name: the
    statement starts at the name, mid-page, after the Item's heading). A name under any other text
    is no title block."""
    if not STATEMENT_TITLE.match(row.text.strip()):
        return None
    above = sorted((ln for ln in lines if ln.text.strip() and ln.y1 <= row.y0 + 1.0), key=lambda ln: ln.y0)
    if not above or above[0].y0 > top + 1.0 or not all(ln.bold or all_caps(ln.text) for ln in above):
        return None
    k = next((i for i, ln in enumerate(above) if COMPANY_LINE.search(ln.text.strip())), None)
    if k is None or not all(_form_heading(ln.text) for ln in above[:k]):
        return None
    return above[k]


def _form_heading(text: str) -> bool:
    """``PART I — FINANCIAL INFORMATION``, ``Item 1. Financial Statements``: a Part or Item heading of the form."""
    return any(form_label(text.strip(), kind) is not None for kind in ("part", "item"))


def _block_rows(run: list[Row], lines: list[Line]) -> list[Row]:
    """The rows of the title block ``run`` opens or sits in, top down, read from all the page's lines
    (a title row printed atop every such page is furniture to the heading scan, not to the block:
    ``Reconciliation of GAAP and Non-GAAP Information (continued)``, a legend): the continued title rows
    close above the run (not a running head such as ``FORM 10-Q`` over an ``INDEX``), and the rows close
    under it while they are set as a title (bold or capitals) or, once the period or the legend has
    begun, are period or legend rows."""
    rows = sorted(join_rows(lines, set()), key=lambda r: (r.y0, r.x0))
    k = next((i for i, r in enumerate(rows) if run[0].first in r.members), None)
    if k is None:
        return run
    i = k
    while i > 0 and _close(rows[i - 1], rows[i]) and _set_as_title(rows[i - 1]) and CONTINUED.search(rows[i - 1].text):
        i -= 1
    j, qualified = k, False
    while j + 1 < len(rows) and _close(rows[j], rows[j + 1]):
        qualified = qualified or _qualifier(rows[j].text)
        if not (_qualifier(rows[j + 1].text) or (not qualified and _set_as_title(rows[j + 1]))):
            break
        j += 1
    return rows[i:j + 1]


def _qualifier(text: str) -> bool:
    """A period or legend row (``Quarters Ended ...``, ``(in millions)``)."""
    text = squash_spaces(text)
    return bool(PERIOD_LINE.match(text) or LEGEND_LINE.match(text))


def _close(above: Row, row: Row) -> bool:
    """``row`` is the next line of ``above``'s block: no further under it than a block's line spacing."""
    return row.y0 > above.y0 + 1.0 and row.y0 - above.y1 <= BLOCK_LEADING * max(above.size, row.size)


def _set_as_title(row: Row) -> bool:
    return row.bold or all_caps(row.text)


def _company(text: str) -> bool:
    text = text.strip()
    return bool(COMPANY_LINE.search(text) or COMPANY_TITLED.match(text))


def _block_title(block: list[Row]) -> tuple[list[Row], str]:
    """The rows that name a page's title block (``_block_rows``) and its period line: not the
    registrant's name (a table's title printed after it, ``PFIZER INC. - REVENUES``, is the title's),
    the title rows without ``(continued)`` (``Reconciliation of GAAP and Non-GAAP Information
    (continued)`` over ``Year over Year Growth Rates``: both name the page; a page that only continues
    a statement is titled as the statement, and ``page_title_series`` joins it to the statement's
    section), and nothing from the period or legend down (``Quarter and Year Ended December 31, 2022``,
    ``(unaudited)``), the period kept apart."""
    out: list[Row] = []
    period: list[str] = []
    for row in block:
        text = squash_spaces(row.text)
        if not out and not period and _company(text):
            m = COMPANY_TITLED.match(text)
            if m is not None:
                out.append(replace(row, text=m.group("title")))
            continue
        if LEGEND_LINE.match(text):
            continue
        if PERIOD_LINE.match(text):
            period.append(clean_title(text))
            continue
        if period:
            break
        text = CONTINUED.sub("", text).strip(" -\u2013\u2014,:")
        if text:
            out.append(replace(row, text=text))
    return out, " ".join(period)
