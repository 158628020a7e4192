"""Exact enumerations (compiler/analysis/enumerate.py) cross-checked by independent routes:
combinatorial formulas written here, the scalar evaluator, and seeded Monte-Carlo."""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import pytest

from compiler.analysis.enumerate import (Vectoriser, colex_combinations, colex_index, enumerate_hands,
                                         hand_probabilities, iter_colex_blocks, standard_deck)
from compiler.runtime.cards import JOKER

from analysis_fixtures import dist, ranking


def test_colex_order_and_index():
    rows = colex_combinations(9, 4)
    assert len(rows) == comb(9, 4)
    assert (colex_index(rows) == np.arange(len(rows))).all()
    assert sorted(map(tuple, rows.tolist())) == list(combinations(range(9), 4))
    blocks = list(iter_colex_blocks(9, 4, max_rows=7))
    assert np.concatenate([b for _, b in blocks]).tolist() == rows.tolist()
    assert [s for s, _ in blocks] == sorted(s for s, _ in blocks)


# ----------------------------------------------------------------------------- category counts
def test_669a_6_c_three_card_counts():
    got = dist("669a", "three_card", 3).category_counts()
    runs = 12                                          # A-2-3 ... Q-K-A
    exp = {"straight_flush": 4 * runs, "three_of_a_kind": 13 * 4, "straight": runs * (64 - 4),
           "flush": 4 * (comb(13, 3) - runs), "pair": 13 * 6 * 48}
    exp["high_card"] = comb(52, 3) - sum(exp.values())
    assert got == exp


def test_669a_6_b_five_card_counts():
    got = dist("669a", "five_card", 5).category_counts()
    assert got == {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744,
                   "flush": 5108, "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552,
                   "pair": 1098240, "high_card": 1302540}


def _six_card_counts_combinatorial():
    """Best five of six cards of 52, derived rank pattern by rank pattern (no evaluator)."""
    runs = [set(range(t - 4, t + 1)) for t in range(4, 13)] + [{12, 0, 1, 2, 3}]

    def has_run(rs):
        return any(r <= rs for r in runs)

    out = Counter()
    for ms in combinations_with_replacement(range(13), 6):
        cnt = Counter(ms)
        if max(cnt.values()) > 4:
            continue
        shape = sorted(cnt.values(), reverse=True)
        ways = 1
        for c in cnt.values():
            ways *= comb(4, c)
        rs = set(cnt)
        if shape[0] == 4:
            out["four_of_a_kind"] += ways
            continue
        if shape[0] == 3 and shape[1] >= 2:
            out["full_house"] += ways
            continue
        # flush / straight flush possible only with >= 5 distinct ranks
        flush_ways = {}
        if len(rs) == 6:
            # all six one suit (4 ways) or exactly five of one suit (6 * 4 * 3 ways)
            cat6 = "royal_flush" if {8, 9, 10, 11, 12} <= rs else ("straight_flush" if has_run(rs) else "flush")
            flush_ways[cat6] = flush_ways.get(cat6, 0) + 4
            for drop in rs:
                five = rs - {drop}
                c5 = "royal_flush" if five == {8, 9, 10, 11, 12} else ("straight_flush" if has_run(five) else "flush")
                flush_ways[c5] = flush_ways.get(c5, 0) + 4 * 3
        elif len(rs) == 5:
            # one rank paired: the five ranks in one suit, the pair's other card any other suit
            c5 = "royal_flush" if rs == {8, 9, 10, 11, 12} else ("straight_flush" if has_run(rs) else "flush")
            flush_ways[c5] = 4 * 3
        for c, w in flush_ways.items():
            out[c] += w
        rest = ways - sum(flush_ways.values())
        if has_run(rs):
            out["straight"] += rest
        elif shape[0] == 3:
            out["three_of_a_kind"] += rest
        elif shape[:2] == [2, 2]:
            out["two_pair"] += rest
        elif shape[0] == 2:
            out["pair"] += rest
        else:
            out["high_card"] += rest
    return dict(out)


def test_669a_six_card_counts_combinatorial(six_card_669a):
    exp = _six_card_counts_combinatorial()
    assert sum(exp.values()) == comb(52, 6) == 20_358_520
    assert six_card_669a.category_counts() == exp
    assert six_card_669a.total == 20_358_520


def test_670a_six_card_counts_with_joker(six_card_670a):
    got = six_card_670a.category_counts()
    assert six_card_670a.total == comb(53, 6) == 22_957_480
    # 670a.6(b)(1): five aces = the four aces, the joker and any other card
    assert got["five_aces"] == 48
    # hands without the joker are the 52-card hands; those with it: independent lower bounds
    no_joker = _six_card_counts_combinatorial()
    for c in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight"):
        assert got[c] > no_joker[c]
    # royal flushes with the joker, counted directly: the joker with a natural royal (4 hands),
    # or the joker with 4 of the 5 royal cards of a suit and any of the 47 other cards
    assert got["royal_flush"] == no_joker["royal_flush"] + 4 + 4 * 5 * 47


@pytest.mark.parametrize("ch,rid,k,jokers,ranks", [
    ("669a", "five_card", 6, 0, [0, 1, 2, 3, 8, 9, 10, 11, 12]),     # wheel and royal possible
    ("670a", "five_card", 6, 1, [0, 1, 2, 3, 9, 10, 11, 12]),
    ("670a", "five_card", 7, 1, [0, 1, 2, 3, 10, 11, 12]),
    ("670a", "five_card", 5, 1, [0, 1, 2, 3, 4, 9, 10, 11, 12]),
    ("669a", "three_card", 3, 0, None),
])
def test_vectoriser_equals_scalar_on_reduced_deck(ch, rid, k, jokers, ranks):
    r = ranking(ch, rid)
    deck = standard_deck(jokers, ranks)
    vec = Vectoriser(r, k, deck)
    rng = random.Random(7)
    rows = [sorted(rng.sample(deck, k)) for _ in range(4000)]
    got = vec.evaluate_cards(np.array(rows, dtype=np.uint8))
    for row, d in zip(rows, got.tolist()):
        assert vec.values[d] == r.best(row)[0], row
    # exhaustive category counts on the reduced deck against the scalar evaluator
    if comb(len(deck), k) <= 400_000:
        scalar = Counter(r.best(h)[0].category for h in combinations(deck, k))
        assert {c: n for c, n in enumerate_hands(r, k, deck).category_counts().items() if n} == dict(scalar)


def test_vectoriser_equals_scalar_full_deck_sample(six_card_670a):
    r = ranking("670a", "five_card")
    vec = six_card_670a.vectoriser
    rng = random.Random(11)
    deck = standard_deck(1)
    rows = [sorted(rng.sample(deck, 6)) for _ in range(20000)] + \
           [sorted(rng.sample(deck[:52], 5) + [JOKER]) for _ in range(20000)]
    got = vec.evaluate_cards(np.array(rows, dtype=np.uint8))
    for row, d in zip(rows, got.tolist()):
        assert vec.values[d] == r.best(row)[0], row


def test_669a_progressive_card_hands_exclusive():
    p = hand_probabilities(ranking("669a", "three_card"), 3,
                           ["ace_king_queen_spades", "ace_king_queen_other_suit", "straight_flush"])
    assert p["ace_king_queen_spades"] == pytest.approx(0) or p["ace_king_queen_spades"] * 22100 == 1
    assert p["ace_king_queen_other_suit"] * 22100 == 3
    assert p["straight_flush"] * 22100 == 48 - 4


@pytest.mark.parametrize("jokers,shuffled", [(0, False), (1, False), (1, True)])
def test_colex_values_equal_values_of_every_subset(jokers, shuffled):
    """Vectoriser.colex_values (the (k-1)-subsets valued once, then the last card) against the
    direct valuation of every k-subset, in colex order; a shuffled deck takes the block route."""
    deck = standard_deck(jokers, [0, 1, 2, 3, 8, 9, 10, 11, 12])
    if shuffled:
        random.Random(3).shuffle(deck)
    vec = Vectoriser(ranking("670a", "five_card"), 6, deck)
    rows = colex_combinations(len(deck), 6)
    cards = np.sort(np.array(deck, dtype=np.uint8)[rows], axis=1)
    want = vec.evaluate_cards(cards)
    got = np.zeros(len(rows), dtype=np.int64) - 1
    for last, a, vals in vec.colex_values(max_rows=5000):
        start = comb(last, 6) + a
        got[start:start + len(vals)] = vals
    assert (got == want).all()
