"""Odds: the one reader and the one writer of a payout as the regulation writes it.

* ``N to M``   the stake is kept and N/M per unit is paid: net +N/M;
* ``N for M``  the payout N/M per unit includes the stake: net N/M - 1;
* ``P% of meter``  a share of the progressive meter read when the player is paid;
* ``$A``       a fixed amount (Envy Bonus), independent of the wager;
* ``Push``     neither paid nor collected.

:func:`parse_odds` is the only parser of these forms: the rule language's grammar
(``compiler/lang``) hands the odds it tokenised to it, the spec checks and the IR build
(``compiler/ir``: typed payouts and paytables) read the rulespec's ``odds``/``pays`` strings with it,
the analysis prices the compiled odds and the text tools read printed paytable cells with it. ``str(odds)`` writes them back (documents, reports) and
:meth:`Odds.source` writes the Python expression a generated game module holds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from decimal import Decimal
from fractions import Fraction

from compiler.values.money import MoneyError, fmt_money, money

KINDS = ("to", "for", "meter", "fixed", "push")


@dataclass(frozen=True)
class Odds:
    """A payout as the regulation writes it."""

    kind: str  # 'to' | 'for' | 'meter' | 'fixed' | 'push'
    num: Fraction = Fraction(0)  # N of 'N to M' / 'N for M'; percent of 'P% of meter'; amount of '$A'
    den: Fraction = Fraction(1)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise MoneyError(f"unknown odds kind {self.kind!r}")

    @property
    def ratio(self) -> Fraction:
        """N/M of 'N to M' and 'N for M', the share (P/100) of 'P% of meter', the amount of '$A', 0 for Push."""
        if self.kind in ("to", "for"):
            return Fraction(self.num) / Fraction(self.den)
        if self.kind == "meter":
            return Fraction(self.num) / 100
        return Fraction(self.num)

    @cached_property
    def _num(self) -> Decimal:
        """``money(num)``, converted once for these odds (a payout is priced thousands of times a second)."""
        return money(self.num)

    @cached_property
    def _den(self) -> Decimal:
        return money(self.den)

    def payout(self, stake: Decimal, meter: Decimal | None = None) -> Decimal:
        """Net amount won on ``stake`` (stake returned separately for 'to'; included for 'for')."""
        stake = money(stake)
        if self.kind == "to":
            return stake * self._num / self._den
        if self.kind == "for":
            return stake * self._num / self._den - stake
        if self.kind == "push":
            return Decimal(0)
        if self.kind == "fixed":
            return self._num
        if meter is None:
            raise MoneyError("a meter payout needs the meter reading")
        return money(meter) * self._num / Decimal(100) - stake

    def __str__(self) -> str:
        def n(x: Fraction) -> str:
            if x.denominator == 1:
                return f"{x.numerator:,}"
            return str(money(x).normalize())

        if self.kind == "to":
            return f"{n(self.num)} to {n(self.den)}"
        if self.kind == "for":
            return f"{n(self.num)} for {n(self.den)}"
        if self.kind == "meter":
            return f"{n(self.num)}% of meter"
        if self.kind == "fixed":
            return f"${fmt_money(money(self.num))}".replace(".00", "")
        return "Push"

    def source(self) -> str:
        """The Python expression that rebuilds these odds in a generated module: ``Odds('to', Fraction(3, 2), Fraction(1, 1))``."""
        return f"Odds({self.kind!r}, {_fraction_source(self.num)}, {_fraction_source(self.den)})"


def _fraction_source(x) -> str:
    x = Fraction(x)
    return f"Fraction({x.numerator}, {x.denominator})"


_NUMBER = r"[0-9][0-9,]*(?:\.[0-9]+)?"
_ODDS_RE = re.compile(
    rf"(?P<n>{_NUMBER}) (?P<w>to|for) (?P<d>{_NUMBER})"
    rf"|(?P<p>{_NUMBER}) ?% of (?:the )?(?:progressive )?meter"
    rf"|\$ ?(?P<a>{_NUMBER})"
    r"|(?P<push>push)",
    re.IGNORECASE,
)


def _number(s: str) -> Fraction:
    return Fraction(s.replace(",", ""))


def parse_odds(text) -> Odds:
    """Read ``3 to 2``, ``1,000 to 1``, ``500 for 1``, ``100% of meter`` (also ``of the
    [progressive] meter``), ``$125``, ``Push``; runs of blanks count as one. :class:`MoneyError`
    (a ``ValueError``) for anything else."""
    s = " ".join(str(text).split())
    m = _ODDS_RE.fullmatch(s)
    if not m:
        raise MoneyError(f"cannot read odds {text!r}: expected 'N to M', 'N for M', 'P% of meter', '$A' or 'Push'")
    if m.group("w"):
        num, den = _number(m.group("n")), _number(m.group("d"))
        if den == 0:
            raise MoneyError(f"odds {text!r} divide by zero")
        return Odds(m.group("w").lower(), num, den)
    if m.group("p"):
        return Odds("meter", _number(m.group("p")))
    if m.group("a"):
        return Odds("fixed", _number(m.group("a")))
    return Odds("push")


def as_odds(value) -> Odds:
    """``value`` itself when it is already :class:`Odds` (compiled), else :func:`parse_odds` of it."""
    return value if isinstance(value, Odds) else parse_odds(value)


__all__ = ["KINDS", "Odds", "as_odds", "parse_odds"]
