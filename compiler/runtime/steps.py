"""The engine's executor of each step kind of the registry (compiler/steps/): ``kind -> fn(table, ctx,
round, step, pending events)``. A test checks that every kind has one and every executor a kind."""
from __future__ import annotations

from compiler.runtime import dealing, decisions, paigow, settlement


def block(table, ctx, rnd, step, pending) -> None:
    """``do: block``: the group's steps, under the block's ``when``."""
    table._run_steps(ctx, rnd, step.steps, pending)


def repeat(table, ctx, rnd, step, pending) -> None:
    """``do: repeat``: the steps again and again, while ``while`` holds (tested before each pass) or until
    ``until`` holds (tested after each pass), at most ``bound`` passes. Each pass is logged with the step's §.
    With ``players``, the loop runs for each player in turn (``order``): its conditions read that player and
    its steps act on that player only. Reaching the bound is an irregularity logged with the step's §: the
    wagers still in action (of that player, in a loop per player) are returned, and the round (or that
    player's participation) goes no further. ``table.loop_observer`` (an analysis sets it) is told the start
    of every pass."""
    if step.players is None:
        _passes(table, ctx, rnd, step, pending, None)
        return
    saved = rnd.turn
    try:
        for s in table._players(ctx, rnd, step):
            rnd.turn = s.key
            _passes(table, ctx, rnd, step, pending, s)
            if rnd.stopped:
                return
    finally:
        rnd.turn = saved
        ctx.seat = None


def _passes(table, ctx, rnd, step, pending, seat) -> None:
    bound = int(step.params["bound"])
    cond_while, cond_until = step.exprs.get("while"), step.exprs.get("until")
    observer = table.loop_observer
    passes = 0
    who = "" if seat is None else f" ({seat.who})"
    while True:
        ctx.seat = seat
        if cond_while is not None and not cond_while(ctx):
            return
        if passes == bound:
            rnd.log("irregularity", step.cite, f"{step.id}{who}: the bound of {bound} pass{'es' if bound > 1 else ''} "
                    "is reached and the condition to stop is not: the wagers still in action are returned",
                    seat=None if seat is None else seat.number)
            for s in (rnd.seats.values() if seat is None else (seat,)):
                ctx.seat = s
                ctx.void("*", step.cite)
                s.ended = seat is not None or s.ended
            ctx.seat = None
            rnd.stopped = rnd.stopped or seat is None
            return
        if observer is not None:
            observer(step, rnd, passes)
        passes += 1
        rnd.log("repeat", step.cite, f"{step.id}{who}: pass {passes}", seat=None if seat is None else seat.number)
        table._run_steps(ctx, rnd, step.steps, pending)
        if rnd.stopped or (seat is not None and seat.ended):
            return
        ctx.seat = seat
        if cond_until is not None and cond_until(ctx):
            return


EXECUTORS = {
    "announce": dealing.announce,
    "burn": dealing.burn,
    "deal": dealing.deal,
    "reveal": dealing.reveal,
    "decide": decisions.decide,
    "split": decisions.split,
    "offer": decisions.offer,
    "settle": settlement.settle,
    "block": block,
    "envy": settlement.envy,
    "set_hands": paigow.set_hands,
    "roll": dealing.roll,
    "spin": dealing.spin,
    "collect_unwagered": dealing.collect_unwagered,
    "repeat": repeat,
}
