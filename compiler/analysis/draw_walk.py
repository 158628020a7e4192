"""Figures of games whose hands are valued by points and played by the player's decisions (hit until
standing, double down, split, insurance; a dealer drawing by a rule), by a walk over the compiled game's own
steps, one seat, with a transposition table.

The walk runs the chapter's procedure step by step on a copy of a real round (:class:`Round`), each step by
the engine's own executor; it branches where the round takes something from chance or from the player:

* **A card dealt face up**: every class of card still in the shoe, weighted by its count (cards by class:
  ranks that no ranking tells apart, e.g. the four ten-point ranks of a blackjack ranking, are one class).
* **A card dealt face down** is not dealt until it is read: a condition that reads it (the dealer's peek for
  a blackjack) splits the classes it may be into those for which the condition holds and the rest, and the
  round goes on knowing only which; it is dealt when the dealer's play begins.
* **A decision** (``decide``, ``offer``, ``split``): every choice the player has; the position's value is
  the largest (optimal play, the player knowing what the round has shown).

**The stated method** (what "exact" means for these figures; every figure says it):

1. *Composition-dependent by hand*: the player's cards are drawn from the shoe less every card seen.
2. *The dealer's probabilities from the shoe at the first decision*: the dealer's play (the steps after the
   last one that deals to or asks the player) is valued from the shoe less the cards seen when the player
   first decides, not less the cards the player drew after that. The dealer's play then depends only on
   the dealer's cards, so its outcomes (what the settlement reads of the dealer's cards) are computed once
   per position of the dealer and settled against each of the player's final hands by the engine.
3. *Split hands counted, not their cards*: a hand made by a split draws from the shoe at the split; the
   cards drawn to the other hands are not removed (the number of hands the position holds is followed).

Within these three statements every figure is an exact fraction. A construct the walk does not model
makes it refuse (:func:`compiler.analysis.draw_report.refusal`): no figure rather than a wrong one.
"""
from __future__ import annotations

import copy
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

from compiler.analysis.card_reads import observations, zone_reads
from compiler.lang.closures import closure
from compiler.lang.rules import Node, Ref, expr_nodes
from compiler.runtime.context import Context
from compiler.runtime.engine import Strategy, Table
from compiler.runtime.shoe import StandInShoe
from compiler.runtime.state import Round, Seat

__all__ = ["DrawLimit", "DrawWalk", "PLAYER_KINDS"]

PLAYER_KINDS = frozenset({"decide", "offer", "split"})  # steps that ask the player


class DrawLimit(RuntimeError):
    """The walk cannot give the figure: a budget reached, or a construct met while walking that it does not
    model (the reason names it)."""


class _Shoe(StandInShoe):
    """The walk's shoe: deals the cards it is given, in order; a burned card is never seen (None)."""

    def __init__(self):
        self.queue: list[int] = []

    def draw(self, target=None):
        if target is None or target[0] == "burn":
            return None
        if not self.queue:
            raise DrawLimit(f"the engine drew a card the walk did not deal ({target})")
        return self.queue.pop(0)


class _Choice(Strategy):
    """The walk's player: the choice and the offered amount it is told to take."""

    def __init__(self):
        self.choice: str | None = None
        self.amount = Decimal(0)

    def choose(self, decision, choices, view):
        return self.choice if self.choice in choices else choices[0]

    def offer(self, wager, view):
        return self.amount


def clone_round(rnd: Round, seats: bool = True) -> Round:
    """A copy of a round that the walk may change: seats (unless ``seats`` is false: shared, for a walk that
    changes only the dealer's cards), zones, wagers, flags; no log."""
    r = object.__new__(Round)
    r.__dict__.update(rnd.__dict__)
    r.seats = {k: clone_seat(s) for k, s in rnd.seats.items()} if seats else rnd.seats
    r.dealer = {z: list(v) for z, v in rnd.dealer.items()}
    r.community = {z: list(v) for z, v in rnd.community.items()}
    r.revealed, r.flags, r.state = set(rnd.revealed), set(rnd.flags), dict(rnd.state)
    r.events, r.acting = [], None
    r.log = _no_log  # the walk reads the state, never the log: no entry is written (or formatted)
    return r


def _no_log(*args, **kw) -> None:
    return None


def clone_seat(s: Seat) -> Seat:
    n = Seat(s.number, hand=s.hand)
    copies = {id(w): copy.copy(w) for w in s.history}
    for w in s.wagers.values():
        copies.setdefault(id(w), copy.copy(w))
    n.history = [copies[id(w)] for w in s.history]
    n.wagers = {k: copies[id(w)] for k, w in s.wagers.items()}
    n.zones = {z: list(v) for z, v in s.zones.items()}
    n.flags, n.choices, n.state = set(s.flags), dict(s.choices), dict(s.state)
    n.bonuses, n.ended = list(s.bonuses), s.ended
    return n


class State:
    """A position of the walk: the next instruction, the round, the passes of the loops entered, the cards
    removed from the shoe (by class), the shoe frozen at the first decision, the face-down card not yet
    dealt (its zone and the classes it may be) and the number of hands of the position."""
    __slots__ = ("pc", "rnd", "passes", "removed", "frozen", "pending", "hands", "context")

    def __init__(self, pc, rnd, passes, removed, frozen, pending, hands):
        self.pc, self.rnd, self.passes, self.removed = pc, rnd, passes, removed
        self.frozen, self.pending, self.hands = frozen, pending, hands
        self.context = None

    def copy(self, **kw) -> "State":
        s = State(self.pc, clone_round(self.rnd), self.passes, self.removed, self.frozen, self.pending, self.hands)
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    def light(self, **kw) -> "State":
        """A copy whose seats are shared (the dealer's play changes only the dealer's cards)."""
        s = State(self.pc, clone_round(self.rnd, seats=False), self.passes, self.removed, self.frozen, self.pending,
                  self.hands)
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    @property
    def seat(self) -> Seat:
        return self.rnd.seats[1]


def _reads(node: Node | None) -> set[tuple[str, str | None]]:
    """The (owner, zone) of every card reference of an expression (zone None: all the owner's cards)."""
    out = set()
    for x in expr_nodes(node):
        if isinstance(x, Ref) and x.parts[0] in ("player", "dealer", "community"):
            z = x.parts[1] if len(x.parts) > 1 and x.parts[1] != "cards" else None
            out.add((x.parts[0], z))
    return out


class Program:
    """The procedure as instructions: ``("step", step)``, ``("block", step, end)``, ``("loop", step, end)``,
    ``("back", head)``, ``("deal1", step, first)`` (one card of a deal step), with, per instruction, the
    zones its expressions read (IR steps give the expressions; runtime steps the executors)."""

    def __init__(self, game, chapter):
        self.ir = {s.id: s for s in chapter.all_steps()}
        self.ops: list[tuple] = []
        self.reads: list[set] = []
        self._emit(game.procedure)
        self.suffix = self._suffix()

    def _step_reads(self, sid: str, own: bool = True) -> set:
        s = self.ir[sid]
        out = set()
        for e in (s.when, s.players) if own else (s.players,):
            out |= _reads(e)
        for _, e, _ in s.exprs:
            out |= _reads(e)
        for r in s.rules:
            out |= _reads(r.when)
            for a in r.then:
                out |= _reads(a.value)
        for c in s.choices:
            out |= _reads(c.when)
            for a in c.then:
                out |= _reads(a.value)
        return out

    def _add(self, op: tuple, reads: set) -> int:
        self.ops.append(op)
        self.reads.append(reads)
        return len(self.ops) - 1

    def _emit(self, steps) -> None:
        for s in steps:
            if s.kind == "block":
                j = self._add(["block", s, None, None], _reads(self.ir[s.id].when))
                self._emit(s.steps)
                self.ops[j][2] = len(self.ops)
            elif s.kind == "repeat":
                j = self._add(["loop", s, None, None], self._step_reads(s.id))
                self._emit(s.steps)
                self._add(["back", s, j, None], set())
                self.ops[j][2] = len(self.ops)
            elif s.kind == "deal":
                n = int(s.params.get("count", 1))
                after = len(self.ops) + n
                for k in range(n):
                    self._add(["deal1", s, k == 0, after], self._step_reads(s.id, own=k == 0))
            else:
                self._add(["step", s, None, None], self._step_reads(s.id))

    def _suffix(self) -> int:
        """The first instruction of the dealer's play: after the last one that asks or deals to the player."""
        last = -1
        for i, op in enumerate(self.ops):
            s = op[1]
            if s.kind in PLAYER_KINDS or (s.kind == "deal" and s.params.get("to", "players") == "players"):
                last = i
        # a loop that holds a player instruction ends after its back instruction
        for i, op in enumerate(self.ops):
            if op[0] == "back" and op[2] <= last < i:
                last = i
        # the settlements that follow the player's play (a bust lost at once) are still the player's part
        i = last + 1
        while i < len(self.ops) and self.ops[i][0] == "step" and self.ops[i][1].kind in ("settle", "announce"):
            i += 1
        return i


def card_classes(table, decks: int, composition: dict[int, int] | None):
    """(classes: rank lists, class of each card id, a card of each class, the count of each class)."""
    rankings = [table.ranking(rid) for rid in table.game.rankings]
    per_rank = composition if composition is not None else {r: 4 * decks for r in range(13)}
    klass: dict[tuple, list[int]] = {}
    for r in range(13):
        if per_rank.get(r, 0) > 0:
            klass.setdefault(tuple((rk.values[r], r == rk.soft_rank) for rk in rankings), []).append(r)
    classes = list(klass.values())
    of_card = {}
    for i, ranks in enumerate(classes):
        for r in ranks:
            for suit in range(4):
                of_card[r * 4 + suit] = i
    return classes, of_card, [ranks[0] * 4 for ranks in classes], [sum(per_rank[r] for r in ranks) for ranks in classes]


class DrawWalk:
    """The walk of one chapter for one set of bets (see the module docstring); :meth:`run` gives the value of
    the round, the expected net of the seat's wagers, under optimal play."""

    def __init__(self, game, chapter, options: dict | None = None, decks: int | None = None,
                 bets: dict[str, int] | None = None, composition: dict[int, int] | None = None,
                 max_positions: int = 2_000_000):
        from compiler.analysis.draw_dealer import DealerPlay
        from compiler.analysis.draw_split import Splits
        self.game, self.chapter = game, chapter
        self.shoe, self.player = _Shoe(), _Choice()
        self.table = Table(game, dict(options or {}), seed=0, shoe=self.shoe)
        self.table._strategies = lambda n: self.player
        self.decks = decks if decks is not None else self.table.shoe_decks()
        self.classes, self.of_card, self.rep, self.counts = card_classes(self.table, self.decks, composition)
        self.prog = Program(game, chapter)
        self.bets = dict(bets) if bets else {w: 1 for w, d in game.wagers.items() if d.required}
        at: dict = {}
        for s in chapter.all_steps():
            for e in _all_exprs(s):
                zone_reads(e, False, at)
        self.read_at = {k: (None if v == "raw" else (max(v) if v else 0)) for k, v in at.items()}
        self.memo: dict = {}
        self._one: dict = {}
        self.positions = 0
        self.max_positions = max_positions
        self.dealer = DealerPlay(self)
        self.splits = Splits(self)

    # -- keys ----------------------------------------------------------------------------------
    def norm(self, owner: str, zone: str, cards: list) -> tuple:
        """A zone's cards by class as the rules can read them: the positions read in order, the rest sorted."""
        cl = tuple(self.of_card[c] for c in cards if c is not None)
        k = max(self.read_at.get((owner, zone), 0) or 0, self.read_at.get((owner, None), 0) or 0)
        if self.read_at.get((owner, zone), 0) is None or self.read_at.get((owner, None), 0) is None:
            return cl
        return cl[:k] + tuple(sorted(cl[k:]))

    def seat_sig(self, s: Seat, cards: bool = True) -> tuple:
        zones = tuple((z, self.norm("player", z, v)) for z, v in sorted(s.zones.items())) if cards else ()
        return (zones, tuple(sorted(s.flags)), tuple(sorted(s.choices.items())),
                tuple((w.id, w.amount, w.outcome, w.net) for w in s.history), s.ended,
                tuple(sorted((k, repr(v)) for k, v in s.state.items())))

    def key(self, st: State) -> tuple:
        rnd = st.rnd
        dealer = tuple((z, self.norm("dealer", z, v)) for z, v in sorted(rnd.dealer.items()))
        return (st.pc, st.passes, st.removed, st.frozen, st.pending, st.hands, self.seat_sig(st.seat), dealer,
                rnd.stopped, tuple(sorted(rnd.flags)), tuple(sorted((k, repr(v)) for k, v in rnd.state.items())))

    # -- the start -----------------------------------------------------------------------------
    def start(self) -> State:
        table = self.table
        rnd = Round(table, 1, True, False)
        seat = rnd.seats[1] = Seat(1)
        seat.state = {k: v["initial"] for k, v in self.game.state.items() if v.get("per") == "player"}
        for w, amt in self.bets.items():
            table.place(rnd, seat, w, Decimal(amt), self.game.wagers[w].cite)
        return State(0, rnd, (), tuple(0 for _ in self.classes), None, None, 1)

    def run(self) -> Fraction:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            return self.value(self.start())
        finally:
            sys.setrecursionlimit(old)

    def ctx(self, st: State, seat: Seat | None = None) -> Context:
        c = st.context
        if c is None or c.r is not st.rnd:
            c = st.context = Context(self.table, st.rnd)
        c.seat = seat
        c.cite = ""
        return c

    def left(self, st: State, frozen: bool = False) -> list[int]:
        """The count of each class still in the shoe (``frozen``: the shoe at the first decision)."""
        rem = st.frozen if frozen and st.frozen is not None else st.removed
        return [n - r for n, r in zip(self.counts, rem)]

    def one_card(self, step):
        hit = self._one.get(step.id)
        if hit is None:
            from compiler.analysis.draw_steps import one_card
            hit = self._one[step.id] = one_card(step)
        return hit

    def take(self, removed: tuple, c: int) -> tuple:
        return removed[:c] + (removed[c] + 1,) + removed[c + 1:]

    # -- the walk ------------------------------------------------------------------------------
    def value(self, st: State) -> Fraction:
        """The expected net of the seat's wagers from position ``st`` (``st`` is the caller's to lose)."""
        from compiler.analysis.draw_steps import advance
        while True:
            if st.rnd.stopped or st.seat.ended or st.pc >= len(self.prog.ops):
                return self.terminal(st)
            if st.pc == self.prog.suffix:
                return self.dealer.value(st)
            branch = advance(self, st)
            if branch is not None:
                return self.memoized(st, branch)

    def memoized(self, st: State, branch) -> Fraction:
        k = self.key(st)
        hit = self.memo.get(k)
        if hit is None:
            self.positions += 1
            if self.positions > self.max_positions:
                raise DrawLimit(f"more than {self.max_positions:,} positions (the budget of the draw walk)")
            hit = self.memo[k] = branch()
        return hit

    def terminal(self, st: State) -> Fraction:
        """The seat's net once its wagers are all settled (a wager left in action: no figure)."""
        out = Fraction(0)
        for w in st.seat.history:
            if w.outcome is None:
                raise DrawLimit(f"the {self.game.wagers[w.id].name} is left in action when the round ends for the "
                                "seat; the walk values settled wagers only")
            out += Fraction(w.net)
        return out


def _all_exprs(s) -> list[Node]:
    out = [e for e in (s.when, s.players) if e is not None]
    out += [e for _, e, _ in s.exprs]
    for r in s.rules:
        out += [r.when] if r.when is not None else []
        out += [a.value for a in r.then if a.value is not None]
    for c in s.choices:
        out += [c.when] if c.when is not None else []
        out += [a.value for a in c.then if a.value is not None]
    return out


def settle_observations(prog: Program, start: int) -> list[Node]:
    """The maximal card-reading parts of the expressions of instructions from ``start`` on (the settlement)."""
    out: list[Node] = []
    for op in prog.ops[start:]:
        s = prog.ir.get(op[1].id)
        if s is not None:
            for e in _all_exprs(s):
                found: list[Node] = []
                observations(e, found)
                for o in found:
                    _by_owner(o, out)
    return list(dict.fromkeys(out))


def _by_owner(e: Node, out: list[Node]) -> None:
    """The parts of a card-reading expression that each read one owner's cards."""
    from compiler.analysis.card_reads import _CHILDREN
    if len({o for o, _ in _reads(e)}) <= 1:
        if _reads(e):
            out.append(e)
        return
    kids = _CHILDREN.visit(e)
    if not kids:
        out.append(e)
        return
    for x in kids:
        _by_owner(x, out)


def compiled(node: Node) -> Any:
    return closure(node)
