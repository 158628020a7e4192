"""Exact enumeration of hands, vectorised with numpy, generic over a ranking dict.

Every k-card subset of a deck is visited once, in *colex* order (the order of the
combinatorial number system: the subset ``c0 < c1 < ... < c(k-1)`` of deck positions has index
``sum(C(ci, i+1))``), and valued as its best ``n``-card hand under a
:class:`compiler.values.rankings.Ranking`.

How a k-card hand is valued without looking at its ``C(k, n)`` subsets one by one: the best
n-card hand is the better of

* the best n-card hand of its *ranks* read as not suited (a table indexed by the sorted rank
  multiset, joker = rank 13), and
* for each suit, the best n-card hand of the ranks of that suit (the joker belongs to every
  suit) read as suited (a table indexed by a 14-bit rank mask), when there are at least n.

Both tables are filled from the ranking's own evaluator, so the vectorised values are the
evaluator's values; the tests check this on random hands.  (This relies on a flush never
ranking a hand lower than the same ranks unsuited, true of every poker ranking.)

Values are *dense ids*: ``Vectoriser.values[i]`` is the i-th lowest :class:`HandValue` that can
occur; ``Vectoriser.category_of[i]`` its category index.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Iterator, Sequence

import numpy as np

from compiler.values.cards import JOKER
from compiler.values.rankings import JOKER_RANK, HandValue, Ranking

__all__ = [
    "standard_deck", "colex_combinations", "iter_colex_blocks", "colex_index",
    "Vectoriser", "Distribution", "enumerate_hands", "category_counts", "hand_probabilities",
]


def standard_deck(jokers: int = 0, ranks: Sequence[int] | None = None) -> list[int]:
    """Card ints of one deck: the 52 cards (or only the given rank indices) plus jokers."""
    rs = range(13) if ranks is None else sorted(ranks)
    return [r * 4 + s for r in rs for s in range(4)] + [JOKER] * jokers


# ----------------------------------------------------------------------------- combinations
def colex_combinations(n: int, k: int) -> np.ndarray:
    """All k-subsets of ``range(n)`` as rows (increasing), in colex order (uint8)."""
    prev = np.zeros((1, 0), dtype=np.uint8)
    for j in range(1, k + 1):
        total = comb(n, j)
        out = np.empty((total, j), dtype=np.uint8)
        pos = 0
        for last in range(j - 1, n):
            cnt = comb(last, j - 1)
            out[pos:pos + cnt, :j - 1] = prev[:cnt]
            out[pos:pos + cnt, j - 1] = last
            pos += cnt
        prev = out
    return prev


def iter_colex_blocks(n: int, k: int, max_rows: int = 4_000_000) -> Iterator[tuple[int, np.ndarray]]:
    """The k-subsets of ``range(n)`` in colex order, as (start index, block) pairs.

    A block holds the subsets with a given largest element (split further if big), so the
    whole list is never in memory at once.
    """
    if k == 0:
        yield 0, np.zeros((1, 0), dtype=np.uint8)
        return
    prev = colex_combinations(n, k - 1)
    start = 0
    for last in range(k - 1, n):
        cnt = comb(last, k - 1)
        for a in range(0, cnt, max_rows):
            b = min(cnt, a + max_rows)
            block = np.empty((b - a, k), dtype=np.uint8)
            block[:, :k - 1] = prev[a:b]
            block[:, k - 1] = last
            yield start + a, block
        start += cnt


_BINOM = np.array([[comb(a, b) for b in range(9)] for a in range(64)], dtype=np.int64)


def colex_index(rows: np.ndarray) -> np.ndarray:
    """Colex index of each row of increasing positions (int64)."""
    rows = np.asarray(rows)
    idx = np.zeros(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[1]):
        idx += _BINOM[rows[:, i].astype(np.int64), i + 1]
    return idx


# card -> its rank's bit in its suit's 14-bit field of an int64 (card = 4 x rank + suit); the joker (card 52,
# rank bit 13) in all four fields: the flush masks of a hand are the OR of its cards' entries
_SUIT_FIELDS = np.array([(1 << (c >> 2)) << (14 * (c & 3)) for c in range(52)]
                        + [sum((1 << JOKER_RANK) << (14 * t) for t in range(4))], dtype=np.int64)

# ----------------------------------------------------------------------------- vectoriser
class Vectoriser:
    """Values (dense ids) of k-card hands as their best ``ranking.cards``-card hand (of any size the ranking ranks,
    ``fewest`` to ``cards``: a subset is valued unsuited, or suited when its cards are of one suit, so the best is
    the better of the best unsuited subset of the ranks and each suit's best suited subset)."""

    def __init__(self, ranking: Ranking, k: int, deck: Sequence[int] | None = None):
        self.ranking = ranking
        self.k = k
        self.n = n = ranking.cards
        sizes = [m for m in ranking.sizes if m <= k]
        if not sizes:
            raise ValueError(f"cannot form a {n}-card hand from {k} cards")
        deck = list(range(52)) if deck is None else list(deck)
        self.deck = deck
        rank_counts = Counter(c >> 2 for c in deck)           # joker: 52 >> 2 == 13
        if rank_counts.get(JOKER_RANK, 0) > 1 or deck.count(JOKER) > 1:
            raise ValueError("at most one joker in the deck")
        symbols = sorted(rank_counts)
        # --- plain table: best n-subset of the rank multiset, unsuited
        plain_vals: dict[int, HandValue] = {}
        size = comb(14 + k - 1, k)
        plain_keys = []
        cache: dict[tuple, HandValue] = {}
        for ms in combinations_with_replacement(symbols, k):
            cnt = Counter(ms)
            if any(cnt[r] > rank_counts[r] for r in cnt):
                continue
            best = None
            for sub in {c for m in sizes for c in combinations(ms, m)}:
                v = cache.get(sub)
                if v is None:
                    v = cache[sub] = self._lookup(sub, False)
                if best is None or v.score > best.score:
                    best = v
            idx = sum(comb(r + i, i + 1) for i, r in enumerate(ms))
            plain_vals[idx] = best
            plain_keys.append(idx)
        # --- flush table: best n-subset of a suited rank mask (bit 13: the joker)
        flush_vals: dict[int, HandValue] = {}
        if ranking._uses_flush and n >= 2:
            suited_symbols = [r for r in symbols]
            fcache: dict[tuple, HandValue] = {}
            for size_m in range(max(sizes[0], 2), k + 1):
                for rs in combinations(suited_symbols, size_m):
                    best = None
                    for sub in (c for m in sizes if 2 <= m <= size_m for c in combinations(rs, m)):
                        v = fcache.get(sub)
                        if v is None:
                            v = fcache[sub] = self._lookup(sub, True)
                        if best is None or v.score > best.score:
                            best = v
                    flush_vals[sum(1 << r for r in rs)] = best
        allv = {v.score: v for v in list(plain_vals.values()) + list(flush_vals.values())}
        self.values: list[HandValue] = [allv[s] for s in sorted(allv)]
        dense = {v.score: i for i, v in enumerate(self.values)}
        self.plain = np.full(size, -1, dtype=np.int32)
        for idx, v in plain_vals.items():
            self.plain[idx] = dense[v.score]
        self.flush = np.full(1 << 14, -1, dtype=np.int32)
        for m, v in flush_vals.items():
            self.flush[m] = dense[v.score]
        self.has_flush = bool(flush_vals)
        self.category_of = np.array([v.category_index for v in self.values], dtype=np.int16)
        self._binom = _BINOM[:, :k + 1].copy()
        self._colex_by_card = [np.array([_BINOM[(c >> 2) + i, i + 1] for c in range(JOKER + 1)], dtype=np.int64)
                               for i in range(k)]
        self._deck_arr = np.array(deck, dtype=np.uint8)

    def _lookup(self, ranks: tuple, flush: bool) -> HandValue:
        r = self.ranking
        key = sum(1 << (3 * x) for x in ranks)
        v = (r._flush if flush else r._plain).get(key)
        if v is None:
            v = r.value_of_ranks(ranks, flush)
        return v

    def evaluate_cards(self, cards: np.ndarray) -> np.ndarray:
        """Dense value ids of hands given as rows of card ints, each row sorted increasing."""
        cards = np.asarray(cards)
        if cards.ndim != 2 or cards.shape[1] != self.k:
            raise ValueError(f"expected rows of {self.k} cards")
        # the rank multiset's colex index, one table look-up a column (column i: card -> C(rank + i, i + 1))
        idx = self._colex_by_card[0][cards[:, 0]]
        for i in range(1, self.k):
            idx += self._colex_by_card[i][cards[:, i]]
        best = self.plain[idx]
        if self.has_flush:
            # each card's rank bit in its suit's 14-bit field (the joker: in every suit's), OR-ed along the row:
            # the four suits' rank masks in one int64 per hand
            masks = _SUIT_FIELDS[cards[:, 0]]
            for i in range(1, self.k):
                masks |= _SUIT_FIELDS[cards[:, i]]
            for t in range(4):
                np.maximum(best, self.flush[(masks >> (14 * t)) & 0x3FFF], out=best)
        return best

    def evaluate_positions(self, rows: np.ndarray) -> np.ndarray:
        """Dense value ids of hands given as rows of increasing deck positions."""
        return self.evaluate_cards(self._deck_arr[rows])

    def colex_values(self, max_rows: int = 4_000_000) -> Iterator[tuple[int, int, np.ndarray]]:
        """Dense values of every k-subset of the deck, in colex order, as ``(last, a, values)``:
        ``values[i]`` is the value of the subset whose largest position is ``last`` and whose other
        positions are the ``(a + i)``-th (k-1)-subset of ``range(last)`` (colex index
        ``C(last, k) + a + i``).

        The (k-1)-subsets are valued once (rank-multiset index, one rank mask per suit, best
        flush); each k-subset then costs one table look-up for its ranks and one for the flush of
        its last card's suit (all four for the joker).  This needs the deck in increasing card
        order (ranks non-decreasing along positions); another deck is valued block by block."""
        k, N = self.k, len(self.deck)
        deck = self._deck_arr
        if k < 2 or np.any(np.diff(deck.astype(np.int64)) < 0):
            for start, block in iter_colex_blocks(N, k, max_rows):
                last = int(block[0, -1])
                cards = deck[block]
                cards.sort(axis=1)
                yield last, start - comb(last, k), self.evaluate_cards(cards)
            return
        # the (k-1)-subsets in colex order, built level by level: the j-subsets with largest position
        # L are the (j-1)-subsets of range(L) (a prefix of the previous level) plus L, so each level's
        # rank-multiset index and suit masks (4 x 14 bits in one int64) are slices plus a constant
        pidx = np.zeros(1, dtype=np.int64)
        pm = np.zeros(1, dtype=np.int64)
        joker_bits = sum((1 << JOKER_RANK) << (14 * t) for t in range(4))   # the joker: every suit
        for j in range(1, k):
            parts_i, parts_m = [], []
            for last in range(j - 1, N):
                cnt = comb(last, j - 1)
                c = int(deck[last])
                r = c >> 2
                parts_i.append(pidx[:cnt] + int(self._binom[r + j - 1, j]))
                parts_m.append(pm[:cnt] + (joker_bits if c == JOKER else (1 << r) << (14 * (c & 3))))
            pidx, pm = np.concatenate(parts_i), np.concatenate(parts_m)
        pidx = pidx.astype(np.int32)            # an index of the plain table (small)
        if self.has_flush:
            masks = [((pm >> (14 * t)) & 0x3FFF).astype(np.int32) for t in range(4)]
            fl = self.flush[masks[0]]
            for t in range(1, 4):
                np.maximum(fl, self.flush[masks[t]], out=fl)
        del pm
        for last in range(k - 1, N):
            c = int(deck[last])
            r = c >> 2
            add = int(self._binom[r + k - 1, k])
            bit = 1 << r
            cnt = comb(last, k - 1)
            for a in range(0, cnt, max_rows):
                b = min(cnt, a + max_rows)
                v = self.plain[pidx[a:b] + add]
                if self.has_flush:
                    np.maximum(v, fl[a:b], out=v)
                    for t in (range(4) if c == JOKER else (c & 3,)):
                        np.maximum(v, self.flush[masks[t][a:b] + bit], out=v)
                yield last, a, v


# ----------------------------------------------------------------------------- distributions
@dataclass
class Distribution:
    """Counts of the k-card hands of a deck by value and by card-defined named hands.

    ``counts[f, v]``: number of hands of dense value ``v`` whose card-set flags are ``f``
    (bit i set: the hand contains a set of ``card_hands[i]``).
    """

    ranking: Ranking
    k: int
    deck: list
    vectoriser: Vectoriser
    card_hands: tuple
    counts: np.ndarray
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return int(self.counts.sum())

    @property
    def values(self) -> list[HandValue]:
        return self.vectoriser.values

    def value_counts(self) -> np.ndarray:
        return self.counts.sum(axis=0)

    def category_counts(self) -> dict[str, int]:
        vc = self.value_counts()
        out = {cid: 0 for cid in self.ranking.category_ids}
        for i, v in enumerate(self.values):
            if vc[i]:
                out[v.category] += int(vc[i])
        return out

    def items(self) -> Iterator[tuple[tuple[bool, ...], HandValue, int]]:
        """(card-hand flags, value, count) for every non-empty cell."""
        F = len(self.card_hands)
        fs, vs = np.nonzero(self.counts)
        for f, v in zip(fs.tolist(), vs.tolist()):
            flags = tuple(bool(f >> i & 1) for i in range(F))
            yield flags, self.values[v], int(self.counts[f, v])


def _card_set_flags(cards: np.ndarray, sets: Sequence[frozenset]) -> np.ndarray:
    out = np.zeros(cards.shape[0], dtype=bool)
    for s in sets:
        ok = np.ones(cards.shape[0], dtype=bool)
        for c in s:
            ok &= (cards == c).any(axis=1)
        out |= ok
    return out


def enumerate_hands(ranking: Ranking, k: int, deck: Sequence[int] | None = None,
                    card_hands: Sequence[str] = (), vectoriser: Vectoriser | None = None) -> Distribution:
    """Count every k-card hand of ``deck`` (default: the 52 cards) by its best-hand value.

    ``card_hands``: ids of card-defined named hands of the ranking (``cards`` / ``any_of``)
    to flag, so a paytable can put them above the categories they belong to.
    """
    t0 = time.perf_counter()
    deck = list(range(52)) if deck is None else list(deck)
    vec = vectoriser or Vectoriser(ranking, k, deck)
    sets = []
    for h in card_hands:
        s = ranking.card_sets(h)
        if s is None:
            raise ValueError(f"{h!r} is not a card-defined hand of ranking {ranking.id}")
        sets.append(s)
    V = len(vec.values)
    F = 1 << len(sets)
    counts = np.zeros(F * V, dtype=np.int64)
    deck_arr = np.array(deck, dtype=np.uint8)
    if not sets:                        # values only: the incremental colex route
        for _, _, d in vec.colex_values():
            counts += np.bincount(d, minlength=V)
        return Distribution(ranking, k, deck, vec, tuple(card_hands), counts.reshape(F, V),
                            time.perf_counter() - t0)
    for _, block in iter_colex_blocks(len(deck), k):
        cards = deck_arr[block]
        cards.sort(axis=1)
        d = vec.evaluate_cards(cards).astype(np.int64)
        if sets:
            code = np.zeros(len(d), dtype=np.int64)
            for i, s in enumerate(sets):
                code |= _card_set_flags(cards, s).astype(np.int64) << i
            d = code * V + d
        counts += np.bincount(d, minlength=F * V)
    return Distribution(ranking, k, deck, vec, tuple(card_hands), counts.reshape(F, V),
                        time.perf_counter() - t0)


def category_counts(ranking: Ranking, k: int, deck: Sequence[int] | None = None) -> dict[str, int]:
    """Number of k-card hands of the deck in each category (best ``ranking.cards``-card hand)."""
    return enumerate_hands(ranking, k, deck).category_counts()


def hand_probabilities(ranking: Ranking, k: int, hand_ids: Sequence[str],
                       deck: Sequence[int] | None = None, exclusive: bool = True,
                       dist: Distribution | None = None) -> dict[str, Fraction]:
    """Probability that a random k-card hand of the deck is each named hand / category.

    With ``exclusive`` (the paytable reading) a hand counts only for the first id it matches,
    in the order given (highest first).  Use it for Envy Bonus values: the expected Envy
    Bonus per other player is ``sum(p[h] * amount[h])``.
    """
    card_ids = [h for h in hand_ids if ranking.card_sets(h) is not None]
    if dist is None or set(card_ids) - set(dist.card_hands):
        dist = enumerate_hands(ranking, k, deck, card_ids)
    out = {h: 0 for h in hand_ids}
    for flags, v, n in dist.items():
        fl = dict(zip(dist.card_hands, flags))
        for h in hand_ids:
            hit = fl[h] if h in fl else ranking.value_matches(v, h)
            if hit:
                out[h] += n
                if exclusive:
                    break
    t = dist.total
    return {h: Fraction(x, t) for h, x in out.items()}
