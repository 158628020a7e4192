"""War: exact returns by enumerating the compiled game, against closed-form counting and a seeded
simulation within its standard error."""
from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from compiler.analysis.exact_engine import enumerate_round
from compiler.analysis.simulate import simulate
from compiler.cli import main
from compiler.pipeline import load_game
from compiler.runtime.engine import FixedStrategy


@pytest.fixture(scope="module")
def war():
    return load_game("rulespecs/567-war.yaml")


def closed_form(n: int):
    """Counting, independently of the engine: N decks of 52, one player against the dealer.

    Original deal: P(tie) = (4N-1)/(52N-1). After a tie two cards of that rank are gone; the
    three burned cards are unseen and do not change the odds. War deal tie:
    [(4N-2)(4N-3) + 12*4N(4N-1)] / [M(M-1)], M = 52N-2. Going to War nets -1 (Initial) +2 (win),
    -1 -1 (lose), -1 +3 (tie); surrender nets -1/2. Tie wager: 10 to 1.
    """
    m = 52 * n
    t1 = F(4 * n - 1, m - 1)
    m2 = m - 2
    t2 = F((4 * n - 2) * (4 * n - 3) + 12 * 4 * n * (4 * n - 1), m2 * (m2 - 1))
    win2 = (1 - t2) / 2
    war = t1 * (-1 + 2 * win2 - win2 + 3 * t2)
    surrender = t1 * F(-1, 2)
    tie = t1 * 10 - (1 - t1)
    return war, surrender, tie


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_567_exact_engine_equals_counting(war, decks):
    mod, _ = war
    want_war, want_surrender, want_tie = closed_form(decks)
    r = enumerate_round(mod.GAME, {"initial": 1, "tie": 1}, FixedStrategy(["war"]), decks=decks)
    assert r.total_prob == 1
    assert r.wagers["initial"].expected_net + r.wagers["war"].expected_net == want_war
    assert r.wagers["tie"].expected_net == want_tie
    r2 = enumerate_round(mod.GAME, {"initial": 1}, FixedStrategy(["surrender"]), decks=decks)
    assert r2.wagers["initial"].expected_net == want_surrender


def test_567_analyze_reports_fraction_and_decimal(war, capsys):
    assert main(["analyze", "rulespecs/567-war.yaml", "--decks", "6", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    want_war, want_surrender, want_tie = closed_form(6)
    figs = {(f["wager"], f["policy"].split(" (")[0]): f for f in out["figures"]}
    assert F(figs[("initial", "always war")]["expected_return"]["fraction"]) == want_war
    assert F(figs[("initial", "always surrender")]["expected_return"]["fraction"]) == want_surrender
    assert F(figs[("tie", "any")]["expected_return"]["fraction"]) == want_tie
    assert figs[("tie", "any")]["expected_return"]["decimal"] == "-0.1864951768"


def test_567_analyze_refuses_illegal_deck_count(capsys):
    assert main(["analyze", "rulespecs/567-war.yaml", "--decks", "9"]) == 1
    assert "9 decks is not legal" in capsys.readouterr().err


@pytest.mark.parametrize("policy", ["war", "surrender"])
def test_567_seeded_simulation_agrees_with_exact_within_4_standard_errors(war, policy):
    mod, _ = war
    exact_war, exact_surrender, exact_tie = closed_form(6)
    exact = exact_war if policy == "war" else exact_surrender
    sim = simulate(mod.GAME, {"decks": 6}, rounds=8000, seats=5, seed=20261129, policy=policy)
    assert abs(sim.base.mean() - float(exact)) < 4 * sim.base.se()
    assert abs(sim.per_unit["tie"].mean() - float(exact_tie)) < 4 * sim.per_unit["tie"].se()
    assert sim.ledger_balance == 0


def test_567_analyze_text_output(capsys):
    assert main(["analyze", "rulespecs/567-war.yaml", "--decks", "8"]) == 0
    out = capsys.readouterr().out
    assert "house edge" in out and "decks_in_shoe=8" in out
