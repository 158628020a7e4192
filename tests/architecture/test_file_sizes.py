"""No hand-written source file (the compiler, its tests, the benchmarks) is over 600 lines (issue 16):
a file that long has rooms that want names of their own. Rulespecs are data, one chapter a file,
and generated/ is written by the build; neither is counted."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 600


def long_files(root: Path, limit: int = MAX_LINES) -> list[str]:
    out = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".jinja", ".lark") and "__pycache__" not in path.parts:
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > limit:
                out.append(f"{path.relative_to(root.parent)}: {n} lines")
    return out


def test_no_compiler_source_file_over_600_lines():
    assert long_files(ROOT / "compiler") == []


def test_no_test_or_benchmark_source_file_over_600_lines():
    assert long_files(ROOT / "tests") + long_files(ROOT / "bench") == []


def test_long_files_counts_lines_of_source_files_only(tmp_path):
    pkg = tmp_path / "compiler"
    pkg.mkdir()
    (pkg / "long.py").write_text("x = 1\n" * 601)
    (pkg / "short.py").write_text("x = 1\n" * 600)
    (pkg / "data.json").write_text("1\n" * 900)
    assert long_files(pkg) == ["compiler/long.py: 601 lines"]
