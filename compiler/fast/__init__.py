"""The fast path: a chapter's procedure compiled from its IR into vectorised numpy operations that
play many tables at once (no log, integer cents). See docs/speed.md.

    from compiler.fast import compile_fast, Unsupported
    fast = compile_fast(chapter, game, options)       # raises Unsupported(reason) where it cannot
    out = fast.play(seeds, rounds, seats, bets, prefer)

The faithful, logged engine (compiler/runtime/engine.py) stays the reference: the tests play the
same seeded shoes through both and compare every settlement.
"""
from compiler.fast.vector import FastGame, Unsupported, compile_fast

__all__ = ["FastGame", "Unsupported", "compile_fast"]
