"""The records of the heading scan: a row of joined lines, the body's type, a heading, the scan's result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ...model import Line
from ...text.numbering import Numbering

MAX_LEVEL = 6
StyleKey = tuple[float, bool, bool, bool, str]
"""(size, bold, all caps, centred, font family)."""


@dataclass(slots=True)
class Row:
    """Lines of one block that share a baseline, joined."""

    text: str
    size: float
    bold: bool
    italic: bool
    mono: bool
    font: str
    family: str  # the first line's typeface (``Line.family``)
    x0: float
    y0: float
    x1: float
    y1: float
    char: int
    block: int
    first: int  # index of the first line in doc.lines(unit)
    members: list[int]  # indexes of every line joined into this row


@dataclass(slots=True)
class Heading:
    """One detected heading: where it starts, what it says and how it looks."""

    unit: int
    char: int
    title: str
    style: StyleKey
    numbering: Numbering | None
    y0: float
    x0: float
    rows: int
    level: int = 0
    label: str | None = None  # "Chapter One" printed on its own line above the title
    minor: bool = False
    suspect: bool = False  # sits where running titles sit
    lines: tuple[int, ...] = ()
    run_in: bool = False  # "4.1. Priority Trees." opening its paragraph
    page_title: bool = False  # a page's title read by the ``TitleBlock`` hook (a statement page's, under its company)
    mid_page: bool = False  # a page title set under other headings of its page: it starts at its block, not the top
    page_text: bool = False  # a bold row heading its page's own smaller text (kept only as a page opener)
    page_opener: bool = False  # a body-size heading opening its page with a title printed once (``mark_minor``)
    period: str = ""  # a page title's period line, kept out of its title (``Quarters Ended December 31, 2022``)


@dataclass
class HeadingScan:
    """Headings of a document with the typography facts that produced them."""

    headings: list[Heading]
    body_size: float
    body_bold: bool
    toc_pages: set[int] = field(default_factory=set)
    furniture: set[tuple[int, int]] = field(default_factory=set)

    def major(self) -> list[Heading]:
        return [h for h in self.headings if not h.minor]


@dataclass
class Body:
    size: float
    bold: bool
    left: float
    right: float
    family: str


@dataclass(frozen=True, slots=True)
class PageTitle:
    """A page's title block as a ``TitleBlock`` hook reads it: the rows that name the title (none on a
    page that only continues one) and, when other headings of the page sit above the block (the
    company's name and a statement's title under ``Item 1. Financial Statements``), the character
    where the block starts; ``None`` when the block opens the page (it owns the page from its top); and
    the block's period line (``Quarters Ended December 31, 2022 and December 25, 2021``), not part of the
    title: it tells two tables of one title apart (``page_title_series``)."""

    rows: list[Row]
    start: int | None = None
    period: str = ""


class TitleBlock(Protocol):
    """A hook that reads a run of rows near a page's top as that page's title block (the filing
    package's ``statement_title_block``: a statement page's title under the company's name): a
    ``PageTitle``, or ``None`` when the run is no such block. A title block is a heading whatever its
    size."""

    def __call__(self, run: list[Row], top: float, lines: list[Line], /) -> PageTitle | None: ...
