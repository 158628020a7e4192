"""The stud raise solver (compiler/analysis/stud.py) against an independent brute-force
backward induction (scalar evaluator, Fractions, the real order of the cards) on reduced decks,
and against a seeded Monte-Carlo simulation of the full 669a game played by the exported strategy.

The game the solver is given is read from the compiled rulespec (its procedure, wagers and
paytables); the reference below is written from the regulation text."""
from __future__ import annotations

import math
import random
from fractions import Fraction as F
from functools import lru_cache

import pytest

from compiler.analysis.enumerate import standard_deck
from compiler.analysis.card_routes import _active_steps, solve_model, stud_model_or_reason
from compiler.pipeline import load_game
from compiler.runtime.engine import Table
from compiler.runtime.rankings import Ranking

from analysis_fixtures import ranking, spec_path

SCHEDULE_669A = [{"known": 3, "options": [3, 2, 1, "check"]},      # § 669a.11(b)
                 {"known": 4, "options": [2, 1, "check"]},         # § 669a.11(d)
                 {"known": 5, "options": [1, "fold"]}]             # § 669a.11(f)

# § 669a.12(b)-(d), written here independently of the rulespec: (ante+blind net, play net)
_PLAY = {"royal_flush": 100, "straight_flush": 20, "four_of_a_kind": 10, "full_house": 6, "flush": 5,
         "straight": 4, "three_of_a_kind": 3, "two_pair": F(3, 2), "pair": 1}
_BLIND = {"royal_flush": 1000, "straight_flush": 200, "four_of_a_kind": 30, "full_house": 4, "flush": 3,
          "straight": 2, "three_of_a_kind": 1, "two_pair": 0, "pair": 0}


@lru_cache(maxsize=None)
def _compiled():
    """The 669a game module and the stud model its compiled procedure gives (hole and community
    cards, decision schedule, base and Play wagers, qualifier, paytables)."""
    mod, comp = load_game(spec_path("669a"))
    game = mod.GAME
    model, why_not = stud_model_or_reason(game, comp.chapter, _active_steps(game, comp.chapter, Table(game, {}, seed=0)))
    assert model is not None, why_not
    return game, model


def _solve(deck=None):
    game, model = _compiled()
    return solve_model(game, model, Ranking.from_spec(game.rankings[model.ranking_id], model.ranking_id), deck)


def test_669a_11_procedure_read_as_a_stud_raise_game():
    """§ 669a.11(a)-(f): three cards to each player, three community cards revealed one at a time, a
    Play wager of 3x/2x/1x the Ante or check, then 2x/1x or check, then 1x or fold."""
    game, model = _compiled()
    assert (model.hole, model.community) == (3, 3)
    assert [{"known": d["known"], "options": d["options"]} for d in model.schedule] == SCHEDULE_669A
    assert sorted(w for w, _ in model.base) == ["ante", "blind"] and model.play == "play"


def _reference(deck):
    """Brute-force optimal play of 669a on a deck: recursion over the next card, memoised.

    Exact in integers: every value of a holding of n cards is scaled by 2 * W(n), W(n) the number of
    ordered completions of the holding (the unseen community cards in order) and 2 the denominator
    of the 3 to 2 payout, so the average over the next card is the plain sum of the scaled values."""
    r = ranking("669a", "five_card")
    deck = list(deck)
    N = len(deck)

    def W(n):
        return math.perm(N - n, 6 - n)

    @lru_cache(maxsize=None)
    def final(known):                         # frozenset of 6 cards -> 2 * (a, b)
        v, _ = r.best(sorted(known))
        qual = v.category_index < r.category_index("pair") or (v.category == "pair" and v.high in "TJQKA")
        if not qual:
            return -4, -2
        return 2 * (1 + _BLIND[v.category]), int(2 * _PLAY[v.category])

    @lru_cache(maxsize=None)
    def ab(known):                            # sums of 2 * (a, b) over the ordered completions
        if len(known) == 6:
            return final(known)
        sa = sb = 0
        for c in deck:
            if c not in known:
                a, b = ab(known | {c})
                sa += a
                sb += b
        return sa, sb

    @lru_cache(maxsize=None)
    def value(known):                         # no Play wager yet: (2 * W(n) * value, best options)
        n = len(known)
        a, b = ab(known)
        if n == 5:
            opts = {1: a + b, "fold": -4 * W(5)}
        else:
            check = sum(value(known | {c})[0] for c in deck if c not in known)
            raises = (3, 2, 1) if n == 3 else (2, 1)
            opts = {m: a + m * b for m in raises}
            opts["check"] = check
        best = max(opts.values())
        return best, {o for o, v in opts.items() if v == best}

    from itertools import combinations
    total = 0
    count = 0
    for hole in combinations(deck, 3):
        total += value(frozenset(hole))[0]
        count += 1
    return F(total, count * 2 * W(3)), value


@pytest.mark.parametrize("ranks", [[0, 1, 2, 3, 8, 12], [8, 9, 10, 11, 12]])
def test_669a_11_optimal_strategy_matches_brute_force(ranks):
    deck = standard_deck(0, ranks)
    sol = _solve(deck)
    ref_ev, ref_value = _reference(deck)
    assert sol.ev_per_ante == ref_ev
    rng = random.Random(1)
    for k in (3, 4, 5):
        for _ in range(300):
            held = frozenset(rng.sample(deck, k))
            assert sol.decision_of(sorted(held)) in ref_value(held)[1], sorted(held)


def test_669a_11_raise_it_up_full_deck_and_monte_carlo():
    sol = _solve()
    # regression of the exact figure (see bench/analysis.py for its derivation and timing)
    assert sol.ev_per_ante == F(-7129937, 203585200)
    assert sol.expected_wager == F(7173043, 2165800)
    assert sol.ev_per_wagered == sol.ev_per_ante / sol.expected_wager
    assert sum(sol.option_frequencies[3].values()) == 1
    # seeded simulation of rounds played by the exported decisions
    r = ranking("669a", "five_card")
    rng = random.Random(2024)
    pair_index = r.category_index("pair")
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
            # § 669a.11(i)(2)(i): a pair of 10s or better qualifies (written here, not read from the rulespec)
            if v.category_index < pair_index or (v.category == "pair" and v.high in "TJQKA"):
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


def test_669a_11_strategy_summary_agrees_with_the_full_table_on_a_reduced_deck():
    """format_strategy counts and shows the rows of each option from arrays (not every row built): the
    same as reading them off strategy_table, row for row; classes are suit-isomorphism classes."""
    sol = _solve(standard_deck(0, [7, 8, 9, 10, 11, 12]))          # 9 to A: 24 cards
    for known in sorted(sol.level_options):
        rows = sol.strategy_table(known)
        assert sum(r["sets"] for r in rows) == math.comb(24, known)
        expect = [f"Known cards: {known}; options {sol.level_options[known]}"]
        for o in sol.level_options[known]:
            sel = [r for r in rows if r["decision"] == o]
            expect.append(f"  {o!s:>6}: {len(sel)} classes, {sum(r['sets'] for r in sel)} holdings")
            for r in sel[:2]:
                evs = ", ".join(f"{k}={float(v):+.4f}" for k, v in r["ev"].items())
                expect.append(f"      {r['hand']:<24} x{r['sets']:<6} {evs}")
            if len(sel) > 2:
                expect.append(f"      ... {len(sel) - 2} more")
        assert sol.format_strategy(known, max_rows=2) == "\n".join(expect)
        assert [r["ev"] for r in rows] == sorted((r["ev"] for r in rows), key=lambda e: -max(e.values()))
