"""The Markov chain method and wagers a player may have several of (``several: true``): one instance is valued,
right only when the instances do not interact (:func:`several_refusal`); :class:`FirstInstance` makes one.

A Craps Come wager (an instance made after every roll, each with its own point) and a Place wager on a chosen
number (an instance on each number, ``several`` with ``choose``) are valued so: the chain follows one instance
alone, per chosen set where it is placed on chosen numbers (``markov._wager_chain``).
"""
from __future__ import annotations

from decimal import Decimal

from compiler.ir.model import walk_steps as walk
from compiler.ir.several import in_actions, in_expr, returns_every
from compiler.lang.syntax import BoolOp, Call, Ref
from compiler.runtime.engine import FixedStrategy


def several_refusal(game, chapter, offered=None) -> str | None:
    """A wager a player may have several of (``several: true``) is valued one instance at a time: right only when
    its instances do not interact. They do not when every rule run per instance acts on that instance alone (its
    outcome, the state it keeps, a note), a decide step's choice acts on them only by returning every one in
    action (taking them down: each is returned as it would be alone) or is taken per instance (``each: W``: it
    reads and acts on that instance alone, as it would were it alone), a step's ``when`` or ``players`` reads the
    wager only as a ``has(W)`` that must hold (true for an instance in action, alone or not: :func:`_gate`), and
    nothing else reads it; anything else is refused, naming the rule."""
    several = {w: d.keeps for w, d in game.wagers.items() if d.several and (offered is None or offered(w))}
    if not several:
        return None
    for s in walk(chapter.procedure):
        for r in s.rules:
            if r.each in several:
                bad = next((a for a in r.then if a.kind not in ("note", "set_state") and a.wager != r.each
                            or a.kind == "set_state" and a.name not in several[r.each]), None)
                if bad is not None:
                    return (f"step {s.id!r} ({r.cite}): a rule run once per instance of {r.each!r} acts on more than "
                            f"that instance ({bad.kind} {bad.wager or bad.name}), so its instances interact, which the "
                            "Markov chain method (one instance valued) does not model")
                continue
            hits = in_expr(r.when, several) + in_actions(r.then, several)
            if hits:
                return _across(s, r.cite, hits[0])
        each = dict(s.params).get("each") if s.kind == "decide" else None
        for c in s.choices:  # a choice per instance (each: W) reads and acts on that instance alone, as a rule would
            hits = in_expr(c.when, several) + [h for h in in_actions(c.then, several) if not returns_every(h)]
            hits = [h for h in hits if h[0] != each]
            if hits:
                return _across(s, c.cite, hits[0])
        for e in (*(n for _, n, _ in s.exprs),):
            hits = in_expr(e, several)
            if hits:
                return _across(s, s.cite, hits[0])
        for e in (s.when, s.players):
            hit = _gate(e, several)
            if hit:
                return _across(s, s.cite, hit)
    return None


def _gate(e, several):
    """The first reading of a wager of several in a step's ``when`` or ``players`` other than a ``has(W)`` that
    must hold (the expression itself, or one of the terms of an ``and``), or None."""
    if e is None:
        return None

    def has(x) -> bool:
        return isinstance(x, Call) and x.name == "has" and len(x.args) == 1 and isinstance(x.args[0], Ref) \
            and x.args[0].parts[0] in several
    terms = e.items if isinstance(e, BoolOp) and e.op == "and" else (e,)
    hits = [h for t in terms if not has(t) for h in in_expr(t, several)]
    return hits[0] if hits else None


def _across(s, cite: str, hit) -> str:
    return (f"step {s.id!r} ({cite}): '{hit[1]}' reads the instances of {hit[0]!r} together (a wager of several), "
            "so they interact, which the Markov chain method (one instance valued) does not model")


class FirstInstance(FixedStrategy):
    """Offers taken as :class:`FixedStrategy` takes them, but a wager of several instances only while the seat has
    none placed in the round nor carried into it: one instance is valued (:func:`several_refusal`)."""

    def __init__(self, prefer, offers, several):
        super().__init__(prefer, offers=offers)
        self.several, self.made = several, set()

    def offer(self, wager, view):
        if wager in self.several:
            if wager in self.made or any(k.partition("#")[0] == wager for k in view.wagers):
                return Decimal(0)
            self.made.add(wager)
        return super().offer(wager, view)
