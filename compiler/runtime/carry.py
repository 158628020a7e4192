"""Wagers that stay on the layout from one round to the next (a wager declared ``stays: until_settled``,
e.g. a Craps Come wager with its come point).

A round's procedure ends; a wager so declared that no rule has settled is not an error: it stays on the
layout, with the per-player state its declaration ``keeps`` (``state.come_point``), and the next round on
the same table begins with it in action: ``has(W)`` holds, its rules settle it. Its stake left the
player when it was placed and is neither the player's nor the house's while it is open: the ledger books
it when it is settled (its net), the log says ``carry`` at the end of the round it stays after and
``carried`` at the start of the round it comes into (compiler/runtime/audit.py counts it on the layout).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Mapping

from compiler.runtime.errors import RefusedError
from compiler.runtime.money import fmt_money, money
from compiler.runtime.state import Round, Seat, Wager


@dataclass
class Carried:
    """What one position has on the layout between rounds: open wagers (id -> amount, in the order placed)
    and the per-player state kept with them."""
    wagers: dict[str, Decimal] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"wagers": {k: str(v) for k, v in self.wagers.items()}, **({"state": dict(self.state)}
                                                                           if self.state else {})}


def _state_text(state: Mapping[str, Any]) -> str:
    return f" ({', '.join(f'{k} {v}' for k, v in state.items())})" if state else ""


class Carry:
    """Table methods of wagers that stay (``self`` is a :class:`~compiler.runtime.table.Table`, whose
    ``carried`` maps a position to its :class:`Carried`)."""

    def carry_in(self, carried: Mapping[int, Mapping[str, Any]]) -> None:
        """Set what the next round begins with on the layout (a hand history's ``carried``): position ->
        {"wagers": {id: amount}, "state": {name: value}}. Checked: a wager that stays, in whole cents, and
        only the state such a wager keeps."""
        out: dict[int, Carried] = {}
        for seat_no, c in carried.items():
            if not isinstance(seat_no, int) or not 1 <= seat_no <= self.game.max_positions:
                raise RefusedError(f"seat {seat_no!r}: this table has positions 1 to {self.game.max_positions}")
            wagers, state = dict(c.get("wagers") or {}), dict(c.get("state") or {})
            kept: set[str] = set()
            for wid, amount in wagers.items():
                wd = self.game.wagers.get(wid)
                if wd is None or not wd.stays:
                    stays = sorted(k for k, d in self.game.wagers.items() if d.stays)
                    raise RefusedError(f"seat {seat_no}: {wid!r} is not a wager that stays on the layout from one "
                                       f"round to the next; this chapter's: {stays}")
                wagers[wid] = self.check_amount(wid, money(amount))
                kept.update(wd.keeps)
            for k in state:
                if k not in kept:
                    raise RefusedError(f"seat {seat_no}: the state {k!r} is not kept by a wager carried "
                                       f"(kept: {sorted(kept)})")
            if wagers:
                out[seat_no] = Carried(wagers, state)
        self.carried = out

    def on_layout(self) -> Decimal:
        """The stakes of the wagers open on the layout between rounds: neither the players' nor the house's."""
        return sum((a for c in self.carried.values() for a in c.wagers.values()), Decimal(0))

    def _bring_carried(self, rnd: Round, seat: Seat) -> None:
        """Put the seat's carried wagers back in action, with the state they keep, logged ``carried``."""
        c = self.carried.get(seat.number)
        if c is None:
            return
        seat.state.update(c.state)
        for wid, amount in c.wagers.items():
            wd = self.game.wagers[wid]
            w = Wager(wid, amount, wd.cite)
            seat.wagers[wid] = w
            seat.history.append(w)
            kept = {k: v for k, v in c.state.items() if k in wd.keeps}
            rnd.log("carried", wd.cite, f"{wd.name} {fmt_money(amount)} carried from the previous round, still in "
                    f"action{_state_text(kept)}", seat=seat.number, wager=wid, amount=amount)

    def _carry_out(self, rnd: Round) -> dict[int, Carried]:
        """The wagers left open that stay: taken off the round's wagers (not unsettled) onto the layout with
        the state they keep, logged ``carry``. A void round carries nothing (every wager was returned)."""
        out: dict[int, Carried] = {}
        for s in rnd.seats_in_round():
            for w in list(s.history):
                wd = self.game.wagers[w.id]
                if w.outcome is not None or not wd.stays or s.hand != 1:
                    continue
                c = out.setdefault(s.number, Carried())
                c.wagers[w.id] = w.amount
                kept = {k: s.state[k] for k in wd.keeps if k in s.state}
                c.state.update(kept)
                s.history.remove(w)
                rnd.log("carry", wd.cite, f"{wd.name} {fmt_money(w.amount)} stays on the layout until it is settled"
                        f"{_state_text(kept)}", seat=s.number, wager=w.id, amount=w.amount)
        return out


def carried_lines(game, result) -> list[str]:
    """What a round began with and left on the layout, a line per seat (for `settle` and `play`)."""
    out = []
    for label, which in (("began the round with on the layout", result.carried_in),
                         ("leaves on the layout until settled", result.carried_out)):
        for seat, c in sorted(which.items()):
            ws = ", ".join(f"{game.wagers[w].name} {fmt_money(Decimal(a))}" for w, a in c["wagers"].items())
            out.append(f"seat {seat} {label}: {ws}{_state_text(c.get('state') or {})}")
    return out
