"""Exact figures of games whose hands are valued by points (baccarat-style: cards dealt by conditions,
then settled), by a walk over the compiled game's dealing with a transposition table.

The method plays the chapter's procedure over every card the shoe can give next, and settles each end
position with the engine itself (the round replayed from a hand history of that position). It is fast
because nothing is valued twice:

* **Cards by class.** Where every ranking is of kind points and no function reads a rank or a suit, a
  card is only its point values (and whether it is a soft card): ranks that nothing distinguishes are
  one class with their multiplicities summed (baccarat: 10 classes, the four zero-point ranks one).
* **Zones as multisets.** A zone is kept sorted, with the cards at the positions a rule reads
  (``card(zone, n)``) beside it, so the deals that reach the same cards in another order are one
  position; only a zone some rule reads otherwise than by count, point sums and those positions keeps
  its order.
* **Transposition table.** A position is (the next instruction, the cards of every zone); it fixes the
  remaining shoe, so its value (the weights of every result from there) is computed once.
* **Settlement by what the rules read.** The procedure's expressions (settle rules and step conditions)
  read the cards only through maximal card-reading parts (``hand(baccarat, community.player) > ...``,
  ``total(...)``): the values of those parts are the key of a cache of settlements, and the engine
  settles one representative position per key (checked to have drawn exactly the position's cards).

Weights are integers (products of remaining counts); probabilities are exact fractions at the end.

The method declares what it models (:data:`STEP_KINDS`, :data:`FUNCTIONS`, :data:`ACTIONS`,
:data:`DEAL_TARGETS`); :func:`refusal` names the first construct of a chapter it does not model, and
the analysis then uses no figure of this method.
"""
from __future__ import annotations

import time
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable

from compiler.analysis import contract
from compiler.analysis.card_reads import CARD_FUNCTIONS, observations, zone_reads
from compiler.analysis.model import NO_DECISION, Figure, Policy, Report
from compiler.lang.closures import closure
from compiler.lang.rules import Call, Node, Ref, expr_nodes, source
from compiler.runtime.context import Context
from compiler.runtime.engine import Table
from compiler.runtime.shoe import ScriptedShoe
from compiler.runtime.state import Round

__all__ = ["ACTIONS", "DEAL_TARGETS", "FUNCTIONS", "STEP_KINDS", "PointsLimit", "PointsWalk", "analyze_points",
           "applies", "refusal", "report"]

# what this method models (an allow-list: any other construct makes it refuse the chapter)
STEP_KINDS = frozenset({"announce", "burn", "deal", "reveal", "block", "settle"})
DEAL_TARGETS = frozenset({"dealer", "community", "players"})
FUNCTIONS = CARD_FUNCTIONS | {"option", "offered", "has", "placed", "wager", "flag", "active"}
STEP_FUNCTIONS = CARD_FUNCTIONS | {"option", "offered"}  # conditions of dealing steps: no seat is read
ACTIONS = frozenset({"win", "lose", "push", "return", "surrender", "set", "clear", "note"})  # settled by the engine
OWNERS = frozenset({"player", "dealer", "community"})
_DEPTH = 64  # more cards than one round of these games deals: a value's key is settlement * _DEPTH + cards


def applies(game) -> bool:
    """Whether the chapter has a ranking of kind points (then this method is the analysis's route)."""
    return any(r.get("kind") == "points" for r in game.rankings.values())


def _exprs(chapter) -> Iterable[tuple[str, Node, bool]]:
    """(where, expression, is a step's own condition) of every expression of the procedure."""
    for s in chapter.all_steps():
        if s.when is not None:
            yield f"step {s.id} ({s.cite})", s.when, True
        if s.players is not None:
            yield f"step {s.id} ({s.cite})", s.players, True
        for _, e, _ in s.exprs:
            yield f"step {s.id} ({s.cite})", e, True
        for r in s.rules:
            if r.when is not None:
                yield f"the rule at {r.cite}", r.when, False
            for a in r.then:
                if a.value is not None:
                    yield f"the rule at {r.cite}", a.value, False


def refusal(game, chapter) -> str | None:
    """The first construct of the chapter this method does not model, in words (None: it models all)."""
    for rid, r in game.rankings.items():
        if r.get("kind") != "points":
            return f"ranking {rid} is of kind {r.get('kind', 'poker')}: the points method reads only rankings by points"
    if game.cards.jokers:
        return "the deck has jokers, which have no point value"
    for w, d in game.wagers.items():
        if d.progressive:
            return f"wager {w} is paid from a progressive meter"
        if d.placed != "before_deal":
            return f"wager {w} is placed during the round (a decision this method does not model)"
    dealt = sum(int(dict(s.params).get("count", 1)) for s in chapter.all_steps() if s.kind == "deal")
    if dealt >= _DEPTH:
        return f"the procedure deals up to {dealt} cards; the points method counts at most {_DEPTH - 1} in a round"
    for s in chapter.all_steps():
        if s.kind not in STEP_KINDS:
            return f"step {s.id} ({s.cite}) is a {s.kind!r} step; the points method models {', '.join(sorted(STEP_KINDS))}"
        params = dict(s.params)
        if s.kind == "deal":
            if params.get("to", "players") not in DEAL_TARGETS:
                return f"step {s.id} ({s.cite}) deals to {params.get('to')}; the points method deals to " \
                       f"{', '.join(sorted(DEAL_TARGETS))}"
            if s.players is not None:
                return f"step {s.id} ({s.cite}) deals to some players only"
        for r in s.rules:
            for a in r.then:
                if a.kind not in ACTIONS:
                    return f"the rule at {r.cite} does {a.kind!r}; the points method models {', '.join(sorted(ACTIONS))}"
                if a.paytable is not None and game.paytables[a.paytable].ranking:  # a table of values: the engine's
                    return f"the rule at {r.cite} pays by paytable {a.paytable}"
    for where, e, own in _exprs(chapter):
        allowed = STEP_FUNCTIONS if own else FUNCTIONS
        for n in expr_nodes(e):
            if isinstance(n, Call) and n.name not in allowed:
                return (f"{where} reads {n.name}()" + (", a seat's state, before the settlement" if n.name in FUNCTIONS
                                                        else "") + f"; the points method models {', '.join(sorted(allowed))}")
            if isinstance(n, Ref) and n.parts[0] not in OWNERS:
                return f"{where} reads {'.'.join(n.parts)}; the points method reads only cards"
            if isinstance(n, Call) and n.name == "card" and any(
                    isinstance(x, Ref) and (len(x.parts) == 1 or x.parts[1] == "cards") for x in expr_nodes(n.args[0])):
                return (f"{where} reads a card by its position among all of an owner's zones ({source(n)}); the "
                        "points method reads positions within one zone")
    return None


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


class PointsLimit(RuntimeError):
    """The walk met more positions than its budget, or a position the engine dealt otherwise: no figure."""


class _PositionContext(Context):
    """A context whose cards are the walk's position (every owner's zones read from one mapping)."""

    def __init__(self, table, rnd):
        super().__init__(table, rnd)
        self.cards: dict[tuple[str, str], list] = {}

    def zone(self, owner: str, zone: str | None) -> list:
        if zone is None or zone == "cards":
            out: list = []
            for (o, _), cs in self.cards.items():
                if o == owner:
                    out.extend(cs)
            return out
        return list(self.cards.get((owner, zone), ()))


class PointsWalk:
    """The walk of one chapter (see the module docstring); :meth:`run` gives the exact distribution of the
    results of every bet set."""

    def __init__(self, game, chapter, options: dict | None = None, decks: int | None = None,
                 bet_sets: list[dict[str, int]] | None = None, composition: dict[int, int] | None = None,
                 max_positions: int = 3_000_000):
        """``composition``: a shoe of another make-up (rank index -> number of cards), e.g. a reduced shoe."""
        self.game = game
        self.options = dict(options or {})
        table = Table(game, self.options, seed=0)
        self.table = table
        self.decks = decks if decks is not None else table.shoe_decks()
        rankings = [table.ranking(rid) for rid in game.rankings]
        # card classes: ranks with equal point values (and softness) in every ranking
        per_rank = composition if composition is not None else {r: 4 * self.decks for r in range(13)}
        klass: dict[tuple, list[int]] = {}
        for r in range(13):
            if per_rank.get(r, 0) > 0:
                key = tuple((rk.values[r], r == rk.soft_rank) for rk in rankings)
                klass.setdefault(key, []).append(r)
        self.classes = list(klass.values())
        self.rep = [ranks[0] * 4 for ranks in self.classes]            # a card of the class (suits unread)
        self.counts = [sum(per_rank[r] for r in ranks) for ranks in self.classes]
        self.total = sum(self.counts)
        # the program: blocks and deals of the compiled procedure (the engine's own condition code)
        self.ops: list = []
        self.zones: list[tuple[str, str]] = []
        self._emit(game.procedure)
        # how each zone is read: "sum" (only its count and point sums: a multiset keyed by them), "pos" (also
        # the cards at some positions, card(zone, n): a multiset and those cards) or "raw" (in order, all)
        reads: dict = {}
        for _, e, _ in _exprs(chapter):
            zone_reads(e, False, reads)
        self.mode: list[str] = []
        self.read_at: list[frozenset] = []
        for o, z in self.zones:
            how = [reads[k] for k in ((o, z), (o, None), (o, "cards")) if k in reads]
            if any(h == "raw" for h in how):
                self.mode.append("raw")
                self.read_at.append(frozenset())
            else:
                at = frozenset(n for h in how for n in h)
                self.mode.append("pos" if at else "sum")
                self.read_at.append(at)
        self._pv = [[rk.values[ranks[0]] for ranks in self.classes] for rk in rankings]
        self._soft = [[ranks[0] == rk.soft_rank for ranks in self.classes] for rk in rankings]
        self._zkey: dict[tuple, tuple] = {}
        self._whens: dict = {}   # (instruction, reading id) -> the condition's value
        self._rids: dict[tuple, int] = {}  # the zones as the rules can read them -> a reading id
        self._readings: list[tuple] = []   # reading id -> the zones as the rules can read them
        # what the replayed round can read of the cards: every expression of the procedure (the settle rules,
        # and the conditions of the steps, a settle step's or its block's included)
        obs: list[Node] = []
        for _, e, _ in _exprs(chapter):
            observations(e, obs)
        # each part: its closure, the zones it reads (indices) and a cache of its values by their readings
        self.observed = [(closure(o), self._zones_of(o), {}) for o in dict.fromkeys(obs)]
        self.bet_sets = bet_sets or [{w: 1 for w in game.wagers}]
        self.ctx = _PositionContext(table, Round(table, 0, False, False))
        self.memo: dict = {}
        self.settled: dict = {}  # the values of what the settle rules read -> the id of its settlement
        self.by_read: dict = {}  # the zones as the rules can read them (point sums) -> the id of its settlement
        self.path: list[tuple[int, int]] = []  # the cards dealt along the current path: (zone, class), in order
        self.observations = 0    # distinct values of what the settle rules read
        self.sig_ids: dict[tuple, int] = {}  # a settlement (per bet set, (wager, outcome, net)) -> its id
        self.positions = 0
        self.replays = 0
        self.max_positions = max_positions

    def _emit(self, steps) -> None:
        for s in steps:
            if s.kind == "block":
                j = len(self.ops)
                self.ops.append(["block", s.when, None])
                self._emit(s.steps)
                self.ops[j][2] = len(self.ops)
            elif s.kind == "deal":
                owner = {"players": "player", "dealer": "dealer", "community": "community"}[s.params.get("to", "players")]
                key = (owner, s.params.get("zone", "cards"))
                if key not in self.zones:
                    self.zones.append(key)
                zi = self.zones.index(key)
                n = int(s.params.get("count", 1))
                # the step's condition is read once, before its first card; skipped, the step deals none
                after = len(self.ops) + n
                for k in range(n):
                    self.ops.append(["deal", s.when if k == 0 else None, (zi, after)])

    def _zones_of(self, n: Node) -> tuple[int, ...]:
        """The indices of the zones an expression reads (an owner's every zone for ``player.cards``)."""
        out = set()
        for x in expr_nodes(n):
            if isinstance(x, Ref):
                z = x.parts[1] if len(x.parts) > 1 else None
                out.update(i for i, (o, zz) in enumerate(self.zones)
                           if o == x.parts[0] and (z in (None, "cards") or zz == z))
        return tuple(sorted(out))

    # -- reading a position ------------------------------------------------------------------------
    def _cards_of(self, zi: int, z: tuple) -> list:
        """Cards in an order that reads as the zone does: a "pos" zone's read positions hold their cards."""
        rep = self.rep
        if self.mode[zi] != "pos":
            return [rep[c] for c in z]
        cards, at = z
        rest = list(cards)
        for c in at:
            rest.remove(c)
        placed = dict(zip(sorted(n for n in self.read_at[zi] if n <= len(cards)), at))
        return [rep[placed[i] if i in placed else rest.pop(0)] for i in range(1, len(cards) + 1)]

    def _set(self, zones: tuple) -> _PositionContext:
        self.ctx.cards = {self.zones[i]: self._cards_of(i, z) for i, z in enumerate(zones)}
        return self.ctx

    def _summary(self, cards: tuple) -> tuple:
        k = self._zkey.get(cards)
        if k is None:
            k = self._zkey[cards] = (len(cards),) + tuple(sum(pv[c] for c in cards) for pv in self._pv) + tuple(
                any(sf[c] for c in cards) for sf in self._soft)
        return k

    def _zone_key(self, zi: int, z: tuple) -> tuple:
        """What the rules can read of zone ``zi`` in state ``z``: its card count and point sums (and whether it
        holds a soft card), with the cards at the positions read; a "raw" zone: its cards."""
        mode = self.mode[zi]
        if mode == "sum":
            return self._summary(z)
        if mode == "pos":
            return self._summary(z[0]) + (z[1],)
        return z

    def _child(self, zi: int, z: tuple, c: int) -> tuple:
        """Zone ``zi``'s state after a card of class ``c``."""
        mode = self.mode[zi]
        if mode == "sum":
            return tuple(sorted(z + (c,)))
        if mode == "pos":
            cards, at = z
            return (tuple(sorted(cards + (c,))), at + (c,) if len(cards) + 1 in self.read_at[zi] else at)
        return z + (c,)

    def _read_id(self, zones: tuple) -> int:
        """A small number for the zones as the rules can read them (equal numbers: equal readings)."""
        key = tuple(self._zone_key(i, z) for i, z in enumerate(zones))
        rid = self._rids.get(key)
        if rid is None:
            rid = self._rids[key] = len(self._rids)
            self._readings.append(key)
        return rid

    def _settle(self, zones: tuple, rid: int) -> dict:
        """The value of an end position: {its settlement's id * _DEPTH: 1}."""
        val = self.by_read.get(rid)
        if val is not None:
            return val
        reading = self._readings[rid]
        ctx = None
        key = []
        for f, reads, cache in self.observed:  # each part's value, cached by the zones it reads
            sub = tuple(reading[j] for j in reads)
            v = cache.get(sub, cache)
            if v is cache:
                if ctx is None:
                    ctx = self._set(zones)
                    ctx.seat = None
                v = cache[sub] = _hashable(f(ctx))
            key.append(v)
        key = tuple(key)
        sig = self.settled.get(key)
        if sig is None:
            self.observations += 1
            res = self._replay(zones)
            sig = self.settled[key] = self.sig_ids.setdefault(res, len(self.sig_ids))
        val = self.by_read[rid] = {sig * _DEPTH: 1}
        return val

    def _replay(self, zones: tuple) -> tuple:
        """The engine's settlement of the position (the round replayed from its cards), per bet set."""
        rep = self.rep
        out = []
        for bets in self.bet_sets:
            dealt = {}
            for i, (owner, zone) in enumerate(self.zones):  # each zone's cards in the order this path dealt them
                dealt[(owner, 1 if owner == "player" else None, zone)] = [rep[c] for zi, c in self.path if zi == i]
            shoe = ScriptedShoe(dealt)
            t = Table(self.game, self.options, seed=0, shoe=shoe)
            res = t.play_round({1: {w: Decimal(a) for w, a in bets.items()}}, new_dealer=False)
            self.replays += 1
            if any(shoe.used[k] != len(v) for k, v in dealt.items()):
                raise PointsLimit("the engine dealt a position otherwise than the points method: "
                                   + repr({f"{k[0]}.{k[2]}": v for k, v in dealt.items()}))
            out.append(tuple((r.wager, r.outcome, Fraction(r.net)) for r in res.results))
        return tuple(out)

    # -- the walk ----------------------------------------------------------------------------------
    # A position's value maps ``settlement id * _DEPTH + cards still to deal`` to an integer weight: the sum,
    # over the ways to finish the round from the position, of the products of the counts drawn.
    def _value(self, pc: int, zones: tuple) -> dict:
        key = (pc, zones)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        ops = self.ops
        n_ops = len(ops)
        ctx = None
        rid = None
        whens = self._whens
        while pc < n_ops:
            kind, when, arg = ops[pc]
            if when is not None:
                if rid is None:
                    rid = self._read_id(zones)
                ok = whens.get((pc, rid))
                if ok is None:
                    if ctx is None:
                        ctx = self._set(zones)
                        ctx.seat = None
                    ok = whens[(pc, rid)] = bool(when(ctx))
            else:
                ok = True
            if kind == "block":
                pc = pc + 1 if ok else arg
                continue
            if not ok:
                pc = arg[1]
                continue
            break
        if pc >= n_ops:
            return self._settle(zones, self._read_id(zones) if rid is None else rid)
        self.positions += 1
        if self.positions > self.max_positions:
            raise PointsLimit(f"more than {self.max_positions:,} positions (the budget of the points method)")
        zi = ops[pc][2][0]
        counts = self.counts
        child_of = self._child
        acc: dict = defaultdict(int)
        z = zones[zi]
        before, after = zones[:zi], zones[zi + 1:]
        path = self.path
        value = self._value
        for c in range(len(counts)):
            n = counts[c]
            if not n:
                continue
            nz = child_of(zi, z, c)
            counts[c] = n - 1
            path.append((zi, c))
            sub = value(pc + 1, before + (nz,) + after)
            path.pop()
            counts[c] = n
            for k, wgt in sub.items():
                acc[k + 1] += wgt * n
        val = dict(acc)
        self.memo[key] = val
        return val

    def run(self) -> dict[tuple, Fraction]:
        """The exact probability of every result signature (a tuple per bet set of (wager, outcome, net))."""
        import sys
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 10_000))
        try:
            root = self._value(0, tuple(((), ()) if m == "pos" else () for m in self.mode))
        finally:
            sys.setrecursionlimit(old)
        falling = [1]
        for k in range(1, _DEPTH):
            falling.append(falling[-1] * (self.total - k + 1))
        sigs = {i: sig for sig, i in self.sig_ids.items()}
        out: dict[tuple, Fraction] = defaultdict(Fraction)
        for code, wgt in root.items():
            sig, k = divmod(code, _DEPTH)
            out[sigs[sig]] += Fraction(wgt, falling[k])
        return dict(out)


def analyze_points(game, chapter, options: dict | None = None, decks: int | None = None,
                   composition: dict[int, int] | None = None, max_positions: int = 3_000_000
                   ) -> tuple[list[Figure], str]:
    """Exact figures of every offered wager (one unit on it, with one unit on each required wager), and
    what the walk did (for the report's notes)."""
    required = [w for w, d in game.wagers.items() if d.required]
    selected = {**game.defaults(), **(options or {})}
    optional = [w for w, d in game.wagers.items()
                if not d.required and (d.offered_by is None or bool(selected.get(d.offered_by)))]
    base = {w: 1 for w in required}
    # each optional wager with the wagers the table requires with it (contract.companions); only its results read
    bet_sets: list[dict[str, int]] = ([dict(base)] if required else []) + [
        {**base, **{c: 1 for c in contract.companions(game, w)}, w: 1} for w in optional]
    made = ([None] if required else []) + optional
    t0 = time.perf_counter()
    walk = PointsWalk(game, chapter, options, decks, bet_sets, composition, max_positions)
    dist = walk.run()
    seconds = time.perf_counter() - t0
    method = (f"exact: points method ({len(walk.classes)} card classes, {len(walk.memo)} positions valued once, "
              f"{walk.observations} settlements by what the rules read, each replayed by the engine)")
    figs: list[Figure] = []
    for i, bets in enumerate(bet_sets):
        net: Fraction = Fraction(0)
        per: dict[str, Fraction] = defaultdict(Fraction)
        by_outcome: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
        rounds: dict[str, Fraction] = defaultdict(Fraction)
        for sig, p in dist.items():
            res = sig[i]
            total = sum((n for _, _, n in res), Fraction(0))
            net += p * total
            for w, o, n in res:
                per[w] += p * n
                by_outcome[(w, o)] += p
            rounds[("+" if total > 0 else "") + str(total)] += p
        if required and i == 0:
            names = " + ".join(game.wagers[w].name for w in required)
            win = sum((p for (w, o), p in by_outcome.items() if w in required and o == "win"), Fraction(0))
            figs.append(Figure(tuple(required), names, Policy("none", "no decisions"), net / len(required),
                               net / len(required), win, dict(sorted(rounds.items())), method, status="exact"))
            continue
        w = made[i]
        outs = {o: p for (x, o), p in sorted(by_outcome.items()) if x == w}
        figs.append(Figure((w,), game.wagers[w].name, NO_DECISION, per[w], None, outs.get("win", Fraction(0)), outs,
                           method, status="exact"))
    return figs, f"points method: {walk.positions} positions, {walk.replays} engine settlements, {seconds:.1f} s"


def report(game, chapter, options: dict | None, decks: int | None, settings: dict) -> Report:
    """The chapter's report by this method; every wager refused, with the construct named, where it does not
    model the chapter."""
    rep = Report(game.chapter, game.title, settings, [])
    why = refusal(game, chapter)
    if why is not None:
        for w, d in game.wagers.items():
            rep.refuse(w, d.name, f"not computed: {why}")
        return rep
    try:
        rep.figures, note = analyze_points(game, chapter, options, decks)
    except PointsLimit as e:
        for w, d in game.wagers.items():
            rep.refuse(w, d.name, f"not computed: {e}")
        return rep
    rep.notes.append("exact over every deal of a freshly shuffled shoe (one seat; by exchangeability other seats "
                     "and burned cards do not change it); " + note)
    return rep
