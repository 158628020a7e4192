"""The card-removal counting primitive (compiler/analysis/removal.py) against direct counting: random
families of k-sets with classes and values, random query sets, both table kinds (dense and sorted)."""
from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from compiler.analysis.removal import DisjointCounter


def _direct(members, classes, values, C, query, t):
    out = np.zeros((C, 3), dtype=np.int64)
    q = set(query)
    for m, c, v in zip(members, classes, values):
        if q.isdisjoint(m):
            out[c, 0 if v < t else 1 if v == t else 2] += 1
    return out


@pytest.mark.parametrize("n, k, N, dense_limit", [(12, 3, 4, 10**9), (12, 3, 4, 0), (11, 4, 3, 10**9),
                                                  (10, 2, 5, 0), (9, 5, 3, 500)])
def test_disjoint_counts_equal_direct_counting(n, k, N, dense_limit):
    rng = np.random.default_rng(n * 100 + k * 10 + N)
    all_k = list(combinations(range(n), k))
    pick = rng.choice(len(all_k), size=min(len(all_k), 60), replace=False)
    members = np.array([all_k[i] for i in sorted(pick)])
    C, R = 3, 7
    classes = rng.integers(0, C, len(members))
    values = rng.integers(0, R, len(members))
    all_q = list(combinations(range(n), N))
    queries = np.array([all_q[i] for i in rng.choice(len(all_q), size=40, replace=False)])
    t = rng.integers(0, R, len(queries))
    got = DisjointCounter(n, members, classes, values, C, R, dense_limit=dense_limit).counts(queries, t)
    for i, (qr, ti) in enumerate(zip(queries, t)):
        assert (got[i] == _direct(members, classes, values, C, qr, ti)).all()


def test_every_member_is_counted_once_by_an_empty_query_and_none_by_a_covering_one():
    members = np.array(list(combinations(range(8), 3)))
    ctr = DisjointCounter(8, members, np.zeros(len(members), int), np.arange(len(members)) % 4, 1, 4)
    got = ctr.counts(np.array([[0, 1, 2, 3, 4, 5, 6, 7]]), np.array([2]))
    assert got.sum() == 0
    got = ctr.counts(np.array([[0]]), np.array([2]))   # sets avoiding item 0: C(7, 3)
    assert got.sum() == 35


def test_a_counter_taking_over_anothers_tables_counts_the_same_and_the_other_counts_no_more():
    """solve_dealer builds one counter per view of the dealer's cards, each taking over the previous one's
    large dense tables (refilled, not allocated again): its counts equal a fresh counter's."""
    rng = np.random.default_rng(5)
    n, k, C, R = 14, 3, 2, 400                      # the 2-subsets' table (91 x 2 x 401) is dense and large
    members = np.array(list(combinations(range(n), k)))
    queries = np.array(list(combinations(range(n), 4)))[::7]
    previous, kept = None, []
    for _ in range(3):
        classes, values = rng.integers(0, C, len(members)), rng.integers(0, R, len(members))
        t = rng.integers(0, R, len(queries))
        fresh = DisjointCounter(n, members, classes, values, C, R).counts(queries, t)
        taking = DisjointCounter(n, members, classes, values, C, R, reuse=previous)
        if previous is not None:
            assert any(lvl.cum is old for lvl in taking.levels if lvl.dense for old in kept)  # taken, not copied
            assert all(lvl.codes is c for lvl, c in zip(taking.levels, codes))  # the same members' subsets
            with pytest.raises(RuntimeError):
                previous.counts(queries, t)
        assert (taking.counts(queries, t) == fresh).all()
        kept = [lvl.cum for lvl in taking.levels if lvl.dense]
        codes = [lvl.codes for lvl in taking.levels]
        previous = taking
    for i in range(0, len(queries), 25):
        assert (fresh[i] == _direct(members, classes, values, C, queries[i], t[i])).all()


def test_a_counter_taking_over_one_of_other_members_counts_its_own_subsets():
    """The subsets of the members are taken over only from a counter of the same members."""
    rng = np.random.default_rng(8)
    n, k, C, R = 12, 3, 2, 9
    every = np.array(list(combinations(range(n), k)))
    first, second = every[::2], every[1::2]
    queries = np.array(list(combinations(range(n), 3)))[::5]
    t = rng.integers(0, R, len(queries))
    a = DisjointCounter(n, first, rng.integers(0, C, len(first)), rng.integers(0, R, len(first)), C, R,
                        dense_limit=0)
    classes, values = rng.integers(0, C, len(second)), rng.integers(0, R, len(second))
    b = DisjointCounter(n, second, classes, values, C, R, dense_limit=0, reuse=a)
    got = b.counts(queries, t)
    for i in range(len(queries)):
        assert (got[i] == _direct(second, classes, values, C, queries[i], t[i])).all()


@pytest.mark.parametrize("mode", ["filled in runs", "filled by column combination", "summed from above", "padded",
                                  "sorted keys"])
@pytest.mark.parametrize("C", [1, 3])
def test_every_way_of_building_the_tables_counts_as_direct_counting(monkeypatch, mode, C):
    """Each way a level's table is built (a dense table filled a run of codes at a time or by column
    combination, or summed from the table of the subsets one larger; a padded table; sorted keys) on random
    families of distinct k-sets, counted again for other classes and values over the same members (reuse=)."""
    from compiler.analysis import removal

    n, k, N, R = 11, 4, 4, 6
    dense_limit = 10**9 if mode in ("filled in runs", "filled by column combination", "summed from above") else 0
    monkeypatch.setattr(removal, "DERIVE_RATIO", 10**9 if mode == "summed from above" else 0)
    monkeypatch.setattr(removal, "CHUNK_CELLS", 1 << 20 if mode == "filled by column combination" else 16)
    monkeypatch.setattr(removal, "PAD_WASTE", 10**9 if mode == "padded" else 0)
    monkeypatch.setattr(removal, "PAD_ROWS", 10**9)
    rng = np.random.default_rng(C * 7 + len(mode))
    every = list(combinations(range(n), k))
    members = np.array([every[i] for i in sorted(rng.choice(len(every), size=150, replace=False))])
    queries = np.array(list(combinations(range(n), N)))[rng.choice(comb(n, N), size=60, replace=False)]
    previous = None
    for _ in range(2):
        classes, values = rng.integers(0, C, len(members)), rng.integers(0, R, len(members))
        t = rng.integers(0, R, len(queries))
        ctr = DisjointCounter(n, members, classes, values, C, R, dense_limit=dense_limit, reuse=previous)
        hows = [lvl.how for lvl in ctr.levels]
        if mode == "summed from above":
            assert hows[:k] == [mode] * k and hows[k].startswith("filled")
        elif mode == "filled in runs":
            assert mode in hows and "summed from above" not in hows
        elif mode == "filled by column combination":
            assert hows == [mode] * (k + 1)
        else:
            assert hows[1:k] == [mode] * (k - 1) and hows[k] == "direct"
        got = ctr.counts(queries, t)
        for i, (qr, ti) in enumerate(zip(queries, t)):
            assert (got[i] == _direct(members, classes, values, C, qr, ti)).all()
        previous = ctr


def test_a_padded_table_of_more_rows_than_a_byte_counts_counts_as_direct_counting(monkeypatch):
    """A code held by 256 entries or more (here the empty set, in all 495 members) is counted in wider integers."""
    from compiler.analysis import removal

    monkeypatch.setattr(removal, "PAD_ROWS", 10**9)
    rng = np.random.default_rng(3)
    n, k, C, R = 12, 4, 2, 5
    members = np.array(list(combinations(range(n), k)))
    classes, values = rng.integers(0, C, len(members)), rng.integers(0, R, len(members))
    queries = np.array(list(combinations(range(n), 3)))[::4]
    t = rng.integers(0, R, len(queries))
    ctr = DisjointCounter(n, members, classes, values, C, R, dense_limit=0)
    assert ctr.levels[0].how == "padded" and ctr.levels[0].mat.shape[0] == len(members)
    got = ctr.counts(queries, t)
    for i in range(len(queries)):
        assert (got[i] == _direct(members, classes, values, C, queries[i], t[i])).all()
