"""A plug-in package for the tests: a reader for ``.ledger`` files and a structure source for them,
added to treebuild through entry points only (``pyproject.toml``; the ``.dist-info`` beside this
package is what installing it writes, so a test puts this folder on ``PYTHONPATH`` instead).

A ledger is plain text in paragraphs; a paragraph opening with ``§`` titles a section, ``§§`` a
sub-section. The reader records the paragraphs as units and declares nothing; the source reads the
section marks (role ``sections``, ranked after treebuild's declared headings).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from treebuild.model import Mark, Origin, Pos, SourceDoc, StructureSource, Unit, UnitKind
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
