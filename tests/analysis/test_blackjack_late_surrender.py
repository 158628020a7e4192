"""The Blackjack with Late Surrender test chapter (tests/fixtures/chapters/blackjack-late-surrender.yaml, NOT
official text: six decks, the dealer hits a soft 17, late surrender, aces split once) by the draw walk, held
to the independent calculator (tests/analysis/blackjack_reference.py) with late surrender added here: after
the dealer's check for a blackjack and before any other decision a hand may give up half the wager, so the
value of a two-card hand that is not a blackjack is the larger of its play and -1/2.

Equal as fractions on reduced shoes (pairs of aces, sixes and tens: split aces once, resplit the others;
surrender against a strong up card). The 6-deck figure is run once, not here (minutes): see the report of the
branch; the published effect of late surrender on a 6-deck game is +0.08 points
(https://www.blackjackreview.com/wp/blackjack-rule-variations/ ).
"""
from __future__ import annotations

import sys
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest

from compiler.analysis.draw_report import analyze_draw, refusal
from compiler.pipeline import load_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blackjack_reference import Blackjack  # noqa: E402
from test_draw_walk import _points, _shoe  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "tests" / "fixtures" / "chapters" / "blackjack-late-surrender.yaml"


class LateSurrender(Blackjack):
    """The reference with late surrender: -1/2 for a hand that is not a blackjack, once the dealer has none."""

    def two_cards(self, p1: int, p2: int, base, key) -> Fraction:
        return max(super().two_cards(p1, p2, base, key), self.ratio(-1, 2))  # late surrender


@lru_cache(maxsize=None)
def _game():
    mod, compiled = load_game(CHAPTER)
    return mod.GAME, compiled.chapter


def test_965_the_walk_is_the_method_analyze_tries():
    assert refusal(*_game()) is None


@pytest.mark.parametrize("cards, surrender_gains", [
    ("A2468 9TTT", True),    # a pair of tens to split; surrender of a stiff against a ten
    ("AA566TTJ7", False),    # aces split once (one card each), sixes and tens resplit, doubles after a split
])
def test_965_the_walk_equals_the_calculator_with_late_surrender_as_fractions(cards, surrender_gains):
    game, chapter = _game()
    comp = _shoe(cards.replace(" ", ""))
    fig, _, _ = analyze_draw(game, chapter, {}, 1, comp)
    ref = LateSurrender(_points(comp), hit_soft_17=True, hands=4, resplit_aces=False)
    assert fig.expected_return == ref.expected()
    # where surrender is worth something the calculator without it gives less (so the walk modelled it)
    plain = Blackjack(_points(comp), hit_soft_17=True, hands=4, resplit_aces=False).expected()
    assert (ref.expected() > plain) is surrender_gains and ref.expected() >= plain
    assert fig.status == "exact" and fig.policy.kind == "optimal"
    assert set(fig.includes) == {"double_down", "insurance"}


def test_965_six_decks_the_surrender_is_worth_the_published_rule_effect():
    """The calculator, in floats (the walk equals it as fractions above), for the chapter's six decks: late
    surrender adds 0.087 points to the game without it, against the published +0.08%
    (https://www.blackjackreview.com/wp/blackjack-rule-variations/ : 'LS Late surrender +0.08%'). The draw walk's
    own 6-deck figure, run once (`rulespec analyze tests/fixtures/chapters/blackjack-late-surrender.yaml`, 799,476
    positions, 554 s on the loaded 2-core machine), is -0.0053263763, the calculator's -0.005326376278560989."""
    six = {**{v: 24 for v in range(1, 10)}, 10: 96}
    with_ls = LateSurrender(six, hit_soft_17=True, hands=4, resplit_aces=False, exact=False).expected()
    without = Blackjack(six, hit_soft_17=True, hands=4, resplit_aces=False, exact=False).expected()
    assert abs((with_ls - without) - 0.0008) < 0.0002
    assert round(with_ls, 10) == -0.0053263763
