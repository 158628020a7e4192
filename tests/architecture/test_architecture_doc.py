"""docs/architecture.md cannot go stale (issue 25): its table of stages is the import-graph test's,
in the same order, every module of compiler/ is named in the row of its own stage, and every file
the table names exists in that stage."""
from __future__ import annotations

import re

from test_import_graph import ROOT, STAGES, modules_of

DOC = ROOT / "docs" / "architecture.md"


def stage_rows() -> dict[str, str]:
    rows = {}
    names = dict(STAGES)
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (\w+) \| (.*) \| (.*) \|$", line)
        if m and m[1] in names:
            rows[m[1]] = m[2]
    return rows


def stage_of(module: str) -> str:
    best = ("", "")
    for stage, prefixes in STAGES:
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > len(best[1]):
                best = (stage, p)
    return best[0]


def test_the_stages_of_the_doc_are_the_import_graphs_in_order():
    assert list(stage_rows()) == [s for s, _ in STAGES]


def test_every_module_is_named_in_the_row_of_its_stage():
    rows = stage_rows()
    unnamed = []
    for module, path in sorted(modules_of(ROOT / "compiler").items()):
        if path.name in ("__init__.py", "__main__.py"):
            continue
        row = rows[stage_of(module)]
        folder = path.parent.relative_to(ROOT).as_posix() + "/"
        if f"`{path.name}`" in row or f"`{path.relative_to(ROOT).as_posix()}`" in row:
            continue
        if f"`{folder}`" in row and folder != "compiler/":  # a folder named as a whole
            continue
        unnamed.append(f"{path.relative_to(ROOT)} (stage {stage_of(module)})")
    assert unnamed == [], "add them to the table of stages in docs/architecture.md"


def test_every_file_the_table_names_exists_in_its_stage():
    rows = stage_rows()
    files = {p.name: set() for p in (ROOT / "compiler").rglob("*.py")}
    for module, path in modules_of(ROOT / "compiler").items():
        files.setdefault(path.name, set()).add(stage_of(module))
    for stage, row in rows.items():
        for name in re.findall(r"`(?:[\w/]+/)?(\w+\.py)`", row):
            assert stage in files.get(name, set()), f"docs/architecture.md names {name} under {stage}: no such module there"
