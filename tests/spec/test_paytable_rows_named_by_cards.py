"""`validate` refuses a paytable win paid on a hand value when the paytable has a row of a hand named by its cards
(`any_of: [[AS, KS], ...]`): a hand value never meets such a row, so the round paid the next row it met, silently.
Found writing the Texas Hold 'Em Bonus Poker test chapter (tests/fixtures/chapters/texas-holdem-bonus-poker.yaml,
NOT official text): an ace and jack of hearts, paid 20 to 1 by the Bonus paytable's row of a suited ace-jack,
settled 5 to 1 (the row of an ace-jack of any suits) with 'win bonus by bonus on hand(two_cards, player.hole)'."""
from __future__ import annotations

from compiler.pipeline import ROOT, compile_spec

THB = (ROOT / "tests/fixtures/chapters/texas-holdem-bonus-poker.yaml").read_text(encoding="utf-8")
PAID_ON_CARDS = '"win bonus by bonus on player.hole"'


def _errors(text: str) -> list[str]:
    return [d.format() for d in compile_spec("b.yaml", text).diagnostics if d.is_error]


def test_a_paytable_with_rows_named_by_cards_paid_on_a_hand_value_is_refused_at_the_rule():
    assert THB.count(PAID_ON_CARDS) == 2
    text = THB.replace(PAID_ON_CARDS, '"win bonus by bonus on hand(two_cards, player.hole)"', 1)
    i = text.index('"win bonus by bonus on hand(two_cards')
    line, col = text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 2
    assert _errors(text) == [
        f"b.yaml:{line}:{col}: error: paytable 'bonus' has a row of a hand named by its cards ('ace_king_suited'), "
        "which a hand value cannot meet: pay it on the cards (e.g. player.hand), not on "
        "'hand(two_cards, player.hole)' [at /procedure/12/rules/1/then]"]


def test_paid_on_the_cards_it_validates():
    assert _errors(THB) == []
