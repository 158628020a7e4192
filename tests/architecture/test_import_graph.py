"""The import graph of ``compiler/``: no circle, and data flowing one way (docs/architecture.md).

Every module of ``compiler/`` is parsed with :mod:`ast`; every ``import`` and ``from ... import``
counts wherever it stands (at the top, inside a function, under ``if``), relative imports are
resolved against the importing module's package, and ``from pkg import mod`` counts as an import
of ``pkg.mod`` when that is a module (and of ``pkg`` unless the importer lies inside ``pkg``,
which Python has imported first anyway).

The stages, lowest first. A module may import modules of its own stage or of a lower one, never of
a higher one; inside a stage the graph must still have no circle. A module belongs to the stage of
the longest prefix below that names it; every module must have one (a new package is placed here
on purpose).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

# the module's import graph (fixture graph) is read on one pytest-xdist worker only (make test)
pytestmark = pytest.mark.xdist_group("import_graph")

ROOT = Path(__file__).resolve().parents[2]

# (stage, module prefixes), lowest first: spec -> lang -> ir -> lint -> codegen -> runtime ->
# analysis -> documents, with the shared values at the bottom and the interfaces at the top.
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # typed values every stage shares (Odds, Money, Card, rankings), the build cache, the limits
    # on input sizes; the empty root package
    ("values", ("compiler.values", "compiler.cache", "compiler.spec.limits", "compiler")),
    # the registry of step kinds (each kind's parameters and expressions): the schema, the IR,
    # codegen and the runtime read it; it imports nothing of the compiler
    ("steps", ("compiler.steps",)),
    # the rulespec read with positions, its schema and data checks, diagnostics
    ("spec", ("compiler.spec",)),
    # the rule language: grammar, names, compilation to Python, plain words, citations
    ("lang", ("compiler.lang",)),
    # the typed intermediate representation of a chapter
    ("ir", ("compiler.ir",)),
    # lint over the IR and the provisions' facts
    ("lint", ("compiler.lint",)),
    # game modules and forms from the IR; the pipeline spec -> IR -> lint -> module
    ("codegen", ("compiler.codegen", "compiler.pipeline")),
    # the round engine the generated game modules run on
    ("runtime", ("compiler.runtime",)),
    # figures of the compiled games: exact routes, solvers, simulation (and its fast path)
    ("analysis", ("compiler.analysis", "compiler.fast")),
    # documents: generated/ (build), Rules Submissions, rendering, regulation text tools
    ("documents", ("compiler.build", "compiler.submission", "compiler.render", "compiler.text")),
    # what people use: the command line, play, hand histories, the browser form
    ("interfaces", ("compiler.cli", "compiler.cli_extras", "compiler.commands", "compiler.play",
                    "compiler.game_commands", "compiler.round_file", "compiler.round_checks", "compiler.round_tests",
                    "compiler.serve")),
)

# (importer, imported) pairs allowed to run against the stages. Empty: none is.
ALLOWED_BACK_EDGES: frozenset[tuple[str, str]] = frozenset()

# The code generator (compiler/codegen) is read, past its own stage, only by what writes its products: every
# other module runs the game as compiler/runtime/from_ir.py translates it from the IR (issue 25 item 1), so
# analysis, submissions, text tools and commands never depend on the source of a game module.
CODEGEN_IMPORTERS: dict[str, str] = {
    "compiler.build": "writes generated/: the game modules, blank forms and schemas",
    "compiler.submission.formats": "renders the Rules Submission documents with the templates of compiler/codegen",
}
# compiler.pipeline's loaders of a generated game module (its source exec'd): for the tests that prove the
# generated modules; no module of the compiler calls them, and nothing else of it calls exec (nor eval anywhere:
# the rule language is evaluated by its visitors, compiler/lang/closures.py)
GENERATED_LOADERS = ("load_game", "_module")


def modules_of(package_dir: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` under ``package_dir`` (a package ``__init__``
    is the package's name)."""
    out = {}
    base = package_dir.parent
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(base).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that the module ``name`` (file ``path``) imports, anywhere in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [source] + [f"{source}.{a.name}" for a in node.names]
        for t in targets:
            # ``import a.b.c`` runs a, a.b and a.b.c: the deepest one that is a module is the edge
            while t and t not in modules:
                t = t.rpartition(".")[0]
            # a package the module lies in is imported before the module itself: not an edge
            if t and t != name and not name.startswith(t + "."):
                found.add(t)
    return found


def graph_of(package_dir: Path) -> dict[str, set[str]]:
    modules = modules_of(package_dir)
    names = set(modules)
    return {name: imports_of(name, path, names) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return sorted(out)


def stage_of(module: str) -> int | None:
    best, best_len = None, -1
    for i, (_, prefixes) in enumerate(STAGES):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best_len:
                best, best_len = i, len(p)
    return best


def back_edges(graph: dict[str, set[str]]) -> list[str]:
    out = []
    for a in sorted(graph):
        for b in sorted(graph[a]):
            sa, sb = stage_of(a), stage_of(b)
            if sa is not None and sb is not None and sb > sa and (a, b) not in ALLOWED_BACK_EDGES:
                out.append(f"{a} ({STAGES[sa][0]}) imports {b} ({STAGES[sb][0]})")
    return out


def codegen_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports of the code generator from a later stage by a module not in CODEGEN_IMPORTERS."""
    codegen = STAGES.index(next(st for st in STAGES if st[0] == "codegen"))
    return [f"{a} imports {b}" for a in sorted(graph) for b in sorted(graph[a])
            if b.startswith("compiler.codegen") and (stage_of(a) or 0) > codegen and a not in CODEGEN_IMPORTERS]


def generated_module_loads(name: str, tree: ast.AST) -> list[str]:
    """Where the module ``name`` loads a generated game module (a loader of compiler.pipeline), calls exec
    (but compiler.pipeline's loader) or eval."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "compiler.pipeline":
            out += [f"{name}:{node.lineno} imports {a.name} from compiler.pipeline" for a in node.names
                    if a.name in GENERATED_LOADERS]
        elif isinstance(node, ast.Attribute) and node.attr in GENERATED_LOADERS and \
                isinstance(node.value, ast.Name) and node.value.id == "pipeline":
            out.append(f"{name}:{node.lineno} calls pipeline.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id == "eval" or node.func.id == "exec" and name != "compiler.pipeline"):
            out.append(f"{name}:{node.lineno} calls {node.func.id}")
    return out


def _edges_in(component: list[str], graph: dict[str, set[str]]) -> str:
    members = set(component)
    return "; ".join(f"{a} -> {b}" for a in component for b in sorted(graph[a] & members))


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return graph_of(ROOT / "compiler")


def test_every_compiler_module_has_a_stage(graph):
    assert [m for m in graph if stage_of(m) is None] == []


def test_no_import_circle_between_compiler_modules(graph):
    found = cycles(graph)
    assert found == [], "import circles: " + " | ".join(_edges_in(c, graph) for c in found)


def test_no_import_runs_back_up_the_stages(graph):
    assert back_edges(graph) == []


def test_only_the_writers_of_generated_files_import_the_code_generator(graph):
    assert codegen_imports(graph) == []
    assert set(CODEGEN_IMPORTERS) == {m for m in graph if any(
        b.startswith("compiler.codegen") for b in graph[m]) and not m.startswith(("compiler.codegen", "compiler.pipeline"))}


def test_no_module_of_the_compiler_loads_a_generated_game_module():
    found = []
    for name, path in modules_of(ROOT / "compiler").items():
        if name != "compiler.pipeline":
            found += generated_module_loads(name, ast.parse(path.read_text(encoding="utf-8")))
    assert found == []


# -- the checks themselves, on a made-up package ------------------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "compiler"
    for rel, text in files.items():
        p = pkg / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return pkg


def test_graph_sees_imports_inside_functions_relative_and_from_package(tmp_path):
    pkg = _package(tmp_path, {
        "__init__.py": "",
        "spec/__init__.py": "",
        "spec/loader.py": "def f():\n    from compiler.runtime import engine\n",
        "runtime/__init__.py": "",
        "runtime/engine.py": "from . import cards\nimport compiler.spec.loader as L\n",
        "runtime/cards.py": "from .engine import x\n",
    })
    g = graph_of(pkg)
    assert g["compiler.spec.loader"] == {"compiler.runtime", "compiler.runtime.engine"}
    assert g["compiler.runtime.engine"] == {"compiler.runtime.cards", "compiler.spec.loader"}
    assert g["compiler.runtime.cards"] == {"compiler.runtime.engine"}
    assert cycles(g) == [["compiler.runtime.cards", "compiler.runtime.engine", "compiler.spec.loader"]]
    assert back_edges(g) == ["compiler.spec.loader (spec) imports compiler.runtime (runtime)",
                             "compiler.spec.loader (spec) imports compiler.runtime.engine (runtime)"]


def test_stage_of_takes_the_longest_prefix():
    assert STAGES[stage_of("compiler.spec.limits")][0] == "values"
    assert STAGES[stage_of("compiler.spec.loader")][0] == "spec"
    assert STAGES[stage_of("compiler.cli_extras")][0] == "interfaces"
    assert stage_of("elsewhere.module") is None


def test_codegen_checks_see_an_analysis_module_reading_a_generated_module():
    g = {"compiler.analysis.x": {"compiler.codegen.generate", "compiler.pipeline"}, "compiler.build": {"compiler.codegen"},
         "compiler.codegen.generate": {"compiler.ir.model"}}
    assert codegen_imports(g) == ["compiler.analysis.x imports compiler.codegen.generate"]
    tree = ast.parse("from compiler.pipeline import compile_spec, load_game\nfrom compiler import pipeline\n"
                     "def f(s):\n    exec(s)\n    return pipeline._module('m', eval(s))\n")
    assert generated_module_loads("compiler.analysis.x", tree) == [
        "compiler.analysis.x:1 imports load_game from compiler.pipeline", "compiler.analysis.x:4 calls exec",
        "compiler.analysis.x:5 calls pipeline._module", "compiler.analysis.x:5 calls eval"]
