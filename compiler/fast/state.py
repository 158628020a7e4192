"""State of K tables x S seats during one round of the fast path, and the small helpers the compiled
steps share (outcome codes, cents, the engine's money arithmetic per distinct stake)."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable

import numpy as np

from compiler.lang.rules import Ref
from compiler.runtime.money import money

OPEN, WIN, LOSE, PUSH, VOID, SURRENDER = 0, 1, 2, 3, 4, 5
OUTCOMES = {WIN: "win", LOSE: "lose", PUSH: "push", VOID: "void", SURRENDER: "surrender"}


class Unsupported(Exception):
    """The fast path cannot play this chapter (the reason names the step or rule and its §)."""


# ---------------------------------------------------------------------------------------------
# State of K tables x S seats during one round
# ---------------------------------------------------------------------------------------------


@dataclass
class State:
    K: int
    S: int
    shoe: np.ndarray                     # (K, N) card ids
    idx: np.ndarray                      # (K,) next card
    in_round: np.ndarray                 # (K, S) seats playing this round
    live: np.ndarray                     # (K, 1) the round goes on at this table
    options: dict
    offered: dict
    ended: np.ndarray = None
    zones: dict = field(default_factory=dict)     # (owner, zone) -> (K, S|1, n)
    amount: dict = field(default_factory=dict)    # wager -> (K, S) cents (0: not placed)
    outcome: dict = field(default_factory=dict)   # wager -> (K, S) OPEN...
    net: dict = field(default_factory=dict)       # wager -> (K, S) cents
    flags: dict = field(default_factory=dict)
    choices: dict = field(default_factory=dict)
    first_after_shuffle: np.ndarray = None        # (K, 1)
    new_dealer: np.ndarray = None
    number: np.ndarray = None
    attrs: dict = field(default_factory=dict)     # round.roll ... -> (K, 1)
    chosen: dict = field(default_factory=dict)    # wager -> the labels it is placed on (every seat the same)
    vals: dict = field(default_factory=dict)      # the round state: name -> (K, 1), or (K, S) kept per player
    order: dict = field(default_factory=dict)     # owner -> zone names in the order dealt (engine's dicts)
    bonuses: list = field(default_factory=list)   # (wager, mask (K, S), stake cents, net cents)
    bonus: dict = field(default_factory=dict)     # wager -> (K, S) cents of bonus on the wager's own result
    rolls: Any = None
    memo: dict = field(default_factory=dict)


@dataclass(frozen=True)
class _Zone:
    owner: str
    zone: str


def _cents(d: Decimal) -> int:
    q = d * 100
    if q != q.to_integral_value():
        raise Unsupported(f"amount {d} is not a whole number of cents")
    return int(q)


class _Money:
    """Per distinct stake, the engine's own arithmetic (cached): net of a win, amount surrendered."""

    def __init__(self):
        self.cache: dict = {}

    def apply(self, key, fn: Callable[[int], int], stakes: np.ndarray) -> np.ndarray:
        lo, hi = stakes.min(), stakes.max()
        if lo == hi:  # one stake (the usual case): one value
            k = (key, int(lo))
            v = self.cache.get(k)
            if v is None:
                v = self.cache[k] = fn(int(lo))
            return np.full(stakes.shape, v, dtype=np.int64)
        uniq, inv = np.unique(stakes, return_inverse=True)
        vals = []
        for u in uniq.tolist():
            k = (key, u)
            v = self.cache.get(k)
            if v is None:
                v = self.cache[k] = fn(u)
            vals.append(v)
        return np.asarray(vals, dtype=np.int64)[inv]


OWNERS = ("player", "dealer", "community")


def _zone_key(n):
    if isinstance(n, Ref) and n.parts[0] in OWNERS:
        return (n.parts[0], n.parts[1] if len(n.parts) > 1 else "cards")
    return None


def _order(st: State, key) -> None:
    st.memo.clear()
    o = st.order.setdefault(key[0], [])
    if key[1] not in o:
        o.append(key[1])


def _all_ended(st: State) -> np.ndarray:
    return (~(st.in_round & ~st.ended).any(1, keepdims=True))


def _stop(st: State) -> None:
    st.live = st.live & ~_all_ended(st)


class _Strat:
    def __init__(self, prefer, offers):
        self.prefer = list(prefer)
        self.offers = {w: _cents(money(v)) for w, v in (offers or {}).items()}

    def __iter__(self):
        return iter(self.prefer)
