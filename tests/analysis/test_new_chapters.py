"""The figures `rulespec analyze` gives the three chapters written as a regulator would write them (NOT official
text, tests/fixtures/chapters/): Four Card Poker (§ 641a), Ultimate Texas Hold 'Em (§ 653a) and High Card Flush
(§ 678a), each held to a route that shares nothing with the compiler: a published figure, a count written here
from the chapter's words, or a seeded simulation written here (within four standard errors of both).

* Four Card Poker: the Ante and Play exact by the dealer-hand route (the dealer's best four of six cards, one
  seen), equal to a brute force on reduced decks and, on the full deck, to the published 2.78% of the Ante
  (1.30% of the total wagered); the Aces Up exact, equal to a count of every five-card hand.
* Ultimate Texas Hold 'Em: the Trips exact, equal to the counts of seven-card hands and the published 1.90%
  (Paytable B) and 3.50% (Paytable C); the main game simulated under its stated policy.
* High Card Flush: the Flush Bonus and Straight Flush Bonus exact, equal to counts of seven-card hands by suit; the
  main game simulated under its stated policy (the largest Raise allowed)."""
from __future__ import annotations

import math
import random
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import combinations, product
from math import comb

import numpy as np
import pytest

from compiler.analysis import deal_common, deals
from compiler.analysis.assumptions import wager_facts
from compiler.analysis.card_routes import _active_steps, _in_play
from compiler.analysis.report import analyze
from compiler.pipeline import ROOT, load_game
from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import Table
from compiler.values.rankings import Ranking

CHAPTERS = ROOT / "tests/fixtures/chapters"


def _load(name):
    mod, comp = load_game(CHAPTERS / name)
    return mod.GAME, comp.chapter


def _figures(rep) -> dict:
    return {(f.stakes, f.policy.column): f for f in rep.figures}


# ----------------------------------------------------------------------------- Four Card Poker (§ 641a)

@pytest.fixture(scope="module")
def fcp():
    return _load("four-card-poker.yaml")


def _fcp_brute_force(game, deck):
    """Every deal in the chapter's order (five to the player, five down and one up to the dealer); for every view
    (the player's five cards, the dealer's up card) the choice of largest expected net over the dealer's five
    down cards; each round settled by the engine, memoised on the two best four-card hands' scores."""
    r = Ranking.from_spec(game.rankings["four_card"], "four_card")
    best: dict = {}

    def score(cards):
        k = tuple(sorted(cards))
        if k not in best:
            best[k] = r.best(list(k))[0].score
        return best[k]

    memo, rk = {}, {}

    def net(P, T, u, choice):
        key = (score(P), score(T + (u,)), choice)
        if key not in memo:
            _, nets, _ = deal_common._play(game, {}, {"ante": Decimal(1)}, list(P) + list(T) + [u], (choice,), rk, True)
            memo[key] = sum(nets.values(), Fraction(0))
        return memo[key]

    choices = ("play_3x", "play_2x", "play_1x", "fold")
    total, acc = 0, Fraction(0)
    for P in combinations(deck, 5):
        rest = [c for c in deck if c not in P]
        for u in rest:
            downs = list(combinations([c for c in rest if c != u], 5))
            acc += max(sum(net(P, T, u, ch) for T in downs) for ch in choices)
            total += len(downs)
    return acc / total


@pytest.mark.parametrize("cards", [
    "AS KS QS JS TS 9S AH KH QH JH TH 9H",        # two suits of six ranks: straights, flushes, straight flushes
    "AS AH AD AC KS KH KD KC 2S 2H 2D 2C",        # four suits of three ranks: four- and three-of-a-kind
])
def test_641a_dealer_route_with_six_dealer_cards_equals_brute_force(fcp, cards):
    game, chapter = fcp
    deck = sorted(parse_cards(cards.split()))
    steps = _active_steps(game, chapter, Table(game, {}, seed=0))
    steps = _in_play(steps, {"ante": 1}, wager_facts(game, steps)[0])   # as analyze: no Aces Up made here
    sol = deals.solve(game, steps, deck, {}, {"ante": 1})
    assert sol.sets == comb(12, 5) * comb(7, 5) * 2
    assert sol.expected_net == _fcp_brute_force(game, deck)


@pytest.fixture(scope="module")
def fcp_report(fcp):
    game, chapter = fcp
    return analyze(game, chapter, {}, simulate_refused=False)   # about a minute: every deal of the full deck


def _aces_up_count() -> Counter:
    """Every five-card hand by its best four-card hand, as § 641a.6 words it (counted here with numpy, not by the
    compiler): 7 four-of-a-kind, 6 straight flush, 5 three-of-a-kind, 4 flush, 3 straight, 2 two pairs, 1 a pair
    of aces, 0 anything lower (the Aces Up pays nothing below a pair of aces)."""
    hands = np.array(list(combinations(range(52), 5)), dtype=np.int64)
    best = np.zeros(len(hands), dtype=np.int64)
    for sub in combinations(range(5), 4):
        c = hands[:, list(sub)]
        r = np.sort(c >> 2, axis=1)
        eq = r[:, 1:] == r[:, :-1]                             # equal neighbours in rank order
        quads = eq.all(axis=1)
        trips = (eq[:, 0] & eq[:, 1]) | (eq[:, 1] & eq[:, 2])
        two_pair = eq[:, 0] & eq[:, 2] & ~eq[:, 1]
        distinct = ~eq.any(axis=1)
        straight = distinct & ((r[:, 3] - r[:, 0] == 3) | ((r == [0, 1, 2, 12]).all(axis=1)))
        flush = ((c & 3) == (c[:, :1] & 3)).all(axis=1)
        aces = (eq & (r[:, 1:] == 12)).any(axis=1)              # a pair of aces
        cls = np.select([quads, straight & flush, trips, flush, straight, two_pair, aces], [7, 6, 5, 4, 3, 2, 1], 0)
        np.maximum(best, cls, out=best)
    return Counter({int(k): int(n) for k, n in zip(*np.unique(best, return_counts=True))})


def test_641a_aces_up_equals_a_count_of_every_five_card_hand(fcp_report):
    counts = _aces_up_count()
    assert sum(counts.values()) == comb(52, 5)
    pays = {"Paytable A": (50, 40, 8, 5, 4, 3, 1), "Paytable B": (50, 40, 8, 6, 4, 2, 1)}
    figs = _figures(fcp_report)
    for col, row in pays.items():
        win = sum(p * counts[7 - i] for i, p in enumerate(row))
        expected = Fraction(win - counts[0], comb(52, 5))
        assert figs[(("aces_up",), col)].expected_return == expected, col


def test_641a_ante_and_play_equal_the_published_house_edge(fcp_report):
    (fig,) = [f for f in fcp_report.figures if f.stakes == ("ante", "play") and f.policy.kind == "optimal"]
    assert fig.status == "exact"
    # Wizard of Odds, optimal strategy with the 25/20/2 Ante Bonus: 2.78% of the Ante, 1.30% of the total wagered
    # (tests/fixtures/chapters/four-card-poker.yaml names the page)
    assert abs(-float(fig.expected_return) * 100 - 2.78) < 0.01
    assert abs(-float(fig.per_total_wagered) * 100 - 1.30) < 0.01


# ----------------------------------------------------------------------------- Ultimate Texas Hold 'Em (§ 653a)

# seven-card hands by their best five cards (the classic counts of the 133,784,560 hands, e.g.
# https://en.wikipedia.org/wiki/Poker_probability#7-card_poker_hands)
SEVEN_CARD = {"royal_flush": 4324, "straight_flush": 37260, "four_of_a_kind": 224848, "full_house": 3473184,
              "flush": 4047644, "straight": 6180020, "three_of_a_kind": 6461620}


@pytest.fixture(scope="module")
def uth():
    return _load("ultimate-texas-holdem.yaml")


def test_653a_trips_equals_the_seven_card_counts_and_the_published_figures(uth):
    game, chapter = uth
    assert sum(SEVEN_CARD.values()) + 113355660 == comb(52, 7)
    rep = analyze(game, chapter, {}, simulate_refused=False)
    figs = _figures(rep)
    pays = {"Paytable A": (50, 40, 30, 9, 7, 4, 3), "Paytable B": (50, 40, 30, 8, 6, 5, 3),
            "Paytable C": (50, 40, 30, 8, 7, 4, 3), "Paytable D": (50, 40, 20, 7, 6, 5, 3)}
    for col, row in pays.items():
        win = sum(p * n for p, n in zip(row, SEVEN_CARD.values()))
        expected = Fraction(win - (comb(52, 7) - sum(SEVEN_CARD.values())), comb(52, 7))
        assert figs[(("trips",), col)].expected_return == expected, col
    # published (tests/fixtures/chapters/ultimate-texas-holdem.yaml): 1.90% and 3.50%
    assert round(-float(figs[(("trips",), "Paytable B")].expected_return) * 100, 2) == 1.90
    assert round(-float(figs[(("trips",), "Paytable C")].expected_return) * 100, 2) == 3.50
    # the main wagers: no exact method, with the reason
    assert {n.wager for n in rep.not_computed} >= {"ante", "blind"}


def _five_card_key(cards) -> tuple:
    """§ 653a.6: category, then the ranks that break ties (ace high; A-2-3-4-5 the lowest straight)."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    cnt = Counter(ranks)
    groups = sorted(cnt.items(), key=lambda kv: (-kv[1], -kv[0]))
    shape = [n for _, n in groups]
    flush = len({c & 3 for c in cards}) == 1
    top = None
    if len(cnt) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [12, 3, 2, 1, 0]:
        top = 3
    if top is not None and flush:
        return (8, top)
    if shape[0] == 4:
        return (7, groups[0][0], groups[1][0])
    if shape[:2] == [3, 2]:
        return (6, groups[0][0], groups[1][0])
    if flush:
        return (5, *ranks)
    if top is not None:
        return (4, top)
    if shape[0] == 3:
        return (3, *[r for r, _ in groups])
    if shape[:2] == [2, 2]:
        return (2, *[r for r, _ in groups])
    if shape[0] == 2:
        return (1, *[r for r, _ in groups])
    return (0, *ranks)


def _best_of_seven(cards) -> tuple:
    return max(_five_card_key(c) for c in combinations(cards, 5))


def _uth_round(rnd) -> int:
    """The stated policy (check, check, a Play of one Ante at the river): Ante + Blind + Play, in units."""
    deck = rnd.sample(range(52), 9)
    player, dealer, board = deck[:2], deck[2:4], deck[4:]
    p, d = _best_of_seven(player + board), _best_of_seven(dealer + board)
    if p == d:
        return 0
    win = p > d
    ante = 0 if d[0] < 1 else (1 if win else -1)        # a dealer below a pair returns the Ante
    if not win:
        return ante - 1 - 1                              # Play and Blind lost
    blind = {8: 50 if p[1] < 12 else 500, 7: 10, 6: 3, 5: 1.5, 4: 1}.get(p[0], 0)
    return ante + 1 + blind


def _within_four_se(fig, nets: list[float]) -> None:
    n = len(nets)
    mean = sum(nets) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in nets) / (n - 1) / n)
    diff = float(fig.expected_return) - mean
    assert abs(diff) <= 4 * math.hypot(se, fig.standard_error), (float(fig.expected_return), mean, se,
                                                                  fig.standard_error)


def test_653a_main_game_simulated_agrees_with_a_simulation_written_here(uth):
    game, chapter = uth
    rep = analyze(game, chapter, {}, rounds=20000)
    (fig,) = [f for f in rep.figures if f.stakes == ("ante", "blind")]
    assert fig.standard_error is not None and "simulation: 20,000 rounds" in fig.method
    assert fig.policy.text.startswith("always check (before_flop")
    rnd = random.Random(653)
    nets = [_uth_round(rnd) / 2 for _ in range(20000)]  # per unit of the Ante and Blind together
    _within_four_se(fig, nets)


# ----------------------------------------------------------------------------- High Card Flush (§ 678a)

@pytest.fixture(scope="module")
def hcf():
    return _load("high-card-flush.yaml")


@pytest.fixture(scope="module")
def hcf_report(hcf):
    game, chapter = hcf
    # the main game is simulated on the engine (the fast path cannot sum a Raise that varies with the cards):
    # 6,000 rounds, compared within 4 combined standard errors with 20,000 simulated here
    return analyze(game, chapter, {}, rounds=6000)


def _by_suit_lengths(weight) -> Counter:
    """Seven-card hands counted over the four suits' lengths (a, b, c, d), each suit's cards weighed by
    ``weight(length) -> {value: subsets}``; the hand's value is the largest of its suits'."""
    out: Counter = Counter()
    for lens in product(range(8), repeat=4):
        if sum(lens) != 7:
            continue
        per = [weight(k) for k in lens]
        for combo in product(*(w.items() for w in per)):
            out[max(v for v, _ in combo)] += math.prod(n for _, n in combo)
    return out


def _run_length(ranks) -> int:
    """The longest run of consecutive ranks, the ace (12) also below the 2 (0): K-A-2 is no run."""
    s = set(ranks) | ({-1} if 12 in ranks else set())
    return max((next(k for k in range(15) if r + k not in s) for r in s if r - 1 not in s), default=0)


def test_678a_flush_bonus_equals_a_count_by_suit_lengths(hcf_report):
    counts = _by_suit_lengths(lambda k: {k: comb(13, k)})
    assert sum(counts.values()) == comb(52, 7)
    figs = _figures(hcf_report)
    for col, row in {"Paytable A": {7: 300, 6: 100, 5: 10, 4: 1}, "Paytable B": {7: 100, 6: 20, 5: 10, 4: 2}}.items():
        win = sum(p * counts[k] for k, p in row.items())
        lose = sum(n for k, n in counts.items() if k < 4)
        assert figs[(("flush_bonus",), col)].expected_return == Fraction(win - lose, comb(52, 7)), col


def test_678a_straight_flush_bonus_equals_a_count_by_runs(hcf_report):
    runs = {k: Counter(_run_length(s) for s in combinations(range(13), k)) for k in range(8)}
    counts = _by_suit_lengths(lambda k: dict(runs[k]))
    assert sum(counts.values()) == comb(52, 7)
    pays = {7: 500, 6: 200, 5: 100, 4: 50, 3: 9}
    win = sum(p * counts[k] for k, p in pays.items())
    lose = sum(n for k, n in counts.items() if k < 3)
    (fig,) = [f for f in hcf_report.figures if f.stakes == ("straight_flush_bonus",)]
    assert fig.expected_return == Fraction(win - lose, comb(52, 7))


def _flush_key(cards) -> tuple:
    by_suit: dict = {}
    for c in cards:
        by_suit.setdefault(c & 3, []).append(c >> 2)
    return max((len(rs), tuple(sorted(rs, reverse=True))) for rs in by_suit.values())


def _hcf_round(rnd) -> int:
    """The stated policy (the largest Raise allowed, never a fold), Ante + Raise, in Antes."""
    deck = rnd.sample(range(52), 14)
    p, d = _flush_key(deck[:7]), _flush_key(deck[7:])
    raise_ = 3 if p[0] >= 6 else 2 if p[0] == 5 else 1
    if d[0] < 3 or (d[0] == 3 and d[1][0] < 7):          # below a three-card flush nine-high
        return 1
    if p == d:
        return 0
    return (1 + raise_) * (1 if p > d else -1)


def test_678a_main_game_simulated_agrees_with_a_simulation_written_here(hcf_report):
    (fig,) = [f for f in hcf_report.figures if f.stakes == ("ante",)]
    assert fig.policy.text.startswith("always the first allowed of raise_3x, raise_2x, raise_1x")
    rnd = random.Random(678)
    _within_four_se(fig, [_hcf_round(rnd) for _ in range(20000)])
