"""Rankings valued by points (``kind: points``, compiler/values/points.py): baccarat totals (modulo 10, tens
and faces 0, an 8 or 9 on two cards a natural) and blackjack totals (an ace 1 or 11, soft and hard totals,
bust above 21, a two-card 21 that beats any other 21), read from the data alone."""
from __future__ import annotations

import pytest

from compiler.runtime.cards import parse_cards
from compiler.values.rankings import Ranking, RankingError

BACCARAT = {"cite": "§ 906.4", "kind": "points", "modulo": 10,
            "points": {**{str(n): n for n in range(2, 10)}, "A": 1, "T": 0, "J": 0, "Q": 0, "K": 0},
            "natural": {"cards": 2, "totals": [8, 9], "name": "Natural", "beats": False}}
BLACKJACK = {"cite": "§ 960.4", "kind": "points", "bust": 21, "soft": {"rank": "A", "plus": 10},
             "points": {**{str(n): n for n in range(2, 10)}, "A": 1, "T": 10, "J": 10, "Q": 10, "K": 10},
             "natural": {"cards": 2, "totals": [21], "name": "Blackjack", "beats": True}}


def c(text):
    return parse_cards(text.split())


@pytest.fixture(scope="module")
def bac():
    return Ranking.from_spec(BACCARAT, "baccarat")


@pytest.fixture(scope="module")
def bj():
    return Ranking.from_spec(BLACKJACK, "blackjack")


@pytest.mark.parametrize("cards, total, natural", [
    ("KH QD", 0, False), ("9S KD", 9, True), ("5C 3D", 8, True), ("7H 8C", 5, False),
    ("AS AD", 2, False), ("9C 9S", 8, True), ("4H 4D KC", 8, False), ("9H 9D 9C", 7, False),
])
def test_baccarat_total_is_the_sum_modulo_10_and_a_natural_is_8_or_9_on_two_cards(bac, cards, total, natural):
    assert bac.total(c(cards)) == total
    assert bac.natural(c(cards)) is natural
    assert bac.points(c(cards)) == sum({"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0}.get(x[0], None)
                                       if not x[0].isdigit() else int(x[0]) for x in cards.split())
    assert not bac.is_bust(c(cards)) and not bac.soft(c(cards))


def test_baccarat_hands_compare_by_total_and_a_natural_beats_nothing_of_its_total(bac):
    assert bac.evaluate(c("9S KD")) > bac.evaluate(c("4H 4D"))
    assert bac.evaluate(c("4H 4D")) == bac.evaluate(c("4C 2D 2H"))   # natural 8 ties a three-card 8 (beats: false)
    assert bac.compare(c("KH QD"), c("AS")) == -1
    assert bac.evaluate(c("5C 3D")).name == "Natural 8"


@pytest.mark.parametrize("cards, total, soft, bust, natural", [
    ("AS 6D", 17, True, False, False), ("AS 6D TC", 17, False, False, False), ("AS AD", 12, True, False, False),
    ("AS KD", 21, True, False, True), ("7S 7D 7C", 21, False, False, False), ("KS QD 2C", 22, False, True, False),
    ("AS AD AC AH 7S", 21, True, False, False), ("AS 5D AC", 17, True, False, False), ("9S 9D", 18, False, False, False),
])
def test_blackjack_an_ace_counts_11_when_that_does_not_bust_the_hand(bj, cards, total, soft, bust, natural):
    assert (bj.total(c(cards)), bj.soft(c(cards)), bj.is_bust(c(cards)), bj.natural(c(cards))) == \
        (total, soft, bust, natural)


def test_blackjack_a_two_card_21_beats_any_other_21_and_a_bust_loses_to_everything(bj):
    assert bj.evaluate(c("AS KD")) > bj.evaluate(c("7S 7D 7C"))
    assert bj.evaluate(c("KS QD 2C")) < bj.evaluate(c("2S 3D"))
    assert bj.evaluate(c("KS QD 2C")) == bj.evaluate(c("9S 9D 9C"))   # two busts are equal; the rules decide
    assert bj.evaluate(c("TS 7D")) == bj.evaluate(c("AS 6D TC"))        # hard 17 == hard 17
    assert bj.evaluate(c("AS KD")).name == "Blackjack 21" and bj.evaluate(c("AS 6D")).name == "soft 17"


@pytest.mark.parametrize("change, message", [
    (lambda d: d["points"].pop("K"), "gives no value to the rank K"),
    (lambda d: d.pop("bust"), "declare bust"),
    (lambda d: d.update(order=["A", "K"]), "does not take order"),
    (lambda d: d.update(modulo=1), "modulo must be a whole number from 2"),
    (lambda d: d.update(natural={"cards": 2}), "natural is {cards: 2, totals"),
    (lambda d: d["points"].update(Z=3), "unknown rank 'Z'"),
])
def test_a_points_ranking_the_runtime_cannot_use_is_refused_naming_what(change, message):
    import copy
    spec = copy.deepcopy(BLACKJACK)
    change(spec)
    with pytest.raises(RankingError, match=message.replace("{", r"\{").replace("(", r"\(")):
        Ranking.from_spec(spec, "blackjack")


def test_jokers_have_no_point_value(bj):
    with pytest.raises(RankingError, match="no point value"):
        bj.total([52])
