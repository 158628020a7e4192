"""The figure `rulespec analyze` gives the Blackjack test chapter (tests/fixtures/chapters/blackjack.yaml,
NOT official text), checked by an independent route.

No exact method models the chapter (a decision inside a loop per player, the dealer drawing until 17): the
contract's seeded simulation plays it, each decision taking its first choice. That policy is "never insure,
never split, always stand on the first two cards" (the choices are ordered no_insurance, insure; keep, split;
stand, hit), and the Double Down is never made (an offer is declined by the fixed policy). It is not basic strategy, and the figure
says so in its policy; its status is simulated (a mean with its standard error), never exact.

Independent route: the same policy computed exactly on an infinite deck (every card 1/13, tens 4/13) with
fractions here: the player's two cards against the dealer's draw to 17 (standing on soft 17), the dealer's
blackjack found by the peek, a blackjack paid 3 to 2. Six decks move it by card removal only (a few tenths of
a point at most for a policy that never draws), so the simulation must agree within 4 standard errors plus
half a point.

Published figure for these rules under basic strategy, for the record (not what the tool computes): 6 decks,
dealer stands on soft 17, 3 to 2, double on any two cards, double after split, one card to split aces, no
surrender: house edge about 0.42%, from the additive rule-effect table of "The Color of Blackjack"
(http://www.thecolorofblackjack.com/solution_one.html: baseline single deck -0.02%, six decks -0.53%,
double after split +0.13%). The simulated policy is not basic strategy (no method here plays an optimal or
declared strategy table), so the tool does not give that figure; this test claims no such agreement.
"""
from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
BLACKJACK = ROOT / "tests" / "fixtures" / "chapters" / "blackjack.yaml"
P = {**{v: Fraction(1, 13) for v in range(1, 10)}, 10: Fraction(4, 13)}


def _total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard + 10 <= 21 else hard


@lru_cache(None)
def _dealer(hard: int, ace: bool, h17: bool) -> tuple:
    t = _total(hard, ace)
    if t > 21:
        return ((22, Fraction(1)),)
    if t > 17 or (t == 17 and not (h17 and ace and hard + 10 <= 21)):
        return ((t, Fraction(1)),)
    out: dict[int, Fraction] = {}
    for c, p in P.items():
        for k, q in _dealer(hard + c, ace or c == 1, h17):
            out[k] = out.get(k, Fraction(0)) + p * q
    return tuple(out.items())


def always_stand_infinite_deck(h17: bool = False) -> Fraction:
    e = Fraction(0)
    for p1, a in P.items():
        for p2, b in P.items():
            natural, t = {p1, p2} == {1, 10}, _total(p1 + p2, 1 in (p1, p2))
            for u, c in P.items():
                for h, d in P.items():
                    w = a * b * c * d
                    if {u, h} == {1, 10}:  # the peek finds a blackjack: a push with one, else lost
                        e += w * (0 if natural else -1)
                    elif natural:
                        e += w * Fraction(3, 2)
                    else:
                        e += w * sum(q * (1 if dt == 22 or dt < t else -1 if dt > t else 0)
                                     for dt, q in _dealer(u + h, 1 in (u, h), h17))
    return e


def test_the_independent_route_itself():
    e = always_stand_infinite_deck()
    assert -0.161 < float(e) < -0.160  # -16.04% per unit
    assert always_stand_infinite_deck(True) > e  # hitting soft 17 helps a player who never draws: more dealer busts


def test_analyze_gives_a_simulated_figure_that_agrees_with_the_independent_route():
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["analyze", str(BLACKJACK), "--rounds", "8000", "--seed", "3", "--budget", "5000",
                   "--format", "json"])
    assert rc == 0, err.getvalue()
    rep = json.loads(out.getvalue())
    (fig,) = [f for f in rep["figures"] if f["wager"] == "initial"]
    assert fig["status"] != "exact" and "simulation: 8,000 rounds" in fig["method"]
    assert fig["policy"].startswith("always no_insurance") and "stand (hit_or_stand" in fig["policy"]
    assert "keep (split_pairs" in fig["policy"]
    mean, se = float(fig["expected_return"]["decimal"]), float(fig["expected_return"]["standard_error"])
    assert 0.005 < se < 0.015
    assert abs(mean - float(always_stand_infinite_deck())) < 4 * se + 0.005
    # the wagers never made under that policy get no figure, named, rather than a wrong one
    assert {n["wager"] for n in rep["not_computed"]} == {"double", "insurance"}


def test_the_draw_walk_stops_at_the_budget_analyze_is_given_and_says_how_to_go_further():
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["analyze", str(BLACKJACK), "--rounds", "200", "--budget", "10", "--format", "json"])
    assert rc == 0, err.getvalue()
    rep = json.loads(out.getvalue())
    (fig,) = [f for f in rep["figures"] if f["wager"] == "initial"]
    assert fig["status"] != "exact"
    text = json.dumps(rep)
    assert "more than 10 positions" in text and "--budget N" in text and "--exhaustive" in text


def test_the_command_line_leaves_the_walk_limits_of_its_caller_as_they_were():
    """`rulespec` run in a process that goes on (tests, `rulespec serve`) gives the draw walk the command line's
    budget and cores only while the command runs: a library call after it keeps the library's budget."""
    from compiler.values import walk_limits

    before = (walk_limits.budget.get(), walk_limits.jobs.get(), walk_limits.progress.get())
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["validate", str(BLACKJACK)]) == 0
        main(["analyze", str(BLACKJACK), "--rounds", "50", "--budget", "7", "--format", "json"])
    assert (walk_limits.budget.get(), walk_limits.jobs.get(), walk_limits.progress.get()) == before
    assert walk_limits.budget.get() == walk_limits.BUDGET
