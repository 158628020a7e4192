"""The fast path (compiler/fast, compiled from the IR) against the faithful engine: the same seeded
shoes, every settlement and every cent; chapters it cannot play say why and run on the engine."""
from __future__ import annotations

from decimal import Decimal

import pytest

from compiler.analysis import simulate as sim_mod
from compiler.analysis.simulate import fast_route, simulate
from compiler.fast import Unsupported, compile_fast
from compiler.pipeline import load_game
from compiler.runtime.engine import FixedStrategy, Table

WAR = "rulespecs/567-war.yaml"
PAI_GOW = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"


@pytest.fixture(scope="module")
def war():
    return load_game(WAR)


def _engine_rounds(game, seed, rounds, seats, bets, prefer, offers=None):
    t = Table(game, {}, seed=seed)
    out = []
    for _ in range(rounds):
        res = t.play_round({s: bets for s in range(1, seats + 1)}, FixedStrategy(prefer, offers))
        out.append(sorted((r.seat, r.wager, r.outcome, int(r.amount * 100), int(r.net * 100))
                          for r in res.results))
    return out, len(t.reshuffles), t.ledger


@pytest.mark.parametrize("prefer,offers", [(["war"], None), (["surrender"], None), (["war"], {"war_tie": 2})])
def test_567_fast_path_settles_every_wager_to_the_cent_as_the_engine(war, prefer, offers):
    """30 tables x 45 rounds x 7 positions per policy (1,350 rounds, about 50 reshuffles each)."""
    mod, compiled = war
    bets = {"initial": 5, "tie": 1}
    fast = compile_fast(compiled.chapter, mod.GAME, {})
    seeds = [1000 + i for i in range(30)]
    played = fast.play(seeds, 45, 7, bets, prefer, offers=offers, record=True)
    reshuffles = 0
    outcomes = set()
    for k, seed in enumerate(seeds):
        eng, n_resh, ledger = _engine_rounds(mod.GAME, seed, 45, 7, bets, prefer, offers)
        assert [sorted(r) for r in played.rounds[k]] == eng, f"table {k} (seed {seed})"
        assert played.reshuffles[k] == n_resh
        assert Decimal(int(sum(v[k] for v in played.net.values()))) / 100 == ledger.players
        reshuffles += n_resh
        outcomes |= {(w, o) for rnd in eng for _, w, o, _, _ in rnd}
    assert reshuffles >= 30  # the shoes went through the cover card and were reshuffled
    # every branch of the procedure was exercised: the comparison above can fail
    assert {("initial", "win"), ("initial", "lose"), ("tie", "win"), ("tie", "lose")} <= outcomes
    assert ("initial", "surrender") in outcomes if prefer == ["surrender"] else ("war", "win") in outcomes
    if offers:
        assert ("war_tie", "lose") in outcomes


def test_567_simulate_fast_and_engine_routes_identical(war, monkeypatch):
    monkeypatch.setattr(sim_mod, "CHUNK", 200)
    mod, compiled = war
    fast = simulate(mod.GAME, {}, rounds=500, seats=4, seed=21, policy="war", fast=True)
    engine = simulate(mod.GAME, {}, rounds=500, seats=4, seed=21, policy="war", fast=False)
    assert fast.route == "fast path" and engine.route == "engine"
    assert {k: (v.n, v.sum_net, v.sum_sq) for k, v in fast.per_unit.items()} == \
        {k: (v.n, v.sum_net, v.sum_sq) for k, v in engine.per_unit.items()}
    assert (fast.base.n, fast.base.sum_net, fast.base.sum_sq) == (engine.base.n, engine.base.sum_net, engine.base.sum_sq)
    assert (fast.players, fast.house, fast.reshuffles) == (engine.players, engine.house, engine.reshuffles)
    assert fast.base.n == 2000 and fast.ledger_balance == 0


def test_670a_not_on_the_fast_path_says_why_and_runs_on_the_engine(monkeypatch):
    monkeypatch.setattr(sim_mod, "CHUNK", 20)
    mod, compiled = load_game(PAI_GOW)
    ok, why = fast_route(mod.GAME, {}, compiled.chapter, {"pai_gow": 1})
    assert not ok and "deal to 'positions'" in why and "§ 670a" in why
    with pytest.raises(Unsupported):
        compile_fast(compiled.chapter, mod.GAME, {})
    res = simulate(mod.GAME, {}, rounds=40, seats=2, seed=3, bets={"pai_gow": 1})
    assert res.route == why and res.base.n == 80 and res.ledger_balance == 0
