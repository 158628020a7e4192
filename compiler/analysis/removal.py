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
among the s-subsets of the n items. A table is one of:

* dense and cumulative (``[code, c, t]`` = the entries with ``v < t``, one gather per query) when
  ``C(n, s) * C * (R + 1)`` fits the limit: filled a run of codes at a time (a count and a running sum
  small enough for the processor's cache; a small table column combination by column combination), or,
  when that reads fewer cells than there are entries, summed from the dense table of the (s+1)-subsets
  (every member holding ``T`` holds ``k - s`` of the sets ``T + y``);
* direct (class and value by code) when each subset lies in one member at most (``s = k``);
* padded: row i holds ``c * (R + 1) + v`` of the i-th entry of every code, a query compares its code's
  cell of every row with its threshold (when every code has few entries, as the (k-1)-subsets);
* else the entries sorted by the key ``(code * C + c) * (R + 1) + v``, answered with ``np.searchsorted``.

What depends on the members alone (the entries' codes, and how they are grouped for each kind of table)
is a :class:`_Layout`, built once and shared by every counter of the same members with other classes and
values (``reuse=``: the dealer-hand route counts one family per visible dealer card): a new counter only
reads its classes and values through it, and fills again the dense tables of the counter it takes over
where the sizes agree.

Cost: the family side touches each member ``C(k, s)`` times per size ``s``; a query ``C(|P|, s)``
times. Memory: the layouts (a 32-bit code an entry, and a member and a cell where grouped) and the
tables (``int32``; a padded one ``int16`` where the keys fit). Nothing here knows a game: the caller decides
what the items, members, classes and values are
(``dealer.solve_dealer``; ``paigow``-style 2-D counts are a separate primitive).
"""
from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

DENSE_LIMIT = 50_000_000  # entries of a dense cumulative table (int32: 200 MB; Four Card Poker's 3-subsets of 51 cards by 2,151 values fit)
DERIVE_ROWS = 100_000     # rows of the table above summed for a dense table (Python builds their index) ...
DERIVE_RATIO = 1          # ... and cells summed an entry counted otherwise
PAD_WASTE = 2             # a padded table at most this many cells an entry (and one a code); sorted keys beyond
PAD_ROWS = 128            # rows of a padded table times classes (each query reads them all)
QUERY_RUN = 1 << 16       # queries counted at once in a padded table
CHUNK_CELLS = 1 << 20     # cells of a dense table filled at once (a count of 8 MB and its running sum stay in cache)
_I32 = np.iinfo(np.int32).max


def binomials(n: int, k: int) -> np.ndarray:
    """``B[x, j] = C(x, j)`` for ``0 <= x <= n``, ``0 <= j <= k`` (int64)."""
    b = np.zeros((n + 1, k + 1), dtype=np.int64)
    for x in range(n + 1):
        for j in range(min(x, k) + 1):
            b[x, j] = comb(x, j)
    return b


def _small(a: np.ndarray, bound: int) -> np.ndarray:
    """``a`` as int32 where every value is below ``bound`` <= 2**31 - 1, else as int64."""
    return a.astype(np.int32 if bound <= _I32 else np.int64, copy=False)


def subset_codes(members: np.ndarray, s: int, binom: np.ndarray) -> np.ndarray:
    """The colex codes of the s-subsets of every member, column combination by combination: entry ``j * m + i``
    is member i's j-th s-subset (``int32`` where every code fits)."""
    m, k = members.shape
    n_codes = int(binom[-1, s]) if s < binom.shape[1] else 0
    dt = np.int32 if n_codes <= _I32 else np.int64
    items = members.astype(np.uint8) if members.size and members.max() < 256 else members
    terms = {}   # C(item in column j, i + 1): each column's term for its place i in a subset
    combos = list(combinations(range(k), s))
    out = np.zeros(len(combos) * m, dtype=dt)
    for j, cols in enumerate(combos):
        part = out[j * m:(j + 1) * m]
        for i, col in enumerate(cols):
            if (col, i) not in terms:
                terms[col, i] = binom[:, i + 1].astype(dt)[items[:, col]]
            part += terms[col, i]
    return out


class _Layout:
    """The s-subsets of the members (entries): what every counter of these members shares.

    ``code``: the entries' codes, member by member within each column combination (:func:`subset_codes`);
    :meth:`starts`: the number of entries of the codes below each code; :meth:`runs`: the entries grouped by
    runs of codes, as a dense table of ``K`` cells a code is filled.
    """

    def __init__(self, n: int, s: int, members: np.ndarray, binom: np.ndarray):
        self.m, self.s = members.shape[0], s
        self.n_codes = comb(n, s)
        self.code = subset_codes(members, s, binom)
        self._start: np.ndarray | None = None
        self._runs: dict = {}
        self._slots: tuple | None = None
        self._sup: np.ndarray | None = None

    def starts(self) -> np.ndarray:
        if self._start is None:
            self._start = np.zeros(self.n_codes + 1, dtype=np.int64)
            np.cumsum(np.bincount(self.code, minlength=self.n_codes), out=self._start[1:])
        return self._start

    def runs(self, K: int) -> tuple:
        """(codes a run, first entry of every run, the entries' members and their code's first cell counted from
        its run's first cell), the entries in the order of their runs (a run has at most ``max(CHUNK_CELLS, K)``
        cells)."""
        if K not in self._runs:
            step = max(1, CHUNK_CELLS // K)
            n_runs = -(-self.n_codes // step)
            run = self.code // step
            order = np.argsort(run.astype(np.uint16) if n_runs <= 1 << 16 else run, kind="stable")
            bounds = np.zeros(n_runs + 1, dtype=np.int64)
            np.cumsum(np.bincount(run, minlength=n_runs), out=bounds[1:])
            first = (self.code[order] % step).astype(np.int64) * K
            self._runs[K] = (step, bounds, _small(order % self.m, self.m), _small(first, step * K))
        return self._runs[K]

    def supersets(self, n: int) -> np.ndarray:
        """``[x, j]``: the code of the j-th (s+1)-subset holding the s-subset of code ``x`` (``n - s`` of them)."""
        if self._sup is None:
            s = self.s
            def code(items):
                return sum(comb(x, i + 1) for i, x in enumerate(items))
            self._sup = np.zeros((self.n_codes, n - s), dtype=np.int64)
            for S in combinations(range(n), s):
                self._sup[code(S)] = [code(sorted(S + (y,))) for y in range(n) if y not in S]
        return self._sup

    def slots(self) -> tuple:
        """(the most entries of a code ``B``, the entries' members, each entry's cell ``i * n_codes + code`` in a
        table of ``B`` rows of a cell a code, the i-th entry of its code), the entries in the order of their cells."""
        if self._slots is None:
            start = self.starts()
            B = int(np.diff(start).max()) if self.n_codes else 0
            order = np.argsort(self.code)   # any order within a code
            code = self.code[order].astype(np.int64)
            rank = np.arange(len(order)) - start[code]   # the i of each entry in its code
            by_cell = np.argsort(rank.astype(np.uint16) if B <= 1 << 16 else rank, kind="stable")  # (i, code) order
            cell = rank[by_cell] * self.n_codes + code[by_cell]   # the table written in order
            self._slots = (B, _small(order[by_cell] % self.m, self.m), _small(cell, self.n_codes * B))
        return self._slots


class _Level:
    """The entries of one subset size ``s``: a dense cumulative table, a direct table (``s = k``), a padded table
    (each code's entries in a row of ``B`` cells, counted by comparison) or sorted keys."""

    def __init__(self, n: int, s: int, members: np.ndarray, classes: np.ndarray, values: np.ndarray,
                 C: int, R: int, binom: np.ndarray, dense_limit: int, buffer: np.ndarray | None = None,
                 layout: _Layout | None = None, above: "_Level | None" = None):
        """``above``: the level of the (s+1)-subsets, already built (a small dense table is summed from it)."""
        self.s = s
        self.C, self.R = C, R
        m, k = members.shape
        n_codes = comb(n, s)
        self.dense = n_codes * C * (R + 1) <= dense_limit
        self.single = not self.dense and s == k and n_codes <= 4 * DENSE_LIMIT
        if layout is None:  # the subsets of the members (a counter of the same members passes its own in)
            layout = _Layout(n, s, members, binom)
        self.layout = layout
        self.codes = layout.code
        self.padded = False
        self.how = "direct"   # how the table was built (the tests check each way)
        if self.single:
            # a k-subset of a member is the member (members are distinct sets): class and value by code
            self.one_c = np.full(n_codes, -1, dtype=np.int64)
            self.one_v = np.zeros(n_codes, dtype=np.int64)
            self.one_c[layout.code] = classes
            self.one_v[layout.code] = values
        elif self.dense and above is not None and above.dense and layout.n_codes * (n - s) <= DERIVE_ROWS and (
                layout.n_codes * (n - s) * C * (R + 1) <= DERIVE_RATIO * len(layout.code)):
            self._derive(above, layout, n, k)   # fewer cells summed than entries counted
            self.how = "summed from above"
        elif self.dense:
            self._fill(layout, _small(classes * (R + 1) + values + 1, C * (R + 1)), buffer, m)
        elif self._paddable(layout):
            self._pad(layout, classes * (R + 1) + values, classes)
        else:
            self._sort(layout, classes * (R + 1) + values, classes)

    def _paddable(self, layout: _Layout) -> bool:
        """A padded table when it wastes few cells (``PAD_WASTE``) and a query reads few rows (``PAD_ROWS``
        cells a class; a sorted table is searched in as many steps as the bits of its size)."""
        B = int(np.diff(layout.starts()).max(initial=0))
        return B * self.C <= PAD_ROWS and layout.n_codes * B <= PAD_WASTE * len(layout.code) + layout.n_codes

    def _pad(self, layout: _Layout, mk: np.ndarray, classes: np.ndarray) -> None:
        """``self.mat[i, code]``: ``c * (R + 1) + v`` of the i-th entry of the code, ``C * (R + 1)`` in the cells
        left over; the entries of each (code, c) in ``self.tot``."""
        C, R = self.C, self.R
        B, member, cell = layout.slots()
        K = C * (R + 1)
        dt = np.int16 if K <= np.iinfo(np.int16).max else np.int32 if K <= _I32 else np.int64
        mat = np.full(B * layout.n_codes, K, dtype=dt)
        mat[cell] = mk.astype(dt)[member]
        self.mat = mat.reshape(B, layout.n_codes)
        self.padded, self.how = True, "padded"
        if C == 1:
            self.tot = np.diff(layout.starts())
        else:
            m = layout.m
            self.tot = np.bincount(((layout.code.astype(np.int64) * C).reshape(-1, m) + classes).ravel(),
                                   minlength=layout.n_codes * C)

    def _fill(self, layout: _Layout, mk1: np.ndarray, buffer: np.ndarray | None, m: int) -> None:
        """The cumulative table ``[(code * C + c) * (R + 1) + t]`` = entries of (code, c) with ``v < t``,
        a run of codes at a time (each entry counted at ``1 + c * (R + 1) + v`` of its code's block)."""
        K = self.C * (self.R + 1)
        n_codes = layout.n_codes
        size = n_codes * K
        dtype = np.int32 if m <= _I32 else np.int64
        if buffer is not None and buffer.shape == (size,) and buffer.dtype == dtype:
            cum = buffer  # a table taken over from a counter of the same shape (DisjointCounter)
        else:
            cum = np.empty(size, dtype=dtype)
        if size <= 4 * CHUNK_CELLS:   # a small table: counted column combination by combination, in any order
            counts = np.zeros(size, dtype=np.int64)
            for code in layout.code.reshape(-1, m):
                counts += np.bincount(code.astype(np.int64) * K + mk1, minlength=size)
            np.cumsum(counts.reshape(-1, self.R + 1), axis=1, dtype=dtype, out=cum.reshape(-1, self.R + 1))
            self.cum, self.tot = cum, cum.reshape(-1, self.R + 1)[:, self.R].copy()
            self.how = "filled by column combination"
            return
        step, bounds, member, first = layout.runs(K)
        for r, x0 in enumerate(range(0, n_codes, step)):
            x1 = min(n_codes, x0 + step)
            a, b = bounds[r], bounds[r + 1]
            counts = np.bincount(first[a:b] + mk1[member[a:b]], minlength=(x1 - x0) * K)
            np.cumsum(counts.reshape(-1, self.R + 1), axis=1, dtype=dtype,
                      out=cum[x0 * K:x1 * K].reshape(-1, self.R + 1))
        self.cum = cum
        self.tot = cum.reshape(-1, self.R + 1)[:, self.R].copy()   # entries of (code, c): v < R, all of them
        self.how = "filled in runs"

    def _derive(self, above: "_Level", layout: _Layout, n: int, k: int) -> None:
        """The cumulative table from the one of the (s+1)-subsets: every member holding an s-subset ``S`` holds
        ``k - s`` of the (s+1)-subsets ``S + y``, so the sum of their rows is ``k - s`` times the row of ``S``."""
        K, sup = self.C * (self.R + 1), layout.supersets(n)
        rows, tot = above.cum.reshape(-1, K), above.tot.reshape(-1, self.C)
        acc, acc_tot = np.zeros((len(sup), K), dtype=np.int64), np.zeros((len(sup), self.C), dtype=np.int64)
        for j in range(sup.shape[1]):
            acc += rows[sup[:, j]]
            acc_tot += tot[sup[:, j]]
        cum, rest = np.divmod(acc, k - self.s)
        if rest.any():
            raise ValueError("members must be distinct sets of k items")
        self.cum = cum.astype(above.cum.dtype).reshape(-1)
        self.tot = (acc_tot // (k - self.s)).astype(above.tot.dtype).reshape(-1)

    def _sort(self, layout: _Layout, mk: np.ndarray, classes: np.ndarray) -> None:
        """The entries' keys ``(code * C + c) * (R + 1) + v``, sorted, and the first entry of every (code, c)."""
        C, R = self.C, self.R
        n_codes, m = layout.n_codes, layout.m
        if n_codes * C + 1 > 4 * DENSE_LIMIT:
            raise MemoryError(f"{n_codes * C:,} blocks of {self.s}-subsets exceed the counting tables' limit")
        bound = n_codes * C * (R + 1)
        keys = _small(layout.code, bound) * _small(np.int64(C * (R + 1)), bound)
        keys.reshape(-1, m)[:] += _small(mk, bound)   # entry j * m + i is member i's
        keys.sort()
        self.keys, self.how = keys, "sorted keys"
        if C == 1:
            self.start = layout.starts()
        else:
            per = np.bincount(((layout.code.astype(np.int64) * C).reshape(-1, m) + classes).ravel(), minlength=n_codes * C)
            self.start = np.zeros(n_codes * C + 1, dtype=np.int64)
            np.cumsum(per, out=self.start[1:])

    def add(self, code: np.ndarray, t: np.ndarray, sign: int, acc: np.ndarray) -> None:
        """``acc[c] += sign * (#below, #at most, #all)``: the entries (code[q], c, v) with ``v < t[q]``,
        ``v <= t[q]``, and all of them (``acc``: (C, 3, q))."""
        C, R = self.C, self.R
        code = code.astype(np.int64)
        if self.single:
            cl, v = self.one_c[code], self.one_v[code]
            for c in range(C):
                here = cl == c
                rows = (here & (v < t), here & (v <= t), here)
                for i in range(3):
                    acc[c, i] += sign * rows[i]
            return
        if self.padded:
            self._add_padded(code, t, sign, acc)
            return
        for c in range(C):
            if self.dense:  # the flat table: [(code * C + c) * (R + 1) + t]
                at = (code * C + c) * (R + 1) + t
                rows = (self.cum.take(at), self.cum.take(at + 1), self.tot.take(code * C + c))
            else:
                block = code * C + c
                st = self.start[block]
                lt, le = _search(self.keys, block * (R + 1) + t)
                rows = (lt - st, le - st, self.start[block + 1] - st)
            for i in range(3):
                if sign > 0:
                    acc[c, i] += rows[i]
                else:
                    acc[c, i] -= rows[i]


    def _add_padded(self, code: np.ndarray, t: np.ndarray, sign: int, acc: np.ndarray) -> None:
        """:meth:`add` by the padded table, one row (the i-th entry of every code) at a time: the cells below
        ``c * (R + 1) + t`` and at most it are the entries of (code, c) below and at most ``t``, with those of
        the classes below c (a run of queries at a time: what a row's pass reads stays in cache)."""
        C, R = self.C, self.R
        tot = self.tot.reshape(-1, C)
        for a in range(0, len(code), QUERY_RUN):
            cq = code[a:a + QUERY_RUN]
            thr = [(t[a:a + QUERY_RUN] + c * (R + 1)).astype(self.mat.dtype) for c in range(C)]
            byte = len(self.mat) < 256   # counts of a row's cells in bytes: a compare's booleans added as they are
            below = np.zeros((C, 2, len(cq)), dtype=np.uint8 if byte else np.int32)
            col, hit = np.empty(len(cq), dtype=self.mat.dtype), np.empty(len(cq), dtype=bool)
            ones = hit.view(np.uint8) if byte else hit
            for row in self.mat:
                np.take(row, cq, out=col)
                for c in range(C):
                    np.less(col, thr[c], out=hit)
                    below[c, 0] += ones
                    np.less_equal(col, thr[c], out=hit)
                    below[c, 1] += ones
            under = np.zeros(len(cq), dtype=np.int64)   # entries of the classes below c
            for c in range(C):
                for i, x in enumerate((below[c, 0] - under, below[c, 1] - under, tot[cq, c])):
                    if sign > 0:
                        acc[c, i, a:a + QUERY_RUN] += x
                    else:
                        acc[c, i, a:a + QUERY_RUN] -= x
                under += tot[cq, c]


def _search(keys: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.searchsorted`` of ``q`` in ``keys`` on both sides, the queries looked up in increasing order (a
    sorted search walks the table once; in the queries' own order each lookup misses the cache)."""
    q = q.astype(keys.dtype)   # the keys' own type: a search in another converts the whole table
    order = np.argsort(q, kind="stable")
    qs = q[order]
    lt, le = np.empty(len(q), dtype=np.int64), np.empty(len(q), dtype=np.int64)
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
        counting), and whose layouts it shares if its members are the same; ``reuse`` cannot count afterwards."""
        members = np.asarray(members, dtype=np.int64)
        if members.ndim != 2:
            raise ValueError("members must be rows of items")
        self.n, self.k = n, members.shape[1]
        self.C, self.R = int(n_classes), int(n_values)
        self.binom = binomials(n, max(self.k, max_query))
        old: dict = {}
        layouts: dict = {}
        if reuse is not None:
            old = {lvl.s: lvl.cum for lvl in reuse.levels if lvl.dense}
            if reuse.n == n and (reuse.members is members or (reuse.members.shape == members.shape
                                                              and np.array_equal(reuse.members, members))):
                # the same members: the same subsets (kept where grouped as this counter's levels need)
                layouts = {lvl.s: lvl.layout for lvl in reuse.levels}
            reuse.levels = None  # its tables are this counter's now
        self.members = members
        classes = np.asarray(classes, dtype=np.int64)
        values = np.asarray(values, dtype=np.int64)
        self.levels = []
        for s in range(self.k, -1, -1):   # the largest subsets first: a small table is summed from the one above
            self.levels.insert(0, _Level(n, s, members, classes, values, self.C, self.R, self.binom, dense_limit,
                                         old.get(s), layouts.get(s), self.levels[0] if self.levels else None))

    def counts(self, queries: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
        """(q, C, 3) int64: members disjoint from each query row, by class, below/equal/above its threshold."""
        if self.levels is None:
            raise RuntimeError("this counter's tables were taken over by another (reuse=)")
        queries = np.asarray(queries, dtype=np.int64)
        t = np.asarray(thresholds, dtype=np.int64)
        q, N = queries.shape
        if q == 0:
            return np.zeros((0, self.C, 3), dtype=np.int64)
        acc = np.zeros((self.C, 3, q), dtype=np.int64)   # below, at most and all, by inclusion-exclusion
        for s in range(min(N, self.k) + 1):
            lvl = self.levels[s]
            sign = -1 if s % 2 else 1
            for code in subset_codes(queries, s, self.binom).reshape(-1, q):
                lvl.add(code, t, sign, acc)
        out = np.empty((q, self.C, 3), dtype=np.int64)
        out[:, :, 0] = acc[:, 0].T
        out[:, :, 1] = (acc[:, 1] - acc[:, 0]).T
        out[:, :, 2] = (acc[:, 2] - acc[:, 1]).T
        return out
