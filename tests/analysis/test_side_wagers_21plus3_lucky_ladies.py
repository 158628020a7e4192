"""The Blackjack with 21+3 and Lucky Ladies test chapter (tests/fixtures/chapters/blackjack-21plus3-lucky-ladies.yaml,
NOT official text): two optional wagers made before the deal and settled on the first cards, before the player
decides, valued alone by the draw walk (draw_report.side_figure), each equal as a fraction to an independent count
written here; the round's play of the Blackjack Wager equal to the independent calculator
(tests/analysis/blackjack_reference.py) with this chapter's rules.

The chapter reads the suits (a flush, a suited 20, a queen of hearts) and the ranks (a straight) of the cards:
the walk tells cards apart by what the rules it walks read (draw_model.card_classes); the round without the side
wagers reads points only (the same 10 classes as a blackjack chapter). Its dealer's cards are in one zone (the up
card read as card(dealer.hand, 1)): the face-down second card is not read by that (draw_steps._reads_pending).

Published (Wizard of Odds), six decks: 21+3 "Version 3" (suited trips 100, straight flush 35, three of a kind 33,
straight 10, flush 5) by its counts of 3-card hands out of C(312, 3) = 5,013,320
(https://www.jndiario.com/games/blackjack/side-bets/21plus3/ , a copy of the Wizard of Odds' page): house edge
4.1427%; Lucky Ladies pay table A by its permutations (https://wizardofodds.com/games/blackjack/side-bets/lucky-ladies ,
24.71% with a 1000 to 1 queen of hearts pair beside a dealer's blackjack, which this chapter does not pay).
"""
from __future__ import annotations

import itertools
import sys
from fractions import Fraction
from functools import lru_cache
from math import comb
from pathlib import Path

import pytest

from compiler.analysis import draw_report
from compiler.analysis.draw_report import analyze_draw, side_figure
from compiler.pipeline import load_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blackjack_reference import Blackjack, hand_total  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "tests" / "fixtures" / "chapters" / "blackjack-21plus3-lucky-ladies.yaml"
RANKS = "23456789TJQKA"  # rank r of a card id r * 4 + suit
QUEEN = RANKS.index("Q")
HEARTS = 1  # the suit of the card ids (rank * 4 + suit): checked by test_966_the_card_ids


@lru_cache(maxsize=None)
def _game():
    mod, compiled = load_game(CHAPTER)
    return mod.GAME, compiled.chapter


def _value(r: int) -> int:
    return 1 if RANKS[r] == "A" else min(10, r + 2)


# -- independent counts: every card type (rank, suit) with `per` copies ---------------------------------------
def _three_card(ranks, suits) -> str:
    """The 21+3 hand of three cards (ranks 0..12 as RANKS, an ace high or low)."""
    flush = len(set(suits)) == 1
    trips = len(set(ranks)) == 1
    vals = sorted(set(ranks))
    straight = len(vals) == 3 and (vals[2] - vals[0] == 2 or vals == [0, 1, 12])
    if trips:
        return "suited_trips" if flush else "trips"
    if straight:
        return "straight_flush" if flush else "straight"
    return "flush" if flush else "nothing"


PAYS_21_3 = {"suited_trips": 100, "straight_flush": 35, "trips": 33, "straight": 10, "flush": 5, "nothing": -1}


def twenty_one_three_by_counting(per: dict[int, int]) -> Fraction:
    """The expected net of 21+3: the player's two cards and the up card are any 3 cards of the shoe
    (exchangeability), counted as multisets of card types, each with the ways of choosing its copies."""
    types = [(r, s) for r in range(13) for s in range(4) if per.get(r, 0) > 0]
    copies = {r: per[r] // 4 for r in per}
    total = sum(4 * c for c in copies.values())
    acc = 0
    for combo in itertools.combinations_with_replacement(types, 3):
        ways = 1
        for t in set(combo):
            ways *= comb(copies[t[0]], combo.count(t))
        if ways:
            acc += ways * PAYS_21_3[_three_card([t[0] for t in combo], [t[1] for t in combo])]
    return Fraction(acc, comb(total, 3))


def lucky_ladies_by_counting(per: dict[int, int]) -> Fraction:
    """The expected net of Lucky Ladies (125, 19, 9, 4 to 1): the player's first two cards are an ordered pair of
    distinct cards of the shoe (the up card dealt between them is any card)."""
    copies = {r: per[r] // 4 for r in per if per[r] > 0}
    total = sum(4 * c for c in copies.values())
    acc = 0
    types = [(r, s) for r in copies for s in range(4)]
    for a in types:
        for b in types:
            n = copies[a[0]] * (copies[b[0]] - (a == b))
            if n <= 0:
                continue
            twenty = hand_total((_value(a[0]), _value(b[0])))[0] == 20
            if twenty and a == b == (QUEEN, HEARTS):
                acc += n * 125
            elif twenty and a == b:
                acc += n * 19
            elif twenty and a[1] == b[1]:
                acc += n * 9
            elif twenty:
                acc += n * 4
            else:
                acc -= n
    return Fraction(acc, total * (total - 1))


def test_966_the_card_ids():
    from compiler.runtime.cards import parse_card
    assert parse_card("QH") == QUEEN * 4 + HEARTS and parse_card("2C") // 4 == 0


SHOES = [{r: 4 for r in (0, 8, 10, 12)},               # 2, T, Q, A: 20s, a queen of hearts pair impossible (1 deck)
         {r: 8 for r in (4, 5, 6, 10, 11, 12)}]        # 6 7 8 Q K A, two decks: straights, trips, QH pairs
# (one deck, 52 classes, is equal too: 45 s, run by hand; six decks: the report of the branch)


@pytest.mark.parametrize("per", SHOES, ids=["2TQA", "678QKA-x2"])
def test_966_each_side_wager_by_the_walk_equals_counting(per):
    game, chapter = _game()
    lady = side_figure(game, chapter, {}, "lucky_ladies", None, per)
    three = side_figure(game, chapter, {}, "twenty_one_three", None, per)
    assert lady.status == three.status == "exact"
    assert lady.expected_return == lucky_ladies_by_counting(per)
    assert three.expected_return == twenty_one_three_by_counting(per)


def test_966_six_decks_counting_equals_the_published_counts():
    """The counts written above, for six decks, against the Wizard of Odds' tables (their combinations and
    permutations, not their rounded percentages)."""
    six = {r: 24 for r in range(13)}
    wiz_21_3 = Fraction(1040 * 100 + 25272 * 33 + 10368 * 35 + 155520 * 10 + 292896 * 5 - 4528224, 5013320)
    assert twenty_one_three_by_counting(six) == wiz_21_3
    assert round(float(-wiz_21_3) * 100, 4) == 4.1427
    # Lucky Ladies pay table A's permutations (p1, p2, up, hole), the 1000 to 1 row paid 125 to 1 here
    wiz_ll = Fraction((135360 + 2738340) * 125 + 43105500 * 19 + 193112640 * 9 + 744863040 * 4 - 8310740400,
                      9294695280)
    assert lucky_ladies_by_counting(six) == wiz_ll
    # the draw walk's side figures for the chapter's six decks, run once by hand (draw_report.side_figure, 2,757
    # positions, 52 card classes, 20 s each on the loaded 2-core machine): -2101/8086 (Lucky Ladies, house edge
    # 25.98%) and -1997/48205 (21+3, 4.1427%), equal to these counts
    assert (lucky_ladies_by_counting(six), twenty_one_three_by_counting(six)) == (Fraction(-2101, 8086),
                                                                                  Fraction(-1997, 48205))


class NineToEleven(Blackjack):
    """The reference with this chapter's double down: first two cards totalling 9, 10 or 11 only."""

    def _play(self, cards, removed, dealer_key, can_double, can_hit):
        return super()._play(cards, removed, dealer_key, can_double and hand_total(cards)[0] in (9, 10, 11), can_hit)


@pytest.mark.parametrize("cards", ["A2468 9TTT", "AA566TTJ7"])
def test_966_the_round_without_the_side_wagers_equals_the_calculator(cards):
    """The Blackjack Wager's play on reduced shoes (the side wagers withheld: the walk reads points only), with
    the dealer's two cards in one zone: insurance and the peek read card(dealer.hand, 1) without dealing the
    face-down card."""
    game, chapter = _game()
    per: dict[int, int] = {}
    for ch in cards.replace(" ", ""):
        per[RANKS.index(ch)] = per.get(RANKS.index(ch), 0) + 1
    fig, walk, _ = analyze_draw(game, chapter, {}, 1, per)
    assert len(walk.classes) == len({_value(r) for r in per})  # by points only
    points: dict[int, int] = {}
    for r, n in per.items():
        points[_value(r)] = points.get(_value(r), 0) + n
    assert fig.expected_return == NineToEleven(points, hit_soft_17=False, hands=3, resplit_aces=False).expected()
    assert fig.status == "exact"


def test_966_the_side_wagers_are_settled_before_the_player_decides():
    game, chapter = _game()
    assert draw_report.refusal(game, chapter, {}) is None
