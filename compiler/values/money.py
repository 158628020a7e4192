"""Money, exactly: amounts are :class:`decimal.Decimal` (dollars and cents, never ``float``);
probabilities and returns are :class:`fractions.Fraction`. Odds are in :mod:`compiler.values.odds`.
"""
from __future__ import annotations

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
