"""House ways (ordered rules in the rule language) compiled into numpy over arrays of hands.

A second backend of the rule language for ``setting.*`` expressions: where the engine
(compiler/runtime/paigow.py) binds one candidate setting at a time, here an expression is a
function of every candidate of every hand at once, an array (hands, settings). The semantics are
the engine's: the first rule whose ``when`` holds chooses; starting from the legal settings (all of
them if none is legal), each criterion narrows the pool (``keep``; ``max`` / ``min``), stopping
once one setting is left; the first setting left, in the engine's order, is played. A ``keep`` that
would leave no setting is an error of the house way, as in the engine.
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import combinations

import numpy as np

from compiler.fast.hands import vec_ranking
from compiler.fast.memo import memoised
from compiler.lang.rules import BinOp, BoolOp, Call, Lit, Neg, Not, Ref, source

_OPS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
        "==": np.equal, "!=": np.not_equal, "+": np.add, "-": np.subtract, "*": np.multiply}


class HouseWayUnsupported(Exception):
    pass


class _Env:
    """The hands being set: ``cards`` (M, n); ``hi`` / ``lo`` (M, C, h|l) the candidates';
    ``pool`` (M, C) the settings ``can()`` ranges over."""

    def __init__(self, cards, hi_idx, lo_idx):
        self.cards = cards
        self.hi = cards[:, hi_idx]
        self.lo = cards[:, lo_idx]
        self.all = np.concatenate([self.hi, self.lo], -1)
        self.pool = None
        self.memo: dict = {}


def _lit(v):
    if isinstance(v, (Fraction, Decimal)):
        if v != int(v):
            raise HouseWayUnsupported(f"literal {v}")
        return int(v)
    return v


class CompiledHouseWay:
    """``choose(cards)`` -> index of the setting played per hand (in :func:`setting_indices` order)."""

    def __init__(self, table, way, n: int, low: int, legal=None):
        self.table, self.way, self.n, self.low = table, way, n, low
        self.lo_idx = np.array(list(combinations(range(n), low)), dtype=np.intp).reshape(-1, low)
        self.hi_idx = np.array([[i for i in range(n) if i not in set(lo)] for lo in self.lo_idx.tolist()],
                               dtype=np.intp).reshape(len(self.lo_idx), n - low)
        self.legal = self._expr(legal, True, "legal") if legal is not None else None
        self.rules = []
        for r in way.rules:
            where = f"house way rule at {r.cite}"
            when = self._expr(r.when, False, where) if r.when is not None else None
            crit = [(k, self._expr(e, True, where), t) for k, e, t in r.choose]
            self.rules.append((r, when, crit))

    # -- compile ----------------------------------------------------------------------------
    def _cards(self, n, cand: bool, where):
        if isinstance(n, Ref) and n.parts[0] == "setting":
            z = n.parts[1] if len(n.parts) > 1 else "cards"
            if cand:
                return {"high": lambda e: e.hi, "low": lambda e: e.lo, "cards": lambda e: e.all}[z]
            if z == "low":  # outside a candidate the engine binds (cards, ()): no low hand
                raise HouseWayUnsupported(f"{where}: setting.low outside can()")
            return lambda e: e.cards[:, None, :]
        raise HouseWayUnsupported(f"{where}: cards given as {source(n)!r} "
                              "(the fast path reads a zone of the player or the dealer)")

    def _expr(self, n, cand: bool, where):
        return memoised(self._expr_raw(n, cand, where), (repr(n), cand))

    def _expr_raw(self, n, cand, where):
        if isinstance(n, Lit):
            v = _lit(n.value)
            return lambda e, v=v: v
        if isinstance(n, BinOp):
            op = _OPS.get(n.op)
            if op is None:
                raise HouseWayUnsupported(f"{where}: operator {n.op}")
            for a, b in ((n.left, n.right), (n.right, n.left)):
                if isinstance(b, Lit) and isinstance(b.value, str):
                    fa = self._expr(a, cand, where)
                    rid = getattr(fa, "cat_rid", None)
                    if rid is None or n.op not in ("==", "!="):
                        raise HouseWayUnsupported(f"{where}: comparison with {b.value!r}")
                    ci = vec_ranking(self.table, rid).category_index(b.value)
                    return lambda e, fa=fa, ci=ci, op=op: op(fa(e), ci)
            lf, rf = self._expr(n.left, cand, where), self._expr(n.right, cand, where)
            return lambda e, lf=lf, rf=rf, op=op: op(lf(e), rf(e))
        if isinstance(n, BoolOp):
            fs = [self._expr(x, cand, where) for x in n.items]
            red = np.logical_and if n.op == "and" else np.logical_or

            def boolop(e, fs=fs, red=red):
                out = np.asarray(fs[0](e), dtype=bool)
                for f in fs[1:]:
                    out = red(out, f(e))
                return out
            return boolop
        if isinstance(n, Not):
            f = self._expr(n.item, cand, where)
            return lambda e, f=f: np.logical_not(f(e))
        if isinstance(n, Neg):
            f = self._expr(n.item, cand, where)
            return lambda e, f=f: np.negative(f(e))
        if isinstance(n, Call):
            a, name = n.args, n.name
            if name == "can":
                inner = self._expr(a[0], True, where)
                return lambda e, f=inner: (np.asarray(f(e), dtype=bool) & e.pool).any(1, keepdims=True)
            if name in ("hand", "best", "groups", "rank", "is_hand"):
                vr = vec_ranking(self.table, a[0].parts[0])
                cf = self._cards(a[1], cand, where)
                if name == "hand":
                    f = lambda e, cf=cf, vr=vr: vr.evaluate(cf(e))  # noqa: E731
                elif name == "best":
                    f = lambda e, cf=cf, vr=vr: vr.best(cf(e))  # noqa: E731
                elif name == "groups":
                    size = int(_lit(a[2].value))
                    return lambda e, cf=cf, vr=vr, k=size: vr.groups(cf(e), k)
                elif name == "rank":
                    return lambda e, cf=cf, vr=vr: vr.rank(cf(e))
                else:
                    hid = a[2].parts[0]
                    return lambda e, cf=cf, vr=vr, h=hid: vr.is_hand(cf(e), h)
                f.rid = vr.r.id
                return f
            if name in ("category", "category_rank"):
                inner = self._expr(a[0], cand, where)
                rid = getattr(inner, "rid", None)
                if rid is None:
                    raise HouseWayUnsupported(f"{where}: {name}() of a non-hand")
                vr = vec_ranking(self.table, rid)
                if name == "category":
                    f = lambda e, g=inner, vr=vr: vr.cat_index[g(e)]  # noqa: E731
                    f.cat_rid = rid
                    return f
                return lambda e, g=inner, vr=vr: -vr.cat_index[g(e)].astype(np.int32)
            if name == "at_least":
                inner = self._expr(a[1], cand, where)
                vr = vec_ranking(self.table, a[0].parts[0])
                cat = a[2].parts[0]
                rank = (a[3].parts[0] if isinstance(a[3], Ref) else str(a[3].value)) if len(a) > 3 else None
                return lambda e, g=inner, vr=vr: vr.at_least(g(e), cat, rank)
            raise HouseWayUnsupported(f"{where}: function {name}()")
        raise HouseWayUnsupported(f"{where}: expression {type(n).__name__}")

    # -- run --------------------------------------------------------------------------------
    BLOCK = 8192  # hands per pass: the intermediate arrays stay in the cache

    def choose(self, cards: np.ndarray) -> np.ndarray:
        """The setting played for each hand (M, n): an index into the candidate settings."""
        if cards.shape[0] > self.BLOCK:
            return np.concatenate([self._choose(cards[i:i + self.BLOCK])
                                   for i in range(0, cards.shape[0], self.BLOCK)])
        return self._choose(cards)

    def _choose(self, cards: np.ndarray) -> np.ndarray:
        M = cards.shape[0]
        C = len(self.lo_idx)
        e = _Env(cards, self.hi_idx, self.lo_idx)
        legal = np.ones((M, C), dtype=bool)
        if self.legal is not None:
            legal = legal_raw = np.broadcast_to(np.asarray(self.legal(e), dtype=bool), (M, C))
            legal = np.where(legal.any(1, keepdims=True), legal, True)
        e.pool = legal
        self._legal_of = (cards, legal_raw) if self.legal is not None else None
        undecided = np.ones(M, dtype=bool)
        chosen = np.zeros(M, dtype=np.intp)
        for r, when, crit in self.rules:
            if not undecided.any():
                break
            hit = undecided.copy()
            if when is not None:
                hit &= np.broadcast_to(np.asarray(when(e), dtype=bool), (M, 1))[:, 0]
            if not hit.any():
                continue
            pool = legal.copy()
            for kind, f, text in crit:
                open_ = pool.sum(1) > 1
                if not (open_ & hit).any():
                    break
                v = np.broadcast_to(f(e), (M, C))
                if kind == "keep":
                    kept = pool & np.asarray(v, dtype=bool)
                    bad = hit & open_ & ~kept.any(1)
                    if bad.any():
                        raise HouseWayUnsupported(f"the house way rule at {r.cite} keeps no setting ('keep: {text}')")
                    pool = np.where(open_[:, None], kept, pool)
                else:
                    v = v.astype(np.int64)
                    fill = np.iinfo(np.int64).min if kind == "max" else np.iinfo(np.int64).max
                    vv = np.where(pool, v, fill)
                    best = vv.max(1, keepdims=True) if kind == "max" else vv.min(1, keepdims=True)
                    pool = pool & (vv == best)
            chosen = np.where(hit, pool.argmax(1), chosen)
            undecided &= ~hit
        if undecided.any():
            raise HouseWayUnsupported(f"no rule of the house way {self.way.id!r} ({self.way.cite}) applies")
        return chosen

    def split(self, cards: np.ndarray):
        """(high, low) card arrays of the settings the house way plays."""
        ch = self.choose(cards)
        return (np.take_along_axis(cards, self.hi_idx[ch], 1), np.take_along_axis(cards, self.lo_idx[ch], 1), ch)

    def legal_settings(self, cards: np.ndarray) -> np.ndarray:
        """(M, C): the settings among which the player may choose (the legal ones; all if none is)."""
        if self.legal is None:
            return np.ones((len(cards), len(self.lo_idx)), dtype=bool)
        e = _Env(cards, self.hi_idx, self.lo_idx)
        lg = np.broadcast_to(np.asarray(self.legal(e), dtype=bool), (len(cards), len(self.lo_idx)))
        return np.where(lg.any(1, keepdims=True), lg, True)

    def is_legal(self, cards: np.ndarray, ch: np.ndarray) -> np.ndarray:
        if self.legal is None:
            return np.ones(len(cards), dtype=bool)
        last = getattr(self, "_legal_of", None)
        if last is not None and last[0] is cards:
            return last[1][np.arange(len(cards)), ch]
        e = _Env(cards, self.hi_idx, self.lo_idx)
        lg = np.broadcast_to(np.asarray(self.legal(e), dtype=bool), (len(cards), len(self.lo_idx)))
        return lg[np.arange(len(cards)), ch]
