"""Many tables' shoes shuffled at once, word for word as the engine's ``Shoe.shuffle`` (fast path)."""
from __future__ import annotations

import functools
import random

import numpy as np

from compiler.runtime.cards import build_pack


@functools.lru_cache(maxsize=8)
def _plan(n: int) -> list[tuple[int, int, int]]:
    """Fisher-Yates as CPython's random.shuffle: (position, bound, shift of getrandbits)."""
    return [(b - 1, b, 32 - b.bit_length()) for b in range(n, 1, -1)]


class _MTShoes:
    """The shoes of many tables shuffled exactly as ``compiler.runtime.shoe.Shoe.shuffle`` does with
    each table's ``random.Random`` (Mersenne Twister), all at once: each generator's state goes to
    numpy's MT19937, whose raw 32-bit words are the words CPython draws, kept in a row of ``buf``;
    ``shuffle``, the cut and ``randint`` are replayed word for word (CPython's
    ``_randbelow_with_getrandbits``: ``getrandbits(k)`` is the word shifted right by 32 - k, redrawn
    while not below the bound), one numpy operation per position for every table (a rejected word
    redraws only on the tables that drew it). The engine tests compare every card dealt."""

    def __init__(self, seeds, proto_shoe, W: int = 4096):
        self.K = len(seeds)
        self.gens = []
        for seed in seeds:
            state = random.Random(seed).getstate()[1]
            g = np.random.MT19937()
            g.state = {"bit_generator": "MT19937",
                       "state": {"key": np.array(state[:624], dtype=np.uint32), "pos": state[624]}}
            self.gens.append(g)
        self.pack = np.array(build_pack(proto_shoe.decks, proto_shoe.deck), dtype=np.int32)
        n = len(self.pack)
        self.plan = _plan(n)
        k = proto_shoe.cut_rule.min_from_edge
        self.cut = (k, n - 2 * k + 1, 32 - (n - 2 * k + 1).bit_length()) if k and n > 2 * k else None
        self.W = max(W, 8 * n + 256)
        self.buf = np.stack([g.random_raw(self.W).astype(np.int64) for g in self.gens])
        self.bi = np.zeros(self.K, dtype=np.int64)
        self.need = 2 * n + 64

    def _refill(self, rows: np.ndarray) -> None:
        for k in rows.tolist():
            rest = self.buf[k, self.bi[k]:]
            self.buf[k, :len(rest)] = rest
            self.buf[k, len(rest):] = self.gens[k].random_raw(self.W - len(rest))
            self.bi[k] = 0

    def _draw(self, rows: np.ndarray, bound: int, sh: int) -> np.ndarray:
        """``_randbelow(bound)`` on the tables ``rows``."""
        if (self.bi[rows] >= self.W - 1).any():
            self._refill(rows[self.bi[rows] >= self.W - 1])
        j = self.buf[rows, self.bi[rows]] >> sh
        self.bi[rows] += 1
        bad = j >= bound
        while bad.any():
            rr = rows[bad]
            if (self.bi[rr] >= self.W - 1).any():
                self._refill(rr[self.bi[rr] >= self.W - 1])
            j[bad] = self.buf[rr, self.bi[rr]] >> sh
            self.bi[rr] += 1
            bad = j >= bound
        return j

    def shuffle(self, rows: np.ndarray) -> np.ndarray:
        """New shoes (len(rows), n) for the tables ``rows`` (as Shoe.shuffle).

        The words of the shuffle are read from a block of ``need`` words per table taken once (a small
        array, each table's own cursor into it) instead of the whole buffer at every position; in the
        rare shuffle that rejects so many words that a table's block runs out, nothing has been changed
        yet and the shuffle is done again word by word from the buffer (:meth:`_shuffle_from_buffer`)."""
        rows = np.asarray(rows, dtype=np.intp)
        low = rows[self.W - self.bi[rows] < self.need]
        if len(low):
            self._refill(low)
        R, n, limit = len(rows), len(self.pack), self.need
        base = self.bi[rows]
        block = self.buf[rows[:, None], base[:, None] + np.arange(limit)[None, :]]
        cur = np.zeros(R, dtype=np.int64)
        ar = np.arange(R)
        x = np.broadcast_to(self.pack, (R, n)).copy()
        reads = 0  # an upper bound of any table's cursor: positions drawn plus rejection rounds

        def draw(bound: int, sh: int):
            nonlocal reads
            if reads + 1 > limit and cur.max() + 1 > limit:
                return None
            j = block[ar, cur] >> sh
            cur[:] += 1
            reads += 1
            bad = j >= bound
            while bad.any():
                rb = ar[bad]
                if reads + 1 > limit and cur[rb].max() + 1 > limit:
                    return None
                j[rb] = block[rb, cur[rb]] >> sh
                cur[rb] += 1
                reads += 1
                bad = j >= bound
            return j

        for i, b, sh in self.plan:
            j = draw(b, sh)
            if j is None:
                return self._shuffle_from_buffer(rows)
            xi = x[:, i].copy()
            x[:, i] = x[ar, j]
            x[ar, j] = xi
        if self.cut is not None:
            k, b, sh = self.cut
            j = draw(b, sh)
            if j is None:
                return self._shuffle_from_buffer(rows)
            c = k + j
            x = np.take_along_axis(x, (c[:, None] + np.arange(n)[None, :]) % n, 1)
        self.bi[rows] = base + cur
        return x

    def _shuffle_from_buffer(self, rows: np.ndarray) -> np.ndarray:
        """:meth:`shuffle`, each word read from the whole buffer (refilled as it runs out)."""
        x = np.broadcast_to(self.pack, (len(rows), len(self.pack))).copy()
        ar = np.arange(len(rows))
        for i, b, sh in self.plan:
            j = self._draw(rows, b, sh)
            xi = x[:, i].copy()
            x[:, i] = x[ar, j]
            x[ar, j] = xi
        if self.cut is not None:
            k, b, sh = self.cut
            c = k + self._draw(rows, b, sh)
            n = x.shape[1]
            x = np.take_along_axis(x, (c[:, None] + np.arange(n)[None, :]) % n, 1)
        return x

    def randint(self, sides: int, rows: np.ndarray) -> np.ndarray:
        return 1 + self._draw(np.asarray(rows, dtype=np.intp), sides, 32 - sides.bit_length())
