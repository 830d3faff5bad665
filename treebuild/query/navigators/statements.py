"""Which primary financial statement (or segment note) a question calls for, and which node prints it.

A question about a figure a statement prints ("operating margin", "free cash flow", "working
capital", "capital expenditure") rarely names the statement, and the statement's title rarely
shares a word with the question: "gross margin" is read off the statement of operations, whose
rows say "gross profit" or say nothing of it. Readers of filings know which statement holds which
figure; this module writes that down once, as the standard line items and ratios of each
statement (general accounting vocabulary, nothing from any one filing), and reads node titles for
the statement they name. The same holds for results by segment, product line or region: a
question about a "product category" or a "region" is answered by the segment note or the MD&A's
segment results, whatever the question's words. The ``lexical`` navigator reads the sections a
question calls for first: one to three pages each.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from ..spi import Candidate
from ..terms import tokenize

__all__ = ["KINDS", "statement_kind", "section_kind", "statements_asked", "statement_nodes", "MAX_STATEMENT_PAGES",
           "MAX_SEGMENT_PAGES"]

KINDS = ("income", "comprehensive", "balance", "cash", "equity", "segments")
"""The primary statements of a filing, and its results by segment."""

_TITLE_ORDER = ("cash", "balance", "equity", "income", "comprehensive")
"""The order titles are tested in: a combined "Statements of Operations and Comprehensive Loss" is
the income statement; "Statements of Comprehensive Income" alone is not."""

MAX_STATEMENT_PAGES = 3
"""A statement is printed on one to three pages; a longer node with a statement's title is a part
or a note about it, not the statement."""

MAX_SEGMENT_PAGES = 6
"""A segment note or a segment-results section runs to a few pages (its best pages are returned);
a longer node named for segments is a whole part of the report."""

_SEGMENTS = re.compile(r"\bsegments?\b|\bgeographic(?:al)?\b|\bdisaggregat\w*|\b(?:revenues?|net\s+sales|sales)\s+by\b",
                       re.IGNORECASE)
_NOT_SEGMENTS = re.compile(r"\bnotes?\s+to\b|\bindex\b|\brisks?\b", re.IGNORECASE)

_TITLE_KINDS: dict[str, re.Pattern[str]] = {
    "cash": re.compile(r"\bcash\s*flows?\b", re.IGNORECASE),
    "balance": re.compile(r"\bbalance\s+sheets?\b|\bfinancial\s+(?:position|condition)\b", re.IGNORECASE),
    "equity": re.compile(r"\b(?:stockholders|shareholders|shareowners|members|partners)\W{0,2}\s*(?:equity|deficit)"
                         r"|\bchanges\s+in\s+(?:\w+\W{0,2}\s+)?equity\b|\bstatements?\s+of\s+equity\b", re.IGNORECASE),
    "comprehensive": re.compile(r"\bcomprehensive\s+(?:income|loss|earnings)\b", re.IGNORECASE),
    "income": re.compile(r"\bstatements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings|profit|loss)\b"
                         r"|\bincome\s+statements?\b|\bprofit\s+(?:and|&)\s+loss\b", re.IGNORECASE),
}
_STATEMENT = re.compile(r"\bstatements?\b|\bbalance\s+sheets?\b", re.IGNORECASE)
_NOT_A_STATEMENT = re.compile(r"\bnotes?\s+to\b|\bindex\b|\breport\s+of\b|\bsummary\s+of\b", re.IGNORECASE)

CONCEPTS: dict[str, tuple[str, ...]] = {
    "income": (
        "income statement", "statement of income", "statement of operations", "statement of earnings",
        "profit and loss", "revenue", "revenues", "net sales", "total sales", "cost of sales", "cost of revenue",
        "cost of goods sold", "cogs", "gross profit", "gross margin", "operating income", "operating profit",
        "operating loss", "operating margin", "operating expenses", "net income", "net earnings", "net loss",
        "net margin", "profit margin", "ebit", "ebitda", "earnings per share", "eps", "interest expense",
        "income tax expense", "effective tax rate", "research and development", "selling general and administrative",
    ),
    "balance": (
        "balance sheet", "statement of financial position", "statement of financial condition", "working capital",
        "current ratio", "quick ratio", "total assets", "current assets", "current liabilities", "inventory",
        "inventories", "accounts receivable", "accounts payable", "book value", "total liabilities", "total debt",
        "debt to equity", "long term debt",
    ),
    "cash": (
        "cash flow statement", "statement of cash flows", "cash flow", "cash flows", "cashflow", "free cash flow",
        "operating cash flow", "cash from operations", "operating activities", "investing activities",
        "financing activities", "capital expenditure", "capital expenditures", "capex", "purchases of property",
        "dividends paid", "depreciation and amortization",
    ),
    "equity": (
        "statement of shareholders equity", "statement of stockholders equity", "changes in equity",
        "share repurchase", "share repurchases", "stock repurchase", "stock repurchases", "buyback", "buybacks",
        "dividends declared",
    ),
    "comprehensive": ("comprehensive income", "other comprehensive income"),
    "segments": (
        "segment", "segments", "business segment", "operating segment", "reportable segment", "product line",
        "product lines", "product category", "product categories", "service category", "service categories",
        "service offerings", "lines of business", "business lines", "geographic", "geographical", "region",
        "regions", "revenue breakdown", "revenue distribution", "disaggregated revenue",
    ),
}
"""Phrases naming a statement or a figure read off it, per statement (matched on stemmed words,
stop words dropped: no phrase may rely on one, "revenue by" would be "revenue")."""

RATIOS = ("return on assets", "return on equity", "asset turnover", "inventory turnover", "receivables turnover",
          "payables turnover", "days payable", "days sales outstanding", "days inventory", "interest coverage")
"""Ratios of an income statement figure to a balance sheet one: they ask for both statements."""

ABBREVIATIONS = {"r&d": "research and development", "p&l": "profit and loss",
                 "sg&a": "selling general and administrative"}
"""Spelled out before matching: the tokenizer keeps words of two or more letters only."""


@cache
def _phrases() -> dict[str, tuple[tuple[str, ...], ...]]:
    both = {"income": RATIOS, "balance": RATIOS}
    return {kind: tuple(t for t in (tuple(x) for x in tokenize([*phrases, *both.get(kind, ())])) if t)
            for kind, phrases in CONCEPTS.items()}


def statements_asked(question: str) -> list[str]:
    """The statements whose figures the question asks about, in :data:`KINDS` order."""
    text = question.casefold()
    for short, long in ABBREVIATIONS.items():
        text = re.sub(rf"(?<!\w){re.escape(short)}(?!\w)", long, text)
    words = tuple(tokenize([text])[0])
    asked = []
    for kind in KINDS:
        for phrase in _phrases()[kind]:
            n = len(phrase)
            if any(words[i:i + n] == phrase for i in range(len(words) - n + 1)):
                asked.append(kind)
                break
    return asked


def statement_kind(title: str) -> str | None:
    """The primary statement a node title names (``Consolidated Statements of Cash Flows``: cash), if any."""
    if not _STATEMENT.search(title) or _NOT_A_STATEMENT.search(title):
        return None
    for kind in _TITLE_ORDER:
        if _TITLE_KINDS[kind].search(title):
            return kind
    return None


def section_kind(title: str) -> str | None:
    """What a node title says the node prints: a primary statement (:func:`statement_kind`), or
    results by segment (``Note 13. Segment, Geographic and Other Revenue Information``: segments)."""
    kind = statement_kind(title)
    if kind is None and _SEGMENTS.search(title) and not _NOT_SEGMENTS.search(title):
        return "segments"
    return kind


def statement_nodes(question: str, candidates: Sequence[Candidate]) -> list[Candidate]:
    """For each statement (or segment results) the question asks about, the offered node that
    prints it, in :data:`KINDS` order: for a statement the shortest (a statement's own pages, not a
    longer node about it); for segments, of which a filing has several (the note, the MD&A's
    results, a summary), the one whose text matches the question best (``text_score``); ties: the
    first in document order."""
    out: list[Candidate] = []
    for kind in statements_asked(question):
        most = MAX_SEGMENT_PAGES if kind == "segments" else MAX_STATEMENT_PAGES
        found = [c for c in candidates
                 if 0 < c.pages <= most or (c.start_page is None and c.is_leaf)
                 if section_kind(c.title) == kind]
        if found:
            out.append(min(found, key=(lambda c: -c.text_score) if kind == "segments" else (lambda c: c.pages)))
    return out
