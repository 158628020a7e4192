"""Every expression form by every evaluator (issue 25 item 3): every distinct expression of every chapter
(conformance_exprs.py gathers them) evaluated on the states the conformance rounds reached (the start of
their settle steps) by the generated Python, the closures and the fast path's numpy evaluator, where each
evaluates it: they must agree (the same value, or the same error for the two that run on the engine's
context). And the expressions evaluated must exercise the whole rule language (every kind of node,
operator, reference and function), but for the forms listed in UNCOVERED with the reason.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import pytest

from compiler.lang import syntax
from compiler.lang.names import FUNCTIONS, OWNERS, expr_nodes
from compiler.lang.syntax import Action, BinOp, BoolOp, Call, Node, Ref
from conformance_exprs import chapter_expressions, describe, fast_comparable
from conformance_rounds import PLAYABLE, conformance_rounds
from random_rounds import game_of

OPERATORS = ("==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "and", "or")  # rules.lark: COMPARE ADDOP MULOP

# Forms of the language no two evaluators are compared on, each with the reason: none today (the forms no
# chapter writes are written by conformance_exprs.py). A new construct is not here: it fails the coverage
# test, named, until a chapter or conformance_exprs.py writes it, or it is listed here with its reason.
UNCOVERED: dict[str, str] = {}


def _chapter(spec):
    return game_of(spec)[1].chapter


def _forms(node) -> set[str]:
    out = set()
    for n in expr_nodes(node):  # a name given to a function (a wager, a ranking) is no expression
        out.add("node:" + type(n).__name__)
        if isinstance(n, Call):
            out.add("fn:" + n.name)
        elif isinstance(n, (BinOp, BoolOp)):
            out.add("op:" + n.op)
        elif isinstance(n, Ref):
            out.add("ref:" + n.parts[0])
    return out


@lru_cache(maxsize=None)
def _compare(spec):
    """(disagreements, forms exercised: of the expressions evaluated by two evaluators at least, counts of
    the values compared per evaluator)."""
    exprs = chapter_expressions(_chapter(spec))
    bad, twice, counts = [], set(), Counter()
    for rec in conformance_rounds(spec):
        assert rec.error is None, f"{rec.label}: {rec.error!r}"
        for ev in rec.states:
            for (ix, seat), got in ev.values.items():
                py = got["python"]
                evaluators = 1
                counts["python"] += 1
                if "closures" in got:
                    counts["closures"] += 1
                    evaluators += 1
                    if got["closures"] != py:
                        bad.append((rec, seat, ix, f"python {py} != closures {got['closures']}"))
                pair = fast_comparable(exprs[ix].node, py, got.get("fast"))
                if got.get("fast", ("",))[0] == "raises":
                    bad.append((rec, seat, ix, f"python {py}, fast raises {got['fast']}"))
                elif pair is not None:
                    counts["fast"] += 1
                    evaluators += 1
                    if pair[0] != pair[1]:
                        bad.append((rec, seat, ix, f"python {pair[0]!r} != fast {pair[1]!r}"))
                if evaluators >= 2:
                    twice.add(ix)
    forms = set().union(*(_forms(exprs[ix].node) for ix in twice)) if twice else set()
    return [f"{rec.label}, seat {seat}: {describe(exprs[ix])}: {what}" for rec, seat, ix, what in bad], forms, counts


@pytest.mark.parametrize("spec", PLAYABLE, ids=lambda p: p.stem)
def test_every_expression_of_the_chapter_agrees_by_every_evaluator(spec):
    bad, forms, counts = _compare(spec)
    assert not bad, f"{len(bad)} disagreements, e.g.:\n" + "\n".join(bad[:10])
    assert counts["python"] and counts["closures"], counts  # expressions were evaluated on some state


def test_the_expressions_evaluated_exercise_the_whole_language():
    language = {"node:" + c.__name__ for c in vars(syntax).values()
                if isinstance(c, type) and issubclass(c, Node) and c not in (Node, Action)}
    language |= {"fn:" + f for f in FUNCTIONS} | {"op:" + o for o in OPERATORS} | {"ref:" + o for o in OWNERS}
    forms: set[str] = set()
    for spec in PLAYABLE:
        forms |= _compare(spec)[1]
    missing = language - forms - set(UNCOVERED)
    assert not missing, f"forms of the rule language no evaluator was compared on: {sorted(missing)}"
    assert not (set(UNCOVERED) & forms), f"listed as not covered, but covered: {sorted(set(UNCOVERED) & forms)}"
    assert set(UNCOVERED) <= language, f"not forms of the language: {sorted(set(UNCOVERED) - language)}"
