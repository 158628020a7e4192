"""Seats and wagers: which wagers are offered, placing one, progressive meters' contributions, the
positions one player may play, and the Rules Submission's conditions and checklists."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from compiler.runtime.chance import check_chosen
from compiler.runtime.context import Context
from compiler.runtime.errors import RefusedError
from compiler.runtime.money import CENT, fmt_money, money, percent
from compiler.runtime.state import Round, Seat, Wager, wager_name


class Wagers:
    """Table methods of seats and wagers (``self`` is a :class:`~compiler.runtime.table.Table`)."""

    def offered(self, wager: str) -> bool:
        wd = self.game.wagers[wager]
        if wd.offered_by is None:
            return True
        return bool(self.options.get(wd.offered_by))

    def check_amount(self, wager: str, amount: Decimal) -> Decimal:
        """The amount as placed (in cents), or the RefusedError placing it raises: a wager not offered,
        an amount not positive, not whole cents, or not one of the wager's allowed amounts."""
        if wager not in self.game.wagers:
            raise RefusedError(f"unknown wager {wager!r}")
        wd = self.game.wagers[wager]
        if not self.offered(wager):
            raise RefusedError(f"the {wd.name} is not offered by this casino's Rules Submission ({wd.cite})")
        if amount <= 0:
            raise RefusedError(f"{wd.name}: amount must be positive, got {amount}")
        if amount != amount.quantize(CENT):
            raise RefusedError(f"{wd.name}: {amount} is not a whole number of cents")
        amount = amount.quantize(CENT)
        if wd.amounts and amount not in wd.amounts:
            raise RefusedError(f"{wd.name}: {fmt_money(amount)} is not an allowed amount; allowed: "
                               f"{', '.join(fmt_money(a) for a in wd.amounts)} ({wd.cite})")
        return amount

    def place(self, rnd: Round, seat: Seat, wager: str, amount: Decimal, cite: str, on=None) -> None:
        amount = self.check_amount(wager, amount)
        wd = self.game.wagers[wager]
        if wager in seat.wagers and seat.wagers[wager].outcome is None and not wd.several:
            raise RefusedError(f"seat {seat.number} already has a {wd.name}")
        chosen: tuple[str, ...] = ()
        if wd.choose or on is not None:
            if not on:
                raise RefusedError(f"seat {seat.number}: the {wd.name} is placed on numbers the player chooses: "
                                   f"give them ({wd.cite})")
            try:
                chosen = check_chosen(wd, list(on), self.game.procedure)
            except ValueError as e:
                raise RefusedError(f"seat {seat.number}: {e}") from None
            same = next((x for x in seat.wagers.values() if x.id == wager and x.outcome is None and x.on == chosen), None)
            if same is not None:  # one instance a set of numbers (one Place on each number)
                raise RefusedError(f"seat {seat.number} already has a {wager_name(self.game, same)} "
                                   f"({fmt_money(same.amount)}): one {wd.name} on each set of numbers; raise that "
                                   f"one instead ({wd.cite})")
        w = Wager(wager, amount, cite or wd.cite, on=chosen)
        if wd.several:  # a new instance, numbered after those of the seat, with the state it keeps at its start
            w.instance = 1 + max((x.instance for x in seat.wagers.values() if x.id == wager), default=0)
            w.kept = {k: self.game.state[k]["initial"] for k in wd.keeps}
        seat.wagers[w.key] = w
        seat.history.append(w)
        where = f" on {', '.join(chosen)}" if chosen and not w.instance else ""  # an instance's name says them
        rnd.log("wager", cite or wd.cite, f"{wager_name(self.game, w)} {fmt_money(amount)} placed{where}",
                seat=seat.number, wager=w.key, amount=amount)
        if wd.progressive:
            self._contribute(rnd, w, wd.progressive, +1)

    def _option_or_minimum(self, oid: str):
        """The selection for an option, or (not selected: analysis, simulation) its minimum."""
        if oid in self.options and self.options[oid] is not None:
            return self.options[oid]
        return self.game.options.get(oid, {}).get("minimum", 0)

    def meter_rate(self, meter_id: str) -> Decimal:
        m = self.game.meters[meter_id]
        return percent(self._option_or_minimum(m.rate_option)) if m.rate_option else Decimal(0)

    def meter_reset(self, meter_id: str) -> Decimal:
        m = self.game.meters[meter_id]
        return money(self._option_or_minimum(m.reset_option)) if m.reset_option else Decimal(0)

    def _contribute(self, rnd: "Round", w: Wager, meter_id: str, sign: int) -> None:
        """Add (sign=+1) or take back (-1, the wager was void) the meter's share of a stake."""
        m = self.game.meters[meter_id]
        c = w.contribution if sign < 0 else (w.amount * self.meter_rate(meter_id) / Decimal(100))
        if not c:
            return
        self.meters[meter_id] += sign * c
        self.ledger.meters += sign * c
        self.ledger.house -= sign * c
        w.contribution = c if sign > 0 else Decimal(0)
        rnd.log("meter", m.cite, f"{'added' if sign > 0 else 'taken back'}: {c.normalize()} to the progressive meter "
                f"(now {fmt_money(self.meters[meter_id])})")


    def requirements(self, step: str | None = None) -> list[tuple[str, str]]:
        """(cite, text) of the procedural requirements that apply under the table's options
        (all of them, or those of one procedure step): a checklist for this configuration."""
        ctx = Context(self, None)
        return [(cite, text) for cite, text, st, cond in self.game.requirements
                if (step is None or st == step) and (cond is None or cond(ctx))]

    def violations(self) -> list[tuple[str, str]]:
        """(cite, message) of every Rules Submission condition the table's options break."""
        out = []
        ctx = Context(self, None)
        for cite, message, cond in self.game.constraints:
            try:
                ok = bool(cond(ctx))
            except TypeError:  # a selection the condition needs is missing
                ok = False
                message += " (a selection it needs is missing)"
            if not ok:
                out.append((cite, message))
        return out

    def check_positions(self, players: Mapping[int, str]) -> None:
        """One player on several positions: allowed up to the spec's maximum, adjacent if required."""
        by_player: dict[str, list[int]] = {}
        for seat, who in players.items():
            by_player.setdefault(who, []).append(seat)
        g = self.game
        limit = int(g.positions_max(Context(self, None))) if g.positions_max is not None else 1
        for who, seats in by_player.items():
            seats.sort()
            if len(seats) > limit:
                raise RefusedError(f"player {who!r} plays {len(seats)} positions; at most {limit} under this "
                                   f"Rules Submission ({g.positions_cite or 'one position per player'})")
            if g.positions_adjacent and seats[-1] - seats[0] != len(seats) - 1:
                raise RefusedError(f"player {who!r}: positions {seats} are not adjacent ({g.positions_cite})")

