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


@pytest.fixture(scope="module")
def pai_gow():
    return load_game(PAI_GOW)


def _engine_670a(game, options, seed, rounds, seats, bets):
    t = Table(game, options, seed=seed)
    out = []
    for _ in range(rounds):
        res = t.play_round({s: bets for s in range(1, seats + 1)}, FixedStrategy([]))
        out.append(sorted((r.seat, r.wager, r.outcome, int(r.amount * 100), int(r.net * 100))
                          for r in res.results))
    return out, t.ledger


@pytest.mark.parametrize("options,bets,seats,tables", [
    ({"fortune_bonus_offered": True}, {"pai_gow": 5, "fortune_bonus": 5}, 6, 24),
    ({"insurance_offered": True, "fortune_bonus_offered": True}, {"pai_gow": 10, "insurance": 1, "fortune_bonus": 1}, 4, 12),
    ({"dealing_method": "automated_shoe", "automated_shuffler": True}, {"pai_gow": 5}, 6, 12),
])
def test_670a_fast_path_settles_every_wager_to_the_cent_as_the_engine(pai_gow, options, bets, seats, tables):
    """The dice, the deal to positions, the house way for every hand (players and dealer), § 670a.11(f)
    comparison, Fortune Bonus and Insurance paytables, Envy Bonus: 1,200 rounds (x 25 rounds per table)."""
    mod, compiled = pai_gow
    fast = compile_fast(compiled.chapter, mod.GAME, options)
    seeds = [7000 + i for i in range(tables)]
    played = fast.play(seeds, 25, seats, bets, [], record=True)
    outcomes = set()
    for k, seed in enumerate(seeds):
        eng, ledger = _engine_670a(mod.GAME, options, seed, 25, seats, bets)
        assert [sorted(r) for r in played.rounds[k]] == eng, f"table {k} (seed {seed})"
        assert Decimal(int(sum(v[k] for v in played.net.values()))) / 100 == ledger.players
        outcomes |= {(w, o) for rnd in eng for _, w, o, _, _ in rnd}
    # every branch that decides money was exercised: the comparison above can fail
    assert {("pai_gow", "win"), ("pai_gow", "lose"), ("pai_gow", "push")} <= outcomes
    for w in bets:
        if w != "pai_gow":
            assert {(w, "win"), (w, "lose")} <= outcomes
    if bets.get("fortune_bonus", 0) >= 5:
        assert ("fortune_bonus", "bonus") in outcomes  # an Envy Bonus was paid


def test_670a_house_way_fast_same_setting_as_engine_for_every_hand(pai_gow):
    """§ 670a.11(d) compiled to numpy: the low card of 4,000 random six-card hands of 53 cards (the
    joker included) is the one the engine's house way plays."""
    import random

    import numpy as np

    from compiler.fast.houseway import CompiledHouseWay
    from compiler.runtime import paigow as pg
    from compiler.runtime.engine import Context

    mod, compiled = pai_gow
    t = Table(mod.GAME, {}, seed=0)
    step = next(s for s in compiled.chapter.all_steps() if s.id == "dealer_sets_hands")
    legal = dict((k, v) for k, v, _ in step.exprs)["legal"]
    way = compiled.chapter.house_ways[0]
    chw = CompiledHouseWay(t, way, 6, 1, legal)
    rng = random.Random(11)
    hands = [rng.sample(range(53), 6) for _ in range(4000)]
    _, lo, _ = chw.split(np.array(hands))
    ctx = Context(t, None)
    eway = mod.GAME.house_ways[way.id]
    lf = next(s for s in mod.GAME.procedure if s.id == "dealer_sets_hands").exprs["legal"]
    rules = set()
    for h, low in zip(hands, lo.tolist()):
        cands = pg.settings(h, 1)
        pool, rule = pg.choose_setting(ctx, eway, [c for c in cands if pg._legal(ctx, lf, c)] or cands)
        assert list(pool[0][1]) == low, h
        rules.add(rule.cite)
    assert len(rules) >= 5  # most rules of the house way chose some hand (4,000 hands: 5 of 9)


def test_670a_progressive_not_on_the_fast_path_says_why_and_runs_on_the_engine(monkeypatch, pai_gow):
    monkeypatch.setattr(sim_mod, "CHUNK", 20)
    mod, compiled = pai_gow
    opts = {"progressive_offered": True}
    bets = {"pai_gow": 5, "progressive": 1}
    ok, why = fast_route(mod.GAME, opts, compiled.chapter, bets)
    assert not ok and "progressive" in why and "§ 670a" in why
    with pytest.raises(Unsupported):
        compile_fast(compiled.chapter, mod.GAME, opts, bets)
    res = simulate(mod.GAME, opts, rounds=40, seats=2, seed=3, bets=bets)
    assert res.route == why and res.base.n == 80


def test_670a_simulate_fast_and_engine_routes_identical(pai_gow, monkeypatch):
    monkeypatch.setattr(sim_mod, "CHUNK", 50)
    mod, compiled = pai_gow
    opts = {"fortune_bonus_offered": True}
    bets = {"pai_gow": 5, "fortune_bonus": 5}
    fast = simulate(mod.GAME, opts, rounds=150, seats=6, seed=5, bets=bets, fast=True)
    engine = simulate(mod.GAME, opts, rounds=150, seats=6, seed=5, bets=bets, fast=False)
    assert fast.route == "fast path" and engine.route == "engine"
    assert {k: (v.n, v.sum_net, v.sum_sq) for k, v in fast.per_unit.items()} == \
        {k: (v.n, v.sum_net, v.sum_sq) for k, v in engine.per_unit.items()}
    assert (fast.base.n, fast.base.sum_net, fast.base.sum_sq) == (engine.base.n, engine.base.sum_net, engine.base.sum_sq)
    assert (fast.players, fast.house) == (engine.players, engine.house)
    assert fast.base.n == 900
