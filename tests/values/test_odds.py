"""The value layer's odds (compiler/values/odds.py): one parser that every stage reads odds with,
one writer for documents and one for generated modules."""
from __future__ import annotations

from fractions import Fraction

import pytest

from compiler.analysis.paytables import parse_payout
from compiler.lang.rules import parse_actions
from compiler.text.hands import read_odds
from compiler.values.money import MoneyError
from compiler.values.odds import Odds, parse_odds


@pytest.mark.parametrize("text, kind, num, den", [
    ("3 to 2", "to", 3, 2),
    ("1,000 to 1", "to", 1000, 1),
    ("500 for 1", "for", 500, 1),
    ("100% of meter", "meter", 100, 1),
    ("10% of the progressive meter", "meter", 10, 1),
    ("$1,000", "fixed", 1000, 1),
    ("$ 125", "fixed", 125, 1),
    ("Push", "push", 0, 1),
    ("  3   to  2 ", "to", 3, 2),
])
def test_parse_odds_reads_every_form_the_regulations_write(text, kind, num, den):
    assert parse_odds(text) == Odds(kind, Fraction(num), Fraction(den))


@pytest.mark.parametrize("text", ["1", "3 to", "to 2", "3:2", "10%", "$", "push it", ""])
def test_parse_odds_refuses_what_is_not_odds(text):
    with pytest.raises(MoneyError):
        parse_odds(text)


def test_parse_odds_refuses_division_by_zero():
    with pytest.raises(MoneyError, match="divide by zero"):
        parse_odds("5 to 0")


def test_rule_grammar_reads_inline_odds_as_the_value_parser_does():
    for text in ("3 to 2", "1,000 to 1", "500 for 1", "25% of meter", "$1,000", "Push"):
        (action,) = parse_actions(f"win ante at {text}")
        assert action.odds == parse_odds(text), text


def test_analysis_prices_compiled_odds_and_text_alike():
    for text, net in (("3 to 2", Fraction(3, 2)), ("500 for 1", Fraction(499)), ("$125", Fraction(125)),
                      ("Push", Fraction(0))):
        assert parse_payout(parse_odds(text)).net() == parse_payout(text).net() == net
    meter = parse_payout(parse_odds("10% of meter")).net(5)
    assert meter(1000) == Fraction(1000 * 10, 100) - 5


def test_printed_cells_take_whole_number_odds_and_keep_the_rest_as_text():
    assert read_odds("1,000 to 1").as_dict() == {"text": "1,000 to 1", "kind": "to", "numerator": 1000,
                                                 "denominator": 1}
    assert read_odds("$125").as_dict() == {"text": "$125", "kind": "amount", "amount": 125}
    assert read_odds("10% mega jackpot").kind == "share"
    assert read_odds("$7.50").kind == "text"  # not a whole number of dollars: never truncated to 7
    assert read_odds("2,000*").kind == "text"


@pytest.mark.parametrize("text", ["3 to 2", "1,000 to 1", "500 for 1", "100% of meter", "$125", "Push",
                                  "2.5 to 1"])
def test_written_odds_read_back_to_the_same_odds(text):
    odds = parse_odds(text)
    assert parse_odds(str(odds)) == odds
    assert eval(odds.source(), {"Odds": Odds, "Fraction": Fraction}) == odds
