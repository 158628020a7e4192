"""Card-removal counting: how many sets of a family are disjoint from a query set, by class and by value.

The primitive of every route in which a second hand (a dealer's) is dealt from the same deck as the
hand being judged. Items are integers ``0..n-1`` (deck positions); sets are rows of increasing items.

Given a family ``F`` of k-sets (every hand the dealer can hold), each member ``D`` with a class
``c(D)`` in ``0..C-1`` (what the rules read of the dealer's hand alone, e.g. qualifies or not) and a
value ``v(D)`` in ``0..R-1`` (its dense rank in a ranking: larger is higher), and query sets ``P``
(the player's cards) each with a threshold ``t`` (the player's value on the same dense scale),
:meth:`DisjointCounter.counts` gives, exactly and for every class ``c``::

    below[c] = #{D in F : D ∩ P = ∅, c(D) = c, v(D) < t}
    equal[c] = #{... v(D) = t},   above[c] = #{... v(D) > t}

by inclusion–exclusion over the subsets ``S`` of ``P`` (only ``|S| <= k`` can lie in a member)::

    #{D : D ∩ P = ∅, ...} = Σ_{S ⊆ P} (-1)^|S| #{D : S ⊆ D, ...}

The right-hand terms come from tables built once per family: for each size ``s``, every s-subset
``T`` of every member gives an entry ``(code(T), c(D), v(D))``, ``code`` the colex index of ``T``
among the s-subsets of the n items. A table is either dense and cumulative (``[code, c, t]`` = the
entries with ``v < t``, one gather per query) when ``C(n, s) * C * (R + 1)`` fits the limit, or direct
(class and value by code) when each subset lies in one member at most (``s = k``), or the entries sorted by the key ``(code * C + c) * (R + 1) + v``, answered with ``np.searchsorted``
(two searches per query subset and class; block starts from a dense array).

Cost: the family side touches each member ``C(k, s)`` times per size ``s``; a query ``C(|P|, s)``
times. Memory: the dense tables (``int32``). Nothing here knows a game: the caller decides what
the items, members, classes and values are (``dealer.solve_dealer``; ``paigow``-style 2-D counts are a
separate primitive).
"""
from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

DENSE_LIMIT = 50_000_000  # entries of a dense cumulative table (int32: 200 MB; Four Card Poker's 3-subsets of 51 cards by 2,151 values fit)


def binomials(n: int, k: int) -> np.ndarray:
    """``B[x, j] = C(x, j)`` for ``0 <= x <= n``, ``0 <= j <= k`` (int64)."""
    b = np.zeros((n + 1, k + 1), dtype=np.int64)
    for x in range(n + 1):
        for j in range(min(x, k) + 1):
            b[x, j] = comb(x, j)
    return b


def colex_codes(rows: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """Colex index of each row of increasing items: ``Σ_i C(row[i], i + 1)``."""
    rows = np.asarray(rows, dtype=np.int64)
    out = np.zeros(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[1]):
        out += binom[rows[:, i], i + 1]
    return out


class _Level:
    """The entries of one subset size ``s``."""

    def __init__(self, n: int, s: int, members: np.ndarray, classes: np.ndarray, values: np.ndarray,
                 C: int, R: int, binom: np.ndarray, dense_limit: int, buffer: np.ndarray | None = None,
                 codes: np.ndarray | None = None):
        self.s = s
        self.C, self.R = C, R
        k = members.shape[1]
        cols = list(combinations(range(k), s))
        if codes is None:  # the s-subsets of every member (a family of the same members passes them in)
            codes = np.concatenate([colex_codes(members[:, list(c)], binom) for c in cols])
        self.codes = codes
        cl = np.tile(classes.astype(np.int64), len(cols))
        va = np.tile(values.astype(np.int64), len(cols))
        n_codes = comb(n, s)
        self.dense = n_codes * C * (R + 1) <= dense_limit
        self.single = False
        if not self.dense and s == k and n_codes <= 4 * DENSE_LIMIT:
            # a k-subset of a member is the member (members are distinct sets): class and value by code
            self.single = True
            self.one_c = np.full(n_codes, -1, dtype=np.int64)
            self.one_v = np.zeros(n_codes, dtype=np.int64)
            self.one_c[codes] = cl
            self.one_v[codes] = va
        elif self.dense:
            size = n_codes * C * (R + 1)
            keys = (codes * C + cl) * (R + 1) + va + 1
            if buffer is not None and buffer.shape == (size,) and size > 4 * len(keys):
                buffer.fill(0)  # a large table taken over from a counter of the same shape (DisjointCounter)
                np.add.at(buffer, keys, 1)
                rows = buffer.reshape(n_codes * C, R + 1)
                np.cumsum(rows, axis=1, out=rows)
                self.cum = buffer
            else:
                flat = np.bincount(keys, minlength=size)
                self.cum = np.cumsum(flat.reshape(n_codes, C, R + 1), axis=2, dtype=np.int32).reshape(-1)
        else:
            self.keys = np.sort((codes * C + cl) * (R + 1) + va)
            if n_codes * C + 1 > 4 * DENSE_LIMIT:
                raise MemoryError(f"{n_codes * C:,} blocks of {s}-subsets exceed the counting tables' limit")
            self.start = np.searchsorted(self.keys, np.arange(n_codes * C + 1, dtype=np.int64) * (R + 1))

    def add(self, code: np.ndarray, t: np.ndarray, sign: int, out: np.ndarray) -> None:
        """out[q, c, (below, equal, above)] += sign * #{entries (code[q], c, v) by v against t[q]}."""
        C, R = self.C, self.R
        if self.single:
            cl, v = self.one_c[code], self.one_v[code]
            for c in range(C):
                here = cl == c
                out[:, c, 0] += sign * (here & (v < t))
                out[:, c, 1] += sign * (here & (v == t))
                out[:, c, 2] += sign * (here & (v > t))
            return
        for c in range(C):
            if self.dense:  # the flat table: [(code * C + c) * (R + 1) + t]
                base = (code * C + c) * (R + 1)
                lt = self.cum.take(base + t).astype(np.int64)
                le = self.cum.take(base + t + 1).astype(np.int64)
                tot = self.cum.take(base + R).astype(np.int64)
            else:
                block = code * C + c
                st = self.start[block]
                tot = self.start[block + 1] - st
                base = block * (R + 1)
                lt, le = _search(self.keys, base + t)
                lt, le = lt - st, le - st
            out[:, c, 0] += sign * lt
            out[:, c, 1] += sign * (le - lt)
            out[:, c, 2] += sign * (tot - le)


def _search(keys: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.searchsorted`` of ``q`` in ``keys`` on both sides, the queries looked up in increasing order (a
    sorted search walks the table once; in the queries' own order each lookup misses the cache)."""
    order = np.argsort(q, kind="stable")
    qs = q[order]
    lt, le = np.empty_like(q), np.empty_like(q)
    lt[order] = np.searchsorted(keys, qs, side="left")
    le[order] = np.searchsorted(keys, qs, side="right")
    return lt, le


class DisjointCounter:
    """Counts of the members of a family of k-sets disjoint from a query set, by class and by value.

    ``members``: (m, k) rows of increasing items in ``0..n-1`` (distinct sets, as the tables assume); ``classes``: (m,) in
    ``0..n_classes-1``; ``values``: (m,) in ``0..n_values-1``.
    """

    def __init__(self, n: int, members: np.ndarray, classes: np.ndarray, values: np.ndarray,
                 n_classes: int, n_values: int, max_query: int = 8, dense_limit: int = DENSE_LIMIT,
                 reuse: "DisjointCounter | None" = None):
        """``reuse``: a counter no longer needed, whose dense tables this one fills again where they have
        the same size (tens of MB allocated afresh for every counter cost more in page faults than the
        counting); ``reuse`` cannot count afterwards."""
        members = np.asarray(members, dtype=np.int64)
        if members.ndim != 2:
            raise ValueError("members must be rows of items")
        self.n, self.k = n, members.shape[1]
        self.C, self.R = int(n_classes), int(n_values)
        self.binom = binomials(n, max(self.k, max_query))
        old: dict = {}
        codes: dict = {}
        if reuse is not None:
            old = {lvl.s: lvl.cum for lvl in reuse.levels if lvl.dense}
            if reuse.members is members or (reuse.members.shape == members.shape
                                            and np.array_equal(reuse.members, members)):
                codes = {lvl.s: lvl.codes for lvl in reuse.levels}   # the same members: the same subsets
            reuse.levels = None  # its tables are this counter's now
        self.members = members
        self.levels = [_Level(n, s, members, np.asarray(classes), np.asarray(values), self.C, self.R,
                              self.binom, dense_limit, old.get(s), codes.get(s)) for s in range(self.k + 1)]

    def counts(self, queries: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
        """(q, C, 3) int64: members disjoint from each query row, by class, below/equal/above its threshold."""
        if self.levels is None:
            raise RuntimeError("this counter's tables were taken over by another (reuse=)")
        queries = np.asarray(queries, dtype=np.int64)
        t = np.asarray(thresholds, dtype=np.int64)
        q, N = queries.shape
        out = np.zeros((q, self.C, 3), dtype=np.int64)
        for s in range(min(N, self.k) + 1):
            lvl = self.levels[s]
            sign = -1 if s % 2 else 1
            for cols in combinations(range(N), s):
                code = colex_codes(queries[:, list(cols)], self.binom) if s else np.zeros(q, dtype=np.int64)
                lvl.add(code, t, sign, out)
        return out
