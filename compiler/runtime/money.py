"""Money and odds for the runtime and the generated game modules: the value layer's
(:mod:`compiler.values.money`, :mod:`compiler.values.odds`) under the names they have always had."""
from compiler.values.money import (CENT, MAX_AMOUNT, MAX_PLACES, MONEY_CONTEXT, MoneyError, fmt_money, money,
                                   money_context, percent, to_cents)
from compiler.values.odds import Odds, parse_odds

__all__ = ["CENT", "MAX_AMOUNT", "MAX_PLACES", "MONEY_CONTEXT", "MoneyError", "Odds", "fmt_money", "money",
           "money_context", "parse_odds", "percent", "to_cents"]
