"""A ranking of hands of several sizes (`fewest: F` below `cards: N`, the pattern key `size`): `best` takes the best
hand of any size from F to N. The High Card Flush test chapter (tests/fixtures/chapters/high-card-flush.yaml, NOT
official text) ranks a seven-card hand by its longest flush, card by card within a length (§ 678a.6(b), (c)), and
its Straight Flush Bonus by the longest straight flush (§ 678a.6(d)). Held here to evaluators written from those
words, on seeded random hands: the engine's `best`, the fast path's vectorised `best` and the analysis's
`Vectoriser` order every hand as they do; a size or a `fewest` the ranking cannot have is a positioned error."""
from __future__ import annotations

import random
from functools import cmp_to_key

import numpy as np
import pytest
import yaml

from compiler.analysis.enumerate import Vectoriser
from compiler.fast.hands import VecRanking
from compiler.pipeline import ROOT, compile_spec
from compiler.values.rankings import Ranking, RankingError

HCF_TEXT = (ROOT / "tests/fixtures/chapters/high-card-flush.yaml").read_text(encoding="utf-8")
SPEC = yaml.safe_load(HCF_TEXT)


@pytest.fixture(scope="module")
def rankings():
    return {rid: Ranking.from_spec(SPEC["rankings"][rid], rid) for rid in ("flush", "straight_flush")}


def _hands(n: int, k: int = 7, seed: int = 678) -> list[tuple[int, ...]]:
    rnd = random.Random(seed)
    return [tuple(rnd.sample(range(52), k)) for _ in range(n)]


def flush_key(cards) -> tuple:
    """§ 678a.6(b), (c): the longest run of one suit first, then its cards from the highest (rank 12 the ace)."""
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c & 3, []).append(c >> 2)
    return max((len(rs), tuple(sorted(rs, reverse=True))) for rs in by_suit.values())


def straight_flush_length(cards) -> int:
    """§ 678a.6(d): the most cards of one suit in consecutive rank, an ace high or low (A-2-3 counts)."""
    longest = 0
    for s in range(4):
        ranks = {c >> 2 for c in cards if c & 3 == s}
        ranks |= {-1} if 12 in ranks else set()    # the ace below the 2
        for r in ranks:
            if r - 1 not in ranks:
                k = 0
                while r + k in ranks:
                    k += 1
                longest = max(longest, k)
    return longest


def test_best_is_the_longest_flush_then_card_by_card(rankings):
    r = rankings["flush"]
    hands = _hands(3000)
    names = {7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two"}
    for h in hands:
        v, used = r.best(h)
        key = flush_key(h)
        assert v.name == f"{names[key[0]]}-card flush" and sorted((c >> 2 for c in used), reverse=True) == list(key[1])
    # the order of the engine's values is the order of the words, ties included
    order = sorted(hands, key=cmp_to_key(lambda a, b: r.compare(a, b)))
    keys = [flush_key(h) for h in order]
    assert keys == sorted(keys)
    assert all((r.compare(a, b) == 0) == (flush_key(a) == flush_key(b)) for a, b in zip(order, order[1:]))


def test_straight_flush_bonus_hand_is_the_longest_straight_flush(rankings):
    r = rankings["straight_flush"]
    names = {7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three"}
    seen = set()
    for h in _hands(6000, seed=6786):
        n = straight_flush_length(h)
        v = r.best(h)[0]
        assert v.name == (f"{names[n]}-card straight flush" if n >= 3 else "No straight flush"), (h, n, v)
        seen.add(n)
    assert {2, 3, 4} <= seen   # the sample holds hands of several lengths
    # A-2-3 of one suit is a three-card straight flush; Q-K-A too; K-A-2 is none
    assert r.best([12 * 4, 0, 4, 9 * 4 + 1, 7 * 4 + 2, 5 * 4 + 3, 3 * 4 + 1])[0].name == "Three-card straight flush"
    assert r.best([12 * 4, 11 * 4, 10 * 4, 8 * 4 + 1, 6 * 4 + 2, 4 * 4 + 3, 2 * 4 + 1])[0].name == \
        "Three-card straight flush"
    assert r.best([11 * 4, 12 * 4, 0, 8 * 4 + 1, 6 * 4 + 2, 4 * 4 + 3, 2 * 4 + 1])[0].name == "No straight flush"


def test_fast_path_and_enumeration_order_hands_as_the_engine(rankings):
    hands = _hands(1500, seed=99)
    arr = np.array(hands, dtype=np.int64)
    for rid, r in rankings.items():
        engine = [r.best(h)[0].score for h in hands]
        vec = VecRanking(r)
        fast = vec.best(arr)
        enum = Vectoriser(r, 7).evaluate_cards(np.sort(arr, axis=1))
        for got in (fast, enum):
            # the same order and the same ties as the engine's scores
            assert (np.sign(got[:, None] - got[None, :]) ==
                    np.sign(np.array(engine)[:, None] - np.array(engine)[None, :])).all(), rid
        assert [vec.values[i].score for i in fast] == engine


def test_a_hand_of_a_size_the_ranking_does_not_rank_is_refused(rankings):
    with pytest.raises(RankingError, match="a hand has 2 to 7 cards, got 1"):
        rankings["flush"].evaluate([5])
    with pytest.raises(RankingError, match="need at least 2 cards, got 1"):
        rankings["flush"].best([5])
    with pytest.raises(RankingError, match="fewest must be from 1 to cards"):
        Ranking.from_spec({**SPEC["rankings"]["flush"], "fewest": 8}, "flush")


def _errors(text: str) -> list[str]:
    return [d.format() for d in compile_spec("b.yaml", text).diagnostics if d.is_error]


def test_validate_places_a_size_outside_the_ranking_and_fewest_above_cards():
    text = HCF_TEXT.replace("pattern: {flush: true, size: 2}}", "pattern: {flush: true, size: 1}}", 1)
    line = text[:text.index("size: 1}")].count("\n") + 1
    assert any(e.startswith(f"b.yaml:{line}:") and "size is the number of cards of the hand, from 2 to 7" in e
               for e in _errors(text)), _errors(text)
    text = HCF_TEXT.replace("    cards: 7\n    fewest: 2\n", "    cards: 5\n    fewest: 6\n", 1)
    assert any("fewest is the fewest cards of a hand, from 1 to cards (5) [at /rankings/flush/fewest]" in e
               for e in _errors(text)), _errors(text)
