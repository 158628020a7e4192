"""A dealer qualifier written as a named hand defined by its lowest qualifying cards (`min_hand`),
exercised on the Caribbean Stud Poker test fixture (tests/fixtures/chapters/caribbean-stud.yaml, NOT
official text): the compiled module settles hand-picked deals as the game's published rules say, a
malformed `min_hand` is a validate error, and the dealer-hand route of the analysis reads the qualifier
as a condition on the dealer's hand alone."""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from compiler.analysis.deal_common import _RiggedShoe
from compiler.pipeline import load_game
from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import FixedStrategy, Table
from compiler.runtime.rankings import Ranking

ROOT = Path(__file__).resolve().parents[2]
CSP = ROOT / "tests/fixtures/chapters/caribbean-stud.yaml"


@pytest.fixture(scope="module")
def game():
    mod, comp = load_game(CSP)
    return mod.GAME, comp


def _settle(game, player: str, dealer: str, choice: str = "call") -> dict:
    t = Table(game, {}, seed=0, shoe=_RiggedShoe(parse_cards((player + " " + dealer).split())))
    res = t.play_round({1: {"ante": Decimal(1)}}, FixedStrategy([choice]), new_dealer=False)
    return {r.wager: (r.outcome, r.net) for r in res.results}


@pytest.mark.parametrize("player, dealer, expected", [
    # dealer queen-high: does not qualify; the Ante is paid even money, the Call returned
    ("AS AH KD 7C 3S", "2C 5D 9H JD QS", {"ante": ("win", 1), "call": ("push", 0)}),
    # dealer A-Q-J: below ace-king, does not qualify
    ("AS AH KD 7C 3S", "AD QC JH 3D 2H", {"ante": ("win", 1), "call": ("push", 0)}),
    # dealer A-K-4-3-2, the lowest qualifying hand; a pair of aces beats it: Call of 2 paid 1 to 1
    ("AS AH KD 7C 3S", "AD KC 4H 3D 2H", {"ante": ("win", 1), "call": ("win", 2)}),
    # a qualifying dealer beats the player: both lost
    ("2S 3H 5D 7C 9S", "AD KC 4H 3D 2H", {"ante": ("lose", -1), "call": ("lose", -2)}),
    # the player's two pair beats the dealer's pair: the Call paid 2 to 1
    ("KS KH 5D 5C 9S", "AD AC QH 7D 3H", {"ante": ("win", 1), "call": ("win", 4)}),
])
def test_903_6_dealer_qualifies_with_ace_king_or_better(game, player, dealer, expected):
    got = _settle(game[0], player, dealer)
    assert {w: (o, int(n)) for w, (o, n) in got.items()} == expected


def test_903_6_b_fold_forfeits_the_ante(game):
    assert {w: (o, int(n)) for w, (o, n) in _settle(game[0], "2S 3H 5D 7C 9S", "AD KC 4H 3D 2H", "fold").items()} \
        == {"ante": ("lose", -1)}


def test_min_hand_is_the_lowest_hand_that_qualifies():
    r = Ranking.from_spec({"cite": "§ 1", "kind": "poker", "cards": 5, "order": list("AKQJT98765432"),
                           "ace_low_straight": True,
                           "categories": [{"id": "pair", "name": "Pair", "pattern": {"groups": [2]}},
                                          {"id": "high_card", "name": "High card", "pattern": {}}],
                           "hands": {"ak": {"name": "AK", "min_hand": ["AS", "KH", "4D", "3C", "2S"]}}}, "r")
    assert r.matches_hand(parse_cards("AC KD 4S 3H 2D".split()), "ak")
    assert r.matches_hand(parse_cards("2C 2D 4S 3H 5C".split()), "ak")  # any pair beats ace-king
    assert not r.matches_hand(parse_cards("AC QD JS 9H 7D".split()), "ak")


def test_a_malformed_min_hand_is_a_validate_error(tmp_path):
    text = CSP.read_text(encoding="utf-8").replace("min_hand: [AS, KH, 4D, 3C, 2S]", "min_hand: [AS, KH, Queen]")
    p = tmp_path / "x.yaml"
    p.write_text(text, encoding="utf-8")
    from compiler.pipeline import compile_spec

    errors = compile_spec(p).errors
    assert errors and any("min_hand" in d.message and "5 cards" in d.message for d in errors)


def test_903_6_the_dealer_hand_route_reads_what_the_player_sees_and_how_hands_are_compared(game):
    """The dealer-hand route (the figure itself: tests/analysis/test_dealer_hand.py) reads from the steps that the
    player decides seeing five cards and the dealer's one face-up card, and that the hands are compared in one
    ranking; the qualifier is a dealer-side condition."""
    from compiler.analysis.dealer import dealer_plan
    from compiler.analysis.card_routes import _active_steps

    g, comp = game
    dp = dealer_plan(g, _active_steps(g, comp.chapter, Table(g, {}, seed=0)))
    assert (dp.n_cards, dp.m_cards, dp.visible, dp.compare) == (5, 5, 1, "five_card")
    assert len(dp.dealer_atoms) == 4  # is_hand(..., ace_king_or_better) in each of the four settle rules
