"""The stud raise solver (compiler/analysis/stud.py) against an independent brute-force
backward induction (scalar evaluator, Fractions, the real order of the cards) on reduced decks,
and against a seeded Monte-Carlo simulation of the full 669a game played by the exported strategy."""
from __future__ import annotations

import math
import random
from fractions import Fraction as F
from functools import lru_cache

import pytest

from compiler.analysis.enumerate import standard_deck
from compiler.analysis.stud import solve_stud, stud_game_from_spec

from analysis_fixtures import ranking, spec

SCHEDULE_669A = [{"known": 3, "options": [3, 2, 1, "check"]},      # § 669a.11(b)
                 {"known": 4, "options": [2, 1, "check"]},         # § 669a.11(d)
                 {"known": 5, "options": [1, "fold"]}]             # § 669a.11(f)

# § 669a.12(b)-(d), written here independently of the fixture: (ante+blind net, play net)
_PLAY = {"royal_flush": 100, "straight_flush": 20, "four_of_a_kind": 10, "full_house": 6, "flush": 5,
         "straight": 4, "three_of_a_kind": 3, "two_pair": F(3, 2), "pair": 1}
_BLIND = {"royal_flush": 1000, "straight_flush": 200, "four_of_a_kind": 30, "full_house": 4, "flush": 3,
          "straight": 2, "three_of_a_kind": 1, "two_pair": 0, "pair": 0}


def _game(deck=None):
    return stud_game_from_spec(ranking("669a", "five_card"), spec("669a")["paytables"], schedule=SCHEDULE_669A,
                               qualifier="pair_of_10s_or_better", deck=deck, hole=3, community=3,
                               fixed=(("ante", 1), ("blind", 1)), play="play")


def _reference(deck):
    """Brute-force optimal play of 669a on a deck: recursion over the next card, memoised."""
    r = ranking("669a", "five_card")
    deck = list(deck)

    @lru_cache(maxsize=None)
    def final(known):                         # frozenset of 6 cards -> (a, b)
        v, _ = r.best(sorted(known))
        qual = v.category_index < r.category_index("pair") or (v.category == "pair" and v.high in "TJQKA")
        if not qual:
            return F(-2), F(-1)
        return 1 + _BLIND[v.category], F(_PLAY[v.category])

    @lru_cache(maxsize=None)
    def ab(known):                            # expected (a, b) over the unseen cards
        if len(known) == 6:
            return final(known)
        rest = [c for c in deck if c not in known]
        sa = sb = F(0)
        for c in rest:
            a, b = ab(known | {c})
            sa += a
            sb += b
        return sa / len(rest), sb / len(rest)

    @lru_cache(maxsize=None)
    def value(known):                         # no Play wager yet; returns (value, best option)
        n = len(known)
        a, b = ab(known)
        rest = [c for c in deck if c not in known]
        if n == 5:
            opts = {1: a + b, "fold": F(-2)}
        else:
            check = sum(value(known | {c})[0] for c in rest) / len(rest)
            raises = (3, 2, 1) if n == 3 else (2, 1)
            opts = {m: a + m * b for m in raises}
            opts["check"] = check
        best = max(opts.values())
        return best, {o for o, v in opts.items() if v == best}

    from itertools import combinations
    total = F(0)
    count = 0
    for hole in combinations(deck, 3):
        total += value(frozenset(hole))[0]
        count += 1
    return total / count, value


@pytest.mark.parametrize("ranks", [[0, 1, 2, 3, 8, 12], [8, 9, 10, 11, 12]])
def test_669a_11_optimal_strategy_matches_brute_force(ranks):
    deck = standard_deck(0, ranks)
    sol = solve_stud(_game(deck))
    ref_ev, ref_value = _reference(deck)
    assert sol.ev_per_ante == ref_ev
    rng = random.Random(1)
    for k in (3, 4, 5):
        for _ in range(300):
            held = frozenset(rng.sample(deck, k))
            assert sol.decision_of(sorted(held)) in ref_value(held)[1], sorted(held)


def test_669a_11_raise_it_up_full_deck_and_monte_carlo():
    sol = solve_stud(_game())
    # regression of the exact figure (see bench/analysis.py for its derivation and timing)
    assert sol.ev_per_ante == F(-7129937, 203585200)
    assert sol.expected_wager == F(7173043, 2165800)
    assert sol.ev_per_wagered == sol.ev_per_ante / sol.expected_wager
    assert sum(sol.option_frequencies[3].values()) == 1
    # seeded simulation of rounds played by the exported decisions
    r = ranking("669a", "five_card")
    rng = random.Random(2024)
    n = 40_000
    s = s2 = 0.0
    for _ in range(n):
        cards = rng.sample(range(52), 6)
        play = 0
        for k in (3, 4, 5):
            d = sol.decision_of(cards[:k])
            if d == "fold":
                play = None
                break
            if d != "check":
                play = d
                break
        if play is None:
            x = -2.0
        else:
            v, _ = r.best(cards)
            if r.matches_hand(cards, "pair_of_10s_or_better"):
                x = 1 + float(_BLIND[v.category]) + play * float(_PLAY[v.category])
            else:
                x = -2.0 - play
        s += x
        s2 += x * x
    mean = s / n
    se = math.sqrt((s2 / n - mean * mean) / n)
    assert abs(mean - float(sol.ev_per_ante)) < 4 * se, (mean, float(sol.ev_per_ante), se)
    # readable strategy: three of a kind raises 3x
    assert sol.decision_of([0, 1, 2]) == 3
    rows = {row["hand"]: row["decision"] for row in sol.strategy_table(3)}
    assert len(rows) == len(set(rows))
    text = sol.format_strategy(3, max_rows=3)
    assert "check" in text and "3:" in text
