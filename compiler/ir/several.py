"""Wagers a player may have several of at once (``several: true``: a Craps Come wager made after every roll
while earlier ones, each with its own point, stay in action; docs/rule-language.md "Several of one wager").

Each placement makes a new *instance* with its own copy of the per-player state the wager ``keeps``. A rule
of a ``settle`` step that reads or settles such a wager (``has(W)``, ``placed(W)``, ``wager(W)``, ``win W``,
...) or reads or sets the state it keeps (``state.come_point``) runs once per instance in action, reading and
setting that instance's own state: :func:`instance_wager` names the wager it runs for (``Rule.each``).
Elsewhere a condition may ask ``has(W)`` (any instance in action) and ``placed(W)`` (one placed in the round
or carried into it); anything that would have to pick one instance (its amount, its kept state, settling
it, an ``equal_to`` of it) is refused here, at validate, with its position: it would not say which. A
decide step's choice may ``return W``: every instance in action is returned (a player taking the Place wagers
down). A decide step with ``each: W`` is taken once per instance of ``W`` in action instead, its choices reading
and acting on that instance alone (a player taking down the Place wager on one number):
:func:`per_instance_choice`. A wager of several may be placed on chosen numbers (``choose``): each instance has
its own.
"""
from __future__ import annotations

from typing import Iterable

from compiler.lang.syntax import Call, Ref, nodes

READS = ("has", "placed", "wager", "hits", "matched", "picked")  # functions that read one wager of a player
ANY_INSTANCE = ("has", "placed")  # readable outside a rule run per instance: any instance


def declared(data) -> dict[str, tuple[str, ...]]:
    """wager id -> the state it keeps, for every wager declared ``several: true``."""
    return {k: tuple(w.get("keeps") or ()) for k, w in (data.get("wagers") or {}).items()
            if isinstance(w, dict) and w.get("several") is True}


def _keeper(several) -> dict[str, str]:
    return {k: w for w, ks in several.items() for k in ks}


def in_expr(node, several) -> list[tuple[str, str, int, int]]:
    """(wager, what, line, column) for each reading of a wager of several instances, or of the state one
    keeps, in an expression."""
    if node is None or not several:
        return []
    keeper, out = _keeper(several), []
    for x in nodes(node):
        if isinstance(x, Call) and x.name in READS and x.args and isinstance(x.args[0], Ref) \
                and x.args[0].parts[0] in several:
            w = x.args[0].parts[0]
            out.append((w, f"{x.name}({w})", x.line, x.column))
        elif isinstance(x, Ref) and len(x.parts) == 2 and x.parts[0] == "state" and x.parts[1] in keeper:
            out.append((keeper[x.parts[1]], f"state.{x.parts[1]}", x.line, x.column))
    return out


def in_actions(actions: Iterable, several) -> list[tuple[str, str, int, int]]:
    """The same for the actions of a ``then``: settling such a wager, setting the state it keeps, and what the
    actions' values read (``place W`` makes a new instance: it names none)."""
    if not several:
        return []
    keeper, out = _keeper(several), []
    for a in actions:
        if a.wager in several and a.kind != "place":
            out.append((a.wager, f"{'return' if a.kind == 'return' else a.kind} {a.wager}", a.line, a.column))
        if a.kind == "set_state" and a.name in keeper:
            out.append((keeper[a.name], f"set {a.name}", a.line, a.column))
        out.extend(in_expr(a.value, several))
    return out


def instance_wager(when_hits, then_hits) -> tuple[str | None, list[tuple[str, int, int, bool]]]:
    """The wager a settle rule runs once per instance for (None: an ordinary rule), and its problems
    (message, line, column, in ``then``): a rule naming two wagers of several instances."""
    hits = [(h, False) for h in when_hits] + [(h, True) for h in then_hits]
    if not hits:
        return None, []
    first = hits[0][0][0]
    for (w, what, line, col), in_then in hits:
        if w != first:
            return first, [(f"'{what}': this rule already runs once per instance of {first!r} (a wager declared "
                            f"several: true); it cannot also read or settle {w!r}, another such wager: write one "
                            "rule for each", line, col, in_then)]
    return first, []


def per_instance_choice(when_hits, then_hits, each: str) -> list[tuple[str, int, int, bool]]:
    """Problems (message, line, column, in ``then``) of a choice of a decision taken once per instance of ``each``
    (``decide`` with ``each``): it reads and acts on that instance (``picked(place, 6)``, ``return place``), and
    names no other wager of several instances."""
    hits = [(h, False) for h in when_hits] + [(h, True) for h in then_hits]
    return [(f"'{what}': this decision is taken once per instance of {each!r} (each: {each}); it cannot also read "
             f"or settle {w!r}, another wager a player may have several of", line, col, in_then)
            for (w, what, line, col), in_then in hits if w != each]


def returns_every(hit) -> bool:
    """A ``return W`` of a decide step's choice: it returns every instance of ``W`` in action (a player taking
    the Place wagers down), which names no one instance."""
    return hit[1] == f"return {hit[0]}"


def outside(hits, where: str, allow_any: bool = True) -> list[tuple[str, int, int]]:
    """Problems (message, line, column) of readings outside a settle rule (``where``: what holds them): only
    ``has`` and ``placed`` (any instance) may be read there."""
    out = []
    for w, what, line, col in hits:
        if allow_any and what.split("(")[0] in ANY_INSTANCE and what.endswith(")"):
            continue
        out.append((f"'{what}' in {where}: {w!r} is a wager a player may have several of (several: true), and only "
                    "a rule of a settle step, run once per instance, reads its amount, its kept state or settles "
                    "it; here it would not say which instance (has() and placed() read any instance)", line, col))
    return out


def data_problems(data) -> list[tuple[str, str]]:
    """(pointer, message) of wager declarations a wager of several instances cannot have."""
    out = []
    for wid in declared(data):
        w = data["wagers"][wid]
        for key, why in (("required", "a required wager is placed once, before the round"),
                         ("progressive", "a progressive meter's contribution is one per wager"),
                         ("stays", "with 'choose' too, an instance carried into the next round would be given "
                          "by its amount alone, without its numbers")):
            if w.get(key) and (key != "stays" or w.get("choose")):
                out.append((f"/wagers/{wid}/{key}", f"wager {wid!r} is declared several: true, which '{key}' "
                            f"cannot go with: {why}"))
    return out
