"""`validate` tells cards from hand values: a function reading cards given a hand value (``is_hand(R, best(R,
player.hand), H)``), one reading a hand value given cards (``at_least(R, player.hand, pair)``), or a comparison of
a hand value with cards, is a positioned error. Before, each validated and the round stopped with a Python
traceback at the settle step (found writing the Four Card Poker test chapter).

Each broken spec is the Four Card Poker test chapter (tests/fixtures/chapters/four-card-poker.yaml, NOT official
text) with one edit; the expected line and column are found by searching the edited text."""
from __future__ import annotations

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


def test_a_hand_value_where_cards_are_read_is_refused_at_the_argument():
    text = _edit('"has(aces_up) and is_hand(four_card, player.hand, pair_of_aces_or_better)"',
                 '"has(aces_up) and is_hand(four_card, best(four_card, player.hand), pair_of_aces_or_better)"')
    line, col = _at(text, "best(four_card, player.hand), pair_of_aces")
    assert _errors(text) == [
        f"b.yaml:{line}:{col}: error: is_hand() reads cards as its argument 2 (e.g. player.hand or player.hand + "
        "community); 'best(four_card, player.hand)' is a hand value [at /procedure/4/rules/0/when]"]


def test_cards_where_a_hand_value_is_read_are_refused_at_the_argument():
    text = _edit("at_least(four_card, best(four_card, player.hand), three_of_a_kind)",
                 "at_least(four_card, player.hand, three_of_a_kind)")
    line, col = _at(text, "player.hand, three_of_a_kind")
    assert _errors(text) == [
        f"b.yaml:{line}:{col}: error: at_least() reads a hand value as its argument 2, as hand(R, cards) or "
        "best(R, cards) gives it; 'player.hand' is cards [at /procedure/4/rules/2/when]"]


def test_a_hand_value_compared_with_cards_is_refused():
    text = _edit("has(play) and best(four_card, player.hand) < best(four_card, dealer.cards)",
                 "has(play) and best(four_card, player.hand) < dealer.cards")
    line, col = _at(text, "best(four_card, player.hand) < dealer.cards")
    assert _errors(text) == [
        f"b.yaml:{line}:{col}: error: '<' compares a hand value with cards: compare hand values, e.g. "
        "best(R, player.hand) > best(R, dealer.cards) [at /procedure/4/rules/4/when]"]


def test_cards_joined_with_plus_and_card_of_a_zone_are_cards():
    # community cards joined to the player's, and one card of a zone, are read as cards: no error
    text = _edit('"has(aces_up) and is_hand(four_card, player.hand, pair_of_aces_or_better)"',
                 '"has(aces_up) and is_hand(four_card, dealer.up + card(player.hand, 1) + player.hand, '
                 'pair_of_aces_or_better)"')
    assert not [e for e in _errors(text) if "reads cards" in e or "compares" in e]
