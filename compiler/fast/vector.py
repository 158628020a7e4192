"""A chapter's procedure compiled from the IR into vectorised numpy operations over many tables.

Every table is an engine ``Table`` shoe (same seed, same shuffle and cut, same reshuffle marker);
a round is played for all tables at once: each step of the procedure becomes a few array
operations over (tables, seats), each rule's ``when`` a boolean mask, each action a masked update
of integer-cent arrays.  Money is computed with the engine's own functions
(``Odds.payout``, ``to_cents``) on the few distinct stakes, so every cent matches the engine.

What is compiled (anything else raises :class:`Unsupported` naming the step and its §, and the
caller falls back to the engine):

* steps ``announce``, ``reveal`` (no effect without a log), ``burn``, ``deal`` to players, the
  dealer or ``positions`` (every position and the dealer, from a starting position counted by
  ``start``), ``roll`` (the table's own random words), ``collect_unwagered``, ``set_hands`` (the
  house way compiled to numpy: compiler/fast/houseway.py), ``settle``, ``decide`` (a fixed
  preference order, as ``FixedStrategy``), ``offer`` (fixed amounts), ``envy``, ``block``;
* expressions: literals, ``round.*``, ``hand``, ``best``, ``category``, ``category_rank``,
  ``at_least``, ``is_hand`` (compiler/fast/hands.py, built from the engine's rankings), ``has``,
  ``placed``, ``wager`` (amounts in dollars compared in cents), ``flag``, ``chose``, ``option``,
  ``offered``, ``active``, ``count``, ``any_player``, ``count_players``; comparisons, ``and``,
  ``or``, ``not``, ``+ - *``;
* actions: ``win`` (payout, odds, paytable rows; not meters), ``lose``, ``push``, ``return``,
  ``surrender``, ``place``, ``set``, ``clear``, ``end``, ``note``;
* reshuffle at the cover card or after every round, as the engine (every table's shoe shuffled at
  once, word for word as ``random.shuffle``: :class:`_MTShoes`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from compiler.fast.memo import memoised
from compiler.lang.rules import Action, BinOp, BoolOp, Call, Lit, Neg, Not, Ref
from compiler.runtime.engine import Table
from compiler.runtime.money import money, to_cents
from compiler.runtime.shoe import Shoe

OPEN, WIN, LOSE, PUSH, VOID, SURRENDER = 0, 1, 2, 3, 4, 5
OUTCOMES = {WIN: "win", LOSE: "lose", PUSH: "push", VOID: "void", SURRENDER: "surrender"}


class Unsupported(Exception):
    """The fast path cannot play this chapter (the reason names the step or rule and its §)."""


# ---------------------------------------------------------------------------------------------
# State of K tables x S seats during one round
# ---------------------------------------------------------------------------------------------


@dataclass
class State:
    K: int
    S: int
    shoe: np.ndarray                     # (K, N) card ids
    idx: np.ndarray                      # (K,) next card
    in_round: np.ndarray                 # (K, S) seats playing this round
    live: np.ndarray                     # (K, 1) the round goes on at this table
    options: dict
    offered: dict
    ended: np.ndarray = None
    zones: dict = field(default_factory=dict)     # (owner, zone) -> (K, S|1, n)
    amount: dict = field(default_factory=dict)    # wager -> (K, S) cents (0: not placed)
    outcome: dict = field(default_factory=dict)   # wager -> (K, S) OPEN...
    net: dict = field(default_factory=dict)       # wager -> (K, S) cents
    flags: dict = field(default_factory=dict)
    choices: dict = field(default_factory=dict)
    first_after_shuffle: np.ndarray = None        # (K, 1)
    new_dealer: np.ndarray = None
    number: np.ndarray = None
    attrs: dict = field(default_factory=dict)     # round.roll ... -> (K, 1)
    order: dict = field(default_factory=dict)     # owner -> zone names in the order dealt (engine's dicts)
    bonuses: list = field(default_factory=list)   # (wager, mask (K, S), stake cents, net cents)
    rolls: Any = None
    memo: dict = field(default_factory=dict)


@dataclass(frozen=True)
class _Zone:
    owner: str
    zone: str


def _cents(d: Decimal) -> int:
    q = d * 100
    if q != q.to_integral_value():
        raise Unsupported(f"amount {d} is not a whole number of cents")
    return int(q)


@functools.lru_cache(maxsize=8)
def _plan(n: int) -> list[tuple[int, int, int]]:
    """Fisher-Yates as CPython's random.shuffle: (position, bound, shift of getrandbits)."""
    return [(b - 1, b, 32 - b.bit_length()) for b in range(n, 1, -1)]


class _MTShoes:
    """The shoes of many tables shuffled exactly as ``compiler.runtime.shoe.Shoe.shuffle`` does with
    each table's ``random.Random`` (Mersenne Twister), all at once: each generator's state goes to
    numpy's MT19937, whose raw 32-bit words are the words CPython draws, kept in a row of ``buf``;
    ``shuffle``, the cut and ``randint`` are replayed word for word (CPython's
    ``_randbelow_with_getrandbits``: ``getrandbits(k)`` is the word shifted right by 32 - k, redrawn
    while not below the bound), one numpy operation per position for every table (a rejected word
    redraws only on the tables that drew it). The engine tests compare every card dealt."""

    def __init__(self, seeds, proto_shoe, W: int = 4096):
        import random

        from compiler.runtime.cards import build_pack

        self.K = len(seeds)
        self.gens = []
        for seed in seeds:
            state = random.Random(seed).getstate()[1]
            g = np.random.MT19937()
            g.state = {"bit_generator": "MT19937",
                       "state": {"key": np.array(state[:624], dtype=np.uint32), "pos": state[624]}}
            self.gens.append(g)
        self.pack = np.array(build_pack(proto_shoe.decks, proto_shoe.deck), dtype=np.int32)
        n = len(self.pack)
        self.plan = _plan(n)
        k = proto_shoe.cut_rule.min_from_edge
        self.cut = (k, n - 2 * k + 1, 32 - (n - 2 * k + 1).bit_length()) if k and n > 2 * k else None
        self.W = max(W, 8 * n + 256)
        self.buf = np.stack([g.random_raw(self.W).astype(np.int64) for g in self.gens])
        self.bi = np.zeros(self.K, dtype=np.int64)
        self.need = 2 * n + 64

    def _refill(self, rows: np.ndarray) -> None:
        for k in rows.tolist():
            rest = self.buf[k, self.bi[k]:]
            self.buf[k, :len(rest)] = rest
            self.buf[k, len(rest):] = self.gens[k].random_raw(self.W - len(rest))
            self.bi[k] = 0

    def _draw(self, rows: np.ndarray, bound: int, sh: int) -> np.ndarray:
        """``_randbelow(bound)`` on the tables ``rows``."""
        if (self.bi[rows] >= self.W - 1).any():
            self._refill(rows[self.bi[rows] >= self.W - 1])
        j = self.buf[rows, self.bi[rows]] >> sh
        self.bi[rows] += 1
        bad = j >= bound
        while bad.any():
            rr = rows[bad]
            if (self.bi[rr] >= self.W - 1).any():
                self._refill(rr[self.bi[rr] >= self.W - 1])
            j[bad] = self.buf[rr, self.bi[rr]] >> sh
            self.bi[rr] += 1
            bad = j >= bound
        return j

    def shuffle(self, rows: np.ndarray) -> np.ndarray:
        """New shoes (len(rows), n) for the tables ``rows`` (as Shoe.shuffle)."""
        rows = np.asarray(rows, dtype=np.intp)
        low = rows[self.W - self.bi[rows] < self.need]
        if len(low):
            self._refill(low)
        x = np.broadcast_to(self.pack, (len(rows), len(self.pack))).copy()
        ar = np.arange(len(rows))
        for i, b, sh in self.plan:
            j = self._draw(rows, b, sh)
            xi = x[:, i].copy()
            x[:, i] = x[ar, j]
            x[ar, j] = xi
        if self.cut is not None:
            k, b, sh = self.cut
            c = k + self._draw(rows, b, sh)
            n = x.shape[1]
            x = np.take_along_axis(x, (c[:, None] + np.arange(n)[None, :]) % n, 1)
        return x

    def randint(self, sides: int, rows: np.ndarray) -> np.ndarray:
        return 1 + self._draw(np.asarray(rows, dtype=np.intp), sides, 32 - sides.bit_length())


class _Money:
    """Per distinct stake, the engine's own arithmetic (cached): net of a win, amount surrendered."""

    def __init__(self):
        self.cache: dict = {}

    def apply(self, key, fn: Callable[[int], int], stakes: np.ndarray) -> np.ndarray:
        lo, hi = stakes.min(), stakes.max()
        if lo == hi:  # one stake (the usual case): one value
            k = (key, int(lo))
            v = self.cache.get(k)
            if v is None:
                v = self.cache[k] = fn(int(lo))
            return np.full(stakes.shape, v, dtype=np.int64)
        uniq, inv = np.unique(stakes, return_inverse=True)
        vals = []
        for u in uniq.tolist():
            k = (key, u)
            v = self.cache.get(k)
            if v is None:
                v = self.cache[k] = fn(u)
            vals.append(v)
        return np.asarray(vals, dtype=np.int64)[inv]


class FastGame:
    """A compiled procedure; :meth:`play` runs rounds on tables seeded like the engine's."""

    def __init__(self, chapter, game, options, bets=None):
        self.chapter, self.game = chapter, game
        self.options = {**game.defaults(), **dict(options or {})}
        self.proto = Table(game, self.options, seed=0)
        self.money = _Money()
        self.zone_cards: dict[tuple, int] = {}
        self.ordinals: dict[str, np.ndarray] = {}
        self.wagers = list(game.wagers)
        cd = game.cards
        if cd.reshuffle not in ("cover_card", "every_round"):
            raise Unsupported(f"reshuffle rule {cd.reshuffle!r}")
        if not chapter.procedure:
            raise Unsupported("a chapter without a procedure")
        self._zones(chapter.procedure)
        self.round_attrs = {"roll"} if any(x.kind == "roll" for x in chapter.all_steps()) else set()
        self.steps = [self._step(s) for s in chapter.procedure]
        for w in bets or ():
            self._plain(w)

    # -- compile ----------------------------------------------------------------------------
    def _zones(self, steps):
        for s in steps:
            p = dict(s.params)
            keys = []
            if s.kind == "deal":
                to = p.get("to", "players")
                z = p.get("zone", "cards")
                if to == "positions":
                    keys = [("player", z, int(p.get("count", 1))), ("dealer", z, int(p.get("count", 1)))]
                elif to in ("players", "dealer"):
                    keys = [("player" if to == "players" else "dealer", z, int(p.get("count", 1)))]
                else:
                    raise Unsupported(f"step {s.id!r} ({s.cite}): deal to {to!r}")
            elif s.kind == "set_hands":
                owner = "dealer" if p.get("to", "players") == "dealer" else "player"
                keys = [(owner, "high", int(p["high"])), (owner, "low", int(p["low"]))]
            for owner, z, n in keys:
                if self.zone_cards.get((owner, z), n) != n:  # alternative steps (blocks) deal the same size
                    raise Unsupported(f"step {s.id!r} ({s.cite}): zone {z!r} dealt by two steps of different sizes")
                self.zone_cards[(owner, z)] = n
            self._zones(s.steps)

    def _vr(self, rid):
        from compiler.fast.hands import vec_ranking

        if rid not in self.game.rankings:
            raise Unsupported(f"ranking {rid!r}")
        return vec_ranking(self.proto, rid)

    def _cards(self, n, where, seat) -> Callable[[State], np.ndarray]:
        """A card expression: (K, S|1, n) card ids, -1 for none."""
        if not isinstance(n, Ref) or n.parts[0] not in ("player", "dealer"):
            raise Unsupported(f"{where}: cards {n!r}")
        owner = n.parts[0]
        if owner == "player" and not seat:
            raise Unsupported(f"{where}: 'player' outside a player step")
        z = n.parts[1] if len(n.parts) > 1 else "cards"
        if (owner, z) in self.zone_cards:
            return lambda st, k=(owner, z): st.zones[k]
        if z != "cards":
            raise Unsupported(f"{where}: zone {owner}.{z} (not dealt)")

        def all_cards(st, owner=owner):
            zs = [st.zones[(owner, x)] for x in st.order.get(owner, ())]
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
        if isinstance(n, Lit):
            v = n.value
            if isinstance(v, (Fraction, Decimal)):
                if v != int(v):
                    raise Unsupported(f"{where}: literal {v} (not an integer)")
                v = int(v)
            return lambda st, v=v: v
        if isinstance(n, Ref):
            owner = n.parts[0]
            attr = n.parts[1] if len(n.parts) > 1 else None
            if owner == "round" and attr in ("first_after_shuffle", "new_dealer", "number"):
                return lambda st, a=attr: getattr(st, a)
            if owner == "round" and attr in self.round_attrs:
                return lambda st, a=attr: st.attrs[a]
            if owner in ("player", "dealer"):
                if owner == "player" and not seat:
                    raise Unsupported(f"{where}: 'player' outside a player step")
                key = (owner, attr or "cards")
                if key not in self.zone_cards:
                    raise Unsupported(f"{where}: zone {owner}.{attr} (not dealt by one deal step)")
                return lambda st, z=_Zone(*key): z
            raise Unsupported(f"{where}: reference {'.'.join(n.parts)}")
        if isinstance(n, Call):
            a = n.args
            name = n.name

            def ident(i):
                return a[i].parts[0]

            if name in ("hand", "best"):
                vr = self._vr(ident(0))
                cf = self._cards(a[1], where, seat)
                if name == "hand" and self.zone_cards.get(_zone_key(a[1])) not in (None, vr.n):
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
                vr = self._vr(ident(0))
                cat = ident(2)
                rank = (a[3].parts[0] if isinstance(a[3], Ref) else str(a[3].value)) if len(a) > 3 else None
                vr.at_least(np.zeros(1, dtype=np.int32), cat, rank)  # names checked now
                return lambda st, g=inner, vr=vr, c=cat, r=rank: vr.at_least(g(st), c, r)
            if name == "is_hand":
                vr = self._vr(ident(0))
                cf = self._cards(a[1], where, seat)
                hid = ident(2)
                return lambda st, cf=cf, vr=vr, h=hid: vr.is_hand(cf(st), h)
            if name == "count":
                cf = self._cards(a[0], where, seat)
                return lambda st, cf=cf: (cf(st) >= 0).sum(-1)
            if name in ("has", "placed", "wager", "flag", "chose", "active") and not seat:
                raise Unsupported(f"{where}: {name}() outside a player step")
            if name == "has":
                w = ident(0)
                return lambda st, w=w: (st.amount[w] > 0) & (st.outcome[w] == OPEN)
            if name == "placed":
                w = ident(0)
                return lambda st, w=w: st.amount[w] > 0
            if name == "wager":
                w = ident(0)
                return lambda st, w=w: st.amount[w]
            if name == "flag":
                f = ident(0)
                return lambda st, f=f: st.flags.get(f, False)
            if name == "chose":
                d, c = ident(0), ident(1)
                ci = self._choice_index(d, c, where)
                return lambda st, d=d, ci=ci: st.choices[d] == ci if d in st.choices else False
            if name == "active":
                return lambda st: ~st.ended
            if name == "option":
                o = ident(0)
                return lambda st, o=o: st.options.get(o)
            if name == "offered":
                w = ident(0)
                return lambda st, w=w: st.offered[w]
            if name in ("any_player", "count_players"):
                inner = self._expr(a[0], where, True)
                if name == "any_player":
                    return lambda st, f=inner: (np.asarray(f(st), dtype=bool) & st.in_round).any(1, keepdims=True)
                return lambda st, f=inner: (np.asarray(f(st), dtype=bool) & st.in_round).sum(1, keepdims=True)
            raise Unsupported(f"{where}: function {name}()")
        if isinstance(n, BinOp):
            for x, y in ((n.left, n.right), (n.right, n.left)):
                if isinstance(y, Lit) and isinstance(y.value, str):
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
            if n.op in ("<", "<=", ">", ">=", "==", "!=", "+", "-"):
                for x, y in ((n.left, n.right), (n.right, n.left)):
                    if self._is_money(x) and isinstance(y, Lit) and not isinstance(y.value, (str, bool)):
                        c = money(y.value) * 100
                        if c != int(c):
                            raise Unsupported(f"{where}: an amount of a fraction of a cent")
                        y = Lit(line=y.line, column=y.column, value=int(c))
                        n = BinOp(line=n.line, column=n.column, op=n.op,
                                  left=x if x is n.left else y, right=y if x is n.left else x)
                        break
            lf, rf = self._expr(n.left, where, seat), self._expr(n.right, where, seat)
            ops = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
                   "==": np.equal, "!=": np.not_equal, "+": np.add, "-": np.subtract, "*": np.multiply}
            op = ops.get(n.op)
            if op is None:
                raise Unsupported(f"{where}: operator {n.op}")
            return lambda st, lf=lf, rf=rf, op=op: op(lf(st), rf(st))
        if isinstance(n, BoolOp):
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
        if isinstance(n, Not):
            f = self._expr(n.item, where, seat)
            return lambda st, f=f: np.logical_not(f(st))
        if isinstance(n, Neg):
            f = self._expr(n.item, where, seat)
            return lambda st, f=f: np.negative(f(st))
        raise Unsupported(f"{where}: expression {type(n).__name__}")

    def _choice_index(self, decision, choice, where):
        for s in self.chapter.all_steps():
            if s.id == decision and s.kind == "decide":
                ids = [c.id for c in s.choices]
                if choice in ids:
                    return ids.index(choice)
        raise Unsupported(f"{where}: chose({decision}, {choice})")

    def _paytable(self, w, a: Action, where: str):
        """``win W by PT on CARDS``: the first row the cards meet (the engine's paytable_odds)."""
        pid = a.paytable
        pt = self.game.paytables[pid]
        if pt.amounts:
            raise Unsupported(f"{where}: paytable {pid!r} with schedules per amount")
        col = 0
        if pt.option is not None:
            sel = self.options.get(pt.option)
            if sel not in pt.columns:
                raise Unsupported(f"{where}: paytable {pid!r}: no column selected")
            col = pt.columns.index(sel)
        if not pt.ranking:
            raise Unsupported(f"{where}: paytable {pid!r} names no ranking")
        vr = self._vr(pt.ranking)
        cf = self._cards(a.value, where, True) if a.value is not None else None
        if cf is None:
            raise Unsupported(f"{where}: a paytable win without the cards")
        rows = []
        for i, (hand, odds, label) in enumerate(pt.rows):
            o = odds[col]
            if o.kind == "meter":
                if not self.proto.offered(w):  # never placed at this table: the rule cannot fire
                    return lambda st, m: None
                raise Unsupported(f"{where}: a share of a progressive meter ({pt.cite})")
            rows.append((hand, o, (lambda c, o=o: _cents(to_cents(o.payout(Decimal(c) / 100))[0]))))

        def settle_pt(st, m, w=w, pid=pid, col=col):
            t = m & (st.amount[w] > 0) & (st.outcome[w] == OPEN)
            if not t.any():
                return
            cards = cf(st)
            cards = np.broadcast_to(cards, t.shape + cards.shape[-1:])[t]
            row = np.full(len(cards), -1)
            for i, (hand, o, fn) in enumerate(rows):
                hit = (row < 0) & vr.is_hand(cards, hand)
                row[hit] = i
            if (row < 0).any():
                raise RuntimeError(f"no row of paytable {pid!r} matches a hand ({where})")
            stakes = st.amount[w][t]
            net = np.zeros(len(cards), dtype=np.int64)
            code = np.zeros(len(cards), dtype=np.int8)
            for i, (hand, o, fn) in enumerate(rows):
                r = row == i
                if r.any():
                    net[r] = self.money.apply(("pt", pid, col, i), fn, stakes[r])
                    code[r] = PUSH if o.kind == "push" else WIN
            st.net[w][t] = net
            st.outcome[w][t] = code
        return settle_pt

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

    def _actions(self, actions, where: str) -> Callable[[State, np.ndarray], None]:
        ops = []
        for a in actions:
            k = a.kind
            targets = self.wagers if a.wager == "*" else [a.wager]
            if k == "win" and a.paytable is not None:
                for w in targets:
                    ops.append(self._paytable(w, a, where))
            elif k == "win":
                for w in targets:
                    odds = self._odds_of(Action("win", wager=w, payout=a.payout, odds=a.odds,
                                                paytable=a.paytable), where)
                    code = PUSH if odds.kind == "push" else WIN
                    fn = (lambda c, o=odds: _cents(to_cents(o.payout(Decimal(c) / 100))[0]))
                    ops.append(functools.partial(self._settle, w, code, ("win", odds), fn))
            elif k in ("lose", "push", "return"):
                code = {"lose": LOSE, "push": PUSH, "return": VOID}[k]
                for w in targets:
                    fn = (lambda c: -c) if k == "lose" else (lambda c: 0)
                    ops.append(functools.partial(self._settle, w, code, (k,), fn))
            elif k == "surrender":
                frac = a.fraction
                for w in targets:
                    fn = (lambda c, f=frac: -_cents(to_cents(Decimal(c) / 100 * money(f))[0]))
                    ops.append(functools.partial(self._settle, w, SURRENDER, ("surrender", frac), fn))
            elif k == "place":
                if a.wager == "*":
                    raise Unsupported(f"{where}: place *")
                self._plain(a.wager)
                vf = self._money_expr(a.value, where)
                ops.append(functools.partial(self._place, a.wager, vf))
            elif k in ("set", "clear"):
                ops.append(functools.partial(self._flag, a.name, k == "set"))
            elif k == "end":
                ops.append(self._end)
            elif k == "note":
                continue
            else:
                raise Unsupported(f"{where}: action {k!r}")

        def run(st, m, ops=ops):
            for op in ops:
                op(st, m)
        return run

    def _plain(self, wid: str) -> None:
        wd = self.game.wagers[wid]
        if wd.progressive:
            raise Unsupported(f"the {wd.name} (a progressive meter, {wd.cite})")

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

    def _settle(self, w, code, key, fn, st, m):
        t = m & (st.amount[w] > 0) & (st.outcome[w] == OPEN)
        if not t.any():
            return
        st.net[w][t] = self.money.apply(key, fn, st.amount[w][t])
        st.outcome[w][t] = code

    def _place(self, w, vf, st, m):
        v = np.broadcast_to(vf(st), m.shape)
        t = m & (v > 0)
        if not t.any():
            return
        if ((st.amount[w] > 0) & t).any():
            raise Unsupported(f"wager {w!r} placed twice in one round")
        st.amount[w][t] = v[t]
        st.outcome[w][t] = OPEN
        st.net[w][t] = 0

    def _flag(self, name, on, st, m):
        cur = st.flags.get(name)
        if cur is None or cur is False:
            cur = st.flags[name] = np.zeros((st.K, st.S), dtype=bool)
        if on:
            cur |= m
        else:
            cur &= ~m

    def _end(self, st, m):
        st.ended |= m

    def _step(self, s) -> Callable[[State, Any], None]:
        where = f"step {s.id!r} ({s.cite})"
        p = dict(s.params)
        when = self._expr(s.when, where, False) if s.when is not None else None
        players = self._expr(s.players, where, True) if s.players is not None else None
        k = s.kind

        def gate(st):
            if when is None:
                return st.live
            return st.live & np.asarray(when(st), dtype=bool)

        def seats(st):
            m = gate(st) & st.in_round & ~st.ended
            if players is not None:
                m = m & np.asarray(players(st), dtype=bool)
            return m

        if k in ("announce", "reveal", "collect_unwagered"):
            return lambda st, strat: None
        if k == "roll":
            dice, numbers = p.get("dice"), p.get("numbers")
            sides, cnt = (6, int(dice)) if dice else (int(numbers), 1)

            def roll(st, strat):
                g = gate(st)[:, 0]
                v = st.attrs.get("roll")
                v = np.zeros((st.K, 1), dtype=np.int64) if v is None else v.copy()
                rows = np.flatnonzero(g)
                if len(rows):
                    v[rows, 0] = sum(st.rolls.randint(sides, rows) for _ in range(cnt))
                st.attrs["roll"] = v
            return roll
        if k == "deal" and p.get("to") == "positions":
            return self._deal_positions(s, p, gate, where)
        if k == "set_hands":
            return self._set_hands(s, p, gate, seats, where)
        if k == "envy":
            return self._envy(s, p, gate, seats, where)
        if k == "burn":
            n = int(p.get("count", 1))

            def burn(st, strat):
                st.idx += n * gate(st)[:, 0]
            return burn
        if k == "deal":
            to = p.get("to", "players")
            n = int(p.get("count", 1))
            if to == "players":
                key = ("player", p.get("zone", "cards"))
                stack, ccw = bool(p.get("stack")), s.order == "counterclockwise"

                def deal_players(st, strat):
                    m = seats(st)
                    cnt = m.sum(1)
                    mm = m[:, ::-1] if ccw else m
                    rank = np.cumsum(mm, 1) - 1
                    if ccw:
                        rank = rank[:, ::-1]
                    j = np.arange(n)[None, None, :]
                    base = st.idx[:, None, None]
                    pos = (base + rank[..., None] * n + j) if stack else (base + j * cnt[:, None, None] + rank[..., None])
                    pos = np.where(m[..., None], pos, 0)
                    if (pos >= st.shoe.shape[1]).any():
                        raise RuntimeError("the shoe is empty")
                    cards = np.take_along_axis(st.shoe, pos.reshape(st.K, -1), 1).reshape(pos.shape)
                    st.zones[key] = np.where(m[..., None], cards, -1)
                    _order(st, key)
                    st.idx += cnt * n
                return deal_players
            key = ("dealer", p.get("zone", "cards"))

            def deal_dealer(st, strat):
                g = gate(st)[:, 0]
                pos = st.idx[:, None] + np.arange(n)[None, :]
                pos = np.where(g[:, None], pos, 0)
                if (pos >= st.shoe.shape[1]).any():
                    raise RuntimeError("the shoe is empty")
                cards = np.take_along_axis(st.shoe, pos, 1)
                st.zones[key] = np.where(g[:, None], cards, -1)[:, None, :]
                _order(st, key)
                st.idx += n * g
            return deal_dealer
        if k == "settle":
            rules = [(self._expr(r.when, f"rule at {r.cite}", True) if r.when is not None else None,
                      self._actions(r.then, f"rule at {r.cite}")) for r in s.rules]

            def settle(st, strat):
                m = seats(st)
                if not m.any():
                    return
                for w, then in rules:
                    mm = m if w is None else m & np.asarray(w(st), dtype=bool)
                    if mm.any():
                        then(st, mm)
            return settle
        if k == "decide":
            choices = [(c.id, self._expr(c.when, f"choice {c.id!r} ({c.cite})", True) if c.when is not None else None,
                        self._actions(c.then, f"choice {c.id!r} ({c.cite})")) for c in s.choices]
            ids = [c[0] for c in choices]

            def decide(st, strat):
                m = seats(st)
                avail = [m & (np.asarray(w(st), dtype=bool) if w is not None else True) for _, w, _ in choices]
                chosen = np.full(m.shape, -1, dtype=np.int16)
                for pref in list(strat) + ids:  # the first preferred choice available, else the first
                    if pref in ids:
                        ci = ids.index(pref)
                        chosen = np.where((chosen < 0) & avail[ci], ci, chosen)
                prev = st.choices.get(s.id)
                st.choices[s.id] = chosen if prev is None else np.where(chosen >= 0, chosen, prev)
                for ci, (_, _, then) in enumerate(choices):
                    mm = chosen == ci
                    if mm.any():
                        then(st, mm)
            return decide
        if k == "offer":
            w = p["wager"]
            eq = p.get("equal_to")

            def offer(st, strat, w=w):
                if not st.offered[w]:
                    return
                amt = strat.offers.get(w, 0) if hasattr(strat, "offers") else 0
                if amt and eq is not None:
                    m = seats(st)
                    if (m & (st.amount[eq] != amt)).any():
                        raise Unsupported(f"{where}: the {w} must equal the {eq} (a refused offer)")
                if amt:
                    self._place(w, lambda st, a=amt: a, st, seats(st))
            return offer
        if k == "block":
            subs = [self._step(x) for x in s.steps]

            def block(st, strat):
                saved = st.live
                st.live = gate(st)
                try:
                    for sub in subs:
                        if not st.live.any():
                            break
                        sub(st, strat)
                        _stop(st)
                finally:
                    st.live = saved & ~_all_ended(st)
            return block
        raise Unsupported(f"{where}: step kind {k!r}")

    def _deal_positions(self, s, p, gate, where):
        """``deal to positions``: every position, wagered or not, and the dealer, from the starting
        position counted by ``start`` from the dealer as one (compiler.runtime.paigow.deal_positions)."""
        zone, n = p.get("zone", "cards"), int(p.get("count", 1))
        npos = self.game.max_positions
        start = dict((k, v) for k, v, _ in s.exprs).get("start")
        sf = self._expr(start, where, False) if start is not None else None
        ccw = p.get("count_order", "counterclockwise") == "counterclockwise"
        # counted from the dealer: dealer, then positions in count order; cycle index: position p -> p-1,
        # dealer -> npos
        counted = np.array([npos] + ([q - 1 for q in range(npos, 0, -1)] if ccw else list(range(npos))))
        stack = bool(p.get("stack"))
        pkey, dkey = ("player", zone), ("dealer", zone)

        def deal_positions(st, strat):
            g = gate(st)[:, 0]
            if sf is None:
                first = np.zeros(st.K, dtype=np.int64)
            else:
                k = np.broadcast_to(np.asarray(sf(st)), (st.K, 1))[:, 0].astype(np.int64)
                if (g & (k < 1)).any():
                    raise RuntimeError(f"{where}: no count for the starting position")
                first = counted[(k - 1) % (npos + 1)]
            tgt = np.arange(npos + 1)[None, :]                  # cycle index of each target
            o = (tgt - first[:, None]) % (npos + 1)            # its place in the deal order
            j = np.arange(n)[None, None, :]
            pos = (st.idx[:, None, None] + o[..., None] * n + j) if stack else \
                (st.idx[:, None, None] + j * (npos + 1) + o[..., None])
            pos = np.where(g[:, None, None], pos, 0)
            if (pos >= st.shoe.shape[1]).any():
                raise RuntimeError("the shoe is empty")
            cards = np.take_along_axis(st.shoe, pos.reshape(st.K, -1), 1).reshape(pos.shape)
            pl = cards[:, :st.S, :]
            st.zones[pkey] = np.where((st.in_round & g[:, None])[..., None], pl, -1)
            st.zones[dkey] = np.where(g[:, None], cards[:, npos, :], -1)[:, None, :]
            _order(st, pkey)
            _order(st, dkey)
            st.idx += n * (npos + 1) * g
        if self.proto.game.max_positions < 1:
            raise Unsupported(f"{where}: no positions")
        return deal_positions

    def _set_hands(self, s, p, gate, seats, where):
        from compiler.fast.houseway import CompiledHouseWay, HouseWayUnsupported

        zone = p.get("zone", "hand")
        hn, ln = int(p["high"]), int(p["low"])
        to_dealer = p.get("to", "players") == "dealer"
        if p.get("house_way_option") and self.options.get(p["house_way_option"]) not in (None, ""):
            raise Unsupported(f"{where}: a house way given by option {p['house_way_option']!r}")
        hid = p.get("house_way")
        way = next((h for h in self.chapter.house_ways if h.id == hid), None)
        if way is None:
            opt = p.get("house_way_option")
            raise Unsupported(f"{where}: " + (f"a house way given by option {opt!r} (Rules Submission data)" if opt
                                              else "no house way"))
        legal = dict((k, v) for k, v, _ in s.exprs).get("legal")
        try:
            chw = CompiledHouseWay(self.proto, way, hn + ln, ln, legal)
        except HouseWayUnsupported as e:
            raise Unsupported(f"{where}: {e}") from None
        owner = "dealer" if to_dealer else "player"
        src, hk, lk = (owner, zone), (owner, "high"), (owner, "low")
        flag = p.get("flag")
        # larger_first orders one player's positions (§ 670a.7(f)); the fast path plays one player
        # per position, where the order does not change a setting

        def set_hands(st, strat):
            m = gate(st) if to_dealer else seats(st)
            cards = st.zones[src]
            mm = m & (cards >= 0).all(-1)
            if (m & ~mm).any():
                raise RuntimeError(f"{where}: a hand to set is not complete")
            hi = np.full(cards.shape[:-1] + (hn,), -1, dtype=cards.dtype)
            lo = np.full(cards.shape[:-1] + (ln,), -1, dtype=cards.dtype)
            if mm.any():
                cm = cards[mm]
                try:
                    h, l_, ch = chw.split(cm)
                except HouseWayUnsupported as e:
                    raise RuntimeError(f"{where}: {e}") from None
                hi[mm], lo[mm] = h, l_
                if flag and not to_dealer:
                    bad = ~chw.is_legal(cm, ch)
                    if bad.any():
                        fm = np.zeros(mm.shape, dtype=bool)
                        fm[mm] = bad
                        self._flag(flag, True, st, fm)
            keep = ~np.broadcast_to(m, cards.shape[:-1])[..., None]
            st.zones[src] = np.where(keep, cards, -1)  # the engine pops the zone of the set hands
            if (np.broadcast_to(~m, cards.shape[:-1]) & (cards >= 0).any(-1)).any():
                raise Unsupported(f"{where}: some hands set, others holding cards not")
            st.order[owner] = [z for z in st.order.get(owner, []) if z != zone]
            st.zones[hk], st.zones[lk] = hi, lo
            _order(st, hk)
            _order(st, lk)
        return set_hands

    def _envy(self, s, p, gate, seats, where):
        """``do: envy``: each receiving player is paid per *other* player holding a qualifying hand."""
        w, pid = p["wager"], p["paytable"]
        pt = self.game.paytables[pid]
        if pt.amounts:
            raise Unsupported(f"{where}: paytable {pid!r} with schedules per amount")
        ex = dict((k, v) for k, v, _ in s.exprs)
        qf = self._expr(ex["qualifying"], where, True)
        cf = self._cards(ex["hand"], where, True)
        vr = self._vr(pt.ranking)
        rows = []
        for hand, odds, label in pt.rows:
            o = odds[0]
            if o.kind == "meter":
                raise Unsupported(f"{where}: a share of a meter")
            rows.append((hand, o, (lambda c, o=o: _cents(to_cents(o.payout(Decimal(c) / 100))[0]))))

        def envy(st, strat):
            g = gate(st)
            recv = seats(st) & (st.amount[w] > 0) & (st.outcome[w] != VOID)
            if not recv.any():
                return  # nobody to pay (the holders' hands are pure functions: not needed)
            holders = g & st.in_round & np.asarray(qf(st), dtype=bool)
            if not holders.any():
                return
            cards = cf(st)
            row = np.full(holders.shape, -1)
            for i, (hand, o, fn) in enumerate(rows):
                hit = holders & (row < 0) & vr.is_hand(cards, hand)
                row[hit] = i
            if (holders & (row < 0)).any():
                raise RuntimeError(f"{where}: a qualifying hand the paytable {pid!r} does not list")
            for h in range(st.S):           # the holder's seat
                hm = holders[:, h]
                if not hm.any():
                    continue
                for r in range(st.S):
                    if r == h:
                        continue            # never for one's own hand
                    mm = hm & recv[:, r]
                    if not mm.any():
                        continue
                    stakes = st.amount[w][mm, r]
                    rr = row[mm, h]
                    net = np.zeros(len(stakes), dtype=np.int64)
                    for i, (hand, o, fn) in enumerate(rows):
                        q = rr == i
                        if q.any():
                            net[q] = self.money.apply(("envy", pid, i), fn, stakes[q])
                    mask = np.zeros((st.K, st.S), dtype=bool)
                    mask[mm, r] = True
                    st.bonuses.append((w, mask, stakes, net))
        return envy

    # -- play -------------------------------------------------------------------------------
    def play(self, seeds: list[int], rounds: list[int] | int, seats: int, bets: dict, prefer=(),
             offers: dict | None = None, record: bool = False) -> "Played":
        """Play ``rounds[k]`` rounds at table k (a fresh engine Table seeded ``seeds[k]``), ``seats``
        positions each with ``bets`` (wager -> amount in dollars) before the deal."""
        K, S = len(seeds), seats
        rounds = [rounds] * K if isinstance(rounds, int) else list(rounds)
        proto = self.proto.shoe
        if type(proto) is not Shoe:
            raise Unsupported("a shoe that is not the engine's Shoe")
        mts = _MTShoes(seeds, proto)
        shoe = mts.shuffle(np.arange(K))
        N = shoe.shape[1]
        marker = proto.marker
        offered = {w: self.proto.offered(w) for w in self.wagers}
        bets_c = {w: _cents(money(v)) for w, v in bets.items() if money(v) != 0}
        for w in list(bets_c) + list(offers or {}):
            self._plain(w)
        strat = _Strat(prefer, offers)
        base_wagers = [w for w, d in self.game.wagers.items() if d.required or d.placed == "during_round"]
        out = Played(K, S, self.wagers, base_wagers)
        left = np.array(rounds)
        first = np.ones((K, 1), dtype=bool)
        newd = np.ones((K, 1), dtype=bool)
        idx = np.zeros(K, dtype=np.int64)
        r = 0
        while (left > 0).any():
            r += 1
            playing = (left > 0)[:, None]
            st = State(K, S, shoe, idx, np.broadcast_to(playing, (K, S)).copy(), playing.copy(), self.options, offered)
            st.ended = np.zeros((K, S), dtype=bool)
            st.first_after_shuffle, st.new_dealer = first, newd
            st.number = np.full((K, 1), r)
            st.rolls = mts
            for w in self.wagers:
                st.amount[w] = np.zeros((K, S), dtype=np.int64)
                st.outcome[w] = np.zeros((K, S), dtype=np.int8)
                st.net[w] = np.zeros((K, S), dtype=np.int64)
            for w, c in bets_c.items():
                st.amount[w][st.in_round] = c
            for z, n in self.zone_cards.items():
                st.zones[z] = np.full((K, S if z[0] == "player" else 1, n), -1, dtype=np.int32)
            if S > self.game.max_positions:
                raise Unsupported(f"{S} seats; the table has {self.game.max_positions} positions")
            for step in self.steps:
                if not st.live.any():
                    break
                step(st, strat)
                _stop(st)
            for w in self.wagers:
                if (st.in_round & (st.amount[w] > 0) & (st.outcome[w] == OPEN)).any():
                    raise Unsupported(f"wager {w!r} left unsettled by the procedure")
            out.add_round(st, playing[:, 0], record)
            idx = st.idx
            if self.game.cards.reshuffle == "every_round":
                resh = playing[:, 0].copy()
            else:
                resh = playing[:, 0] & (marker is not None) & (idx >= (marker if marker is not None else 0))
            if resh.any():
                shoe[resh] = mts.shuffle(np.flatnonzero(resh))
            idx[resh] = 0
            out.reshuffles += resh
            first = np.where(playing, resh[:, None], first)
            newd = np.where(playing, False, newd)
            left = left - 1
        assert N == shoe.shape[1]
        return out


def _zone_key(n):
    if isinstance(n, Ref) and n.parts[0] in ("player", "dealer"):
        return (n.parts[0], n.parts[1] if len(n.parts) > 1 else "cards")
    return None


def _order(st: State, key) -> None:
    st.memo.clear()
    o = st.order.setdefault(key[0], [])
    if key[1] not in o:
        o.append(key[1])


def _all_ended(st: State) -> np.ndarray:
    return (~(st.in_round & ~st.ended).any(1, keepdims=True))


def _stop(st: State) -> None:
    st.live = st.live & ~_all_ended(st)


class _Strat:
    def __init__(self, prefer, offers):
        self.prefer = list(prefer)
        self.offers = {w: _cents(money(v)) for w, v in (offers or {}).items()}

    def __iter__(self):
        return iter(self.prefer)


class Played:
    """What the tables did, per table (arrays of K): for each wager the settlements ``n``, the sum of
    the nets ``net`` and of their squares ``sq`` (cents), the smallest and largest stake; the same
    for the base game per seat (``base``: required wagers and wagers placed during the round); the
    reshuffles; with ``record``, every settlement of every round (per table, per round:
    [(seat, wager, outcome, stake cents, net cents)])."""

    LIMIT = 3_000_000  # |net| in cents below which the int64 sums of squares cannot overflow

    def __init__(self, K, S, wagers, base_wagers=()):
        self.K, self.S, self.wagers = K, S, wagers
        self.base_wagers = list(base_wagers)
        z = lambda: np.zeros(K, dtype=np.int64)  # noqa: E731
        self.n = {w: z() for w in wagers}
        self.net = {w: z() for w in wagers}
        self.sq = {w: z() for w in wagers}
        self.stake_min = {w: np.full(K, np.iinfo(np.int64).max) for w in wagers}
        self.stake_max = {w: z() for w in wagers}
        self.base = {"n": z(), "net": z(), "sq": z()}
        self.reshuffles = z()
        self.rounds: list[list] | None = None

    def add_round(self, st: State, playing: np.ndarray, record: bool) -> None:
        K = st.K
        if record:
            if self.rounds is None:
                self.rounds = [[] for _ in range(K)]
            for k in np.flatnonzero(playing):
                self.rounds[k].append([])
        base = np.zeros((K, st.S), dtype=np.int64)
        has_base = np.zeros((K, st.S), dtype=bool)
        for w in self.wagers:
            a = st.amount[w]
            m = st.in_round & (a > 0)
            if not m.any():
                continue
            nets = np.where(m, st.net[w], 0)
            if np.abs(nets).max() >= self.LIMIT:
                raise Unsupported("a net of more than $30,000 (the sums of squares would overflow)")
            self.n[w] += m.sum(1)
            self.net[w] += nets.sum(1)
            self.sq[w] += (nets * nets).sum(1)
            np.minimum(self.stake_min[w], np.where(m, a, np.iinfo(np.int64).max).min(1), out=self.stake_min[w])
            np.maximum(self.stake_max[w], np.where(m, a, 0).max(1), out=self.stake_max[w])
            if w in self.base_wagers:
                base += nets
                has_base |= m
            if record:
                kk, ss = np.nonzero(m)
                for k, s, am, o, n in zip(kk.tolist(), ss.tolist(), a[m].tolist(), st.outcome[w][m].tolist(),
                                          st.net[w][m].tolist()):
                    self.rounds[k][-1].append((s + 1, w, OUTCOMES.get(o, "open"), am, n))
        for w, mask, stakes, nets in st.bonuses:   # bonuses (envy): each a result of the wager
            if np.abs(nets).max() >= self.LIMIT:
                raise Unsupported("a net of more than $30,000 (the sums of squares would overflow)")
            kk, ss = np.nonzero(mask)
            np.add.at(self.n[w], kk, 1)
            np.add.at(self.net[w], kk, nets)
            np.add.at(self.sq[w], kk, nets * nets)
            np.minimum.at(self.stake_min[w], kk, stakes)
            np.maximum.at(self.stake_max[w], kk, stakes)
            if w in self.base_wagers:
                np.add.at(base, (kk, ss), nets)
                has_base[kk, ss] = True
            if record:
                for k, s_, am, n in zip(kk.tolist(), ss.tolist(), stakes.tolist(), nets.tolist()):
                    self.rounds[k][-1].append((s_ + 1, w, "bonus", am, n))
        if has_base.any():
            self.base["n"] += has_base.sum(1)
            self.base["net"] += base.sum(1)
            self.base["sq"] += (base * base).sum(1)

    def players(self, tables=slice(None)) -> int:
        return int(sum(int(v[tables].sum()) for v in self.net.values()))


def compile_fast(chapter, game, options=None, bets=None) -> FastGame:
    """The fast path of a compiled chapter (for these wagers placed before the deal), or
    :class:`Unsupported` saying what it lacks."""
    return FastGame(chapter, game, options, bets)
