"""Decisions: the players' choices (``decide``) and the optional wagers offered mid-round (``offer``)."""
from __future__ import annotations

from compiler.runtime.context import Context
from compiler.runtime.definition import Step
from compiler.runtime.errors import RefusedError
from compiler.runtime.money import money
from compiler.runtime.state import Round
from compiler.runtime.strategy import view_of


def decide(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    """Each player picks one available choice: their strategy, or the hand history."""
    for s in table._players(ctx, rnd, step):
        ctx.seat = s
        avail = [c for c in step.choices if c.when is None or c.when(ctx)]
        if not avail:
            continue
        ids = [c.id for c in avail]
        choice = table._strategies(s.number).choose(step.id, ids, view_of(rnd, s))
        if choice not in ids:
            raise RefusedError(f"seat {s.number}: {choice!r} is not a choice at {step.id!r} ({step.cite}); "
                               f"choices are {ids}")
        c = avail[ids.index(choice)]
        s.choices[step.id] = choice
        rnd.log("decision", c.cite, f"chooses {choice} ({step.id})", seat=s.number)
        if c.then is not None:
            ctx.cite = c.cite
            c.then(ctx)
        if rnd.stopped:
            return
    ctx.seat = None


def offer(table, ctx: Context, rnd: Round, step: Step, pending) -> None:
    """Each player may place the optional wager (``equal_to``: of the amount of that wager)."""
    p = step.params
    wager = p["wager"]
    if not table.offered(wager):
        return
    for s in table._players(ctx, rnd, step):
        ctx.seat = s
        amt = money(table._strategies(s.number).offer(wager, view_of(rnd, s)))
        if amt == 0:
            continue
        equal_to = p.get("equal_to")
        if equal_to is not None and amt != ctx.wager(equal_to) and not any(
                w.id == equal_to for w in s.history if w.amount == amt):
            raise RefusedError(f"seat {s.number}: the {table.game.wagers[wager].name} must equal the "
                               f"{table.game.wagers[equal_to].name} ({step.cite})")
        table.place(rnd, s, wager, amt, step.cite)
    ctx.seat = None
