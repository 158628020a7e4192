"""A stake on which no payout of a chapter is rounded.

The engine pays whole cents, rounding a payout down (a casino pays no fraction of a cent:
``compiler.values.money.to_cents``), so a method that plays the engine on a stake of 1 would find 7 to 6
paid 1.16 and give a wrong exact figure. A method that plays the engine on one stake plays this one and
divides by it: every payout ratio, paytable cell and surrendered fraction of the chapter times it is whole."""
from __future__ import annotations

import math
from fractions import Fraction

from compiler.ir.model import walk_steps

__all__ = ["unrounded_stake"]


def unrounded_stake(game, chapter) -> int:
    """The least whole stake on which every payout of the chapter is a whole amount."""
    dens = [p.odds.ratio.denominator for p in game.payouts.values() if p.odds is not None]
    for pt in game.paytables.values():
        dens.extend(o.ratio.denominator for _, row, _ in pt.rows for o in row if o.kind in ("to", "for"))
    for s in walk_steps(chapter.procedure):
        for r in (*s.rules, *s.choices):
            for a in r.then:
                if a.odds is not None:
                    dens.append(a.odds.ratio.denominator)
                if a.fraction is not None:
                    dens.append(Fraction(a.fraction).denominator)
    return math.lcm(1, *dens)
