"""Simulating a chapter whose mid-round wager has a stake that varies with the cards (High Card Flush's Raise of
one, two or three times the Ante, as the player's flush allows, tests/fixtures/chapters/high-card-flush.yaml, NOT
official text). The fast path sums one stake per wager and found this only while playing: `simulate` and
`analyze` stopped with a traceback ("stakes of 'raise' vary within a task"). Now the engine plays the same seeded
tables from the start, the route says why, and the figure's policy says which choice is taken where the
preferred one's condition fails. Where the stake does not vary (always the Raise of one Ante) the fast path plays,
and both routes agree to the cent on hands of several sizes (`fewest`)."""
from __future__ import annotations

import pytest

from compiler.analysis.report import analyze
from compiler.analysis.simulate import simulate
from compiler.pipeline import ROOT, load_game

HCF = ROOT / "tests/fixtures/chapters/high-card-flush.yaml"


@pytest.fixture(scope="module")
def hcf():
    mod, comp = load_game(HCF)
    return mod.GAME, comp.chapter


def _sums(res) -> dict:
    return {w: (s.n, s.total_stake, s.sum_net, s.sum_sq) for w, s in res.per_unit.items()}


def test_a_stake_that_varies_with_the_cards_is_simulated_by_the_engine(hcf):
    game, chapter = hcf
    res = simulate(game, {}, rounds=300, seats=2, seed=3, chapter=chapter)
    assert res.route == "engine (the fast path does not support stakes of 'raise' vary within a task)"
    engine = simulate(game, {}, rounds=300, seats=2, seed=3, fast=False, chapter=chapter)
    assert _sums(res) == _sums(engine) and res.players == engine.players
    assert res.per_unit["raise"].total_stake > res.per_unit["raise"].n   # some Raises of two or three Antes


def test_the_fast_path_equals_the_engine_on_hands_of_several_sizes(hcf):
    game, chapter = hcf
    fast = simulate(game, {}, rounds=400, seats=2, seed=11, policy="raise_1x", fast=True, chapter=chapter)
    engine = simulate(game, {}, rounds=400, seats=2, seed=11, policy="raise_1x", fast=False, chapter=chapter)
    assert fast.route == "fast path"
    assert _sums(fast) == _sums(engine) and fast.players == engine.players


def test_the_simulated_policy_names_the_choice_taken_where_a_condition_fails(hcf):
    game, chapter = hcf
    rep = analyze(game, chapter, {"straight_flush_bonus_offered": False}, rounds=200)
    (main,) = [f for f in rep.figures if "ante" in f.stakes]
    assert main.status in ("simulated", "short of precision target") or main.standard_error is not None
    assert main.policy.text == "always the first allowed of raise_3x, raise_2x, raise_1x (raise_or_fold, § 678a.11(a))"
