"""Seeded simulation of whole shoes with a compiled game: mean net per unit of each wager with its
standard error, and the check that money is conserved (players + house + meters == 0)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from compiler.runtime.engine import FixedStrategy, Table


@dataclass
class WagerSim:
    n: int = 0
    total_stake: Decimal = Decimal(0)
    sum_net: Decimal = Decimal(0)
    sum_sq: Decimal = Decimal(0)

    def mean(self) -> float:
        return float(self.sum_net) / self.n if self.n else 0.0

    def se(self) -> float:
        if self.n < 2:
            return float("nan")
        m = float(self.sum_net) / self.n
        var = (float(self.sum_sq) / self.n - m * m) * self.n / (self.n - 1)
        return math.sqrt(max(var, 0.0) / self.n)


@dataclass
class SimResult:
    rounds: int
    seats: int
    seed: int
    per_unit: dict[str, WagerSim]
    base: WagerSim
    ledger_balance: Decimal
    players: Decimal
    house: Decimal
    meters: Decimal
    reshuffles: int

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "seats": self.seats, "seed": self.seed, "reshuffles": self.reshuffles,
                "base_game": {"mean_net_per_unit": self.base.mean(), "standard_error": self.base.se(), "n": self.base.n},
                "wagers": {k: {"mean_net_per_unit": v.mean(), "standard_error": v.se(), "n": v.n}
                           for k, v in self.per_unit.items()},
                "money": {"players": str(self.players), "house": str(self.house), "meters": str(self.meters),
                          "balance": str(self.ledger_balance)}}

    def to_text(self) -> str:
        lines = [f"{self.rounds} rounds x {self.seats} seat(s), seed {self.seed}, {self.reshuffles} reshuffles",
                 f"base game: mean net per unit {self.base.mean():+.6f} +/- {self.base.se():.6f} (1 s.e.)"]
        for k, v in self.per_unit.items():
            lines.append(f"{k}: mean net per unit {v.mean():+.6f} +/- {v.se():.6f} (n={v.n})")
        lines.append(f"money: players {self.players} + house {self.house} + meters {self.meters} = "
                     f"{self.ledger_balance}")
        return "\n".join(lines)


def simulate(game, options=None, rounds: int = 10000, seats: int = 1, seed: int = 1, policy: str | None = None,
             bets: dict | None = None) -> SimResult:
    table = Table(game, options, seed=seed)
    required = [w for w, d in game.wagers.items() if d.required]
    if bets is None:
        bets = {w: 1 for w in required}
        for w, d in game.wagers.items():
            if not d.required and d.placed == "before_deal" and table.offered(w):
                bets[w] = 1
    strategy = FixedStrategy([policy] if policy else [])
    per: dict[str, WagerSim] = {}
    base = WagerSim()
    for _ in range(rounds):
        res = table.play_round({s: bets for s in range(1, seats + 1)}, strategy)
        by_seat: dict[int, Decimal] = {}
        for r in res.results:
            key = r.wager
            w = per.setdefault(key, WagerSim())
            unit = r.net / r.amount
            w.n += 1
            w.sum_net += unit
            w.sum_sq += unit * unit
            w.total_stake += r.amount
            if r.wager in required or game.wagers[r.wager].placed == "during_round":
                by_seat[r.seat] = by_seat.get(r.seat, Decimal(0)) + r.net
        base_stake = sum(Decimal(bets[w]) for w in required)
        for s, net in by_seat.items():
            u = net / base_stake
            base.n += 1
            base.sum_net += u
            base.sum_sq += u * u
    L = table.ledger
    return SimResult(rounds, seats, seed, per, base, L.balance(), L.players, L.house, L.meters, len(table.reshuffles))
