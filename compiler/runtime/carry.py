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
from compiler.runtime.state import Round, Seat, Wager, instance_key, wager_name


@dataclass
class Carried:
    """What one position has on the layout between rounds: open wagers (id -> amount, in the order placed)
    and the per-player state kept with them. An instance of a wager of several (``several: true``) is keyed
    ``come#2`` and its kept state is its own: ``state["come#2"] = {"come_point": 6}``."""
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
            for key, amount in wagers.items():
                wid, n = instance_key(key)
                wd = self.game.wagers.get(wid)
                if wd is None or not wd.stays or bool(n) != wd.several:
                    stays = sorted(k for k, d in self.game.wagers.items() if d.stays)
                    raise RefusedError(f"seat {seat_no}: {key!r} is not a wager that stays on the layout from one "
                                       f"round to the next; this chapter's: {stays} (one of several: 'come#1')")
                wagers[key] = self.check_amount(wid, money(amount))
                if n:
                    bad = set(state.get(key) or {}) - set(wd.keeps)
                    if bad or not isinstance(state.get(key, {}), Mapping):
                        raise RefusedError(f"seat {seat_no}: {key}: the state kept with it is among {list(wd.keeps)}")
                    kept.add(key)
                else:
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
        seat.state.update({k: v for k, v in c.state.items() if not instance_key(k)[1]})
        for key, amount in c.wagers.items():
            wid, n = instance_key(key)
            wd = self.game.wagers[wid]
            w = Wager(wid, amount, wd.cite, instance=n)
            if n:  # an instance: its own kept state (the state's initial values where a hand history leaves one out)
                w.kept = {k: self.game.state[k]["initial"] for k in wd.keeps} | dict(c.state.get(key) or {})
                kept = dict(w.kept)
            else:
                kept = {k: v for k, v in c.state.items() if k in wd.keeps}
            seat.wagers[key] = w
            seat.history.append(w)
            rnd.log("carried", wd.cite, f"{wager_name(self.game, w)} {fmt_money(amount)} carried from the previous "
                    f"round, still in action{_state_text(kept)}", seat=seat.number, wager=key, amount=amount)

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
                c.wagers[w.key] = w.amount
                if w.instance:
                    kept = dict(w.kept)
                    if kept:
                        c.state[w.key] = kept
                else:
                    kept = {k: s.state[k] for k in wd.keeps if k in s.state}
                    c.state.update(kept)
                s.history.remove(w)
                rnd.log("carry", wd.cite, f"{wager_name(self.game, w)} {fmt_money(w.amount)} stays on the layout until "
                        f"it is settled{_state_text(kept)}", seat=s.number, wager=w.key, amount=w.amount)
        return out


def layout_name(game, key: str) -> str:
    """A wager on the layout by its key: its name, or 'Come #2' for an instance."""
    wid, n = instance_key(key)
    return f"{game.wagers[wid].name} #{n}" if n else game.wagers[wid].name


def carried_lines(game, result) -> list[str]:
    """What a round began with and left on the layout, a line per seat (for `settle` and `play`)."""
    out = []
    for label, which in (("began the round with on the layout", result.carried_in),
                         ("leaves on the layout until settled", result.carried_out)):
        for seat, c in sorted(which.items()):
            state = c.get("state") or {}
            ws = ", ".join(f"{layout_name(game, w)} {fmt_money(Decimal(a))}{_state_text(state.get(w) or {})}"
                           for w, a in c["wagers"].items())
            out.append(f"seat {seat} {label}: {ws}{_state_text({k: v for k, v in state.items() if k not in c['wagers']})}")
    return out
