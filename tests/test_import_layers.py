"""The import graph of ``treebuild/`` follows the layers of ``docs/architecture.md``.

Read statically (``ast``, every import statement: module level, inside functions and under
``TYPE_CHECKING``), so an import made only when a command runs counts too. Two rules:

- no import circle between modules (an import under ``TYPE_CHECKING`` aside: it never runs);
- no arrow from a lower layer up into a higher one, nor between two units of the same layer.

``KNOWN_UPWARD`` lists arrows another lane is removing, each with its lane: the test fails when one of
them is gone (so the list only shrinks) and on any arrow not listed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "treebuild"

# Top to bottom, as docs/architecture.md names them. A unit is a subpackage or a top-level module of
# treebuild; a unit may import any unit of a lower layer, none of its own layer or above.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("entry", ("__main__",)),
    ("commands", ("cli",)),
    ("interfaces", ("agents", "interop", "orchestrate", "view")),
    ("evaluation", ("evaluate",)),
    ("answers", ("answer",)),
    ("services", ("ingestion", "query")),
    ("build and store", ("pipeline", "store")),
    ("stages", ("readers", "structure", "summarize")),
    ("shared services", ("llm", "text")),
    ("foundation", ("model", "settings", "plugins")),
    ("base", ("errors", "findings", "collector")),
]

# (importing unit, imported unit): lane removing it
KNOWN_UPWARD: dict[tuple[str, str], str] = {}

# The repository's own top-level folders that are not the library: the library never imports them.
NOT_LIBRARY = ("flows", "bench", "tests", "deploy", "scripts", "examples")


@dataclass(frozen=True)
class Import:
    source: str  # importing module, e.g. treebuild.cli.read
    target: str  # imported module, e.g. treebuild.store
    line: int
    runtime: bool  # False under `if TYPE_CHECKING:`


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool, known: set[str]):
        self.module, self.known = module, known
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: list[Import] = []
        self.external: list[tuple[str, int]] = []
        self._type_checking = 0

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        guarded = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
            (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
        self._type_checking += guarded
        for child in node.body:
            self.visit(child)
        self._type_checking -= guarded
        for child in node.orelse:
            self.visit(child)

    def _add(self, target: str, line: int) -> None:
        top = target.partition(".")[0]
        if top == "treebuild":
            self.found.append(Import(self.module, target, line, runtime=not self._type_checking))
        elif top in NOT_LIBRARY:
            self.external.append((target, line))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            base = base[:len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        for alias in node.names:  # `from pkg import submodule` imports the submodule
            if target == "treebuild" and alias.name == "__version__":
                continue  # a constant of the package's face, which imports nothing at run time
            sub = f"{target}.{alias.name}"
            self._add(sub if sub in self.known else target, node.lineno)


def _graph() -> tuple[list[Import], list[tuple[str, str, int]]]:
    modules = _modules()
    imports: list[Import] = []
    external: list[tuple[str, str, int]] = []
    for name, path in modules.items():
        visitor = _Imports(name, path.name == "__init__.py", set(modules))
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        imports += visitor.found
        external += [(name, target, line) for target, line in visitor.external]
    return imports, external


def _unit(module: str) -> str | None:
    """The layered unit of a module: treebuild.cli.read -> cli; the package's face ``treebuild`` -> None."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _layer_of() -> dict[str, int]:
    return {unit: i for i, (_, units) in enumerate(LAYERS) for unit in units}


def _arrows(imports: list[Import]) -> dict[tuple[str, str], list[Import]]:
    """Arrows between units that the layering forbids (upward, or within one layer), with their imports.
    The package's face (``treebuild/__init__.py``: lazy re-exports) is above every layer."""
    layer = _layer_of()
    bad: dict[tuple[str, str], list[Import]] = {}
    for imp in imports:
        src, dst = _unit(imp.source), _unit(imp.target)
        if src is None or src == dst:
            continue
        if dst is None:
            dst = "(package face)"
        if dst == "(package face)" or layer[dst] <= layer[src]:
            bad.setdefault((src, dst), []).append(imp)
    return bad


def _cycles(imports: list[Import]) -> list[list[str]]:
    """Strongly connected modules of the runtime import graph (Tarjan), each a circle."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        if imp.runtime and imp.source != imp.target:
            graph.setdefault(imp.source, set()).add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_unit_of_the_package_has_a_layer() -> None:
    units = {_unit(m) for m in _modules()} - {None}
    assert sorted(units - set(_layer_of())) == []


def test_no_import_circle() -> None:
    imports, _ = _graph()
    assert _cycles(imports) == []


def test_no_arrow_up_a_layer_or_across_one() -> None:
    imports, _ = _graph()
    bad = _arrows(imports)
    unexpected = {pair: [f"{i.source}:{i.line} imports {i.target}" for i in found]
                  for pair, found in bad.items() if pair not in KNOWN_UPWARD}
    assert unexpected == {}
    gone = [f"{pair} ({lane})" for pair, lane in KNOWN_UPWARD.items() if pair not in bad]
    assert gone == [], "removed: take these off KNOWN_UPWARD"


def test_the_library_imports_no_folder_of_the_repository_outside_it() -> None:
    _, external = _graph()
    assert external == []
