"""A simulated figure where no exact method applies (issue 24.3): seeded, with its standard error and
standard deviation, held to the precision target; checked against exact figures found by another route.

Dice Total (tests/fixtures/chapters/dice-total.yaml, NOT official text): Seven pays 4 to 1 on a total of 7;
by counting the 36 faces its net is +4 with probability 1/6 and -1 with 5/6: mean -1/6, standard deviation
sqrt(21/6 - 1/36) = sqrt(125)/6. Casino Hold'em (tests/fixtures/chapters/casino-holdem.yaml, NOT official
text) deals cards after the decision, which no exact method models: its round is simulated."""
from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

from compiler.analysis.report import analyze
from compiler.analysis.simulated import analyze_simulated
from compiler.pipeline import load_game

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests/fixtures/chapters/dice-total.yaml"
CHM = ROOT / "tests/fixtures/chapters/casino-holdem.yaml"


def test_simulated_figures_agree_with_the_exact_ones_within_their_standard_error():
    mod, comp = load_game(DICE)
    rep = analyze_simulated(mod.GAME, comp.chapter, {}, {}, 6000, 7, 0.0005)
    seven = next(f for f in rep.figures if f.stakes == ("seven",))
    assert seven.status == "simulated" and not seven.exact and seven.policy.kind == "none"
    exact_sd = math.sqrt(125) / 6
    assert abs(float(seven.expected_return) - (-1 / 6)) < 4 * seven.standard_error
    assert abs(seven.standard_deviation - exact_sd) < 0.05 * exact_sd
    assert math.isclose(seven.standard_error, seven.standard_deviation / math.sqrt(6000))
    assert not seven.meets_target and "rounds would reach the target" in seven.method
    j = seven.to_json()
    assert j["status"] == "short of precision target" and "fraction" not in j["expected_return"]
    assert float(j["standard_deviation"]) == round(seven.standard_deviation, 6)
    # seeded: the same seed gives the same figure; a looser target is met
    again = analyze_simulated(mod.GAME, comp.chapter, {}, {}, 6000, 7, 0.05)
    seven2 = next(f for f in again.figures if f.stakes == ("seven",))
    assert seven2.expected_return == seven.expected_return and seven2.meets_target


def test_a_wager_no_exact_method_models_is_simulated_naming_why():
    mod, comp = load_game(CHM)
    exact_only = analyze(mod.GAME, comp.chapter, {}, simulate_refused=False)
    refused = {n.wager: n.reason for n in exact_only.not_computed}
    assert "ante" in refused and "deals cards after a decision" in refused["ante"]
    rep = analyze(mod.GAME, comp.chapter, {}, rounds=3000, seed=3)
    assert not rep.not_computed
    (rnd,) = [f for f in rep.figures if f.stakes == ("ante",)]
    assert rnd.status == "simulated" and "call" in rnd.includes
    assert rnd.method.startswith("no exact method: ") and refused["ante"] in rnd.method
    assert rnd.standard_error > 0 and rnd.standard_deviation > 0 and rnd.policy.kind == "fixed"
    # the wagers an exact method computes keep their exact figures
    assert all(f.exact for f in rep.figures if f.stakes != ("ante",))
    assert isinstance(rnd.expected_return, Fraction)


def test_the_simulation_never_gives_a_figure_for_a_shoe_it_does_not_deal():
    """--decks changes the exact enumerations' shoe; the simulation deals the options' shoe: it refuses."""
    import pytest

    from compiler.analysis.contract import Refused

    mod, comp = load_game(DICE)
    with pytest.raises(Refused, match="not 2"):
        analyze_simulated(mod.GAME, comp.chapter, {}, {}, 100, 1, 0.0005, decks=2)
