"""The round engine: executes a compiled chapter, step by step, logging every operation with its §.

A generated game module (``generated/games/*.py``) builds a :class:`GameDefinition` from the
rulespec: its data (rankings, paytables, payouts, wagers, options, cards) as literals, and its
procedure as :class:`Step` objects whose conditions and outcomes are compiled Python
functions of a :class:`Context`. This module is generic: it knows card primitives (deal, burn,
reveal, decide, offer, settle), money, and irregularity events; it knows no chapter.

Seats are numbered as seen from the dealer: seat 1 is the position farthest to the dealer's
left (dealt first), and seat numbers grow clockwise toward the dealer's right.
``clockwise`` visits seats in increasing order, ``counterclockwise`` in decreasing order.

Money: every wager's stake leaves the player's stack when placed. Settlement gives each wager
one outcome (win, lose, push, void, surrender) and a net; :class:`Ledger` keeps players' net,
house net and the progressive meters so that over any session
``players + house + meter growth == 0`` exactly.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

from compiler.runtime.cards import card_str
from compiler.runtime.money import CENT, MoneyError, Odds, fmt_money, money, money_context, percent, to_cents
from compiler.runtime.shoe import CutRule, ScriptedShoe, Shoe, ShoeError, make_rng
from compiler.runtime.cards import DeckSpec


class EngineError(RuntimeError):
    """The procedure cannot go on: a spec inconsistency, or input that does not fit it.

    ``pointer``: where in a hand history the input that does not fit is, when known (an event's
    ``_ptr``); ``target``: the (owner, seat, zone) a missing card was dealt to."""

    def __init__(self, message: str = "", pointer: str | None = None, target: tuple | None = None):
        super().__init__(message)
        self.pointer = pointer
        self.target = target


class RefusedError(EngineError):
    """A wager or choice the chapter (or the casino's Rules Submission) does not allow."""


# ---------------------------------------------------------------------------------------------
# The compiled chapter
# ---------------------------------------------------------------------------------------------

Fn = Callable[["Context"], Any]


@dataclass(frozen=True)
class Rule:
    cite: str
    when: Fn | None
    then: Fn
    source: str = ""  # "rulespecs/x.yaml:12" of the rule


@dataclass(frozen=True)
class Choice:
    id: str
    cite: str
    then: Fn | None
    when: Fn | None = None
    source: str = ""


@dataclass(frozen=True)
class Step:
    id: str
    kind: str  # announce | burn | deal | reveal | decide | offer | settle | block
    cite: str
    when: Fn | None = None
    players: Fn | None = None
    order: str = "clockwise"
    params: Mapping[str, Any] = field(default_factory=dict)
    rules: tuple[Rule, ...] = ()
    choices: tuple[Choice, ...] = ()
    steps: tuple["Step", ...] = ()
    source: str = ""
    exprs: Mapping[str, Fn] = field(default_factory=dict)  # further compiled expressions (envy: qualifying, hand)


@dataclass(frozen=True)
class Irregularity:
    id: str
    event: str
    cite: str
    rules: tuple[Rule, ...]
    title: str = ""


@dataclass(frozen=True)
class WagerDef:
    id: str
    name: str
    cite: str
    pays: str | None = None  # default payout id
    required: bool = False
    offered_by: str | None = None  # option id that must be true for the wager to be offered
    requires: tuple[str, ...] = ()  # wagers that must be placed with it
    progressive: str | None = None  # meter id
    placed: str = "before_deal"  # or 'during_round' (War wager, Double Down)
    amounts: tuple[Decimal, ...] = ()  # the only amounts allowed (empty: any)


@dataclass(frozen=True)
class Payout:
    id: str
    odds: Odds | None  # None: the odds are not in the sources (a partial chapter)
    cite: str
    odds_option: str | None = None  # the odds are the casino's selection of this option, when given
    unpriced: str = ""  # why a win at this payout has no amount when no odds are known


@dataclass(frozen=True)
class Paytable:
    id: str
    title: str
    cite: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Odds, ...], str], ...]  # (hand id, odds per column, label)
    option: str | None = None  # option selecting the column
    ranking: str | None = None
    amounts: tuple[Decimal, ...] = ()  # column chosen by the receiving wager's amount (Envy schedules)


@dataclass(frozen=True)
class MeterDef:
    id: str
    cite: str
    rate_option: str | None
    reset_option: str | None


@dataclass(frozen=True)
class CardsDef:
    decks_option: str | None
    decks_default: int
    jokers: int
    cut_min_from_edge: int
    marker_from_bottom: Fraction | None
    reshuffle: str  # 'cover_card' | 'every_round'
    reshuffle_cite: str
    batches: int = 1
    batches_when: Fn | None = None  # condition (on options) under which decks are split into batches
    cut_cite: str = ""
    shuffle_cite: str = ""
    cut_offer: tuple[tuple[str, str, str], ...] = ()  # (situation, to, cite)
    cut_refused: tuple[str, str] = ("clockwise", "")  # rotation, cite
    marker_cite: str = ""


@dataclass(frozen=True)
class GameDefinition:
    chapter: str
    title: str
    spec_path: str
    max_positions: int
    rankings: Mapping[str, Mapping]
    paytables: Mapping[str, Paytable]
    payouts: Mapping[str, Payout]
    wagers: Mapping[str, WagerDef]
    options: Mapping[str, Mapping]
    cards: CardsDef
    procedure: tuple[Step, ...]
    irregularities: tuple[Irregularity, ...]
    meters: Mapping[str, MeterDef] = field(default_factory=dict)
    constraints: tuple[tuple[str, str, Fn], ...] = ()  # (cite, message, condition on the options)
    requirements: tuple[tuple[str, str, str | None, Fn | None], ...] = ()  # (cite, text, step, condition)
    positions_max: Fn | None = None  # how many positions one player may play (options only)
    positions_adjacent: bool = False
    positions_cite: str = ""
    house_ways: Mapping[str, Any] = field(default_factory=dict)  # id -> compiler.runtime.paigow.HouseWay

    def defaults(self) -> dict[str, Any]:
        return {k: v.get("default") for k, v in self.options.items() if "default" in v}


# ---------------------------------------------------------------------------------------------
# Round state
# ---------------------------------------------------------------------------------------------


@dataclass
class Wager:
    id: str
    amount: Decimal
    cite: str
    outcome: str | None = None  # win | lose | push | void | surrender
    net: Decimal = Decimal(0)
    cites: list[str] = field(default_factory=list)
    detail: str = ""
    meter_paid: Decimal = Decimal(0)  # gross paid by a progressive meter (not the table inventory)
    contribution: Decimal = Decimal(0)  # share of the stake added to a progressive meter
    priced: bool = True  # False: a win whose amount the sources do not give (net left at 0)


@dataclass
class Seat:
    number: int
    wagers: dict[str, Wager] = field(default_factory=dict)
    history: list[Wager] = field(default_factory=list)  # every wager of the round, in order
    zones: dict[str, list] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    choices: dict[str, str] = field(default_factory=dict)
    bonuses: list["WagerResult"] = field(default_factory=list)
    ended: bool = False

    def cards(self) -> list:
        out: list = []
        for z in self.zones.values():
            out.extend(z)
        return out


@dataclass(frozen=True)
class Event:
    """One logged operation of a round."""

    kind: str
    cite: str
    text: str
    seat: int | None = None
    wager: str | None = None
    amount: Decimal | None = None
    net: Decimal | None = None

    def to_json(self) -> dict:
        d = {"kind": self.kind, "cite": self.cite, "text": self.text}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.wager is not None:
            d["wager"] = self.wager
        if self.amount is not None:
            d["amount"] = str(self.amount)
        if self.net is not None:
            d["net"] = str(self.net)
        return d

    def format(self) -> str:
        who = f"seat {self.seat}: " if self.seat is not None else ""
        return f"{who}{self.text}  [{self.cite}]" if self.cite else f"{who}{self.text}"


@dataclass
class WagerResult:
    seat: int
    wager: str
    name: str
    amount: Decimal
    outcome: str
    net: Decimal
    cites: tuple[str, ...]
    detail: str = ""
    priced: bool = True  # False: a win whose amount is not determined (payout odds not in the sources)

    def to_json(self) -> dict:
        d = {
            "seat": self.seat,
            "wager": self.wager,
            "name": self.name,
            "amount": str(self.amount),
            "outcome": self.outcome,
            "net": str(self.net),
            "cites": list(self.cites),
            "detail": self.detail,
        }
        if not self.priced:
            d["priced"] = False
            d["net"] = None
        return d


@dataclass
class RoundResult:
    number: int
    results: list[WagerResult]
    log: list[Event]
    void: bool
    reshuffled: bool
    dealt: dict[str, dict[str, list[str]]]

    def net_by_seat(self) -> dict[int, Decimal]:
        out: dict[int, Decimal] = {}
        for r in self.results:
            out[r.seat] = out.get(r.seat, Decimal(0)) + r.net
        return out

    def to_json(self) -> dict:
        return {
            "round": self.number,
            "void": self.void,
            "reshuffled": self.reshuffled,
            "results": [r.to_json() for r in self.results],
            "net_by_seat": {str(k): str(v) for k, v in sorted(self.net_by_seat().items())},
            "dealt": self.dealt,
            "log": [e.to_json() for e in self.log],
        }


@dataclass
class Ledger:
    players: Decimal = Decimal(0)
    house: Decimal = Decimal(0)
    meters: Decimal = Decimal(0)  # growth of all progressive meters since the session began

    def balance(self) -> Decimal:
        return self.players + self.house + self.meters


class Strategy:
    """A player's decisions. Subclass, or use :class:`FixedStrategy` / :class:`CallbackStrategy`."""

    def choose(self, decision: str, choices: Sequence[str], view: "PlayerView") -> str:
        return choices[0]

    def offer(self, wager: str, view: "PlayerView") -> Decimal:
        return Decimal(0)

    def setting(self, step: str, candidates: Sequence[tuple], view: "PlayerView") -> tuple | None:
        """Pai gow: the (high, low) setting chosen among ``candidates``, or None to have the hands
        set by the house way (the way the casino requires them set, e.g. § 670a.11(a)(1))."""
        return None


class FixedStrategy(Strategy):
    """Always picks ``prefer`` (the first preferred choice available) and places fixed offers."""

    def __init__(self, prefer: Mapping[str, str] | Sequence[str] = (), offers: Mapping[str, Any] | None = None):
        self.prefer = prefer
        self.offers = {k: money(v) for k, v in (offers or {}).items()}

    def choose(self, decision, choices, view):
        if isinstance(self.prefer, Mapping):
            want = self.prefer.get(decision)
            if want in choices:
                return want
            return choices[0]
        for p in self.prefer:
            if p in choices:
                return p
        return choices[0]

    def offer(self, wager, view):
        return self.offers.get(wager, Decimal(0))


class CallbackStrategy(Strategy):
    def __init__(self, choose: Callable | None = None, offer: Callable | None = None,
                 setting: Callable | None = None):
        self._choose = choose
        self._offer = offer
        self._setting = setting

    def setting(self, step, candidates, view):
        return self._setting(step, candidates, view) if self._setting else None

    def choose(self, decision, choices, view):
        return self._choose(decision, choices, view) if self._choose else choices[0]

    def offer(self, wager, view):
        return money(self._offer(wager, view)) if self._offer else Decimal(0)


@dataclass(frozen=True)
class PlayerView:
    seat: int
    cards: Mapping[str, tuple]
    dealer: Mapping[str, tuple]
    community: tuple
    wagers: Mapping[str, Decimal]


# ---------------------------------------------------------------------------------------------
# The context that compiled rule functions see
# ---------------------------------------------------------------------------------------------


class Context:
    """What a compiled condition or outcome reads and does. One per round."""

    def __init__(self, table: "Table", rnd: "_Round"):
        self.table = table
        self.game = table.game
        self.r = rnd
        self.seat: Seat | None = None
        self.event: Mapping[str, Any] = {}
        self.cite = ""
        self.setting: tuple | None = None  # (high, low) of a candidate setting (pai gow)
        self.setting_pool: list | None = None

    # -- reading ------------------------------------------------------------------------------
    def zone(self, owner: str, zone: str | None) -> list:
        if owner == "player":
            if self.seat is None:
                raise EngineError("'player' used outside a player step")
            holder = self.seat.zones
        elif owner == "dealer":
            holder = self.r.dealer
        elif owner == "community":
            holder = self.r.community
        elif owner == "setting":
            if self.setting is None:
                raise EngineError("'setting' used outside the setting of hands (a house way or a legality rule)")
            high, low = self.setting
            return list(high) if zone == "high" else list(low) if zone == "low" else list(high) + list(low)
        else:
            raise EngineError(f"unknown card owner {owner!r}")
        if zone is None or zone == "cards":
            out: list = []
            for z in holder.values():
                out.extend(z)
            return out
        return list(holder.get(zone, ()))

    def ranking(self, rid: str):
        return self.table.ranking(rid)

    def hand(self, rid: str, cards) -> Any:
        cards = [c for c in cards if c is not None]
        return self.table.ranking(rid).evaluate(cards)

    def best(self, rid: str, cards) -> Any:
        cards = [c for c in cards if c is not None]
        return self.table.ranking(rid).best(cards)[0]

    def category(self, value) -> str:
        return value.category

    def at_least(self, rid: str, value, category: str, rank: str | None = None) -> bool:
        return self.table.ranking(rid).category_at_least(value, category, rank)

    def is_hand(self, rid: str, cards, hand_id: str) -> bool:
        return self.table.ranking(rid).matches_hand([c for c in cards if c is not None], hand_id)

    def rank(self, rid: str, cards) -> tuple:
        return self.table.ranking(rid).rank_key([c for c in cards if c is not None])

    def groups(self, rid: str, cards, size) -> int:
        return self.table.ranking(rid).group_count(cards, int(size))

    def category_rank(self, value) -> int:
        return -value.category_index

    def can(self, fn) -> bool:
        if self.setting_pool is None:
            raise EngineError("can() is used only in a house way (over the settings of the hand being set)")
        saved = self.setting
        try:
            for cand in self.setting_pool:
                self.setting = cand
                if fn(self):
                    return True
            return False
        finally:
            self.setting = saved

    def has(self, wager: str) -> bool:
        w = self.seat.wagers.get(wager) if self.seat else None
        return w is not None and w.outcome is None

    def placed(self, wager: str) -> bool:
        return self.seat is not None and any(w.id == wager for w in self.seat.history)

    def wager(self, wager: str) -> Decimal:
        w = self.seat.wagers.get(wager) if self.seat else None
        return w.amount if w is not None else Decimal(0)

    def flag(self, name: str) -> bool:
        return self.seat is not None and name in self.seat.flags

    def chose(self, decision: str, choice: str) -> bool:
        return self.seat is not None and self.seat.choices.get(decision) == choice

    def option(self, name: str) -> Any:
        return self.table.options.get(name)

    def offered(self, wager: str) -> bool:
        return self.table.offered(wager)

    def active(self) -> bool:
        return self.seat is not None and not self.seat.ended

    def count(self, cards) -> int:
        return len([c for c in cards if c is not None])

    def event_attr(self, name: str) -> Any:
        if name not in self.event:
            raise EngineError(f"event has no attribute {name!r}")
        return self.event[name]

    def round_attr(self, name: str) -> Any:
        return self.r.attr(name)

    def _each(self, fn) -> Iterable[bool]:
        saved = self.seat
        try:
            for s in self.r.seats_in_round():
                self.seat = s
                yield bool(fn(self))
        finally:
            self.seat = saved

    def any_player(self, fn) -> bool:
        return any(list(self._each(fn)))

    def count_players(self, fn) -> int:
        return sum(1 for x in self._each(fn) if x)

    # -- doing --------------------------------------------------------------------------------
    def _w(self, wager: str, cite: str) -> Wager | None:
        if self.seat is None:
            raise EngineError("a wager outcome outside a player step")
        w = self.seat.wagers.get(wager)
        if w is None or w.outcome is not None:
            return None  # not placed (an optional wager) or already settled: nothing to do
        return w

    def _targets(self, wager: str, cite: str) -> list[Wager]:
        if wager == "*":
            return [w for w in self.seat.wagers.values() if w.outcome is None]
        w = self._w(wager, cite)
        return [w] if w is not None else []

    def win(self, wager: str, cite: str, payout: str | None = None, odds: Odds | None = None,
            paytable: str | None = None, value: Any = None) -> None:
        for w in self._targets(wager, cite):
            cites = [cite]
            if paytable is not None:
                found = self.table.paytable_odds(paytable, value)
                if found is None:
                    raise EngineError(f"no row of paytable {paytable!r} matches the hand of seat {self.seat.number}; "
                                      f"the rule at {cite} lets a hand win that the paytable does not pay")
                odds, row_cite, label = found
                cites.append(row_cite)
                desc = f"{label} pays {odds}"
            else:
                if odds is None:
                    pid = payout or self.game.wagers[w.id].pays
                    if pid is None:
                        raise EngineError(f"wager {w.id!r} has no payout odds in the spec")
                    p = self.game.payouts[pid]
                    odds, pcite = self.table.payout_odds(p), p.cite
                    cites.append(pcite)
                    if odds is None:  # a partial chapter: the odds are not in the sources
                        self.table.settle_unpriced(self, w, p, cites)
                        continue
                    if p.odds is None:
                        desc = f"pays {odds} (the odds selected in the Rules Submission, option {p.odds_option!r})"
                        self.table.settle_win(self, w, odds, cites, desc)
                        continue
                desc = f"pays {odds}"
            self.table.settle_win(self, w, odds, cites, desc)

    def lose(self, wager: str, cite: str) -> None:
        for w in self._targets(wager, cite):
            self._finish(w, "lose", -w.amount, [cite], "collected")

    def push(self, wager: str, cite: str) -> None:
        for w in self._targets(wager, cite):
            self._finish(w, "push", Decimal(0), [cite], "push: neither paid nor collected")

    def void(self, wager: str, cite: str) -> None:
        for w in self._targets(wager, cite):
            self._finish(w, "void", Decimal(0), [cite], "void: returned to the player")

    def surrender(self, wager: str, fraction: Fraction, cite: str) -> None:
        for w in self._targets(wager, cite):
            lost, rounded = to_cents(w.amount * money(fraction))
            self._finish(w, "surrender", -lost, [cite],
                         f"surrendered: {fmt_money(lost)} collected, {fmt_money(w.amount - lost)} returned")

    def _finish(self, w: Wager, outcome: str, net: Decimal, cites: list[str], text: str) -> None:
        w.outcome, w.net, w.cites, w.detail = outcome, net, cites, text
        self.r.log(outcome, "; ".join(cites), f"{self.game.wagers[w.id].name} {fmt_money(w.amount)}: {text} "
                   f"(net {fmt_money(net, signed=True)})", seat=self.seat.number, wager=w.id,
                   amount=w.amount, net=net)

    def place(self, wager: str, amount, cite: str) -> None:
        self.table.place(self.r, self.seat, wager, money(amount), cite)

    def set_flag(self, name: str, cite: str) -> None:
        if self.seat is not None:
            self.seat.flags.add(name)
        else:
            self.r.flags.add(name)

    def clear_flag(self, name: str, cite: str) -> None:
        (self.seat.flags if self.seat is not None else self.r.flags).discard(name)

    def end(self, cite: str) -> None:
        if self.seat is not None and not self.seat.ended:
            self.seat.ended = True
            self.r.log("end", cite, "participation in the round ends", seat=self.seat.number)

    def void_round(self, cite: str) -> None:
        self.r.void_round(cite)

    def reshuffle(self, cite: str) -> None:
        if not self.r.drawn:  # before any card of the round: reshuffle now
            self.table.reshuffle_now(self.r, cite)
        else:
            self.r.reshuffle = cite

    def remove_deck(self, cite: str) -> None:
        if not self.r.drawn:  # before any card of the round: the deck is replaced now
            self.r.log("remove_deck", cite, "deck removed from the table; a new deck is used")
            self.table.reshuffle_now(self.r, cite)
            return
        self.r.remove_deck = cite
        self.r.reshuffle = cite

    def discard_card(self, cite: str) -> None:
        cards = self.event.get("cards") or ()
        self.r.log("discard", cite, f"{' '.join(card_str(c) for c in cards if c is not None) or 'card'} "
                   "placed in the discard rack, not used")

    def use_card(self, cite: str) -> None:
        cards = [c for c in (self.event.get("cards") or ()) if c is not None]
        if not self.table.scripted:  # a hand history already shows where the card went
            self.r.reuse.extend(cards)
        self.r.log("use", cite, "card drawn in error used as the next card")

    def note(self, text: str, cite: str) -> None:
        self.r.log("note", cite, text, seat=self.seat.number if self.seat else None)


# ---------------------------------------------------------------------------------------------
# The table: a session of rounds
# ---------------------------------------------------------------------------------------------


class _Round:
    def __init__(self, table: "Table", number: int, first_after_shuffle: bool, new_dealer: bool):
        self.table = table
        self.number = number
        self.seats: dict[int, Seat] = {}
        self.dealer: dict[str, list] = {}
        self.community: dict[str, list] = {}
        self.revealed: set[str] = set()
        self.events: list[Event] = []
        self.flags: set[str] = set()
        self.void = False
        self.reshuffle: str | None = None
        self.remove_deck: str | None = None
        self.reuse: list = []
        self.floor_reshuffle = False
        self.drawn = 0
        self.stopped = False
        self._attrs = {"first_after_shuffle": first_after_shuffle, "new_dealer": new_dealer}
        self.unwagered: dict[int, dict[str, list]] = {}  # cards dealt to positions without a wager
        self.rolls: list = []  # dice / random numbers given by a hand history, in order
        self.players: dict[int, str] = {}  # seat -> player, where one player plays several positions
        self.dealer_setting: Any = None  # the dealer's setting as a hand history records it (pai gow)

    def attr(self, name: str) -> Any:
        if name in self._attrs:
            return self._attrs[name]
        if name == "number":
            return self.number
        raise EngineError(f"unknown round attribute {name!r}")

    def log(self, kind: str, cite: str, text: str, **kw) -> None:
        self.events.append(Event(kind, cite, text, **kw))

    def seats_in_round(self, order: str = "clockwise") -> list[Seat]:
        seats = sorted(self.seats.values(), key=lambda s: s.number, reverse=(order == "counterclockwise"))
        return seats

    def void_round(self, cite: str) -> None:
        if self.void:
            return
        self.void = True
        self.stopped = True
        self.log("void_round", cite, "all hands void; all wagers returned to the players")
        for s in self.seats.values():
            for w in s.history:
                if w.outcome != "void":
                    w.outcome, w.net, w.cites, w.detail = "void", Decimal(0), [cite], "void: returned to the player"
                    self.log("void", cite, f"{self.table.game.wagers[w.id].name} {fmt_money(w.amount)}: returned",
                             seat=s.number, wager=w.id, amount=w.amount, net=Decimal(0))


class Table:
    """A table running one chapter for a session of rounds.

    ``options``: the casino's Rules Submission selections (defaults from the spec).
    ``seed``: a seeded PRNG for reproducible simulation; None uses OS entropy.
    """

    def __init__(self, game: GameDefinition, options: Mapping[str, Any] | None = None, seed: int | None = None,
                 shoe=None):
        self.game = game
        self.options = {**game.defaults(), **dict(options or {})}
        self.rng = make_rng(seed)
        self._rankings: dict[str, Any] = {}
        self.ledger = Ledger()
        self.meters: dict[str, Decimal] = {}
        for mid in game.meters:
            self.meters[mid] = self.meter_reset(mid)
        self.round_number = 0
        self.new_dealer = True
        self.scripted = shoe is not None
        if shoe is None:
            shoe = Shoe(self.shoe_decks(), self.rng, DeckSpec(game.cards.jokers),
                        CutRule(game.cards.cut_min_from_edge, game.cards.marker_from_bottom))
        self.shoe = shoe
        self.first_after_shuffle = True
        self.game_beginning = True
        self.cover_card_on = None
        self.reshuffles: list[tuple[int, str]] = []

    # -- data -------------------------------------------------------------------------------
    def shoe_decks(self) -> int:
        """Decks in one dealing shoe: all the decks, or one batch of them when batches are used."""
        cd = self.game.cards
        decks = int(self.options.get(cd.decks_option, cd.decks_default)) if cd.decks_option else cd.decks_default
        if cd.batches > 1 and cd.batches_when is not None and cd.batches_when(Context(self, None)):
            decks //= cd.batches
        return decks

    def ranking(self, rid: str):
        r = self._rankings.get(rid)
        if r is None:
            from compiler.runtime.rankings import Ranking

            r = self._rankings[rid] = Ranking.from_spec(self.game.rankings[rid], rid)
        return r

    def offered(self, wager: str) -> bool:
        wd = self.game.wagers[wager]
        if wd.offered_by is None:
            return True
        return bool(self.options.get(wd.offered_by))

    def paytable_odds(self, pid: str, value, amount: Decimal | None = None) -> tuple[Odds, str, str]:
        """The odds of the first row of paytable ``pid`` that ``value`` (a hand value, or cards) meets."""
        pt = self.game.paytables[pid]
        col = 0
        if pt.amounts:
            if amount not in pt.amounts:
                raise RefusedError(f"paytable {pid!r} ({pt.cite}) has schedules for "
                                   f"{', '.join('$' + fmt_money(a) for a in pt.amounts)} only, not ${fmt_money(amount)}")
            col = pt.amounts.index(amount)
        elif pt.option is not None:
            sel = self.options.get(pt.option)
            if sel not in pt.columns:
                raise RefusedError(f"paytable {pid!r}: the Rules Submission selects {sel!r}, not one of {list(pt.columns)}")
            col = pt.columns.index(sel)
        ranking = self.ranking(pt.ranking) if pt.ranking else None
        if ranking is None:
            raise EngineError(f"paytable {pid!r} names no ranking")
        cards = None
        if isinstance(value, (list, tuple)):
            cards = [c for c in value if c is not None]
            value = ranking.best(cards)[0] if len(cards) > ranking.cards else ranking.evaluate(cards)
        for hand, odds, label in pt.rows:
            if cards is not None and ranking.card_sets(hand) is not None:
                if ranking.matches_hand(cards, hand):
                    return odds[col], pt.cite, label
            elif ranking.card_sets(hand) is None and ranking.value_matches(value, hand):
                return odds[col], pt.cite, label
        return None

    # -- money ------------------------------------------------------------------------------
    def place(self, rnd: _Round, seat: Seat, wager: str, amount: Decimal, cite: str) -> None:
        if wager not in self.game.wagers:
            raise RefusedError(f"unknown wager {wager!r}")
        wd = self.game.wagers[wager]
        if not self.offered(wager):
            raise RefusedError(f"the {wd.name} is not offered by this casino's Rules Submission ({wd.cite})")
        if amount <= 0:
            raise RefusedError(f"{wd.name}: amount must be positive, got {amount}")
        if amount != amount.quantize(CENT):
            raise RefusedError(f"{wd.name}: {amount} is not a whole number of cents")
        amount = amount.quantize(CENT)
        if wd.amounts and amount not in wd.amounts:
            raise RefusedError(f"{wd.name}: {fmt_money(amount)} is not an allowed amount; allowed: "
                               f"{', '.join(fmt_money(a) for a in wd.amounts)} ({wd.cite})")
        if wager in seat.wagers and seat.wagers[wager].outcome is None:
            raise RefusedError(f"seat {seat.number} already has a {wd.name}")
        w = Wager(wager, amount, cite or wd.cite)
        seat.wagers[wager] = w
        seat.history.append(w)
        rnd.log("wager", cite or wd.cite, f"{wd.name} {fmt_money(amount)} placed", seat=seat.number, wager=wager,
                amount=amount)
        if wd.progressive:
            self._contribute(rnd, w, wd.progressive, +1)

    def _option_or_minimum(self, oid: str):
        """The selection for an option, or (not selected: analysis, simulation) its minimum."""
        if oid in self.options and self.options[oid] is not None:
            return self.options[oid]
        return self.game.options.get(oid, {}).get("minimum", 0)

    def meter_rate(self, meter_id: str) -> Decimal:
        m = self.game.meters[meter_id]
        return percent(self._option_or_minimum(m.rate_option)) if m.rate_option else Decimal(0)

    def meter_reset(self, meter_id: str) -> Decimal:
        m = self.game.meters[meter_id]
        return money(self._option_or_minimum(m.reset_option)) if m.reset_option else Decimal(0)

    def _contribute(self, rnd: "_Round", w: Wager, meter_id: str, sign: int) -> None:
        """Add (sign=+1) or take back (-1, the wager was void) the meter's share of a stake."""
        m = self.game.meters[meter_id]
        c = w.contribution if sign < 0 else (w.amount * self.meter_rate(meter_id) / Decimal(100))
        if not c:
            return
        self.meters[meter_id] += sign * c
        self.ledger.meters += sign * c
        self.ledger.house -= sign * c
        w.contribution = c if sign > 0 else Decimal(0)
        rnd.log("meter", m.cite, f"{'added' if sign > 0 else 'taken back'}: {c.normalize()} to the progressive meter "
                f"(now {fmt_money(self.meters[meter_id])})")

    def payout_odds(self, p: Payout) -> Odds | None:
        """The odds of a payout: the spec's, else the casino's selection of ``odds_option``, else None."""
        if p.odds is not None:
            return p.odds
        val = self.options.get(p.odds_option) if p.odds_option else None
        if val is None or val == "":
            return None
        if isinstance(val, Odds):
            return val
        from compiler.runtime.money import MoneyError, parse_odds

        try:
            return parse_odds(str(val))
        except MoneyError as e:
            raise RefusedError(f"option {p.odds_option!r} ({p.cite}): {e}") from None

    def settle_unpriced(self, ctx: Context, w: Wager, p: Payout, cites: list[str]) -> None:
        """A win at payout odds the sources do not give: recorded as a win, amount not determined."""
        why = p.unpriced or f"the payout odds of {p.cite} are not in the sources"
        desc = f"wins: {why}; the amount is not determined" + (
            f" (a Rules Submission may give it: option {p.odds_option!r})" if p.odds_option else "")
        w.outcome, w.net, w.cites, w.detail, w.priced = "win", Decimal(0), cites, desc, False
        ctx.r.log("win", "; ".join(cites), f"{self.game.wagers[w.id].name} {fmt_money(w.amount)}: {desc}",
                  seat=ctx.seat.number, wager=w.id, amount=w.amount)

    def settle_win(self, ctx: Context, w: Wager, odds: Odds, cites: list[str], desc: str) -> None:
        meter_id = self.game.wagers[w.id].progressive
        if odds.kind == "meter":
            if meter_id is None:
                raise EngineError(f"{w.id!r} pays a share of a meter but has no progressive meter")
            m = self.game.meters[meter_id]
            reading = self.meters[meter_id]
            gross, _ = to_cents(reading * money(odds.num) / Decimal(100))
            net = gross - w.amount
            desc += f" (meter {fmt_money(reading)} when paid; paid by the progressive system, not the table inventory)"
            self.meters[meter_id] = reading - gross
            self.ledger.meters -= gross
            w.meter_paid = gross
            w.outcome, w.net, w.cites, w.detail = "win", net, cites, desc
            ctx.r.log("win", "; ".join(cites), f"{self.game.wagers[w.id].name} {fmt_money(w.amount)}: {desc} "
                      f"(net {fmt_money(net, signed=True)})", seat=ctx.seat.number, wager=w.id, amount=w.amount,
                      net=net)
            reset = self.meter_reset(meter_id)
            if self.meters[meter_id] < reset:
                seed = reset - self.meters[meter_id]
                self.ledger.meters += seed
                self.ledger.house -= seed
                self.meters[meter_id] = reset
                ctx.r.log("meter", m.cite, f"meter returns to its reset amount {fmt_money(reset)}")
            return
        net, rounded = to_cents(odds.payout(w.amount))
        if rounded:
            desc += " (rounded down to the cent)"
        w.outcome, w.net, w.cites, w.detail = ("push" if odds.kind == "push" else "win"), net, cites, desc
        kind = w.outcome
        ctx.r.log(kind, "; ".join(cites), f"{self.game.wagers[w.id].name} {fmt_money(w.amount)}: {desc} "
                  f"(net {fmt_money(net, signed=True)})", seat=ctx.seat.number, wager=w.id, amount=w.amount, net=net)

    # -- rounds -----------------------------------------------------------------------------
    def requirements(self, step: str | None = None) -> list[tuple[str, str]]:
        """(cite, text) of the procedural requirements that apply under the table's options
        (all of them, or those of one procedure step): a checklist for this configuration."""
        ctx = Context(self, None)
        return [(cite, text) for cite, text, st, cond in self.game.requirements
                if (step is None or st == step) and (cond is None or cond(ctx))]

    def violations(self) -> list[tuple[str, str]]:
        """(cite, message) of every Rules Submission condition the table's options break."""
        out = []
        ctx = Context(self, None)
        for cite, message, cond in self.game.constraints:
            try:
                ok = bool(cond(ctx))
            except TypeError:  # a selection the condition needs is missing
                ok = False
                message += " (a selection it needs is missing)"
            if not ok:
                out.append((cite, message))
        return out

    def check_positions(self, players: Mapping[int, str]) -> None:
        """One player on several positions: allowed up to the spec's maximum, adjacent if required."""
        by_player: dict[str, list[int]] = {}
        for seat, who in players.items():
            by_player.setdefault(who, []).append(seat)
        g = self.game
        limit = int(g.positions_max(Context(self, None))) if g.positions_max is not None else 1
        for who, seats in by_player.items():
            seats.sort()
            if len(seats) > limit:
                raise RefusedError(f"player {who!r} plays {len(seats)} positions; at most {limit} under this "
                                   f"Rules Submission ({g.positions_cite or 'one position per player'})")
            if g.positions_adjacent and seats[-1] - seats[0] != len(seats) - 1:
                raise RefusedError(f"player {who!r}: positions {seats} are not adjacent ({g.positions_cite})")

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

    def _play_round(self, bets: Mapping[int, Mapping[str, Any]], strategy: Strategy | Mapping[int, Strategy] | None = None,
                    events: Sequence[Mapping[str, Any]] = (), new_dealer: bool | None = None,
                    players: Mapping[int, str] | None = None, rolls: Sequence[Any] | None = None,
                    dealer_setting: Any = None) -> RoundResult:
        """Play one round. ``bets``: seat -> {wager id: amount} placed before "no more bets";
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
        rnd = _Round(self, self.round_number, self.first_after_shuffle, self.new_dealer)
        rnd.players = dict(players or {})
        rnd.rolls = [list(r) if isinstance(r, (list, tuple)) else [r] for r in (rolls or ())]
        rnd.dealer_setting = dealer_setting
        self.new_dealer = False
        ctx = Context(self, rnd)
        if self.game_beginning:
            self.game_beginning = False
            if self.game.cards.shuffle_cite and not self.scripted:
                rnd.log("shuffle", self.game.cards.shuffle_cite, "cards shuffled and stacked")
            rnd.seats = {n: Seat(n) for n in bets}
            self._log_cut(rnd, "game_beginning")
            rnd.seats = {}
        if not bets:
            raise RefusedError("a round needs at least one player with a wager")
        for seat_no in sorted(bets):
            if not isinstance(seat_no, int) or not 1 <= seat_no <= game.max_positions:
                raise RefusedError(f"seat {seat_no!r}: this table has positions 1 to {game.max_positions}")
            seat = rnd.seats[seat_no] = Seat(seat_no)
            placed = {k: money(v) for k, v in bets[seat_no].items() if money(v) != 0}
            for wid in placed:
                wd = game.wagers.get(wid)
                if wd is None:
                    raise RefusedError(f"seat {seat_no}: unknown wager {wid!r}; this chapter has {sorted(game.wagers)}")
            for wid, wd in game.wagers.items():
                if wd.required and wid not in placed and placed:
                    raise RefusedError(f"seat {seat_no}: the {wd.name} is required to play ({wd.cite})")
                if wid in placed:
                    for req in wd.requires:
                        if req not in placed:
                            raise RefusedError(f"seat {seat_no}: the {wd.name} requires a {game.wagers[req].name} ({wd.cite})")
            for wid, amt in placed.items():
                self.place(rnd, seat, wid, amt, game.wagers[wid].cite)
        strategies = strategy if isinstance(strategy, Mapping) else None
        if strategy is not None and strategies is None and not hasattr(strategy, "choose"):
            raise RefusedError(f"a strategy needs choose() and offer(), got {type(strategy).__name__}")
        default = strategy if strategy is not None and strategies is None else Strategy()
        self._strategies = lambda n: (strategies.get(n, default) if strategies is not None else default)
        pending = [dict(e) for e in events]
        for e in pending:
            if "cards" in e:
                e["cards"] = list(e["cards"])
        try:
            self._run_steps(ctx, rnd, game.procedure, pending)
            for e in pending:  # events not tied to a step run at the end
                if not e.get("_done"):
                    self._fire(ctx, rnd, e)
        except ShoeError as exc:
            raise EngineError(str(exc), target=getattr(exc, "target", None)) from None
        # every wager must have an outcome
        for s in rnd.seats.values():
            for w in s.history:
                if w.outcome is None:
                    raise EngineError(f"seat {s.number}: {game.wagers[w.id].name} left unsettled by the procedure "
                                      f"({game.spec_path})")
        results = []
        for s in rnd.seats_in_round():
            for w in s.history:
                results.append(WagerResult(s.number, w.id, game.wagers[w.id].name, w.amount, w.outcome, w.net,
                                           tuple(w.cites), w.detail, w.priced))
                if w.outcome == "void" and w.contribution:
                    self._contribute(rnd, w, game.wagers[w.id].progressive, -1)
                self.ledger.players += w.net
                if w.meter_paid:
                    self.ledger.house += w.amount  # the stake stays with the house; the meter paid the win
                else:
                    self.ledger.house -= w.net
            for b in s.bonuses:
                results.append(b)
                self.ledger.players += b.net
                self.ledger.house -= b.net
        # end of round: reshuffle?
        reshuffled = False
        cd = game.cards
        cause = rnd.reshuffle
        if cause is None and cd.reshuffle == "every_round":
            cause = cd.reshuffle_cite
        if cause is None and cd.reshuffle == "cover_card" and getattr(self.shoe, "cover_reached", False):
            cause = cd.reshuffle_cite
        if cause is not None:
            if rnd.remove_deck:
                rnd.log("remove_deck", rnd.remove_deck, "deck removed from the table; a new deck is used")
            self.shoe.shuffle()
            self.first_after_shuffle = True
            reshuffled = True
            self.reshuffles.append((rnd.number, cause))
            rnd.log("reshuffle", cause, "cards reshuffled")
            cover = getattr(self, "cover_card_on", None)
            situation = ("floor_reshuffle" if rnd.floor_reshuffle else
                         "cover_card_on_player" if cover and cover[0] == "player" else "cover_card_on_dealer")
            self._log_cut(rnd, situation)
            self.cover_card_on = None
        else:
            self.first_after_shuffle = False
        dealt = {"dealer": {z: [card_str(c) for c in v if c is not None] for z, v in rnd.dealer.items()},
                 "community": {z: [card_str(c) for c in v if c is not None] for z, v in rnd.community.items()}}
        for s in rnd.seats_in_round():
            dealt[f"seat {s.number}"] = {z: [card_str(c) for c in v if c is not None] for z, v in s.zones.items()}
        return RoundResult(rnd.number, results, rnd.events, rnd.void, reshuffled, dealt)

    def _fire(self, ctx: Context, rnd: _Round, e: dict) -> None:
        e["_done"] = True
        kind = e.get("event")
        if kind == "floor_reshuffle" and any(r[0] == "floor_reshuffle" for r in self.game.cards.cut_offer):
            cite = next(r[2] for r in self.game.cards.cut_offer if r[0] == "floor_reshuffle")
            rnd.floor_reshuffle = True
            rnd.reshuffle = cite
            rnd.log("reshuffle_ordered", cite, "a floorperson or above directs a reshuffle after this round")
            return
        irrs = [i for i in self.game.irregularities if i.event == kind]
        if not irrs:
            known = sorted({i.event for i in self.game.irregularities})
            raise RefusedError(f"no provision of Chapter {self.game.chapter} covers the event {kind!r}; "
                               f"this chapter's irregularity events are {known}", e.get("_ptr"))
        if "cards" not in e and kind in ("face_up_card", "drawn_in_error") and not self.scripted:
            e["cards"] = [self.shoe.draw(("burn", None, None)) for _ in range(int(e.get("count", 1)))]
        if "count" not in e and "cards" in e:
            e["count"] = len(e["cards"])
        seat_no = e.get("seat")
        saved_seat, saved_event = ctx.seat, ctx.event
        ctx.event = e
        ctx.seat = rnd.seats.get(seat_no) if seat_no is not None else None
        if seat_no is not None and ctx.seat is None:
            raise RefusedError(f"event {kind!r}: seat {seat_no} has no wager in this round", e.get("_ptr"))
        try:
            for irr in irrs:
                desc = ", ".join(f"{k}={' '.join(card_str(c) for c in v if c is not None) if k == 'cards' else v}"
                                 for k, v in sorted(e.items()) if not k.startswith("_") and k not in ("event",))
                rnd.log("irregularity", irr.cite, f"{irr.title or kind}" + (f" ({desc})" if desc else ""),
                        seat=seat_no)
                for rule in irr.rules:
                    ctx.cite = rule.cite
                    if rule.when is None or rule.when(ctx):
                        rule.then(ctx)
        except EngineError as exc:
            if seat_no is None and "outside a player step" in str(exc):
                raise RefusedError(f"event {kind!r} names no seat, and {'; '.join(i.cite for i in irrs)} acts on "
                                   "a player's wagers: give the seat (seat: N)", e.get("_ptr")) from None
            if exc.pointer is None:
                exc.pointer = e.get("_ptr")
            raise
        finally:
            ctx.seat, ctx.event = saved_seat, saved_event

    def _run_steps(self, ctx: Context, rnd: _Round, steps: Sequence[Step], pending: list[dict]) -> None:
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

    def _players(self, ctx: Context, rnd: _Round, step: Step) -> list[Seat]:
        out = []
        for s in rnd.seats_in_round(step.order):
            if s.ended:
                continue
            ctx.seat = s
            if step.players is None or step.players(ctx):
                out.append(s)
        ctx.seat = None
        return out

    def _draw(self, rnd: _Round, target) -> Any:
        rnd.drawn += 1
        if rnd.reuse:
            return rnd.reuse.pop(0)
        marker = getattr(self.shoe, "marker", None)
        if marker is not None and self.shoe.index == marker:
            # the reshuffle cover card comes out now: it appears on this target's area
            self.cover_card_on = target
            owner, seat, _ = target
            where = f"seat {seat}" if owner == "player" else ("the dealer's hand" if owner in ("dealer", "burn")
                                                              else owner)
            rnd.log("cover_card", self.game.cards.reshuffle_cite,
                    f"reshuffle cover card reached, on {where}; the round is completed, then the cards are reshuffled")
        return self.shoe.draw(target)

    def cut_offer_order(self, situation: str, seats: Sequence[int], cover_seat: int | None = None) -> list[tuple]:
        """Who is offered the cut, in order: [(seat or 'dealer', cite)] (e.g. § 567.5(b)-(c))."""
        cd = self.game.cards
        rule = next((r for r in cd.cut_offer if r[0] == situation), None)
        seats = sorted(seats)
        if rule is None or not seats:
            return [("dealer", cd.cut_refused[1])]
        _, to, cite = rule
        if to == "that_player" and cover_seat in seats:
            first = cover_seat
        elif to == "rightmost_player":
            first = seats[-1]
        elif to == "leftmost_player" or to == "first_player":
            first = seats[0]
        else:
            first = seats[-1]
        rotate, rcite = cd.cut_refused
        i = seats.index(first)
        step = 1 if rotate == "clockwise" else -1
        order = [(first, cite)]
        for k in range(1, len(seats)):
            order.append((seats[(i + step * k) % len(seats)], rcite))
        order.append(("dealer", rcite))
        return order

    def reshuffle_now(self, rnd: _Round, cite: str) -> None:
        self.shoe.shuffle()
        self.first_after_shuffle = True
        rnd._attrs["first_after_shuffle"] = True
        self.reshuffles.append((rnd.number, cite))
        rnd.log("reshuffle", cite, "cards reshuffled")
        self._log_cut(rnd)

    def _log_cut(self, rnd: _Round, situation: str | None = None) -> None:
        cd = self.game.cards
        if cd.cut_offer and situation is not None and not self.scripted:
            cover = getattr(self, "cover_card_on", None)
            cover_seat = cover[1] if cover and cover[0] == "player" else None
            order = self.cut_offer_order(situation, list(rnd.seats), cover_seat)
            who, cite = order[0]
            rnd.log("cut_offer", cite, f"the cut is offered first to {'seat ' + str(who) if who != 'dealer' else 'the dealer'}"
                    + (f"; if refused, to {', '.join('seat ' + str(w) if w != 'dealer' else 'the dealer' for w, _ in order[1:])}"
                       if len(order) > 1 else ""))
        if getattr(self.shoe, "cut_at", None) is not None:
            rnd.log("cut", cd.cut_cite, f"cover card inserted {self.shoe.cut_at} cards from the top; the cards above it "
                    "moved to the bottom")
        if getattr(self.shoe, "marker", None) is not None:
            rnd.log("marker", cd.marker_cite, f"reshuffle cover card placed {len(self.shoe.cards) - self.shoe.marker} "
                    "cards from the bottom")

    def _view(self, rnd: _Round, seat: Seat) -> PlayerView:
        return PlayerView(seat.number, {z: tuple(v) for z, v in seat.zones.items()},
                          {z: tuple(v) for z, v in rnd.dealer.items()},
                          tuple(c for z, v in rnd.community.items() if z in rnd.revealed for c in v),
                          {k: w.amount for k, w in seat.wagers.items() if w.outcome is None})

    def _run_step(self, ctx: Context, rnd: _Round, step: Step, pending: list[dict]) -> None:
        k = step.kind
        p = step.params
        ctx.cite = step.cite
        if k == "announce":
            rnd.log("announce", step.cite, f"dealer announces ''{p.get('text', '')}''")
        elif k == "burn":
            n = int(p.get("count", 1))
            cards = [self._draw(rnd, ("burn", None, None)) for _ in range(n)]
            shown = " ".join(card_str(c) for c in cards if c is not None)
            rnd.log("burn", step.cite, f"{n} card{'s' if n != 1 else ''} burned face down to the discard rack"
                    + (f" ({shown})" if shown else ""))
        elif k == "deal":
            to = p.get("to", "players")
            zone = p.get("zone", "cards")
            n = int(p.get("count", 1))
            face = p.get("face", "up")
            if to == "positions":
                from compiler.runtime.paigow import deal_positions

                deal_positions(self, ctx, rnd, step)
            elif to == "players":
                seats = self._players(ctx, rnd, step)
                # one card at a time around the table, or (stack) all n cards to a target together
                order = ([s for s in seats for _ in range(n)] if p.get("stack")
                         else [s for _ in range(n) for s in seats])
                for s in order:
                    c = self._draw(rnd, ("player", s.number, zone))
                    s.zones.setdefault(zone, []).append(c)
                    rnd.log("deal", step.cite, f"dealt {card_str(c) if c is not None else 'a card'} face {face} ({zone})",
                            seat=s.number)
            else:
                holder = rnd.dealer if to == "dealer" else rnd.community
                for _ in range(n):
                    c = self._draw(rnd, (to, None, zone))
                    holder.setdefault(zone, []).append(c)
                    rnd.log("deal", step.cite, f"{to}: dealt {card_str(c) if c is not None else 'a card'} face {face} ({zone})")
                if to == "community" and face == "up":
                    rnd.revealed.add(zone)
        elif k == "reveal":
            zone = p.get("zone")
            rnd.revealed.add(zone)
            cards = rnd.community.get(zone) or rnd.dealer.get(zone) or []
            rnd.log("reveal", step.cite, f"revealed {' '.join(card_str(c) for c in cards)} ({zone})")
        elif k == "settle":
            for s in self._players(ctx, rnd, step):
                ctx.seat = s
                for rule in step.rules:
                    ctx.cite = rule.cite
                    if rule.when is None or rule.when(ctx):
                        rule.then(ctx)
                    if rnd.stopped:
                        return
            ctx.seat = None
        elif k == "decide":
            for s in self._players(ctx, rnd, step):
                ctx.seat = s
                avail = [c for c in step.choices if c.when is None or c.when(ctx)]
                if not avail:
                    continue
                ids = [c.id for c in avail]
                choice = self._strategies(s.number).choose(step.id, ids, self._view(rnd, s))
                if choice not in ids:
                    raise RefusedError(f"seat {s.number}: {choice!r} is not a choice at {step.id!r} ({step.cite}); "
                                       f"choices are {ids}")
                c = avail[ids.index(choice)]
                s.choices[step.id] = choice
                rnd.log("decision", c.cite, f"chooses {choice} ({step.id})", seat=s.number)
                if c.then is not None:
                    ctx.cite = c.cite
                    c.then(ctx)
                if rnd.stopped:
                    return
            ctx.seat = None
        elif k == "offer":
            wager = p["wager"]
            if not self.offered(wager):
                return
            for s in self._players(ctx, rnd, step):
                ctx.seat = s
                amt = money(self._strategies(s.number).offer(wager, self._view(rnd, s)))
                if amt == 0:
                    continue
                equal_to = p.get("equal_to")
                if equal_to is not None and amt != ctx.wager(equal_to) and not any(
                        w.id == equal_to for w in s.history if w.amount == amt):
                    raise RefusedError(f"seat {s.number}: the {self.game.wagers[wager].name} must equal the "
                                       f"{self.game.wagers[equal_to].name} ({step.cite})")
                self.place(rnd, s, wager, amt, step.cite)
            ctx.seat = None
        elif k == "envy":
            self._envy(ctx, rnd, step)
        elif k == "set_hands":
            from compiler.runtime.paigow import set_hands

            set_hands(self, ctx, rnd, step, pending)
        elif k == "roll":
            from compiler.runtime.paigow import roll

            roll(self, ctx, rnd, step)
        elif k == "collect_unwagered":
            if rnd.unwagered:
                seats = sorted(rnd.unwagered)
                rnd.log("collect", step.cite, f"stacks dealt to position{'s' if len(seats) > 1 else ''} "
                        f"{', '.join(map(str, seats))} (no wager) collected without exposing the cards and "
                        "placed in the discard rack")
                rnd.unwagered.clear()
        elif k == "block":
            self._run_steps(ctx, rnd, step.steps, pending)
        else:
            raise EngineError(f"unknown step kind {k!r}")

    def _envy(self, ctx: Context, rnd: _Round, step: Step) -> None:
        """Pay each receiving player a fixed bonus for every *other* player holding a qualifying hand."""
        wager, pid = step.params["wager"], step.params["paytable"]
        qualifying, hand = step.exprs["qualifying"], step.exprs["hand"]
        holders = []
        for s in rnd.seats_in_round(step.order):  # folded players' hands count too: their cards stay out
            ctx.seat = s
            if qualifying(ctx):
                holders.append((s, list(hand(ctx))))
        if not holders:
            ctx.seat = None
            return
        for r in self._players(ctx, rnd, step):
            placed = [w for w in r.history if w.id == wager and w.outcome != "void"]
            if not placed:
                continue
            amount = placed[-1].amount
            for h, cards in holders:
                if h is r:
                    continue  # never for one's own hand
                found = self.paytable_odds(pid, cards, amount)
                if found is None:
                    raise EngineError(f"{step.id}: seat {h.number} holds a qualifying hand that paytable {pid!r} "
                                      "does not list")
                odds, pcite, label = found
                bonus, _ = to_cents(odds.payout(amount))
                name = f"{step.params.get('name', 'Envy Bonus')}"
                cites = (step.cite, pcite)
                text = f"for seat {h.number}'s {label}"
                r.bonuses.append(WagerResult(r.number, wager, name, amount, "bonus", bonus, cites, text))
                rnd.log("bonus", "; ".join(cites), f"{name} {fmt_money(bonus)} {text} (with a "
                        f"{fmt_money(amount)} {self.game.wagers[wager].name})", seat=r.number, wager=wager,
                        amount=amount, net=bonus)
        ctx.seat = None

    def play_session(self, rounds: int, bets: Mapping[int, Mapping[str, Any]], strategy=None) -> list[RoundResult]:
        return [self.play_round(bets, strategy) for _ in range(rounds)]
