"""Which kind a test is, read from what it uses: the markers ``unit``, ``docgen`` and ``integration``.

``tests/conftest.py`` gives every collected test one of them, so ``pytest -m unit`` (or ``-m "not
integration"``) picks a fast loop without anyone keeping lists of tests:

- ``integration``: the test starts or talks to something outside the test process -- a server (the
  OpenAI-compatible one on 127.0.0.1, moto's S3, PostgreSQL, MCP over HTTP), Prefect, Chromium, or any
  subprocess (a second Python, the CLI in a child process, parallel writers);
- ``docgen``: otherwise, the test generates a real document (a PDF with PyMuPDF, a DOCX with python-docx,
  or through the generators ``docgen``, ``structgen`` and ``tocgen``) and reads it back;
- ``unit``: neither.

What a test uses is read statically from its source (``ast``): the names its function refers to, those of
every fixture it requests (pytest's own closure, autouse fixtures included) and, transitively, of the helper
functions of the same file they call. A test marked by hand with one of the three keeps that mark.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

KINDS = ("unit", "docgen", "integration")

INTEGRATION_FIXTURES = frozenset({"server", "prefect_api", "s3", "postgres"})
"""Fixtures that start a server (tests/conftest.py, test_flows.py, test_store_lake.py)."""

INTEGRATION_MODULES = frozenset({"subprocess", "multiprocessing", "prefect", "openai_server", "browser", "mcp",
                                 "boto3", "moto", "treebuild.orchestrate"})
"""Modules whose use means another process or a server: what a test imports from them, it runs."""

DOCUMENT_MODULES = frozenset({"docgen", "structgen", "tocgen", "pymupdf", "fitz", "docx"})
"""The tests' document generators and the libraries that write PDF and DOCX files."""


@dataclass
class _File:
    """One source file: the names each top-level function refers to, and where imported names come from."""

    functions: dict[str, set[str]] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)  # local name -> module it was imported from


def _names(node: ast.AST, origins: dict[str, str]) -> set[str]:
    """Names a function refers to; a module imported inside it counts by its local name (recorded in origins)."""
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Import):
            for alias in sub.names:
                local = alias.asname or alias.name.partition(".")[0]
                origins.setdefault(local, alias.name)
                found.add(local)
        elif isinstance(sub, ast.ImportFrom) and sub.module and not sub.level:
            for alias in sub.names:
                local = alias.asname or alias.name
                origins.setdefault(local, sub.module)
                found.add(local)
    return found


@cache
def _parse(path: str) -> _File:
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), path)
    parsed = _File()
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                parsed.origins[alias.asname or alias.name.partition(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                parsed.origins[alias.asname or alias.name] = node.module
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name not in parsed.functions:
            parsed.functions[node.name] = _names(node, parsed.origins)
        elif isinstance(node, ast.ClassDef):
            parsed.functions.setdefault(node.name, _names(node, parsed.origins))
    return parsed


def _modules_used(path: str, function: str) -> set[str]:
    """Modules whose names ``function`` of the file ``path`` uses, through the file's own helpers."""
    parsed = _parse(path)
    seen: set[str] = set()
    todo = [function]
    used: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for ref in parsed.functions.get(name, ()):
            if ref in parsed.origins:
                used.add(parsed.origins[ref])
            elif ref in parsed.functions:
                todo.append(ref)
    return used


def _source(obj: Any) -> tuple[str, str] | None:
    try:
        return inspect.getsourcefile(obj) or "", obj.__name__
    except TypeError:
        return None


def _matches(module: str, roots: frozenset[str]) -> bool:
    return any(module == root or module.startswith(root + ".") for root in roots)


def kind_of(item: Any) -> str:
    """``integration``, ``docgen`` or ``unit`` for a collected pytest item (see the module's docstring)."""
    fixtures = set(getattr(item, "fixturenames", ()))
    if fixtures & INTEGRATION_FIXTURES:
        return "integration"
    used: set[str] = set()
    function = getattr(item, "function", None)
    where = _source(function) if function is not None else None
    if where:
        used |= _modules_used(*where)
    info = getattr(item, "_fixtureinfo", None)
    for name in fixtures:
        for definition in (info.name2fixturedefs.get(name, ()) if info else ()):
            func = getattr(definition, "func", None)
            place = _source(func) if func is not None else None
            if place and place[0].startswith(str(Path(__file__).parent)):  # the tests' own fixtures only
                used |= _modules_used(*place)
    if any(_matches(m, INTEGRATION_MODULES) for m in used):
        return "integration"
    if any(_matches(m, DOCUMENT_MODULES) for m in used):
        return "docgen"
    return "unit"
