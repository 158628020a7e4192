"""The player's optimal setting against the house way (compiler/analysis/paigow_optimal.py), held to an
independent route: on a reduced deck derived from the 670a rulespec, a brute force that tries every legal
setting of every player hand (the engine's ``settings`` and the step's ``legal`` condition) against every
dealer hand set by the engine's scalar house way, each pair settled by the compiled settle step. No classes,
no pruning, no card-removal counting. And the pruning's own rules on small tables."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from compiler.analysis import paigow_optimal as po
from compiler.analysis.enumerate import standard_deck
from compiler.analysis.paigow import Outcomes, _set_by_house_way, all_settings, model_of
from compiler.pipeline import load_game
from compiler.runtime.engine import Context, Table, _Round

SPEC = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"


@pytest.fixture(scope="module")
def g670a():
    mod, comp = load_game(SPEC)
    return mod.GAME, comp.chapter


def _brute_force(game, chapter, deck):
    m = model_of(game, chapter)
    table = Table(game, {"double_down_offered": True}, seed=0)
    out = Outcomes(table, m)
    ctx = Context(table, _Round(table, 0, False, False))
    legal_of = m.player_step.exprs.get("legal")
    hands = list(combinations(range(len(deck)), 6))
    dset = {h: _set_by_house_way(table, m.dealer_step, [deck[i] for i in h]) for h in hands}
    main = both = Fraction(0)
    better = made = 0
    for p in hands:
        cards = [deck[i] for i in p]
        legal = []
        for c in all_settings(cards, m.low):
            ctx.setting = c
            if legal_of is None or legal_of(ctx):
                legal.append(c)
        # the dealer's hands of the cards left (in the order of `hands`: combinations of sorted positions)
        dealers = [dset[d] for d in combinations([i for i in range(len(deck)) if i not in p], 6)]
        mains, boths = [], []
        for high, low in legal or all_settings(cards, m.low):
            r = [out.run(high, low, dh, dl, double=True) for dh, dl in dealers]
            mains.append(sum(Fraction(a) for a, _ in r))
            boths.append(sum(Fraction(a) + Fraction(b) for a, b in r))
        ph, pl = _set_by_house_way(table, m.player_step, cards)
        house = sum(Fraction(out.run(ph, pl, dh, dl)[0]) for dh, dl in dealers)
        main += max(mains)
        better += max(mains) > house
        made += max(boths) > max(mains)
        both += max(max(boths), max(mains))
    deals = len(hands) * comb(len(deck) - 6, 6)
    return main / deals, Fraction(better, len(hands)), both / deals, Fraction(made, len(hands))


def test_670a_11_d_optimal_setting_equals_a_brute_force_over_every_legal_setting_on_a_13_card_deck(g670a):
    game, chapter = g670a
    deck = standard_deck(1, (9, 10, 11))
    main, better, both, made = _brute_force(game, chapter, deck)
    res, cnt = po.run(game, chapter, deck=deck)
    assert res["main_optimal"] == main
    assert res["optimal_differs_share"] == better
    assert res["round_optimal"] == both
    assert res["double_optimal_setting_share"] == made
    # the optimal setting is never below the house way's; it is above it here
    assert res["main_optimal"] > res["main"]
    assert res["optimal_gain"] == res["main_optimal"] - res["main"]
    assert sum(res["main_optimal_counts"].values()) == res["deals"]
    assert sum(Fraction(k) * c for k, c in res["main_optimal_by_net"].items()) / res["deals"] == res["main_optimal"]
    # pruning dropped settings (dominance proved from the nets), and the kept ones still gave the brute force
    p = res["optimal_pruning"]
    assert p["monotone"] and p["kept settings"] < 6 * p["canonical hands"]


def _candidates(nets):
    c = po.Candidates()
    c.nets = nets
    return c


def _table(pb=0, db=0, worse=None):
    """Nets of a plain comparison game: +1 when both hands win, -1 when both lose, else 0; ``worse``: one
    class whose net is made lower than its neighbours' (no longer monotone)."""
    out = {}
    for sx in (1, 0, -1):
        for sy in (1, 0, -1):
            v = Fraction(1 if sx == sy == 1 else -1 if -1 in (sx, sy) and 1 not in (sx, sy) else 0)
            out[(sx, sy, pb, db)] = (v, None)
    if worse is not None:
        out[worse] = (Fraction(-5), None)
    return out


def test_a_setting_beaten_in_both_hands_is_dropped_only_when_the_nets_are_monotone():
    X = np.array([[5, 3, 5, 5]])
    Y = np.array([[5, 2, 5, 1]])   # setting 1 is below 0 in both; 2 equals 0; 3 is below 0 in one only
    B = np.zeros((1, 4), np.int64)
    L = np.ones((1, 4), bool)
    keep = _candidates(_table())._prune(X, Y, B, L)
    assert keep.tolist() == [[True, False, False, False]]
    c = _candidates(_table(worse=(1, 1, 0, 0)))   # winning both hands pays less than a push: not monotone
    keep = c._prune(X, Y, B, L)
    assert not c.monotone
    assert keep.tolist() == [[True, True, False, True]]   # only the copy (equal scores and bits) goes


def test_bits_whose_every_net_is_at_most_another_bits_are_dropped_beside_them():
    nets = _table(pb=0)
    nets.update({(sx, sy, 1, 0): (Fraction(-1), None) for sx in (1, 0, -1) for sy in (1, 0, -1)})  # a foul
    X = np.array([[9, 1], [9, 1]])
    Y = np.array([[9, 1], [9, 1]])
    B = np.array([[1, 0], [1, 1]])
    L = np.ones((2, 2), bool)
    c = _candidates(nets)
    keep = c._prune(X, Y, B, L)
    # hand 0: the fouled setting goes beside a legal one, though its scores are higher; hand 1: no legal one
    assert keep.tolist() == [[False, True], [True, False]]
    assert c.dropped_bits == [(1, 0)]


def test_670a_committed_record_holds_the_optimal_setting_consistently(g670a):
    from compiler.analysis import paigow_record as pr

    game, chapter = g670a
    rec = pr.load_record(game, chapter)
    assert rec is not None
    f = {k: Fraction(v) for k, v in rec["figures"].items()}
    deals = rec["deals"]
    assert sum(rec["main_optimal_counts"].values()) == deals
    assert sum(Fraction(k) * c for k, c in rec["main_optimal_by_net"].items()) == f["main_optimal"] * deals
    assert f["main_optimal"] > f["main"] and f["optimal_gain"] == f["main_optimal"] - f["main"]
    # doubling when it pays is never worse than not doubling
    assert f["round_optimal"] > f["main_optimal"]
    assert 0 < f["double_optimal_setting_share"] < 1 and f["double_optimal_setting_per_made"] > 0
    assert rec["optimal_pruning"]["monotone"] is True


def test_670a_analyze_gives_the_optimal_setting_exact_and_simulates_nothing(g670a):
    from compiler.analysis.paigow import DOUBLE_BOTH_OPTIMAL, MAIN_OPTIMAL, analyze_paigow

    game, chapter = g670a
    rep = analyze_paigow(game, chapter, {"double_down_offered": True}, {})
    by = {(f.wager, f.policy.text): f for f in rep.figures}
    main = by[("pai_gow", MAIN_OPTIMAL)]
    assert main.exact and main.expected_return == Fraction(-17251339933, 437070243610)
    assert by[("double_down", DOUBLE_BOTH_OPTIMAL)].exact
    assert all(f.standard_error is None for f in rep.figures)
