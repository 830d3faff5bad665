"""A plug-in package for the tests: a reader for ``.ledger`` files, a structure source for them and a
navigator, added to treebuild through entry points only (``pyproject.toml``; the ``.dist-info`` beside
this package is what installing it writes, so a test puts this folder on ``PYTHONPATH`` instead).

A ledger is plain text in paragraphs; a paragraph opening with ``§`` titles a section, ``§§`` a
sub-section. The reader records the paragraphs as units and declares nothing; the source reads the
section marks (role ``sections``, ranked after treebuild's declared headings). The navigator
``ledger-titles`` reads the sections whose title is a word of the question and opens the others.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from treebuild.model import Mark, Origin, Pos, SourceDoc, StructureSource, Unit, UnitKind
from treebuild.query.spi import Decision, Selection, SelectionRequest, StepRequest
from treebuild.settings import ModelConfig
from treebuild.structure.sources import Proposal, Role, SourceContext

FORMAT = "ledger"


class LedgerReader:
    """Reads ``.ledger`` files: one unit per paragraph."""

    suffixes: tuple[str, ...] = (".ledger",)
    format: str = FORMAT

    def read(self, path: Path, limits: object, password: str | None = None) -> SourceDoc:
        data = path.read_bytes()
        paragraphs = [p.strip() for p in data.decode("utf-8").split("\n\n") if p.strip()]
        units = [Unit(index=i, kind=UnitKind.paragraph, text=p) for i, p in enumerate(paragraphs)]
        return SourceDoc(path=str(path), format=FORMAT, units=units, sha256=hashlib.sha256(data).hexdigest(),
                         size=len(data), title=path.stem)


class LedgerSections:
    """The ledger's ``§`` paragraphs as sections, ``§§`` one level down."""

    name = StructureSource.headings
    role = Role.sections
    rank = 30

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        if doc.format != FORMAT:
            return Proposal(self.name)
        marks = []
        for unit in doc.units:
            mark = unit.text.split("\n", 1)[0]
            depth = len(mark) - len(mark.lstrip("§"))
            if depth:
                marks.append(Mark(mark.lstrip("§ "), depth, Pos(unit.index, 0), Origin.heading, 0.9))
        return Proposal(self.name, marks)


NAVIGATOR = "ledger-titles"


class LedgerTitles:
    """Reads the offered sections whose title is a word of the question; walking the tree a level at a
    time (``beam``), opens the others that have sections under them; stops when there is neither."""

    name = NAVIGATOR
    is_language_model = False

    async def decide(self, request: StepRequest) -> Decision:
        words = set(request.question.casefold().replace("?", " ").split())
        read = tuple(c.node_id for c in request.candidates if c.title.casefold() in words)
        expand = () if request.mode == "single_pass" else \
            tuple(c.node_id for c in request.candidates if not c.is_leaf and c.node_id not in read)
        if not read and not expand:
            return Decision.stop_here("no title is a word of the question")
        return Decision(expand=expand, read=read, reasoning=f"titles in the question: {len(read)}")

    async def select_documents(self, request: SelectionRequest) -> Selection:
        return Selection(tuple(c.doc_id for c in request.candidates[: request.max_documents]), "the first ones")


class LedgerNavigators:
    """The provider registered under ``treebuild.navigators``: serves ``ledger-titles``."""

    def supports(self, name: str) -> bool:
        return name == NAVIGATOR

    def create(self, name: str, config: ModelConfig) -> LedgerTitles:
        return LedgerTitles()
