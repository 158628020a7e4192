"""The fast path's expressions: each rule expression of the IR compiled to a function of the
:class:`~compiler.fast.state.State` (numpy arrays over tables and seats). A mixin of
:class:`compiler.fast.vector.FastGame`."""
from __future__ import annotations

import functools
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from compiler.fast.hands import vec_ranking
from compiler.fast.memo import memoised
from compiler.fast.state import OPEN, OWNERS, PUSH, WIN, State, Unsupported, _cents, _Zone, _zone_key
from compiler.lang.rules import Action, BinOp, BoolOp, Call, Lit, Neg, Not, Ref, source
from compiler.lang.syntax import ExprVisitor
from compiler.runtime.money import money, to_cents
from compiler.values.cards import rank_index


def _filled(z: np.ndarray) -> np.ndarray:
    """A zone dealt by several steps, as wide as its fullest hand (the cards are appended from the left)."""
    return z[..., :int((z >= 0).sum(-1).max(initial=0))]


def _suited(cards: np.ndarray) -> np.ndarray:
    """The engine's ``suited``: at least one card, no joker, all of one suit."""
    ok = cards >= 0
    suit = cards % 4
    one = np.where(ok, suit, 9).min(-1) == np.where(ok, suit, -1).max(-1)
    return ok.any(-1) & one & ~(ok & (cards >= 52)).any(-1)


def _arg_name(n, i: int) -> str:
    """The name argument ``i`` of the call ``n`` gives (a ranking, a wager, a category ...)."""
    return n.args[i].parts[0]


class ExpressionCompiler:
    """Compiles expressions, paytables and odds (needs ``game``, ``proto``, ``zone_cards``, ``ordinals``)."""

    def _vr(self, rid):
        if rid not in self.game.rankings:
            raise Unsupported(f"ranking {rid!r}")
        if self.game.rankings[rid].get("kind") == "points":  # hands.py tabulates hands ranked by pattern only
            raise Unsupported(f"ranking {rid!r} of kind points")
        return vec_ranking(self.proto, rid)

    def _cards(self, n, where, seat) -> Callable[[State], np.ndarray]:
        """A card expression: (K, S|1, n) card ids, -1 for none; ``a + b`` the cards of both, in order."""
        if isinstance(n, BinOp) and n.op == "+":
            lf, rf = self._cards(n.left, where, seat), self._cards(n.right, where, seat)

            def both(st, lf=lf, rf=rf):
                a, b = lf(st), rf(st)
                lead = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
                return np.concatenate([np.broadcast_to(a, lead + a.shape[-1:]),
                                       np.broadcast_to(b, lead + b.shape[-1:])], -1)
            return both
        if isinstance(n, Call) and n.name == "card":
            return self._card_cards(n, where, seat)
        if not isinstance(n, Ref) or n.parts[0] not in OWNERS:
            raise Unsupported(f"{where}: cards given as {source(n)!r} "
                              "(the fast path reads a zone of the player, the dealer or the community)")
        owner = n.parts[0]
        if owner == "player" and not seat:
            raise Unsupported(f"{where}: 'player' outside a player step")
        z = n.parts[1] if len(n.parts) > 1 else "cards"
        if (owner, z) in self.grown:
            return lambda st, k=(owner, z): _filled(st.zones[k])
        if (owner, z) in self.zone_cards:
            return lambda st, k=(owner, z): st.zones[k]
        if z != "cards":
            raise Unsupported(f"{where}: zone {owner}.{z} (not dealt)")

        def all_cards(st, owner=owner):
            zs = [_filled(st.zones[(owner, x)]) if (owner, x) in self.grown else st.zones[(owner, x)]
                  for x in st.order.get(owner, ())]
            if not zs:
                raise Unsupported(f"{where}: {owner}.cards before any deal")
            return zs[0] if len(zs) == 1 else np.concatenate(zs, -1)
        return all_cards

    def _is_money(self, n) -> bool:
        if isinstance(n, Call) and n.name == "wager":
            return True
        if isinstance(n, BinOp) and n.op in ("+", "-", "*"):
            return self._is_money(n.left) or self._is_money(n.right)
        return isinstance(n, Neg) and self._is_money(n.item)

    def _ordinal(self, rid: str) -> np.ndarray:
        """Order of the one-card hand values of ranking ``rid``, per card id (index 0: no card)."""
        o = self.ordinals.get(rid)
        if o is None:
            r = self.proto.ranking(rid)
            ids = sorted(set(self.proto.shoe.cards))
            vals = [(c, r.evaluate([c])) for c in ids]
            order = sorted(vals, key=functools.cmp_to_key(lambda a, b: (a[1] > b[1]) - (a[1] < b[1])))
            o = np.full(max(ids) + 2, -1, dtype=np.int32)
            rank, prev = 0, None
            for i, (c, v) in enumerate(order):
                if i and not (v == prev):
                    rank += 1
                o[c + 1] = rank
                prev = v
            self.ordinals[rid] = o
        return o

    def _expr(self, n, where: str, seat: bool) -> Callable[[State], Any]:
        """A function of the state: (K, S) arrays in a seat context, (K, 1) or scalars otherwise.
        Hand functions are computed once per round until a zone changes (``State.memo``)."""
        f = self._expr_raw(n, where, seat)
        if isinstance(n, Call) and n.name in ("hand", "best", "is_hand", "category", "at_least", "category_rank"):
            return memoised(f, (repr(n), seat))
        return f

    def _expr_raw(self, n, where: str, seat: bool) -> Callable[[State], Any]:
        return _VectorExpr(self, where, seat).visit(n)

    def _lit_expr(self, n, where: str):
        """A literal: a whole number (a fraction or decimal must be one), a string, a boolean."""
        v = n.value
        if isinstance(v, (Fraction, Decimal)):
            if v != int(v):
                raise Unsupported(f"{where}: literal {v} (not an integer)")
            v = int(v)
        return lambda st, v=v: v

    def _ref_expr(self, n, where: str, seat: bool):
        """A reference: an attribute of the round, or a zone of the player or the dealer."""
        owner = n.parts[0]
        attr = n.parts[1] if len(n.parts) > 1 else None
        if owner == "round" and attr in ("first_after_shuffle", "new_dealer", "number"):
            return lambda st, a=attr: getattr(st, a)
        if owner == "round" and attr in self.round_attrs:
            return lambda st, a=attr: st.attrs[a]
        if owner in OWNERS:
            if owner == "player" and not seat:
                raise Unsupported(f"{where}: 'player' outside a player step")
            key = (owner, attr or "cards")
            if key not in self.zone_cards:
                raise Unsupported(f"{where}: zone {owner}.{attr} (not dealt by one deal step)")
            return lambda st, z=_Zone(*key): z
        if owner == "state":
            return self._state_ref(attr, where, seat)
        if owner in ("dice", "pocket"):
            return self._chance_ref(owner, attr, where)
        raise Unsupported(f"{where}: reference {'.'.join(n.parts)}")

    def _call_expr(self, n, where: str, seat: bool):
        """A call of one of the language's functions the fast path computes."""
        name = n.name
        if name in ("points", "total", "soft", "natural", "bust") or (
                name == "hand" and self.game.rankings.get(_arg_name(n, 0), {}).get("kind") == "points"):
            return self._points_call(n, where, seat)
        if name in ("hand", "best", "category", "category_rank", "at_least", "is_hand", "count"):
            return self._hand_call(n, where, seat)
        if name in ("has", "placed", "wager", "flag", "chose", "active") and not seat:
            raise Unsupported(f"{where}: {name}() outside a player step")
        if name in ("has", "placed", "wager", "flag", "chose", "active", "option", "offered"):
            return self._state_call(n, where)
        if name == "suited":
            cf = self._cards(n.args[0], where, seat)
            return lambda st, cf=cf: _suited(cf(st))
        if name == "spread":
            return self._spread_call(n, where, seat)
        if name in ("hits", "matched", "picked") and not seat:
            raise Unsupported(f"{where}: {name}() outside a player step")
        if name in ("dice_count", "hits", "matched", "picked"):
            return self._chance_call(n, where)
        if name in ("any_player", "count_players"):
            inner = self._expr(n.args[0], where, True)
            if name == "any_player":
                return lambda st, f=inner: (np.asarray(f(st), dtype=bool) & st.in_round).any(1, keepdims=True)
            return lambda st, f=inner: (np.asarray(f(st), dtype=bool) & st.in_round).sum(1, keepdims=True)
        raise Unsupported(f"{where}: function {name}()")

    def _spread_call(self, n, where: str, seat: bool):
        """spread(R, a, b): the ranks of R's order strictly between the one card of a and that of b (the engine's
        ``Context.spread``; a row without a card of a rank of R gives 0, where the engine refuses the round)."""
        order = self.game.rankings.get(_arg_name(n, 0), {}).get("order")
        if not order:
            raise Unsupported(f"{where}: spread() of ranking {_arg_name(n, 0)!r}, which has no order of ranks")
        place = np.full(15, -1, dtype=np.int64)  # rank index (13: the joker, 14: no card) -> place in the order
        for i, symbol in enumerate(order):
            place[rank_index(str(symbol))] = i
        af, bf = self._cards(n.args[1], where, seat), self._cards(n.args[2], where, seat)

        def spread(st, af=af, bf=bf, place=place):
            a, b = (place[np.where(c.max(-1) >= 0, c.max(-1) // 4, 14)] for c in (af(st), bf(st)))
            return np.where((a >= 0) & (b >= 0), np.maximum(np.abs(a - b) - 1, 0), 0)
        return spread

    def _hand_call(self, n, where: str, seat: bool):
        """hand(), best(), category(), category_rank(), at_least(), is_hand(), count(): what cards hold."""
        a = n.args
        name = n.name
        if name in ("hand", "best"):
            vr = self._vr(_arg_name(n, 0))
            cf = self._cards(a[1], where, seat)
            if name == "hand" and _zone_key(a[1]) not in self.grown and \
                    self.zone_cards.get(_zone_key(a[1])) not in (None, vr.n):
                raise Unsupported(f"{where}: hand() of {self.zone_cards.get(_zone_key(a[1]))} cards, ranking "
                                  f"{vr.r.id!r} ranks {vr.n}")
            f = (lambda st, cf=cf, vr=vr: vr.evaluate(cf(st))) if name == "hand" else \
                (lambda st, cf=cf, vr=vr: vr.best(cf(st)))
            f.rid = vr.r.id
            return f
        if name in ("category", "category_rank"):
            inner = self._expr(a[0], where, seat)
            rid = getattr(inner, "rid", None)
            if rid is None:
                raise Unsupported(f"{where}: {name}() of a non-hand")
            vr = self._vr(rid)
            if name == "category":
                f = lambda st, g=inner, vr=vr: vr.cat_index[g(st)]  # noqa: E731
                f.cat_rid = rid
                return f
            return lambda st, g=inner, vr=vr: -vr.cat_index[g(st)].astype(np.int32)
        if name == "at_least":
            inner = self._expr(a[1], where, seat)
            vr = self._vr(_arg_name(n, 0))
            cat = _arg_name(n, 2)
            rank = (a[3].parts[0] if isinstance(a[3], Ref) else str(a[3].value)) if len(a) > 3 else None
            vr.at_least(np.zeros(1, dtype=np.int32), cat, rank)  # names checked now
            return lambda st, g=inner, vr=vr, c=cat, r=rank: vr.at_least(g(st), c, r)
        if name == "is_hand":
            vr = self._vr(_arg_name(n, 0))
            cf = self._cards(a[1], where, seat)
            hid = _arg_name(n, 2)
            return lambda st, cf=cf, vr=vr, h=hid: vr.is_hand(cf(st), h)
        cf = self._cards(a[0], where, seat)  # count()
        return lambda st, cf=cf: (cf(st) >= 0).sum(-1)

    def _state_call(self, n, where: str):
        """has(), placed(), wager(), flag(), chose(), active(), option(), offered(): what the round holds."""
        name = n.name
        if name == "has":
            w = _arg_name(n, 0)
            return lambda st, w=w: (st.amount[w] > 0) & (st.outcome[w] == OPEN)
        if name == "placed":
            w = _arg_name(n, 0)
            return lambda st, w=w: st.amount[w] > 0
        if name == "wager":
            w = _arg_name(n, 0)
            return lambda st, w=w: st.amount[w]
        if name == "flag":
            f = _arg_name(n, 0)
            return lambda st, f=f: st.flags.get(f, False)
        if name == "chose":
            d, c = _arg_name(n, 0), _arg_name(n, 1)
            ci = self._choice_index(d, c, where)
            return lambda st, d=d, ci=ci: st.choices[d] == ci if d in st.choices else False
        if name == "active":
            return lambda st: ~st.ended
        if name == "option":
            o = _arg_name(n, 0)
            return lambda st, o=o: st.options.get(o)
        w = _arg_name(n, 0)  # offered()
        return lambda st, w=w: st.offered[w]

    def _binop_expr(self, n, where: str, seat: bool):
        """A comparison or arithmetic: with a category's or an option's name, or of numbers (amounts in cents)."""
        for x, y in ((n.left, n.right), (n.right, n.left)):
            if isinstance(y, Lit) and isinstance(y.value, str):
                return self._label_compare(n, x, y, where, seat)
        if n.op in ("<", "<=", ">", ">=", "==", "!=", "+", "-"):
            n = self._in_cents(n, where)
        lf, rf = self._expr(n.left, where, seat), self._expr(n.right, where, seat)
        ops = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
               "==": np.equal, "!=": np.not_equal, "+": np.add, "-": np.subtract, "*": np.multiply}
        op = ops.get(n.op)
        if op is None:
            raise Unsupported(f"{where}: operator {n.op}")
        return lambda st, lf=lf, rf=rf, op=op: op(lf(st), rf(st))

    def _label_compare(self, n, x, y, where: str, seat: bool):
        """``x == 'NAME'`` / ``x != 'NAME'``: a hand's category by name, or an option's value."""
        fx = self._expr(x, where, seat)
        rid = getattr(fx, "cat_rid", None)
        if n.op not in ("==", "!="):
            raise Unsupported(f"{where}: comparison with {y.value!r}")
        if rid is None:  # an option's value (a scalar of the table)
            eq = n.op == "=="
            return lambda st, fx=fx, v=y.value, eq=eq: (fx(st) == v) == eq
        ci = self._vr(rid).category_index(y.value)
        op = np.equal if n.op == "==" else np.not_equal
        return lambda st, fx=fx, ci=ci, op=op: op(fx(st), ci)

    def _in_cents(self, n, where: str):
        """``n`` with a number compared with or added to an amount of money written in cents (amounts are
        cents on the fast path)."""
        for x, y in ((n.left, n.right), (n.right, n.left)):
            if self._is_money(x) and isinstance(y, Lit) and not isinstance(y.value, (str, bool)):
                c = money(y.value) * 100
                if c != int(c):
                    raise Unsupported(f"{where}: an amount of a fraction of a cent")
                y = Lit(line=y.line, column=y.column, value=int(c))
                return BinOp(line=n.line, column=n.column, op=n.op,
                             left=x if x is n.left else y, right=y if x is n.left else x)
        return n

    def _boolop_expr(self, n, where: str, seat: bool):
        """``and`` (stopping once false on every table and seat) / ``or``."""
        fs = [self._expr(x, where, seat) for x in n.items]
        if n.op == "and":
            def and_(st, fs=fs):  # pure operands: stop once false everywhere
                out = np.asarray(fs[0](st), dtype=bool)
                for f in fs[1:]:
                    if not out.any():
                        return out
                    out = np.logical_and(out, f(st))
                return out
            return and_
        return lambda st, fs=fs: functools.reduce(np.logical_or, [f(st) for f in fs])

    def _choice_index(self, decision, choice, where):
        for s in self.chapter.all_steps():
            if s.id == decision and s.kind == "decide":
                ids = [c.id for c in s.choices]
                if choice in ids:
                    return ids.index(choice)
        raise Unsupported(f"{where}: chose({decision}, {choice})")

    def _odds_of(self, a: Action, where: str):
        if a.odds is not None:
            return a.odds
        pid = a.payout or self.game.wagers[a.wager].pays
        if pid is None:
            raise Unsupported(f"{where}: wager {a.wager!r} has no payout")
        odds = self.proto.payout_odds(self.game.payouts[pid])
        if odds is None:
            raise Unsupported(f"{where}: payout {pid!r} is not priced")
        if odds.kind == "meter":
            raise Unsupported(f"{where}: a share of a progressive meter")
        return odds

    def _money_expr(self, n, where):
        """A stake expression: wager(w), or an integer times one (cents)."""
        if isinstance(n, Call) and n.name == "wager":
            return self._expr(n, where, True)
        if isinstance(n, BinOp) and n.op == "*":
            for x, y in ((n.left, n.right), (n.right, n.left)):
                if isinstance(x, Lit) and isinstance(x.value, (int, Fraction, Decimal)) and x.value == int(x.value):
                    f = self._money_expr(y, where)
                    return lambda st, f=f, k=int(x.value): f(st) * k
        raise Unsupported(f"{where}: stake expression (only wager(w) and N * wager(w))")


class _VectorExpr(ExprVisitor):
    """The fast path's reading of an expression: a vectorised ``State -> array`` per node, by the compiler's
    methods (a construct they do not model raises :class:`Unsupported`, naming it)."""

    def __init__(self, compiler: ExpressionCompiler, where: str, seat: bool):
        self.c, self.where, self.seat = compiler, where, seat

    def lit(self, n: Lit):
        return self.c._lit_expr(n, self.where)

    def ref(self, n: Ref):
        return self.c._ref_expr(n, self.where, self.seat)

    def call(self, n: Call):
        return self.c._call_expr(n, self.where, self.seat)

    def binop(self, n: BinOp):
        return self.c._binop_expr(n, self.where, self.seat)

    def boolop(self, n: BoolOp):
        return self.c._boolop_expr(n, self.where, self.seat)

    def not_(self, n: Not):
        f = self.c._expr(n.item, self.where, self.seat)
        return lambda st, f=f: np.logical_not(f(st))

    def neg(self, n: Neg):
        f = self.c._expr(n.item, self.where, self.seat)
        return lambda st, f=f: np.negative(f(st))
