"""A statement or table page's title block under the registrant's name: the typography scan's
``TitleBlock`` hook (``scan_headings(..., title_block=statement_title_block)``).

An earnings release or a filing's statement pages print the company's name in bold over the
page's title (``PepsiCo, Inc. and Subsidiaries`` over ``Consolidated Statement of Income``), then
the period and legend lines: the title is a section however small its type. Under the filing's
own Part and Item headings on the same page (``Item 1. Financial Statements`` over the name), the
block starts mid-page at the name: the statement is a section of its own beside the Item's.
"""

from __future__ import annotations

from ...model import Line
from ..typography.filters import CONTINUED
from ..typography.model import PageTitle, Row
from ..typography.rows import all_caps
from .items import form_label
from .patterns import COMPANY_LINE, PERIOD_LINE, STATEMENT_TITLE

__all__ = ["statement_title_block"]


def statement_title_block(run: list[Row], top: float, lines: list[Line]) -> PageTitle | None:
    """The page's title (the rows naming it, and where its block starts when the filing's Part or
    Item headings sit above it) when ``run`` (``top`` the page's first row's height; ``lines`` the
    page's) is a title block under the registrant's name, else ``None``."""
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
    named = len(run) > 1 and bool(COMPANY_LINE.search(run[0].text.strip()))
    return PageTitle(_block_title(run, named), start)


def _under_company(run: list[Row], lines: list[Line]) -> bool:
    """The page's first rows are a title block under the registrant's name, in bold (``PepsiCo, Inc.
    and Subsidiaries`` over ``Consolidated Statement of Income``; the name may repeat atop every
    page, as furniture): a statement or table page's title, whatever its size (a release sets them
    in a smaller type than its text). The name is not part of the title."""
    if len(run) >= 2 and COMPANY_LINE.search(run[0].text.strip()):
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


def _block_title(run: list[Row], named: bool) -> list[Row]:
    """The rows that name a page's title block (``_under_company``): not the registrant's name
    (``named``), not a continued title's row and those above it (``Reconciliation of GAAP and
    Non-GAAP Information (continued)`` over ``Year over Year Growth Rates``: the page's own title is
    the row under it), and nothing from the period or legend down (``Quarter and Year Ended
    December 31, 2022``, ``(unaudited)``). Empty on a page that only continues a statement."""
    out: list[Row] = []
    for row in run[1 if named else 0:]:
        text = row.text.strip()
        if PERIOD_LINE.match(text):
            break
        out = [] if CONTINUED.search(text) else [*out, row]
    return out
