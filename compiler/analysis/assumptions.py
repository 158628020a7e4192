"""What the analysis may and may not assume about a wager, read from the compiled procedure.

Honest by construction: a route that computes a wager's figure states the assumptions it makes,
and each assumption is checked here against the procedure (IR steps). When a check fails the
wager gets no figure, only the reason (``not computed: REASON``).

* :func:`wager_facts`: for every wager, where the rules place it (``place W = ...``: a wager the
  rules create, not one the player puts down before the deal), where a player's choice withdraws
  it (``return W`` / ``surrender W`` in a decision), which settle rules settle it and the flags a
  player's choice sets.
* :func:`paytable_refusal`: whether a wager's result is a function of the cards it is judged on
  alone (win by its paytable, else lose), which is what the paytable enumeration computes.
* :func:`settle_dependencies`: what a settle rule's condition reads besides the player's and the
  community cards (the dealer's cards, flags, other players, amounts wagered).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from compiler.lang.rules import FUNCTIONS, BinOp, BoolOp, Call, Not, Ref

# calls whose value is a function of the cards named in their expression arguments (and of names)
_CARD_CALLS = {"at_least", "is_hand", "category", "hand", "best", "rank", "groups", "category_rank", "count"}
_WAGER_STATE = {"has", "placed"}  # whether the wager judged is present: true wherever its rule applies


@dataclass
class WagerFacts:
    placed_by: list[str] = field(default_factory=list)      # cites of `place W = ...` actions
    withdrawn_by: list[tuple[str, str]] = field(default_factory=list)  # (choice id, cite) that return/surrender W
    chosen_by: list[tuple[str, str]] = field(default_factory=list)  # (choice id, cite) of any choice acting on W
    settled_by: list = field(default_factory=list)           # (settle step, rule, action) settling W
    lose_rules: list = field(default_factory=list)           # rules with `lose W`


def _walk(steps):
    for s in steps:
        yield s
        yield from _walk(s.steps)


def wager_facts(game, steps) -> tuple[dict[str, WagerFacts], dict[str, list[tuple[str, str]]]]:
    """({wager: facts}, {flag: [(choice id, cite)] of the decisions that set it}) over ``steps``."""
    facts = {w: WagerFacts() for w in game.wagers}
    flags: dict[str, list[tuple[str, str]]] = {}
    for s in _walk(steps):
        if s.kind == "decide":
            for c in s.choices:
                for a in c.then:
                    for w in (list(game.wagers) if a.wager == "*" else [a.wager] if a.wager in facts else []):
                        facts[w].chosen_by.append((c.id, c.cite))
                    if a.kind == "set" and a.name:
                        flags.setdefault(a.name, []).append((c.id, c.cite))
                    if a.kind in ("return", "surrender"):
                        targets = list(game.wagers) if a.wager == "*" else [a.wager]
                        for w in targets:
                            if w in facts:
                                facts[w].withdrawn_by.append((c.id, c.cite))
                    if a.kind == "place" and a.wager in facts:
                        facts[a.wager].placed_by.append(c.cite)
        for r in s.rules:
            for a in r.then:
                if a.kind == "place" and a.wager in facts:
                    facts[a.wager].placed_by.append(r.cite)
                if a.wager in facts and (a.kind == "bonus" or s.kind == "settle" and a.kind in (
                        "win", "lose", "push", "return", "surrender")):
                    facts[a.wager].settled_by.append((s, r, a))
                    if a.kind == "lose":
                        facts[a.wager].lose_rules.append(r)
    return facts, flags


def settle_dependencies(node) -> tuple[set[str], set[str]]:
    """(what the condition reads besides player/community cards, options and the wager's presence,
    the flags it reads)."""
    other: set[str] = set()
    flag_names: set[str] = set()

    def visit(n):
        if n is None:
            return
        if isinstance(n, Ref):
            owner = n.parts[0]
            if owner not in ("player", "community"):
                other.add(".".join(n.parts))
        elif isinstance(n, Call):
            if n.name == "flag" and n.args and isinstance(n.args[0], Ref):
                flag_names.add(n.args[0].parts[0])
                return
            if n.name in _WAGER_STATE or n.name == "option":
                return
            if n.name not in _CARD_CALLS:
                other.add(f"{n.name}(...)")
                return
            kinds = FUNCTIONS.get(n.name, ())
            for i, a in enumerate(n.args):
                if i < len(kinds) and kinds[i] == "expr":  # other arguments name a ranking, category, hand
                    visit(a)
        elif isinstance(n, BinOp):
            visit(n.left)
            visit(n.right)
        elif isinstance(n, BoolOp):
            for x in n.items:
                visit(x)
        elif isinstance(n, Not):
            visit(n.item)

    visit(node)
    return other, flag_names


def paytable_refusal(game, facts: WagerFacts, flags, wager: str) -> tuple[str | None, str]:
    """(reason the paytable route cannot give ``wager`` a figure or None, the play it assumes)."""
    name = game.wagers[wager].name
    if facts.placed_by:
        return (f"the {name} is placed by the rules during the round ({'; '.join(sorted(set(facts.placed_by)))}), "
                "not by the player before the deal: its result is not that of a wager judged on its own cards "
                "(a bonus on another wager's result needs the round's analysis)"), ""
    if game.wagers[wager].placed == "during_round":
        return f"the {name} is offered during the round: whether it is made is a decision", ""
    if facts.withdrawn_by:
        return (f"the player may withdraw the {name} ("
                + "; ".join(f"choice {c}, {cite}" for c, cite in facts.withdrawn_by)
                + "): its return depends on when it is withdrawn, a decision the paytable route does not model"), ""
    if not facts.lose_rules:
        return (f"no rule settles the {name} as lost: the hands off its paytable have no stated result, and the "
                "analysis does not assume one"), ""
    assumed = []
    # the dealer's cards a paytable win judges the wager on (a hand of the seat's and the dealer's cards)
    judged, _ = settle_dependencies(BoolOp("and", tuple(a.value for _, _, a in facts.settled_by
                                                        if a.kind == "win" and a.paytable is not None)))
    for _, r, a in facts.settled_by:
        if a.kind == "win" and a.paytable is not None:
            pass
        elif a.kind == "lose":
            pass
        elif a.kind == "bonus":
            return (f"the {name} also earns a bonus ({r.cite}): its return is not its paytable's alone"), ""
        else:
            return (f"the {name} is also settled by '{a.kind}' ({r.cite}): its result is not a function of its "
                    "paytable alone"), ""
        other, fl = settle_dependencies(r.when)
        other -= {x for x in judged if x.startswith("dealer.")}
        if other:
            return (f"the settlement of the {name} ({r.cite}) depends on {', '.join(sorted(other))}, not only on the "
                    "cards it is judged on"), ""
        for f in sorted(fl):
            setters = flags.get(f)
            if not setters or a.kind != "lose":
                return (f"the settlement of the {name} ({r.cite}) depends on the flag '{f}'"
                        + ("" if setters else ", which no player decision sets") + ": not modelled"), ""
            for cid, cite in setters:
                assumed.append(f"the player never chooses '{cid}' ({cite}) with a hand the {name} pays")
    return None, "; ".join(dict.fromkeys(assumed)) or "no player decision affects it"
