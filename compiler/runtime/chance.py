"""Chance that is not a card: dice, random number generators, wheels.

Every roll, spin or random number the engine makes goes through one object, ``table.chance``,
implementing :class:`Chance`: ``uniform(n, what)`` gives one of ``n`` equally likely outcomes
(0 .. n-1) and ``what`` says what it is for (``'die'``, ``'number'``, ``'pocket'``) so that the log,
a hand history or an analysis can follow it. The engine's own is :class:`RandomChance` (the
table's seeded PRNG); an analysis substitutes one that branches over every outcome with its exact
probability (1/n), and a hand history's recorded values are read before either is asked.

Also here: :func:`check_chosen`, which refuses a set of numbers a wager declared with ``choose`` cannot
be placed on (its legal sets: :func:`compiler.values.chance.legal_sets`: ``from`` + ``size``, any
combination; ``wheel`` + ``shapes``, rectangles of the wheel's layout grid; ``also``, sets named one by
one). The data of dice and wheels (``dice.X``, a wheel's pockets) is :mod:`compiler.values.chance`.
"""
from __future__ import annotations

import random
from typing import Any, Protocol, Sequence, runtime_checkable

from compiler.values.chance import DICE_ATTRS, cached, dice_attr, label_order, legal_sets, wheel_pockets

__all__ = ["Chance", "EnumeratingChance", "RandomChance", "first_set", "sets_of", "wheel_pockets", "legal_sets",
           "check_chosen", "find_step", "DICE_ATTRS", "dice_attr"]


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


def find_step(procedure, step_id: str):
    for s in procedure:
        if s.id == step_id:
            return s
        found = find_step(s.steps, step_id)
        if found is not None:
            return found
    return None


def sets_of(game, wager: str) -> list[tuple[str, ...]]:
    """Every legal set of a wager declared with ``choose``, in the order of its declaration."""
    wd = game.wagers[wager]
    wheel = None
    if wd.choose.get("wheel"):
        step = find_step(game.procedure, wd.choose["wheel"])
        wheel = step.params.get("wheel") if step is not None else None
    return list(legal_sets(wd.choose, wheel))


def first_set(game, wager: str) -> tuple[str, ...]:
    """The first legal set of a wager declared with ``choose`` (a default for simulations and analyses)."""
    sets = sets_of(game, wager)
    if not sets:
        wd = game.wagers[wager]
        raise ValueError(f"the {wd.name} has no legal set of numbers ({wd.cite})")
    return sets[0]


def check_chosen(wd, values: Sequence[Any], procedure) -> tuple[str, ...]:
    """The chosen set of wager ``wd`` as placed, or ValueError saying why it is not one of its legal sets."""
    choose = wd.choose
    if not choose:
        raise ValueError(f"the {wd.name} is not placed on chosen numbers ({wd.cite})")
    wheel = None
    if choose.get("wheel"):
        step = find_step(procedure, choose["wheel"])
        wheel = step.params.get("wheel") if step is not None else None
    legal = cached("sets", wd, lambda: set(legal_sets(choose, wheel)))
    given = tuple(sorted((str(v) for v in values), key=label_order))
    if given not in legal:
        legal = legal_sets(choose, wheel)
        example = ", ".join("[" + ", ".join(s) + "]" for s in legal[:3])
        raise ValueError(f"the {wd.name} cannot be placed on [{', '.join(given)}]: it takes one of "
                         f"{len(legal)} sets, e.g. {example} ({wd.cite})")
    return given
class EnumeratingChance:
    """A chance that an analysis substitutes to enumerate every outcome (each with probability 1/n): the
    engine asks it even on a scripted table, where a hand history's values are otherwise required."""

    def uniform(self, n: int, what: str) -> int:  # pragma: no cover - implemented by each analysis
        raise NotImplementedError
