"""The table: a session of rounds of one compiled chapter. A round places the wagers, runs the
chapter's procedure step by step (each kind's executor: compiler/runtime/steps.py), answers the
irregularity events of the round, settles every wager and books it into the ledger, then reshuffles
as the chapter's rule says. Its rooms: seats and wagers (:mod:`.wagers`), the shoe and dealing
(:mod:`.dealing`), irregularities (:mod:`.irregularities`), settlement (:mod:`.settlement`).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping, Sequence

from compiler.runtime.cards import DeckSpec, card_str
from compiler.runtime.carry import Carried, Carry
from compiler.runtime.context import Context
from compiler.runtime.dealing import Dealing
from compiler.runtime.definition import GameDefinition, Step
from compiler.runtime.errors import EngineError, RefusedError
from compiler.runtime.irregularities import Irregularities
from compiler.runtime.money import MoneyError, money, money_context
from compiler.runtime.rankings import Ranking
from compiler.runtime.settlement import Settlement
from compiler.runtime.chance import RandomChance, check_chosen
from compiler.runtime.shoe import CutRule, Shoe, ShoeError, make_rng
from compiler.runtime.state import Ledger, Round, RoundResult, Seat
from compiler.runtime.steps import EXECUTORS
from compiler.runtime.strategy import PlayerView, Strategy, view_of
from compiler.runtime.wagers import Wagers


class Table(Wagers, Dealing, Irregularities, Settlement, Carry):
    """A table running one chapter for a session of rounds.

    ``options``: the casino's Rules Submission selections (defaults from the spec).
    ``seed``: a seeded PRNG for reproducible simulation; None uses OS entropy.
    """

    def __init__(self, game: GameDefinition, options: Mapping[str, Any] | None = None, seed: int | None = None,
                 shoe=None, chance=None):
        self.game = game
        self.options = {**game.defaults(), **dict(options or {})}
        self.rng = make_rng(seed)
        self.chance = chance if chance is not None else RandomChance(self.rng)  # dice, numbers, wheels
        self._rankings: dict[str, Any] = {}
        self.ledger = Ledger()
        self.meters: dict[str, Decimal] = {}
        for mid in game.meters:
            self.meters[mid] = self.meter_reset(mid)
        self.round_number = 0
        self.new_dealer = True
        self.scripted = shoe is not None
        if shoe is None:
            shoe = Shoe(self.shoe_decks(), self.rng, DeckSpec(game.cards.jokers, game.cards.without),
                        CutRule(game.cards.cut_min_from_edge, game.cards.marker_from_bottom))
        self.shoe = shoe
        self.first_after_shuffle = True
        self.game_beginning = True
        self.cover_card_on = None
        self.reshuffles: list[tuple[int, str]] = []
        self.unfinished: int | None = None  # the number of a round that raised before it was settled
        self.loop_observer = None  # told the start of every pass of a `repeat` step (an analysis sets it)
        self.carried: dict[int, Carried] = {}  # position -> wagers on the layout between rounds (carry.py)
        self.several = frozenset(k for k, d in game.wagers.items() if d.several)

    # -- data -------------------------------------------------------------------------------
    def ranking(self, rid: str) -> Ranking:
        r = self._rankings.get(rid)
        if r is None:
            r = self._rankings[rid] = Ranking.from_spec(self.game.rankings[rid], rid)
        return r

    def points_ranking(self, rid: str | None) -> Ranking:
        """The ranking of kind points ``rid`` reads (None: the chapter's only one; validate checks there is one)."""
        if rid is None:
            rid = self.__dict__.get("_points_rid")  # the chapter's only ranking of kind points, once found
            if rid is None:
                ids = [k for k, r in self.game.rankings.items() if r.get("kind") == "points"]
                if len(ids) != 1:
                    raise EngineError(f"a points function names no ranking and the chapter has {len(ids)} of kind "
                                      "points")
                rid = self._points_rid = ids[0]
        return self.ranking(rid)

    def play_round(self, bets: Mapping[int, Mapping[str, Any]], strategy: Strategy | Mapping[int, Strategy] | None = None,
                   events: Sequence[Mapping[str, Any]] = (), new_dealer: bool | None = None,
                   players: Mapping[int, str] | None = None, rolls: Sequence[Any] | None = None,
                   dealer_setting: Any = None) -> RoundResult:
        """Play one round (see :meth:`_play_round`) in the money context; an amount beyond it is refused."""
        with money_context():
            try:
                return self._play_round(bets, strategy, events, new_dealer, players, rolls, dealer_setting)
            except MoneyError as e:
                raise RefusedError(str(e)) from None

    def check_bets(self, seat_no, bets: Mapping[str, Any]) -> dict[str, Decimal]:
        """The wagers of one position as the round would place them (amounts of zero left out), or the
        RefusedError the round would raise: a position off the table, an unknown wager, a required
        wager missing, a wager without the one it requires. ``place`` checks each amount."""
        game = self.game
        if not isinstance(seat_no, int) or not 1 <= seat_no <= game.max_positions:
            raise RefusedError(f"seat {seat_no!r}: this table has positions 1 to {game.max_positions}")
        # an amount, or {amount, numbers} for a wager on numbers the player chooses, or a list of those for a
        # wager a player may have several of (several: true)
        for k, v in bets.items():
            if isinstance(v, (list, tuple)) and k in game.wagers and not game.wagers[k].several:
                raise RefusedError(f"seat {seat_no}: {k!r} is given as a list, but only a wager a player may have "
                                   "several of (several: true) is placed more than once")
        placed = {k: sum((money(x.get("amount", 0) if isinstance(x, Mapping) else x) for x in _each(v)), Decimal(0))
                  for k, v in bets.items()}
        placed = {k: v for k, v in placed.items() if v != 0}
        for wid in placed:
            if game.wagers.get(wid) is None:
                raise RefusedError(f"seat {seat_no}: unknown wager {wid!r}; this chapter has {sorted(game.wagers)}")
        for wid, wd in game.wagers.items():
            if wd.required and wid not in placed and placed:
                raise RefusedError(f"seat {seat_no}: the {wd.name} is required to play ({wd.cite})")
            if wid in placed:
                for req in wd.requires:
                    if req not in placed:
                        raise RefusedError(f"seat {seat_no}: the {wd.name} requires a {game.wagers[req].name} ({wd.cite})")
                for group in wd.requires_any:
                    if not any(req in placed for req in group):
                        raise RefusedError(f"seat {seat_no}: the {wd.name} requires {game.one_of(group)} ({wd.cite})")
        for wid in placed:
            sets: list = []
            for x in _each(bets[wid]):
                amt = money(x.get("amount", 0) if isinstance(x, Mapping) else x)
                if amt == 0:
                    continue
                try:
                    self.check_amount(wid, amt)
                except RefusedError as e:
                    raise RefusedError(f"seat {seat_no}: {e}") from None
                sets.append(self._chosen_set(seat_no, wid, x, sets))
        return placed

    def _chosen_set(self, seat_no, wid: str, bet, earlier: list):
        """The set of numbers of one placement of a wager on chosen numbers (None: none given), refused when a
        placement before it in the seat's bets has the same (one instance a set: one Place on each number)."""
        wd = self.game.wagers[wid]
        if not isinstance(bet, Mapping) or not wd.choose:
            return None
        try:
            chosen = check_chosen(wd, list(bet.get("numbers") or ()), self.game.procedure)
        except ValueError as e:
            raise RefusedError(f"seat {seat_no}: {e}") from None
        if chosen in earlier:
            raise RefusedError(f"seat {seat_no}: {wid}#{len(earlier) + 1} is placed on [{', '.join(chosen)}], as "
                               f"{wid}#{earlier.index(chosen) + 1} is: one {wd.name} on each set of numbers; raise "
                               f"that one instead ({wd.cite})")
        return chosen

    def _play_round(self, bets: Mapping[int, Mapping[str, Any]], strategy: Strategy | Mapping[int, Strategy] | None = None,
                    events: Sequence[Mapping[str, Any]] = (), new_dealer: bool | None = None,
                    players: Mapping[int, str] | None = None, rolls: Sequence[Any] | None = None,
                    dealer_setting: Any = None) -> RoundResult:
        """Play one round. ``bets``: seat -> {wager id: amount} placed before "no more bets" (a wager
        declared with ``choose``: ``{"amount": A, "numbers": [numbers or pockets]}``);
        ``players``: seat -> player name, where one player plays several positions;
        ``rolls``: the dice (lists of die faces) or random numbers of the round's ``roll`` steps, in
        order (a hand history; otherwise the table's RNG rolls); ``dealer_setting``: the dealer's
        low hand as recorded (pai gow: checked against the house way)."""
        game = self.game
        if players:
            self.check_positions(players)
        self.round_number += 1
        if new_dealer is not None:
            self.new_dealer = new_dealer
        rnd = Round(self, self.round_number, self.first_after_shuffle, self.new_dealer)
        rnd.players = dict(players or {})
        rnd.rolls = [list(r) if isinstance(r, (list, tuple)) else [r] for r in (rolls or ())]
        rnd.dealer_setting = dealer_setting
        self.new_dealer = False
        ctx = Context(self, rnd)
        self._reshuffle_if_due(rnd)
        if self.game_beginning:
            self.game_beginning = False
            if self.game.cards.shuffle_cite and not self.scripted:
                rnd.log("shuffle", self.game.cards.shuffle_cite, "cards shuffled and stacked")
            rnd.seats = {n: Seat(n) for n in bets}
            self._log_cut(rnd, "game_beginning")
            rnd.seats = {}
        if not bets and not self.carried:
            raise RefusedError("a round needs at least one player with a wager")
        carried_in = dict(self.carried)
        for seat_no in sorted(set(bets) | set(carried_in)):
            placed = self.check_bets(seat_no, bets.get(seat_no) or {})
            seat = rnd.seats[seat_no] = Seat(seat_no)
            seat.state = {k: v["initial"] for k, v in game.state.items() if v.get("per") == "player"}
            self._bring_carried(rnd, seat)
            for wid in placed:
                for x in _each((bets.get(seat_no) or {})[wid]):  # each instance of a wager of several in turn
                    amt = money(x.get("amount", 0) if isinstance(x, Mapping) else x)
                    if amt != 0:
                        self.place(rnd, seat, wid, amt, game.wagers[wid].cite,
                                   x.get("numbers") if isinstance(x, Mapping) else None)
        strategies = strategy if isinstance(strategy, Mapping) else None
        if strategy is not None and strategies is None and not hasattr(strategy, "choose"):
            raise RefusedError(f"a strategy needs choose() and offer(), got {type(strategy).__name__}")
        default = strategy if strategy is not None and strategies is None else Strategy()
        self._strategies = lambda n: (strategies.get(n, default) if strategies is not None else default)
        pending = [dict(e) for e in events]
        for e in pending:
            if "cards" in e:
                e["cards"] = list(e["cards"])
        self.unfinished = rnd.number  # until the round is settled: a round that raises leaves its cards drawn
        try:
            self._run_steps(ctx, rnd, game.procedure, pending)
            for e in pending:  # events not tied to a step run at the end
                if not e.get("_done"):
                    self._fire(ctx, rnd, e)
        except ShoeError as exc:
            raise EngineError(str(exc), target=getattr(exc, "target", None)) from None
        if rnd.rolls and not rnd.void:
            raise RefusedError(f"the hand history gives {len(rnd.rolls)} roll{'s' if len(rnd.rolls) > 1 else ''} more "
                               f"than the round's roll steps use: {rnd.rolls}")
        carried_out = self._carry_out(rnd)
        results = self._results(rnd)
        self.carried = carried_out
        self.unfinished = None
        reshuffled = self._end_of_round_shuffle(rnd)
        dealt = {"dealer": {z: [card_str(c) for c in v if c is not None] for z, v in rnd.dealer.items()},
                 "community": {z: [card_str(c) for c in v if c is not None] for z, v in rnd.community.items()}}
        for s in rnd.seats_in_round():
            dealt[s.who] = {z: [card_str(c) for c in v if c is not None] for z, v in s.zones.items()}
        return RoundResult(rnd.number, results, rnd.events, rnd.void, reshuffled, dealt, list(rnd.rolled),
                           {n: c.to_json() for n, c in carried_in.items()},
                           {n: c.to_json() for n, c in carried_out.items()})

    def _run_steps(self, ctx: Context, rnd: Round, steps: Sequence[Step], pending: list[dict]) -> None:
        for step in steps:
            if rnd.stopped:
                return
            for e in pending:
                if not e.get("_done") and e.get("before") == step.id:
                    self._fire(ctx, rnd, e)
                    if rnd.stopped:
                        return
            ctx.seat = None
            if step.when is None or step.when(ctx):
                self._run_step(ctx, rnd, step, pending)
            for e in pending:
                if not e.get("_done") and e.get("after") == step.id:
                    self._fire(ctx, rnd, e)
                    if rnd.stopped:
                        return
            if not any(not s.ended for s in rnd.seats.values()):
                rnd.stopped = True
                return

    def _players(self, ctx: Context, rnd: Round, step: Step) -> list[Seat]:
        out = []
        for s in rnd.seats_in_round(step.order):
            if s.ended or (rnd.turn is not None and s.key != rnd.turn):
                continue
            ctx.seat = s
            if step.players is None or step.players(ctx):
                out.append(s)
        ctx.seat = None
        return out

    def _view(self, rnd: Round, seat: Seat) -> PlayerView:
        return view_of(rnd, seat)

    def _run_step(self, ctx: Context, rnd: Round, step: Step, pending: list[dict]) -> None:
        run = EXECUTORS.get(step.kind)
        if run is None:
            raise EngineError(f"unknown step kind {step.kind!r}")
        ctx.cite = step.cite
        run(self, ctx, rnd, step, pending)


def _each(v) -> list:
    """The placements of one wager of a seat's bets: a list (a wager of several), or the one given."""
    return list(v) if isinstance(v, (list, tuple)) else [v]
