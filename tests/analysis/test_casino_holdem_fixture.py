"""The Casino Hold'em test fixture (tests/fixtures/chapters/casino-holdem.yaml, NOT official text): community
cards and a dealer hand judged with them. The compiled module settles hand-picked deals as the game's
published rules say; the analysis gives its main wagers no figure, with the reason (cards dealt after the
decision are outside the dealer-hand route; docs/analysis.md says why exact counting and simulation to the
precision target are out of reach here)."""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from compiler.analysis.deal_common import _RiggedShoe
from compiler.analysis.report import analyze
from compiler.pipeline import load_game
from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import FixedStrategy, Table

ROOT = Path(__file__).resolve().parents[2]
CH = ROOT / "tests/fixtures/chapters/casino-holdem.yaml"


@pytest.fixture(scope="module")
def game():
    mod, comp = load_game(CH)
    return mod.GAME, comp


def _settle(game, cards: str, choice: str = "call") -> dict:
    # deal order: the player's 2, the flop's 3, (decision), turn and river, the dealer's 2
    t = Table(game, {}, seed=0, shoe=_RiggedShoe(parse_cards(cards.split())))
    res = t.play_round({1: {"ante": Decimal(1)}}, FixedStrategy([choice]), new_dealer=False)
    return {r.wager: (r.outcome, int(r.net)) for r in res.results}


@pytest.mark.parametrize("cards, expected", [
    # dealer king-high: does not qualify; the Ante paid by the paytable (a pair: 1 to 1), the Call returned
    ("AS AH  KD 7C 3S  9H 2D  5C 6D", {"ante": ("win", 1), "call": ("push", 0)}),
    # dealer's pair of 3s is below a pair of 4s: does not qualify
    ("AS AH  KD 7C 8S  9H 2D  3C 3D", {"ante": ("win", 1), "call": ("push", 0)}),
    # dealer's pair of 4s qualifies and loses to aces: Ante 1 to 1, Call of 2 paid 1 to 1
    ("AS AH  KD 7C 3S  9H 2D  4C 4D", {"ante": ("win", 1), "call": ("win", 2)}),
    # the player's flush (three suited cards on the flop): the Ante paid 2 to 1
    ("AS 5S  KS 7S 3S  9H 2D  4C 4D", {"ante": ("win", 2), "call": ("win", 2)}),
    # a qualifying dealer's better hand: both lost
    ("2S 5H  KD 7C 3S  9H 2D  KC KH", {"ante": ("lose", -1), "call": ("lose", -2)}),
])
def test_904_6_dealer_qualifies_with_a_pair_of_4s_on_seven_cards(game, cards, expected):
    assert _settle(game[0], cards) == expected


def test_904_6_main_wagers_are_not_computed_with_the_reason(game):
    g, comp = game
    rep = analyze(g, comp.chapter, {}, simulate_refused=False)  # the exact routes' answer (then simulated)
    refused = {n.wager: n.reason for n in rep.not_computed}
    assert set(refused) == {"ante", "call"} and not rep.figures
    assert all("deals cards after a decision" in r for r in refused.values())
