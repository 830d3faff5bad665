"""The structure cascade: which sources to ask, in what order, when to accept, what to fall back to.

Read :data:`CASCADE` top to bottom, as PageIndex's "TOC with page numbers -> TOC without -> no
TOC" or docling's pipeline stages:

1. ``sections``: the structure the document declares, first that proposes marks wins: the PDF
   outline (a partial one, a few entries or all at level 1, completed from the printed TOC when
   that is much richer), then DOCX/Markdown headings. A non-paged document stops here.
2. ``skeleton``: the printed TOC and the form skeletons (a filing's Parts/Items) merged, with the
   typographic headings nested under them where they leave finer sections to find (a sparse TOC,
   a filing). A complete TOC of a document no source claims stands alone; a claiming source lays
   the headings out and refines the result through its proposal's hooks.
3. ``headings``: typographic headings alone (laid out by the claiming source, if any).
4. ``fallback``: the model (opt-in), then page windows; else the whole document as one section.

A structure placed from an outline or a printed TOC of at most ``deepen.SHALLOW`` levels (when no
source claims the document's form, or from the outline whatever the form) is not the floor of the
tree: the typographic headings set finer than its entries nest below its leaf sections (``deepen``),
and the headings source joins the tree's ``method``.

Every source runs behind a guard: one that raises (other than a :class:`TreebuildError`, an
expected failure that names the file) is recorded as a typed finding (code ``source_failed``:
``toc failed: ValueError: ...; fell back to filing+headings``, naming the sources the tree was built
from instead), and the cascade goes on as if it had proposed nothing; a claiming source whose hook
raises is set aside the same way and the stage is read again without it. The tree's ``method`` names the
sources whose marks were used, joined with ``+``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from ..errors import TreebuildError
from ..findings import Finding, from_texts
from ..findings import Stage as FindingStage
from ..model import Mark, Method, SourceDoc, StructureSource, Usage
from ..settings import BuildSettings, ModelConfig
from .combine import enrich_outline, merge_skeletons
from .deepen import FORM_DEPTH, MAX_DEPTH, SHALLOW, deepen
from .filing.source import FilingSource
from .layout import Layout
from .sources import (
    DeclaredSource,
    HeadingsSource,
    ModelSource,
    OutlineSource,
    Proposal,
    Role,
    Source,
    SourceContext,
    TocSource,
    WindowsSource,
)
from .typography.headings import Heading

__all__ = ["StructureResult", "combine", "Stage", "CASCADE", "BUILT_IN_SOURCES"]

SHORT_DOC_PARTS = 10
"""In a short document, a section longer than this fraction of it (a tenth) gets finer headings."""

BUILT_IN_SOURCES: tuple[tuple[str, Source], ...] = (
    ("outline", OutlineSource()), ("declared", DeclaredSource()), ("toc", TocSource()), ("filing", FilingSource()),
    ("headings", HeadingsSource()), ("model", ModelSource()), ("windows", WindowsSource()))
"""treebuild's own sources, as its ``pyproject.toml`` registers them (``registry.installed`` reads the
installed ones, plug-ins included); within a role they are asked by ``rank``."""

_ROLE_ORDER = tuple(Role)
_T = TypeVar("_T")


@dataclass
class StructureResult:
    marks: list[Mark]
    method: Method
    warnings: list[Finding] = field(default_factory=list)


@dataclass
class Outcome:
    """A stage's answer: the tree's marks and what they came from (proposals, or ``single``)."""

    marks: list[Mark]
    used: list[Proposal | StructureSource]


class _Retry(Exception):
    """A claiming source's hook raised: read the stage again without that source."""


class Run:
    """One document's pass through the cascade: the sources' proposals, asked once each (guarded)
    and kept, and the warnings recorded on the way."""

    def __init__(self, doc: SourceDoc, context: SourceContext, sources: tuple[tuple[str, Source], ...]):
        self.doc, self.context = doc, context
        self.sources = sorted(sources, key=lambda ns: (_ROLE_ORDER.index(ns[1].role), ns[1].rank, ns[0]))
        self.warnings: list[Finding] = []
        self.failed: list[str] = []  # "<source> failed: <exception>": findings once the tree's method is known
        self._asked: dict[str, Proposal] = {}
        self._reported: set[str] = set()
        self._names: dict[int, str] = {}

    def ask(self, name: str, *, report: bool = True) -> Proposal:
        """The proposal of source ``name`` (asked on first use); ``report``: its warnings go into the result."""
        if name not in self._asked:
            source = next(s for n, s in self.sources if n == name)
            try:
                proposal = source.propose(self.doc, self.context)
            except TreebuildError:
                raise
            except Exception as exc:  # a source's bug must not cost the document its tree
                proposal = self._failed(name, source, exc)
            self._asked[name] = proposal
            self._names[id(proposal)] = name
        proposal = self._asked[name]
        if report and name not in self._reported:
            self._reported.add(name)
            self.warnings.extend(from_texts(proposal.warnings, FindingStage.structure))  # a plug-in may give text
        return proposal

    def role(self, role: Role) -> Iterator[Proposal]:
        """The proposals of the sources of ``role`` in rank order, each asked as it is reached."""
        for name, source in self.sources:
            if source.role == role:
                yield self.ask(name)

    def hook(self, owner: Proposal | None, fn: Callable[..., _T], *args: object) -> _T:
        """``fn(*args)``, a hook of ``owner``'s (``None``: the generic rules); a claiming source whose hook
        raises is set aside (``_Retry``)."""
        if owner is None:
            return fn(*args)
        try:
            return fn(*args)
        except TreebuildError:
            raise
        except Exception as exc:
            name = self._names[id(owner)]
            source = next(s for n, s in self.sources if n == name)
            self._asked[name] = self._failed(name, source, exc)
            self._names[id(self._asked[name])] = name
            raise _Retry from exc

    def _failed(self, name: str, source: Source, exc: Exception) -> Proposal:
        self.failed.append(f"{name} failed: {type(exc).__name__}: {exc}")
        return Proposal(source.name, role=source.role)

    def result(self, marks: list[Mark], method: Method) -> StructureResult:
        """The cascade's result: each failed source a finding naming what the tree was built from instead."""
        failed = [Finding("source_failed", FindingStage.structure, f"{f}; fell back to {method}") for f in self.failed]
        return StructureResult(marks, method, [*self.warnings, *failed])


_GENERIC = Proposal(StructureSource.headings)
"""The generic hooks (``Proposal``'s defaults), used when no source claims the document."""


def _hooks(claim: Proposal | None) -> Proposal:
    """Whose hooks lay the headings out: the claiming source's (even one that found no marks), else
    the generic rules. (Not ``claim or ...``: a proposal without marks is falsy.)"""
    return claim if claim is not None else _GENERIC


def _sections(run: Run) -> Outcome | None:
    """The first source of role ``sections`` that proposes marks; a partial one (an outline of a few
    entries, or flat) is completed from the printed TOC when that is much richer (the TOC's warnings
    are not the tree's then)."""
    for proposal in run.role(Role.sections):
        if not proposal:
            continue
        if proposal.partial:
            toc = run.ask("toc", report=False)
            richer = enrich_outline(proposal.marks, toc.marks) if toc else None
            if richer is not None:
                return _deepened(run, Outcome(richer, [proposal, toc]))
        return _deepened(run, Outcome(proposal.marks, [proposal]))
    return None if run.doc.paged else Outcome([], [StructureSource.single])


def _deepened(run: Run, outcome: Outcome) -> Outcome:
    """``outcome`` with the typographic sub-headings inside its leaf sections placed from a printed TOC or
    an outline of at most ``deepen.SHALLOW`` levels (``deepen``); the headings source joins the method
    when it adds any. A deeper structure is taken as complete. Under a document whose form a source
    claims (a filing built from its outline) the headings are the claiming source's own (``own_headings``:
    no cover page, no auditor's addressee line) and one level deep (``deepen.FORM_DEPTH``)."""
    if not run.doc.paged or not outcome.marks or max(m.level for m in outcome.marks) > SHALLOW:
        return outcome
    headings = next(iter(run.role(Role.headings)), None)
    if headings is None or not headings.headings:
        return outcome
    claim = next((p for p in run.role(Role.skeleton) if p.claims), None)
    fine = run.hook(claim, _hooks(claim).own_headings, headings.headings)
    marks = deepen(run.doc, outcome.marks, fine, max_depth=MAX_DEPTH if claim is None else FORM_DEPTH)
    if len(marks) == len(outcome.marks):
        return outcome
    used = outcome.used if any(u is headings for u in outcome.used) else [*outcome.used, headings]
    return Outcome(marks, used)


def _layout(run: Run) -> tuple[list[Proposal], Proposal | None, Proposal, list[Heading]]:
    """The skeletons (rank order), the one that claims the document, the headings proposal and the
    headings left to nest (the claiming source's ``own_headings``)."""
    skeletons = list(run.role(Role.skeleton))
    headings = next(iter(run.role(Role.headings)), Proposal(StructureSource.headings, role=Role.headings))
    claim = next((p for p in skeletons if p.claims), None)
    fine = run.hook(claim, _hooks(claim).own_headings, headings.headings)
    return skeletons, claim, headings, fine


def _skeleton(run: Run) -> Outcome | None:
    """Skeletons merged, headings nested under them, the claiming source's refinement last; a complete
    skeleton stands alone when no source claims the document."""
    skeletons, claim, headings, fine = _layout(run)
    first = next((p for p in skeletons if p), None)
    if first is None:
        return None
    if claim is None and not first.partial:
        return _deepened(run, Outcome(first.marks, [first]))
    lay = _hooks(claim)
    closing = claim.closing if claim is not None else None
    skeleton = skeletons[0].marks
    for p in skeletons[1:]:
        if p:
            skeleton = merge_skeletons(skeleton, p.marks, closing)
    marks = run.hook(claim, lay.nest, skeleton, fine, _min_pages(run.doc, run.context.settings))
    used: list[Proposal | StructureSource] = [p for p in skeletons if p]
    if len(marks) > len(skeleton):
        used.append(headings)
    outcome = Outcome(run.hook(claim, lay.refine, run.doc, run.context.layout, marks), used)
    return _deepened(run, outcome) if claim is None else outcome


def _headings(run: Run) -> Outcome | None:
    """Typographic headings alone, laid out by the claiming source when one claims the document."""
    _skeletons, claim, headings, fine = _layout(run)
    if not fine:
        return None
    return Outcome(run.hook(claim, _hooks(claim).nest_alone, fine), [headings])


def _fallback(run: Run) -> Outcome | None:
    """The first last resort that proposes marks (the model, page windows), else one section."""
    for proposal in run.role(Role.fallback):
        if proposal:
            return Outcome(proposal.marks, [proposal])
    return Outcome([], [StructureSource.single])


def _paged(run: Run) -> bool:
    return run.doc.paged


def _always(run: Run) -> bool:
    return True


@dataclass(frozen=True)
class Stage:
    """One step of the cascade: when it applies, and how its sources' proposals become the tree's marks
    (``accept`` returns ``None`` to fall through to the next stage)."""

    name: str
    accept: Callable[[Run], Outcome | None]
    when: Callable[[Run], bool] = _always


CASCADE: tuple[Stage, ...] = (
    Stage("sections", _sections),
    Stage("skeleton", _skeleton, when=_paged),
    Stage("headings", _headings, when=_paged),
    Stage("fallback", _fallback),
)
"""The cascade, top to bottom (see the module docstring)."""


def combine(doc: SourceDoc, layout: Layout, settings: BuildSettings, model_config: ModelConfig | None = None,
            usage: Usage | None = None, *, sources: tuple[tuple[str, Source], ...] | None = None
            ) -> StructureResult:
    """Marks for ``doc`` from the first stage of :data:`CASCADE` that accepts its sources' proposals;
    ``sources`` replaces the installed ones (``registry``: entry points) for tests and embedders."""
    if sources is None:
        from .registry import installed

        plugins = installed()
        run = Run(doc, SourceContext(layout, settings, model_config, usage), tuple(plugins.plugins))
        run.warnings.extend(Finding("source_not_loaded", FindingStage.structure, f"structure source not loaded: {b}")
                            for b in plugins.broken)
    else:
        run = Run(doc, SourceContext(layout, settings, model_config, usage), sources)
    for stage in CASCADE:
        if not stage.when(run):
            continue
        outcome = _attempt(run, stage)
        if outcome is not None:
            method = Method(u if isinstance(u, StructureSource) else u.origin for u in outcome.used)
            return run.result(outcome.marks, method)
    raise AssertionError("the fallback stage always accepts")


def _attempt(run: Run, stage: Stage) -> Outcome | None:
    """The stage's outcome; read again after a claiming source's hook failed (that source set aside)."""
    for _ in range(len(run.sources) + 1):
        try:
            return stage.accept(run)
        except _Retry:
            continue
    return None


def _min_pages(doc: SourceDoc, settings: BuildSettings) -> int:
    """Sections longer than this get finer headings from the body: the node page limit, or a tenth
    of a short document (a 40-page 10-Q's 5-page section is long for it)."""
    return max(1, min(settings.max_node_pages, len(doc.units) // SHORT_DOC_PARTS))
