"""No module outside ``compiler/ir`` reads ``Chapter.data`` (issue 25 item 1).

``compiler.ir.model.Chapter`` still carries ``data``, the raw validated YAML it was built from; every
later stage reads the typed fields instead (``Chapter.options``, ``.completeness``, ``.missing``,
``.meters``, ``.source``, the read-only ``.rankings``, ``.cards``, ``.table``...). A ``Document``'s
``doc.data`` (the loader's YAML: spec checks, lint on documents, hand histories, submissions) is a
parsing stage's input and stays.

The check is a simple, honest heuristic over the syntax tree of each module (no type inference): an
attribute access ``.data`` (or ``getattr(X, "data")``) is a Chapter's data when its object is

* a name or attribute named ``chapter`` or ``ch``, or whose name contains ``chapter``
  (``chapter.data``, ``ch.data``, ``c.chapter.data``, ``compiled.chapter.data``, ``old_chapter.data``);
* a name known to hold a Chapter in that module: a parameter annotated ``Chapter``, or a name
  assigned from such an expression (``ch2 = sub.chapter``; ``x: Chapter = ...``).

It does not follow values through calls or containers: a Chapter passed under another name to a
function that reads ``.data`` would escape it (the function's parameter, if annotated ``Chapter``,
does not).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPILER = ROOT / "compiler"


def _mentions_chapter(node: ast.AST, known: set[str]) -> bool:
    if isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Attribute):
        name = node.attr
    else:
        return False
    return name in ("chapter", "ch") or "chapter" in name.lower() or (isinstance(node, ast.Name) and name in known)


def _annotated_chapter(ann: ast.AST | None) -> bool:
    return ann is not None and "Chapter" in ast.unparse(ann).replace("TextChapter", "")


def _known_chapters(tree: ast.AST) -> set[str]:
    """Names bound to a Chapter in the module: annotated parameters and variables, and names assigned
    from an expression that mentions a chapter (``ch2 = sub.chapter``)."""
    known: set[str] = set()
    for _ in range(2):  # an alias of an alias
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs):
                    if _annotated_chapter(arg.annotation):
                        known.add(arg.arg)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                if _annotated_chapter(node.annotation):
                    known.add(node.target.id)
            elif isinstance(node, ast.Assign) and _mentions_chapter(node.value, known):
                known.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return known


def chapter_data_reads(source: str, path: str = "<string>") -> list[str]:
    """``path:line: expression`` for each read of a Chapter's ``.data`` in ``source``."""
    tree = ast.parse(source, path)
    known = _known_chapters(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "data" and _mentions_chapter(node.value, known):
            out.append((node.lineno, node.col_offset, f"{path}:{node.lineno}: {ast.unparse(node)}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "data" \
                and _mentions_chapter(node.args[0], known):
            out.append((node.lineno, node.col_offset, f"{path}:{node.lineno}: {ast.unparse(node)}"))
    return [text for _, _, text in sorted(out)]


def test_the_heuristic_finds_the_forms_it_names():
    src = """
def f(c, compiled, sub, doc, table: "Chapter"):
    a = c.chapter.data
    b = compiled.chapter.data.get("options")
    ch = sub.chapter
    x = ch.data
    chapter = ch
    y = chapter.data["missing"]
    z = getattr(old_chapter, "data")
    w = table.data
    alias = sub.chapter
    v = alias.data
    return doc.data, sub.data, cd.data
"""
    found = [line.split(": ", 1)[1] for line in chapter_data_reads(src)]
    assert found == ["c.chapter.data", "compiled.chapter.data", "ch.data", "chapter.data",
                     "getattr(old_chapter, 'data')", "table.data", "alias.data"]


def test_no_module_outside_compiler_ir_reads_chapter_data():
    problems = []
    for path in sorted(COMPILER.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("compiler/ir/"):
            continue
        problems += chapter_data_reads(path.read_text(encoding="utf-8"), rel)
    assert not problems, "Chapter.data read outside compiler/ir (read the IR's typed fields):\n" + "\n".join(problems)
