"""A ranking's hands evaluated over numpy arrays of cards (the fast path's hand evaluator).

Built from the engine's own :class:`compiler.runtime.rankings.Ranking` (no second definition of
a hand): the engine evaluates a hand of ``cards`` cards by a table lookup keyed by the sum of a
per-card rank weight and a suit mask (flush); here the same keys are summed over arrays and looked
up with ``searchsorted`` in the engine's own tables. Every distinct hand value gets an *ordinal*
(its place by the engine's ``score``): equal ordinals are ties, a larger ordinal beats a smaller
one. Anything asked of a value (its category, ``at_least``, a named hand, a paytable row) is
tabulated once per ordinal with the engine's functions.
"""
from __future__ import annotations

from itertools import combinations, product

import numpy as np

from compiler.runtime.cards import JOKER


class HandError(Exception):
    pass


class VecRanking:
    def __init__(self, ranking):
        self.r = ranking
        self.n = ranking.cards
        self.sizes = ranking.sizes  # hands of several sizes (``fewest``): every size is keyed in the same tables
        vals = {}
        for d in (ranking._plain, ranking._flush):
            for v in d.values():
                vals[v.score] = v
        self.values = [vals[s] for s in sorted(vals)]
        ordinal = {v.score: i for i, v in enumerate(self.values)}
        self.cat_index = np.array([v.category_index for v in self.values], dtype=np.int16)

        def table(d):
            ks = np.array(sorted(d), dtype=np.int64)
            return ks, np.array([ordinal[d[int(k)].score] for k in ks], dtype=np.int32)

        self.plain = table(ranking._plain)
        self.flush = table(ranking._flush)
        # a dense table indexed by the sorted ranks of the hand (base 14: 13 ranks and the joker),
        # built from the engine's keys (counts of each rank, 3 bits each)
        self.dense = None
        if 14 ** self.n <= 4_000_000 and not ranking.variable:
            self.pw = 14 ** np.arange(self.n - 1, -1, -1, dtype=np.int64)
            dense = np.full((2, 14 ** self.n), -1, dtype=np.int32)
            for f, (ks, ords) in enumerate((self.plain, self.flush)):
                for key, o in zip(ks.tolist(), ords.tolist()):
                    ranks = [r for r in range(14) for _ in range((key >> (3 * r)) & 7)]
                    if len(ranks) != self.n:
                        continue
                    dense[f, sum(r * 14 ** (self.n - 1 - i) for i, r in enumerate(ranks))] = o
            self.dense = dense
            self.rank14 = np.array([c >> 2 for c in range(52)] + [13], dtype=np.int64)
        self.rw = np.array(ranking._rw, dtype=np.int64)
        self.sb = np.array(ranking._sb, dtype=np.int8)
        self._tables: dict = {}
        self._rank_keys = None
        self._last = None
        self._last_value = None

    # -- values -----------------------------------------------------------------------------
    def evaluate(self, cards: np.ndarray) -> np.ndarray:
        """Ordinals of hands of exactly ``n`` cards (one of the sizes the ranking ranks; last axis); -1 where a
        card is missing."""
        if cards.shape[-1] not in self.sizes:
            fits = [n for n in self.sizes if n < cards.shape[-1]]
            if not fits:
                raise HandError(f"ranking {self.r.id} ranks {self.r._size_text()}-card hands, not {cards.shape[-1]}")
            return self._by_count(cards, fits)
        last = self._last
        if last is not None and last[0] is cards:
            return last[1]
        out = self._evaluate(cards)
        self._last = (cards, out)
        return out

    def _by_count(self, cards: np.ndarray, fits: list[int]) -> np.ndarray:
        """A zone wider than the hands ranked (cards dealt in a loop, -1 after the last): each hand of a size the
        ranking ranks valued on its cards, -1 (no hand) elsewhere, where the engine would refuse the hand: the
        rules read such a hand only behind a test of its count, as `and` reads its second operand only where the
        first holds."""
        present = (cards >= 0).sum(-1)
        out = np.full(cards.shape[:-1], -1, dtype=np.int32)
        for n in fits:
            rows = present == n
            if rows.any():
                out[rows] = self._evaluate(cards[rows][:, :n])
        return out

    def _evaluate(self, cards):
        ok = (cards >= 0).all(-1)
        c = np.where(cards >= 0, cards, 0)
        s = np.bitwise_and.reduce(self.sb[c], axis=-1)
        if self.dense is not None:
            r = self.rank14[c]
            if self.n == 5:   # a sorting network: 9 compare-exchanges over columns
                col = [r[..., i] for i in range(5)]
                for i, j in ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)):
                    col[i], col[j] = np.minimum(col[i], col[j]), np.maximum(col[i], col[j])
                idx = col[0] * self.pw[0]
                for i in range(1, 5):
                    idx = idx + col[i] * self.pw[i]
            else:
                idx = (np.sort(r, axis=-1) if self.n > 1 else r) @ self.pw
            out = self.dense[(s != 0).astype(np.intp), idx]
            if (out[ok] < 0).any():
                raise HandError(f"ranking {self.r.id}: a hand outside the evaluator's tables")
            return np.where(ok, out, -1)
        k = self.rw[c].sum(-1)
        out = np.full(k.shape, -1, dtype=np.int32)
        for (keys, ords), m in ((self.plain, s == 0), (self.flush, s != 0)):
            m = m & ok
            if not m.any():
                continue
            kk = k[m]
            i = np.minimum(np.searchsorted(keys, kk), len(keys) - 1)
            if (keys[i] != kk).any():
                raise HandError(f"ranking {self.r.id}: a hand outside the evaluator's tables")
            out[m] = ords[i]
        return out

    def best(self, cards: np.ndarray) -> np.ndarray:
        """Ordinal of the best ``n``-card hand among the cards (last axis); of any size the ranking ranks."""
        m = cards.shape[-1]
        sizes = [k for k in self.sizes if k <= m]
        if m == self.n and len(sizes) == 1:
            return self.evaluate(cards)
        if not sizes:
            raise HandError(f"ranking {self.r.id}: {m} cards, a hand needs {self.r.fewest}")
        out = None
        for k in sizes:
            idx = np.array(list(combinations(range(m), k)))
            best = self.evaluate(cards[..., idx]).max(-1)
            out = best if out is None else np.maximum(out, best)
        return out

    def value(self, cards: np.ndarray) -> np.ndarray:
        """The engine's ``Ranking.value``: ``evaluate`` of ``n`` cards, else the best hand."""
        last = self._last_value
        if last is not None and last[0] is cards:
            return last[1]
        out = self.evaluate(cards) if cards.shape[-1] == self.n and not self.r.variable else self.best(cards)
        self._last_value = (cards, out)
        return out

    def per_value(self, key, fn) -> np.ndarray:
        """``fn(HandValue)`` tabulated per ordinal (cached under ``key``); index -1 is the last
        value, so callers mask missing hands."""
        t = self._tables.get(key)
        if t is None:
            t = self._tables[key] = np.array([fn(v) for v in self.values])
        return t

    def category_index(self, cat: str) -> int:
        return self.r.category_index(cat)

    def at_least(self, ords, cat, rank=None):
        t = self.per_value(("at_least", cat, rank), lambda v: self.r.category_at_least(v, cat, rank))
        return t[ords] & (ords >= 0)

    def value_matches(self, ords, hid):
        t = self.per_value(("matches", hid), lambda v: self.r.value_matches(v, hid))
        return t[ords] & (ords >= 0)

    def is_hand(self, cards: np.ndarray, hid: str) -> np.ndarray:
        sets = self.r.card_sets(hid)
        if sets is None:
            return self.value_matches(self.value(cards), hid)
        out = np.zeros(cards.shape[:-1], dtype=bool)
        for s in sets:
            m = np.ones(cards.shape[:-1], dtype=bool)
            for c in s:
                m &= (cards == c).any(-1)
            out |= m
        return out

    # -- pai gow: groups and ranks across hand sizes -----------------------------------------
    def strengths(self) -> np.ndarray:
        st = getattr(self, "_st", None)
        if st is None:
            r = self.r
            st = np.array([r._strength[c >> 2] for c in range(52)] + [-1], dtype=np.int16)
            if "ace" in r._wild_as:
                st[JOKER] = r._strength[12]
            self._st = st
        return st

    def groups(self, cards: np.ndarray, size: int) -> np.ndarray:
        st = self.strengths()
        c = np.where(cards >= 0, cards, JOKER)
        s = st[c]
        if ((s < 0) & (cards == JOKER)).any():
            raise HandError(f"ranking {self.r.id}: the joker is not used as an ace in this ranking")
        top = int(st.max()) + 2
        s = np.where(cards >= 0, s, top - 1).astype(np.int64)  # a missing card: its own bin, not counted
        lead = s.shape[:-1]
        rows = np.arange(int(np.prod(lead)), dtype=np.int64).reshape(lead + (1,))
        cnt = np.bincount((rows * top + s).ravel(), minlength=rows.size * top).reshape(lead + (top,))
        return (cnt[..., :top - 1] >= size).sum(-1)

    def _rk(self):
        """Ordinals of the engine's ``rank_key`` (comparable across hand sizes): per value of
        ``n`` cards, per single card, per pair of cards."""
        if self._rank_keys is None:
            r = self.r
            keys5 = []
            for v in self.values:
                tb = v.tiebreak
                ranks = tb if len(tb) == 1 else tb[len(tb) // 2:]
                keys5.append((r._ncat - 1 - v.category_index,) + tuple(ranks))
            cards = list(range(53))
            keys1 = [r.rank_key([c]) for c in cards]
            keys2 = {}
            if self.n > 2:
                for a, b in product(cards, cards):
                    if a != b or a == JOKER:
                        try:
                            keys2[(a, b)] = r.rank_key([a, b])
                        except Exception:  # noqa: BLE001 - impossible pairs are never looked up
                            pass
            allk = sorted(set(keys5) | set(keys1) | set(keys2.values()))
            o = {k: i for i, k in enumerate(allk)}
            k2 = np.full((53, 53), -1, dtype=np.int32)
            for (a, b), k in keys2.items():
                k2[a, b] = o[k]
            self._rank_keys = (np.array([o[k] for k in keys5], dtype=np.int32),
                               np.array([o[k] for k in keys1], dtype=np.int32), k2)
        return self._rank_keys

    def rank(self, cards: np.ndarray) -> np.ndarray:
        k5, k1, k2 = self._rk()
        m = cards.shape[-1]
        if m == self.n:
            return k5[self.evaluate(cards)]
        if m == 1:
            return k1[cards[..., 0]]
        if m == 2 and self.n > 2:
            return k2[cards[..., 0], cards[..., 1]]
        raise HandError(f"ranking {self.r.id}: rank() of {m} cards")


_CACHE: dict = {}


def vec_ranking(table, rid: str) -> VecRanking:
    """The evaluator of ranking ``rid`` of an engine Table (built once per ranking object)."""
    r = table.ranking(rid)
    v = _CACHE.get(id(r))
    if v is None or v.r is not r:
        v = _CACHE[id(r)] = VecRanking(r)
    return v
