"""Entry-point plug-ins, resolved the same way for every group: readers (``treebuild.readers``),
structure sources (``treebuild.structure_sources``) and navigators (``treebuild.navigators``).

A package adds one by naming it in its own ``pyproject.toml``::

    [project.entry-points."treebuild.structure_sources"]
    mine = "my_package.module:MySource"

treebuild's built-ins register the same way, in treebuild's ``pyproject.toml``. Resolution is
deterministic: entry points are read sorted by name (then by value), never in install order; a name
registered twice is an error that names both registrations; one that fails to load is reported by
name with its error, and the others still load.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from .errors import TreebuildError

__all__ = ["PluginError", "Loaded", "load_group"]


class PluginError(TreebuildError):
    """The installed plug-ins of a group cannot be resolved (a name registered twice, a built-in missing)."""


@dataclass
class Loaded:
    """The plug-ins of one group: ``(name, object)`` sorted by name, and those that failed to load."""

    group: str
    plugins: list[tuple[str, Any]] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)  # "name (value): ExcType: message"


def load_group(group: str, *, check: Callable[[Any], bool] = lambda _obj: True,
               required: tuple[str, ...] = ()) -> Loaded:
    """Every entry point of ``group`` loaded (a class is instantiated without arguments), sorted by
    name. An object ``check`` refuses counts as broken; ``required`` names (treebuild's own) must be
    there, else :class:`PluginError` says to reinstall."""
    eps = sorted(metadata.entry_points(group=group), key=lambda ep: (ep.name, ep.value))
    names = [ep.name for ep in eps]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        clashes = "; ".join(f"{n}: " + ", ".join(ep.value for ep in eps if ep.name == n) for n in twice)
        raise PluginError(f"{group}: a name is registered by more than one package ({clashes})",
                          hint="uninstall one of them; resolution never depends on install order")
    missing = [n for n in required if n not in names]
    if missing:
        raise PluginError(f"{group}: treebuild's own entries are not registered ({', '.join(missing)})",
                          hint="install treebuild (./scripts/setup, or pip install -e .) so its entry points exist")
    out = Loaded(group)
    for ep in eps:
        try:
            obj = ep.load()
            obj = obj() if isinstance(obj, type) else obj
            if not check(obj):
                raise TypeError(f"not a {group} plug-in")
            out.plugins.append((ep.name, obj))
        except Exception as exc:  # one broken plug-in must not hide the others; it is named instead
            out.broken.append(f"{ep.name} ({ep.value}): {type(exc).__name__}: {exc}")
    return out
