"""The installed structure sources: entry points of the ``treebuild.structure_sources`` group.

treebuild's own sources register in its ``pyproject.toml`` like any plug-in::

    [project.entry-points."treebuild.structure_sources"]
    toc = "treebuild.structure.sources:TocSource"

A plug-in package adds a source the same way (a class with ``name``, ``role``, ``rank`` and
``propose``: :class:`~treebuild.structure.sources.Source`); the cascade asks it by role and rank.
Resolution follows :mod:`treebuild.plugins`: sorted by name, a name registered twice is an error,
a plug-in that fails to load is reported (the build's warnings name it) and the others are used.

A source may also declare a ``title_block`` hook (the typography scan's
:class:`~treebuild.structure.typography.model.TitleBlock`: a page's title block read as a heading);
the layout analysis asks the installed ones in rank order.
"""

from __future__ import annotations

import functools

from ..model import Line
from ..plugins import Loaded, load_group
from .sources import Source
from .typography.model import PageTitle, Row, TitleBlock

__all__ = ["ENTRY_POINT_GROUP", "BUILT_IN", "installed", "installed_sources", "title_block"]

ENTRY_POINT_GROUP = "treebuild.structure_sources"
"""The entry-point group structure sources register under (treebuild's own too)."""

BUILT_IN = ("outline", "declared", "toc", "filing", "headings", "model", "windows")
"""treebuild's own sources, by their entry-point names: they must be installed."""


@functools.cache
def installed() -> Loaded:
    """The installed sources, loaded once per process."""
    return load_group(ENTRY_POINT_GROUP, check=lambda obj: isinstance(obj, Source), required=BUILT_IN)


def installed_sources() -> tuple[tuple[str, Source], ...]:
    """``(name, source)`` of every installed source that loaded."""
    return tuple(installed().plugins)


def title_block() -> TitleBlock | None:
    """The title-block hook of the installed sources that declare one (asked in rank order, the first
    that reads a block wins); ``None`` when no source declares one."""
    hooks: list[TitleBlock] = [hook for _, s in sorted(installed_sources(), key=lambda ns: (ns[1].rank, ns[0]))
                               if (hook := getattr(s, "title_block", None)) is not None]
    if not hooks:
        return None
    if len(hooks) == 1:
        return hooks[0]

    def first(run: list[Row], top: float, lines: list[Line], /) -> PageTitle | None:
        for hook in hooks:
            found = hook(run, top, lines)
            if found is not None:
                return found
        return None

    return first
