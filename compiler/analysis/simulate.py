"""Seeded simulation of whole shoes with a compiled game: mean net per unit of each wager with its
standard error, and the check that money is conserved (players + house + meters == 0).

Reproducible whatever the number of workers: the rounds are split into fixed-size tasks of
``CHUNK`` rounds (never by worker count); task i plays a table of its own (its own shoe) seeded
from ``numpy.random.SeedSequence(seed).spawn(...)[i]``, and the per-task sums (exact ``Decimal``)
are added in task order.  So ``--workers 1``, ``--workers 8`` and ``--cluster ADDRESS`` (a Dask
distributed scheduler) give the same result, bit for bit, for one seed.

Workers are processes (``concurrent.futures``) or Dask workers; each compiles the chapter once from
the rulespec text the caller sends (no file system shared with the workers is assumed).
"""
from __future__ import annotations

import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import numpy as np

from compiler.runtime.engine import FixedStrategy, Table

CHUNK = 2000  # rounds per task: fixed, so the result never depends on the number of workers


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

    def add(self, other: "WagerSim") -> None:
        self.n += other.n
        self.total_stake += other.total_stake
        self.sum_net += other.sum_net
        self.sum_sq += other.sum_sq


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


# ---------------------------------------------------------------------------------------------
# Tasks
# ---------------------------------------------------------------------------------------------


def task_seeds(seed: int, tasks: int) -> list[int]:
    """One independent stream per task: SeedSequence(seed).spawn(tasks), each as a 128-bit integer seed."""
    out = []
    for child in np.random.SeedSequence(seed).spawn(tasks):
        words = child.generate_state(4, np.uint32)
        out.append(int.from_bytes(words.astype("<u4").tobytes(), "little"))
    return out


def plan(rounds: int, chunk: int | None = None) -> list[int]:
    """Rounds of each task: fixed-size chunks, the last one shorter."""
    chunk = chunk or CHUNK
    return [min(chunk, rounds - i) for i in range(0, rounds, chunk)]


def default_bets(game, options=None) -> dict:
    table = Table(game, options, seed=0)
    bets = {w: 1 for w, d in game.wagers.items() if d.required}
    for w, d in game.wagers.items():
        if not d.required and d.placed == "before_deal" and table.offered(w):
            bets[w] = 1
    return bets


@dataclass
class _Part:
    per: dict[str, WagerSim] = field(default_factory=dict)
    base: WagerSim = field(default_factory=WagerSim)
    players: Decimal = Decimal(0)
    house: Decimal = Decimal(0)
    meters: Decimal = Decimal(0)
    reshuffles: int = 0


def run_task(game, options, rounds: int, seats: int, task_seed: int, policy: str | None, bets: dict) -> _Part:
    """Play ``rounds`` rounds on a fresh table seeded with ``task_seed``; the sums of this task."""
    table = Table(game, options, seed=task_seed)
    required = [w for w, d in game.wagers.items() if d.required]
    strategy = FixedStrategy([policy] if policy else [])
    part = _Part()
    per = part.per
    base = part.base
    base_stake = sum(Decimal(bets[w]) for w in required)
    table_bets = {s: bets for s in range(1, seats + 1)}
    for _ in range(rounds):
        res = table.play_round(table_bets, strategy)
        by_seat: dict[int, Decimal] = {}
        for r in res.results:
            w = per.get(r.wager)
            if w is None:
                w = per[r.wager] = WagerSim()
            unit = r.net / r.amount
            w.n += 1
            w.sum_net += unit
            w.sum_sq += unit * unit
            w.total_stake += r.amount
            if r.wager in required or game.wagers[r.wager].placed == "during_round":
                by_seat[r.seat] = by_seat.get(r.seat, Decimal(0)) + r.net
        for s, net in by_seat.items():
            u = net / base_stake
            base.n += 1
            base.sum_net += u
            base.sum_sq += u * u
    L = table.ledger
    part.players, part.house, part.meters = L.players, L.house, L.meters
    part.reshuffles = len(table.reshuffles)
    return part


@lru_cache(maxsize=8)
def _game_from_text(path: str, text: str):
    from compiler.codegen.generate import render_game_module
    from compiler.pipeline import _module, compile_spec
    from compiler.spec.diagnostics import DiagnosticError

    c = compile_spec(path, text)
    if not c.ok:
        raise DiagnosticError(c.errors)
    return _module(c.chapter.module_name, render_game_module(c.chapter)).GAME


def run_task_from_text(path: str, text: str, options, rounds, seats, task_seed, policy, bets) -> _Part:
    """A task on a worker: compile the chapter from its rulespec text (once per worker process)."""
    return run_task(_game_from_text(path, text), options, rounds, seats, task_seed, policy, bets)


def _source_of(game) -> tuple[str, str] | None:
    """The rulespec the game was compiled from, if it can be found and still compiles to this game."""
    from compiler.pipeline import ROOT

    for p in (Path(game.spec_path), ROOT / game.spec_path):
        if p.is_file():
            text = p.read_text(encoding="utf-8")
            try:
                if _game_from_text(game.spec_path, text).chapter == game.chapter:
                    return game.spec_path, text
            except Exception:  # the file changed under us or is not the game's: run in this process
                return None
    return None


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Progress:
    """Rounds done, rate and time left on stderr, only when stderr is a terminal."""

    def __init__(self, total: int, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.on = bool(getattr(self.stream, "isatty", lambda: False)())
        self.total, self.done, self.t0 = total, 0, time.perf_counter()

    def update(self, rounds: int) -> None:
        self.done += rounds
        if not self.on:
            return
        dt = max(time.perf_counter() - self.t0, 1e-9)
        rate = self.done / dt
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        self.stream.write(f"\r{self.done:,}/{self.total:,} rounds  {rate:,.0f} rounds/s  {left:,.0f} s left   ")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


def simulate(game, options=None, rounds: int = 10000, seats: int = 1, seed: int = 1, policy: str | None = None,
             bets: dict | None = None, workers: int = 1, cluster: str | None = None,
             progress: Progress | None = None) -> SimResult:
    """Simulate ``rounds`` rounds for ``seats`` positions. ``workers``: processes on this machine
    (0: every core); ``cluster``: the address of a Dask distributed scheduler (``tcp://host:8786``).
    The result depends on the seed and the arguments only, never on ``workers`` or ``cluster``."""
    if bets is None:
        bets = default_bets(game, options)
    sizes = plan(rounds)
    seeds = task_seeds(seed, len(sizes))
    options = dict(options or {})
    workers = default_workers() if not workers or workers < 0 else workers
    parts: list[_Part] = []
    prog = progress or Progress(rounds)
    source = _source_of(game) if (cluster or (workers > 1 and len(sizes) > 1)) else None
    if cluster and source is None:
        raise ValueError(f"--cluster needs the rulespec the game was compiled from ({game.spec_path}): not found")
    if cluster:
        parts = _on_cluster(cluster, source, options, sizes, seats, seeds, policy, bets, prog)
    elif source is not None:
        n = min(workers, len(sizes))
        with ProcessPoolExecutor(max_workers=n) as ex:
            futs = [ex.submit(run_task_from_text, *source, options, k, seats, s, policy, bets)
                    for k, s in zip(sizes, seeds)]
            for f, k in zip(futs, sizes):  # in task order: the sums are added in a fixed order
                parts.append(f.result())
                prog.update(k)
    else:
        for k, s in zip(sizes, seeds):
            parts.append(run_task(game, options, k, seats, s, policy, bets))
            prog.update(k)
    prog.close()
    return _merge(parts, rounds, seats, seed)


def _on_cluster(address, source, options, sizes, seats, seeds, policy, bets, prog) -> list[_Part]:
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--cluster needs the Dask distributed package: pip install 'distributed'") from None
    with Client(address, set_as_default=False) as client:
        futs = [client.submit(run_task_from_text, *source, options, k, seats, s, policy, bets,
                              key=f"rulespec-simulate-{seed_key(s)}-{i}", pure=False)
                for i, (k, s) in enumerate(zip(sizes, seeds))]
        parts = []
        for f, k in zip(futs, sizes):
            parts.append(f.result())
            prog.update(k)
        return parts


def seed_key(s: int) -> str:
    return f"{s & 0xFFFFFFFF:08x}"


def _merge(parts: list[_Part], rounds: int, seats: int, seed: int) -> SimResult:
    per: dict[str, WagerSim] = {}
    base = WagerSim()
    players = house = meters = Decimal(0)
    reshuffles = 0
    for p in parts:
        for k, v in p.per.items():
            per.setdefault(k, WagerSim()).add(v)
        base.add(p.base)
        players += p.players
        house += p.house
        meters += p.meters
        reshuffles += p.reshuffles
    return SimResult(rounds, seats, seed, per, base, players + house + meters, players, house, meters, reshuffles)
