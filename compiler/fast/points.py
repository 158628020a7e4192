"""Hands valued by points on the fast path (``kind: points``: baccarat, blackjack totals): the engine's
:class:`compiler.values.points.PointsRanking` read over numpy arrays of cards, and the functions
``points``, ``total``, ``soft``, ``natural``, ``bust``, ``card`` and ``hand(R, ...)`` of such a ranking.
A mixin of :class:`compiler.fast.vector.FastGame` (needs the expression compiler's ``_cards``)."""
from __future__ import annotations

import numpy as np

from compiler.fast.state import Unsupported
from compiler.lang.rules import Lit


class VecPoints:
    """A points ranking over arrays (K, S|1, n) of card ids, -1 for none (the engine drops missing cards)."""

    def __init__(self, ranking):
        self.r = ranking
        self.pv = np.array(ranking._pv + [0], dtype=np.int64)   # index -1: no card, no points
        sr = ranking.soft_rank
        self.is_soft = np.array([sr is not None and (c >> 2) == sr for c in range(52)] + [False])

    def _ids(self, cards):
        if (cards >= 52).any():
            raise RuntimeError(f"ranking {self.r.id}: a joker has no point value")
        return np.where(cards >= 0, cards, 52)

    def points(self, cards):
        return self.pv[self._ids(cards)].sum(-1)

    def read(self, cards):
        """(total, soft, natural, bust) arrays, as ``PointsRanking.summary``."""
        r = self.r
        c = self._ids(cards)
        hard = self.pv[c].sum(-1)
        count = (cards >= 0).sum(-1)
        total, soft = hard, np.zeros(hard.shape, dtype=bool)
        if r.soft_rank is not None:
            soft = self.is_soft[c].any(-1) & (hard + r.soft_plus <= r.bust)
            total = np.where(soft, hard + r.soft_plus, hard)
        bust = (total > r.bust) if r.bust is not None else np.zeros(hard.shape, dtype=bool)
        if r.modulo is not None:
            total = total % r.modulo
        natural = (count == r.natural_cards) & np.isin(total, sorted(r.natural_totals)) & ~bust
        return total, soft, natural, bust

    def value(self, cards):
        """An integer per hand ordered as ``PointsValue.key``: a bust below all, then the total, then a
        natural that beats."""
        total, _, natural, bust = self.read(cards)
        return np.where(bust, 0, 1 + 2 * total + (natural & self.r.natural_beats))


class PointsCompiler:
    """Compiles the functions of rankings of kind points."""

    def _vp(self, rid, where):
        if rid is None:
            ids = [k for k, r in self.game.rankings.items() if r.get("kind") == "points"]
            if len(ids) != 1:
                raise Unsupported(f"{where}: a points function naming no ranking ({len(ids)} of kind points)")
            rid = ids[0]
        if self.game.rankings.get(rid, {}).get("kind") != "points":
            raise Unsupported(f"{where}: ranking {rid!r} is not of kind points")
        cache = self.__dict__.setdefault("_vps", {})
        if rid not in cache:
            cache[rid] = VecPoints(self.proto.ranking(rid))
        return cache[rid]

    def _points_call(self, n, where: str, seat: bool):
        """points(), total(), soft(), natural(), bust() of cards; hand(R, cards) of a points ranking."""
        name, a = n.name, n.args
        if name == "hand":
            vp = self._vp(a[0].parts[0], where)
            cf = self._cards(a[1], where, seat)
            return lambda st, cf=cf, vp=vp: vp.value(cf(st))
        vp = self._vp(a[1].parts[0] if len(a) > 1 else None, where)
        cf = self._cards(a[0], where, seat)
        if name == "points":
            return lambda st, cf=cf, vp=vp: vp.points(cf(st))
        i = ("total", "soft", "natural", "bust").index(name)
        return lambda st, cf=cf, vp=vp, i=i: vp.read(cf(st))[i]

    def _card_cards(self, n, where: str, seat: bool):
        """card(CARDS, P): the P-th card present (1 = the first dealt), or none."""
        pos = n.args[1]
        if not isinstance(pos, Lit) or isinstance(pos.value, (str, bool)) or int(pos.value) != pos.value \
                or int(pos.value) < 1:
            raise Unsupported(f"{where}: card() at a position that is not a whole number from 1")
        p = int(pos.value)
        cf = self._cards(n.args[0], where, seat)

        def card(st, cf=cf, p=p):
            c = cf(st)
            if c.shape[-1] < p:
                return np.full(c.shape[:-1] + (1,), -1, dtype=c.dtype)
            packed = np.take_along_axis(c, np.argsort(c < 0, axis=-1, kind="stable"), -1)
            return packed[..., p - 1:p]
        return card
