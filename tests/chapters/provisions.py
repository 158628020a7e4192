"""Shared by the chapter tests: which numbered provisions the tests of a module cover.

    COVERAGE = Coverage()
    @COVERAGE.covers("§ 669a.11(f)")
    def test_669a_11_f_fold_forfeits_ante_and_blind(...): ...
    ...
    def test_every_numbered_provision_is_covered(data):
        assert COVERAGE.missing(data, {"669a.11", ...}) == []
"""
from __future__ import annotations

from compiler.lang.citations import expand, parse_citation


def numbered_provisions(data: dict, sections) -> list[str]:
    """Every numbered provision (subsection, paragraph, ...) of the given sections of a rulespec."""
    out: list[str] = []

    def walk(nodes, cite):
        for n in nodes or ():
            if not n.get("label"):
                continue
            c = f"{cite}({n['label']})"
            out.append(c)
            walk(n.get("children"), c)

    for s in data["provisions"]:
        if s["section"] in sections:
            walk(s.get("children"), f"§ {s['section']}")
    return out


class Coverage:
    def __init__(self) -> None:
        self.covered: set[str] = set()

    def covers(self, *cites: str):
        """Decorator recording the provisions a test covers (ranges such as (a)—(c) expand)."""
        for c in cites:
            for x in expand(parse_citation(c)):
                self.covered.add(x.format())
        return lambda fn: fn

    def missing(self, data: dict, sections) -> list[str]:
        return [c for c in numbered_provisions(data, sections) if c not in self.covered]
