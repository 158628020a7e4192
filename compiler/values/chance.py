"""Dice, wheels and chosen numbers as data (no engine): what ``dice.X`` reads of a roll's faces, the
pockets of a wheel declared in a ``spin`` step, and the sets a wager declared with ``choose`` may be
placed on. Read by the spec checks, the rule language, the runtime and the analysis."""
from __future__ import annotations

import itertools
from typing import Any, Mapping, Sequence

__all__ = ["DICE_ATTRS", "dice_attr", "wheel_pockets", "legal_sets", "label_order", "cached"]

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


def cached(kind: str, obj: Any, make) -> Any:
    hit = _CACHE.get((kind, id(obj)))
    if hit is None or hit[0] is not obj:
        hit = _CACHE[(kind, id(obj))] = (obj, make())
    return hit[1]


def wheel_pockets(wheel: Mapping[str, Any]) -> list[dict]:
    """One dict per pocket (segment) of the wheel, in order; ``label`` is a string."""
    return cached("pockets", wheel, lambda: _pockets(wheel))


def _pockets(wheel: Mapping[str, Any]) -> list[dict]:
    out = []
    for p in wheel.get("pockets") or ():
        attrs = {k: v for k, v in p.items() if k != "count"}
        attrs["label"] = str(p["label"])
        out.extend(dict(attrs) for _ in range(int(p.get("count", 1))))
    return out


def legal_sets(choose: Mapping[str, Any], wheel: Mapping[str, Any] | None = None) -> list[tuple[str, ...]]:
    """The sets (sorted tuples of labels) a wager with ``choose`` may be placed on, in a stable order:
    any ``size`` (default 1) distinct values of ``from``; with a ``wheel`` and no ``from``, any ``size``
    pockets (unless only ``shapes`` or ``also`` are given); every rectangle ``[rows, columns]`` of
    ``shapes`` in the wheel's ``grid``; and each set of ``also``."""
    seen: dict[tuple[str, ...], None] = {}

    def add(values) -> None:
        seen.setdefault(tuple(sorted((str(v) for v in values), key=label_order)), None)

    size = int(choose.get("size", 1))
    if "from" in choose:
        for combo in itertools.combinations([str(v) for v in choose["from"]], size):
            add(combo)
    if wheel is not None and "from" not in choose and ("size" in choose or not (choose.get("shapes")
                                                                                or choose.get("also"))):
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


def label_order(label: str):
    """Numbers in numeric order, then the other labels."""
    return (0, int(label), label) if label.lstrip("-").isdigit() else (1, 0, label)
