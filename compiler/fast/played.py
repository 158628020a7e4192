"""What the tables of the fast path did: per table and wager, the settlements and their sums."""
from __future__ import annotations

import numpy as np

from compiler.fast.state import OUTCOMES, State, Unsupported


class Played:
    """What the tables did, per table (arrays of K): for each wager the settlements ``n``, the sum of
    the nets ``net`` and of their squares ``sq`` (cents), the smallest and largest stake; the same
    for the base game per seat (``base``: required wagers and wagers placed during the round); the
    reshuffles; with ``record``, every settlement of every round (per table, per round:
    [(seat, wager, outcome, stake cents, net cents)])."""

    LIMIT = 3_000_000  # |net| in cents below which the int64 sums of squares cannot overflow

    def __init__(self, K, S, wagers, base_wagers=()):
        self.K, self.S, self.wagers = K, S, wagers
        self.base_wagers = list(base_wagers)
        z = lambda: np.zeros(K, dtype=np.int64)  # noqa: E731
        self.n = {w: z() for w in wagers}
        self.net = {w: z() for w in wagers}
        self.sq = {w: z() for w in wagers}
        self.stake_min = {w: np.full(K, np.iinfo(np.int64).max) for w in wagers}
        self.stake_max = {w: z() for w in wagers}
        self.base = {"n": z(), "net": z(), "sq": z()}
        # round by round (the seats of a round share its chance): [rounds made, sum c^2, sum S*c, sum S^2] with
        # S a round's net in cents over its seats and c its results (compiler.analysis.simulate.WagerSim)
        self.by_round = {w: [z(), z(), z(), z()] for w in wagers}
        self.base_by_round = [z(), z(), z(), z()]
        self.reshuffles = z()
        self.rounds: list[list] | None = None

    def add_round(self, st: State, playing: np.ndarray, record: bool) -> None:
        K = st.K
        if record:
            if self.rounds is None:
                self.rounds = [[] for _ in range(K)]
            for k in np.flatnonzero(playing):
                self.rounds[k].append([])
        base = np.zeros((K, st.S), dtype=np.int64)
        made: dict[str, list] = {}  # wager -> [results this round, their net in cents], per table
        has_base = np.zeros((K, st.S), dtype=bool)
        for w in self.wagers:
            a = st.amount[w]
            m = st.in_round & (a > 0)
            if not m.any():
                continue
            nets = np.where(m, st.net[w], 0)
            if np.abs(nets).max() >= self.LIMIT:
                raise Unsupported("a net of more than $30,000 (the sums of squares would overflow)")
            self.n[w] += m.sum(1)
            self.net[w] += nets.sum(1)
            self.sq[w] += (nets * nets).sum(1)
            made[w] = [m.sum(1), nets.sum(1)]
            np.minimum(self.stake_min[w], np.where(m, a, np.iinfo(np.int64).max).min(1), out=self.stake_min[w])
            np.maximum(self.stake_max[w], np.where(m, a, 0).max(1), out=self.stake_max[w])
            if w in self.base_wagers:
                base += nets
                has_base |= m
            if record:
                kk, ss = np.nonzero(m)
                for k, s, am, o, n in zip(kk.tolist(), ss.tolist(), a[m].tolist(), st.outcome[w][m].tolist(),
                                          st.net[w][m].tolist()):
                    self.rounds[k][-1].append((s + 1, w, OUTCOMES.get(o, "open"), am, n))
        for w, mask, stakes, nets in st.bonuses:   # bonuses (envy): each a result of the wager
            if np.abs(nets).max() >= self.LIMIT:
                raise Unsupported("a net of more than $30,000 (the sums of squares would overflow)")
            kk, ss = np.nonzero(mask)
            np.add.at(self.n[w], kk, 1)
            np.add.at(self.net[w], kk, nets)
            np.add.at(self.sq[w], kk, nets * nets)
            c, t = made.setdefault(w, [np.zeros(K, dtype=np.int64), np.zeros(K, dtype=np.int64)])
            np.add.at(c, kk, 1)
            np.add.at(t, kk, nets)
            np.minimum.at(self.stake_min[w], kk, stakes)
            np.maximum.at(self.stake_max[w], kk, stakes)
            if w in self.base_wagers:
                np.add.at(base, (kk, ss), nets)
                has_base[kk, ss] = True
            if record:
                for k, s_, am, n in zip(kk.tolist(), ss.tolist(), stakes.tolist(), nets.tolist()):
                    self.rounds[k][-1].append((s_ + 1, w, "bonus", am, n))
        for w, (c, t) in made.items():
            self._by_round(self.by_round[w], c, t)
        if has_base.any():
            self.base["n"] += has_base.sum(1)
            self.base["net"] += base.sum(1)
            self.base["sq"] += (base * base).sum(1)
            self._by_round(self.base_by_round, has_base.sum(1), base.sum(1))

    @staticmethod
    def _by_round(acc: list, c: np.ndarray, total: np.ndarray) -> None:
        acc[0] += c > 0
        acc[1] += c * c
        acc[2] += total * c
        acc[3] += total * total

    def players(self, tables=slice(None)) -> int:
        return int(sum(int(v[tables].sum()) for v in self.net.values()))
