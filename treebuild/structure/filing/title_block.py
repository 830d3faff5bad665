"""A statement or table page's title block under the registrant's name: the typography scan's
``TitleBlock`` hook (``scan_headings(..., title_block=statement_title_block)``).

An earnings release or a filing's statement pages print the company's name in bold over the
page's title (``PepsiCo, Inc. and Subsidiaries`` over ``Consolidated Statement of Income``), then
the period and legend lines: the title is a section however small its type.
"""

from __future__ import annotations

from ...model import Line
from ..typography.filters import CONTINUED
from ..typography.model import Row
from ..typography.rows import all_caps
from .patterns import COMPANY_LINE, PERIOD_LINE, STATEMENT_TITLE

__all__ = ["statement_title_block"]


def statement_title_block(run: list[Row], top: float, lines: list[Line]) -> list[Row] | None:
    """The rows naming the page's title when ``run`` (from the page's first rows, ``top`` the first
    one's height; ``lines`` the page's) is a title block under the registrant's name, else ``None``."""
    if not _under_company(run, top, lines):
        return None
    named = len(run) > 1 and bool(COMPANY_LINE.search(run[0].text.strip()))
    return _block_title(run, named)


def _under_company(run: list[Row], top: float, lines: list[Line]) -> bool:
    """The page's first rows are a title block under the registrant's name, in bold (``PepsiCo, Inc.
    and Subsidiaries`` over ``Consolidated Statement of Income``; the name may repeat atop every
    page, as furniture): a statement or table page's title, whatever its size (a release sets them
    in a smaller type than its text). The name is not part of the title."""
    if not (run[0].bold or all_caps(run[0].text)):
        return False
    if run[0].y0 > top + 1.0:
        return _under_company_row(run[0], top, lines)
    if len(run) >= 2 and COMPANY_LINE.search(run[0].text.strip()):
        return True
    for above in reversed(lines[:run[0].first]):  # the block's bold lines above, furniture on every such page
        if not (above.bold or all_caps(above.text)):
            return False
        if COMPANY_LINE.search(above.text.strip()):
            return True
    return False


def _under_company_row(row: Row, top: float, lines: list[Line]) -> bool:
    """A statement's title (not the notes' or another heading under the name) with the registrant's
    name opening the page in a row of its own, set further above the title than the title's line
    spacing (``Apple Inc.`` over ``CONDENSED CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY``):
    every line above the title is bold (or capitals) and the first of them, the page's first row,
    names the company. A name under other text (an Item's heading above it) is not the page's title
    block: the statement there does not own its page."""
    if not STATEMENT_TITLE.match(row.text.strip()):
        return False
    above = sorted((ln for ln in lines if ln.text.strip() and ln.y1 <= row.y0 + 1.0), key=lambda ln: ln.y0)
    return bool(above) and above[0].y0 <= top + 1.0 and bool(COMPANY_LINE.search(above[0].text.strip())) \
        and all(ln.bold or all_caps(ln.text) for ln in above)


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
