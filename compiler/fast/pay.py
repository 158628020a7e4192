"""The fast path's paytables: ``win W by PT on CARDS`` and ``bonus W by PT on VALUE``, the row of the
paytable each hand meets found as the engine's ``paytable_odds`` finds it. A mixin of
:class:`compiler.fast.vector.FastGame` (needs the :class:`~compiler.fast.expressions.ExpressionCompiler`)."""
from __future__ import annotations

from decimal import Decimal
from typing import Callable

import numpy as np

from compiler.fast.state import OPEN, PUSH, VOID, WIN, State, Unsupported, _cents
from compiler.lang.rules import Action, Call
from compiler.runtime.money import to_cents


class PaytableCompiler:
    """Compiles the actions that pay by a paytable."""

    def _pt_column(self, pid: str, where: str):
        """(paytable, its column, its evaluator): refused for schedules per amount, no column, no ranking."""
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
        return pt, col, self._vr(pt.ranking)

    def _pt_rows(self, pt, vr, value, where: str) -> Callable[[State, np.ndarray], np.ndarray]:
        """``rows(st, t)``: for the seats ``t`` (a (K, S) mask), the index of the first row their ``value``
        meets, -1 for none. ``value``: cards (a row of named cards by those cards, another by the best hand
        of the ranking), or a hand value ``hand(R, ...)`` / ``best(R, ...)`` of the paytable's ranking (a
        row of named cards is never met by a value, as in the engine)."""
        hands = [hand for hand, _, _ in pt.rows]
        if isinstance(value, Call) and value.name in ("hand", "best"):
            vf = self._expr(value, where, True)
            if getattr(vf, "rid", None) != vr.r.id:
                raise Unsupported(f"{where}: a hand of ranking {getattr(vf, 'rid', None)!r} on paytable "
                                  f"{pt.id!r} of ranking {vr.r.id!r}")

            def rows_of_value(st, t):
                v = np.broadcast_to(vf(st), t.shape)[t]
                row = np.full(len(v), -1)
                for i, hand in enumerate(hands):
                    if vr.r.card_sets(hand) is None:
                        row[(row < 0) & vr.value_matches(v, hand)] = i
                return row
            return rows_of_value
        cf = self._cards(value, where, True)

        def rows_of_cards(st, t):
            cards = cf(st)
            cards = np.broadcast_to(cards, t.shape + cards.shape[-1:])[t]
            row = np.full(len(cards), -1)
            for i, hand in enumerate(hands):
                row[(row < 0) & vr.is_hand(cards, hand)] = i
            return row
        return rows_of_cards

    def _pt_odds(self, pt, col, where: str):
        """Per row: (odds, the net in cents of a stake in cents); None if a row pays from a meter."""
        rows = []
        for hand, odds, label in pt.rows:
            o = odds[col]
            if o.kind == "meter":
                return None
            rows.append((o, (lambda c, o=o: _cents(to_cents(o.payout(Decimal(c) / 100))[0]))))
        return rows

    def _paytable(self, w, a: Action, where: str):
        """``win W by PT on CARDS``: the first row the cards meet (the engine's paytable_odds)."""
        pid = a.paytable
        pt, col, vr = self._pt_column(pid, where)
        if a.value is None:
            raise Unsupported(f"{where}: a paytable win without the cards")
        rows_of = self._pt_rows(pt, vr, a.value, where)
        rows = self._pt_odds(pt, col, where)
        if rows is None:
            if not self.proto.offered(w):  # never placed at this table: the rule cannot fire
                return lambda st, m: None
            raise Unsupported(f"{where}: a share of a progressive meter ({pt.cite})")

        def settle_pt(st, m, w=w, pid=pid, col=col):
            t = m & (st.amount[w] > 0) & (st.outcome[w] == OPEN)
            if not t.any():
                return
            row = rows_of(st, t)
            if (row < 0).any():
                raise RuntimeError(f"no row of paytable {pid!r} matches a hand ({where})")
            stakes = st.amount[w][t]
            net = np.zeros(len(row), dtype=np.int64)
            code = np.zeros(len(row), dtype=np.int8)
            for i, (o, fn) in enumerate(rows):
                r = row == i
                if r.any():
                    net[r] = self.money.apply(("pt", pid, col, i), fn, stakes[r])
                    code[r] = PUSH if o.kind == "push" else WIN
            st.net[w][t] = net
            st.outcome[w][t] = code
        return settle_pt

    def _bonus(self, w, a: Action, where: str):
        """``bonus W by PT on VALUE``: on the player's own wager W (placed, not void), the paytable's row's
        payout on W's amount, added to W's net at the end of the round unless W is void then
        (``State.bonus``); a hand on no row earns nothing."""
        pid = a.paytable
        self._plain(w)
        pt, col, vr = self._pt_column(pid, where)
        rows_of = self._pt_rows(pt, vr, a.value, where)
        rows = self._pt_odds(pt, col, where)
        if rows is None:
            raise Unsupported(f"{where}: a bonus paid from a progressive meter ({pt.cite})")

        def bonus(st, m, w=w, pid=pid, col=col):
            t = m & (st.amount[w] > 0) & (st.outcome[w] != VOID)
            if not t.any():
                return
            row = rows_of(st, t)
            stakes = st.amount[w][t]
            net = np.zeros(len(row), dtype=np.int64)
            for i, (o, fn) in enumerate(rows):
                r = row == i
                if r.any():
                    net[r] = self.money.apply(("pt", pid, col, i), fn, stakes[r])
            acc = st.bonus.get(w)
            if acc is None:
                acc = st.bonus[w] = np.zeros((st.K, st.S), dtype=np.int64)
            acc[t] += net
        return bonus
