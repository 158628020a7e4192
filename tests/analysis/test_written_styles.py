"""The analysis is robust to how a chapter is written (issue 24.4): the same game written in another style
has the same figures, computed both ways here (never pasted).

* Three Card Poker dealt one card at a time to each player and then the dealer, three times round, or three
  at once, in one block per dealing method chosen by an option
  (tests/fixtures/chapters/three-card-poker-dealt-singly.yaml, NOT official text), against
  tests/fixtures/chapters/three-card-poker.yaml.
* Let It Ride with a Three Card Bonus side wager on the player's own three cards, offered or not
  (tests/fixtures/chapters/let-it-ride-three-card-bonus.yaml, NOT official text), against
  tests/fixtures/chapters/let-it-ride.yaml: the main game keeps its figure; the side wager's figure equals a
  count of the 22,100 three-card hands written here."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from compiler.analysis.report import analyze
from compiler.pipeline import load_game

ROOT = Path(__file__).resolve().parents[2]
CH = ROOT / "tests/fixtures/chapters"


def _figures(path, options=None):
    mod, comp = load_game(path)
    rep = analyze(mod.GAME, comp.chapter, dict(options or {}))
    return rep, _figures_of(rep)


def _figures_of(rep):
    return {(f.stakes, f.policy.text): (f.expected_return, f.per_total_wagered, f.hit_frequency, f.outcomes)
            for f in rep.figures}


@pytest.fixture(scope="module")
def tcp():
    return _figures(CH / "three-card-poker.yaml")[1]


@pytest.fixture(scope="module")
def lir(lir_report):  # the report of let-it-ride.yaml (analysis_fixtures.py: once per process)
    return _figures_of(lir_report)


@pytest.mark.parametrize("method", ["one_at_a_time", "three_at_once"])
def test_three_card_poker_dealt_singly_or_at_once_has_the_same_figures(tcp, method):
    rep, figs = _figures(CH / "three-card-poker-dealt-singly.yaml", {"dealing_method": method})
    assert not rep.not_computed
    assert figs == tcp
    assert ((("ante", "play"), "optimal strategy") in figs) and (((("pair_plus",), "Payout")) in figs)


def _three_card_bonus() -> Fraction:
    """Expected return of the Three Card Bonus (40/30/6/3/1 on a pair or better) by counting 3-card hands."""
    pays = {"straight_flush": 40, "trips": 30, "straight": 6, "flush": 3, "pair": 1}
    count: Counter = Counter()
    for hand in combinations(range(52), 3):
        ranks = sorted((c // 4 for c in hand), reverse=True)
        flush = len({c % 4 for c in hand}) == 1
        straight = len(set(ranks)) == 3 and (ranks[0] - ranks[2] == 2 or ranks == [12, 1, 0])
        kinds = max(Counter(ranks).values())
        cat = ("straight_flush" if straight and flush else "trips" if kinds == 3 else "straight" if straight else
               "flush" if flush else "pair" if kinds == 2 else "lose")
        count[cat] += 1
    total = sum(count.values())
    assert total == 22100
    return sum((Fraction(n * (pays[c] + 1), total) for c, n in count.items() if c != "lose"), Fraction(0)) - 1


@pytest.mark.parametrize("offered", [False, True])
def test_let_it_ride_with_a_three_card_bonus_keeps_its_main_figure(lir, offered):
    rep, figs = _figures(CH / "let-it-ride-three-card-bonus.yaml", {"three_card_bonus": offered})
    assert not rep.not_computed
    main = {k: v for k, v in figs.items() if k[0] != ("three_card_bonus",)}
    assert main == lir
    tcb = [v for k, v in figs.items() if k[0] == ("three_card_bonus",)]
    if offered:
        (f,) = tcb
        assert f[0] == _three_card_bonus()
    else:
        assert tcb == []
