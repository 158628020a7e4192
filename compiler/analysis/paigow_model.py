"""The pai gow model read from a compiled chapter: which steps set the hands, the required wager
and the one offered during the round, the rankings of the high and low hands, and ``Outcomes``,
which settles a pair of settings by running the compiled settle step. Shared by the simulation
(:mod:`compiler.analysis.paigow`) and the exact count (:mod:`compiler.analysis.paigow_exact`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from compiler.lang.rules import BinOp, BoolOp, Call, Lit, Neg, Not, Ref, nodes
from compiler.runtime.engine import Context, Seat, Table, Wager, _Round
from compiler.runtime.money import money


# ---------------------------------------------------------------------------------------------
# What the game is made of (read from the compiled game and the IR)
# ---------------------------------------------------------------------------------------------


def _walk(steps):
    for s in steps:
        yield s
        yield from _walk(s.steps)


def model_or_reason(game, chapter) -> tuple["PaiGowModel | None", str]:
    """The simulation's model when the procedure has its properties, else (None, the property that fails):
    a step in which the players set their hands and one in which the dealer sets his (``set_hands``);
    one required wager, settled by a settle step whose rules read the players' high and low hands; at
    most one wager offered during the round (``offer``), made at the amount its offer step states."""
    steps = list(_walk(game.procedure))
    if not any(s.kind == "set_hands" and s.params.get("to", "players") == "players" for s in steps):
        return None, "no step in which the players set their hands"
    if not any(s.kind == "set_hands" and s.params.get("to") == "dealer" for s in steps):
        return None, "no step in which the dealer sets his hands"
    required = [w for w, d in game.wagers.items() if d.required]
    if len(required) != 1:
        return None, f"{len(required)} required wagers, not one"
    if len([s for s in steps if s.kind == "offer"]) > 1:
        return None, "more than one wager is offered during the round"
    m = model_of(game, chapter)
    if m.settle_step is None or m.high_ranking is None or m.low_ranking is None:
        return None, "no settle step judges the required wager on the players' high and low hands"
    return m, ""


@dataclass
class PaiGowModel:
    main: str                 # the required wager
    double: str | None        # the wager offered equal to it during the round
    player_step: Any          # the players' set_hands step (engine Step)
    dealer_step: Any          # the dealer's set_hands step
    settle_step: Any          # the settle step that settles the main wager
    high_ranking: str
    low_ranking: str
    zone: str
    high: int
    low: int
    double_equal_to: str | None = None   # the offer step's amount: equal to this wager ...
    double_amount: Any = None            # ... or this fixed amount

    def offer_amount(self, view) -> Decimal:
        """The amount of the wager offered during the round, as its offer step states it."""
        if self.double_equal_to is not None:
            return view.wagers.get(self.double_equal_to, Decimal(0))
        return money(self.double_amount) if self.double_amount is not None else Decimal(0)


def _calls(n):
    """Every ``Call`` node of a rule-language expression, depth first."""
    return (x for x in nodes(n) if isinstance(x, Call))


def _hand_rankings(chapter) -> tuple[str | None, str | None]:
    """Rankings of ``hand(R, player.high)`` and ``hand(R, player.low)`` in the settle rules."""
    found = {}
    for st in chapter.all_steps():
        for r in st.rules:
            for n in _calls(r.when):
                if n.name == "hand" and len(n.args) == 2 and isinstance(n.args[1], Ref) \
                        and n.args[1].parts[:1] == ("player",):
                    z = n.args[1].parts[1] if len(n.args[1].parts) > 1 else None
                    if z in ("high", "low"):
                        found.setdefault(z, n.args[0].parts[0])
    return found.get("high"), found.get("low")


def model_of(game, chapter) -> PaiGowModel:
    steps = list(_walk(game.procedure))
    ps = next(s for s in steps if s.kind == "set_hands" and s.params.get("to", "players") == "players")
    ds = next(s for s in steps if s.kind == "set_hands" and s.params.get("to") == "dealer")
    main = next(w for w, d in game.wagers.items() if d.required)
    offer = next((s for s in steps if s.kind == "offer"), None)  # the wager offered during the round, if any
    double = offer.params.get("wager") if offer is not None else None
    settle = None
    for s in steps:
        if s.kind == "settle" and any(_mentions(r, main) for r in chapter_rules(chapter, s.id)):
            settle = s
            break
    hr, lr = _hand_rankings(chapter)
    return PaiGowModel(main, double, ps, ds, settle, hr, lr, ps.params.get("zone", "hand"),
                       int(ps.params["high"]), int(ps.params["low"]),
                       offer.params.get("equal_to") if offer is not None else None,
                       offer.params.get("amount") if offer is not None else None)


def chapter_rules(chapter, step_id):
    for st in chapter.all_steps():
        if st.id == step_id:
            return st.rules
    return ()


def _mentions(rule, wager) -> bool:
    return any(a.wager == wager and a.kind in ("win", "lose", "push") for a in rule.then)


# ---------------------------------------------------------------------------------------------
# The outcome of the main wager, from the compiled settle rules
# ---------------------------------------------------------------------------------------------


class Outcomes:
    """Net of a unit main wager (and whether the Double Down is settled with it) for a player
    setting against a dealer setting, found by running the compiled settle step."""

    def __init__(self, table: Table, m: PaiGowModel):
        self.table, self.m = table, m
        self.rh = table.ranking(m.high_ranking)
        self.rl = table.ranking(m.low_ranking)

    def run(self, ph, pl, dh, dl, double: bool = False) -> tuple[Decimal, Decimal | None]:
        t, m = self.table, self.m
        rnd = _Round(t, 0, False, False)
        seat = Seat(1)
        w = Wager(m.main, Decimal(1), "")
        seat.wagers[m.main] = w
        seat.history.append(w)
        d = None
        if double and m.double:
            d = Wager(m.double, Decimal(1), "")
            seat.wagers[m.double] = d
            seat.history.append(d)
        seat.zones = {"high": list(ph), "low": list(pl)}
        rnd.seats = {1: seat}
        rnd.dealer = {"high": list(dh), "low": list(dl)}
        ctx = Context(t, rnd)
        ctx.seat = seat
        for rule in m.settle_step.rules:
            ctx.cite = rule.cite
            if rule.when is None or rule.when(ctx):
                rule.then(ctx)
        return w.net, (d.net if d is not None else None)


CMP = ("<", "<=", ">", ">=", "==", "!=")
SCENARIO_CALLS = ("has", "placed", "wager", "option", "offered")
HAND_CALLS = ("hand", "best", "is_hand", "at_least", "category", "category_rank", "count", "groups", "rank")


class Refused(Exception):
    """The exact route cannot model this chapter's main wager (the reason says what)."""


# ---------------------------------------------------------------------------------------------
# The settle step, split into atoms
# ---------------------------------------------------------------------------------------------


@dataclass
class Atoms:
    comparisons: list = field(default_factory=list)   # (ranking, zone)
    player: list = field(default_factory=list)        # nodes (conditions of the player's cards alone)
    dealer: list = field(default_factory=list)        # nodes (conditions of the dealer's cards alone)
    texts: dict = field(default_factory=dict)


def _ir_step(chapter, sid):
    for s in chapter.all_steps():
        if s.id == sid:
            return s
    raise Refused(f"step {sid!r} not found in the chapter")


def _hand_ref(n):
    """(ranking, owner, zone) of ``hand(R, owner.zone)``, else None."""
    if isinstance(n, Call) and n.name == "hand" and len(n.args) == 2 and isinstance(n.args[1], Ref) \
            and n.args[1].parts[0] in ("player", "dealer"):
        p = n.args[1].parts
        return n.args[0].parts[0], p[0], p[1] if len(p) > 1 else "cards"
    return None


def settle_atoms(step, own_flags: set, setting_flags: set) -> Atoms:
    """The atoms of the settle ``step``'s conditions (see the module docstring), or :class:`Refused`."""
    at = Atoms()
    where = [""]

    def owners(n) -> set:
        if isinstance(n, Lit):
            return set()
        if isinstance(n, Ref):
            if n.parts[0] in ("player", "dealer"):
                return {n.parts[0]}
            raise Refused(f"{where[0]}: reads {'.'.join(n.parts)}")
        if isinstance(n, Call):
            if n.name in SCENARIO_CALLS:
                return set()
            if n.name == "flag":
                f = n.args[0].parts[0]
                if f in setting_flags:
                    return {"player"}
                if f in own_flags:
                    return set()
                raise Refused(f"{where[0]}: reads flag({f}), set outside the settle step and the setting of hands")
            if n.name in HAND_CALLS:  # the cards (or hand) argument; the others name rankings, hands, sizes
                return owners(n.args[0] if n.name in ("category", "category_rank", "count") else n.args[1])
            raise Refused(f"{where[0]}: function {n.name}()")
        if isinstance(n, BinOp):
            return owners(n.left) | owners(n.right)
        if isinstance(n, BoolOp):
            return set().union(*(owners(x) for x in n.items))
        if isinstance(n, (Not, Neg)):
            return owners(n.item)
        raise Refused(f"{where[0]}: expression {type(n).__name__}")

    def visit(n):
        if isinstance(n, BoolOp):
            for x in n.items:
                visit(x)
            return
        if isinstance(n, Not):
            visit(n.item)
            return
        o = owners(n)
        if not o:
            return
        if o == {"player"}:  # one atom per condition (nodes compare equal whatever their position)
            if n not in at.player:
                at.player.append(n)
            return
        if o == {"dealer"}:
            if n not in at.dealer:
                at.dealer.append(n)
            return
        a = _hand_ref(n.left) if isinstance(n, BinOp) and n.op in CMP else None
        b = _hand_ref(n.right) if isinstance(n, BinOp) and n.op in CMP else None
        if a is None or b is None or a[0] != b[0] or a[2] != b[2] or {a[1], b[1]} != {"player", "dealer"}:
            raise Refused(f"{where[0]}: a condition reading both the player's and the dealer's cards other than "
                          "a comparison of their hands of one zone by one ranking")
        if (a[0], a[2]) not in at.comparisons:
            at.comparisons.append((a[0], a[2]))

    for r in step.rules:
        where[0] = f"settle rule at {r.cite}"
        for act in r.then:
            if act.paytable is not None or act.value is not None:
                raise Refused(f"{where[0]}: an action paid by a paytable or an amount read from the round")
            if act.kind not in ("win", "lose", "push", "return", "set", "clear", "note", "surrender"):
                raise Refused(f"{where[0]}: action {act.kind!r}")
        if r.when is not None:
            visit(r.when)
    if len(at.comparisons) > 2:
        raise Refused("the settle rules compare more than two pairs of hands")
    if any(z not in ("high", "low") for _, z in at.comparisons):
        raise Refused("the settle rules compare hands other than the set high and low hands")
    return at


def options_read(game, chapter) -> list[str]:
    """The options read by the settle step, the set_hands steps and the house ways (their values are part
    of what a record holds)."""
    m = model_of(game, chapter)
    exprs = []
    for s in chapter.all_steps():
        if s.kind == "set_hands" or s.id == m.settle_step.id:
            exprs += [r.when for r in s.rules] + [e for _, e, _ in s.exprs]
    for hw in chapter.house_ways:
        for r in hw.rules:
            exprs += [r.when] + [e for _, e, _ in r.choose]
    return sorted({n.args[0].parts[0] for e in exprs for n in _calls(e) if n.name == "option"})
