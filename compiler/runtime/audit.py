"""An audit of money from the log of rounds, independent of the :class:`~compiler.runtime.engine.Ledger`.

The ledger is written together with each settlement, so its balance cannot fail. This audit
reads only what the rounds *logged* -- each stake placed (``wager``), each settlement (``win``,
``lose``, ``push``, ``void``, ``surrender``, with the stake and its net), each ``reversal`` of a
settlement (a round voided after it), each bonus (and a bonus taken back) -- and the
progressive meters' readings before and after, and derives:

* what the players put on the table (placed) and got back (returned: stake plus net of each
  wager as finally settled, plus bonuses);
* the house result: ``placed - returned - meter growth - on the layout``.

A wager left open when its round ends that stays on the layout (logged ``carry``, compiler/runtime/carry.py)
is money on the layout, neither the players' nor the house's (``on_layout``) until a later round that
begins with it (``carried``) settles it.

A wager settled again (a whole round voided after it was paid or collected) must first have the
earlier payment or collection taken back by a ``reversal`` entry (a push moved nothing: it needs
none); a second settlement without one is a problem.
A wager placed and never settled is reported. Last, the log is checked against the round's results:
for each seat, the nets the log moved (settlements, reversals, bonuses) add up to the nets of its
results.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Iterable, Mapping

SETTLEMENTS = ("win", "lose", "push", "void", "surrender")


@dataclass
class Audit:
    placed: Decimal = Decimal(0)
    returned: Decimal = Decimal(0)
    bonuses: Decimal = Decimal(0)
    meter_growth: Decimal = Decimal(0)
    on_layout: Decimal = Decimal(0)  # stakes of wagers left open on the layout between rounds (``carry``)
    unsettled: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def players(self) -> Decimal:
        """The players' net result: what came back minus what was placed (and is not on the layout)."""
        return self.returned + self.bonuses - self.placed + self.on_layout

    @property
    def house(self) -> Decimal:
        """The house result: placed minus returned minus paid bonuses minus the meters' growth, not counting the
        stakes on the layout."""
        return self.placed - self.returned - self.bonuses - self.meter_growth - self.on_layout


def audit_rounds(rounds: Iterable, meters_before: Mapping[str, Decimal] | None = None,
                 meters_after: Mapping[str, Decimal] | None = None) -> Audit:
    """Audit the logs of ``rounds`` (RoundResult objects, in order)."""
    a = Audit()
    for rnd in rounds:
        open_: dict[tuple, list[list]] = {}  # (seat, wager) -> [[stake, returned or None], ...]
        logged: dict[int, Decimal] = {}  # seat -> the nets its log entries moved
        for e in rnd.log:
            if e.kind == "wager":
                if e.amount is None or e.amount <= 0:
                    a.problems.append(f"round {rnd.number}: a stake of {e.amount} placed")
                    continue
                a.placed += e.amount
                open_.setdefault((e.seat, getattr(e, "hand", 1), e.wager), []).append([e.amount, None])
            elif e.kind in ("carry", "carried"):  # off the round onto the layout; back from it into a round
                _layout(a, rnd.number, e, open_)
            elif e.kind in SETTLEMENTS and e.wager is not None:
                entries = open_.get((e.seat, getattr(e, "hand", 1), e.wager)) or []
                net = e.net if e.net is not None else Decimal(0)  # a win without a known amount
                logged[e.seat] = logged.get(e.seat, Decimal(0)) + net
                entry = next((x for x in reversed(entries) if x[1] is None), None)
                if entry is None and entries:  # settled again: only after its money was taken back
                    entry = next((x for x in reversed(entries) if x[1] == x[0] and x[0] == e.amount), None)
                    if entry is None:  # (a push, or a reversed settlement, moved nothing to take back)
                        a.problems.append(f"round {rnd.number}: seat {e.seat} {e.wager} settled again ({e.kind}) "
                                          "with no reversal of its earlier settlement")
                        continue
                if entry is None:
                    a.problems.append(f"round {rnd.number}: seat {e.seat} {e.wager} settled but never placed")
                    continue
                if e.amount != entry[0]:
                    a.problems.append(f"round {rnd.number}: seat {e.seat} {e.wager} settled for {e.amount}, "
                                      f"placed {entry[0]}")
                returned = entry[0] + net
                if returned < 0:
                    a.problems.append(f"round {rnd.number}: seat {e.seat} {e.wager} loses more than its stake")
                entry[1] = returned
            elif e.kind == "reversal":
                net = e.net if e.net is not None else Decimal(0)
                logged[e.seat] = logged.get(e.seat, Decimal(0)) + net
                entries = open_.get((e.seat, getattr(e, "hand", 1), e.wager)) or []
                entry = next((x for x in reversed(entries) if x[1] is not None and x[0] == e.amount), None)
                if entry is None or not e.cite:
                    a.problems.append(f"round {rnd.number}: seat {e.seat} {e.wager}: a reversal "
                                      f"{'of nothing settled' if entry is None else 'without its §'}")
                    continue
                if entry[1] - entry[0] + net != 0:
                    a.problems.append(f"round {rnd.number}: seat {e.seat} {e.wager}: a reversal of {net}, "
                                      f"the settlement moved {entry[1] - entry[0]}")
                entry[1] = None  # the settlement is taken back: the wager is open again
            elif e.kind == "bonus":
                a.bonuses += e.net or Decimal(0)
                if e.seat is not None:
                    logged[e.seat] = logged.get(e.seat, Decimal(0)) + (e.net or Decimal(0))
        for (seat, _hand, wager), entries in open_.items():
            for stake, returned in entries:
                if returned == "layout":
                    continue
                if returned is None:
                    a.unsettled.append(f"round {rnd.number}: seat {seat} {wager} {stake}")
                else:
                    a.returned += returned
        results: dict[int, Decimal] = {}
        for r in getattr(rnd, "results", ()):
            results[r.seat] = results.get(r.seat, Decimal(0)) + r.net
        for seat in sorted(set(results) | set(logged)):
            if results.get(seat, Decimal(0)) != logged.get(seat, Decimal(0)):
                a.problems.append(f"round {rnd.number}: seat {seat}: the log moves "
                                  f"{logged.get(seat, Decimal(0))}, the results net {results.get(seat, Decimal(0))}")
    before, after = dict(meters_before or {}), dict(meters_after or {})
    a.meter_growth = sum((after.get(k, Decimal(0)) - before.get(k, Decimal(0)) for k in set(before) | set(after)),
                         Decimal(0))
    return a


def _layout(a: Audit, number: int, e, open_: dict) -> None:
    """A ``carried`` entry opens its wager in the round from the layout (not placed again); a ``carry`` entry
    takes an open wager of the round off it onto the layout."""
    key = (e.seat, getattr(e, "hand", 1), e.wager)
    if e.amount is None or e.amount <= 0:
        a.problems.append(f"round {number}: a stake of {e.amount} {e.kind}")
    elif e.kind == "carried":
        a.on_layout -= e.amount
        open_.setdefault(key, []).append([e.amount, None])
    else:
        entry = next((x for x in reversed(open_.get(key) or []) if x[1] is None and x[0] == e.amount), None)
        if entry is None:
            a.problems.append(f"round {number}: seat {e.seat} {e.wager} left on the layout but not open")
            return
        entry[1] = "layout"
        a.on_layout += e.amount
