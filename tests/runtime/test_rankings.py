"""Tests of the generic ranking evaluator (compiler/runtime/rankings.py) on the rankings of
chapters 669a and 670a as the rulespecs themselves write them (rulespecs/669a-*.yaml, 670a-*.yaml),
not copies of them.

Cross-checks by independent routes: exhaustive category counts against combinatorial
formulas written here, and an independent reference evaluator (written below from the
regulation text, without the evaluator's tables) on seeded random hands.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb
from pathlib import Path

import pytest
import yaml

from compiler.runtime.cards import JOKER, parse_cards
from compiler.runtime.rankings import Ranking, RankingError

RULESPECS = Path(__file__).resolve().parents[2] / "rulespecs"


def _load(ch):
    (path,) = RULESPECS.glob(f"{ch}-*.yaml")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


SPEC669 = _load("669a")
SPEC670 = _load("670a")
R5 = Ranking.from_spec(SPEC669["rankings"]["five_card"], "five_card")
R3 = Ranking.from_spec(SPEC669["rankings"]["three_card"], "three_card")
J5 = Ranking.from_spec(SPEC670["rankings"]["five_card"], "five_card")
LOW = Ranking.from_spec(SPEC670["rankings"]["low_hand"], "low_hand")


def C(text):
    return parse_cards(text)


def cat(r, text):
    return r.evaluate(C(text)).category


def cmp(r, a, b):
    return r.compare(C(a), C(b))


# ----------------------------------------------------------------------------- 669a.6
def test_669a_6_a_ace_low_straight():
    assert cat(R5, "AS 2H 3D 4C 5S") == "straight"
    assert cat(R5, "AH 2H 3H 4H 5H") == "straight_flush"
    # the wheel is the lowest straight
    assert cmp(R5, "AS 2H 3D 4C 5S", "2S 3H 4D 5C 6S") == -1
    assert cmp(R5, "AS KH QD JC TS", "KS QH JD TC 9S") == 1


def test_669a_6_a_ace_low_straight_does_not_wrap():
    assert cat(R5, "KS AH 2D 3C 4S") == "high_card"
    assert cat(R5, "QS KH AD 2C 3S") == "high_card"
    assert cat(R5, "QH KH AH 2H 3H") == "flush"
    assert cat(R3, "KS AH 2D") == "high_card"
    assert cat(R3, "AS 2H 3D") == "straight"
    assert cat(R3, "AS KH QD") == "straight"


def test_669a_6_a_suits_equal():
    assert cmp(R5, "AS KS QS JS 9S", "AH KH QH JH 9H") == 0
    assert cmp(R5, "TS TH 4D 5C 9S", "TD TC 4S 5H 9D") == 0


def test_669a_6_b_order_of_categories():
    chain = ["AS KS QS JS TS", "9H 8H 7H 6H 5H", "2S 2H 2D 2C 3S", "3S 3H 3D 2C 2S",
             "AD JD 8D 6D 2D", "9S 8H 7D 6C 5S", "4S 4H 4D AC KS", "AS AH KD KC QS",
             "AS AH KD QC JS", "AS KH QD JC 9S"]
    ids = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
           "three_of_a_kind", "two_pair", "pair", "high_card"]
    vals = [R5.evaluate(C(h)) for h in chain]
    assert [v.category for v in vals] == ids
    assert all(a > b for a, b in zip(vals, vals[1:]))


def test_669a_6_b_1_royal_flush_needs_same_suit():
    assert cat(R5, "AH KH QH JH TH") == "royal_flush"
    assert cat(R5, "AH KH QH JH TS") == "straight"


def test_669a_6_b_kickers():
    # pairs by rank, then kickers
    assert cmp(R5, "TS TH AD 4C 3S", "9S 9H AD KC QS") == 1
    assert cmp(R5, "TS TH AD 4C 3S", "TD TC AS 4H 2S") == 1
    # two pairs: higher pair, then lower pair, then kicker
    assert cmp(R5, "KS KH 3D 3C 2S", "KD KC 2D 2C AS") == 1
    assert cmp(R5, "KS KH 3D 3C 4S", "KD KC 3S 3H 2S") == 1
    # full house by its three-of-a-kind
    assert cmp(R5, "3S 3H 3D 2C 2S", "2D 2C 2H AS AH") == 1
    # flushes by the highest card not in the other hand
    assert cmp(R5, "AS KS 9S 5S 3S", "AH KH 9H 5H 2H") == 1
    assert cmp(R5, "AS QS JS TS 8S", "AH KH 4H 3H 2H") == -1


def test_669a_6_c_three_card_order():
    chain = ["QS JS TS", "2S 2H 2D", "AS KH QD", "AS 9S 4S", "2S 2H 3D", "AS KH JD"]
    ids = ["straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"]
    vals = [R3.evaluate(C(h)) for h in chain]
    assert [v.category for v in vals] == ids
    assert all(a > b for a, b in zip(vals, vals[1:]))


def test_669a_7_d_1_pair_of_10s_or_better():
    assert R5.category_at_least(R5.evaluate(C("TS TH 2D 3C 4S")), "pair", "T")
    assert not R5.category_at_least(R5.evaluate(C("9S 9H AD KC QS")), "pair", "T")
    assert R5.category_at_least(R5.evaluate(C("2S 2H 3D 3C 4S")), "pair", "T")
    assert R5.matches_hand(C("2S 2H 3D 3C 4S 9H"), "pair_of_10s_or_better")
    assert not R5.matches_hand(C("2S 2H 3D 7C 4S 9H"), "pair_of_10s_or_better")
    assert R5.category_at_least(R5.evaluate(C("2S 2H 3D 3C 4S")), "two_pair")
    assert not R5.category_at_least(R5.evaluate(C("AS AH 3D 2C 4S")), "two_pair")


def test_669a_12_e_named_hands():
    assert R3.matches_hand(C("QS AS KS"), "ace_king_queen_spades")
    assert not R3.matches_hand(C("QH AH KH"), "ace_king_queen_spades")
    assert R3.matches_hand(C("QH AH KH"), "ace_king_queen_other_suit")
    assert not R3.matches_hand(C("QH AH KS"), "ace_king_queen_other_suit")
    assert R3.matches_hand(C("QD AD KD"), "ace_king_queen_straight_flush")
    assert R3.matches_hand(C("QD AD KD"), "straight_flush")


def test_best_of_six_and_cards_used():
    v, used = R5.best(C("AS KS QS JS TS 2H"))
    assert v.category == "royal_flush" and sorted(used) == sorted(C("AS KS QS JS TS"))
    v, used = R5.best(C("2S 2H 9D 9C 4S 9H"))
    assert v.category == "full_house" and v.high == "9"
    assert R5.compare(C("2S 2H 9D 9C 4S 9H"), C("3S 3H 3D 3C 4S")) == -1


def test_errors():
    with pytest.raises(RankingError):
        R5.evaluate(C("AS KS QS JS"))
    with pytest.raises(RankingError):
        R5.evaluate(C("AS KS QS JS") + [JOKER])   # 669a uses no joker
    with pytest.raises(RankingError):
        Ranking.from_spec({"kind": "poker", "cards": 5, "categories": [
            {"id": "pair", "pattern": {"groups": [2]}}]}, "bad")   # no catch-all category


# ----------------------------------------------------------------------------- 670a.6
def test_670a_6_a_joker_counts_as_ace():
    v = J5.evaluate(C("AS 7H 5D 3C JK"))
    assert v.category == "pair" and v.high == "A"
    v = J5.evaluate(C("KS 7H 5D 3C JK"))
    assert v.category == "high_card" and v.high == "A"
    assert J5.evaluate(C("AS AH 7D 3C JK")).category == "three_of_a_kind"


def test_670a_6_a_joker_completes_straight_flush_and_flush():
    # the best card completing the straight: K, not 8
    v = J5.evaluate(C("9S TH JD QC JK"))
    assert v.category == "straight" and v.high == "K"
    # in a flush the joker is the highest card the suit lacks
    assert J5.compare(C("KH QH 9H 5H JK"), C("AS QS 9S 5S 3S")) == 1
    assert J5.compare(C("AH 9H 7H 4H JK"), C("AS KS 8S 5S 3S")) == 1
    assert J5.evaluate(C("AH 9H 7H 4H JK")).tiebreak[5:7] == (12, 11)
    # straight flush with the joker inside the sequence
    assert J5.evaluate(C("4D 5D 7D 8D JK")).category == "straight_flush"
    # no straight or flush: the joker does not complete a pair of kings
    assert J5.evaluate(C("KS 9H 5D 3C JK")).category == "high_card"


def test_670a_6_a_ace_low_straight_does_not_wrap():
    assert J5.evaluate(C("QS KH AD 2C 3S")).category == "high_card"
    assert J5.evaluate(C("KH AD 2C 3S JK")).category == "pair"     # joker as ace


def test_670a_6_b_1_five_aces_is_four_aces_and_joker():
    v = J5.evaluate(C("AS AH AD AC JK"))
    assert v.category == "five_aces"
    assert v > J5.evaluate(C("AS KS QS JS TS"))
    assert J5.evaluate(C("KS KH KD KC JK")).category == "four_of_a_kind"   # joker is an ace, no five kings


def test_670a_6_b_2_royal_flush_with_joker():
    assert J5.evaluate(C("KH QH JH TH JK")).category == "royal_flush"
    assert J5.evaluate(C("AH QH JH TH JK")).category == "royal_flush"
    assert J5.compare(C("KH QH JH TH JK"), C("AS KS QS JS TS")) == 0


def test_670a_6_b_3_wheel_is_highest_straight_flush():
    wheel = J5.evaluate(C("AS 2S 3S 4S 5S"))
    assert wheel.category == "straight_flush"
    assert wheel > J5.evaluate(C("KS QS JS TS 9S"))
    assert wheel < J5.evaluate(C("AS KS QS JS TS"))
    lowest = J5.evaluate(C("2H 3H 4H 5H 6H"))
    sfs = [J5.evaluate(C(f"{h}")) for h in ("3H 4H 5H 6H 7H", "9H TH JH QH KH")]
    assert all(lowest < v for v in sfs + [wheel])
    # the joker takes the reading that ranks highest: 2-3-4-5 suited + joker is the wheel
    assert J5.evaluate(C("2S 3S 4S 5S JK")) == wheel


def test_670a_6_b_7_wheel_is_second_highest_straight():
    wheel = J5.evaluate(C("AS 2H 3D 4C 5S"))
    assert wheel.category == "straight"
    assert wheel < J5.evaluate(C("AS KH QD JC TS"))
    assert wheel > J5.evaluate(C("KS QH JD TC 9S"))
    assert J5.evaluate(C("2H 3D 4C 5S 6S")) < J5.evaluate(C("3H 4D 5C 6S 7S"))
    assert J5.evaluate(C("2H 3D 4C 5S JK")) == wheel


def test_670a_6_b_order_and_within_category():
    assert J5.compare(C("AS AH AD 2C 2S"), C("KS KH KD QC QS")) == 1     # (5)
    assert J5.compare(C("3S 3H 2D 2C AS"), C("4S 4H 2H 3C 5S")) == 1     # (9) 33 22 > 44
    assert J5.compare(C("2S 2H 3D 4C 5H JK"), C("AS AD 7D 4C 5H")) == 1   # joker straight > pair


def test_670a_6_c_identical_hands_tie():
    assert J5.compare(C("AS KH 9D 5C 3S"), C("AH KD 9C 5S 3H")) == 0
    assert J5.compare(C("AS KH 9D 5C 3S"), C("AH KD 9C 5S 2H")) == 1


def test_670a_12_c_insurance_hands():
    assert J5.matches_hand(C("8S 7H 5D 4C 2S 3D"), "eight_high")            # no five in sequence
    assert not J5.matches_hand(C("8S 7H 6D 5C 4S 2D"), "eight_high")        # 8-7-6-5-4 straight
    assert J5.matches_hand(C("8S 7H 6D 4C 3S 2D"), "eight_high")
    assert J5.matches_hand(C("KS 7H 6D 4C 3S 2D"), "king_high")
    assert not J5.matches_hand(C("KS 7H 6D 4C 3S JK"), "king_high")        # joker: ace-high
    assert not J5.matches_hand(C("AS 7H 6D 4C 3S 9D"), "king_high")


def test_670a_low_hand_joker_is_ace():
    assert LOW.compare([JOKER], C("AS")) == 0
    assert LOW.compare(C("KS"), C("AS")) == -1


# ----------------------------------------------------------------------------- exhaustive counts
def test_669a_6_b_five_card_counts_exhaustive():
    counts = Counter()
    ev = R5.evaluate
    for h in combinations(range(52), 5):
        counts[ev(h).category] += 1
    # independent combinatorial formulas
    sf_all = 10 * 4
    flush_all = comb(13, 5) * 4
    straight_all = 10 * 4 ** 5
    expected = {
        "royal_flush": 4,
        "straight_flush": sf_all - 4,
        "four_of_a_kind": 13 * 48,
        "full_house": 13 * comb(4, 3) * 12 * comb(4, 2),
        "flush": flush_all - sf_all,
        "straight": straight_all - sf_all,
        "three_of_a_kind": 13 * comb(4, 3) * comb(12, 2) * 4 ** 2,
        "two_pair": comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
        "pair": 13 * comb(4, 2) * comb(12, 3) * 4 ** 3,
    }
    expected["high_card"] = comb(52, 5) - sum(expected.values())
    assert expected["full_house"] == 3744 and expected["two_pair"] == 123552
    assert expected["pair"] == 1098240 and expected["straight"] == 10200 and expected["flush"] == 5108
    assert dict(counts) == expected


def test_669a_6_c_three_card_counts_exhaustive():
    counts = Counter(R3.evaluate(h).category for h in combinations(range(52), 3))
    straights = 12                        # A-2-3 .. Q-K-A
    expected = {
        "straight_flush": straights * 4,
        "three_of_a_kind": 13 * comb(4, 3),
        "straight": straights * (4 ** 3 - 4),
        "flush": 4 * (comb(13, 3) - straights),
        "pair": 13 * comb(4, 2) * 12 * 4,
    }
    expected["high_card"] = comb(52, 3) - sum(expected.values())
    assert dict(counts) == expected


# ----------------------------------------------------------------------------- independent reference
def _ref_eval(cards, wheel_sf="low", wheel_st="low", joker=False):
    """Reference poker evaluator written from 669a.6/670a.6 directly (no tables).

    Returns a comparable tuple (category level, tiebreak...).  Levels: 10 five aces, 9 royal,
    8 straight flush, 7 quads, 6 full house, 5 flush, 4 straight, 3 trips, 2 two pair, 1 pair, 0.
    """
    if JOKER in cards:
        nat = [c for c in cards if c != JOKER]
        cands = [_ref_eval(nat + [("ace", 12)], wheel_sf, wheel_st)]     # the joker as an ace
        used = set(nat)
        for c in range(52):
            if c in used:
                continue
            v = _ref_eval(nat + [c], wheel_sf, wheel_st)
            if v[0] in (4, 5, 8, 9):                                     # completes straight/flush
                cands.append(v)
        return max(cands)
    ranks, suits = [], []
    for c in cards:
        if isinstance(c, tuple):
            ranks.append(12)
            suits.append(-1)
        else:
            ranks.append(c // 4)
            suits.append(c % 4)
    flush = len(set(suits)) == 1 and suits[0] >= 0
    rs = sorted(set(ranks))
    straight_key = None
    if len(rs) == 5:
        if rs[4] - rs[0] == 4:
            straight_key = 2 * rs[4]
        elif rs == [0, 1, 2, 3, 12]:
            straight_key = "wheel"
    cnt = Counter(ranks)
    shape = sorted(cnt.values(), reverse=True)
    order = sorted(cnt, key=lambda r: (cnt[r], r), reverse=True)
    if shape[0] == 5:
        return (10,)
    if straight_key is not None and flush:
        if straight_key == 24:
            return (9,)
        k = {"low": 6, "high": 26}[wheel_sf] if straight_key == "wheel" else straight_key
        return (8, k)
    if shape[0] == 4:
        return (7, *order)
    if shape[:2] == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *sorted(ranks, reverse=True))
    if straight_key is not None:
        k = {"low": 6, "second": 23}[wheel_st] if straight_key == "wheel" else straight_key
        return (4, k)
    if shape[0] == 3:
        return (3, *order)
    if shape[:2] == [2, 2]:
        return (2, *order)
    if shape[0] == 2:
        return (1, *order)
    return (0, *order)


_LEVEL = {10: "five_aces", 9: "royal_flush", 8: "straight_flush", 7: "four_of_a_kind", 6: "full_house",
          5: "flush", 4: "straight", 3: "three_of_a_kind", 2: "two_pair", 1: "pair", 0: "high_card"}


@pytest.mark.parametrize("ranking,deck,wheels", [
    (R5, list(range(52)), ("low", "low")),
    (J5, list(range(52)) + [JOKER], ("high", "second")),
])
def test_reference_evaluator_agrees_on_random_hands(ranking, deck, wheels):
    rng = random.Random(669670)
    for _ in range(3000):
        a = rng.sample(deck, 5)
        b = rng.sample(deck, 5)
        if rng.random() < 0.3 and JOKER in deck:           # many joker hands
            a = rng.sample(deck[:52], 4) + [JOKER]
        ra, rb = _ref_eval(a, *wheels), _ref_eval(b, *wheels)
        va, vb = ranking.evaluate(a), ranking.evaluate(b)
        assert va.category == _LEVEL[ra[0]], (a, va, ra)
        assert vb.category == _LEVEL[rb[0]], (b, vb, rb)
        assert ranking.compare(a, b) == (ra > rb) - (ra < rb), (a, b)


def test_thresholds_key_is_a_named_hand():
    spec = dict(SPEC669["rankings"]["five_card"])
    spec["hands"] = {}
    spec["thresholds"] = {"pair_of_10s_or_better": {"category": "pair", "min_rank": "T"}}
    r = Ranking.from_spec(spec, "five_card")
    assert r.matches_hand(C("TS TH 2D 3C 4S"), "pair_of_10s_or_better")
    assert not r.matches_hand(C("9S 9H 2D 3C 4S"), "pair_of_10s_or_better")
