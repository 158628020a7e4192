"""A player's decisions (strategies) and what a player is shown when deciding (:class:`PlayerView`)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Mapping, Sequence

from compiler.runtime.money import money


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
    instance: str = ""  # the instance a decision taken per instance concerns (``decide`` with ``each``): "place#2"
    about: str = ""  # its name in the log: "Place #2 on 8"


def view_of(rnd, seat, instance: str = "", about: str = "") -> PlayerView:
    """What the player at ``seat`` is shown: their own cards, the dealer's and community zones dealt face
    up or revealed (never a face-down card of the dealer), their open wagers, and the instance of a wager a
    decision taken per instance concerns."""
    return PlayerView(seat.number, {z: tuple(v) for z, v in seat.zones.items()},
                      {z: tuple(v) for z, v in rnd.dealer.items() if z in rnd.revealed},
                      tuple(c for z, v in rnd.community.items() if z in rnd.revealed for c in v),
                      {k: w.amount for k, w in seat.wagers.items() if w.outcome is None}, instance, about)
