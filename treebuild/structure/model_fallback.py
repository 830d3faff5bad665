"""Opt-in model fallback for structure (``BuildSettings.structure_fallback``).

When the outline, printed TOC and typographic headings give nothing usable, a model is shown
the document in windows of pages (the first line of every text block, which is where headings
are) and asked for the sections that start there as JSON ``{title, page, level}``. A model
can invent or misplace headings, so every proposed title is verified: it must match a line of
its page (or a neighbouring page) by fuzzy comparison, and not be a running header repeated
across pages. Only verified titles become ``Mark``s, with origin ``model``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, Field
from rapidfuzz import fuzz

from ..llm.client import ModelClient
from ..llm.failures import ModelError
from ..llm.runner import run_sync
from ..llm.tokens import count_tokens
from ..llm.transport import Transport
from ..model import Mark, Origin, Pos, SourceDoc, Usage
from ..settings import ModelConfig
from ..text.furniture import PageFurniture
from ..text.normalize import one_line
from .prompt import STRUCTURE_POLICY, StructurePolicy, structure_messages
from .typography.model import MAX_LEVEL

__all__ = ["model_marks", "model_structure", "ModelStructure", "ProposedSection", "ProposedSections",
           "MATCH_SCORE", "UNITS_PER_PAGE"]

MATCH_SCORE = 88.0
"""Least rapidfuzz ratio between a proposed title and a line of its page for the title to count."""
UNITS_PER_PAGE = 40
"""Formats without pages are shown in pseudo pages of this many units."""
LINE_CHARS = 120
"""A block's first line is shown up to this many characters."""
CONFIDENCE = 0.6
"""Model marks rank below every deterministic source."""
ANSWER_TOKENS = 60
"""Completion tokens a structure request may use: this many ..."""
ANSWER_TOKENS_PER_PAGE = 40
"""... plus this many per page it shows (a few headings a page)."""
PAGE_TOKENS = 8
"""Tokens a page costs in a request beyond its lines' (its ``=== page N ===`` line; each line one more)."""
RUN_IN_CHARS = 3
"""A proposed title is also compared with the start of a line this much longer than it (a heading
run in with its first sentence)."""


class ProposedSection(BaseModel):
    title: str = Field(min_length=1)
    page: int
    level: int = 1


class ProposedSections(BaseModel):
    sections: list[ProposedSection] = Field(default_factory=list)


@dataclass
class ModelStructure:
    """Verified marks plus what was proposed and dropped, for the tree's audit record."""

    marks: list[Mark]
    windows: int = 0
    proposed: int = 0
    dropped: list[str] = field(default_factory=list)  # "title (page N)" not found where proposed


@dataclass(frozen=True)
class _Line:
    unit: int
    char: int
    text: str


def model_marks(doc: SourceDoc, config: ModelConfig, usage: Usage, *,
                transport: Transport | None = None) -> list[Mark]:
    """Verified section starts proposed by the model; ``[]`` offline or when nothing verifies."""
    return model_structure(doc, config, usage, transport=transport).marks


def model_structure(doc: SourceDoc, config: ModelConfig, usage: Usage, *, transport: Transport | None = None,
                    policy: StructurePolicy = STRUCTURE_POLICY,
                    furniture: PageFurniture | None = None) -> ModelStructure:
    """Ask the model over page windows, then keep the titles found on their pages. Running headers
    and footers (``furniture``, the layout's; made here when not given) are neither shown nor kept."""
    if config.offline or not doc.units:
        return ModelStructure([])
    pages = _pages(doc)
    furniture = furniture if furniture is not None else PageFurniture(doc)
    shown_lines = [[line for line in lines if not furniture.is_running(line.text)] for lines in pages]
    windows = _windows(shown_lines, policy.window_tokens)
    client = ModelClient(config, usage, transport=transport)
    title = (doc.title or "").strip() or Path(doc.path).name

    async def ask() -> list[ProposedSections | None]:
        async def one(window: list[int]) -> ProposedSections | None:
            shown = [(p + 1, "\n".join(line.text for line in shown_lines[p])) for p in window]
            try:
                return await client.structured(structure_messages(title, shown), ProposedSections,
                                               max_tokens=ANSWER_TOKENS + ANSWER_TOKENS_PER_PAGE * len(window))
            except ModelError:
                return None  # counted in usage.failures by the client

        return await asyncio.gather(*(one(w) for w in windows))

    answers = run_sync(ask())
    result = ModelStructure([], windows=len(windows))
    proposals = [s for a in answers if a is not None for s in a.sections]
    result.proposed = len(proposals)
    found: dict[Pos, Mark] = {}
    for section in proposals:
        pos = _verify(section, pages, furniture)
        if pos is None:
            result.dropped.append(f"{section.title} (page {section.page})")
            continue
        found.setdefault(pos, Mark(title=one_line(section.title), level=max(1, min(section.level, MAX_LEVEL)), pos=pos,
                                   origin=Origin.model, confidence=CONFIDENCE))
    marks = sorted(found.values(), key=lambda m: m.pos)
    if marks:
        top = min(m.level for m in marks)
        marks = [Mark(m.title, m.level - top + 1, m.pos, m.origin, m.confidence) for m in marks]
    result.marks = marks
    return result


def _pages(doc: SourceDoc) -> list[list[_Line]]:
    """Per (pseudo) page, the first line of every text block with its position."""
    if doc.paged:
        pages = []
        for unit in doc.units:
            starts = [b[2] for b in unit.blocks] if unit.blocks else _line_starts(unit.text)
            pages.append([line for s in starts if (line := _line_at(unit.index, unit.text, s)) is not None])
        return pages
    out: list[list[_Line]] = []
    for k in range(0, len(doc.units), UNITS_PER_PAGE):
        chunk = doc.units[k : k + UNITS_PER_PAGE]
        out.append([line for u in chunk if (line := _line_at(u.index, u.text, 0)) is not None])
    return out


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n" and i + 1 < len(text))
    return starts


def _line_at(unit: int, text: str, start: int) -> _Line | None:
    end = text.find("\n", start)
    line = text[start : end if end >= 0 else len(text)]
    lead = len(line) - len(line.lstrip())
    if not line.strip():
        return None
    return _Line(unit, start + lead, line.strip()[:LINE_CHARS])


def _windows(pages: list[list[_Line]], budget: int) -> list[list[int]]:
    windows: list[list[int]] = [[]]
    tokens = 0
    for p, lines in enumerate(pages):
        cost = PAGE_TOKENS + sum(count_tokens(line.text) + 1 for line in lines)
        if windows[-1] and tokens + cost > budget:
            windows.append([])
            tokens = 0
        windows[-1].append(p)
        tokens += cost
    return [w for w in windows if w]


def _key(text: str) -> str:
    return one_line(text).casefold()


def _score(title: str, line: str) -> float:
    if not title or not line:
        return 0.0
    head = line[: len(title) + RUN_IN_CHARS]  # a heading run in with its first sentence
    return max(fuzz.ratio(title, line), fuzz.ratio(title, head))


def _verify(section: ProposedSection, pages: list[list[_Line]], furniture: PageFurniture) -> Pos | None:
    title = _key(section.title)
    if not title or furniture.is_running(section.title):
        return None
    page = section.page - 1
    for p in (page, page - 1, page + 1):
        if not 0 <= p < len(pages):
            continue
        lines = pages[p]
        best: tuple[float, _Line] | None = None
        for i, line in enumerate(lines):
            text = _key(line.text)
            score = _score(title, text)
            if i + 1 < len(lines):  # a title wrapped over two lines
                score = max(score, _score(title, f"{text} {_key(lines[i + 1].text)}"))
            if score >= MATCH_SCORE and (best is None or score > best[0]):
                best = (score, line)
        if best is not None:
            return Pos(best[1].unit, best[1].char)
    return None
