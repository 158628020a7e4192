"""No function in compiler/ is over 80 lines (issue 25 item 5): a function that long does several things that
want names of their own. Counted from its ``def`` line to its last line (decorators not counted), nested
functions and methods each on their own; the tests and benchmarks are not held to it."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_FUNCTION_LINES = 80


def long_functions(root: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > limit:
                    out.append(f"{path.relative_to(root.parent)}:{node.lineno}: {node.name} has {n} lines")
    return out


def test_no_function_in_the_compiler_over_80_lines():
    assert long_functions(ROOT / "compiler") == []


def test_long_functions_counts_each_function_and_method_on_its_own(tmp_path):
    pkg = tmp_path / "compiler"
    pkg.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(79))
    (pkg / "a.py").write_text(f"def short():\n{body}\n\nclass C:\n    @property\n    def long(self):\n"
                              + body.replace("    ", "        ") + "        return 1\n")
    found = long_functions(pkg)
    assert len(found) == 1 and found[0].startswith("compiler/a.py:") and found[0].endswith(": long has 81 lines")
