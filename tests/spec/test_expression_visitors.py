"""The rule language is read through one visitor base (issue 25 item 2): every reading of an expression tree
(the source printer, the sub-expression walks, the Python source of game modules, the closures of house ways,
the plain words of the blank form) is an :class:`ExprVisitor` with a case per node type and, where it reads
references, a case per owner. A construct added to the language without a case in every visitor fails here,
naming the visitor and the case; a visitor written without a case is refused when its module is imported."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

import compiler.lang.closures  # noqa: F401  (registers its visitor)
import compiler.lang.emit  # noqa: F401
import compiler.analysis.card_reads  # noqa: F401
import compiler.fast.expressions  # noqa: F401
import compiler.lang.plain  # noqa: F401
from compiler.lang import syntax
from compiler.lang.names import FUNCTIONS, OWNERS, expr_nodes
from compiler.lang.syntax import (EXPR_CASES, REF_CASES, VISITORS, ExprVisitor, Node, RefVisitor, missing_cases,
                                  nodes, parse_expr, source)
from compiler.runtime.context import Context

KNOWN = {"compiler.lang.syntax._Source", "compiler.lang.syntax.Children", "compiler.lang.names._ExprChildren",
         "compiler.lang.emit.PythonSource", "compiler.lang.closures.Closure", "compiler.lang.plain.Words",
         "compiler.analysis.card_reads._CardOnly", "compiler.analysis.card_reads._ZoneReads",
         "compiler.lang.names._NameCheck", "compiler.fast.expressions._VectorExpr"}


def test_every_reader_of_the_language_is_a_registered_visitor_with_every_case():
    assert KNOWN <= set(VISITORS)
    assert {name: missing_cases(cls) for name, cls in VISITORS.items() if missing_cases(cls)} == {}


def test_a_node_type_added_to_the_language_is_missing_in_every_visitor_by_name(monkeypatch):
    @dataclass(frozen=True)
    class Dummy(Node):
        item: Node

    monkeypatch.setitem(EXPR_CASES, Dummy, "dummy")
    missing = {name: missing_cases(cls) for name, cls in VISITORS.items()}
    assert set(missing) >= KNOWN
    assert all(m == ["dummy (node Dummy)"] for m in missing.values()), missing
    with pytest.raises(TypeError, match=r"_Source: no case for node Dummy"):
        source(Dummy(parse_expr("1")))


def test_an_owner_added_to_the_references_is_missing_in_every_visitor_that_reads_references(monkeypatch):
    monkeypatch.setitem(REF_CASES, "shoe", "ref_shoe")
    readers = {name for name, cls in VISITORS.items() if issubclass(cls, RefVisitor)}
    assert readers >= {"compiler.lang.emit.PythonSource", "compiler.lang.closures.Closure"}
    for name in readers:
        assert missing_cases(VISITORS[name]) == ["ref_shoe (references of owner shoe)"], name


def test_a_visitor_written_without_a_case_is_refused_when_defined():
    with pytest.raises(TypeError, match=r"Printer has no case for .*neg \(node Neg\)"):
        class Printer(ExprVisitor):  # noqa: F841
            def lit(self, n): return ""
            def ref(self, n): return ""
            def call(self, n): return ""
            def binop(self, n): return ""
            def boolop(self, n): return ""
            def not_(self, n): return ""
    with pytest.raises(TypeError, match=r"Reader has no case for .*ref_dice \(references of owner dice\)"):
        class Reader(RefVisitor):  # noqa: F841
            lit = call = binop = boolop = not_ = neg = ref_zone = ref_event = ref_pocket = ref_round = \
                ref_state = (lambda self, *a: None)
    assert not any(k.endswith(("Printer", "Reader")) for k in VISITORS)


def test_the_owners_of_references_are_the_languages_owners():
    assert set(REF_CASES) == set(OWNERS)


def test_every_function_of_the_language_has_its_case_in_the_engines_context(monkeypatch):
    """The functions are read by the visitors through one case (a call on the context): the engine's
    ``Context`` is where each function has its meaning, so every function of the language is one of its methods."""
    def missing():
        return sorted(f for f in FUNCTIONS if not callable(getattr(Context, f, None)))

    assert missing() == []
    monkeypatch.setitem(FUNCTIONS, "dummy_function", ("expr",))
    assert missing() == ["dummy_function"]


@pytest.mark.parametrize("text", [
    "total(player.hand) < 21 and not chose(hit_or_stand, stand)",
    "any_player(active()) or card(player.hand, 1) == dice.total",
    "-(wager(initial) / 2) >= 1.5 or not (option(x) and pocket.number == 0)",
    "is_hand(poker, player.cards, A) and state.point != 0",
])
def test_the_source_printer_and_the_walks_agree_with_the_parser(text):
    tree = parse_expr(text)
    assert parse_expr(source(tree)) == tree
    assert [type(n).__name__ for n in nodes(tree)][0] == type(tree).__name__
    every = list(nodes(tree))
    exprs = list(expr_nodes(tree))
    assert all(any(e is n for n in every) for e in exprs)
    # names taken by a function (a ranking, a decision, a choice) are not expressions of their own
    assert not any(getattr(n, "parts", None) in (("hit_or_stand",), ("poker",), ("initial",)) for n in exprs)


def test_the_python_source_and_the_closures_read_every_owner_alike():
    """The generated module's code and a house way's closure read each owner through the same context call."""
    from compiler.lang.closures import closure
    from compiler.lang.emit import compile_expr

    class Ctx:
        def zone(self, owner, attr): return ("zone", owner, attr)
        def event_attr(self, a): return ("event", a)
        def dice_attr(self, a): return ("dice", a)
        def pocket_attr(self, a): return ("pocket", a)
        def round_attr(self, a): return ("round", a)
        def state_attr(self, a): return ("state", a)

    for owner in OWNERS:
        tree = parse_expr(f"{owner}.x")
        ctx = Ctx()
        assert eval(compile_expr(tree), {"ctx": ctx}) == closure(tree)(ctx), owner
    assert syntax.VISITORS is VISITORS


class _Recorder:
    """A context that records every call made on it (callables shown as ``<fn>``) and answers 2."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        def call(*args, **kw):
            self.calls.append((name, tuple("<fn>" if callable(a) else a for a in args),
                               tuple(sorted((k, "<fn>" if callable(v) else v) for k, v in kw.items()))))
            from decimal import Decimal
            return Decimal(2)
        return call


def _every_action():
    from pathlib import Path

    from compiler.pipeline import compile_spec

    root = Path(__file__).resolve().parents[2]
    for path in sorted(root.glob("rulespecs/*.yaml")) + sorted(root.glob("tests/fixtures/chapters/*.yaml")):
        ch = compile_spec(path).chapter
        rules = [r for s in ch.all_steps() for r in s.rules] + [r for i in ch.irregularities for r in i.rules]
        for r in rules:
            for a in r.then:
                yield path.name, r.cite, a
        for s in ch.all_steps():
            for c in s.choices:
                for a in c.then:
                    yield path.name, c.cite, a


def test_every_outcome_of_every_chapter_makes_the_same_calls_as_source_and_as_closure():
    """Outcomes are read once (``emit.action_call``): the game module's source and the closure of every
    outcome of every chapter make the same calls on the context, with the same arguments."""
    from decimal import Decimal  # noqa: F401  (the generated source names it)
    from fractions import Fraction  # noqa: F401

    from compiler.lang.closures import action_closure
    from compiler.lang.emit import compile_action
    from compiler.values.odds import Odds  # noqa: F401

    kinds = set()
    n = 0
    for where, cite, a in _every_action():
        by_source, by_closure = _Recorder(), _Recorder()
        exec(compile_action(a, cite), {"ctx": by_source, "Decimal": Decimal, "Fraction": Fraction, "Odds": Odds})
        action_closure(a, cite)(by_closure)
        assert by_source.calls == by_closure.calls, (where, cite, a)
        kinds.add(a.kind)
        n += 1
    assert n > 400 and {"win", "lose", "push", "return", "set", "place", "end", "set_state"} <= kinds
