"""The state of a round: seats and their wagers, the log, the results, and the session's ledger.

Every wager's stake leaves the player's stack when placed. Settlement gives each wager one outcome
(win, lose, push, void, surrender) and a net; :class:`Ledger` keeps players' net, house net and the
progressive meters so that over any session ``players + house + meter growth == 0`` exactly.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from compiler.runtime.errors import EngineError
from compiler.runtime.money import fmt_money



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
    meter_seed: Decimal = Decimal(0)  # what the house added to bring that meter back to its reset amount
    contribution: Decimal = Decimal(0)  # share of the stake added to a progressive meter
    priced: bool = True  # False: a win whose amount the sources do not give (net left at 0)
    bonus: Decimal = Decimal(0)  # bonuses paid on this wager's own result (`bonus W by T on ...`)
    bonus_cites: list[str] = field(default_factory=list)
    bonus_detail: str = ""
    on: tuple[str, ...] = ()  # the numbers / pockets the player chose (a wager declared with `choose`)
    instance: int = 0  # a wager of several instances (`several: true`): 1, 2, ... in the order placed; else 0
    kept: dict[str, Any] = field(default_factory=dict)  # that instance's own copy of the state its wager keeps

    @property
    def key(self) -> str:
        """Its key in ``Seat.wagers`` and the log: the wager's id, or ``come#2`` for an instance."""
        return f"{self.id}#{self.instance}" if self.instance else self.id


def wager_name(game, w: "Wager") -> str:
    """The wager's name in the log: 'Come #2' for an instance of a wager of several instances, 'Place #2 on 8'
    for one placed on chosen numbers."""
    name = game.wagers[w.id].name
    on = f" on {', '.join(w.on)}" if w.instance and w.on else ""
    return f"{name} #{w.instance}{on}" if w.instance else name


def instance_key(key: str) -> tuple[str, int]:
    """('come', 2) of 'come#2'; (id, 0) of a wager's plain id."""
    wid, sep, n = key.rpartition("#")
    return (wid, int(n)) if sep and n.isdigit() and int(n) > 0 else (key, 0)


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
    state: dict[str, Any] = field(default_factory=dict)  # the round state kept per player (`per: player`)
    hand: int = 1  # a hand of the position made by a `split` step: 2, 3, ... (1: the hand dealt)

    @property
    def key(self):
        """The seat's key in ``Round.seats``: the position, or (position, hand) for a hand made by a split."""
        return self.number if self.hand == 1 else (self.number, self.hand)

    @property
    def who(self) -> str:
        return f"seat {self.number}" if self.hand == 1 else f"seat {self.number} hand {self.hand}"

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
    hand: int = 1  # the hand of the position (a split hand: 2, 3, ...)

    def to_json(self) -> dict:
        d = {"kind": self.kind, "cite": self.cite, "text": self.text}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.hand != 1:
            d["hand"] = self.hand
        if self.wager is not None:
            d["wager"] = self.wager
        if self.amount is not None:
            d["amount"] = str(self.amount)
        if self.net is not None:
            d["net"] = str(self.net)
        return d

    def format(self) -> str:
        who = (f"seat {self.seat}{'' if self.hand == 1 else f' hand {self.hand}'}: " if self.seat is not None
               else "")
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
    hand: int = 1  # the hand of the position the wager was on (a split hand: 2, 3, ...)
    instance: int = 0  # the instance of a wager of several instances (1, 2, ...; 0: a wager of one)
    on: tuple[str, ...] = ()  # the numbers it was placed on (a wager declared with `choose`)

    @property
    def label(self) -> str:
        """The wager's id, or ``come#2`` for an instance."""
        return f"{self.wager}#{self.instance}" if self.instance else self.wager

    @property
    def title(self) -> str:
        """Its name for people: 'Come #2', 'Place #2 on 8' for an instance."""
        on = f" on {', '.join(self.on)}" if self.instance and self.on else ""
        return f"{self.name} #{self.instance}{on}" if self.instance else self.name

    def to_json(self) -> dict:
        d = {
            "seat": self.seat,
            **({"hand": self.hand} if self.hand != 1 else {}),
            "wager": self.wager,
            **({"instance": self.instance} if self.instance else {}),
            **({"numbers": list(self.on)} if self.on else {}),
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
    rolled: list[list[int]] = field(default_factory=list)  # each roll's faces / number, in order
    carried_in: dict[int, dict] = field(default_factory=dict)  # seat -> the wagers (and state) it began with on
    carried_out: dict[int, dict] = field(default_factory=dict)  # the layout, and those it left there (carry.py)

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
            **({"carried_in": {str(k): v for k, v in sorted(self.carried_in.items())}} if self.carried_in else {}),
            **({"carried_out": {str(k): v for k, v in sorted(self.carried_out.items())}} if self.carried_out else {}),
        }


@dataclass
class Ledger:
    players: Decimal = Decimal(0)
    house: Decimal = Decimal(0)
    meters: Decimal = Decimal(0)  # growth of all progressive meters since the session began

    def balance(self) -> Decimal:
        return self.players + self.house + self.meters



class Round:
    """One round being played: the seats in it, the dealer's and community cards, the log."""

    def __init__(self, table: "Any", number: int, first_after_shuffle: bool, new_dealer: bool):
        self.table = table
        self.number = number
        self.seats: dict[Any, Seat] = {}  # position -> Seat; (position, hand) -> a hand made by a split
        self.acting: Seat | None = None  # the hand a player step is acting on (names the hand in the log)
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
        self.turn: int | None = None  # the seat a loop per player (`repeat` with `players`) is playing
        self._attrs = {"first_after_shuffle": first_after_shuffle, "new_dealer": new_dealer}
        self.unwagered: dict[int, dict[str, list]] = {}  # cards dealt to positions without a wager
        self.rolls: list = []  # dice / random numbers given by a hand history, in order
        self.rolled: list[list[int]] = []  # what every roll of this round showed, in order (saved by play)
        self.dice: list[int] | None = None  # the faces of the latest roll of dice (`dice.total`, ...)
        self.pocket: dict | None = None  # the pocket of the latest spin (`pocket.number`, ...)
        self.showing: list[str] = []  # what the latest roll or spin shows (dice faces, or the pocket's label)
        # the round state the chapter declares (`state:`), at its initial values
        self.state: dict[str, Any] = {k: v["initial"] for k, v in (getattr(getattr(table, "game", None), "state",
                                                                           None) or {}).items()
                                      if v.get("per", "round") == "round"}
        self.players: dict[int, str] = {}  # seat -> player, where one player plays several positions
        self.dealer_setting: Any = None  # the dealer's setting as a hand history records it (pai gow)

    def attr(self, name: str) -> Any:
        if name in self._attrs:
            return self._attrs[name]
        if name == "number":
            return self.number
        raise EngineError(f"unknown round attribute {name!r}")

    def log(self, kind: str, cite: str, text: str, **kw) -> None:
        a = self.acting
        if a is not None and a.hand != 1 and kw.get("seat") == a.number and "hand" not in kw:
            kw["hand"] = a.hand
        self.events.append(Event(kind, cite, text, **kw))

    def seats_in_round(self, order: str = "clockwise") -> list[Seat]:
        seats = sorted(self.seats.values(), key=lambda s: (s.number, s.hand), reverse=(order == "counterclockwise"))
        return seats

    def void_round(self, cite: str) -> None:
        """Every wager of the round is void and returned. A wager already paid or collected is first
        reversed: one ``reversal`` entry with the void's § takes back its earlier payment or collection
        (a bonus on it is taken back too, and a progressive meter's payment returned to the meter); a
        bonus paid for a hand at the table (an Envy Bonus) is taken back, all hands being void. So the
        log adds up to the results."""
        if self.void:
            return
        self.void = True
        self.stopped = True
        self.log("void_round", cite, "all hands void; all wagers returned to the players")
        for s in self.seats.values():
            for w in s.history:
                if w.outcome != "void":
                    self._reverse(s, w, cite)
                    w.outcome, w.net, w.cites, w.detail = "void", Decimal(0), [cite], "void: returned to the player"
                    self.log("void", cite, f"{wager_name(self.table.game, w)} {fmt_money(w.amount)}: returned",
                             seat=s.number, wager=w.key, amount=w.amount, net=Decimal(0))
            for b in s.bonuses:  # a bonus for a hand at the table: all hands are void
                self.log("bonus", cite, f"{b.name} {fmt_money(b.net)} {b.detail} is taken back, the round being void "
                         f"(net {fmt_money(-b.net, signed=True)})", seat=s.number, wager=b.wager, amount=b.amount,
                         net=-b.net)
            s.bonuses = []

    def _reverse(self, s: "Seat", w: Wager, cite: str) -> None:
        """Take back what the settlement of ``w`` (and a bonus on it) moved, logged as a ``reversal``."""
        name = wager_name(self.table.game, w)
        if w.outcome is not None and w.net != 0:
            what = "payment" if w.net > 0 else "collection"
            self.log("reversal", cite, f"{name} {fmt_money(w.amount)}: the {w.outcome} settled by "
                     f"{'; '.join(w.cites)} is reversed, the round being void: the {what} of "
                     f"{fmt_money(abs(w.net))} is taken back (net {fmt_money(-w.net, signed=True)})",
                     seat=s.number, wager=w.key, amount=w.amount, net=-w.net)
        if w.bonus:  # logged as a bonus taken back, as for a wager voided on its own
            self.log("bonus", cite, f"{name} {fmt_money(w.amount)}: its bonus of {fmt_money(w.bonus)} "
                     f"({'; '.join(w.bonus_cites)}) is taken back, the round being void "
                     f"(net {fmt_money(-w.bonus, signed=True)})", seat=s.number, wager=w.key, amount=w.amount,
                     net=-w.bonus)
            w.bonus, w.bonus_cites, w.bonus_detail = Decimal(0), [], ""
        if w.meter_paid:  # the progressive meter gets its payment back; the house its reset seed
            t, mid = self.table, self.table.game.wagers[w.id].progressive
            t.meters[mid] += w.meter_paid - w.meter_seed
            t.ledger.meters += w.meter_paid - w.meter_seed
            t.ledger.house += w.meter_seed
            self.log("meter", cite, f"the meter's payment of {fmt_money(w.meter_paid)} is reversed "
                     f"(now {fmt_money(t.meters[mid])})")
            w.meter_paid = w.meter_seed = Decimal(0)
