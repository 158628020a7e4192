"""Exact paytable returns (compiler/analysis/paytables.py), checked against returns computed
here from combinatorial counts and against seeded Monte-Carlo simulation (4 standard errors)."""
from __future__ import annotations

import math
import random
from fractions import Fraction as F
from itertools import combinations
from math import comb

import pytest

from compiler.analysis.enumerate import standard_deck
from compiler.analysis.paytables import Affine, envy_value, parse_payout, paytable_return, paytable_returns
from compiler.runtime.cards import JOKER

from analysis_fixtures import dist, ranking, spec
from test_enumerate import _six_card_counts_combinatorial


def test_parse_payout():
    assert parse_payout("3 to 2").net() == F(3, 2)
    assert parse_payout("1,000 to 1").net() == 1000
    assert parse_payout("500 for 1").net() == 499
    assert parse_payout("Push").net() == 0
    assert parse_payout("$1,000").net() == 1000
    m = parse_payout("10% of meter").net()
    assert isinstance(m, Affine) and m(5000) == 499
    with pytest.raises(ValueError):
        parse_payout("1")


def _expected(counts_and_nets, total):
    paid = sum(n for n, _ in counts_and_nets)
    return (sum(F(n) * net for n, net in counts_and_nets) - (total - paid)) / total


def test_669a_12_a_pair_plus_returns():
    res = paytable_returns(ranking("669a", "three_card"), spec("669a")["paytables"]["pair_plus"], 3)
    # counts: straight flush 48, trips 52, straight 720, flush 1096, pair 3744 (of 22100)
    counts = [48, 52, 720, 1096, 3744]
    pays = {"Paytable A": [40, 30, 6, 4, 1], "Paytable B": [40, 25, 6, 4, 1],
            "Paytable C": [40, 30, 5, 4, 1], "Paytable D": [40, 30, 6, 3, 1]}
    for r in res:
        exp = _expected(list(zip(counts, pays[r.column])), 22100)
        assert r.expected == exp, r.column
        assert r.hit_frequency == F(sum(counts), 22100)
    assert res[0].expected == F(-128, 5525)


def test_669a_12_f_six_card_bonus_returns(six_card_669a):
    c = _six_card_counts_combinatorial()
    order = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
             "three_of_a_kind"]
    pays = {"Paytable A": [1000, 200, 50, 25, 20, 10, 5], "Paytable B": [1000, 200, 50, 25, 15, 10, 5],
            "Paytable C": [1000, 200, 100, 20, 15, 9, 8], "Paytable D": [1000, 200, 100, 20, 15, 10, 7]}
    res = paytable_returns(ranking("669a", "five_card"), spec("669a")["paytables"]["six_card_bonus"], 6,
                           dist=six_card_669a)
    for r in res:
        assert r.expected == _expected([(c[h], p) for h, p in zip(order, pays[r.column])], comb(52, 6))


def test_669a_12_e_progressive_is_affine_in_meter():
    d = dist("669a", "three_card", 3, 0, ("ace_king_queen_spades", "ace_king_queen_other_suit"))
    r = paytable_return(d, spec("669a")["paytables"]["progressive"])
    # AKQ spades 1 hand (meter), other AKQ suited 3 (500 for 1), other straight flushes 44 (70 for 1),
    # trips 52 (60 for 1), straights 720 (6 for 1); everything else loses
    a = F(3 * 499 + 44 * 69 + 52 * 59 + 720 * 5 - (22100 - 1 - 3 - 44 - 52 - 720) - 1, 22100)
    assert r.expected == Affine(a, F(1, 22100))
    assert r.expected_at(1000) == a + F(1000, 22100)
    # Envy Bonus per other player: P(AKQ spades) * $100 + P(AKQ other suit) * $25 (for a $1 wager)
    env = envy_value(d, spec("669a")["paytables"]["envy_progressive_1"], 0)
    assert env == F(100 + 3 * 25, 22100)


def _insurance_counts():
    """Insurance rows (6 cards of 53) combinatorially: six distinct ranks, none above the high
    card, no five in sequence (no ace, so no wheel), no joker, and not five of one suit."""
    non_flush_suitings = 4 ** 6 - 4 - 6 * 4 * 3
    out = {}
    for h in range(6, 12):                     # 8 .. K
        sets = 0
        for rest in combinations(range(h), 5):
            rs = set(rest) | {h}
            if not any(set(range(t - 4, t + 1)) <= rs for t in range(4, 13)):
                sets += 1
        out[h] = sets * non_flush_suitings
    return out


def test_670a_12_c_insurance_exact(six_card_670a):
    res = paytable_return(six_card_670a, spec("670a")["paytables"]["insurance"])
    ic = _insurance_counts()
    assert [row.count for row in res.rows] == [ic[h] for h in range(6, 12)]
    assert ic[6] == 12060
    pays = [100, 30, 10, 7, 4, 3]
    assert res.expected == _expected([(ic[h], p) for h, p in zip(range(6, 12), pays)], comb(53, 6))


def test_670a_12_c_insurance_joker_hand_never_wins():
    r = ranking("670a", "five_card")
    rows = [x["hand"] for x in spec("670a")["paytables"]["insurance"]["rows"]]
    rng = random.Random(3)
    for _ in range(3000):
        h = rng.sample(range(52), 5) + [JOKER]
        assert not any(r.matches_hand(h, x) for x in rows)


def test_670a_12_d_progressive_affine(six_card_670a):
    res = paytable_return(six_card_670a, spec("670a")["paytables"]["progressive"])
    c = six_card_670a.category_counts()
    t = comb(53, 6)
    assert res.expected.b == (F(c["five_aces"]) + F(c["royal_flush"]) / 10) / t
    paid = [("straight_flush", 299), ("four_of_a_kind", 149), ("full_house", 14), ("flush", 5), ("straight", 2)]
    losers = t - sum(c[h] for h, _ in paid) - c["five_aces"] - c["royal_flush"]
    assert res.expected.a == F(sum(c[h] * n for h, n in paid) - losers - c["five_aces"] - c["royal_flush"], t)


def _mc(ranking_, deck, k, table, n, seed):
    rng = random.Random(seed)
    rows = table["rows"]
    nets = []
    for r in rows:
        p = parse_payout(r["pays"][0])
        nets.append(p.net())
    nets = [float(net) for net in nets]
    # a row's hand judged as Ranking.matches_hand judges it: a card-defined hand by its card sets, any other on
    # the best hand of the cards, valued once per sample (not once per row)
    by_cards = [ranking_.card_sets(r["hand"]) is not None for r in rows]
    s = s2 = 0.0
    for _ in range(n):
        h = rng.sample(deck, k)
        x = -1.0
        v = None
        for r, net, sets in zip(rows, nets, by_cards):
            if sets:
                hit = ranking_.matches_hand(h, r["hand"])
            else:
                v = ranking_.value(h) if v is None else v
                hit = ranking_.value_matches(v, r["hand"])
            if hit:
                x = net
                break
        s += x
        s2 += x * x
    mean = s / n
    se = math.sqrt((s2 / n - mean * mean) / n)
    return mean, se


@pytest.mark.parametrize("table", ["fortune_bonus", "insurance"])
def test_670a_12_returns_monte_carlo(six_card_670a, table):
    tbl = spec("670a")["paytables"][table]
    exact = paytable_return(six_card_670a, tbl).expected
    mean, se = _mc(ranking("670a", "five_card"), standard_deck(1), 6, tbl, 60_000, seed=670)
    assert abs(mean - float(exact)) < 4 * se, (mean, float(exact), se)


def test_669a_12_f_six_card_bonus_monte_carlo(six_card_669a):
    tbl = spec("669a")["paytables"]["six_card_bonus"]
    exact = paytable_return(six_card_669a, tbl, 0).expected
    mean, se = _mc(ranking("669a", "five_card"), standard_deck(0), 6, tbl, 60_000, seed=669)
    assert abs(mean - float(exact)) < 4 * se, (mean, float(exact), se)


def test_670a_envy_values(six_card_670a):
    c = six_card_670a.category_counts()
    t = comb(53, 6)
    fb = envy_value(six_card_670a, spec("670a")["paytables"]["envy_fortune_bonus_1"], 0)
    assert fb == F(1000 * c["five_aces"] + 200 * c["royal_flush"] + 50 * c["straight_flush"]
                   + 15 * c["four_of_a_kind"] + 5 * c["full_house"], t)


def test_parse_payout_agrees_with_runtime_money():
    money = pytest.importorskip("compiler.runtime.money")
    for ch in ("669a", "670a"):
        for t in spec(ch)["paytables"].values():
            for row in t["rows"]:
                for text in row["pays"]:
                    mine = parse_payout(text)
                    theirs = money.parse_odds(text)
                    kind = {"fixed": "amount"}.get(theirs.kind, theirs.kind)
                    assert mine.kind == kind, text
                    if kind in ("to", "for"):
                        assert mine.ratio == F(theirs.num) / F(theirs.den), text
                    elif kind == "meter":
                        assert mine.ratio == F(theirs.num) / 100, text
                    elif kind == "amount":
                        assert mine.ratio == F(theirs.num), text
