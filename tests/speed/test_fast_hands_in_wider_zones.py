"""The fast path's hand of a zone wider than the hands ranked (cards dealt in a loop: Spanish 21's player hand,
2 cards and up to 10 more, read by a three-card ranking behind `count(player.hand) == 3`): each row holding a
number of cards the ranking ranks is valued on them, as the engine values them; any other row is -1 (no hand),
where the engine would refuse the hand (rules reach it only behind a test of the count). It raised for the whole
table, so the expression evaluators disagreed on the 21+3 and Spanish 21 test chapters."""
from __future__ import annotations

import random

import numpy as np

from compiler.fast.hands import VecRanking
from compiler.pipeline import ROOT, load_game
from compiler.runtime.engine import Table


def test_a_three_card_hand_in_a_zone_of_twelve_is_valued_as_the_engine_values_it():
    mod, _ = load_game(ROOT / "tests/fixtures/chapters/spanish-21.yaml")
    table = Table(mod.GAME, {}, seed=0)
    r = table.ranking("three_cards")
    vec = VecRanking(r)
    rng = random.Random(3)
    rows, expected = [], []
    for i in range(300):
        n = rng.choice((2, 3, 3, 4, 5))
        cards = rng.sample([c for c in range(52) if (c >> 2) != 8], n)  # no tens (48-card deck)
        rows.append(cards + [-1] * (12 - n))
        expected.append(vec.values.index(r.evaluate(cards)) if n == 3 else -1)
    got = vec.evaluate(np.array(rows, dtype=np.int64).reshape(3, 100, 12))
    assert got.reshape(-1).tolist() == expected
