"""Every expression of a chapter evaluated by every evaluator of the rule language, on a state the engine
reached (the start of a settle step of a conformance round, conformance_rounds.py):

* ``python``: the generated Python (:func:`compiler.lang.emit.compile_expr`, as the game modules hold it);
* ``closures``: :func:`compiler.lang.closures.closure` (the house ways of Rules Submissions);
* ``fast``: the fast path's numpy evaluator (:class:`compiler.fast.expressions.ExpressionCompiler`), on a
  one-table :class:`compiler.fast.state.State` made from the engine's round at that moment.

The expressions: each step's ``when``, ``players`` and further expressions (``while``, ``until``, ``start``,
``qualifying``, ``legal``), each rule's and choice's ``when`` and the values of their actions, the rules of
the irregularities (on an event of that kind at each seat) and the house ways' ``when`` and ``choose`` (on the
setting the seat's hands were given, the pool being that one setting).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from compiler.fast.expressions import ExpressionCompiler
from compiler.fast.state import LOSE, OPEN, PUSH, SURRENDER, VOID, WIN, State, Unsupported, _Money
from compiler.fast.vector import FastGame
from compiler.lang.closures import closure
from compiler.lang.emit import compile_expr
from compiler.lang.syntax import parse_expr, source
from compiler.runtime.engine import Table
from compiler.values.chance import wheel_pockets

CODES = {None: OPEN, "win": WIN, "lose": LOSE, "push": PUSH, "void": VOID, "surrender": SURRENDER}
EVALUATORS = ("python", "closures", "fast")


@dataclass(frozen=True)
class Expr:
    where: str  # e.g. "step 'deal' when", "rule at § 567.7(a) when"
    node: Any
    context: str  # round | seat | setting | event


_GATHERED: dict[int, tuple] = {}


def chapter_expressions(chapter) -> tuple[Expr, ...]:
    """Every expression of the chapter's procedure, irregularities and house ways, with the context the
    engine evaluates it in (one entry per distinct (context, expression)), and a few forms of the language
    no chapter writes today, made of the chapter's names (``written here``)."""
    got = _GATHERED.get(id(chapter))
    if got is None or got[0] is not chapter:
        got = _GATHERED[id(chapter)] = (chapter, _gather(chapter))
    return got[1]


def _gather(chapter) -> tuple[Expr, ...]:
    out: dict[tuple, Expr] = {}

    def add(where, node, context):
        if node is not None:
            out.setdefault((context, node), Expr(where, node, context))

    def actions(where, then, context):
        for a in then:
            add(f"{where}: {a.kind} value", a.value, context)

    for s in chapter.all_steps():
        w = f"step {s.id!r}"
        add(f"{w} when", s.when, "round")
        add(f"{w} players", s.players, "seat")
        for k, node, _ in s.exprs:
            add(f"{w} {k}", node, {"qualifying": "seat", "legal": "setting"}.get(k, "round"))
        for r in s.rules:
            add(f"rule at {r.cite} when", r.when, "seat")
            actions(f"rule at {r.cite}", r.then, "seat")
        for c in s.choices:
            add(f"choice {c.id!r} when", c.when, "seat")
            actions(f"choice {c.id!r}", c.then, "seat")
    for irr in chapter.irregularities:
        for r in irr.rules:
            add(f"irregularity {irr.id!r} rule at {r.cite} when", r.when, "event:" + irr.event)
            actions(f"irregularity {irr.id!r} rule at {r.cite}", r.then, "event:" + irr.event)
    for hw in chapter.house_ways:
        for r in hw.rules:
            add(f"house way {hw.id!r} rule at {r.cite} when", r.when, "setting")
            for k, node, _ in r.choose:
                add(f"house way {hw.id!r} rule at {r.cite} {k}", node, "setting")
    # forms no chapter writes today, made of the chapter's own names (the language's, not a chapter's)
    w = next(iter(chapter.wagers), None)
    if w is not None:
        add("written here: offered()", parse_expr(f"offered({w})"), "round")
        add("written here: count_players()", parse_expr(f"count_players(placed({w}))"), "round")
        add("written here: a negative amount", parse_expr(f"-wager({w}) - 1 < 0"), "seat")
    if any(s.kind == "roll" and dict(s.params).get("dice") for s in chapter.all_steps()):
        add("written here: dice_count()", parse_expr("dice_count(6) + dice_count(1)"), "round")
    return tuple(out.values())


@lru_cache(maxsize=None)
def _python(node):
    return eval(f"lambda ctx: {compile_expr(node)}", {"Decimal": Decimal, "Fraction": Fraction})  # noqa: S307


@lru_cache(maxsize=None)
def _closure(node):
    return closure(node)


class FastEvaluator:
    """The fast path's expression compiler without its procedure: the zones' sizes are the chapter's
    (where its deal steps fix them) or those of the state evaluated."""

    def __init__(self, chapter, game, options):
        fg = FastGame.__new__(FastGame)
        fg.chapter, fg.game = chapter, game
        fg.options = {**game.defaults(), **dict(options or {})}
        fg.proto = Table(game, fg.options, seed=0)
        fg.money, fg.zone_cards, fg.ordinals, fg.wagers = _Money(), {}, {}, list(game.wagers)
        fg.grown = set()
        fg.round_attrs = {"roll"} if any(x.kind == "roll" for x in chapter.all_steps()) else set()
        try:
            fg._zones(chapter.procedure)
            self.fixed = dict(fg.zone_cards)
        except Unsupported:
            self.fixed = None
            fg.grown = set()
        self.fg = fg
        self.compiled: dict = {}

    def compile(self, e: Expr, sizes: dict):
        key = (e.context, e.node, tuple(sorted(sizes.items())))
        if key not in self.compiled:
            self.fg.zone_cards = dict(sizes)
            try:
                self.compiled[key] = self.fg._expr(e.node, e.where, e.context != "round")
            except Unsupported as exc:
                self.compiled[key] = exc
        return self.compiled[key]

    def state(self, table, ctx, rnd):
        """A one-table State of the round as it stands, and the zones' sizes it was made with (or the
        Unsupported reason where the engine holds more cards in a zone than the chapter deals)."""
        seats = rnd.seats_in_round()
        S = len(seats)
        st = State(1, S, np.zeros((1, 1), dtype=np.int32), np.zeros(1, dtype=np.int64), np.ones((1, S), dtype=bool),
                   np.ones((1, 1), dtype=bool), self.fg.options, {w: table.offered(w) for w in self.fg.wagers})
        st.ended = np.array([[s.ended for s in seats]], dtype=bool)
        held = {}
        for s in seats:
            for z, cs in s.zones.items():
                held[("player", z)] = max(held.get(("player", z), 0), len(cs))
        for z, cs in rnd.dealer.items():
            held[("dealer", z)] = len(cs)
        for z, cs in rnd.community.items():
            held[("community", z)] = len(cs)
        sizes = dict(held) if self.fixed is None else dict(self.fixed)
        for k, n in held.items():
            if n > sizes.get(k, n):
                return Unsupported(f"zone {k[0]}.{k[1]} holds {n} cards, the deal steps deal {sizes[k]}"), None
            sizes.setdefault(k, n)
        for (owner, z), n in sizes.items():
            rows = [s.zones.get(z, []) for s in seats] if owner == "player" else \
                [(rnd.dealer if owner == "dealer" else rnd.community).get(z, [])]
            st.zones[(owner, z)] = np.array([[[(-1 if c is None else int(c)) for c in r] + [-1] * (n - len(r))
                                              for r in rows]], dtype=np.int32).reshape(1, len(rows), n)
        first = next((s for s in seats if s.zones), None)
        st.order = {"player": [z for z in (first.zones if first else {}) if ("player", z) in sizes],
                    "dealer": [z for z in rnd.dealer if ("dealer", z) in sizes],
                    "community": [z for z in rnd.community if ("community", z) in sizes]}
        for w in self.fg.wagers:
            ws = [s.wagers.get(w) or _any_instance(s, w) for s in seats]
            st.amount[w] = np.array([[int(x.amount * 100) if x else 0 for x in ws]], dtype=np.int64)
            st.outcome[w] = np.array([[CODES.get(x.outcome, OPEN) if x else OPEN for x in ws]], dtype=np.int8)
            st.net[w] = np.zeros((1, S), dtype=np.int64)
        for f in {f for s in seats for f in s.flags}:
            st.flags[f] = np.array([[f in s.flags for s in seats]], dtype=bool)
        for step in self.fg.chapter.all_steps():
            if step.kind == "decide":
                ids = [c.id for c in step.choices]
                st.choices[step.id] = np.array([[ids.index(s.choices[step.id]) if s.choices.get(step.id) in ids else -1
                                                 for s in seats]], dtype=np.int16)
        st.first_after_shuffle = np.array([[bool(ctx.round_attr("first_after_shuffle"))]])
        st.new_dealer = np.array([[bool(ctx.round_attr("new_dealer"))]])
        st.number = np.array([[ctx.round_attr("number")]])
        if "roll" in self.fg.round_attrs:
            try:
                st.attrs["roll"] = np.array([[ctx.round_attr("roll") or 0]], dtype=np.int64)
            except Exception:  # noqa: BLE001 - no roll yet
                pass
        for w in self.fg.wagers:  # numbers chosen: the fast path holds one set per wager, the same at every seat
            ons = {s.wagers[w].on for s in seats if s.wagers.get(w) is not None and s.wagers[w].on}
            if len(ons) == 1:
                st.chosen[w] = next(iter(ons))
        for name, d in self.fg.game.state.items():  # the round state (whole numbers: what the fast path keeps)
            init = d.get("initial")
            if isinstance(init, int) and not isinstance(init, bool):
                vals = [[s.state.get(name, init) for s in seats]] if d.get("per") == "player" else \
                    [[rnd.state.get(name, init)]]
                st.vals[name] = np.array(vals, dtype=np.int64).reshape(1, -1)
        if rnd.dice is not None:  # the faces of the latest roll, the pocket of the latest spin (by its index)
            st.attrs["dice"] = np.array([[list(rnd.dice)]], dtype=np.int64)
        if rnd.pocket is not None:
            spin = next(x for x in self.fg.chapter.all_steps() if x.kind == "spin")
            st.attrs["pocket"] = np.array([[wheel_pockets(dict(spin.params)["wheel"]).index(rnd.pocket)]])
        return st, sizes


def _any_instance(seat, wager: str):
    """A wager a player may have several of (``several: true``) as the fast path holds a wager, one stake a seat:
    an instance in action if the seat has one (``has(W)`` outside a rule run per instance: any in action), else
    its last; None without any. Only ``has`` and ``placed`` read it outside such a rule (validate refuses the rest)."""
    inst = [x for x in seat.history if x.id == wager and x.instance]
    return next((x for x in inst if x.outcome is None), inst[-1] if inst else None)


def _value(f, ctx):
    try:
        return ("value", _plain(f(ctx)))
    except Exception as exc:  # noqa: BLE001 - an evaluator's error is a result to compare
        return ("raises", type(exc).__name__, str(exc))


def _plain(v):
    if isinstance(v, (list, tuple)):
        return tuple(_plain(x) for x in v)
    if isinstance(v, (bool, int, str, Decimal, Fraction)) or v is None:
        return v
    return ("object", type(v).__name__, repr(v))


def _scalar(v, i: int | None):
    """The value at table 0 (and at seat ``i``) of a fast-path value: a scalar, (K,) or (K, S|1); None for
    cards ((K, S|1, n))."""
    a = np.asarray(v)
    if a.ndim == 0:
        return a.item()
    if a.ndim == 1:
        return a[0].item()
    if a.ndim == 2:
        return a[0, 0 if i is None or a.shape[1] == 1 else i].item()
    return None


@dataclass
class Evaluation:
    """The values of one state: (expression index, seat or None) -> evaluator -> result; ``unsupported``:
    evaluator -> {reason} where an evaluator does not evaluate an expression."""
    values: dict = field(default_factory=dict)
    unsupported: dict = field(default_factory=dict)


def evaluate_all(chapter, table, ctx, rnd, fast: FastEvaluator) -> Evaluation:
    out = Evaluation()
    saved = (ctx.seat, ctx.event, ctx.setting, ctx.setting_pool)
    fast_state, sizes = fast.state(table, ctx, rnd)
    seats = rnd.seats_in_round()
    try:
        for ix, e in enumerate(chapter_expressions(chapter)):
            try:
                cl = _closure(e.node)
            except ValueError as exc:
                cl = None
                out.unsupported.setdefault("closures", set()).add(str(exc))
            ff = fast.compile(e, sizes) if sizes is not None else fast_state
            if isinstance(ff, Exception):
                out.unsupported.setdefault("fast", set()).add(str(ff))
                ff = None
            for i, seat in ([(None, None)] if e.context == "round" else list(enumerate(seats))):
                ctx.seat, ctx.event, ctx.setting, ctx.setting_pool = seat, {}, None, None
                if e.context == "setting":
                    if seat is None or "high" not in seat.zones or "low" not in seat.zones:
                        continue
                    ctx.setting = (list(seat.zones["high"]), list(seat.zones["low"]))
                    ctx.setting_pool = [ctx.setting]
                elif e.context.startswith("event:"):
                    ctx.event = {"event": e.context[6:], "seat": seat.number, "count": 1, "cards": []}
                got = {"python": _value(_python(e.node), ctx)}
                if cl is not None:
                    got["closures"] = _value(cl, ctx)
                if ff is not None and got["python"][0] == "value":
                    try:
                        got["fast"] = ("value", _scalar(ff(fast_state), i))
                    except Unsupported as exc:
                        out.unsupported.setdefault("fast", set()).add(str(exc))
                    except Exception as exc:  # noqa: BLE001
                        got["fast"] = ("raises", type(exc).__name__, str(exc))
                out.values[(ix, None if seat is None else seat.key)] = got
    finally:
        ctx.seat, ctx.event, ctx.setting, ctx.setting_pool = saved
    return out


def fast_comparable(node, python_value, fast_value):
    """The engine's value as the fast path holds it (amounts in cents), or None where the fast path keeps
    another representation (a hand's value, a category's index, cards)."""
    if python_value[0] != "value" or fast_value is None or fast_value[0] != "value":
        return None
    v = python_value[1]
    if isinstance(v, bool):
        return v, bool(fast_value[1]) if isinstance(fast_value[1], (bool, int)) else fast_value[1]
    if isinstance(v, (int, Decimal, Fraction)):
        want = v * 100 if ExpressionCompiler()._is_money(node) else v
        return want, fast_value[1]
    if isinstance(v, str) and isinstance(fast_value[1], str):
        return v, fast_value[1]
    return None


def describe(e: Expr) -> str:
    return f"{e.where}: {source(e.node)}"
