"""Irregularities: an event of a round (a card exposed, a misdeal, a player leaving...) answered by the
chapter's provisions, each ruling logged with its §; an event no provision covers is refused."""
from __future__ import annotations

from compiler.runtime.cards import card_str
from compiler.runtime.context import Context
from compiler.runtime.errors import EngineError, RefusedError
from compiler.runtime.state import Round


class Irregularities:
    """Table methods of irregularities (``self`` is a :class:`~compiler.runtime.table.Table`)."""

    def _fire(self, ctx: Context, rnd: Round, e: dict) -> None:
        e["_done"] = True
        kind = e.get("event")
        if kind == "floor_reshuffle" and any(r[0] == "floor_reshuffle" for r in self.game.cards.cut_offer):
            cite = next(r[2] for r in self.game.cards.cut_offer if r[0] == "floor_reshuffle")
            rnd.floor_reshuffle = True
            rnd.reshuffle = cite
            rnd.log("reshuffle_ordered", cite, "a floorperson or above directs a reshuffle after this round")
            return
        irrs = [i for i in self.game.irregularities if i.event == kind]
        if not irrs:
            known = sorted({i.event for i in self.game.irregularities})
            raise RefusedError(f"no provision of Chapter {self.game.chapter} covers the event {kind!r}; "
                               f"this chapter's irregularity events are {known}", e.get("_ptr"))
        if "cards" not in e and kind in ("face_up_card", "drawn_in_error") and not self.scripted:
            e["cards"] = [self.shoe.draw(("burn", None, None)) for _ in range(int(e.get("count", 1)))]
        if "count" not in e and "cards" in e:
            e["count"] = len(e["cards"])
        seat_no = e.get("seat")
        saved_seat, saved_event = ctx.seat, ctx.event
        ctx.event = e
        ctx.seat = rnd.seats.get(seat_no) if seat_no is not None else None
        if seat_no is not None and ctx.seat is None:
            raise RefusedError(f"event {kind!r}: seat {seat_no} has no wager in this round", e.get("_ptr"))
        try:
            for irr in irrs:
                desc = ", ".join(f"{k}={' '.join(card_str(c) for c in v if c is not None) if k == 'cards' else v}"
                                 for k, v in sorted(e.items()) if not k.startswith("_") and k not in ("event",))
                rnd.log("irregularity", irr.cite, f"{irr.title or kind}" + (f" ({desc})" if desc else ""),
                        seat=seat_no)
                for rule in irr.rules:
                    ctx.cite = rule.cite
                    if rule.when is None or rule.when(ctx):
                        rule.then(ctx)
        except EngineError as exc:
            if seat_no is None and "outside a player step" in str(exc):
                raise RefusedError(f"event {kind!r} names no seat, and {'; '.join(i.cite for i in irrs)} acts on "
                                   "a player's wagers: give the seat (seat: N)", e.get("_ptr")) from None
            if exc.pointer is None:
                exc.pointer = e.get("_ptr")
            raise
        finally:
            ctx.seat, ctx.event = saved_seat, saved_event

