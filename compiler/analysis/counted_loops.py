"""Deals written as a loop, read as the deals they make (no chapter knowledge here).

A regulation may deal "one card at a time to each player and to the dealer until each has five cards";
a chapter writes that as it says, a ``repeat`` of ``deal`` steps that stops on the number of cards dealt
(``until: count(dealer.hand) == 5``). Such a loop makes the same number of passes in every round: its steps
deal fixed counts to fixed zones, nothing is decided, settled or revealed between them, and its condition
reads only numbers of cards. :func:`unroll_counted_deals` gives the chapter with each such loop replaced by
its passes (the same steps, once per pass), so the exact methods that read deal steps read it; the game
the engine plays is unchanged (it runs the loop itself). A loop that is not of this shape is left as it is,
and the methods refuse it by name as before.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from compiler.lang.syntax import BinOp, BoolOp, Call, Lit, Neg, Not, Ref

_DEAL_KINDS = ("deal", "burn")
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


class _NotCounted(Exception):
    """The loop's condition reads something other than numbers of cards."""


def _zone_key(s) -> tuple[str, str] | None:
    p = dict(s.params)
    to = p.get("to", "players")
    return None if to not in ("dealer", "community", "players") else (to, p.get("zone", "cards"))


def _cards_of(node, counts: dict) -> int:
    """The number of cards of a zone reference (``dealer.hand``, ``community``) or a sum of them."""
    if isinstance(node, BinOp) and node.op == "+":
        return _cards_of(node.left, counts) + _cards_of(node.right, counts)
    if isinstance(node, Ref) and node.parts[0] in ("dealer", "community"):
        owner = node.parts[0]
        zone = node.parts[1] if len(node.parts) > 1 else "cards"
        if zone == "cards":
            return sum(n for (o, _), n in counts.items() if o == owner)
        return counts.get((owner, zone), 0)
    raise _NotCounted


def _value(node, counts: dict):
    """The value of a loop condition from the numbers of cards dealt (``counts``: (owner, zone) -> n)."""
    if isinstance(node, Lit) and isinstance(node.value, (int, bool, Fraction)):
        return node.value
    if isinstance(node, Call) and node.name == "count" and len(node.args) == 1:
        return _cards_of(node.args[0], counts)
    if isinstance(node, Not):
        return not _value(node.item, counts)
    if isinstance(node, Neg):
        return -_value(node.item, counts)
    if isinstance(node, BoolOp):
        vals = [bool(_value(x, counts)) for x in node.items]
        return all(vals) if node.op == "and" else any(vals)
    if isinstance(node, BinOp) and node.op in _COMPARE:
        return _COMPARE[node.op](_value(node.left, counts), _value(node.right, counts))
    if isinstance(node, BinOp) and node.op in _ARITH:
        return _ARITH[node.op](_value(node.left, counts), _value(node.right, counts))
    raise _NotCounted


def _passes(loop, counts: dict) -> int | None:
    """How many passes a counted deal loop makes from ``counts`` (updated), or None when it is not one."""
    body = loop.steps
    if loop.players is not None or loop.when is not None or not body:
        return None
    if any(s.kind not in _DEAL_KINDS or s.when is not None or s.players is not None or s.steps for s in body):
        return None
    if any(s.kind == "deal" and _zone_key(s) is None for s in body):
        return None
    conds = {k: v for k, v, _ in loop.exprs}
    cond_while, cond_until = conds.get("while"), conds.get("until")
    bound = int(dict(loop.params)["bound"])
    passes = 0
    try:
        while passes < bound:
            if cond_while is not None and not _value(cond_while, counts):
                return passes
            for s in body:
                if s.kind == "deal":
                    key = _zone_key(s)
                    counts[key] = counts.get(key, 0) + int(dict(s.params).get("count", 1))
            passes += 1
            if cond_until is not None and _value(cond_until, counts):
                return passes
    except _NotCounted:
        return None
    return None  # the bound reached: an irregularity of the round, not a fixed deal


def _unrolled(steps, counts: dict) -> tuple[list, bool]:
    """The steps with each counted deal loop replaced by its passes, whether any was; ``counts``: the cards
    dealt before the first step, (owner, zone) -> n, updated. A block is entered with the counts before it
    (when it is taken, they are those); after it, and after any loop not counted, the counts are unknown."""
    out, changed = [], False
    for s in steps:
        if s.kind == "deal" and s.when is None and s.players is None and _zone_key(s) is not None:
            key = _zone_key(s)
            counts[key] = counts.get(key, 0) + int(dict(s.params).get("count", 1))
        elif s.kind == "repeat":
            n = _passes(s, dict(counts))
            if n is not None:
                _passes(s, counts)
                out.extend(s.steps * n)
                changed = True
                continue
            counts.clear()
        elif s.kind == "block":
            inner, inner_changed = _unrolled(s.steps, dict(counts))
            counts.clear()
            if inner_changed:
                out.append(dataclasses.replace(s, steps=tuple(inner)))
                changed = True
                continue
        elif s.kind not in ("settle", "decide", "reveal", "announce", "burn"):
            counts.clear()  # a conditional deal, another step: the numbers of cards are no longer known
        out.append(s)
    return out, changed


def unroll_counted_deals(chapter):
    """The chapter with each counted deal loop of its procedure replaced by its passes (the chapter itself when
    it has none). Cards dealt before a loop are counted from the deal steps with no condition before it."""
    if not any(s.kind == "repeat" for s in chapter.all_steps()):
        return chapter
    out, changed = _unrolled(chapter.procedure, {})
    return dataclasses.replace(chapter, procedure=tuple(out)) if changed else chapter
