"""A chapter's procedure compiled from the IR into vectorised numpy operations over many tables.

Every table is an engine ``Table`` shoe (same seed, same shuffle and cut, same reshuffle marker);
a round is played for all tables at once: each step of the procedure becomes a few array
operations over (tables, seats), each rule's ``when`` a boolean mask, each action a masked update
of integer-cent arrays.  Money is computed with the engine's own functions
(``Odds.payout``, ``to_cents``) on the few distinct stakes, so every cent matches the engine.

What is compiled (anything else raises :class:`Unsupported` naming the step and its §, and the
caller falls back to the engine):

* steps ``announce``, ``reveal`` (no effect without a log), ``burn``, ``deal`` to players, the
  dealer, the community or ``positions`` (every position and the dealer, from a starting position
  counted by ``start``; a zone several deal steps deal to holds their cards appended), ``roll``
  (the table's own random words), ``spin`` (a wheel's equally likely pockets), ``collect_unwagered``,
  ``set_hands`` (the house way compiled to numpy: compiler/fast/houseway.py), ``settle`` (seat by
  seat where it sets the round's state), ``decide`` (a fixed preference order, as ``FixedStrategy``),
  ``offer`` (fixed amounts), ``envy``, ``block``, ``repeat`` (without ``players``: every table loops
  until its own ``while``/``until`` stops it, the ``bound`` returning the wagers in action);
* expressions: literals, ``round.*``, ``state.*`` (whole numbers, per round or per player),
  ``dice.*``, ``pocket.*``, ``hand``, ``best``, ``category``, ``category_rank``, ``at_least``,
  ``is_hand`` (compiler/fast/hands.py, built from the engine's rankings), rankings of kind points
  (``points``, ``total``, ``soft``, ``natural``, ``bust``, ``hand``: compiler/fast/points.py), ``card``,
  ``suited``, cards of several zones (``player.hand + community``), ``has``, ``placed``, ``wager``
  (amounts in dollars compared in cents), ``flag``, ``chose``, ``option``, ``offered``, ``active``,
  ``count``, ``any_player``, ``count_players``, ``dice_count``, ``hits``/``matched``/``picked`` (a
  wager on chosen numbers is placed with one set of numbers at every seat); comparisons, ``and``,
  ``or``, ``not``, ``+ - *``;
* actions: ``win`` (payout, odds, paytable rows on cards or on a hand value; not meters), ``bonus``
  (by a paytable, part of the wager's result unless it ends void), ``lose``, ``push``, ``return``,
  ``surrender``, ``place``, ``set``, ``clear``, ``set NAME = EXPR``, ``end``, ``note``;
* reshuffle at the cover card or after every round, as the engine (every table's shoe shuffled at
  once, word for word as ``random.shuffle``: :class:`_MTShoes`).

Modules: ``vector`` (this one: :class:`FastGame` and its round loop), ``state`` (the round state,
outcome codes, shared helpers), ``shoes`` (the shoes shuffled at once), ``expressions`` and
``steps`` (the compilers of expressions and of steps, mixins of :class:`FastGame`), ``pay``
(paytables and bonuses), ``points`` (rankings of kind points), ``chance`` (dice and wheels), ``loops``
(round state and ``repeat``), ``played`` (what the tables did), ``hands`` and ``houseway`` (rankings
and house ways in numpy).
"""
from __future__ import annotations

import numpy as np

from compiler.fast.chance import ChanceCompiler
from compiler.fast.expressions import ExpressionCompiler
from compiler.fast.loops import LoopCompiler
from compiler.fast.pay import PaytableCompiler
from compiler.fast.played import Played
from compiler.fast.points import PointsCompiler
from compiler.fast.shoes import _MTShoes
from compiler.fast.state import OPEN, VOID, State, Unsupported, _cents, _Money, _stop, _Strat
from compiler.fast.steps import StepCompiler
from compiler.runtime.chance import check_chosen
from compiler.runtime.engine import Table
from compiler.runtime.errors import UnsettledError
from compiler.runtime.money import money
from compiler.runtime.shoe import Shoe

__all__ = ["FastGame", "Played", "State", "Unsupported", "compile_fast"]


class FastGame(ExpressionCompiler, ChanceCompiler, LoopCompiler, PaytableCompiler, PointsCompiler, StepCompiler):
    """A compiled procedure; :meth:`play` runs rounds on tables seeded like the engine's."""

    def __init__(self, chapter, game, options, bets=None):
        self.chapter, self.game = chapter, game
        self.options = {**game.defaults(), **dict(options or {})}
        self.proto = Table(game, self.options, seed=0)
        self.money = _Money()
        self.zone_cards: dict[tuple, int] = {}
        self.grown: set = set()
        self.ordinals: dict[str, np.ndarray] = {}
        self.wagers = list(game.wagers)
        cd = game.cards
        if cd.reshuffle not in ("cover_card", "every_round", "never"):  # never: no cards, no shoe
            raise Unsupported(f"reshuffle rule {cd.reshuffle!r}")
        if not chapter.procedure:
            raise Unsupported("a chapter without a procedure")
        for w, d in game.wagers.items():  # its tables hold one stake a wager a seat: never several at once
            if d.several and self.proto.offered(w):
                raise Unsupported(f"wager {w!r} ({d.cite}), which a player may have several of at once (several: true)")
        self._zones(chapter.procedure)
        self.round_attrs = {"roll"} if any(x.kind == "roll" for x in chapter.all_steps()) else set()
        self.steps = [self._step(s) for s in chapter.procedure]
        for w in bets or ():
            self._plain(w)

    # -- compile ----------------------------------------------------------------------------
    def _zones(self, steps, dealt=None, passes=1):
        """The width of every zone (``zone_cards``): the cards of its one dealing step; a zone that several
        ``deal`` steps deal to (``grown``: cards appended as the engine appends them, to any of players, the
        dealer, the community) holds the sum of their counts, and is read as wide as its fullest hand. A
        ``deal`` step inside a ``repeat`` deals once a pass: up to ``bound`` times its count, appended."""
        top = dealt is None
        dealt = {} if top else dealt
        for s in steps:
            p = dict(s.params)
            keys = []
            if s.kind == "deal":
                to = p.get("to", "players")
                z, n = p.get("zone", "cards"), int(p.get("count", 1))
                if to == "positions":
                    keys = [("player", z, n, "fixed"), ("dealer", z, n, "fixed")]
                elif to in ("players", "dealer", "community"):
                    keys = [("player" if to == "players" else to, z, n * passes, "deal" if passes == 1 else "loop")]
                else:
                    raise Unsupported(f"step {s.id!r} ({s.cite}): deal to {to!r}")
            elif s.kind == "set_hands":
                owner = "dealer" if p.get("to", "players") == "dealer" else "player"
                keys = [(owner, "high", int(p["high"]), "fixed"), (owner, "low", int(p["low"]), "fixed")]
            for owner, z, n, how in keys:
                dealt.setdefault((owner, z), []).append((n, how, s))
            self._zones(s.steps, dealt, passes * int(p["bound"]) if s.kind == "repeat" else passes)
        if not top:
            return
        for key, ds in dealt.items():
            if all(how in ("deal", "loop") for _, how, _ in ds) and (len(ds) > 1 or ds[0][1] == "loop"):
                self.grown.add(key)
                self.zone_cards[key] = sum(n for n, _, _ in ds)
                continue
            for n, _, s in ds:  # a zone dealt to every position or set: one size, each step writes it whole
                if self.zone_cards.get(key, n) != n:
                    raise Unsupported(f"step {s.id!r} ({s.cite}): zone {key[1]!r} dealt by two steps of different "
                                      "sizes, one of them to every position or setting the hands")
                self.zone_cards[key] = n

    def _bets(self, bets: dict, offers) -> tuple[dict, dict]:
        """The stakes in cents of the wagers placed before the deal, and the numbers of those placed on
        chosen numbers (``{"amount": A, "numbers": [...]}``, a legal set: the engine's check_chosen)."""
        bets_c, chosen = {}, {}
        for w, v in bets.items():
            wd = self.game.wagers[w]
            if isinstance(v, dict):
                if not wd.choose:
                    raise Unsupported(f"wager {w!r} given numbers, not placed on chosen numbers ({wd.cite})")
                try:
                    chosen[w] = check_chosen(wd, list(v.get("numbers") or ()), self.game.procedure)
                except ValueError as e:
                    raise Unsupported(f"wager {w!r}: {e}") from None
                v = v.get("amount")
            elif wd.choose:
                raise Unsupported(f"wager {w!r} placed on chosen numbers without its numbers ({wd.cite})")
            if money(v) != 0:
                bets_c[w] = _cents(money(v))
        for w in list(bets_c) + list(offers or {}):
            self._plain(w)
            if w not in bets_c and self.game.wagers[w].choose:
                raise Unsupported(f"wager {w!r} offered on chosen numbers ({self.game.wagers[w].cite})")
        return bets_c, chosen

    # -- play -------------------------------------------------------------------------------
    def _left_on_layout(self, st: State, w: str, left_open, left) -> None:
        """A wager that stays (``stays: until_settled``) left open by a table's last round is on the layout, not
        among the round's results (as the engine's round); one left open before a further round of the table
        would be carried into it, which these tables do not play."""
        d = self.game.wagers[w]
        if (left_open & (left > 1)[:, None]).any():
            raise Unsupported(f"wager {w!r} ({d.cite}) stays on the layout into the table's next round "
                              "(stays: until_settled)")
        st.amount[w] = np.where(left_open, 0, st.amount[w])

    def play(self, seeds: list[int], rounds: list[int] | int, seats: int, bets: dict, prefer=(),
             offers: dict | None = None, record: bool = False) -> "Played":
        """Play ``rounds[k]`` rounds at table k (a fresh engine Table seeded ``seeds[k]``), ``seats``
        positions each with ``bets`` (wager -> amount in dollars) before the deal."""
        K, S = len(seeds), seats
        rounds = [rounds] * K if isinstance(rounds, int) else list(rounds)
        proto = self.proto.shoe
        if type(proto) is not Shoe:
            raise Unsupported("a shoe that is not the engine's Shoe")
        mts = _MTShoes(seeds, proto)
        shoe = mts.shuffle(np.arange(K))
        N = shoe.shape[1]
        marker = proto.marker
        offered = {w: self.proto.offered(w) for w in self.wagers}
        bets_c, chosen = self._bets(bets, offers)
        strat = _Strat(prefer, offers)
        base_wagers = [w for w, d in self.game.wagers.items() if d.required or d.placed == "during_round"]
        out = Played(K, S, self.wagers, base_wagers)
        left = np.array(rounds)
        first = np.ones((K, 1), dtype=bool)
        newd = np.ones((K, 1), dtype=bool)
        idx = np.zeros(K, dtype=np.int64)
        r = 0
        while (left > 0).any():
            r += 1
            playing = (left > 0)[:, None]
            st = State(K, S, shoe, idx, np.broadcast_to(playing, (K, S)).copy(), playing.copy(), self.options, offered)
            st.ended = np.zeros((K, S), dtype=bool)
            st.first_after_shuffle, st.new_dealer = first, newd
            st.number = np.full((K, 1), r)
            st.rolls = mts
            for w in self.wagers:
                st.amount[w] = np.zeros((K, S), dtype=np.int64)
                st.outcome[w] = np.zeros((K, S), dtype=np.int8)
                st.net[w] = np.zeros((K, S), dtype=np.int64)
            for w, c in bets_c.items():
                st.amount[w][st.in_round] = c
            self._state_init(st)
            st.chosen = chosen
            for z, n in self.zone_cards.items():
                st.zones[z] = np.full((K, S if z[0] == "player" else 1, n), -1, dtype=np.int32)
            if S > self.game.max_positions:
                raise Unsupported(f"{S} seats; the table has {self.game.max_positions} positions")
            for step in self.steps:
                if not st.live.any():
                    break
                step(st, strat)
                _stop(st)
            for w in self.wagers:
                left_open = st.in_round & (st.amount[w] > 0) & (st.outcome[w] == OPEN)
                if left_open.any() and self.game.wagers[w].stays:
                    self._left_on_layout(st, w, left_open, left)
                    continue
                if left_open.any():
                    _, seat = (int(x) for x in np.argwhere(left_open)[0])
                    name = self.game.wagers[w].name
                    raise UnsettledError(f"round {r}, seat {seat + 1}: the {name} ({w!r}) is left unsettled: no rule "
                                         "of the procedure settled it", w, seat + 1, r)
            for w, b in st.bonus.items():  # a bonus is part of its wager's result, unless the wager is void
                st.net[w] += np.where(st.outcome[w] != VOID, b, 0)
            out.add_round(st, playing[:, 0], record)
            idx = st.idx
            if self.game.cards.reshuffle == "every_round":
                resh = playing[:, 0].copy()
            else:
                resh = playing[:, 0] & (marker is not None) & (idx >= (marker if marker is not None else 0))
            if resh.any():
                shoe[resh] = mts.shuffle(np.flatnonzero(resh))
            idx[resh] = 0
            out.reshuffles += resh
            first = np.where(playing, resh[:, None], first)
            newd = np.where(playing, False, newd)
            left = left - 1
        assert N == shoe.shape[1]
        return out


def compile_fast(chapter, game, options=None, bets=None) -> FastGame:
    """The fast path of a compiled chapter (for these wagers placed before the deal), or
    :class:`Unsupported` saying what it lacks."""
    return FastGame(chapter, game, options, bets)
