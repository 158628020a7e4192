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

import os
import sys
import time
from decimal import Decimal
from fractions import Fraction

from compiler.analysis.card_reads import zone_reads
from compiler.analysis.draw_dealer import DealerPlay
from compiler.analysis.draw_model import (PLAYER_KINDS, DrawLimit, Program, State, Value, _all_exprs, _Choice, _Shoe,
                                          card_classes, rules_read)
from compiler.analysis.draw_split import Splits
from compiler.analysis.draw_steps import advance, one_card
from compiler.runtime.context import Context
from compiler.runtime.engine import Table
from compiler.runtime.state import Round, Seat
from compiler.values import walk_limits

__all__ = ["DrawLimit", "DrawWalk", "State"]


class DrawWalk:
    """The walk of one chapter for one set of bets (see the module docstring); :meth:`run` gives the value of
    the round, the expected net of the seat's wagers, under optimal play."""

    def __init__(self, game, chapter, options: dict | None = None, decks: int | None = None,
                 bets: dict[str, int] | None = None, composition: dict[int, int] | None = None,
                 max_positions: int = 2_000_000, jobs: int = 1, reads: tuple | None = None):
        """``reads``: what the card classes tell apart (:func:`rules_read`'s pair); None: what the rules read."""
        self.game, self.chapter = game, chapter
        self.shoe, self.player = _Shoe(), _Choice()
        self.table = Table(game, dict(options or {}), seed=0, shoe=self.shoe)
        self.table._strategies = lambda n: self.player
        self.decks = decks if decks is not None else self.table.shoe_decks()
        self.bets = dict(bets) if bets else {w: 1 for w, d in game.wagers.items() if d.required}
        self.classes, self.of_card, self.rep, self.counts, self.point_keys = card_classes(
            self.table, self.decks, composition, rules_read(game, chapter, self.bets) if reads is None else reads)
        self.prog = Program(game, chapter)
        self.target: str | None = None  # a wager valued alone, up to its settlement (side_walk)
        at: dict = {}
        for s in chapter.all_steps():
            for e in _all_exprs(s):
                zone_reads(e, False, at)
        self.read_at = {k: (None if v == "raw" else (max(v) if v else 0)) for k, v in at.items()}
        self.memo: dict = {}
        self._norms: dict = {}  # (owner, zone, cards) -> norm: the walk meets few distinct hands, millions of times
        self.dealt: dict = {}  # the value of the position just after a deal, by its key (key_after_deal)
        self._one: dict = {}
        self.positions = 0
        self.max_positions = max_positions
        self.jobs = jobs  # processes (more than one: the first deal's classes walked apart, draw_parallel)
        self.chart = None  # the strategy chart, when kept (keep_chart)
        self.every = walk_limits.progress.get()
        self._began = self._said = time.monotonic()
        self.dealer = DealerPlay(self)
        self.splits = Splits(self)

    def keep_chart(self):
        """Keep the optimal choices of the player's first decisions as a chart (draw_chart)."""
        from compiler.analysis.draw_chart import DrawStrategy
        self.chart = DrawStrategy(self)
        return self.chart

    # -- keys ----------------------------------------------------------------------------------
    def norm(self, owner: str, zone: str, cards: list) -> tuple:
        """A zone's cards by class as the rules can read them: the positions read in order, the rest sorted."""
        key = (owner, zone, tuple(cards))
        hit = self._norms.get(key)
        if hit is None:
            cl = tuple(self.of_card[c] for c in cards if c is not None)
            k = max(self.read_at.get((owner, zone), 0) or 0, self.read_at.get((owner, None), 0) or 0)
            if self.read_at.get((owner, zone), 0) is None or self.read_at.get((owner, None), 0) is None:
                hit = cl
            else:
                hit = cl[:k] + tuple(sorted(cl[k:]))
            self._norms[key] = hit
        return hit

    def seat_sig(self, s: Seat, cards: bool = True) -> tuple:
        zones = tuple((z, self.norm("player", z, v)) for z, v in sorted(s.zones.items())) if cards else ()
        return (zones, tuple(sorted(s.flags)), tuple(sorted(s.choices.items())),
                tuple((w.id, w.amount, w.outcome, w.net) for w in s.history), s.ended,
                tuple(sorted((k, repr(v)) for k, v in s.state.items())))

    def key(self, st: State) -> tuple:
        return self._key(st, st.pc, st.removed, st.seat.zones, st.rnd.dealer)

    def keys_after_deal(self, st: State, owner: str, zone: str):
        """A function (class, cards removed) -> the key of the position after instruction ``st.pc`` deals a
        card of the class face up to the seat's (or the dealer's) ``zone``: the engine's deal step appends
        it there and changes nothing else the key holds (the parts not dealt to are read once)."""
        rnd = st.rnd
        seat, dealer = dict(st.seat.zones), dict(rnd.dealer)
        held = seat if owner == "player" else dealer
        held.setdefault(zone, [])
        parts = {z: (z, self.norm(owner, z, v)) for z, v in held.items()}
        cl = parts[zone][1]
        limit = self.read_at.get((owner, zone), 0)
        whole = self.read_at.get((owner, None), 0)
        k = None if limit is None or whole is None else max(limit or 0, whole or 0)
        order = sorted(held)
        rest = self.seat_sig(st.seat, cards=False)[1:]
        others = tuple((z, self.norm("dealer", z, v)) for z, v in sorted(dealer.items())) if owner == "player" \
            else tuple((z, self.norm("player", z, v)) for z, v in sorted(seat.items()))
        tail = self._round_sig(st)

        def key(c: int, removed: tuple) -> tuple:
            new = cl + (c,) if k is None or len(cl) < k else cl[:k] + tuple(sorted(cl[k:] + (c,)))
            zones = tuple((z, new) if z == zone else parts[z] for z in order)
            seat_t, dealer_t = (zones, others) if owner == "player" else (others, zones)
            return self._layout(st, st.pc + 1, removed, seat_t, rest, dealer_t, tail)
        return key

    def _key(self, st: State, pc: int, removed: tuple, seat_zones: dict, dealer_zones: dict) -> tuple:
        zones = tuple((z, self.norm("player", z, v)) for z, v in sorted(seat_zones.items()))
        dealer = tuple((z, self.norm("dealer", z, v)) for z, v in sorted(dealer_zones.items()))
        return self._layout(st, pc, removed, zones, self.seat_sig(st.seat, cards=False)[1:], dealer,
                            self._round_sig(st))

    @staticmethod
    def _round_sig(st: State) -> tuple:
        rnd = st.rnd
        return rnd.stopped, tuple(sorted(rnd.flags)), tuple(sorted((k, repr(v)) for k, v in rnd.state.items()))

    @staticmethod
    def _layout(st: State, pc: int, removed: tuple, zones: tuple, rest: tuple, dealer: tuple, tail: tuple) -> tuple:
        """The key of a position (one layout for :meth:`key` and :meth:`keys_after_deal`)."""
        return (pc, st.passes, removed, st.frozen, st.pending, st.hands, (zones,) + rest, dealer) + tail

    # -- the start -----------------------------------------------------------------------------
    def start(self) -> State:
        table = self.table
        rnd = Round(table, 1, True, False)
        seat = rnd.seats[1] = Seat(1)
        seat.state = {k: v["initial"] for k, v in self.game.state.items() if v.get("per") == "player"}
        for w, amt in self.bets.items():
            table.place(rnd, seat, w, Decimal(amt), self.game.wagers[w].cite)
        return State(0, rnd, (), tuple(0 for _ in self.classes), None, None, 1)

    def run(self) -> Value:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20_000))
        try:
            if self.jobs > 1:
                from compiler.analysis.draw_parallel import run_parallel
                return run_parallel(self, self.jobs)
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
            hit = self._one[step.id] = one_card(step)
        return hit

    def take(self, removed: tuple, c: int) -> tuple:
        return removed[:c] + (removed[c] + 1,) + removed[c + 1:]

    # -- the walk ------------------------------------------------------------------------------
    def value(self, st: State) -> Value:
        """The expected net of the seat's wagers (and their stake) from position ``st`` (``st`` is the caller's to lose)."""
        while True:
            if self.target is not None:
                settled = self._target_settled(st)
                if settled is not None:
                    return settled
            if st.rnd.stopped or st.seat.ended or st.pc >= len(self.prog.ops):
                return self.terminal(st)
            if st.pc == self.prog.suffix:
                return self.dealer.value(st)
            branch = advance(self, st)
            if branch is not None:
                return self.memoized(st, branch)

    def _target_settled(self, st: State) -> Value | None:
        """The net and stake of the wager valued alone once it is settled (None before); a position that asks
        the player, or begins the dealer's play, with it still in action: no figure (its value would follow
        the play of the round, which this walk does not value)."""
        w = st.seat.wagers.get(self.target)
        if w is not None and w.outcome is not None:
            return Value(Fraction(w.net), Fraction(w.amount))
        op = self.prog.ops[st.pc] if st.pc < len(self.prog.ops) else None
        if op is not None and (op[1].kind in PLAYER_KINDS or st.pc == self.prog.suffix):
            raise DrawLimit(f"the {self.game.wagers[self.target].name} is still in action at step {op[1].id} "
                            f"({op[1].cite}); a wager is valued alone when it is settled before the player decides")
        return None

    def memoized(self, st: State, branch) -> Value:
        k = self.key(st)
        hit = self.memo.get(k)
        if hit is None:
            self.positions += 1
            if self.positions > self.max_positions:
                raise DrawLimit(f"more than {self.max_positions:,} positions (the budget of the draw walk)")
            if self.every is not None and not self.positions % 4096:
                self._progress()
            hit = self.memo[k] = branch()
        return hit

    def _progress(self) -> None:
        """A line on standard error every ``walk_limits.progress`` seconds: the positions valued so far."""
        now = time.monotonic()
        if now - self._said >= self.every:
            self._said = now
            who = f" (process {os.getpid()})" if self.jobs > 1 else ""
            print(f"draw walk{who}: {self.positions:,} positions of the player valued, "
                  f"{now - self._began:,.0f} s", file=sys.stderr, flush=True)

    def terminal(self, st: State) -> Value:
        """The seat's net, and the amount its wagers staked, once they are all settled (a wager left in action:
        no figure)."""
        net, staked = Fraction(0), Fraction(0)
        for w in st.seat.history:
            if w.outcome is None:
                raise DrawLimit(f"the {self.game.wagers[w.id].name} is left in action when the round ends for the "
                                "seat; the walk values settled wagers only")
            net += Fraction(w.net)
            staked += Fraction(w.amount)
        return Value(net, staked)
