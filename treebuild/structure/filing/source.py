"""The SEC filing structure source: Parts/Items as a skeleton, and the filing's own rules for the
headings nested under it and for the tail after the last Item, as the hooks of its proposal (it
claims a filing: ``Proposal.claims``)."""

from __future__ import annotations

import re
from typing import ClassVar

from ...model import Mark, Origin, Pos, SourceDoc, StructureSource
from ..combine import nest
from ..layout import Layout
from ..sources import Proposal, Role, SourceContext
from ..typography.headings import Heading
from .confidence import FORM
from .items import (
    COVER_PARTS,
    END_TITLES,
    SecHeading,
    auditor_report_line,
    cover_page,
    is_filing,
    sec_headings,
    split_part_items,
)
from .segments import segment_heads
from .statements import notes_from_lines
from .subsections import always_read, back_pages, is_mda, note_heads, ranked_by_look, walked_through
from .tail import restructure_filing
from .title_block import statement_title_block

__all__ = ["FilingSource", "FilingProposal", "sec_skeleton"]


def sec_skeleton(sec: list[SecHeading]) -> list[Mark]:
    """Parts at level 1 and Items at level 2 (level 1 when the filing prints no Parts)."""
    parts = any(h.kind == "part" for h in sec)
    return [Mark(title=h.title, level=h.level if parts else 1, pos=Pos(h.unit, h.char), origin=Origin.sec,
                 confidence=FORM) for h in sec]


class FilingProposal(Proposal):
    """Parts and Items, plus what the filing rules need later; it claims the document when it is a
    filing (Parts or Items found, or a filing's cover page)."""

    def __init__(self, filing: bool, sec: list[SecHeading], cover: int = 0, body_size: float = 0.0,
                 note_subheadings: bool = False):
        super().__init__(StructureSource.sec, sec_skeleton(sec), role=Role.skeleton, claims=filing)
        self.sec = sec
        self.cover = cover
        self.body_size = body_size
        self.note_subheadings = note_subheadings
        """``BuildSettings.note_subheadings``: the notes' sub-headings at the body size too (``note_heads``)."""

    closing: ClassVar[re.Pattern[str] | None] = END_TITLES
    """Sections the form places after the last Part (Signatures ...): top level, never nested."""

    def own_headings(self, headings: list[Heading]) -> list[Heading]:
        """Headings left to nest: nothing on or before the form's cover page (it names the form,
        the registrant and the Commission) nor the cover's own parts where it runs on to the next
        page (``DOCUMENTS INCORPORATED BY REFERENCE`` before Part I), not a Part/Item line, not an
        auditor's report's addressee line (``To the Stockholders and the Board of Directors of ...``)
        nor the report's prescribed parts (``Basis for Opinion``, ``Critical Audit Matters``)."""
        if not self.claims:
            return headings
        first = min(((h.unit, h.char) for h in self.sec), default=None)
        headings = [h for h in headings if h.unit > self.cover and not auditor_report_line(h.title)
                    and not (COVER_PARTS.match(h.title) and (first is None or (h.unit, h.char) < first))]
        if self.sec:
            sec_lines = {(h.unit, j) for h in self.sec for j in h.lines}
            headings = [h for h in headings if not any((h.unit, j) in sec_lines for j in h.lines)]
        return headings

    def nest(self, skeleton: list[Mark], headings: list[Heading], min_pages: int) -> list[Mark]:
        """The skeleton with the filing's sub-sections nested under it: in each section its most
        prominent heading look and its numbered heads (``subsections``), sections of ``min_pages`` or
        fewer read whole except MD&A; an annual report's back pages after the Signatures top level. An
        entry naming a Part and its Item together is the Part with the Item inside it."""
        skeleton = split_part_items(skeleton)
        start = min((m.pos for m in skeleton), default=None)
        marks = nest(skeleton, ranked_by_look(headings, start), min_pages=min_pages, top_rank_only=True,
                     closing=END_TITLES, peers=not self.sec,
                     always=lambda s, i, heads: always_read(s, i, heads, self.body_size))
        return back_pages(walked_through(marks, headings), headings, END_TITLES)

    def nest_alone(self, headings: list[Heading]) -> list[Mark]:
        """No Part or Item found: the filing's most prominent heading style, closing sections on top."""
        return nest([], headings, top_rank_only=True, closing=END_TITLES)

    def refine(self, doc: SourceDoc, layout: Layout, marks: list[Mark]) -> list[Mark]:
        """The statements inside their Item and the tail after the last Item laid out, numbered notes
        the headings missed (``notes_from_lines``), the notes' sub-sections (``note_heads``) and MD&A's
        segments (``segment_heads``)."""
        scan = layout.scan()
        marks = restructure_filing(doc, marks, self.sec, scan) if self.sec else marks
        if not self.claims:
            return marks
        headings = self.own_headings(scan.major())
        marks = note_heads(doc, notes_from_lines(doc, marks, scan.furniture), headings, self.body_size,
                           scan.furniture, body_size_heads=self.note_subheadings)
        return segment_heads(doc, marks, self.own_headings(scan.headings), is_mda, scan.furniture, self.body_size,
                             layout.headings_within)


class FilingSource:
    """SEC periodic reports: ``PART I`` .. ``PART IV`` and ``Item 1.`` .. ``Item 16.``."""

    name = StructureSource.sec
    role = Role.skeleton
    rank = 20
    title_block = staticmethod(statement_title_block)
    """A statement page's title block under the company's name, read as a heading by the type scan."""

    def propose(self, doc: SourceDoc, context: SourceContext) -> FilingProposal:
        if not doc.paged:
            return FilingProposal(False, [])
        layout = context.layout
        scan = layout.scan()
        sec = sec_headings(doc, skip_pages=scan.toc_pages | layout.toc_pages, skip_lines=scan.furniture,
                           body_size=scan.body_size)
        filing = bool(sec) or is_filing(doc)
        return FilingProposal(filing, sec, cover_page(doc) if filing else 0, scan.body_size,
                              context.settings.note_subheadings)
