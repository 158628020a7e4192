"""The rule language's names: what a rulespec declares (:class:`Names`) and the check of every
name a parsed rule uses (:func:`check_expr`, :func:`check_actions`), with suggestions."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from compiler.lang.syntax import BinOp, BoolOp, Call, Lit, Neg, Node, Not, Ref

# function name -> kinds of its arguments ('expr', or a namespace whose name it takes)
FUNCTIONS: dict[str, tuple[str, ...]] = {
    "hand": ("ranking", "expr"),
    "best": ("ranking", "expr"),
    "category": ("expr",),
    "at_least": ("ranking", "expr", "category", "rank?"),
    "is_hand": ("ranking", "expr", "hand"),
    "has": ("wager",),
    "placed": ("wager",),
    "wager": ("wager",),
    "flag": ("flag",),
    "chose": ("decision", "choice"),
    "option": ("option",),
    "offered": ("wager",),
    "active": (),
    "count": ("expr",),
    "any_player": ("lambda",),
    "count_players": ("lambda",),
    # pai gow (setting hands, house ways): see docs/rule-language.md "House ways"
    "rank": ("ranking", "expr"),
    "groups": ("ranking", "expr", "expr"),
    "category_rank": ("expr",),
    "can": ("lambda",),
}
OWNERS = ("player", "dealer", "community", "event", "round", "setting", "state")
SETTING_PARTS = ("high", "low", "cards")


@dataclass
class Names:
    """What a spec declares, for resolving the names used in its rules."""

    rankings: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    hands: set[str] = field(default_factory=set)
    wagers: set[str] = field(default_factory=set)
    payouts: set[str] = field(default_factory=set)
    paytables: set[str] = field(default_factory=set)
    options: set[str] = field(default_factory=set)
    decisions: dict[str, set[str]] = field(default_factory=dict)
    zones: set[str] = field(default_factory=set)
    # zones some deal (or set_hands) step gives each owner ('player', 'dealer', 'community');
    # None: not known, every zone of `zones` is accepted for every owner
    owner_zones: dict[str, set[str]] | None = None
    flags: set[str] = field(default_factory=set)
    state: set[str] = field(default_factory=set)  # the round state the chapter declares (`state:`)
    used: dict[str, set[str]] = field(default_factory=dict)

    def use(self, ns: str, name: str) -> None:
        self.used.setdefault(ns, set()).add(name)


@dataclass(frozen=True)
class NameProblem:
    message: str
    line: int
    column: int


def _suggest(name: str, pool) -> str:
    m = difflib.get_close_matches(name, sorted(pool), n=1, cutoff=0.6)
    return f" (did you mean {m[0]!r}?)" if m else ""


def check_expr(node: Node, names: Names, problems: list[NameProblem]) -> None:
    def bad(msg, n):
        problems.append(NameProblem(msg, n.line, n.column))

    def ident(n: Node, ns: str) -> None:
        if not (isinstance(n, Ref) and len(n.parts) == 1):
            bad(f"expected a {ns} name", n)
            return
        name = n.parts[0]
        pool = {"ranking": names.rankings, "wager": names.wagers, "flag": names.flags, "option": names.options,
                "decision": set(names.decisions), "category": names.categories, "hand": names.hands}.get(ns)
        if ns == "flag":
            names.use("flag", name)
            return  # flags are declared by being set
        if pool is not None and name not in pool:
            bad(f"unknown {ns} {name!r}{_suggest(name, pool)}", n)
        names.use(ns, name)

    def walk(n: Node) -> None:
        if isinstance(n, Lit):
            return
        if isinstance(n, Ref):
            owner = n.parts[0]
            if owner not in OWNERS:
                bad(f"unknown name {owner!r}: card references start with one of {', '.join(OWNERS)}"
                    f"{_suggest(owner, OWNERS)}", n)
                return
            if len(n.parts) > 2:
                bad(f"{'.'.join(n.parts)!r}: only one attribute may follow {owner!r}", n)
            if owner in ("player", "dealer", "community") and len(n.parts) == 2 and n.parts[1] != "cards" \
                    and n.parts[1] not in names.zones:
                bad(f"unknown card zone {n.parts[1]!r}{_suggest(n.parts[1], names.zones)}", n)
            elif owner in ("player", "dealer", "community") and len(n.parts) == 2 and n.parts[1] != "cards" \
                    and names.owner_zones is not None and n.parts[1] not in names.owner_zones.get(owner, ()):
                whom = {"player": "the players", "dealer": "the dealer", "community": "the community cards"}[owner]
                bad(f"no step deals {whom} a zone {n.parts[1]!r}, so {'.'.join(n.parts)} would always be empty", n)
            if owner in ("player", "dealer") and len(n.parts) == 1:
                bad(f"{owner!r} needs a zone, e.g. {owner}.cards", n)
            if owner == "state":
                if len(n.parts) != 2:
                    bad("'state' is followed by the name of a round state value, e.g. state.point", n)
                elif n.parts[1] not in names.state:
                    bad(f"unknown round state {n.parts[1]!r}{_suggest(n.parts[1], names.state)}: the chapter "
                        "declares its round state under 'state:'", n)
                else:
                    names.use("state", n.parts[1])
                return
            if owner == "setting" and (len(n.parts) != 2 or n.parts[1] not in SETTING_PARTS):
                bad(f"'setting' is followed by one of {', '.join(SETTING_PARTS)} (the hands of a candidate setting)", n)
            return
        if isinstance(n, Call):
            sig = FUNCTIONS.get(n.name)
            if sig is None:
                bad(f"unknown function {n.name!r}{_suggest(n.name, FUNCTIONS)}", n)
                return
            required = [s for s in sig if not s.endswith("?")]
            if not len(required) <= len(n.args) <= len(sig):
                bad(f"{n.name}() takes {len(required)}" + (f" to {len(sig)}" if len(sig) != len(required) else "")
                    + f" argument{'s' if len(sig) != 1 else ''}, got {len(n.args)}", n)
                return
            for kind, a in zip(sig, n.args):
                kind = kind.rstrip("?")
                if kind in ("expr", "lambda"):
                    walk(a)
                elif kind == "rank":
                    if not isinstance(a, (Lit, Ref)):
                        bad("expected a rank such as '10' or T", a)
                elif kind == "choice":
                    if isinstance(a, Ref) and len(a.parts) == 1:
                        d = n.args[0].parts[0] if isinstance(n.args[0], Ref) else None
                        if d in names.decisions and a.parts[0] not in names.decisions[d]:
                            bad(f"decision {d!r} has no choice {a.parts[0]!r}", a)
                    else:
                        bad("expected a choice name", a)
                else:
                    ident(a, kind)
            return
        if isinstance(n, BinOp):
            walk(n.left)
            walk(n.right)
            return
        if isinstance(n, BoolOp):
            for x in n.items:
                walk(x)
            return
        if isinstance(n, (Not, Neg)):
            walk(n.item)
            return

    walk(node)


def check_actions(actions, names: Names, problems: list[NameProblem]) -> None:
    for a in actions:
        def bad(msg):
            problems.append(NameProblem(msg, a.line, a.column))

        if a.wager is not None and a.wager != "*":
            if a.wager not in names.wagers:
                bad(f"unknown wager {a.wager!r}{_suggest(a.wager, names.wagers)}")
            names.use("wager", a.wager)
        if a.payout is not None:
            if a.payout not in names.payouts:
                bad(f"unknown payout {a.payout!r}{_suggest(a.payout, names.payouts)}")
            names.use("payout", a.payout)
        if a.paytable is not None:
            if a.paytable not in names.paytables:
                bad(f"unknown paytable {a.paytable!r}{_suggest(a.paytable, names.paytables)}")
            names.use("paytable", a.paytable)
        if a.value is not None:
            check_expr(a.value, names, problems)
        if a.kind == "set":
            names.flags.add(a.name)
        if a.kind == "set_state":
            if a.name not in names.state:
                bad(f"unknown round state {a.name!r}{_suggest(a.name, names.state)}: the chapter declares its "
                    "round state under 'state:'")
            names.use("state", a.name)
        if a.kind == "surrender" and not (0 < a.fraction <= 1):
            bad(f"surrender fraction {a.fraction} must be between 0 and 1")


