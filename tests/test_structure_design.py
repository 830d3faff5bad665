"""Design checks of ``treebuild/structure``: functions stay short enough to read whole."""

from __future__ import annotations

import ast
from pathlib import Path

import treebuild.structure

STRUCTURE = Path(treebuild.structure.__file__).parent
MAX_FUNCTION_LINES = 80
"""Issue 8: no function in structure/ over about 80 lines (a longer one is several steps to name)."""


def long_functions(root: Path, limit: int) -> list[str]:
    """``path:line name (n lines)`` of every function or method under ``root`` longer than ``limit``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > limit:
                    out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({n} lines)")
    return out


def test_no_function_in_structure_is_over_80_lines() -> None:
    assert long_functions(STRUCTURE, MAX_FUNCTION_LINES) == []


def test_the_check_finds_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "m.py").write_text(f"def short():\n    return 1\n\n\ndef long():\n{body}\n", encoding="utf-8")
    assert long_functions(tmp_path, MAX_FUNCTION_LINES) == [f"m.py:5 long ({MAX_FUNCTION_LINES + 1} lines)"]
