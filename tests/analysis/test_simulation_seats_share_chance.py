"""`rulespec simulate --seats N`: the seats of one round share its cards, dice or pocket, so their results are not
independent, and the standard error is taken over rounds (a ratio estimator: each round's net over its seats),
not over results as if each seat were a round of its own. Before, seven seats on one roulette wheel reported a
standard error sqrt(7) times too small."""
from __future__ import annotations

import math

import pytest

from compiler.analysis.simulate import WagerSim, simulate
from compiler.pipeline import ROOT, load_game

CH = ROOT / "tests/fixtures/chapters"


def _load(name):
    mod, comp = load_game(CH / name)
    return mod.GAME, comp.chapter


@pytest.mark.parametrize("fast", [False, True])
def test_seats_on_one_wheel_share_the_pocket_so_more_seats_give_the_same_standard_error(fast):
    game, chapter = _load("roulette-00.yaml")
    one = simulate(game, {}, rounds=600, seats=1, seed=5, fast=fast, chapter=chapter)
    seven = simulate(game, {}, rounds=600, seats=7, seed=5, fast=fast, chapter=chapter)
    assert one.per_unit and one.per_unit.keys() == seven.per_unit.keys()
    for w, s1 in one.per_unit.items():
        s7 = seven.per_unit[w]
        assert s7.n == 7 * s1.n and s7.mean() == pytest.approx(s1.mean(), abs=1e-12), w
        # every seat holds the same wager on the same pocket: the seven results are one result seven times
        assert s7.se() == pytest.approx(s1.se(), rel=1e-9), w
        # what the results counted as independent would say: sqrt(7) times smaller
        naive = WagerSim(s7.n, s7.total_stake, s7.sum_net, s7.sum_sq)
        assert naive.se() == pytest.approx(s1.se() / math.sqrt(7), rel=0.01), w


def test_one_seat_a_round_is_the_usual_standard_error():
    game, chapter = _load("dragon-tiger.yaml")
    res = simulate(game, {}, rounds=2000, seats=1, seed=2, fast=False, chapter=chapter)
    for w, s in res.per_unit.items():
        assert s.rounds[0] == s.n
        plain = WagerSim(s.n, s.total_stake, s.sum_net, s.sum_sq)
        assert s.se() == pytest.approx(plain.se(), rel=1e-9), w


def test_the_fast_path_and_the_engine_sum_the_same_rounds():
    game, chapter = _load("../../../rulespecs/567-war.yaml")
    fast = simulate(game, {}, rounds=600, seats=5, seed=9, fast=True, chapter=chapter)
    engine = simulate(game, {}, rounds=600, seats=5, seed=9, fast=False, chapter=chapter)
    assert fast.route == "fast path"
    for w, s in engine.per_unit.items():
        assert fast.per_unit[w].rounds == pytest.approx(s.rounds), w
        assert fast.per_unit[w].se() == pytest.approx(s.se(), rel=1e-9), w
    assert fast.base.rounds == pytest.approx(engine.base.rounds)
    # seats of one War round share the dealer's card: the round's standard error is above the independent one
    naive = WagerSim(engine.base.n, engine.base.total_stake, engine.base.sum_net, engine.base.sum_sq)
    assert engine.base.se() > naive.se()
