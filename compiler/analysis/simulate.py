"""Seeded simulation of whole shoes with a compiled game: mean net per unit of each wager with its
standard error, and the check that money is conserved (players + house + meters == 0).

Reproducible whatever the number of workers: the rounds are split into fixed-size tasks of
``CHUNK`` rounds (never by worker count); task i is seeded from
``numpy.random.SeedSequence(seed).spawn(...)[i]`` and plays ``TABLES`` tables (fresh shoes), each
seeded from a stream spawned from the task's. The sums of a task are kept exactly (integer cents)
and added in task order, then divided once.  So ``--workers 1``, ``--workers 8`` and
``--cluster ADDRESS`` (a Dask distributed scheduler) give the same result for one seed.

Two routes play the same seeded tables: the fast path (:mod:`compiler.fast`, compiled from the
chapter's IR, no log) where the chapter allows it, else the faithful engine; they agree to the cent
(tests/speed), so the route never changes a figure. ``route`` says which one ran and why.

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

from compiler.fast import Unsupported, compile_fast
from compiler.pipeline import compile_spec
from compiler.runtime.chance import first_set
from compiler.runtime.engine import FixedStrategy, Table
from compiler.runtime.from_ir import game_of
from compiler.spec.diagnostics import DiagnosticError

CHUNK = 2000  # rounds per task: fixed, so the result never depends on the number of workers
TABLES = 20   # tables per task (each a fresh shoe from its own seeded stream)
BATCH = 25    # tasks per job on the fast path (500 tables played at once); does not change the result


@dataclass
class WagerSim:
    n: int = 0
    total_stake: Decimal = Decimal(0)
    sum_net: Decimal = Decimal(0)
    sum_sq: Decimal = Decimal(0)
    # the results summed round by round (seats of one round share its cards, dice or pocket, so their
    # results are not independent): [rounds made, sum of c^2, sum of S*c, sum of S^2], S a round's net per
    # unit over its seats and c the number of its results
    rounds: list[float] = field(default_factory=lambda: [0, 0.0, 0.0, 0.0])

    def mean(self) -> float:
        return float(self.sum_net) / self.n if self.n else 0.0

    def se(self) -> float:
        """The standard error of the mean net per unit: the round is the independent unit (a ratio
        estimator over rounds), which with one result a round is the usual s / sqrt(n)."""
        if self.n < 2:
            return float("nan")
        m = float(self.sum_net) / self.n
        r, cc, sc, ss = self.rounds
        if r >= 2:
            d = ss - 2 * m * sc + m * m * cc
            return math.sqrt(max(d, 0.0) * r / ((r - 1) * self.n * self.n))
        var = (float(self.sum_sq) / self.n - m * m) * self.n / (self.n - 1)
        return math.sqrt(max(var, 0.0) / self.n)

    def add(self, other: "WagerSim") -> None:
        self.n += other.n
        self.total_stake += other.total_stake
        self.sum_net += other.sum_net
        self.sum_sq += other.sum_sq
        self.rounds = [a + b for a, b in zip(self.rounds, other.rounds)]


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
    route: str = "engine"

    shoe: bool = True  # False: a chapter without cards (nothing is reshuffled, no reshuffle line)

    NO_BASE = ("n/a: no wager is required, so there is no base game to measure per unit; each wager's line "
               "below is per unit of that wager, over the rounds it was made")

    def _figures(self, v: WagerSim) -> dict:
        se = v.se()
        return {"mean_net_per_unit": v.mean() if v.n else None,
                "standard_error": se if not math.isnan(se) else None, "n": v.n}

    def to_json(self) -> dict:
        base = self._figures(self.base) if self.base.n else {**self._figures(self.base), "why": self.NO_BASE}
        out = {"rounds": self.rounds, "seats": self.seats, "seed": self.seed,
               "base_game": base,
               "wagers": {k: self._figures(v) for k, v in self.per_unit.items()},
               "route": self.route,
               "money": {"players": str(self.players), "house": str(self.house), "meters": str(self.meters),
                         "balance": str(self.ledger_balance)}}
        if self.shoe:
            out["reshuffles"] = self.reshuffles
        return out

    @staticmethod
    def _se_text(v: WagerSim) -> str:
        se = v.se()
        return f"+/- {se:.6f}" if not math.isnan(se) else "+/- n/a (a standard error needs two rounds or more)"

    def to_text(self) -> str:
        head = f"{self.rounds} rounds x {self.seats} seat(s), seed {self.seed}"
        lines = [head + (f", {self.reshuffles} reshuffles" if self.shoe else "")]
        if self.base.n:
            lines.append(f"base game: mean net per unit {self.base.mean():+.6f} {self._se_text(self.base)} (1 s.e.)")
        else:
            lines.append(f"base game: {self.NO_BASE}")
        for k, v in self.per_unit.items():
            lines.append(f"{k}: mean net per unit {v.mean():+.6f} {self._se_text(v)} (n={v.n})")
        lines.append(f"played on: {self.route}")
        lines.append(f"money: players {self.players} + house {self.house} + meters {self.meters} = "
                     f"{self.ledger_balance}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Tasks
# ---------------------------------------------------------------------------------------------


def _seed_ints(ss: np.random.SeedSequence, n: int) -> list[int]:
    out = []
    for child in ss.spawn(n):
        words = child.generate_state(4, np.uint32)
        out.append(int.from_bytes(words.astype("<u4").tobytes(), "little"))
    return out


def task_seeds(seed: int, tasks: int) -> list[int]:
    """One independent stream per task: SeedSequence(seed).spawn(tasks), each as a 128-bit integer."""
    return _seed_ints(np.random.SeedSequence(seed), tasks)


def table_seeds(task_seed: int) -> list[int]:
    """The task's ``TABLES`` tables, each with a stream of its own spawned from the task's."""
    return _seed_ints(np.random.SeedSequence(task_seed), TABLES)


def table_rounds(rounds: int) -> list[int]:
    """Rounds of each table of a task of ``rounds`` rounds."""
    q, r = divmod(rounds, TABLES)
    return [q + (j < r) for j in range(TABLES)]


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
    for w in bets:  # a wager on chosen numbers: on the first of its legal sets
        if game.wagers[w].choose:
            bets[w] = {"amount": 1, "numbers": list(first_set(game, w))}
    return bets


@dataclass
class _Part:
    """Exact sums of one task, in cents: wager -> stake -> [settlements, sum of nets, sum of squares]; and
    round by round (``rounds``: wager -> [rounds, sum c^2, sum S*c, sum S^2], S per unit; ``base_rounds``
    the same for the base game, S in cents; see WagerSim.rounds)."""
    per: dict[str, dict[int, list[int]]] = field(default_factory=dict)
    base: list[int] = field(default_factory=lambda: [0, 0, 0])
    rounds: dict[str, list[float]] = field(default_factory=dict)
    base_rounds: list[float] = field(default_factory=lambda: [0, 0.0, 0.0, 0.0])
    players: Decimal = Decimal(0)
    house: Decimal = Decimal(0)
    meters: Decimal = Decimal(0)
    reshuffles: int = 0

    def add(self, wager: str, stake: int, n: int, net: int, sq: int) -> None:
        acc = self.per.setdefault(wager, {}).setdefault(stake, [0, 0, 0])
        acc[0] += n
        acc[1] += net
        acc[2] += sq

    def add_rounds(self, wager: str | None, rounds: int, cc: float, sc: float, ss: float) -> None:
        acc = self.base_rounds if wager is None else self.rounds.setdefault(wager, [0, 0.0, 0.0, 0.0])
        acc[0] += rounds
        acc[1] += cc
        acc[2] += sc
        acc[3] += ss


def _cents(d: Decimal) -> int:
    return int(d * 100)


def _base_wagers(game) -> list[str]:
    return [w for w, d in game.wagers.items() if d.required or d.placed == "during_round"]


def run_task(game, options, rounds: int, seats: int, task_seed: int, policy: str | None, bets: dict) -> _Part:
    """The engine: the task's tables, each a fresh Table seeded from the task's stream."""
    strategy = FixedStrategy([policy] if policy else [])
    part = _Part()
    base_w = set(_base_wagers(game))
    table_bets = {s: bets for s in range(1, seats + 1)}
    rankings = _shared_rankings(game)
    for ts, k in zip(table_seeds(task_seed), table_rounds(rounds)):
        if not k:
            continue
        table = Table(game, options, seed=ts)
        table._rankings = rankings
        for _ in range(k):
            res = table.play_round(_not_on_layout(table, table_bets), strategy)
            by_seat: dict[int, int] = {}
            this_round: dict[str, list] = {}
            for r in res.results:
                net, stake = _cents(r.net), _cents(r.amount)
                part.add(r.wager, stake, 1, net, net * net)
                c = this_round.setdefault(r.wager, [0, 0.0])
                c[0] += 1
                c[1] += net / stake if stake else 0.0
                if r.wager in base_w:
                    by_seat[r.seat] = by_seat.get(r.seat, 0) + net
            for w, (c, S) in this_round.items():
                part.add_rounds(w, 1, c * c, S * c, S * S)
            for net in by_seat.values():
                part.base[0] += 1
                part.base[1] += net
                part.base[2] += net * net
            if by_seat:
                c, S = len(by_seat), sum(by_seat.values())
                part.add_rounds(None, 1, c * c, S * c, S * S)
        L = table.ledger
        part.players += L.players
        part.house += L.house
        part.meters += L.meters
        part.reshuffles += len(table.reshuffles)
    return part


def _not_on_layout(table, table_bets: dict) -> dict:
    """Each seat's wagers for the round, less those it still has on the layout from the round before (a wager
    that stays until settled is not placed again while it is open)."""
    if not table.carried:
        return table_bets
    return {s: {w: a for w, a in b.items() if w not in table.carried[s].wagers} if s in table.carried else b
            for s, b in table_bets.items()}


_RANKINGS: dict[int, tuple] = {}


def _shared_rankings(game) -> dict:
    """The rankings of a game, built once per process and shared by its tables (immutable data;
    building a five-card ranking takes seconds)."""
    got = _RANKINGS.get(id(game))
    if got is None or got[0] is not game:
        got = _RANKINGS[id(game)] = (game, {})
    return got[1]


def run_batch_fast(fast, tasks: list[tuple[int, int]], seats: int, policy: str | None, bets: dict) -> list[_Part]:
    """The fast path: every table of the tasks [(rounds, task seed)] played at once."""
    seeds, rounds = [], []
    for k, ts in tasks:
        seeds += table_seeds(ts)
        rounds += table_rounds(k)
    played = fast.play(seeds, rounds, seats, bets, [policy] if policy else [])
    parts = []
    for i in range(len(tasks)):
        sl = slice(i * TABLES, (i + 1) * TABLES)
        part = _Part()
        for w in played.wagers:
            n = int(played.n[w][sl].sum())
            if not n:
                continue
            lo, hi = int(played.stake_min[w][sl].min()), int(played.stake_max[w][sl].max())
            if lo != hi:
                raise Unsupported(f"stakes of {w!r} vary within a task")
            part.add(w, lo, n, int(played.net[w][sl].sum()), int(played.sq[w][sl].sum()))
            r, cc, sc, ss = (int(played.by_round[w][x][sl].sum()) for x in range(4))
            part.add_rounds(w, r, cc, sc / lo, ss / (lo * lo))
        part.base = [int(played.base[x][sl].sum()) for x in ("n", "net", "sq")]
        part.add_rounds(None, *(int(played.base_by_round[x][sl].sum()) for x in range(4)))
        players = Decimal(played.players(sl)) / 100
        part.players, part.house = players, -players
        part.reshuffles = int(played.reshuffles[sl].sum())
        parts.append(part)
    return parts


@lru_cache(maxsize=8)
def _compiled_from_text(path: str, text: str):
    c = compile_spec(path, text)
    if not c.ok:
        raise DiagnosticError(c.errors)
    return game_of(c.chapter), c.chapter


_FAST: dict = {}


def _fast_of(path: str, text: str, options: dict):
    key = (path, text, repr(sorted(options.items())))
    if key not in _FAST:
        game, chapter = _compiled_from_text(path, text)
        _FAST[key] = compile_fast(chapter, game, options)
    return _FAST[key]


def run_job(path: str, text: str, options, tasks, seats, policy, bets, fast: bool) -> list[_Part]:
    """A job on a worker (a process here or a Dask worker): compile the chapter from its rulespec
    text (once per worker process), then play the tasks [(rounds, task seed)]."""
    if fast:
        return run_batch_fast(_fast_of(path, text, options), tasks, seats, policy, bets)
    game, _ = _compiled_from_text(path, text)
    return [run_task(game, options, k, seats, s, policy, bets) for k, s in tasks]


def _source_of(game) -> tuple[str, str] | None:
    """The rulespec the game was compiled from, if it can be found and still compiles to this game."""
    from compiler.pipeline import ROOT

    for p in (Path(game.spec_path), ROOT / game.spec_path):
        if p.is_file():
            text = p.read_text(encoding="utf-8")
            try:
                g, _ = _compiled_from_text(game.spec_path, text)
            except Exception:  # the file changed under us or is not the game's: run in this process
                return None
            return (game.spec_path, text) if g.chapter == game.chapter and list(g.wagers) == list(game.wagers) \
                else None
    return None


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Progress:
    """Rounds (or other units of work) done, rate and time left on stderr, only when stderr is a
    terminal."""

    def __init__(self, total: int, stream=None, unit: str = "rounds"):
        self.stream = stream if stream is not None else sys.stderr
        self.on = bool(getattr(self.stream, "isatty", lambda: False)())
        self.total, self.done, self.t0, self.unit = total, 0, time.perf_counter(), unit

    def update(self, rounds: int) -> None:
        self.done += rounds
        if not self.on:
            return
        dt = max(time.perf_counter() - self.t0, 1e-9)
        rate = self.done / dt
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        per = f"{rate:,.0f}" if rate >= 10 else f"{rate:,.2f}"
        self.stream.write(f"\r{self.done:,}/{self.total:,} {self.unit}  {per} {self.unit}/s  {left:,.0f} s left   ")
        self.stream.flush()

    def close(self) -> None:
        if self.on:
            self.stream.write("\n")
            self.stream.flush()


def fast_route(game, options, chapter=None, bets=None) -> tuple[bool, str]:
    """(True, "fast path") when the chapter compiles to the fast path, else (False, the reason)."""
    if chapter is None:
        src = _source_of(game)
        if src is None:
            return False, "engine (the rulespec of the game was not found)"
        _, chapter = _compiled_from_text(*src)
    try:
        compile_fast(chapter, game, options, bets)
    except Unsupported as e:
        return False, f"engine (the fast path does not support {e})"
    # a simulation's tables play many rounds: a wager that stays is carried into the next, which the fast
    # path's tables do not play (it refuses while playing): the engine plays them from the start
    stays = [w for w, d in game.wagers.items() if d.stays and (bets is None or w in bets)]
    if stays:
        d = game.wagers[stays[0]]
        return False, (f"engine (the fast path does not support wager {stays[0]!r} ({d.cite}), which stays on the "
                       "layout into the table's next round (stays: until_settled))")
    return True, "fast path"


def simulate(game, options=None, rounds: int = 10000, seats: int = 1, seed: int = 1, policy: str | None = None,
             bets: dict | None = None, workers: int = 1, cluster: str | None = None,
             progress: Progress | None = None, fast: bool | None = None, chapter=None) -> SimResult:
    """Simulate ``rounds`` rounds for ``seats`` positions.

    ``workers``: processes on this machine (0: every core); ``cluster``: the address of a Dask
    distributed scheduler (``tcp://host:8786``); ``fast``: None plays on the fast path where the
    chapter allows it (else the engine, and ``route`` says why), True requires it, False uses the
    engine. The result depends on the seed and the arguments only, never on ``workers``,
    ``cluster`` or the route: both routes play the same seeded tables and agree to the cent."""
    if bets is None:
        bets = default_bets(game, options)
    options = dict(options or {})
    sizes = plan(rounds)
    tasks = list(zip(sizes, task_seeds(seed, len(sizes))))
    workers = default_workers() if not workers or workers < 0 else workers
    route = "engine"
    use_fast = False
    if fast is not False:
        use_fast, route = fast_route(game, options, chapter, bets)
        if fast and not use_fast:
            raise Unsupported(route)
    run = (game, options, tasks, seats, policy, bets, workers, cluster, chapter)
    try:
        parts = _play_tasks(*run, use_fast, progress or Progress(rounds))
    except Unsupported as e:
        # the fast path met, while playing, what its compile-time check could not see (a wager's stake that
        # varies with the cards); the engine plays the same seeded tables from the start
        if fast or not use_fast:
            raise
        route = f"engine (the fast path does not support {e})"
        parts = _play_tasks(*run, False, progress or Progress(rounds))
    res = _merge(parts, rounds, seats, seed, game, bets)
    res.route = route
    res.shoe = game.cards.reshuffle != "never"
    return res


def _play_tasks(game, options, tasks, seats, policy, bets, workers, cluster, chapter, use_fast: bool,
                prog: Progress) -> list[_Part]:
    """The tasks' sums, on the fast path or the engine, in this process, a pool of processes or a cluster."""
    per_job = BATCH if use_fast else 1
    jobs = [tasks[i:i + per_job] for i in range(0, len(tasks), per_job)]
    need_source = cluster or (workers > 1 and len(jobs) > 1)
    source = _source_of(game) if need_source else None
    if cluster and source is None:
        raise ValueError(f"--cluster needs the rulespec the game was compiled from ({game.spec_path}): not found")
    parts: list[_Part] = []
    if cluster:
        parts = _on_cluster(cluster, source, options, jobs, seats, policy, bets, use_fast, prog)
    elif source is not None:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as ex:
            futs = [ex.submit(run_job, *source, options, job, seats, policy, bets, use_fast) for job in jobs]
            for f, job in zip(futs, jobs):  # in task order: the sums are added in a fixed order
                parts += f.result()
                prog.update(sum(k for k, _ in job))
    else:
        fg = _fast_for(game, options, chapter) if use_fast else None
        for job in jobs:
            parts += (run_batch_fast(fg, job, seats, policy, bets) if use_fast else
                      [run_task(game, options, k, seats, s, policy, bets) for k, s in job])
            prog.update(sum(k for k, _ in job))
    prog.close()
    return parts


def _fast_for(game, options, chapter):
    if chapter is None:
        _, chapter = _compiled_from_text(*_source_of(game))
    return compile_fast(chapter, game, options)


def _on_cluster(address, source, options, jobs, seats, policy, bets, use_fast, prog) -> list[_Part]:
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--cluster needs the Dask distributed package: pip install 'distributed'") from None
    with Client(address, set_as_default=False) as client:
        futs = [client.submit(run_job, *source, options, job, seats, policy, bets, use_fast, pure=False)
                for job in jobs]
        parts: list[_Part] = []
        for f, job in zip(futs, jobs):
            parts += f.result()
            prog.update(sum(k for k, _ in job))
        return parts


def _merge(parts: list[_Part], rounds: int, seats: int, seed: int, game, bets) -> SimResult:
    acc: dict[str, dict[int, list[int]]] = {}
    rounds_of: dict[str, list[float]] = {}
    base = [0, 0, 0]
    base_rounds = [0, 0.0, 0.0, 0.0]
    players = house = meters = Decimal(0)
    reshuffles = 0
    for p in parts:
        for w, by_stake in p.per.items():
            for stake, v in by_stake.items():
                a = acc.setdefault(w, {}).setdefault(stake, [0, 0, 0])
                for i in range(3):
                    a[i] += v[i]
        for w, v in p.rounds.items():
            a = rounds_of.setdefault(w, [0, 0.0, 0.0, 0.0])
            for i in range(4):
                a[i] += v[i]
        for i in range(3):
            base[i] += p.base[i]
        for i in range(4):
            base_rounds[i] += p.base_rounds[i]
        players += p.players
        house += p.house
        meters += p.meters
        reshuffles += p.reshuffles
    per: dict[str, WagerSim] = {}
    for w in game.wagers:  # in the spec's order
        if w not in acc:
            continue
        ws = per[w] = WagerSim()
        for stake, (n, net, sq) in sorted(acc[w].items()):
            st = Decimal(stake)
            ws.n += n
            ws.total_stake += st * n / 100
            ws.sum_net += Decimal(net) / st
            ws.sum_sq += Decimal(sq) / (st * st)
        ws.rounds = list(rounds_of.get(w, ws.rounds))
    base_stake = Decimal(sum(_cents(Decimal(bets[w])) for w in game.wagers if game.wagers[w].required and w in bets))
    bs = float(base_stake)
    b = WagerSim(base[0], Decimal(0), Decimal(base[1]) / base_stake, Decimal(base[2]) / (base_stake * base_stake),
                 [base_rounds[0], base_rounds[1], base_rounds[2] / bs, base_rounds[3] / (bs * bs)]) \
        if base_stake else WagerSim()
    cent = Decimal("0.01")
    players, house, meters = players.quantize(cent), house.quantize(cent), meters.quantize(cent)
    return SimResult(rounds, seats, seed, per, b, players + house + meters, players, house, meters, reshuffles)
