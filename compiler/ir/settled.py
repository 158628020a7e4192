"""A rule naming a wager an earlier rule has settled already (issue 23 item 7): the engine does nothing for it
(a wager is settled once: ``compiler.runtime.context``, "not placed or already settled"), so it would read as if
it acted while it never can; a lost split hand hid behind such a rule. ``validate`` refuses it with both
positions where the earlier settlement must have happened on every path to the later rule:

* in one step (:func:`settled_by_an_earlier_rule`): the earlier rule's condition is part of the later one's and
  reads nothing settling changes;
* across steps (:func:`settled_in_an_earlier_step`): the steps of one sequence (the procedure, or the steps of
  one block or loop) in order; a settle step with no ``when`` or ``players`` whose rule has no ``when`` settles
  the wager (``all``: every wager) for every player reaching it; every later rule or choice naming it is refused,
  unless a step between may place it again (an ``offer`` or ``split`` of it, a ``place``). A loop's steps start
  with what they may place forgotten (a later pass may follow such a placement), and what a block or a loop
  settles is not carried out of it (it may not run).
"""
from __future__ import annotations

from compiler.ir.model import Rule
from compiler.lang.syntax import BoolOp, Call, Ref, nodes, source

SETTLES = ("win", "lose", "push", "return", "surrender")
ALL = "*"


def said(a) -> str:
    word = "return" if a.kind == "return" else a.kind
    return f"{word} {'all' if a.wager == ALL else a.wager}"


# what a condition may read that a settle step changes while it runs: the wagers' state, flags, round state
_CHANGING_READS = frozenset({"has", "placed", "wager", "active", "flag"})
_CHANGING_ACTIONS = frozenset({"set", "clear", "set_state", "place", "end", "void_round", "reshuffle",
                               "remove_deck", "discard_card", "use_card", "bonus"})


def _conjuncts(rule) -> frozenset | None:
    """The conjuncts of a rule's condition as rule-language text (None: a condition that did not parse, or
    reads what a settle step changes while it runs, so it may hold at one rule and not at a later one)."""
    node = rule.when
    if node is None:
        return frozenset() if rule.when_text is None else None
    if any((isinstance(n, Call) and n.name in _CHANGING_READS) or (isinstance(n, Ref) and n.parts[0] == "state")
           for n in nodes(node)):
        return None
    items = node.items if isinstance(node, BoolOp) and node.op == "and" else (node,)
    return frozenset(source(x) for x in items)


def settled_by_an_earlier_rule(rules) -> list[tuple[int, object, Rule]]:
    """(index, action, earlier rule) for each action of a settle rule naming a wager that an earlier rule of
    the same step always settles first: the earlier rule's condition is part of this one's (so it held
    too, and nothing between them changed what it reads), and it settles that wager (or ``all``). The
    action could never apply: issue 23 item 7 (a lost split hand hidden by a silently skipped rule)."""
    out = []
    for j, b in enumerate(rules):
        cb = _conjuncts(b)
        if cb is None:
            continue
        for act in b.then:
            if act.kind not in SETTLES or act.wager in (None, "*"):
                continue
            for i in range(j - 1, -1, -1):
                a = rules[i]
                if any(x.kind in _CHANGING_ACTIONS for x in a.then):
                    break
                ca = _conjuncts(a)
                if ca is not None and ca <= cb and any(x.kind in SETTLES and x.wager in (act.wager, "*")
                                                       for x in a.then):
                    out.append((j, act, a))
                    break
    return out


def _placed_by(steps) -> set:
    """The wagers the steps may place again (their loops' and blocks' steps too): an offer's or a split's wager, and
    every `place` of their rules and choices."""
    out: set = set()
    for s in steps:
        out |= {v for k, v in s.params if k == "wager" and s.kind in ("offer", "split") and isinstance(v, str)}
        for x in (*s.rules, *s.choices):
            out |= {a.wager for a in x.then if a.kind == "place" and a.wager}
        out |= _placed_by(s.steps)
    return out


def settled_in_an_earlier_step(procedure, wagers=()) -> list[tuple[str, object, Rule]]:
    """(pointer of the later ``then``, action, earlier rule) for each settling action of a rule or choice naming a
    wager an earlier step of its sequence always settles (the module's doc); ``wagers``: every wager of the chapter
    (what ``all`` settles). The action could never apply."""
    out: list = []
    _sequence(procedure, {}, tuple(wagers), out)
    return out


def _sequence(steps, always: dict, wagers: tuple, out: list) -> None:
    for s in steps:
        if s.steps:
            inner = dict(always)
            for w in _placed_by(s.steps) if s.kind == "repeat" else ():
                inner.pop(w, None)
            _sequence(s.steps, inner, wagers, out)
        for key, items in (("rules", s.rules), ("choices", s.choices)):
            for j, r in enumerate(items):
                out.extend((f"{s.src.pointer}/{key}/{j}/then", a, always[a.wager]) for a in r.then
                           if a.kind in SETTLES and a.wager in always)
                for a in r.then if key == "rules" else ():  # placed again: the step's later rules may settle it
                    if a.kind == "place":
                        always.pop(a.wager, None)
        if s.kind == "settle" and s.when_text is None and s.players_text is None:
            for r in s.rules:
                for a in r.then if r.when_text is None else ():
                    if a.kind in SETTLES and a.wager is not None:
                        for w in (wagers if a.wager == ALL else (a.wager,)):
                            always.setdefault(w, r)
        for w in _placed_by((s,)):
            always.pop(w, None)
