"""Chance that is not a card: dice, random number generators, wheels.

Every roll, spin or random number the engine makes goes through one object, ``table.chance``,
implementing :class:`Chance`: ``uniform(n, what)`` gives one of ``n`` equally likely outcomes
(0 .. n-1) and ``what`` says what it is for (``'die'``, ``'number'``, ``'pocket'``) so that the log,
a hand history or an analysis can follow it. The engine's own is :class:`RandomChance` (the
table's seeded PRNG); an analysis substitutes one that branches over every outcome with its exact
probability (1/n), and a hand history's recorded values are read before either is asked.

Also here, as data the rules read:

* :func:`wheel_pockets`: a wheel declared in a ``spin`` step (``wheel: {pockets: [...], grid: [...]}``),
  one entry per pocket (a pocket with ``count: N`` stands for N equal segments of a Big Six wheel);
* :func:`legal_sets`: the sets of numbers or pockets a wager declared with ``choose`` may be placed on
  (``from`` + ``size``: any combination; ``wheel`` + ``shapes``: rectangles of the wheel's layout grid;
  ``also``: further sets named one by one), and :func:`check_chosen`, which refuses any other.
"""
from __future__ import annotations

import itertools
import random
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

__all__ = ["Chance", "RandomChance", "wheel_pockets", "legal_sets", "check_chosen", "find_step",
           "DICE_ATTRS", "dice_attr"]


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


# what `dice.X` reads of the latest roll of dice (docs/rule-language.md "Dice and wheels")
DICE_ATTRS = {
    "total": "the sum of the faces",
    "count": "how many dice were rolled",
    "distinct": "how many different faces show",
    "doubles": "true when at least two dice show the same face",
    "triple": "true when three or more dice were rolled and all show the same face",
    "high": "the highest face",
    "low": "the lowest face",
}


def dice_attr(faces: Sequence[int], name: str) -> Any:
    if name == "total":
        return sum(faces)
    if name == "count":
        return len(faces)
    if name == "distinct":
        return len(set(faces))
    if name == "doubles":
        return len(set(faces)) < len(faces)
    if name == "triple":
        return len(faces) >= 3 and len(set(faces)) == 1
    if name == "high":
        return max(faces)
    if name == "low":
        return min(faces)
    raise KeyError(name)


# computed once per declaration (keyed by the object's id; the object is kept so that the id stays its own)
_CACHE: dict[tuple[str, int], tuple[Any, Any]] = {}


def _cached(kind: str, obj: Any, make) -> Any:
    hit = _CACHE.get((kind, id(obj)))
    if hit is None or hit[0] is not obj:
        hit = _CACHE[(kind, id(obj))] = (obj, make())
    return hit[1]


def wheel_pockets(wheel: Mapping[str, Any]) -> list[dict]:
    """One dict per pocket (segment) of the wheel, in order; ``label`` is a string."""
    return _cached("pockets", wheel, lambda: _pockets(wheel))


def _pockets(wheel: Mapping[str, Any]) -> list[dict]:
    out = []
    for p in wheel.get("pockets") or ():
        attrs = {k: v for k, v in p.items() if k != "count"}
        attrs["label"] = str(p["label"])
        out.extend(dict(attrs) for _ in range(int(p.get("count", 1))))
    return out


def find_step(procedure, step_id: str):
    for s in procedure:
        if s.id == step_id:
            return s
        found = find_step(s.steps, step_id)
        if found is not None:
            return found
    return None


def legal_sets(choose: Mapping[str, Any], wheel: Mapping[str, Any] | None = None) -> list[tuple[str, ...]]:
    """The sets (sorted tuples of labels) a wager with ``choose`` may be placed on, in a stable order."""
    seen: dict[tuple[str, ...], None] = {}

    def add(values) -> None:
        seen.setdefault(tuple(sorted((str(v) for v in values), key=_order)), None)

    size = int(choose.get("size", 1))
    if "from" in choose:
        for combo in itertools.combinations([str(v) for v in choose["from"]], size):
            add(combo)
    if wheel is not None and "shapes" not in choose and "from" not in choose:
        labels = list(dict.fromkeys(p["label"] for p in wheel_pockets(wheel)))
        for combo in itertools.combinations(labels, size):
            add(combo)
    grid = [[str(c) for c in row] for row in (wheel or {}).get("grid") or ()]
    for rows, cols in choose.get("shapes") or ():
        for r in range(len(grid) - rows + 1):
            for c in range(min(len(x) for x in grid[r:r + rows]) - cols + 1):
                add(grid[r + i][c + j] for i in range(rows) for j in range(cols))
    for extra in choose.get("also") or ():
        add(extra)
    return list(seen)


def _order(label: str):
    return (0, int(label), label) if label.lstrip("-").isdigit() else (1, 0, label)


def check_chosen(wd, values: Sequence[Any], procedure) -> tuple[str, ...]:
    """The chosen set of wager ``wd`` as placed, or ValueError saying why it is not one of its legal sets."""
    choose = wd.choose
    if not choose:
        raise ValueError(f"the {wd.name} is not placed on chosen numbers ({wd.cite})")
    wheel = None
    if choose.get("wheel"):
        step = find_step(procedure, choose["wheel"])
        wheel = step.params.get("wheel") if step is not None else None
    legal = _cached("sets", wd, lambda: set(legal_sets(choose, wheel)))
    given = tuple(sorted((str(v) for v in values), key=_order))
    if given not in legal:
        legal = legal_sets(choose, wheel)
        example = ", ".join("[" + ", ".join(s) + "]" for s in legal[:3])
        raise ValueError(f"the {wd.name} cannot be placed on [{', '.join(given)}]: it takes one of "
                         f"{len(legal)} sets, e.g. {example} ({wd.cite})")
    return given
