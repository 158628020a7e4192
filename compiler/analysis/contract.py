"""One contract for every analysis method (issue 24.1): an allow-list of the constructs each models.

A chapter's **active procedure** is read from its IR (``chapter.procedure``): blocks and steps whose
condition the selected options decide are entered or left out; steps and rules that concern only wagers
the selections do not offer are left out. Every construct it uses is listed, in procedure order
(:func:`constructs`):

* ``step kind``: the kind of each step (``deal``, ``settle``, ...);
* ``parameter``: each parameter a step gives (``deal.count``), and its value where the value changes
  what a method must model (``deal.to=dealer``, ``deal.face=down``);
* ``condition``: a step condition decided during the round (``when`` or ``players`` that reads more
  than the options);
* ``function``, ``operator``, ``reference``: the rule language's functions (``hand``, ``at_least``),
  operators (``+``, ``<``, ``and``, ``not``) and the owners read (``player``, ``dealer``, ``round``);
* ``outcome``: each action of a rule or choice (``win by paytable``, ``lose``, ``push``, ``place``);
* ``wager``: what an offered wager's declaration asks a method to follow beyond one round (``stays
  until_settled``: left open, it stays on the layout into the next round), or more than one of at once
  (``several``: each placement a new instance with its own kept state).

Each method declares what it models (:data:`METHODS`, one :class:`Declaration` each). A method applies
only when every construct of the active procedure is declared; otherwise it refuses with the first one it
does not declare (:func:`refusal`). A step kind, parameter, function or outcome added to the language and
declared by no method makes every method refuse: nothing here is derived from the registries.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Mapping

from compiler.analysis.counted_loops import unroll_counted_deals
from compiler.lang.names import OWNERS, expr_nodes
from compiler.lang.syntax import Action, BinOp, BoolOp, Call, Lit, Neg, Node, Not, Ref
from compiler.runtime.context import Context
from compiler.runtime.engine import Table
from compiler.steps import KINDS

__all__ = ["Construct", "Declaration", "METHODS", "Refused", "active_steps", "all_unmodelled", "constructs", "refusal",
           "rule_offered", "step_offered", "unmodelled"]


class Refused(Exception):
    """A method that applies by its contract found, while computing, that it cannot give the figures
    (a budget of positions reached): the reason, and the next method is tried."""

class WagerRefusal(str):
    """A method's refusal (``Method.refusal``) that the chapter's optional ``wagers`` alone cause: without them
    (as a Rules Submission that does not offer them) the method applies (compiler/analysis/per_wager.py)."""
    wagers: frozenset

    def __new__(cls, reason: str, wagers) -> "WagerRefusal":
        out = super().__new__(cls, reason)
        out.wagers = frozenset(wagers)
        return out


# parameters whose value changes what a method must model (the others: any value)
VALUED = {"deal": ("to", "face"), "reveal": (), "roll": ()}


@dataclass(frozen=True)
class Construct:
    category: str  # step kind | parameter | condition | function | operator | reference | outcome | wager
    name: str
    where: str  # the citation and source line of the step or rule that uses it

    def __str__(self) -> str:
        return f"{self.category} '{self.name}' ({self.where})"


@dataclass(frozen=True)
class Declaration:
    """What one method models: step kinds with their parameters (parameter -> allowed values, None for
    any value), run-time conditions (on steps of these kinds), functions, operators, references, outcomes,
    and the wager declarations it follows (``stays until_settled``)."""
    steps: Mapping[str, Mapping[str, frozenset | None]]
    conditions: frozenset
    functions: frozenset
    operators: frozenset
    references: frozenset
    outcomes: frozenset
    wagers: frozenset = frozenset()
    decks: frozenset = frozenset()  # a deck other than the 52 cards (``ranks removed``: cards.deck.without)

    def models(self, c: Construct) -> bool:
        if c.category == "step kind":
            return c.name in self.steps
        if c.category == "parameter":
            kind, _, rest = c.name.partition(".")
            param, eq, value = rest.partition("=")
            allowed = self.steps.get(kind, {})
            if param not in allowed:
                return False
            return not eq or allowed[param] is None or value in allowed[param]
        pool = {"condition": self.conditions, "function": self.functions, "operator": self.operators,
                "reference": self.references, "outcome": self.outcomes, "wager": self.wagers,
                "deck": self.decks}.get(c.category)
        return pool is not None and c.name in pool


def _decl(steps: dict, conditions=(), functions=(), operators=(), references=(), outcomes=(),
          wagers=(), decks=()) -> Declaration:
    return Declaration({k: dict(v) for k, v in steps.items()}, frozenset(conditions), frozenset(functions),
                       frozenset(operators), frozenset(references), frozenset(outcomes), frozenset(wagers),
                       frozenset(decks))


_ANY = None
_TO = frozenset({"players", "dealer", "community"})
_FACE = frozenset({"up", "down"})
_DEAL = {"count": _ANY, "zone": _ANY, "to": _TO, "face": _FACE}
_STEPS = {"announce": {"text": _ANY}, "burn": {"count": _ANY}, "deal": _DEAL, "reveal": {"zone": _ANY},
          "decide": {"choices": _ANY}, "settle": {"rules": _ANY}, "block": {"steps": _ANY}}
_ENVY = {"envy": {"wager": _ANY, "paytable": _ANY, "name": _ANY}}
_OFFER = {"offer": {"wager": _ANY, "equal_to": _ANY}}
_OPERATORS = ("==", "!=", "<", "<=", ">", ">=", "and", "or", "not", "+", "-", "*", "/", "neg", "literal")
_HANDS = ("hand", "best", "category", "at_least", "is_hand", "category_rank")
_POINTS = ("total", "soft", "natural", "bust", "points", "card")  # hands valued by points
_CHANCE = ("dice_count", "hits", "matched", "picked", "suited")  # dice faces, chosen numbers, a suited hand
_RANKS = ("spread",)  # what the ranks of single cards are (the engine's own code, cards by rank)
_WAGERS = ("has", "placed", "wager", "flag", "chose", "option", "offered", "active", "count")
_OUTCOMES = ("win", "win at odds", "win by paytable", "bonus by paytable", "lose", "push", "return", "surrender",
             "place", "set", "clear", "end", "note")


def _conditions(kinds, which=("players",)) -> tuple[str, ...]:
    return tuple(f"{w} of {k}" for k in kinds for w in which)


# the card routes (card_routes.py): one seat holding the analysed wagers; the player's conditions select it. A
# deal in stacks (an automated shuffler's: each target its cards together) gives one seat the same cards as a deal
# one card at a time: with a single seat dealt to, its cards are consecutive either way
_CARD_STEPS = {**_STEPS, **_ENVY, "deal": {**_DEAL, "stack": _ANY}}
_CARD = dict(conditions=(*_conditions(_CARD_STEPS), "when of settle"), functions=(*_HANDS, *_WAGERS),
             operators=_OPERATORS, references=("player", "dealer", "community", "name"), outcomes=_OUTCOMES)

METHODS: dict[str, Declaration] = {
    # the compiled game played over every branch of the shoe by rank, one seat, each fixed policy
    # (exact_engine.py): it runs the engine's own code for every step it declares; dice and random numbers
    # are branches of probability 1/n each (exact_engine.BranchShoe is the table's chance)
    "engine enumeration": _decl(
        {**_STEPS, **_OFFER, "collect_unwagered": {}, "roll": {"dice": _ANY, "numbers": _ANY}},
        conditions=_conditions((*_STEPS, "offer", "collect_unwagered", "roll"), ("when", "players")),
        functions=(*_HANDS, *_WAGERS, *_RANKS, "any_player", "count_players"), operators=_OPERATORS,
        references=("player", "dealer", "community", "round", "name"), outcomes=_OUTCOMES),
    # pai gow: hands set by a house way or by the player (paigow.py, paigow_exact.py, paigow_optimal.py); the
    # dice that choose the first position to receive cards change no one seat's result
    "pai gow": _decl(
        {**_STEPS, **_OFFER, **_ENVY, "collect_unwagered": {},
         "deal": {**_DEAL, "to": frozenset({"players", "dealer", "positions"}), "count_order": _ANY, "stack": _ANY},
         "roll": {"dice": _ANY},
         "set_hands": {p: _ANY for p in ("to", "zone", "face", "high", "low", "flag", "foul", "house_way",
                                         "house_way_option", "larger_first")}},
        conditions=_conditions(("deal", "decide", "settle", "offer", "envy", "set_hands", "collect_unwagered")),
        functions=(*_HANDS, *_WAGERS, "any_player", "count_players", "rank", "groups", "can"),
        operators=_OPERATORS, references=("player", "dealer", "community", "round", "setting", "name"),
        outcomes=_OUTCOMES),
    # every k-card hand of the deck against the paytables, and the Envy Bonuses (enumerate.py, paytables.py,
    # assumptions.py: a wager a decision or another hand can change is refused there with the reason)
    "paytable enumeration": _decl(_CARD_STEPS, **_CARD, wagers=("requires any_of",)),
    # raise-or-fold games by backward induction over card sets (stud.py)
    "raise-or-fold solver": _decl(_CARD_STEPS, **_CARD, wagers=("requires any_of",)),
    # deal classes and the dealer-hand route (deals.py, dealer.py, removal.py)
    "deal classes": _decl(_CARD_STEPS, **_CARD, wagers=("requires any_of",)),
    # hands valued by points (points_exact.py): the dealing walked over card classes with a transposition
    # table, one seat, the settlements replayed by the engine (its own finer checks: points_exact.refusal)
    "points": _decl(
        {"announce": {"text": _ANY}, "burn": {"count": _ANY}, "deal": _DEAL, "reveal": {"zone": _ANY},
         "block": {"steps": _ANY}, "settle": {"rules": _ANY}},
        conditions=_conditions(("deal", "block", "settle", "reveal", "burn", "announce"), ("when",)),
        functions=(*_POINTS, "count", "hand", "category", "option", "offered", "has", "placed", "wager", "flag",
                   "active"),
        operators=_OPERATORS, references=("player", "dealer", "community", "name"),
        outcomes=("win", "win at odds", "win by value table", "lose", "push", "return", "surrender", "set", "clear",
                  "note"),
        wagers=("requires any_of",)),  # each optional wager played with its companions (companions)
    # dice, wheels, random numbers and cards by rank (hands by points too: a points ranking reads ranks only),
    # every outcome with its probability, one wager per seat
    # (chance_exact.py; its own finer checks: chance_exact.unmodelled)
    "chance": _decl(
        {"announce": {"text": _ANY}, "burn": {"count": _ANY}, "deal": _DEAL, "reveal": {"zone": _ANY},
         "roll": {"dice": _ANY, "numbers": _ANY}, "spin": {"wheel": _ANY}, "settle": {"rules": _ANY},
         "block": {"steps": _ANY}},
        conditions=_conditions(("deal", "block", "settle", "reveal", "burn", "announce", "roll", "spin"), ("when",)),
        functions=(*_HANDS, *_WAGERS, *_CHANCE, *_RANKS, *_POINTS), operators=_OPERATORS,
        references=("player", "dealer", "community", "dice", "pocket", "round", "name"),
        outcomes=("win", "win at odds", "win by paytable", "lose", "push", "surrender", "set", "clear", "note",
                  "return", "end", "bonus by paytable", "win by value table", "bonus by value table"),
        wagers=("requires any_of",)),  # each wager played with the wagers it requires (companions)
    # a round that loops (repeat: roll until a 7 or the point): an absorbing Markov chain over the round state,
    # its transitions from the compiled loop replayed once per die face, one seat (markov.py; its own finer
    # checks: markov.refusal); a wager that stays on the layout is followed into the next rounds, a state of the chain
    "markov": _decl(
        {"announce": {"text": _ANY}, "roll": {"dice": _ANY, "numbers": _ANY}, "settle": {"rules": _ANY},
         "block": {"steps": _ANY}, "repeat": {"steps": _ANY, "bound": _ANY},
         "offer": {"wager": _ANY, "equal_to": _ANY}, "decide": {"choices": _ANY, "each": _ANY}},
        conditions=_conditions(("announce", "roll", "settle", "block", "repeat", "offer", "decide"),
                               ("when", "players")),
        functions=("has", "placed", "wager", "option", "offered", "any_player", "dice_count", "picked", "hits",
                   "matched"), operators=_OPERATORS,  # chosen numbers: a chain per legal set
        references=("player", "round", "state", "dice", "name"),
        outcomes=("win", "win at odds", "win by value table", "lose", "push", "return", "set state", "set", "clear",
                  "note"),  # a table of values: odds cells only (markov.refusal)
        wagers=("stays until_settled", "several")),  # several (and decide.each): one instance valued (several_refusal)
    # hands valued by points played by the player's decisions (hit until standing, double, split, insurance) and
    # a dealer's play: the compiled steps walked one seat with a transposition table, each by the engine's own
    # executor (draw_walk.py; its own finer checks: draw_report.refusal; exact for the method it states)
    "draw walk": _decl(
        {"announce": {"text": _ANY}, "burn": {"count": _ANY}, "deal": _DEAL, "reveal": {"zone": _ANY},
         "block": {"steps": _ANY}, "settle": {"rules": _ANY}, "decide": {"choices": _ANY},
         "offer": {"wager": _ANY, "equal_to": _ANY}, "repeat": {"steps": _ANY, "bound": _ANY},
         "split": {"zone": _ANY, "wager": _ANY, "hands": _ANY, "choices": _ANY}},
        conditions=_conditions(("announce", "burn", "deal", "reveal", "block", "settle", "decide", "offer", "repeat",
                                "split"), ("when", "players")),
        functions=(*_POINTS, "count", "option", "offered", "has", "placed", "wager", "flag", "chose", "active",
                   "any_player", "hand", "best", "category", "at_least", "is_hand", "suited"),
        operators=_OPERATORS, references=("player", "dealer", "name"),
        outcomes=("win", "win at odds", "win by paytable", "lose", "push", "return", "surrender", "place", "set",
                  "clear", "end", "note"), decks=("ranks removed",)),
    # seeded simulation of whole rounds by the engine (simulated.py): every construct the engine executes
    # today; a construct added to the language is simulated only once declared here
    "simulation": _decl(
        {**_STEPS, **_OFFER, **_ENVY, "collect_unwagered": {}, "roll": {"dice": _ANY, "numbers": _ANY},
         "decide": {"choices": _ANY, "each": _ANY},  # each: a decision per instance of a wager of several
         "spin": {"wheel": _ANY}, "repeat": {"steps": _ANY, "bound": _ANY},
         "split": {"zone": _ANY, "wager": _ANY, "hands": _ANY, "choices": _ANY},
         "deal": {**_DEAL, "to": frozenset({"players", "dealer", "community", "positions"}), "count_order": _ANY,
                  "stack": _ANY},
         "set_hands": {p: _ANY for p in ("to", "zone", "face", "high", "low", "flag", "foul", "house_way",
                                         "house_way_option", "larger_first")}},
        conditions=_conditions(("announce", "burn", "deal", "reveal", "decide", "offer", "settle", "block", "envy",
                                "set_hands", "roll", "spin", "repeat", "collect_unwagered", "split"),
                               ("when", "players")),
        functions=(*_HANDS, *_WAGERS, "any_player", "count_players", "rank", "groups", "can", *_POINTS, *_CHANCE,
                   *_RANKS),
        operators=_OPERATORS, references=("player", "dealer", "community", "event", "round", "setting", "dice",
                                          "pocket", "state", "name"),
        outcomes=(*_OUTCOMES, "win by value table", "bonus by value table", "set state", "void round", "discard card",
                  "use card", "reshuffle", "remove deck"),
        wagers=("requires any_of",), decks=("ranks removed",)),
}


# ---------------------------------------------------------------------------------------------
# The active procedure and its constructs
# ---------------------------------------------------------------------------------------------


def _where(x) -> str:
    src = getattr(x, "src", None)
    return f"{x.cite}, {src.path}:{src.line}" if src is not None else x.cite


def _static(expr: Node | None) -> bool:
    """A condition the options decide: it reads nothing but options and offers."""
    return all(isinstance(n, (Lit, BoolOp, Not, Neg, BinOp)) or (isinstance(n, Call) and n.name in ("option", "offered"))
               for n in expr_nodes(expr))


def _expr_constructs(expr: Node | None, where: str) -> Iterable[Construct]:
    for n in expr_nodes(expr):
        if isinstance(n, Call):
            yield Construct("function", n.name, where)
        elif isinstance(n, (BinOp, BoolOp)):
            yield Construct("operator", n.op, where)
        elif isinstance(n, Not):
            yield Construct("operator", "not", where)
        elif isinstance(n, Neg):
            yield Construct("operator", "neg", where)
        elif isinstance(n, Lit):
            yield Construct("operator", "literal", where)
        elif isinstance(n, Ref):
            yield Construct("reference", n.parts[0] if n.parts[0] in OWNERS else "name", where)
        else:
            yield Construct("expression", type(n).__name__, where)


def outcome_name(a: Action, value_tables: frozenset = frozenset()) -> str:
    """The outcome an action is; ``value_tables``: the paytables without a ranking, whose rows are values a
    rule gives (a margin of win), not hands: paying by one is another construct than paying a hand."""
    by = "value table" if a.paytable in value_tables else "paytable"
    if a.kind == "win":
        return f"win by {by}" if a.paytable else "win at odds" if (a.payout or a.odds) else "win"
    if a.kind == "bonus":
        return f"bonus by {by}"
    return a.kind.replace("_", " ")


def value_tables(game) -> frozenset:
    return frozenset(t for t, pt in game.paytables.items() if not pt.ranking)


def _actions(actions, where: str, values: frozenset = frozenset()) -> Iterable[Construct]:
    for a in actions:
        yield Construct("outcome", outcome_name(a, values), where)
        yield from _expr_constructs(a.value, where)


def _runtime_steps(game) -> dict:
    out = {}

    def walk(ss):
        for s in ss:
            out[s.id] = s
            walk(s.steps)
    walk(game.procedure)
    return out


def offer_table(game, options: dict | None) -> Table:
    """The table of the selections, every wager whose offer they do not select analysed as offered."""
    options = dict(options or {})
    offer_all = {d.offered_by: True for d in game.wagers.values() if d.offered_by and d.offered_by not in options}
    return Table(game, {**offer_all, **options}, seed=0)


def _decided(fn, table) -> bool | None:
    try:
        return bool(fn(Context(table, None)))
    except Exception:  # noqa: BLE001 - a condition the options alone do not decide
        return None


def active_steps(game, chapter, options: dict | None):
    """[(IR step, its run-time conditions)] of the active procedure, blocks flattened (a block whose
    condition is decided during the round is itself listed, with its steps)."""
    table = offer_table(game, options)
    rt = _runtime_steps(game)
    out = []

    def walk(steps):
        for s in steps:
            g = rt.get(s.id)
            if not step_offered(s, game, table.offered):
                continue
            if s.when is not None and _static(s.when) and g is not None and g.when is not None:
                if _decided(g.when, table) is False:
                    continue
                out.append((s, ()))
                walk(s.steps)
                continue
            conds = tuple(c for c, e in (("when", s.when), ("players", s.players)) if e is not None)
            out.append((s, conds))
            walk(s.steps)

    walk(unroll_counted_deals(chapter).procedure)  # a deal written as a loop of fixed passes: its deal steps
    return out, table


def step_offered(step, game, offered) -> bool:
    """False for a step whose wager parameter names a wager not offered (an ``offer``, an ``envy``): it is
    left out of the active procedure with its steps. ``offered``: wager id -> bool (``Table.offered``)."""
    names = getattr(KINDS.get(step.kind), "names", {}) or {}
    return not any(names.get(p) == "wager" and isinstance(v, str) and v in game.wagers and not offered(v)
                   for p, v in step.params)


def rule_offered(rule, game, offered) -> bool:
    """A rule that concerns at least one offered wager (or no wager at all); ``offered`` as for
    :func:`step_offered`."""
    ws = [a.wager for a in rule.then if a.wager not in (None, "*")]
    return not ws or any(w not in game.wagers or offered(w) for w in ws)


_CACHE: dict = {}


def constructs(game, chapter, options: dict | None = None) -> list[Construct]:
    """Every construct of the active procedure, in order (each step's kind first)."""
    key = (id(game), id(chapter), tuple(sorted((k, repr(v)) for k, v in (options or {}).items())))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is game and hit[1] is chapter:
        return hit[2]
    steps, table = active_steps(game, chapter, options)
    values = value_tables(game)
    out: list[Construct] = []
    for s, conds in steps:
        w = _where(s)
        out.append(Construct("step kind", s.kind, w))
        for p, v in s.params:
            out.append(Construct("parameter", f"{s.kind}.{p}", w))
            if p in VALUED.get(s.kind, ()):
                out.append(Construct("parameter", f"{s.kind}.{p}={v}", w))
        for c in conds:
            out.append(Construct("condition", f"{c} of {s.kind}", w))
            out.extend(_expr_constructs(s.when if c == "when" else s.players, w))
        for r in s.rules:
            if not rule_offered(r, game, table.offered):
                continue
            rw = _where(r)
            out.extend(_expr_constructs(r.when, rw))
            out.extend(_actions(r.then, rw, values))
        for c in s.choices:
            cw = _where(c)
            out.extend(_expr_constructs(c.when, cw))
            out.extend(_actions(c.then, cw, values))
        for _, e, _ in s.exprs:
            out.extend(_expr_constructs(e, w))
    if getattr(game.cards, "without", ()):  # a deck of fewer ranks: a route that deals the 52 cards would be wrong
        out.append(Construct("deck", "ranks removed", f"{game.cards.reshuffle_cite or 'cards'}, cards.deck.without"))
    for w, d in game.wagers.items():  # a wager followed beyond the round it is made in; one made with one of others
        src = getattr(chapter.wagers.get(w), "src", None)
        where = f"{d.cite}, wager {w!r}" + (f", {src}" if src else "")
        if getattr(d, "stays", None) and table.offered(w):
            out.append(Construct("wager", f"stays {d.stays}", where))
        if getattr(d, "several", False) and table.offered(w):  # several instances of it at once (come#1, come#2)
            out.append(Construct("wager", "several", where))
        if d.requires_any and table.offered(w):
            out.append(Construct("wager", "requires any_of", where))
    if len(_CACHE) > 64:  # it keeps its games alive (so no id is reused while cached): a small cache
        _CACHE.clear()
    _CACHE[key] = (game, chapter, out)
    return out


def companions(game, w: str) -> dict[str, Any]:
    """The wagers a seat places with ``w`` so that the table takes it: every wager it requires and the first of
    each group of which it requires one (``requires: [{any_of: ...}]``), at their smallest amounts; only ``w``'s
    results are read."""
    wd = game.wagers[w]
    out = {}
    for c in (*wd.requires, *(g[0] for g in wd.requires_any)):
        cd = game.wagers[c]
        out[c] = cd.amounts[0] if cd.amounts else Decimal(1)
    return out


def unmet_any_of(game, bets) -> str | None:
    """Why a route placing ``bets`` on one seat does not model a wager made with one of several others
    (``requires: [{any_of: ...}]``) that it places without any of them; None when every such group is met."""
    for w in bets:
        for group in game.wagers[w].requires_any:
            if not any(g in bets for g in group):
                return (f"wager {w!r} requires one of {', '.join(group)} ({game.wagers[w].cite}), which the analysed "
                        f"round does not place")
    return None


def first_unmodelled(method: str, items: list[Construct]) -> Construct | None:
    decl = METHODS.get(method)
    if decl is None:
        raise KeyError(f"no declaration of analysis method {method!r}")
    return next((c for c in items if not decl.models(c)), None)


def all_unmodelled(method: str, items: list[Construct]) -> list[Construct]:
    """Every construct of ``items`` the declaration of ``method`` does not model, in order."""
    decl = METHODS.get(method)
    if decl is None:
        raise KeyError(f"no declaration of analysis method {method!r}")
    return [c for c in items if not decl.models(c)]


def refusal(method: str, game, chapter, options: dict | None = None) -> str | None:
    """None when ``method`` models every construct of the active procedure, else the reason it refuses."""
    c = first_unmodelled(method, constructs(game, chapter, options))
    return None if c is None else f"{c} is not modelled by the {method}"


def unmodelled(methods: Iterable[str], game, chapter, options: dict | None = None,
               refusals: Iterable[tuple[str, str]] = ()) -> str:
    """Why no method of ``methods`` applies: a construct none of them declares, or else each method's
    refusal (``refusals``: (method, reason), as the caller tried them)."""
    items = constructs(game, chapter, options)
    methods = list(methods)
    for c in items:
        if not any(METHODS[m].models(c) for m in methods):
            return f"{c} is not modelled by any method"
    return "no method applies: " + "; ".join(f"{m}: {why}" for m, why in refusals)
