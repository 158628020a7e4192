"""Hands valued by points (``kind: points``): baccarat and blackjack totals, declared in the data.

The ranking dict (docs/spec-format.md, "Rankings valued by points")::

    baccarat:
      kind: points
      cite: § 950.4
      points: {A: 1, "2": 2, ..., "9": 9, T: 0, J: 0, Q: 0, K: 0}   # every rank of the deck
      modulo: 10                      # the total is the sum modulo 10 (a baccarat total)
      natural: {cards: 2, totals: [8, 9], name: Natural, beats: false}

    blackjack:
      kind: points
      cite: § 960.4
      points: {A: 1, "2": 2, ..., T: 10, J: 10, Q: 10, K: 10}
      soft: {rank: A, plus: 10}       # one such card counts 10 more when that does not bust the hand
      bust: 21                        # a total above 21 is a bust
      natural: {cards: 2, totals: [21], name: Blackjack, beats: true}

Reading (all from the data):

* ``points(cards)``: the sum of the cards' point values (the hard count; no modulo, no soft card).
* ``total(cards)``: the hard sum, plus ``soft.plus`` when the hand holds a ``soft.rank`` card and the
  sum with it does not exceed ``bust`` (a soft total); then modulo ``modulo`` when declared.
* ``soft(cards)``: whether the total counts a soft card at its higher value.
* ``natural(cards)``: exactly ``natural.cards`` cards whose total is one of ``natural.totals``.
* ``bust(cards)``: the total exceeds ``bust``.
* Hands compare (:meth:`PointsRanking.evaluate`) by total; a bust hand is below every other hand and
  two busts are equal; a natural ranks above a non-natural of the same total only with ``beats: true``.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from compiler.values.cards import JOKER, RANKS, rank_index

__all__ = ["PointsRanking", "PointsValue", "POINTS_KEYS"]

_MEMO_MAX = 200_000
POINTS_KEYS = ("cite", "kind", "title", "points", "modulo", "soft", "bust", "natural", "note")


class RankingError(ValueError):
    """A ranking dict the value layer cannot use, or a hand it cannot rank (``compiler.values.rankings``
    re-exports it: every kind of ranking raises it)."""


class PointsError(RankingError):
    """A points ranking this module cannot use (a RankingError of :mod:`compiler.values.rankings`)."""


class PointsValue:
    """The value of a hand by points: ordered by (not bust, total, natural where naturals beat)."""

    __slots__ = ("total", "natural", "bust", "soft", "key", "category", "name")

    def __init__(self, total: int, natural: bool, bust: bool, soft: bool, beats: bool, natural_name: str):
        self.total = total
        self.natural = natural
        self.bust = bust
        self.soft = soft
        self.key = (0, 0, 0) if bust else (1, total, 1 if (natural and beats) else 0)
        self.category = "bust" if bust else "natural" if natural else "total"
        self.name = ("bust" if bust else f"{natural_name} {total}" if natural else
                     f"{'soft ' if soft else ''}{total}")

    def __lt__(self, other: "PointsValue") -> bool:
        return self.key < other.key

    def __le__(self, other: "PointsValue") -> bool:
        return self.key <= other.key

    def __gt__(self, other: "PointsValue") -> bool:
        return self.key > other.key

    def __ge__(self, other: "PointsValue") -> bool:
        return self.key >= other.key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PointsValue) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"PointsValue({self.name!r})"


def _int(v: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise PointsError(f"{where} must be a whole number from {lo} to {hi}, not {v!r}")
    return v


class PointsRanking:
    """A ranking of ``kind: points`` built from its dict (see the module docstring)."""

    kind = "points"

    def __init__(self, spec: Mapping[str, Any], id: str = "ranking"):
        self.id = id
        self.spec = spec
        self.cite = spec.get("cite")
        where = f"ranking {id}"
        unknown = sorted(set(spec) - set(POINTS_KEYS))
        if unknown:
            raise PointsError(f"{where}: a points ranking does not take {', '.join(unknown)} "
                              f"(it takes {', '.join(POINTS_KEYS)})")
        pts = spec.get("points")
        if not isinstance(pts, Mapping):
            raise PointsError(f"{where}: points is a mapping of every rank to its point value, e.g. {{A: 1, T: 0}}")
        values: dict[int, int] = {}
        for sym, v in pts.items():
            try:
                r = rank_index(str(sym))
            except ValueError:
                raise PointsError(f"{where}: unknown rank {sym!r} in points (ranks: {', '.join(RANKS)})") from None
            if r in values:
                raise PointsError(f"{where}: rank {sym!r} is given twice in points")
            values[r] = _int(v, f"{where}: the points of {sym}", 0, 100)
        missing = [RANKS[r] for r in range(13) if r not in values]
        if missing:
            raise PointsError(f"{where}: points gives no value to the rank{'s' if len(missing) > 1 else ''} "
                              f"{', '.join(missing)}: every rank of the deck needs one")
        self.values = values
        self._pv = [values[c >> 2] for c in range(52)]
        self.modulo = None if spec.get("modulo") is None else _int(spec["modulo"], f"{where}: modulo", 2, 100)
        self.bust = None if spec.get("bust") is None else _int(spec["bust"], f"{where}: bust", 1, 1000)
        soft = spec.get("soft")
        self.soft_rank = self.soft_plus = None
        if soft is not None:
            if not isinstance(soft, Mapping) or set(soft) - {"rank", "plus"} or not {"rank", "plus"} <= set(soft):
                raise PointsError(f"{where}: soft is {{rank: A, plus: 10}} (one such card counts plus more)")
            try:
                self.soft_rank = rank_index(str(soft["rank"]))
            except ValueError:
                raise PointsError(f"{where}: soft: unknown rank {soft['rank']!r}") from None
            self.soft_plus = _int(soft["plus"], f"{where}: soft plus", 1, 100)
            if self.bust is None:
                raise PointsError(f"{where}: a soft card counts more only when that does not bust the hand: "
                                  "declare bust (e.g. bust: 21)")
        nat = spec.get("natural")
        self.natural_cards = None
        self.natural_totals: frozenset[int] = frozenset()
        self.natural_beats = False
        self.natural_name = "natural"
        if nat is not None:
            if not isinstance(nat, Mapping) or set(nat) - {"cards", "totals", "name", "beats", "cite"} \
                    or not {"cards", "totals"} <= set(nat):
                raise PointsError(f"{where}: natural is {{cards: 2, totals: [8, 9], name: Natural, beats: false}}")
            self.natural_cards = _int(nat["cards"], f"{where}: natural cards", 1, 20)
            tots = nat["totals"]
            if not isinstance(tots, list) or not tots:
                raise PointsError(f"{where}: natural totals is a list of totals, e.g. [8, 9]")
            self.natural_totals = frozenset(_int(t, f"{where}: a natural total", 0, 1000) for t in tots)
            self.natural_beats = bool(nat.get("beats", False))
            self.natural_name = str(nat.get("name", "natural"))
        self.cards = self.natural_cards or 2
        self.hands: dict = {}
        self._read: dict[tuple, tuple] = {}         # cards -> (total, soft, natural, bust), bounded
        self._values: dict[tuple, PointsValue] = {}  # (total, soft, natural, bust) -> its shared value
        self.category_ids = ["bust", "natural", "total"]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], id: str = "ranking") -> "PointsRanking":
        return cls(spec, id)

    # ------------------------------------------------------------------ reading
    def _cards(self, cards: Sequence[int]) -> list[int]:
        out = [c for c in cards if c is not None]
        for c in out:
            if not (isinstance(c, int) and 0 <= c < JOKER):
                raise PointsError(f"ranking {self.id}: {c!r} has no point value (jokers and non-cards have none)")
        return out

    def points(self, cards: Sequence[int]) -> int:
        """The hard sum of the cards' point values."""
        pv = self._pv
        return sum(pv[c] for c in self._cards(cards))

    def summary(self, hard: int, count: int, has_soft: bool) -> tuple[int, bool, bool, bool]:
        """(total, soft, natural, bust) of a hand from its hard sum, card count and whether it holds a soft card:
        everything this ranking reads of a hand."""
        total = hard
        soft = False
        if has_soft and hard + self.soft_plus <= self.bust:
            total, soft = hard + self.soft_plus, True
        bust = self.bust is not None and total > self.bust
        if self.modulo is not None:
            total %= self.modulo
        natural = count == self.natural_cards and total in self.natural_totals and not bust
        return total, soft, natural, bust

    def read(self, cards: Sequence[int]) -> tuple[int, bool, bool, bool]:
        key = tuple(cards)
        hit = self._read.get(key)
        if hit is not None:
            return hit
        cs = self._cards(cards)
        pv = self._pv
        sr = self.soft_rank
        out = self.summary(sum(pv[c] for c in cs), len(cs), sr is not None and any((c >> 2) == sr for c in cs))
        if len(self._read) >= _MEMO_MAX:
            self._read.clear()
            self._values.clear()
        self._read[key] = out
        return out

    def total(self, cards: Sequence[int]) -> int:
        return self.read(cards)[0]

    def soft(self, cards: Sequence[int]) -> bool:
        return self.read(cards)[1]

    def natural(self, cards: Sequence[int]) -> bool:
        return self.read(cards)[2]

    def is_bust(self, cards: Sequence[int]) -> bool:
        return self.read(cards)[3]

    def evaluate(self, cards: Sequence[int]) -> PointsValue:
        summary = self.read(cards)
        v = self._values.get(summary)
        if v is None:
            total, soft, natural, bust = summary
            v = self._values[summary] = PointsValue(total, natural, bust, soft, self.natural_beats, self.natural_name)
        return v

    value = evaluate

    def compare(self, a_cards: Sequence[int], b_cards: Sequence[int]) -> int:
        a, b = self.evaluate(a_cards), self.evaluate(b_cards)
        return (a > b) - (a < b)

    def __repr__(self) -> str:
        return f"PointsRanking({self.id!r})"
