"""Hand rankings as data: a generic evaluator built from a ranking dict of a rulespec.

The ranking dict has the shape of ``docs/spec-format.md`` ("Rankings", "Rankings additions").
Nothing here knows a chapter: the category list, the order of the ranks, the ace-low
straight, the place of A-2-3-4-5 among straights (``wheel_rank``) and the joker used as a
bug (``wild``) all come from the data.

API::

    r = Ranking.from_spec(spec_dict, "five_card")
    v = r.evaluate(cards)            # exactly r.cards cards -> HandValue (totally ordered, hashable)
    v, used = r.best(cards, n=None)  # best n-card hand (default r.cards; fewest..cards with ``fewest``) from more cards
    r.compare(a_cards, b_cards)      # -1 / 0 / 1 (best hands when more than r.cards cards)
    r.category_at_least(v, "pair", min_rank="T")   # pair of 10s or better
    r.matches_hand(cards, "ace_king_queen_spades") # a named hand of the ranking's ``hands``

A :class:`HandValue` orders by ``score`` (higher is better); ``category`` is the category id,
``name`` its printed name, ``category_index`` its position in the spec (0 = highest),
``tiebreak`` the tuple that orders hands inside the category and ``high`` the rank symbol
of the top card of the straight / of the largest group.

Reading of the rules (all driven by data):

* ``ace_low_straight``: the highest rank of ``order`` (the ace) may also play below the
  lowest ranks (A-2-3-4-5, or A-2-3 in a three-card ranking); sequences never wrap
  (K-A-2 is no straight).  Where the wheel ranks among straights is the category's
  ``wheel_rank``: ``low`` (default: a 5-high straight), ``high`` (above every other straight
  of the category) or ``second`` (just below the highest straight).
* Inside a category hands compare by the sizes of their rank groups, then the ranks of the
  groups (largest group first, higher rank first), which is "the highest ranking card which
  is not in the other hand" for flushes and high cards (670a.6(b)(6), (c)); straights by
  their place in the sequence.
* ``fewest: F`` (below ``cards: N``): a hand has any number of cards from F to N, and ``best`` takes the
  best hand of any of those sizes (High Card Flush: the longest flush of seven cards, two to seven cards);
  the pattern key ``size`` asks for a hand of exactly that many cards. Inside a category hands of
  different sizes compare group sizes first, padded to N, then ranks.
* ``wild: {card: joker, as: [ace, straight, flush]}``: the joker counts as an ace (of no
  suit), or as any card that completes a straight (``straight``) or a flush (``flush``),
  hence also a straight flush; the best reading is taken.  Four aces and the joker make
  five of a kind (a ``groups: [5]`` pattern).  At most one joker per hand.
"""
from __future__ import annotations

import json
from collections import Counter
from itertools import combinations, combinations_with_replacement
from typing import Any, Mapping, Sequence

from compiler.values.cards import JOKER, RANKS, parse_card, rank_index
from compiler.values.points import PointsRanking, RankingError

# ranking spec -> its lookup tables (Ranking._tables_once); bounded, oldest dropped first
_TABLES: dict[str, tuple] = {}
_TABLES_MAX = 64

__all__ = ["HandValue", "Ranking", "RankingError", "JOKER_RANK", "rankings_from_spec"]

JOKER_RANK = 13          # rank_of(JOKER)
_DIGIT = 32              # base of the packed tiebreak digits (strengths < 14, counts <= 7, straights < 32)
_FAST_MAX_JOKERS = 1




class HandValue:
    """The rank of one hand: totally ordered by ``score`` (higher is better), hashable.

    Equal values are hands of identical rank (a tie).  Instances are shared: the evaluator
    returns the same object for every hand of the same rank.
    """

    __slots__ = ("score", "category_index", "category", "name", "tiebreak", "_high", "high")

    def __init__(self, score: int, category_index: int, category: str, name: str,
                 tiebreak: tuple, high_strength: int, high: str | None):
        self.score = score
        self.category_index = category_index
        self.category = category
        self.name = name
        self.tiebreak = tiebreak
        self._high = high_strength
        self.high = high

    def __lt__(self, other: "HandValue") -> bool:
        return self.score < other.score

    def __le__(self, other: "HandValue") -> bool:
        return self.score <= other.score

    def __gt__(self, other: "HandValue") -> bool:
        return self.score > other.score

    def __ge__(self, other: "HandValue") -> bool:
        return self.score >= other.score

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.score == other.score

    def __hash__(self) -> int:
        return hash(self.score)

    def __repr__(self) -> str:
        return f"HandValue({self.category!r}, high={self.high!r}, tiebreak={self.tiebreak!r})"


class _Pattern:
    __slots__ = ("groups", "straight", "flush", "high", "min_rank", "wheel_rank", "size")

    def __init__(self, spec: Mapping[str, Any], strength: Mapping[int, int], where: str):
        unknown = set(spec) - {"groups", "straight", "flush", "high", "min_rank", "wheel_rank", "size"}
        if unknown:
            raise RankingError(f"{where}: unknown pattern keys {sorted(unknown)}")
        self.groups = tuple(sorted((int(g) for g in spec.get("groups") or ()), reverse=True))
        self.straight = spec.get("straight")
        self.flush = spec.get("flush")
        self.high = _strength_of_symbol(spec["high"], strength, where) if spec.get("high") is not None else None
        self.min_rank = (_strength_of_symbol(spec["min_rank"], strength, where)
                         if spec.get("min_rank") is not None else None)
        self.size = int(spec["size"]) if spec.get("size") is not None else None
        self.wheel_rank = spec.get("wheel_rank", "low")
        if self.wheel_rank not in ("low", "high", "second"):
            raise RankingError(f"{where}: wheel_rank must be low, high or second, not {self.wheel_rank!r}")


def _strength_of_symbol(symbol: Any, strength: Mapping[int, int], where: str) -> int:
    try:
        r = rank_index(str(symbol))
    except ValueError:
        raise RankingError(f"{where}: unknown rank {symbol!r}") from None
    if r not in strength:
        raise RankingError(f"{where}: rank {symbol!r} is not in the ranking's order")
    return strength[r]


def _contains_groups(counts: tuple, groups: tuple) -> bool:
    if len(groups) > len(counts):
        return False
    for have, need in zip(counts, groups):
        if have < need:
            return False
    return True


class Ranking:
    """A hand ranking built from a ranking dict (see the module docstring)."""

    def __init__(self, spec: Mapping[str, Any], id: str = "ranking"):
        self.id = id
        self.spec = spec
        self.kind = spec.get("kind", "poker")
        if self.kind not in ("poker", "high_card"):
            raise RankingError(f"ranking {id}: kind must be poker, high_card or points, not {self.kind!r}")
        self.cite = spec.get("cite")
        self.cards = int(spec.get("cards", 5 if self.kind == "poker" else 1))
        self.fewest = int(spec.get("fewest", self.cards))      # hands of fewest..cards cards
        if not 1 <= self.fewest <= self.cards:
            raise RankingError(f"ranking {id}: fewest must be from 1 to cards ({self.cards}), not {self.fewest}")
        self.sizes = range(self.fewest, self.cards + 1)
        self.variable = self.fewest < self.cards
        self._best_memo: dict = {}
        order = spec.get("order") or list(reversed(RANKS))
        self.order = [rank_index(str(s)) for s in order]              # rank indices, highest first
        if len(set(self.order)) != len(self.order):
            raise RankingError(f"ranking {id}: a rank appears twice in order")
        m = len(self.order)
        self._m = m
        self._strength = {r: m - 1 - i for i, r in enumerate(self.order)}   # rank index -> strength
        self._symbol = {m - 1 - i: RANKS[r] for i, r in enumerate(self.order)}
        self.ace_low_straight = bool(spec.get("ace_low_straight", False))
        wild = spec.get("wild")
        self.wild = dict(wild) if wild else None
        self._wild_as = set(self.wild.get("as", ())) if self.wild else set()
        if self.wild and str(self.wild.get("card", "joker")).lower() not in ("joker", "jk"):
            raise RankingError(f"ranking {id}: only the joker can be wild")
        if "ace" in self._wild_as and 12 not in self._strength:
            raise RankingError(f"ranking {id}: the joker counts as an ace but the ace is not ranked")

        cats = spec.get("categories")
        if self.kind == "high_card" and not cats:
            cats = [{"id": "high_card", "name": "High card", "pattern": {}}]
        if not cats:
            raise RankingError(f"ranking {id}: no categories")
        self.categories = [dict(c) for c in cats]
        self.category_ids = [c["id"] for c in self.categories]
        if len(set(self.category_ids)) != len(self.category_ids):
            raise RankingError(f"ranking {id}: duplicate category ids")
        self._cat_index = {cid: i for i, cid in enumerate(self.category_ids)}
        self._patterns = [_Pattern(c.get("pattern") or {}, self._strength, f"ranking {id}, category {c['id']}")
                          for c in self.categories]
        self._ncat = len(self.categories)
        self._uses_straight = self.kind == "poker" and any(p.straight for p in self._patterns)
        self._uses_flush = self.kind == "poker" and any(p.flush for p in self._patterns)
        self._width = 2 * self.cards + 1

        self.hands = {}
        for hid, h in (spec.get("hands") or {}).items():
            self.hands[hid] = self._read_hand(hid, h)
        for hid, h in (spec.get("thresholds") or {}).items():   # {category|at_least: pair, min_rank: T}
            h = dict(h)
            if "at_least" not in h and "category" in h:
                h["at_least"] = h.pop("category")
            if "at_least" not in h:
                raise RankingError(f"ranking {id}, threshold {hid}: needs at_least (or category)")
            self.hands[hid] = self._read_hand(hid, h)

        # fast tables: key = sum of 1 << 3*rank_index (joker rank 13), flush iff all suits shared
        self._rw = [1 << (3 * (c >> 2)) for c in range(52)] + [1 << (3 * JOKER_RANK)]
        self._sb = [1 << (c & 3) for c in range(52)] + [15]
        self._plain: dict[int, HandValue] = {}
        self._flush: dict[int, HandValue] = {}
        self._values: dict[int, HandValue] = {}
        self._thresholds: dict[tuple, int] = {}
        self._nat_memo: dict[tuple, tuple[HandValue, bool, bool]] | None = None
        self._tables_once()

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], id: str = "ranking") -> "Ranking":
        """Build the evaluator of one ranking dict (``spec["rankings"][id]`` of a rulespec); a ranking of
        ``kind: points`` is a :class:`compiler.values.points.PointsRanking`."""
        if isinstance(spec, Mapping) and spec.get("kind") == "points":
            return PointsRanking(spec, id)
        return cls(spec, id)

    def _read_hand(self, hid: str, h: Mapping[str, Any]) -> dict:
        out: dict[str, Any] = {"id": hid, "name": h.get("name", hid), "cite": h.get("cite")}
        if "cards" in h or "any_of" in h:
            sets = [h["cards"]] if "cards" in h else h["any_of"]
            out["sets"] = [frozenset(parse_card(c) for c in s) for s in sets]
        elif "min_hand" in h:  # a hand at least as high as the given cards (a dealer qualifier: A K 4 3 2)
            out["min_hand"] = [parse_card(str(c)) for c in h["min_hand"]]
            if len(out["min_hand"]) != self.cards:
                raise RankingError(f"ranking {self.id}, hand {hid}: min_hand lists {len(out['min_hand'])} cards, "
                                   f"not {self.cards}")
        elif "at_least" in h:
            if h["at_least"] not in self._cat_index:
                raise RankingError(f"ranking {self.id}, hand {hid}: unknown category {h['at_least']!r}")
            out["at_least"] = h["at_least"]
            out["min_rank"] = h.get("min_rank")
        elif "category" in h:
            if h["category"] not in self._cat_index:
                raise RankingError(f"ranking {self.id}, hand {hid}: unknown category {h['category']!r}")
            out["category"] = h["category"]
            out["high"] = (_strength_of_symbol(h["high"], self._strength, f"hand {hid}")
                           if h.get("high") is not None else None)
        else:
            raise RankingError(f"ranking {self.id}, hand {hid}: needs cards, any_of, at_least, category or min_hand")
        return out

    def _tables_once(self) -> None:
        """The lookup tables, built once per distinct ranking in a process and shared by every later
        ``Ranking`` of an equal spec (every engine ``Table`` builds its rankings; a five-card ranking
        with a joker takes about a second). The tables are a pure function of the spec: a changed spec
        is another key, and a build that raises is not remembered."""
        try:
            key = json.dumps([self.id, self.spec], sort_keys=True, default=repr)
        except (TypeError, ValueError):
            self._build_tables()
            return
        hit = _TABLES.get(key)
        if hit is None:
            self._build_tables()
            if len(_TABLES) >= _TABLES_MAX:
                _TABLES.pop(next(iter(_TABLES)))
            _TABLES[key] = (self._plain, self._flush, self._values, self._thresholds)
        else:
            self._plain, self._flush, self._values, self._thresholds = hit

    def _build_tables(self) -> None:
        # a hand with a joker is valued as each natural hand the joker can make: most of those are
        # the table's own natural hands, valued once (the value is a function of the multiset of
        # strengths and the flush flag)
        self._nat_memo = {}
        try:
            self._fill_tables()
        finally:
            self._nat_memo = None

    def _fill_tables(self) -> None:
        ranks = sorted(self.order)
        max_j = _FAST_MAX_JOKERS if self.wild else 0
        for n in self.sizes:  # one size, or every size from ``fewest``: a key is a multiset, so sizes never share one
            for j in range(max_j + 1):
                if j > n:
                    break
                for combo in combinations_with_replacement(ranks, n - j):
                    cnt = Counter(combo)
                    if max(cnt.values(), default=0) > 4:
                        continue
                    rk = combo + (JOKER_RANK,) * j
                    key = sum(1 << (3 * r) for r in rk)
                    self._plain[key] = self.value_of_ranks(rk, False)
                    if self._uses_flush and n >= 2 and len(cnt) == len(combo):
                        self._flush[key] = self.value_of_ranks(rk, True)
        if not self._uses_flush:
            self._flush = self._plain

    # ------------------------------------------------------------------ core evaluation
    def _value(self, cat_index: int, tiebreak: tuple, high: int) -> HandValue:
        score = self._ncat - 1 - cat_index
        for i in range(self._width):
            score = score * _DIGIT + (tiebreak[i] if i < len(tiebreak) else 0)
        v = self._values.get(score)
        if v is None:
            cat = self.categories[cat_index]
            v = HandValue(score, cat_index, cat["id"], cat.get("name", cat["id"]), tiebreak, high,
                          self._symbol.get(high))
            self._values[score] = v
        return v

    def _natural(self, strengths: Sequence[int], flush: bool) -> tuple[HandValue, bool, bool]:
        """Value of a hand without jokers, given as strengths; also (is straight, is flush)."""
        memo = self._nat_memo
        if memo is None:
            return self._natural_of(strengths, flush)
        key = (tuple(sorted(strengths)), bool(flush))
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = self._natural_of(strengths, flush)
        return hit

    def _natural_of(self, strengths: Sequence[int], flush: bool) -> tuple[HandValue, bool, bool]:
        n = len(strengths)
        cnt = Counter(strengths)
        groups = sorted(cnt.items(), key=lambda kv: (-kv[1], -kv[0]))
        counts = tuple(c for _, c in groups)
        straight = False
        wheel = False
        top_seq = -1
        if self._uses_straight and n >= 2 and len(cnt) == n:
            hi, lo = max(cnt), min(cnt)
            if hi - lo == n - 1:
                straight, top_seq = True, hi
            elif self.ace_low_straight and hi == self._m - 1 and set(cnt) == set(range(n - 1)) | {hi}:
                straight, wheel, top_seq = True, True, n - 2
        is_flush = bool(flush) and self._uses_flush and n >= 2
        for ci, p in enumerate(self._patterns):
            if p.size is not None and p.size != n:
                continue
            if p.straight is not None and bool(p.straight) != straight:
                continue
            if p.flush is not None and bool(p.flush) != is_flush:
                continue
            if p.groups and not _contains_groups(counts, p.groups):
                continue
            as_straight = straight and bool(p.straight)
            high = top_seq if as_straight else groups[0][0]
            if p.high is not None and high != p.high:
                continue
            if p.min_rank is not None and high < p.min_rank:
                continue
            if as_straight:
                if not wheel:
                    s = 2 * top_seq
                elif p.wheel_rank == "high":
                    s = 2 * (self._m - 1) + 2
                elif p.wheel_rank == "second":
                    s = 2 * (self._m - 1) - 1
                else:
                    s = 2 * top_seq
                tiebreak: tuple = (s,)
            else:  # hands of several sizes: the group sizes padded, so that the ranks line up
                pad = (0,) * (self.cards - len(counts)) if self.variable else ()
                tiebreak = counts + pad + tuple(r for r, _ in groups)
            return self._value(ci, tiebreak, high), straight, is_flush
        raise RankingError(f"ranking {self.id}: no category matches a hand "
                           f"({[self._symbol[s] for s in strengths]}, flush={flush}); "
                           f"add a catch-all category with pattern {{}}")

    def value_of_ranks(self, ranks: Sequence[int], flush: bool) -> HandValue:
        """Value of a hand of ``self.cards`` cards (any of ``self.sizes``) given by rank indices (13 = joker).

        ``flush``: whether all natural cards share one suit.  This is the slow, reference
        path that the lookup tables (and the vectorised enumeration) are built from.
        """
        if len(ranks) not in self.sizes:
            raise RankingError(f"ranking {self.id}: a hand has {self._size_text()} cards, got {len(ranks)}")
        try:
            nat = [self._strength[r] for r in ranks if r != JOKER_RANK]
        except KeyError as e:
            raise RankingError(f"ranking {self.id}: rank {e} is not in the ranking's order") from None
        nj = len(ranks) - len(nat)
        if nj == 0:
            return self._natural(nat, flush)[0]
        if not self.wild:
            raise RankingError(f"ranking {self.id}: the joker is not used in this ranking")
        if nj > 1:
            raise RankingError(f"ranking {self.id}: at most one joker per hand")
        best: HandValue | None = None
        if "ace" in self._wild_as:
            best = self._natural(nat + [self._strength[12]], False)[0]
        st_ok = "straight" in self._wild_as
        fl_ok = "flush" in self._wild_as
        if st_ok or fl_ok:
            present = set(nat)
            for s in range(self._m):
                if s in present:
                    continue
                v, is_st, is_fl = self._natural(nat + [s], bool(flush) and fl_ok)
                if (is_st and st_ok) or is_fl:
                    if best is None or v.score > best.score:
                        best = v
        if best is None:
            raise RankingError(f"ranking {self.id}: the joker cannot be used in this hand")
        return best

    # ------------------------------------------------------------------ public API
    def evaluate(self, cards: Sequence[int]) -> HandValue:
        """Value of a hand of exactly ``self.cards`` cards (ints of ``compiler.runtime.cards``)."""
        rw = self._rw
        sb = self._sb
        k = 0
        s = 15
        for c in cards:
            k += rw[c]
            s &= sb[c]
        try:
            return (self._flush if s else self._plain)[k]
        except KeyError:
            return self._slow(cards)

    def _size_text(self) -> str:
        return f"{self.fewest} to {self.cards}" if self.variable else str(self.cards)

    def _slow(self, cards: Sequence[int]) -> HandValue:
        cards = list(cards)
        if len(cards) not in self.sizes:
            raise RankingError(f"ranking {self.id}: a hand has {self._size_text()} cards, got {len(cards)}")
        for c in cards:
            if not (0 <= c <= JOKER):
                raise RankingError(f"not a card: {c!r}")
        nat = [c for c in cards if c != JOKER]
        flush = len({c & 3 for c in nat}) <= 1
        v = self.value_of_ranks([c >> 2 for c in cards], flush)
        return v

    def best(self, cards: Sequence[int], n: int | None = None) -> tuple[HandValue, tuple]:
        """Best ``n``-card hand (default ``self.cards``) among the cards: (value, cards used); a ranking
        of hands of several sizes (``fewest``) takes the best hand of any size it ranks.

        With ties the first combination in the order of ``cards`` (the largest size first) is returned.
        """
        if n is not None and n not in self.sizes:
            raise RankingError(f"ranking {self.id} ranks {self._size_text()}-card hands, not {n}-card hands")
        cards = tuple(cards)
        sizes = [n] if n is not None else [k for k in reversed(self.sizes) if k <= len(cards)]
        if not sizes:
            raise RankingError(f"ranking {self.id}: need at least {self.fewest} cards, got {len(cards)}")
        if len(cards) < sizes[0]:
            raise RankingError(f"ranking {self.id}: need at least {sizes[0]} cards, got {len(cards)}")
        if len(sizes) == 1 and len(cards) == sizes[0]:
            return self.evaluate(cards), cards
        key = (cards, n) if self.variable else None   # up to 120 subsets of seven cards: remembered a while
        hit = self._best_memo.get(key) if key else None
        if hit is not None:
            return hit
        ev = self.evaluate
        best_v = None
        best_c: tuple = ()
        for k in sizes:
            for combo in combinations(cards, k):
                v = ev(combo)
                if best_v is None or v.score > best_v.score:
                    best_v, best_c = v, combo
        if key:
            if len(self._best_memo) >= 4096:
                self._best_memo.clear()
            self._best_memo[key] = (best_v, best_c)
        return best_v, best_c

    def value(self, cards: Sequence[int]) -> HandValue:
        """Value of the best hand of the cards (``evaluate`` or ``best(...)[0]``)."""
        if len(cards) == self.cards and not self.variable:
            return self.evaluate(cards)
        return self.best(cards)[0]

    def compare(self, a_cards: Sequence[int], b_cards: Sequence[int]) -> int:
        """-1, 0 or 1 as the best hand of ``a_cards`` ranks below, equal to or above ``b_cards``'s."""
        a = self.value(a_cards).score
        b = self.value(b_cards).score
        return (a > b) - (a < b)

    # ------------------------------------------------------------------ hands of other sizes (pai gow)
    def _partial_strengths(self, cards: Sequence[int]) -> list[int]:
        nat = [self._strength[c >> 2] for c in cards if c != JOKER]
        nj = len(cards) - len(nat)
        if nj:
            if "ace" not in self._wild_as:
                raise RankingError(f"ranking {self.id}: the joker is not used as an ace in this ranking")
            nat += [self._strength[12]] * nj
        return nat

    def rank_key(self, cards: Sequence[int]) -> tuple:
        """The rank of a hand of 1 to ``self.cards`` cards, comparable across hand sizes.

        Pai gow: "the high hand must rank equal to or higher than the low hand" (e.g. § 670a.11(b)).
        A hand of ``self.cards`` cards ranks as :meth:`evaluate` says; a smaller hand can only be in
        a category that needs no straight or flush (its jokers count as aces), first pattern that
        matches.  Keys compare by category, then by the ranks of the groups, highest first, so
        that an equal prefix is decided by "the highest ranking card which is not in the other hand".
        """
        cards = [c for c in cards if c is not None]
        n = len(cards)
        if not 1 <= n <= self.cards:
            raise RankingError(f"ranking {self.id}: rank_key takes 1 to {self.cards} cards, got {n}")
        if n == self.cards:
            v = self.evaluate(cards)
            tb = v.tiebreak
            ranks = tb if len(tb) == 1 else tb[len(tb) // 2:]     # straights: (s,), else counts + ranks
            return (self._ncat - 1 - v.category_index,) + tuple(ranks)
        cnt = Counter(self._partial_strengths(cards))
        groups = sorted(cnt.items(), key=lambda kv: (-kv[1], -kv[0]))
        counts = tuple(c for _, c in groups)
        for ci, p in enumerate(self._patterns):
            if p.straight or p.flush:
                continue
            if p.groups and not _contains_groups(counts, p.groups):
                continue
            high = groups[0][0]
            if p.high is not None and high != p.high:
                continue
            if p.min_rank is not None and high < p.min_rank:
                continue
            return (self._ncat - 1 - ci,) + tuple(r for r, _ in groups)
        raise RankingError(f"ranking {self.id}: no category matches a {n}-card hand")

    def group_count(self, cards: Sequence[int], size: int) -> int:
        """How many ranks the cards hold at least ``size`` times (jokers count as aces when the
        joker plays as an ace): ``group_count(six, 2) == 3`` for three pairs (house ways)."""
        cnt = Counter(self._partial_strengths([c for c in cards if c is not None]))
        return sum(1 for v in cnt.values() if v >= int(size))

    def category_index(self, category_id: str) -> int:
        try:
            return self._cat_index[category_id]
        except KeyError:
            raise RankingError(f"ranking {self.id}: unknown category {category_id!r}") from None

    def category_at_least(self, value: HandValue, category_id: str, min_rank: Any = None) -> bool:
        """Whether ``value`` is in ``category_id`` or a higher category; with ``min_rank``, in the
        category only when its top group / straight top is at least that rank (``pair`` with
        ``min_rank='T'``: a pair of 10s or better)."""
        ci = self.category_index(category_id)
        if value.category_index != ci:
            return value.category_index < ci
        if min_rank is None:
            return True
        return value._high >= _strength_of_symbol(min_rank, self._strength, f"ranking {self.id}")

    def value_matches(self, value: HandValue, hand_id: str) -> bool:
        """Whether a hand value satisfies a category id or a value-based named hand
        (``at_least`` / ``category`` hands).  Card-set hands raise: use :meth:`matches_hand`."""
        if hand_id in self._cat_index:
            return value.category == hand_id
        h = self.hands.get(hand_id)
        if h is None:
            raise RankingError(f"ranking {self.id}: unknown hand or category {hand_id!r}")
        if "sets" in h:
            raise RankingError(f"ranking {self.id}: hand {hand_id!r} is defined by its cards")
        if "at_least" in h:
            return self.category_at_least(value, h["at_least"], h["min_rank"])
        if "min_hand" in h:
            if "min_value" not in h:
                h["min_value"] = self.evaluate(h["min_hand"])
            return value >= h["min_value"]
        if value.category != h["category"]:
            return False
        return h["high"] is None or value._high == h["high"]

    def card_sets(self, hand_id: str) -> list[frozenset] | None:
        """The card sets of a card-defined named hand (``cards`` / ``any_of``), else None."""
        h = self.hands.get(hand_id)
        return None if h is None else h.get("sets")

    def matches_hand(self, cards: Sequence[int], hand_id: str) -> bool:
        """Whether the cards make the named hand (or the category) ``hand_id``.

        Card-defined hands match when the cards contain one of the listed card sets; the other
        kinds are judged on the best hand of the cards.
        """
        sets = self.card_sets(hand_id)
        if sets is not None:
            cs = set(cards)
            return any(s <= cs for s in sets)
        return self.value_matches(self.value(cards), hand_id)

    def __repr__(self) -> str:
        return f"Ranking({self.id!r}, kind={self.kind!r}, cards={self.cards})"


def rankings_from_spec(spec: Mapping[str, Any]) -> dict[str, Ranking]:
    """All rankings of a rulespec dict (its ``rankings`` mapping) by id."""
    return {rid: Ranking.from_spec(r, rid) for rid, r in (spec.get("rankings") or {}).items()}

