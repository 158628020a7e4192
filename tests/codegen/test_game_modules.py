"""Game modules: rule functions named after where they are, identical bodies once, only the imports used;
the runtime they import has no import circle and evaluates no text."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from compiler.codegen.generate import render_game_module
from compiler.pipeline import compile_spec

ROOT = Path(__file__).resolve().parents[2]
WAR = ROOT / "rulespecs" / "567-war.yaml"


def _module(path, text=None) -> str:
    c = compile_spec(str(path), text)
    assert c.ok, [d.format() for d in c.errors]
    return render_game_module(c.chapter)


def _functions(src: str) -> dict[str, str]:
    tree = ast.parse(src)
    return {f.name: ast.dump(ast.Module(f.body, [])) for f in tree.body
            if isinstance(f, ast.FunctionDef) and f.name != "new_table"}


def test_rule_functions_are_named_after_their_step_and_provision():
    names = _functions(_module(WAR))
    assert not [n for n in names if re.fullmatch(r"_r\d+", n)]
    assert "_settle_original_567_9_a_2_then" in names  # step settle_original, rule § 567.9(a)(2), its outcome
    assert "_card_not_dealt_567_11_c_then" in names  # irregularity card_not_dealt, § 567.11(c)


def test_inserting_a_rule_renames_no_other_function(tmp_path):
    src = WAR.read_text(encoding="utf-8")
    anchor = "  - id: settle_original\n    do: settle\n"
    i = src.index(anchor)
    j = src.index("    rules:\n", i) + len("    rules:\n")
    new = src[:j] + "      - {cite: § 567.9(a)(1), when: not active(), then: \"note 'never'\"}\n" + src[j:]
    before, after = set(_functions(_module(WAR))), set(_functions(_module(WAR, new)))
    assert before < after and len(after - before) == 2


def test_identical_rule_bodies_are_one_function_with_every_provenance():
    src = _module(WAR)
    bodies = list(_functions(src).values())
    assert len(bodies) == len(set(bodies))
    assert "# also § " in src


def test_game_module_imports_only_what_it_uses():
    war = _module(WAR)
    head = war[:war.index("SPEC_PATH")]
    assert "paigow" not in head and "HouseWay" not in head and "MeterDef" not in head
    imported = [a.name for node in ast.parse(war).body if isinstance(node, ast.ImportFrom) for a in node.names]
    assert "Table" in imported and "Step" in imported
    for n in imported:
        assert re.search(rf"\b{n}\(", war[war.index("SPEC_PATH"):]), n
    pg = _module(ROOT / "rulespecs" / "670a-six-card-fortune-pai-gow-poker.yaml")
    assert "HouseWay" in pg[:pg.index("SPEC_PATH")]


def _imports_of(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module if node.level == 0 else f"compiler.runtime.{node.module}")
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_runtime_has_no_import_circle_and_evaluates_no_text():
    mods = {f"compiler.runtime.{p.stem}": p for p in (ROOT / "compiler" / "runtime").glob("*.py") if p.stem != "__init__"}
    graph = {m: {i for i in _imports_of(p) if i in mods} for m, p in mods.items()}
    state: dict[str, int] = {}

    def visit(m, path):
        state[m] = 1
        for n in graph[m]:
            assert state.get(n) != 1, f"import circle: {' -> '.join(path + [n])}"
            if n not in state:
                visit(n, path + [n])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [m])
    assert "compiler.runtime.engine" not in graph["compiler.runtime.paigow"]
    for p in mods.values():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("eval", "exec", "compile"), f"{p.name}: {node.func.id}()"


def test_no_hand_written_runtime_file_over_600_lines():
    for p in list((ROOT / "compiler" / "runtime").glob("*.py")) + list((ROOT / "compiler" / "steps").glob("*.py")):
        assert len(p.read_text(encoding="utf-8").splitlines()) < 600, p.name
