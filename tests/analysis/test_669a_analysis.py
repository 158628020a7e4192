"""669a: the figures `rulespec analyze` computes from the spec, against independent routes:
combinatorial counting for three-card hands, and seeded simulation of the compiled module
(playing the exact optimal strategy) within 4 standard errors."""
from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from compiler.analysis.card_routes import optimal_strategy
from compiler.analysis.report import analyze
from compiler.pipeline import load_game

SPEC = "rulespecs/669a-raise-it-up-stud-poker.yaml"
# the module's analysis (report), optimal strategy and seeded rounds computed on one pytest-xdist worker only
pytestmark = pytest.mark.xdist_group("669a_analysis")


@pytest.fixture(scope="module")
def game():
    return load_game(SPEC)


@pytest.fixture(scope="module")
def report(game):
    mod, comp = game
    return analyze(mod.GAME, comp.chapter, {})


def fig(report, wager, policy):
    out = [f for f in report.figures if f.wager == wager and f.policy.text == policy]
    assert len(out) == 1, [(f.wager, f.policy) for f in report.figures]
    return out[0]


# Three-card hands of one deck, counted by hand (A-2-3 is a straight: interpretation three-card-ace-low):
# straight flush 12*4; three of a kind 13*4; straight 12*(4**3-4); flush 4*C(13,3)-48;
# pair 13*C(4,2)*12*4; the rest lose.
COUNTS = {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 4 * math.comb(13, 3) - 48,
          "pair": 13 * 6 * 48}
TOTAL = math.comb(52, 3)
# § 669a.12(a), read from the Bulletin: Paytables A-D (to 1)
PAIR_PLUS = {"Paytable A": [40, 30, 6, 4, 1], "Paytable B": [40, 25, 6, 4, 1],
             "Paytable C": [40, 30, 5, 4, 1], "Paytable D": [40, 30, 6, 3, 1]}


@pytest.mark.parametrize("column", sorted(PAIR_PLUS))
def test_669a_12_a_pair_plus_return_equals_counting(report, column):
    pays = PAIR_PLUS[column]
    wins = sum(COUNTS[h] * p for h, p in zip(COUNTS, pays))
    losses = TOTAL - sum(COUNTS.values())
    want = F(wins - losses, TOTAL)
    f = fig(report, "pair_plus", column)
    assert f.expected_return == want
    assert f.hit_frequency == F(sum(COUNTS.values()), TOTAL)


def test_669a_12_e_progressive_return_is_affine_in_the_meter(report):
    # § 669a.12(e)(1): AKQ of spades 100% of meter; AKQ other suits 500 for 1; straight flush 70 for 1;
    # three of a kind 60 for 1; straight 6 for 1 (for 1: the payout includes the stake).
    n_akq_s, n_akq_o = 1, 3
    sf_other = COUNTS["straight_flush"] - 4
    ev_without_meter = F(n_akq_o * 499 + sf_other * 69 + COUNTS["three_of_a_kind"] * 59 + COUNTS["straight"] * 5
                         - (TOTAL - 4 - sf_other - COUNTS["three_of_a_kind"] - COUNTS["straight"]) - n_akq_s, TOTAL)
    f = [f for f in report.figures if f.wager == "progressive"][0]
    meter = 1000  # the default initial and reset amount of the spec (§ 669a.12(e)(3) minimum)
    # paid at the meter when the round begins plus the $1 wager's own share, at the least rate the Rules
    # Submission may select (14%, the constraint of the rulespec on rate_of_progression), added before the pay
    own = F(14, 100)
    assert f.policy.meter == meter + own
    assert f.expected_return == ev_without_meter + (meter + own) / TOTAL


def test_669a_12_e_5_envy_value_per_other_player(report):
    # an Envy Bonus Qualifying Hand is an A-K-Q straight flush: 1 of spades ($100 / $500), 3 others ($25 / $125)
    one = [f for f in report.figures if f.kind == "value" and "$1" in f.policy.text][0]
    five = [f for f in report.figures if f.kind == "value" and "$5" in f.policy.text][0]
    assert one.expected_return == F(100 + 3 * 25, TOTAL)
    assert five.expected_return == F(500 + 3 * 125, TOTAL)


ROUNDS = 4000  # six positions each: 24,000 results per seat-round


@pytest.fixture(scope="module")
def seeded_rounds(game):
    """The net of every position of ROUNDS seeded rounds of the compiled module, six positions playing the exact
    optimal strategy, and the table's ledger balance after them: played once for the two tests below (the
    mean return, and the win and fold frequencies, each within 4 standard errors of the exact figure)."""
    mod, comp = game
    strat, _ = optimal_strategy(mod.GAME, comp.chapter)
    table = mod.new_table({}, seed=20261129)
    nets = []
    for _ in range(ROUNDS):
        r = table.play_round({s: {"ante": 1, "blind": 1} for s in range(1, 7)}, strat)
        by = {}
        for x in r.results:
            by[x.seat] = by.get(x.seat, 0) + x.net
        nets.extend(by.values())
    return nets, table.ledger.balance()


def test_669a_optimal_strategy_return_matches_seeded_simulation(game, seeded_rounds):
    mod, comp = game
    strat, sol = optimal_strategy(mod.GAME, comp.chapter)
    nets = [float(x) for x in seeded_rounds[0]]
    n = len(nets)
    assert n == 6 * ROUNDS
    mean = sum(nets) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in nets) / (n - 1) / n)
    assert abs(mean - float(sol.ev_per_ante)) < 4 * se
    assert seeded_rounds[1] == 0


def test_669a_optimal_strategy_is_sensible(game):
    from compiler.runtime.cards import parse_cards

    mod, comp = game
    _, sol = optimal_strategy(mod.GAME, comp.chapter)
    assert sol.decision_of(parse_cards("AS AH AD")) == 3  # trips: raise the most
    assert sol.decision_of(parse_cards("2C 7D 9S")) == "check"
    assert sol.decision_of(parse_cards("2C 7D 9S 4H 3D")) == "fold"  # nothing made, little to draw to
    assert sol.decision_of(parse_cards("AS KS QS JS TS")) == 1
    assert sol.ev_per_ante < 0 < sol.expected_wager


def test_669a_ante_game_distribution_of_outcomes_is_exact_and_consistent(game):
    mod, comp = game
    strat, sol = optimal_strategy(mod.GAME, comp.chapter)
    assert sum(sol.outcomes.values()) == 1
    assert sum(net * p for net, p in sol.outcomes.items()) == sol.ev_per_ante  # the mean is the exact return
    # a fold loses Ante and Blind (-2): its probability is the fold frequency at the last decision
    assert sol.outcomes[F(-2)] == sol.option_frequencies[5]["fold"]
    # the largest win: a royal flush after raising 3x: Ante 1 + Play 3 x 100 + Blind 1,000 = 1,301
    assert max(sol.outcomes) == 1301
    assert sol.hit_frequency == sum(p for net, p in sol.outcomes.items() if net > 0)


def test_669a_ante_game_outcomes_match_seeded_simulation(game, seeded_rounds):
    mod, comp = game
    strat, sol = optimal_strategy(mod.GAME, comp.chapter)
    nets = seeded_rounds[0]
    n = len(nets)
    wins = sum(v > 0 for v in nets)
    folds = sum(v == -2 for v in nets)
    for observed, p in ((wins / n, float(sol.hit_frequency)), (folds / n, float(sol.outcomes[F(-2)]))):
        assert abs(observed - p) < 4 * math.sqrt(p * (1 - p) / n)