"""The engine's executor of each step kind of the registry (compiler/steps/): ``kind -> fn(table, ctx,
round, step, pending events)``. A test checks that every kind has one and every executor a kind."""
from __future__ import annotations

from compiler.runtime import dealing, decisions, paigow, settlement


def block(table, ctx, rnd, step, pending) -> None:
    """``do: block``: the group's steps, under the block's ``when``."""
    table._run_steps(ctx, rnd, step.steps, pending)


EXECUTORS = {
    "announce": dealing.announce,
    "burn": dealing.burn,
    "deal": dealing.deal,
    "reveal": dealing.reveal,
    "decide": decisions.decide,
    "offer": decisions.offer,
    "settle": settlement.settle,
    "block": block,
    "envy": settlement.envy,
    "set_hands": paigow.set_hands,
    "roll": dealing.roll,
    "spin": dealing.spin,
    "collect_unwagered": dealing.collect_unwagered,
}
