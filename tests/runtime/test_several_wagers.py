"""A wager a player may have several of at once (``several: true``, issue 23): the Craps test chapter's Come
wager (tests/fixtures/chapters/craps.yaml, not official text) made after every roll while earlier ones, each
with its own point, stay in action. Each placement is an instance (come#1, come#2, ...) with its own come
point; the settle rules naming the Come run once per instance; instances settle independently, carry into
later rounds, and the money stays conserved. What would not say which instance is refused at validate, with
its position. The Markov chain values one instance (-7/495 per unit made, Wizard of Odds craps appendix 1),
the fast path refuses the wager by name, and a seeded engine simulation of a Come made after every roll
agrees with -7/495 within four standard errors."""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from compiler.analysis import contract, markov
from compiler.analysis.simulate import fast_route
from compiler.pipeline import load_game
from compiler.play.session import history_yaml, play_one, prepare_table
from compiler.runtime.audit import audit_rounds
from compiler.runtime.engine import CallbackStrategy, FixedStrategy
from cli_run import run_rulespec

ROOT = Path(__file__).resolve().parents[2]
CRAPS = ROOT / "tests" / "fixtures" / "chapters" / "craps.yaml"
# the come-out 6, then 4 (Come #1 made), 8 (its point; Come #2 made), 5 (Come #2's point; Come #3 made),
# 8 (Come #1 won; Come #3's point 8), 6 (the Pass Line's point made)
ROLLS = [[3, 3], [2, 2], [4, 4], [4, 1], [6, 2], [5, 1]]



def _three(mod):
    t = mod.new_table({}, seed=1)
    answers = iter([10, 10, 10, 0])
    r = t.play_round({1: {"pass_line": 10}}, CallbackStrategy(offer=lambda w, v: next(answers) if w == "come" else 0), rolls=ROLLS)
    return t, r


def test_each_come_wager_keeps_its_own_point_and_is_settled_on_its_own(craps):
    mod, _ = craps
    t, r = _three(mod)
    assert {(x.label, x.outcome, x.net, x.cites[0]) for x in r.results} == {
        ("come#1", "win", Decimal(10), "§ 981.7(f)"), ("pass_line", "win", Decimal(10), "§ 981.6(c)")}
    assert r.carried_out == {1: {"wagers": {"come#2": "10.00", "come#3": "10.00"},
                                 "state": {"come#2": {"come_point": 5}, "come#3": {"come_point": 8}}}}
    text = [e.format() for e in r.log]
    assert "seat 1: come_point = 8 (Come #1)  [§ 981.7(f)]" in text
    assert "seat 1: come_point = 5 (Come #2)  [§ 981.7(f)]" in text
    assert "seat 1: come_point = 8 (Come #3)  [§ 981.7(f)]" in text
    assert [e.wager for e in r.log if e.kind == "wager"] == ["pass_line", "come#1", "come#2", "come#3"]
    assert t.on_layout() == 20 and t.ledger.balance() == 0


def test_instances_carry_into_the_next_round_number_on_and_the_money_is_conserved(craps):
    mod, _ = craps
    t, r1 = _three(mod)
    # come-out 8: Come #3 wins on its point (§ 981.7(g)); after a 2 Come #4 is made; the 7 loses the Pass Line and
    # Come #2 (point 5) and wins Come #4 (no point yet)
    r2 = t.play_round({1: {"pass_line": 10}}, FixedStrategy(offers={"come": 10}), rolls=[[4, 4], [1, 1], [3, 4]])
    assert {(x.label, x.outcome, x.cites[0]) for x in r2.results} == {
        ("come#3", "win", "§ 981.7(g)"), ("pass_line", "lose", "§ 981.6(c)"), ("come#2", "lose", "§ 981.7(f)"),
        ("come#4", "win", "§ 981.7(f)")}
    assert not t.carried and t.on_layout() == 0
    a = audit_rounds([r1, r2])
    assert not a.problems and not a.unsettled and a.on_layout == 0
    assert a.players == t.ledger.players == 20 and t.ledger.balance() == 0


def test_play_saves_the_instances_and_settle_check_replays_the_round(craps, tmp_path):
    mod, _ = craps
    t, _ = _three(mod)
    prepare_table(t)

    class Player:
        def choose(self, seat, step, decision, choices, view):
            return choices[0]

        def offer(self, seat, wager, view):
            return 10

    played = play_one(t, {1: {"pass_line": 10}}, Player())
    h = yaml.safe_load(history_yaml(played.history))
    assert h["positions"]["1"]["carried"] == {"come#2": 10, "come#3": 10}
    assert h["positions"]["1"]["state"] == {"come#2": {"come_point": 5}, "come#3": {"come_point": 8}}
    f = tmp_path / "r.yaml"
    f.write_text(history_yaml(played.history), encoding="utf-8")
    r = run_rulespec("settle", CRAPS, f)
    rc, out, err = r.returncode, r.stdout, r.stderr
    assert rc == 0, err
    assert "seat 1 began the round with on the layout: Come #2 10.00 (come_point 5), Come #3 10.00 " \
           "(come_point 8)" in out


_TAKE_DOWN = ("        each: place\n        when: state.point != 0\n        players: has(place)\n        cite: § 981.7(e)\n"
              "        choices:\n          - {id: leave_up, cite: § 981.7(e)}\n"
              "          - {id: take_down, cite: § 981.7(e), then: return place}\n")


@pytest.mark.parametrize("old,new,message", [
    ("players: has(pass_line), cite: § 981.6(e)}", "players: has(pass_line) and wager(come) < 100, cite: § 981.6(e)}",
     "'wager(come)' in the step's 'players': 'come' is a wager a player may have several of"),
    ("wager: come, equal_to: pass_line, when: state.point != 0,",
     "wager: come, equal_to: pass_line, when: state.come_point != 0,",
     "'state.come_point' in the step's 'when'"),
    ("{id: take_odds, do: offer, wager: pass_odds, equal_to: pass_line,",
     "{id: take_odds, do: offer, wager: pass_odds, equal_to: come,", "'equal_to: come' names a wager a player may have"),
    ("then: return place}\n      - {id: come_bet", "then: return place; lose come}\n      - {id: come_bet",
     "'lose come': this decision is taken once per instance of 'place' (each: place); it cannot also read or settle "
     "'come'"),  # a choice per Place wager acts on that one: which Come would it lose?
    ("then: return place}\n      - {id: come_bet", "then: return place; set come_point = 0}\n      - {id: come_bet",
     "'set come_point': this decision is taken once per instance of 'place'"),
    ("        each: place\n", "        each: field\n", "'each: field': a decision is taken once for each instance of a "
     "wager a player may have several of, and 'field' is not declared several: true"),
    (_TAKE_DOWN, _TAKE_DOWN.replace("        each: place\n", "").replace("then: return place}", "then: return place; "
     "lose come}"), "'lose come' in a choice"),  # a choice returns every instance (take them down), but loses none
    ("  place: {name: Place, cite: § 981.5(d), choose: {from: [4, 5, 6, 8, 9, 10], size: 1, cite: § 981.5(d)}, "
     "several: true}", "  place: {name: Place, cite: § 981.5(d), choose: {from: [4, 5, 6, 8, 9, 10], size: 1, cite: "
     "§ 981.5(d)}, several: true, stays: until_settled}",
     "wager 'place' is declared several: true, which 'stays' cannot go with"),
    ("  field: {name: Field, cite: § 981.5(c), pays: even_money}",
     "  field: {name: Field, cite: § 981.5(c), pays: even_money, several: true}", None),
    ("  field: {name: Field, cite: § 981.5(c), pays: even_money}",
     "  field: {name: Field, cite: § 981.5(c), pays: even_money, several: true, required: true}",
     "wager 'field' is declared several: true, which 'required' cannot go with"),
])
def test_what_would_not_say_which_instance_is_refused_at_validate_with_its_position(tmp_path, old, new, message):
    text = CRAPS.read_text(encoding="utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    if message is None:  # a rule reading two wagers of several instances: which one would it run for?
        text = text.replace("then: lose field}", "then: lose field}\n      - {cite: § 981.7(a), when: has(come) and "
                            "state.come_point == 4, then: lose field}", 1)
        message = "this rule already runs once per instance of 'come'"
    f = tmp_path / "craps.yaml"
    f.write_text(text, encoding="utf-8")
    r = run_rulespec("validate", f)
    rc, out, err = r.returncode, r.stdout, r.stderr
    assert rc == 1 and message in err and "Traceback" not in err, err
    line = next(i for i, x in enumerate(err.splitlines()) if message in x)
    assert err.splitlines()[line].startswith(f"{f}:")  # FILE:LINE:COL: error: ...


def test_the_chain_values_one_come_wager_per_unit_made_and_the_other_figures_stay(craps):
    """Each instance's results are the Pass Line's (Wizard of Odds, craps appendix 1: 7/495 = 1.4141%)."""
    mod, compiled = craps
    res, _ = markov.chains(mod.GAME, compiled.chapter)
    come = res["come"]
    assert come.net / come.made == Fraction(-7, 495) and res["pass_line"].net == Fraction(-7, 495)
    assert res["dont_pass"].net == Fraction(-3, 220)
    assert res["dont_come"].net / res["dont_come"].made == Fraction(-3, 220)  # the Don't Pass's, per unit made
    names = [(c.name, c.where.split(", ")[1]) for c in contract.constructs(mod.GAME, compiled.chapter)
             if c.category == "wager"]
    assert names == [("several", "wager 'place'"), ("stays until_settled", "wager 'come'"), ("several", "wager 'come'"),
                     ("stays until_settled", "wager 'dont_come'"), ("several", "wager 'dont_come'")]
    assert contract.refusal("markov", mod.GAME, compiled.chapter) is None
    unmodelled = contract.all_unmodelled("simulation", contract.constructs(mod.GAME, compiled.chapter))
    assert [str(c).split(" (")[0] for c in unmodelled] == \
        ["wager 'several'"] + ["wager 'stays until_settled'", "wager 'several'"] * 2


def test_the_chain_refuses_instances_that_interact(tmp_path):
    text = CRAPS.read_text(encoding="utf-8").replace(
        "players: has(pass_line), cite: § 981.6(e)}", "players: has(pass_line) and not has(come), cite: § 981.6(e)}")
    f = tmp_path / "craps.yaml"
    f.write_text(text, encoding="utf-8")
    mod, c = load_game(str(f))
    why = markov.refusal(mod.GAME, c.chapter)
    assert why is not None and "'has(come)' reads the instances of 'come' together" in why


def test_the_fast_path_refuses_it_by_name_and_an_engine_simulation_agrees_with_the_pass_line(craps):
    mod, compiled = craps
    ok, route = fast_route(mod.GAME, {}, compiled.chapter, {"pass_line": Decimal(6)})
    assert not ok and "wager 'place'" in route and "several" in route  # the first wager of several it meets
    # a Come wager made after every roll while the point is on, instances carried from round to round
    t = mod.new_table({}, seed=20261203)
    s = s2 = 0.0
    n = 0
    for _ in range(2500):
        for r in t.play_round({1: {"pass_line": 6}}, FixedStrategy(offers={"come": 6})).results:
            if r.wager == "come":
                x = float(r.net) / 6
                s, s2, n = s + x, s2 + x * x, n + 1
    mean = s / n
    se = math.sqrt((s2 / n - mean * mean) / n)
    assert n > 2500 and abs(mean - (-7 / 495)) < 4 * se, (n, mean, se)
    assert t.ledger.balance() == 0
