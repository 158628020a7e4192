"""A stake on which no payout of a chapter is rounded.

The engine pays whole cents, rounding a payout down (a casino pays no fraction of a cent:
``compiler.values.money.to_cents``), so a method that plays the engine on a stake of 1 would find 7 to 6
paid 1.16 and give a wrong exact figure. A method that plays the engine on a stake of its choice plays
:func:`unrounded_stake` and divides by it; a method that plays a stake of 1 refuses a chapter for which
:func:`rounded_on_one` names a payout."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterator

from compiler.ir.model import walk_steps

__all__ = ["rounded_on_one", "unrounded_stake"]


def _ratios(game, chapter) -> Iterator[tuple[Fraction, str, str]]:
    """(the share of the stake paid or collected, how it is written, its citation) of every payout, paytable cell
    paying odds and surrendered fraction of the chapter."""
    for p in game.payouts.values():
        if p.odds is not None:
            yield p.odds.ratio, str(p.odds), p.cite
    for pt in game.paytables.values():
        yield from ((o.ratio, str(o), pt.cite) for _, row, _ in pt.rows for o in row if o.kind in ("to", "for"))
    for s in walk_steps(chapter.procedure):
        for r in (*s.rules, *s.choices):
            for a in r.then:
                if a.odds is not None:
                    yield a.odds.ratio, str(a.odds), r.cite
                if a.fraction is not None:
                    yield Fraction(a.fraction), f"surrender {a.fraction}", r.cite


def unrounded_stake(game, chapter) -> int:
    """The least whole stake on which every payout of the chapter is a whole amount."""
    return math.lcm(1, *(ratio.denominator for ratio, _, _ in _ratios(game, chapter)))


def rounded_on_one(game, chapter) -> str | None:
    """The first payout that is no whole number of cents on a stake of 1 (7 to 6: 1.1666...), named with its
    citation; None when a stake of 1 rounds none."""
    for ratio, text, cite in _ratios(game, chapter):
        if (ratio * 100).denominator != 1:
            return f"{text} ({cite})"
    return None
