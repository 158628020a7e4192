"""Chance that is not a card: dice, random number generators, wheels.

Every roll, spin or random number the engine makes goes through one object, ``table.chance``,
implementing :class:`Chance`: ``uniform(n, what)`` gives one of ``n`` equally likely outcomes
(0 .. n-1) and ``what`` says what it is for (``'die'``, ``'number'``, ``'pocket'``) so that the log,
a hand history or an analysis can follow it. The engine's own is :class:`RandomChance` (the
table's seeded PRNG); an analysis substitutes one that branches over every outcome with its exact
probability (1/n), and a hand history's recorded values are read before either is asked.
"""
from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

__all__ = ["Chance", "EnumeratingChance", "RandomChance"]


@runtime_checkable
class Chance(Protocol):
    def uniform(self, n: int, what: str) -> int:
        """One of ``n`` equally likely outcomes, 0 .. n-1."""
        ...


class RandomChance:
    """The table's pseudo-random chance (seeded for reproducible simulation)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def uniform(self, n: int, what: str) -> int:
        return self.rng.randrange(n)


class EnumeratingChance:
    """A chance that an analysis substitutes to enumerate every outcome (each with probability 1/n): the
    engine asks it even on a scripted table, where a hand history's values are otherwise required."""

    def uniform(self, n: int, what: str) -> int:  # pragma: no cover - implemented by each analysis
        raise NotImplementedError
