"""One contract for every analysis method (compiler/analysis/contract.py, issue 24.1): a method applies only
when every construct of the chapter's active procedure is one it declares. A step kind or a function added
to the registries, and declared by no method, makes every method refuse it by name; the analysis then gives
no figure ("not modelled by any method"), never the figure of the game without it.

The case of the issue: Three Card Poker (tests/fixtures/chapters/three-card-poker.yaml, NOT official text)
with a new step "draw one more card while the player has no pair" before the Pair Plus is settled: the
paytable route used to price the Pair Plus as if the step were not there (-128/5525, "exact")."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from compiler.analysis import contract
from compiler.analysis.report import METHODS, analyze
from compiler.ir.model import Rule, Src, Step as IRStep
from compiler.lang import names
from compiler.lang.syntax import Action, Call, Ref
from compiler.pipeline import load_game
from compiler.runtime.definition import Step as RTStep
from compiler.steps import KINDS, StepKind

ROOT = Path(__file__).resolve().parents[2]
TCP = ROOT / "tests/fixtures/chapters/three-card-poker.yaml"
DECLARED = [d for m in METHODS for d in m.declarations]


@pytest.fixture(scope="module")
def tcp():
    mod, comp = load_game(TCP)
    return mod.GAME, comp.chapter


@pytest.fixture
def dummies(monkeypatch):
    """A step kind and a function in the registries, as a new construct of the language would be added."""
    monkeypatch.setitem(KINDS, "draw_while", StepKind("draw_while", "deals one more card to each player while "
                                                      "the condition holds", params={"zone": {"type": "string"}},
                                                      exprs={"while": "the condition"}))
    monkeypatch.setitem(names.FUNCTIONS, "no_pair", ("expr",))
    contract._CACHE.clear()
    yield
    contract._CACHE.clear()


def _with_step(game, chapter, after: str, ir: IRStep, rt: RTStep):
    def insert(steps, new):
        out = []
        for s in steps:
            out.append(s)
            if s.id == after:
                out.append(new)
        return tuple(out)
    return (dataclasses.replace(game, procedure=insert(game.procedure, rt)),
            dataclasses.replace(chapter, procedure=insert(chapter.procedure, ir)))


def _draw_while(game, chapter):
    src = Src(str(TCP), 75, 5, "/procedure/1")
    cond = Call("no_pair", (Ref(("player", "hand")),))
    ir = IRStep("draw_more", "draw_while", "§ 905.6(a)", src, params=(("zone", "hand"),),
                exprs=(("while", cond, "no_pair(player.hand)"),))
    rt = RTStep("draw_more", "draw_while", "§ 905.6(a)", params={"zone": "hand"}, exprs={"while": lambda ctx: True})
    return _with_step(game, chapter, "deal_players", ir, rt)


def test_every_seeded_and_test_chapter_is_modelled_by_some_method():
    """The declarations cover what the routes computed before the contract (build --check is unchanged)."""
    for spec in [*sorted((ROOT / "rulespecs").glob("*.yaml")), *sorted((ROOT / "tests/fixtures/chapters").glob("*.yaml"))]:
        mod, comp = load_game(spec)
        whys = [contract.refusal(d, mod.GAME, comp.chapter) for d in DECLARED]
        assert any(w is None for w in whys), (spec.name, whys)


def test_a_new_step_kind_is_refused_by_every_method_by_name(tcp, dummies):
    game, chapter = _draw_while(*tcp)
    contract._CACHE.clear()
    items = contract.constructs(game, chapter, {})
    for d in DECLARED:
        why = contract.refusal(d, game, chapter)
        unmodelled = [c for c in items if not contract.METHODS[d].models(c)]
        assert why is not None and any(c.category == "step kind" and c.name == "draw_while" for c in unmodelled)
        if not any(c.category == "step kind" and c.name == "deal" for c in unmodelled):  # it models the deal
            assert why.startswith("step kind 'draw_while' (§ 905.6(a)"), (d, why)
    for m in METHODS:
        assert m.refusal(game, chapter, {}) is not None, m.name


def test_the_draw_while_no_pair_game_gets_no_pair_plus_figure(tcp, dummies):
    game, chapter = _draw_while(*tcp)
    rep = analyze(game, chapter, {})
    assert rep.figures == []  # above all not Pair Plus at -128/5525, the game without the step
    why = {n.wager: n.reason for n in rep.not_computed}
    assert set(why) == {"ante", "pair_plus", "play"}
    assert all(r.startswith("step kind 'draw_while' (§ 905.6(a)") and r.endswith("is not modelled by any method")
               for r in why.values()), why


def test_a_new_function_is_refused_by_every_method_by_name(tcp, dummies):
    game, chapter = tcp
    settle = next(s for s in chapter.procedure if s.kind == "settle")
    rule = Rule("§ 905.7(c)", Call("no_pair", (Ref(("player", "hand")),)), "no_pair(player.hand)",
                (Action("lose", wager="pair_plus"),), "lose pair_plus", settle.src)
    chapter = dataclasses.replace(chapter, procedure=tuple(
        dataclasses.replace(s, rules=(rule, *s.rules)) if s is settle else s for s in chapter.procedure))
    contract._CACHE.clear()
    items = contract.constructs(game, chapter, {})
    for d in DECLARED:
        why = contract.refusal(d, game, chapter)
        unmodelled = [c for c in items if not contract.METHODS[d].models(c)]
        assert why is not None and any(c.category == "function" and c.name == "no_pair" for c in unmodelled), (d, why)
        if len(unmodelled) == 1:  # a method that models the rest of the chapter names the new function
            assert why.startswith("function 'no_pair' (§ 905.7(c)"), (d, why)
    assert sum(len([c for c in items if not contract.METHODS[d].models(c)]) == 1 for d in DECLARED) >= 3
    rep = analyze(game, chapter, {})
    # the rule acts on the Pair Plus alone: the Pair Plus gets no figure, named by the function, and the Ante and
    # Play are analysed as if the Pair Plus were not offered (compiler/analysis/per_wager.py): their figures are
    # those of the chapter without the rule, fraction for fraction
    assert [(n.wager, "function 'no_pair' (§ 905.7(c)" in n.reason) for n in rep.not_computed] == [("pair_plus", True)]
    assert rep.figures and all("pair_plus" not in f.stakes for f in rep.figures)
    plain = analyze(game, tcp[1], {})
    expected = {(f.stakes, f.policy.text): (f.expected_return, f.per_total_wagered, f.hit_frequency, f.outcomes) for f in plain.figures
                if "pair_plus" not in f.stakes}
    assert {(f.stakes, f.policy.text): (f.expected_return, f.per_total_wagered, f.hit_frequency, f.outcomes) for f in rep.figures} == expected


def test_a_new_parameter_value_is_refused(tcp):
    """An allow-list of values where they matter: a deal to a place no method models."""
    game, chapter = tcp
    deal = chapter.procedure[0]
    odd = dataclasses.replace(deal, params=tuple((k, "everyone" if k == "to" else v) for k, v in deal.params))
    chapter = dataclasses.replace(chapter, procedure=(odd, *chapter.procedure[1:]))
    contract._CACHE.clear()
    dealing = [d for d in DECLARED if "deal" in contract.METHODS[d].steps]  # the methods that deal cards
    assert len(dealing) >= 5
    assert all("parameter 'deal.to=everyone'" in contract.refusal(d, game, chapter) for d in dealing)
    assert all(contract.refusal(d, game, chapter) is not None for d in DECLARED)


def test_declarations_name_only_constructs_of_the_language():
    """A typo in a declaration would declare nothing: every declared step kind, parameter, function and
    reference exists in the registries today."""
    from compiler.lang.names import OWNERS
    for name, d in contract.METHODS.items():
        assert set(d.steps) <= set(KINDS), name
        for kind, params in d.steps.items():
            assert set(params) <= set(KINDS[kind].params), (name, kind)
        assert d.functions <= set(names.FUNCTIONS), name
        assert d.references <= {*OWNERS, "name"}, name


def test_rules_of_an_unoffered_wager_are_not_part_of_the_active_procedure(dummies):
    """Let It Ride with a Three Card Bonus (tests/fixtures/chapters/let-it-ride-three-card-bonus.yaml, NOT
    official text) whose side wager's rule uses a construct no method declares: not offered, every method
    models the game; offered (or its offer not selected), every method names the construct."""
    mod, comp = load_game(ROOT / "tests/fixtures/chapters/let-it-ride-three-card-bonus.yaml")
    game, chapter = mod.GAME, comp.chapter
    settle = next(s for s in chapter.procedure if s.kind == "settle")
    rule = Rule("§ 908.8", Call("no_pair", (Ref(("player", "hand")),)), "no_pair(player.hand)",
                (Action("lose", wager="three_card_bonus"),), "lose three_card_bonus", settle.src)
    chapter = dataclasses.replace(chapter, procedure=tuple(
        dataclasses.replace(s, rules=(rule, *s.rules)) if s is settle else s for s in chapter.procedure))
    assert contract.refusal("deal classes", game, chapter, {"three_card_bonus": False}) is None
    for options in ({"three_card_bonus": True}, {}):
        assert "function 'no_pair' (§ 908.8" in contract.refusal("deal classes", game, chapter, options)
