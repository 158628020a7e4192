"""The rule language's names: what a rulespec declares (:class:`Names`) and the check of every
name a parsed rule uses (:func:`check_expr`, :func:`check_actions`), with suggestions."""
from __future__ import annotations

import difflib
from decimal import Decimal
from fractions import Fraction
from dataclasses import dataclass, field

from compiler.lang.syntax import BinOp, BoolOp, Call, Children, ExprVisitor, Lit, Neg, Node, Not, Ref, nodes, source
from compiler.values.chance import DICE_ATTRS

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
    # hands valued by points (a ranking of kind: points; the ranking may be left out where the chapter
    # declares only one): see docs/rule-language.md "Points"
    "total": ("expr", "points_ranking?"),
    "soft": ("expr", "points_ranking?"),
    "natural": ("expr", "points_ranking?"),
    "bust": ("expr", "points_ranking?"),
    "points": ("expr", "points_ranking?"),
    "card": ("expr", "position"),
    # dice and wheels: see docs/rule-language.md "Dice and wheels"
    "dice_count": ("expr",),
    "hits": ("wager",),
    "matched": ("wager",),
    "picked": ("wager", "expr"),
    "suited": ("expr",),
    # the number of ranks of a ranking's order strictly between the ranks of two single cards (a spread)
    "spread": ("ranking", "expr", "expr"),
}
# the arguments (by position) that are cards, and those that are a hand value (what hand() or best() gives):
# a hand value where cards are read, or cards where a hand value is read, is refused by validate
CARD_ARGS: dict[str, tuple[int, ...]] = {
    "hand": (1,), "best": (1,), "is_hand": (1,), "count": (0,), "rank": (1,), "groups": (1,), "total": (0,),
    "soft": (0,), "natural": (0,), "bust": (0,), "points": (0,), "card": (0,), "suited": (0,),
    "spread": (1, 2)}
VALUE_ARGS: dict[str, tuple[int, ...]] = {"category": (0,), "at_least": (1,), "category_rank": (0,)}
# functions that read a ranking's hands the way a poker-style ranking does: refused on a points ranking
POKER_FUNCTIONS = ("best", "at_least", "is_hand", "rank", "groups", "spread")
OWNERS = ("player", "dealer", "community", "event", "round", "setting", "dice", "pocket", "state")
DICE_PARTS = tuple(DICE_ATTRS)  # what dice.X reads of the latest roll (compiler/values/chance.py)
# the attributes of `round` the engine gives (compiler/runtime/state.py: Round.attr; `roll` is the
# total of the round's `roll` step)
ROUND_ATTRS = ("first_after_shuffle", "new_dealer", "number", "roll")
# the attributes every irregularity event may carry (a hand history's event, compiler/round_file.py);
# any other `event.NAME` is one the rules of that event read, given with the event
EVENT_ATTRS = ("cards", "count", "seat", "before", "after")
SETTING_PARTS = ("high", "low", "cards")


@dataclass
class Names:
    """What a spec declares, for resolving the names used in its rules."""

    rankings: set[str] = field(default_factory=set)
    points_rankings: set[str] = field(default_factory=set)  # rankings of kind: points
    categories: set[str] = field(default_factory=set)
    hands: set[str] = field(default_factory=set)
    wagers: set[str] = field(default_factory=set)
    payouts: set[str] = field(default_factory=set)
    paytables: set[str] = field(default_factory=set)
    # paytable -> a row naming a hand by its cards (`cards` / `any_of`): judged on cards, never on a hand value
    card_rows: dict[str, str] = field(default_factory=dict)
    options: set[str] = field(default_factory=set)
    decisions: dict[str, set[str]] = field(default_factory=dict)
    zones: set[str] = field(default_factory=set)
    # zones some deal (or set_hands) step gives each owner ('player', 'dealer', 'community');
    # None: not known, every zone of `zones` is accepted for every owner
    owner_zones: dict[str, set[str]] | None = None
    flags: set[str] = field(default_factory=set)
    # dice and wheels: whether a step rolls dice, and the attributes of the pockets of the spun wheels
    # (None: not known, anything is accepted)
    dice: bool | None = None
    pocket_attrs: set[str] | None = None
    choose_wagers: set[str] | None = None  # wagers declared with `choose` (None: not known)
    state: set[str] = field(default_factory=set)  # the round state the chapter declares (`state:`)
    used: dict[str, set[str]] = field(default_factory=dict)
    # whether the procedure has a `roll` step (round.roll); None: not known, accepted
    rolls: bool | None = None
    # the irregularity event whose rules are being checked ('' outside any irregularity, where
    # `event` names nothing; None: not known) and, per event, how often its rules read each attribute
    event: str | None = None
    event_attrs: dict[str, dict[str, int]] | None = None

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


def _constant(n: Node):
    """The value of an expression made of numbers alone (folded as the engine computes it), else None."""
    try:
        if isinstance(n, Lit):
            v = n.value
            return v if isinstance(v, (int, Decimal, Fraction)) and not isinstance(v, bool) else None
        if isinstance(n, Neg):
            v = _constant(n.item)
            return None if v is None else -v
        if isinstance(n, BinOp) and n.op in ("+", "-", "*", "/"):
            a, b = _constant(n.left), _constant(n.right)
            if a is None or b is None:
                return None
            return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                    "/": lambda: None if b == 0 else Fraction(a) / Fraction(b)}[n.op]()
    except (ArithmeticError, TypeError, ValueError):
        return None
    return None


class _NameCheck(ExprVisitor):
    """Checks every name an expression uses (recording the names used) and its divisions."""

    def __init__(self, names: Names, problems: list[NameProblem]):
        self.names = names
        self.problems = problems

    def bad(self, msg: str, n: Node) -> None:
        self.problems.append(NameProblem(msg, n.line, n.column))

    def lit(self, n: Lit) -> None:
        return None

    def ref(self, n: Ref) -> None:
        _check_ref(n, self.names, self.bad)

    def call(self, n: Call) -> None:
        _check_call(n, self.names, self.bad, self.visit)

    def binop(self, n: BinOp) -> None:
        self.visit(n.left)
        self.visit(n.right)
        _check_divisor(n, self.bad)
        if n.op in ("==", "!=", "<", "<=", ">", ">=") and {_yields(n.left), _yields(n.right)} == {"value", "cards"}:
            self.bad(f"{n.op!r} compares a hand value with cards: compare hand values, e.g. "
                     "best(R, player.hand) > best(R, dealer.cards)", n)

    def boolop(self, n: BoolOp) -> None:
        for x in n.items:
            self.visit(x)

    def not_(self, n: Not) -> None:
        self.visit(n.item)

    neg = not_


def check_expr(node: Node, names: Names, problems: list[NameProblem]) -> None:
    """Check every name the expression ``node`` uses against ``names`` (recording the names used), and
    its divisions; each problem found is appended to ``problems``."""
    _NameCheck(names, problems).visit(node)


def _check_ident(n: Node, ns: str, names: Names, bad) -> None:
    """A function's argument that names something of namespace ``ns`` (a ranking, a wager, a flag ...)."""
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


def _check_ref(n: Ref, names: Names, bad) -> None:
    """A reference ``OWNER`` or ``OWNER.NAME``: a known owner, followed by what it has."""
    owner = n.parts[0]
    if owner not in OWNERS:
        bad(f"unknown name {owner!r}: references start with one of {', '.join(OWNERS)}"
            f"{_suggest(owner, OWNERS)}", n)
        return
    if len(n.parts) > 2:
        bad(f"{'.'.join(n.parts)!r}: only one attribute may follow {owner!r}", n)
    if owner in ("player", "dealer", "community"):
        _check_zone_ref(n, names, bad)
    if owner == "round":
        check_round_ref(n, names, bad)
    if owner == "event":
        check_event_ref(n, names, bad)
    if owner == "dice" and (len(n.parts) != 2 or n.parts[1] not in DICE_PARTS):
        unknown = f"unknown dice attribute {n.parts[1]!r}{_suggest(n.parts[1], DICE_PARTS)}: " \
            if len(n.parts) == 2 else ""
        bad(f"{unknown}'dice' is followed by one of {', '.join(DICE_PARTS)} (the latest roll of dice)", n)
    elif owner == "dice" and names.dice is False:
        bad(f"no step rolls dice, so {'.'.join(n.parts)} would never be known", n)
    if owner == "pocket" and len(n.parts) != 2:
        bad("'pocket' is followed by `label` or an attribute of the wheel's pockets, e.g. pocket.colour", n)
    elif owner == "pocket" and names.pocket_attrs is not None and n.parts[1] not in names.pocket_attrs:
        pool = names.pocket_attrs
        bad(f"no spun wheel's pockets have an attribute {n.parts[1]!r}" + (
            _suggest(n.parts[1], pool) if pool else " (no step spins a wheel)"), n)
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


def _check_zone_ref(n: Ref, names: Names, bad) -> None:
    """``player.ZONE``, ``dealer.ZONE``, ``community.ZONE``: a zone some step deals that owner."""
    owner = n.parts[0]
    if len(n.parts) == 2 and n.parts[1] != "cards" and n.parts[1] not in names.zones:
        bad(f"unknown card zone {n.parts[1]!r}{_suggest(n.parts[1], names.zones)}", n)
    elif len(n.parts) == 2 and n.parts[1] != "cards" \
            and names.owner_zones is not None and n.parts[1] not in names.owner_zones.get(owner, ()):
        whom = {"player": "the players", "dealer": "the dealer", "community": "the community cards"}[owner]
        bad(f"no step deals {whom} a zone {n.parts[1]!r}, so {'.'.join(n.parts)} would always be empty", n)
    if owner in ("player", "dealer") and len(n.parts) == 1:
        bad(f"{owner!r} needs a zone, e.g. {owner}.cards", n)


def _check_call(n: Call, names: Names, bad, walk) -> None:
    """A call of one of the language's functions, with the arguments its signature takes; ``walk``
    checks an argument that is an expression."""
    sig = FUNCTIONS.get(n.name)
    if sig is None:
        bad(f"unknown function {n.name!r}{_suggest(n.name, FUNCTIONS)}", n)
        return
    required = [s for s in sig if not s.endswith("?")]
    if not len(required) <= len(n.args) <= len(sig):
        bad(f"{n.name}() takes {len(required)}" + (f" to {len(sig)}" if len(sig) != len(required) else "")
            + f" argument{'s' if len(sig) != 1 else ''}, got {len(n.args)}", n)
        return
    if "points_ranking?" in sig and len(n.args) < len(sig) and len(names.points_rankings) == 1:
        names.use("ranking", next(iter(names.points_rankings)))  # the chapter's only one, read implicitly
    if "points_ranking?" in sig and len(n.args) < len(sig) and len(names.points_rankings) != 1:
        bad(f"{n.name}() needs the points ranking it reads as its last argument, e.g. "
            f"{n.name}(community.banker, baccarat)" + (
                f": the chapter declares {', '.join(sorted(names.points_rankings))}"
                if names.points_rankings else ": the chapter declares no ranking of kind points"), n)
    if n.name in POKER_FUNCTIONS and n.args and isinstance(n.args[0], Ref) \
            and n.args[0].parts[0] in names.points_rankings:
        bad(f"{n.name}() reads poker-style hands; ranking {n.args[0].parts[0]!r} is valued by points "
            "(use hand(), total(), soft(), natural(), bust() or points())", n.args[0])
    for kind, a in zip(sig, n.args):
        _check_arg(n, kind.rstrip("?"), a, names, bad, walk)
    _check_card_args(n, bad)
    if n.name in ("hits", "matched", "picked") and names.choose_wagers is not None and n.args \
            and isinstance(n.args[0], Ref) and n.args[0].parts[0] in names.wagers \
            and n.args[0].parts[0] not in names.choose_wagers:
        bad(f"{n.name}({n.args[0].parts[0]}): the wager is not placed on chosen numbers (it has no `choose`)", n)
    if n.name == "dice_count" and names.dice is False:
        bad("no step rolls dice, so dice_count() would never be known", n)


def _yields(a: Node) -> str | None:
    """What an expression gives where it is read as a function's argument: ``cards`` (a zone, cards joined
    with ``+``, ``card()``), ``value`` (the hand value of ``hand()`` or ``best()``), ``other`` (a number, a text,
    a truth value) or ``None`` where that is not known before the round (an event's attribute)."""
    if isinstance(a, Ref):
        owner = a.parts[0]
        if owner in ("player", "dealer", "community", "setting") or a.parts == ("event", "cards"):
            return "cards"
        return None if owner == "event" else "other"
    if isinstance(a, Call):
        return {"hand": "value", "best": "value", "card": "cards"}.get(a.name, "other")
    if isinstance(a, BinOp) and a.op == "+":
        left, right = _yields(a.left), _yields(a.right)
        return "cards" if "cards" in (left, right) else (None if None in (left, right) else "other")
    return "other" if isinstance(a, (Lit, BinOp, BoolOp, Not, Neg)) else None


def _check_card_args(n: Call, bad) -> None:
    """The arguments of ``n`` that must be cards, and those that must be a hand value: the other kind is
    refused (``is_hand(R, best(R, player.hand), H)`` would fail in the middle of a round)."""
    for i in CARD_ARGS.get(n.name, ()):
        got = _yields(n.args[i]) if i < len(n.args) else None
        if got not in (None, "cards"):
            what = "a hand value" if got == "value" else "not cards"
            bad(f"{n.name}() reads cards as its argument {i + 1} (e.g. player.hand or player.hand + community); "
                f"{source(n.args[i])!r} is {what}", n.args[i])
    for i in VALUE_ARGS.get(n.name, ()):
        if i < len(n.args) and _yields(n.args[i]) == "cards":
            bad(f"{n.name}() reads a hand value as its argument {i + 1}, as hand(R, cards) or best(R, cards) "
                f"gives it; {source(n.args[i])!r} is cards", n.args[i])


def _check_arg(n: Call, kind: str, a: Node, names: Names, bad, walk) -> None:
    """Argument ``a`` of the call ``n``, of kind ``kind`` (its signature's, without the ``?``)."""
    if kind in ("expr", "lambda"):
        walk(a)
    elif kind == "points_ranking":
        if not isinstance(a, Ref) or len(a.parts) != 1 or a.parts[0] not in names.points_rankings:
            name = a.parts[0] if isinstance(a, Ref) else source(a)
            bad(f"{n.name}() reads a ranking of kind points; {name!r} is not one"
                + (f" (the chapter's: {', '.join(sorted(names.points_rankings))})"
                   if names.points_rankings else " (the chapter declares none)"), a)
        else:
            names.use("ranking", a.parts[0])
    elif kind == "position":
        if not (isinstance(a, Lit) and isinstance(a.value, int) and not isinstance(a.value, bool)
                and 1 <= a.value <= 60):
            bad(f"{n.name}() takes the position of a card in its zone, a whole number from 1, "
                f"e.g. {n.name}(player.cards, 3)", a)
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
        _check_ident(a, kind, names, bad)


def _check_divisor(n: BinOp, bad) -> None:
    """``A / B``: B a number written in the rule, never 0 (issue 29: a rule that can divide by zero)."""
    if n.op == "/" and _constant(n.right) == 0:
        bad("division by zero: the divisor is always 0", n.right)
    elif n.op == "/" and _constant(n.right) is None:  # issue 29: a rule that can divide by zero
        bad(f"the divisor {source(n.right)} can be 0 in some round: a rule divides only by a number "
            "written in it (e.g. / 2)", n.right)


def check_round_ref(n: Ref, names: Names, bad) -> None:
    """``round.NAME``: one of the attributes the engine gives a round."""
    if len(n.parts) != 2:
        bad(f"'round' is followed by one of its attributes: {', '.join(ROUND_ATTRS)}", n)
    elif n.parts[1] not in ROUND_ATTRS:
        bad(f"unknown round attribute {n.parts[1]!r}{_suggest(n.parts[1], ROUND_ATTRS)}; a round has "
            f"{', '.join(ROUND_ATTRS)}", n)
    elif n.parts[1] == "roll" and names.rolls is False:
        bad("round.roll is the total of the round's 'roll' step, and the procedure has no roll step", n)


def check_event_ref(n: Ref, names: Names, bad) -> None:
    """``event.NAME``: read only by an irregularity's rules (no event is being handled anywhere else).
    Besides the attributes every event may carry, an event's attributes are those its rules read;
    one read only once, close to another its rules read, is a misspelling of it."""
    if len(n.parts) != 2:
        bad(f"'event' is followed by an attribute of the irregularity event: {', '.join(EVENT_ATTRS)} or one "
            "its rules read", n)
        return
    if names.event == "":
        bad(f"event.{n.parts[1]} is an attribute of the irregularity event being handled: only the rules of an "
            "irregularity can read it", n)
        return
    name = n.parts[1]
    if not names.event or names.event_attrs is None or name in EVENT_ATTRS:
        return
    read = names.event_attrs.get(names.event, {})
    if read.get(name, 0) <= 1:
        others = [a for a in (*read, *EVENT_ATTRS) if a != name]
        m = difflib.get_close_matches(name, sorted(others), n=1, cutoff=0.75)
        if m:
            bad(f"unknown event attribute {name!r} (did you mean {m[0]!r}?): the rules of event {names.event!r} read "
                f"{name!r} only here and {m[0]!r} elsewhere", n)


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
            if a.paytable in names.card_rows and a.value is not None and _yields(a.value) == "value":
                bad(f"paytable {a.paytable!r} has a row of a hand named by its cards ({names.card_rows[a.paytable]!r}), "
                    f"which a hand value cannot meet: pay it on the cards (e.g. player.hand), not on "
                    f"{source(a.value)!r}")
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


class _ExprChildren(Children):
    """A node's sub-expressions, where a call's are only its arguments of kind ``expr`` or ``lambda`` (every
    argument of a function the language does not know)."""

    def call(self, n: Call) -> tuple:
        sig = FUNCTIONS.get(n.name)
        if sig is None:
            return tuple(n.args)
        return tuple(a for i, a in enumerate(n.args) if i >= len(sig) or sig[i].rstrip("?") in ("expr", "lambda"))


_EXPR_CHILDREN = _ExprChildren()


def expr_nodes(n: Node | None):
    """The nodes of an expression that are themselves expressions, the node first, depth first: a
    function's arguments of kind ``expr`` or ``lambda`` are, the names it takes (a ranking, a wager, a
    category ...) are not; every argument of a function the language does not know is (``None``: none)."""
    return nodes(n, _EXPR_CHILDREN)
