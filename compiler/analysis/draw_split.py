"""A ``split`` step in the draw walk (:mod:`compiler.analysis.draw_walk`).

The engine (``runtime.decisions.split``) makes the second card of the zone a new hand with a copy of the
wager, deals each of the two hands one card, offers the split again to a hand that still meets the step's
``players`` (first the hand split, then the hands made, in order) while the position holds fewer than
``hands`` hands, and then plays and settles every hand on its own.

The walk values each hand so made on its own (the third statement of the method: a hand made by a split
draws from the shoe at the split, the other hands' cards not removed), and follows only the number of hands:
with ``q`` the chance that a hand's new card makes it meet ``players`` again, the value of ``k`` hands still
to be offered the split when the position holds ``h`` hands is

    f(h, 0) = 0;   f(h, k) = k * V(pair not offered)                                 when h = hands;
    f(h, k) = max(keep + f(h, k-1),  2 A + sum_n C(2, n) q^n (1-q)^(2-n) f(h+1, k-1+n))  otherwise,

where ``A`` is the value of a new card that does not pair again (summed over those cards, each with its
chance) and ``keep`` the best other choice for a hand that pairs again.
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from compiler.analysis.draw_steps import _meets, asked, best_of, choices_of, chosen
from compiler.analysis.draw_model import ZERO, DrawLimit, State, Value
from compiler.runtime import decisions
from compiler.runtime.state import Seat

SPLIT = "split"


class Splits:
    def __init__(self, walk):
        self.walk = walk

    def step(self, st: State, step):
        walk = self.walk
        most = int(step.params["hands"])
        avail = asked(walk, st, step, st.hands < most)
        if avail is None:
            return None
        others = [c.id for c in avail if c.id != SPLIT]

        def branch() -> Value:
            vals = {c: chosen(walk, st, step, c) for c in others}
            if any(c.id == SPLIT for c in avail):
                vals[SPLIT] = self._split(st, step, most)
            return best_of(walk, st, step, vals)
        return branch

    def _split(self, st: State, step, most: int) -> Value:
        walk = self.walk
        zone, wager = step.params["zone"], step.params["wager"]
        child = st.copy()
        ctx = walk.ctx(child, child.seat)
        walk.player.choice = SPLIT
        decisions.choose(walk.table, ctx, child.rnd, step, child.seat, child.seat.who)
        seat = child.seat
        cards, stake = seat.zones.get(zone) or [], seat.wagers.get(wager)
        if len(cards) != 2 or stake is None or stake.outcome is not None:
            raise DrawLimit(f"step {step.id} ({step.cite}): a split needs two cards in {zone!r} and an open {wager!r}")
        open_others = [w.id for w in seat.wagers.values() if w.outcome is None and w.id != wager]
        if open_others:
            raise DrawLimit(f"step {step.id} ({step.cite}) splits a hand with the "
                            f"{walk.game.wagers[open_others[0]].name} in action; the draw walk splits one wager")
        settled = sum((Value(Fraction(w.net), Fraction(w.amount)) for w in seat.history if w.outcome is not None),
                      ZERO)
        first = cards[0]
        left = walk.left(child)
        total = sum(left)
        prob = {c: Fraction(n, total) for c, n in enumerate(left) if n > 0}

        def hand(c: int) -> State:
            """A hand made by the split, holding the first card and a new card of class ``c``."""
            h = child.copy(pc=child.pc + 1, removed=walk.take(child.removed, c))
            old = h.seat
            new = Seat(1)
            new.zones = {z: list(v) for z, v in old.zones.items()}
            new.zones[zone] = [first, walk.rep[c]]
            new.flags, new.state, new.choices = set(old.flags), dict(old.state), dict(old.choices)
            h.rnd.seats = {1: new}
            walk.table.place(h.rnd, new, wager, Decimal(stake.amount), step.cite)
            return h

        pairs, plain = [], ZERO
        for c, p in prob.items():
            h = hand(c)
            h.pc -= 1
            again = _meets(walk, h, step) and any(x.id == SPLIT for x in choices_of(walk, h, step))
            if again:
                pairs.append(c)
            else:
                plain += p * walk.value(hand(c))
        if len(pairs) > 1:
            raise DrawLimit(f"step {step.id} ({step.cite}): cards of {len(pairs)} classes pair a hand again; the "
                            "draw walk counts hands of one pair")
        return settled + self._hands(st.hands, most, pairs, prob, plain, hand, step)

    def _hands(self, h0: int, most: int, pairs: list, prob: dict, plain: Value, hand, step) -> Value:
        """The value of the hands of a split made now (the position held ``h0`` hands before it)."""
        walk = self.walk
        if not pairs:
            return 2 * plain
        c = pairs[0]
        q = prob[c]
        held = walk.value(hand(c))  # a pair not offered the split again (the position holds its most hands)
        keep_at = hand(c)
        keep_at.pc -= 1
        others = [x.id for x in choices_of(walk, keep_at, step) if x.id != SPLIT]
        keep = max((chosen(walk, keep_at, step, x) for x in others), default=held)

        @lru_cache(maxsize=None)
        def f(h: int, k: int) -> Value:
            if k == 0:
                return ZERO
            if h >= most:
                return k * held
            again = sum((_binom(n) * q ** n * (1 - q) ** (2 - n) * f(h + 1, k - 1 + n) for n in range(3)),
                        ZERO)
            return max(keep + f(h, k - 1), 2 * plain + again)

        return 2 * plain + sum((_binom(n) * q ** n * (1 - q) ** (2 - n) * f(h0 + 1, n) for n in range(3)),
                               ZERO)


def _binom(n: int) -> int:
    return (1, 2, 1)[n]

