"""No traceback and no wrong division (issue 24.3, 24.4): a chapter with no required wager gets a figure per
unit of each wager made; a chapter with a `roll` step is enumerated over every face of the dice (the
analysis substitutes a branching chance, never asking a hand history); an enumeration that reaches its
budget gives "not computed" naming the budget.

Dice Total (tests/fixtures/chapters/dice-total.yaml, NOT official text): no required wager, two dice."""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

from compiler.analysis import exact_engine
from compiler.analysis.report import analyze
from compiler.pipeline import load_game
from compiler.text.impact import impact

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests/fixtures/chapters/dice-total.yaml"
WAR = ROOT / "rulespecs/567-war.yaml"


def _counted() -> dict[str, Fraction]:
    """Each wager's expected return by counting the 36 pairs of faces (independent of the engine)."""
    totals = [a + b for a, b in product(range(1, 7), repeat=2)]
    wins = {"seven": (sum(t == 7 for t in totals), 4), "over": (sum(t > 7 for t in totals), 1),
            "under": (sum(t < 7 for t in totals), 1)}
    return {w: Fraction(n * (odds + 1), 36) - 1 for w, (n, odds) in wins.items()}


def test_no_required_wager_and_dice_each_wager_exact_per_unit_made():
    mod, comp = load_game(DICE)
    rep = analyze(mod.GAME, comp.chapter, {})
    assert not rep.not_computed
    got = {f.stakes: f for f in rep.figures}
    want = _counted()
    assert set(got) == {(w,) for w in want}
    for w, er in want.items():
        f = got[(w,)]
        assert f.exact and f.expected_return == er, (w, f.expected_return, er)
        assert sum(f.outcomes.values()) == 1
    assert got[("seven",)].hit_frequency == Fraction(6, 36)


def test_impact_of_a_chapter_with_no_required_wager(tmp_path):
    """`diff --impact` reads the same figures: no ZeroDivisionError, the changed payout moves its wager."""
    new = tmp_path / "dice-total.yaml"
    new.write_text(DICE.read_text().replace("4 to 1", "5 to 1"))
    out = {e["wager"]: e for e in impact(str(DICE), str(new), [])}
    assert out["seven"]["house_edge"] == {"old": "1/6", "new": "0"}
    assert not out["over"]["changed"]


def test_an_enumeration_that_reaches_its_budget_is_not_computed_naming_it(monkeypatch):
    """No exact figure: "not computed" naming the budget; then simulated, the figure naming it too."""
    monkeypatch.setattr(exact_engine, "PATH_BUDGET", 10)
    mod, comp = load_game(WAR)
    rep = analyze(mod.GAME, comp.chapter, {}, simulate_refused=False)
    assert rep.figures == []
    reasons = {n.reason for n in rep.not_computed}
    assert reasons and all("the budget of 10 paths was reached" in r for r in reasons), reasons
    sim = analyze(mod.GAME, comp.chapter, {}, rounds=2000)
    assert sim.figures and all(f.status == "simulated" and "the budget of 10 paths was reached" in f.method
                               for f in sim.figures)
