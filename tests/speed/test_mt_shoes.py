"""The fast path's shoes (compiler/fast/shoes.py, ``_MTShoes``) are the engine's: for many seeded tables
and several shuffles in a row, every card of every shoe equals what ``Shoe.shuffle`` (``random.shuffle``
and the cut's ``randint`` on the table's own ``random.Random``) gives, both when the words are read
from the per-shuffle block and when a block runs out and the shuffle is done again from the buffer."""
from __future__ import annotations

import random

import numpy as np
import pytest

from compiler.fast.shoes import _MTShoes
from compiler.runtime.shoe import CutRule, Shoe


@pytest.mark.parametrize("decks,cut,need", [(6, 10, None), (1, 0, None), (2, 10, None), (6, 10, 40), (1, 5, 3)])
def test_every_shoe_is_the_engines_shoe(decks, cut, need):
    seeds = list(range(1, 41))
    shoes = [Shoe(decks, random.Random(s), cut=CutRule(min_from_edge=cut)) for s in seeds]
    mts = _MTShoes(seeds, shoes[0])
    if need is not None:
        mts.need = need  # blocks shorter than a shuffle: every shuffle is done again from the buffer
    rows = np.arange(len(seeds))
    for rep in range(4):
        got = mts.shuffle(rows)
        for k, shoe in enumerate(shoes):
            if rep:
                shoe.shuffle()
            assert got[k].tolist() == shoe.cards, (rep, k)
    # a subset of the tables shuffles on its own, the others' words untouched
    part = rows[::3]
    got = mts.shuffle(part)
    for k, row in zip(part.tolist(), got):
        shoes[k].shuffle()
        assert row.tolist() == shoes[k].cards
