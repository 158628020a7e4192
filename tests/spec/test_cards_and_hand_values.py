"""`validate` tells cards from hand values: a function reading cards given a hand value (``is_hand(R, best(R,
player.hand), H)``), one reading a hand value given cards (``at_least(R, player.hand, pair)``), or a comparison of
a hand value with cards, is a positioned error. Before, each validated and the round stopped with a Python
traceback at the settle step (found writing the Four Card Poker test chapter).

Each broken spec is the Four Card Poker test chapter (tests/fixtures/chapters/four-card-poker.yaml, NOT official
text) with one edit; the expected line and column are found by searching the edited text."""
from __future__ import annotations

import pytest

from compiler.pipeline import ROOT, compile_spec

FCP = (ROOT / "tests/fixtures/chapters/four-card-poker.yaml").read_text(encoding="utf-8")


def _edit(old: str, new: str) -> str:
    assert FCP.count(old) == 1, old
    return FCP.replace(old, new)


def _at(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def _errors(text: str) -> list[str]:
    return [d.format() for d in compile_spec("b.yaml", text).diagnostics if d.is_error]


@pytest.mark.parametrize("old, new, at, message, pointer", [
    # a hand value where cards are read
    ('"has(aces_up) and is_hand(four_card, player.hand, pair_of_aces_or_better)"',
     '"has(aces_up) and is_hand(four_card, best(four_card, player.hand), pair_of_aces_or_better)"',
     "best(four_card, player.hand), pair_of_aces",
     "is_hand() reads cards as its argument 2 (e.g. player.hand or player.hand + community); "
     "'best(four_card, player.hand)' is a hand value", "/procedure/4/rules/0/when"),
    # cards where a hand value is read
    ("at_least(four_card, best(four_card, player.hand), three_of_a_kind)",
     "at_least(four_card, player.hand, three_of_a_kind)", "player.hand, three_of_a_kind",
     "at_least() reads a hand value as its argument 2, as hand(R, cards) or best(R, cards) gives it; "
     "'player.hand' is cards", "/procedure/4/rules/2/when"),
    # a hand value compared with cards
    ("has(play) and best(four_card, player.hand) < best(four_card, dealer.cards)",
     "has(play) and best(four_card, player.hand) < dealer.cards", "best(four_card, player.hand) < dealer.cards",
     "'<' compares a hand value with cards: compare hand values, e.g. best(R, player.hand) > best(R, dealer.cards)",
     "/procedure/4/rules/4/when"),
])
def test_cards_and_hand_values_mixed_up_are_refused_at_the_argument(old, new, at, message, pointer):
    text = _edit(old, new)
    line, col = _at(text, at)
    assert _errors(text) == [f"b.yaml:{line}:{col}: error: {message} [at {pointer}]"]


def test_cards_joined_with_plus_and_card_of_a_zone_are_cards():
    # community cards joined to the player's, and one card of a zone, are read as cards: no error
    text = _edit('"has(aces_up) and is_hand(four_card, player.hand, pair_of_aces_or_better)"',
                 '"has(aces_up) and is_hand(four_card, dealer.up + card(player.hand, 1) + player.hand, '
                 'pair_of_aces_or_better)"')
    assert not [e for e in _errors(text) if "reads cards" in e or "compares" in e]
