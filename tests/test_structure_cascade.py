"""The structure cascade (``treebuild.structure.policy``): sources asked by role and rank, each behind
a guard, on real generated PDFs. A source that raises costs the document nothing but that source:
the failure is recorded and the cascade falls back; a claiming source whose hook raises is set aside
and the stage is read again without it."""

from __future__ import annotations

from pathlib import Path

from structgen import Writer

from treebuild.findings import Finding
from treebuild.findings import Stage as FindingStage
from treebuild.model import Mark, Origin, Pos, SourceDoc, StructureSource
from treebuild.readers import read
from treebuild.settings import BuildSettings
from treebuild.structure import analyze
from treebuild.structure.policy import BUILT_IN_SOURCES, CASCADE, StructureResult, combine
from treebuild.structure.sources import Proposal, Role, Source, SourceContext
from treebuild.structure.typography.headings import Heading

SETTINGS = BuildSettings(subdivide=False)
CHAPTERS = ["Introduction", "Installation", "Configuration", "Troubleshooting"]


def _manual(tmp_path: Path) -> SourceDoc:
    """Four chapters with bold, larger headings over body text: the headings stage's document."""
    w = Writer(header=None)
    for title in CHAPTERS:
        w.heading(title, size=16)
        w.paras(4)
    return read(w.save(tmp_path / "manual.pdf"))


def _replace(name: str, source: Source) -> tuple[tuple[str, Source], ...]:
    return tuple((n, source if n == name else s) for n, s in BUILT_IN_SOURCES)


class _Raising:
    """A source of ``role`` and ``rank`` whose ``propose`` raises."""

    def __init__(self, name: StructureSource, role: Role, rank: int, exc: Exception):
        self.name, self.role, self.rank, self.exc = name, role, rank, exc

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        raise self.exc


def _failures(result: StructureResult) -> list[Finding]:
    """The result's typed findings of failed sources (its other warnings are text)."""
    found = [w for w in result.warnings if isinstance(w, Finding)]
    assert all(f.code == "source_failed" and f.stage == FindingStage.structure for f in found)
    return found


def test_the_cascade_reads_top_to_bottom() -> None:
    assert [stage.name for stage in CASCADE] == ["sections", "skeleton", "headings", "fallback"]
    assert [n for n, _ in BUILT_IN_SOURCES] == ["outline", "declared", "toc", "filing", "headings", "model",
                                                "windows"]


def test_the_headings_stage_builds_the_manual(tmp_path: Path) -> None:
    doc = _manual(tmp_path)
    result = combine(doc, analyze(doc), SETTINGS)
    assert result.method == "headings"
    assert [m.title for m in result.marks] == CHAPTERS
    assert not _failures(result)


def test_a_source_that_raises_is_recorded_and_the_cascade_falls_back(tmp_path: Path) -> None:
    doc = _manual(tmp_path)
    broken = _Raising(StructureSource.headings, Role.headings, 10, RuntimeError("scanner exploded"))
    one_page = BuildSettings(subdivide=False, max_node_pages=1)  # windows of a page each
    result = combine(doc, analyze(doc), one_page, sources=_replace("headings", broken))
    assert _failures(result) == [
        Finding("source_failed", FindingStage.structure,
                "headings failed: RuntimeError: scanner exploded; fell back to windows")]
    assert result.method == "windows"  # the next source that proposes marks
    assert result.marks and all(m.origin == Origin.window for m in result.marks)


def test_every_source_failing_still_gives_the_document_one_section(tmp_path: Path) -> None:
    doc = _manual(tmp_path)
    sources = tuple((n, _Raising(s.name, s.role, s.rank, ValueError(f"bad {n}"))) for n, s in BUILT_IN_SOURCES)
    result = combine(doc, analyze(doc), SETTINGS, sources=sources)
    assert result.method == "single" and result.marks == []
    names = ("outline", "declared", "toc", "filing", "headings", "model", "windows")
    assert [f.text for f in _failures(result)] == [
        f"{n} failed: ValueError: bad {n}; fell back to single" for n in names]


class _ClaimingProposal(Proposal):
    """A skeleton that claims the document, found no marks of its own and whose layout hook raises."""

    def nest_alone(self, headings: list[Heading]) -> list[Mark]:
        raise KeyError("no such form")


class _Claiming:
    name = StructureSource.sec
    role = Role.skeleton
    rank = 20

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        return _ClaimingProposal(self.name, role=self.role, claims=True)


def test_a_claiming_source_whose_hook_raises_is_set_aside(tmp_path: Path) -> None:
    doc = _manual(tmp_path)
    result = combine(doc, analyze(doc), SETTINGS, sources=_replace("filing", _Claiming()))
    assert [f.text for f in _failures(result)] == [
        "filing failed: KeyError: 'no such form'; fell back to headings"]
    assert result.method == "headings"  # the generic rules laid the headings out
    assert [m.title for m in result.marks] == CHAPTERS


class _Sections:
    """A sections source ranked between the outline and the declared headings."""

    name = StructureSource.headings
    role = Role.sections
    rank = 15

    def propose(self, doc: SourceDoc, context: SourceContext) -> Proposal:
        return Proposal(self.name, [Mark("Everything", 1, Pos(0, 0), Origin.heading, 0.9)])


def test_a_sections_source_wins_by_rank_before_the_later_stages(tmp_path: Path) -> None:
    doc = _manual(tmp_path)
    result = combine(doc, analyze(doc), SETTINGS, sources=(*BUILT_IN_SOURCES, ("everything", _Sections())))
    assert [m.title for m in result.marks] == ["Everything"]
    assert result.method == "headings"
