"""Checks of dice and wheels that the JSON Schema cannot express (called by compiler.spec.checks):

* a ``spin`` step's wheel: labels given twice, a pocket missing an attribute the others declare (every
  pocket declares the same attributes, so that ``pocket.X`` is never undefined), a grid cell that is no
  pocket's label;
* a wager's ``choose``: a ``wheel`` that names no ``spin`` step, ``shapes`` without a wheel's grid or that
  fit nowhere in it, a ``size`` larger than its ``from``, values given twice, an ``also`` set with a
  value that is neither in ``from`` nor a pocket of the wheel, and a ``choose`` with no legal set.
"""
from __future__ import annotations

from typing import Any, Callable

from compiler.spec.diagnostics import escape_token
from compiler.values.chance import legal_sets


def _spins(steps, ptr: str, out: dict) -> dict:
    for i, s in enumerate(steps or ()):
        if not isinstance(s, dict):
            continue
        if s.get("do") == "spin" and isinstance(s.get("wheel"), dict) and isinstance(s.get("id"), str):
            out[s["id"]] = (s["wheel"], f"{ptr}/{i}/wheel")
        _spins(s.get("steps"), f"{ptr}/{i}/steps", out)
    return out


def check_chance(data: dict, error: Callable[[str, str], None]) -> None:
    spins = _spins(data.get("procedure"), "/procedure", {})
    labels_of: dict[str, set[str]] = {}
    for sid, (wheel, ptr) in spins.items():
        pockets = [p for p in wheel.get("pockets") or () if isinstance(p, dict)]
        attrs = set().union(*(set(p) - {"count"} for p in pockets)) if pockets else set()
        seen: set[str] = set()
        for i, p in enumerate(pockets):
            label = str(p.get("label"))
            if label in seen:
                error(f"{ptr}/pockets/{i}/label", f"pocket {label!r} is given twice on the wheel of step {sid!r} "
                                                  "(equal segments are one pocket with `count`)")
            seen.add(label)
            missing = sorted(attrs - set(p))
            if missing:
                error(f"{ptr}/pockets/{i}", f"pocket {label!r} does not declare {', '.join(missing)}: every pocket "
                                            "of a wheel declares the same attributes (pocket.X is read of any pocket)")
        labels_of[sid] = seen
        for r, row in enumerate(wheel.get("grid") or ()):
            for c, cell in enumerate(row if isinstance(row, list) else ()):
                if str(cell) not in seen:
                    error(f"{ptr}/grid/{r}/{c}", f"the grid's {cell!r} is no pocket of the wheel of step {sid!r}")
    for wid, w in (data.get("wagers") or {}).items():
        ch = w.get("choose") if isinstance(w, dict) else None
        if not isinstance(ch, dict):
            continue
        base = f"/wagers/{escape_token(wid)}/choose"
        _check_choose(ch, base, spins, labels_of, error)


def _check_choose(ch: dict, base: str, spins: dict, labels_of: dict, error) -> None:
    wheel = None
    if "wheel" in ch:
        if ch["wheel"] not in spins:
            error(f"{base}/wheel", f"{ch['wheel']!r} is no `spin` step of the procedure"
                                   + (f" (its spin steps: {', '.join(sorted(spins))})" if spins else ""))
            return
        wheel = spins[ch["wheel"]][0]
    if ch.get("shapes") and not (wheel and wheel.get("grid")):
        error(f"{base}/shapes", "shapes are rectangles of a wheel's grid: name a `wheel` whose spin step has a `grid`")
        return
    pool: set[str] = set(labels_of.get(ch.get("wheel"), ()))
    if "from" in ch:
        vals = [str(v) for v in ch["from"]]
        if len(set(vals)) != len(vals):
            error(f"{base}/from", "a value is given twice")
        pool |= set(vals)
        if int(ch.get("size", 1)) > len(set(vals)):
            error(f"{base}/size", f"size {ch.get('size')} is more than the {len(set(vals))} values of `from`")
    for i, extra in enumerate(ch.get("also") or ()):
        bad = [v for v in extra if str(v) not in pool]
        if bad and pool:
            error(f"{base}/also/{i}", f"{bad[0]!r} is neither a value of `from` nor a pocket of the wheel")
    grid = [[str(c) for c in row] for row in (wheel or {}).get("grid") or ()]
    for i, shape in enumerate(ch.get("shapes") or ()):
        rows, cols = shape
        if not legal_sets({"shapes": [shape]}, {"grid": grid}):
            error(f"{base}/shapes/{i}", f"a rectangle of {rows} row{'s' if rows > 1 else ''} and {cols} column"
                                        f"{'s' if cols > 1 else ''} fits nowhere in the grid")
    if not legal_sets(ch, wheel):
        error(base, "no set of numbers can be chosen: give `from` with `size`, a `wheel`, `shapes` or `also`")


__all__ = ["check_chance"]
