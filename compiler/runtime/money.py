"""Money and odds, exactly.

Amounts are :class:`decimal.Decimal` (dollars and cents, never ``float``); probabilities and
returns are :class:`fractions.Fraction`. Odds keep the regulation's words apart:

* ``N to M``   the stake is kept and N/M per unit is paid: net +N/M;
* ``N for M``  the payout N/M per unit includes the stake: net N/M - 1;
* ``P% of meter``  a share of the progressive meter read when the player is paid;
* ``$A``       a fixed amount (Envy Bonus), independent of the wager;
* ``Push``     neither paid nor collected.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import (ROUND_DOWN, ROUND_HALF_EVEN, Context, Decimal, DivisionByZero, InvalidOperation, Overflow,
                     localcontext)
from fractions import Fraction

CENT = Decimal("0.01")

# Money has its own arithmetic context: 40 significant digits hold any table amount (below
# MAX_AMOUNT, at most MAX_PLACES decimal places) times any odds exactly, and every invalid
# operation, overflow or division by zero raises instead of giving NaN or Infinity.
MONEY_CONTEXT = Context(prec=40, rounding=ROUND_HALF_EVEN, Emax=999, Emin=-999,
                        traps=[InvalidOperation, DivisionByZero, Overflow])
MAX_AMOUNT = Decimal(10) ** 12  # amounts are below one trillion dollars
MAX_PLACES = 10  # decimal places of an amount (meter shares are fractions of a cent)


def money_context():
    """``with money_context():`` runs money arithmetic in :data:`MONEY_CONTEXT`."""
    return localcontext(MONEY_CONTEXT)


class MoneyError(ValueError):
    """An amount or odds string that cannot be read."""


def money(value) -> Decimal:
    """Exact Decimal from an int, Decimal, Fraction or string such as ``5``, ``"7.50"``, ``"$1,000"``.

    Refused (:class:`MoneyError`): NaN, infinities, amounts of MAX_AMOUNT or more, and more than
    MAX_PLACES decimal places."""
    if isinstance(value, Decimal):
        return _checked(value, value)
    if isinstance(value, bool):
        raise MoneyError(f"not an amount: {value!r}")
    if isinstance(value, int):
        if abs(value) >= MAX_AMOUNT:
            raise _too_large(value)
        return Decimal(value)
    if isinstance(value, Fraction):
        if abs(value) >= MAX_AMOUNT:
            raise _too_large(value)
        with money_context():
            return _checked(Decimal(value.numerator) / Decimal(value.denominator), value, exact=False)
    if isinstance(value, str):
        s = value.strip().replace("$", "").replace(",", "")
        if len(s) > 60:
            raise MoneyError(f"not an amount: {value[:40]!r}... ({len(value)} characters)")
        try:
            d = Decimal(s)
        except Exception:
            raise MoneyError(f"not an amount: {value!r}") from None
        return _checked(d, value)
    if isinstance(value, float):
        raise MoneyError(f"float amounts are not exact: write {value!r} as a string")
    raise MoneyError(f"not an amount: {value!r}")


def _too_large(value) -> MoneyError:
    shown = str(value) if len(str(value)) <= 40 else str(value)[:40] + "..."
    return MoneyError(f"{shown} is beyond the largest amount handled "
                      f"(amounts are below {MAX_AMOUNT:,.0f})")


def _checked(d: Decimal, value, exact: bool = True) -> Decimal:
    if not d.is_finite():
        raise MoneyError(f"not an amount: {str(value)!r} (amounts are finite numbers)")
    if d and d.adjusted() >= 12:
        raise _too_large(value)
    if exact and d.as_tuple().exponent < -MAX_PLACES:
        raise MoneyError(f"{str(value)[:40]} has more than {MAX_PLACES} decimal places")
    return d


def percent(value) -> Decimal:
    """A percentage as a Decimal number of percent: ``14``, ``"14%"``, ``Decimal("14.5")``."""
    if isinstance(value, str):
        value = value.strip().rstrip("%").strip()
    return money(value)


def fmt_money(amount: Decimal, signed: bool = False) -> str:
    """``7.50``, or ``+7.50`` / ``-5.00`` when signed."""
    q = amount.quantize(CENT) if amount == amount.quantize(CENT) else amount
    s = f"{q:,.2f}" if q == q.quantize(CENT) else f"{q:,}"
    if signed and amount > 0:
        return "+" + s
    return s


def to_cents(amount: Decimal) -> tuple[Decimal, bool]:
    """Round down to the cent (a casino never pays a fraction of a cent); says whether it rounded."""
    q = amount.quantize(CENT, rounding=ROUND_DOWN)
    return q, q != amount


@dataclass(frozen=True)
class Odds:
    """A payout as the regulation writes it."""

    kind: str  # 'to' | 'for' | 'meter' | 'fixed' | 'push'
    num: Fraction = Fraction(0)  # N of 'N to M' / 'N for M'; percent of 'P% of meter'; amount of '$A'
    den: Fraction = Fraction(1)

    def __post_init__(self):
        if self.kind not in ("to", "for", "meter", "fixed", "push"):
            raise MoneyError(f"unknown odds kind {self.kind!r}")

    # -- per unit wagered ---------------------------------------------------
    def net_per_unit(self) -> Fraction:
        """Net result per unit wagered of a win at these odds (not defined for meter/fixed)."""
        if self.kind == "to":
            return Fraction(self.num) / Fraction(self.den)
        if self.kind == "for":
            return Fraction(self.num) / Fraction(self.den) - 1
        if self.kind == "push":
            return Fraction(0)
        raise MoneyError(f"{self} has no fixed net per unit")

    def payout(self, stake: Decimal, meter: Decimal | None = None) -> Decimal:
        """Net amount won on ``stake`` (stake returned separately for 'to'; included for 'for')."""
        stake = money(stake)
        if self.kind == "to":
            return stake * money(self.num) / money(self.den)
        if self.kind == "for":
            return stake * money(self.num) / money(self.den) - stake
        if self.kind == "push":
            return Decimal(0)
        if self.kind == "fixed":
            return money(self.num)
        if meter is None:
            raise MoneyError("a meter payout needs the meter reading")
        return money(meter) * money(self.num) / Decimal(100) - stake

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


_ODDS_RE = re.compile(
    r"^\s*(?:(?P<n>[0-9][0-9,]*(?:\.[0-9]+)?)\s+(?P<w>to|for)\s+(?P<d>[0-9][0-9,]*(?:\.[0-9]+)?)"
    r"|(?P<p>[0-9]+(?:\.[0-9]+)?)%\s+of\s+(?:the\s+)?meter"
    r"|\$(?P<a>[0-9][0-9,]*(?:\.[0-9]{2})?)"
    r"|(?P<push>push))\s*$",
    re.IGNORECASE,
)


def parse_odds(text: str) -> Odds:
    """Parse ``3 to 2``, ``1,000 to 1``, ``500 for 1``, ``100% of meter``, ``$125``, ``Push``.

    The rule language (compiler/lang/rules.lark) has the same forms; this fast path serves
    the runtime and the analysis, which must not need the grammar at run time.
    """
    m = _ODDS_RE.match(str(text))
    if not m:
        raise MoneyError(f"cannot read odds {text!r}: expected 'N to M', 'N for M', 'P% of meter', '$A' or 'Push'")
    if m.group("w"):
        num = Fraction(m.group("n").replace(",", ""))
        den = Fraction(m.group("d").replace(",", ""))
        if den == 0:
            raise MoneyError(f"odds {text!r} divide by zero")
        return Odds(m.group("w").lower(), num, den)
    if m.group("p"):
        return Odds("meter", Fraction(m.group("p")))
    if m.group("a"):
        return Odds("fixed", Fraction(m.group("a").replace(",", "")))
    return Odds("push")
