"""An audit of money from the log of rounds, independent of the :class:`~compiler.runtime.engine.Ledger`.

The ledger is written together with each settlement, so its balance cannot fail. This audit
reads only what the rounds *logged* -- each stake placed (``wager``), each settlement (``win``,
``lose``, ``push``, ``void``, ``surrender``, with the stake and its net), each bonus -- and the
progressive meters' readings before and after, and derives:

* what the players put on the table (placed) and got back (returned: stake plus net of each
  wager as finally settled, plus bonuses);
* the house result: ``placed - returned - meter growth``.

A wager settled twice (a whole round voided after a wager was settled) counts at its last
settlement; a wager placed and never settled is reported.
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
    unsettled: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def players(self) -> Decimal:
        """The players' net result: what came back minus what was placed."""
        return self.returned + self.bonuses - self.placed

    @property
    def house(self) -> Decimal:
        """The house result: placed minus returned minus paid bonuses minus the meters' growth."""
        return self.placed - self.returned - self.bonuses - self.meter_growth


def audit_rounds(rounds: Iterable, meters_before: Mapping[str, Decimal] | None = None,
                 meters_after: Mapping[str, Decimal] | None = None) -> Audit:
    """Audit the logs of ``rounds`` (RoundResult objects, in order)."""
    a = Audit()
    for rnd in rounds:
        open_: dict[tuple, list[list]] = {}  # (seat, wager) -> [[stake, returned or None], ...]
        for e in rnd.log:
            if e.kind == "wager":
                if e.amount is None or e.amount <= 0:
                    a.problems.append(f"round {rnd.number}: a stake of {e.amount} placed")
                    continue
                a.placed += e.amount
                open_.setdefault((e.seat, e.wager), []).append([e.amount, None])
            elif e.kind in SETTLEMENTS and e.wager is not None:
                entries = open_.get((e.seat, e.wager)) or []
                net = e.net if e.net is not None else Decimal(0)  # a win without a known amount
                entry = next((x for x in reversed(entries) if x[1] is None), None)
                if entry is None:  # settled again (the round voided): the last settlement counts
                    entry = next((x for x in reversed(entries) if x[0] == e.amount), None)
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
            elif e.kind == "bonus":
                a.bonuses += e.net or Decimal(0)
        for (seat, wager), entries in open_.items():
            for stake, returned in entries:
                if returned is None:
                    a.unsettled.append(f"round {rnd.number}: seat {seat} {wager} {stake}")
                else:
                    a.returned += returned
    before, after = dict(meters_before or {}), dict(meters_after or {})
    a.meter_growth = sum((after.get(k, Decimal(0)) - before.get(k, Decimal(0)) for k in set(before) | set(after)),
                         Decimal(0))
    return a
