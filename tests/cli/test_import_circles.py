"""No import circle runs through the documents and the command line (issue 16, item 1): the
build imports the submission modules, never the reverse; schedule does not reach into the
submission command's private table; the CLI's helpers do not import the CLI."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MINE = ("compiler.build", "compiler.submission", "compiler.cli", "compiler.cli_extras", "compiler.play",
        "compiler.game_commands", "compiler.serve", "compiler.render", "compiler.codegen.markdown")


def import_graph() -> dict[str, set[str]]:
    """Module -> the compiler modules it imports, at module level or inside functions alike."""
    mods = {}
    for p in (ROOT / "compiler").rglob("*.py"):
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        mods[name] = p
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("compiler"):
                graph[m] |= {f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in mods}
                if node.module in mods:
                    graph[m].add(node.module)
            elif isinstance(node, ast.Import):
                graph[m] |= {a.name for a in node.names if a.name in mods}
    return graph


def reaches(graph, start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        for n in graph[m]:
            if n == goal:
                return True
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def test_no_import_circle_through_the_documents_or_the_command_line():
    graph = import_graph()
    circles = [m for m in graph if m.startswith(MINE) and reaches(graph, m, m)]
    assert circles == []


def test_submission_modules_never_import_the_build():
    graph = import_graph()
    assert not [m for m in graph if m.startswith("compiler.submission") and "compiler.build" in graph[m]]


def test_one_list_of_document_formats():
    from compiler.submission.formats import FORMATS

    assert [f.ext for f in FORMATS] == ["md", "html", "pdf"]
    src = (ROOT / "compiler" / "build.py").read_text(encoding="utf-8")
    assert ".pdf" not in src.split('"""', 2)[2]  # the build names no format: it writes what the list makes
