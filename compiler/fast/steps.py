"""The fast path's steps and actions: each procedure step of the IR compiled to a function of the
:class:`~compiler.fast.state.State` and the strategy. A mixin of :class:`compiler.fast.vector.FastGame`."""
from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any, Callable

import numpy as np

from compiler.fast.houseway import CompiledHouseWay, HouseWayUnsupported
from compiler.fast.state import (LOSE, OPEN, PUSH, SURRENDER, VOID, WIN, State, Unsupported, _all_ended, _cents,
                                  _order, _stop)
from compiler.lang.rules import Action
from compiler.runtime.money import money, to_cents


class StepCompiler:
    """Compiles steps and actions (needs the :class:`ExpressionCompiler` methods)."""

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
            elif k == "bonus":
                if a.wager == "*":
                    raise Unsupported(f"{where}: bonus *")
                ops.append(self._bonus(a.wager, a, where))
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
            elif k == "set_state":
                ops.append(self._set_state(a, where))
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
        gate, seats = self._gates(s, where)
        k = s.kind
        if k in ("announce", "reveal", "collect_unwagered"):
            return lambda st, strat: None
        if k == "roll":
            return self._roll_step(p, gate)
        if k == "spin":
            return self._spin_step(s, p, gate, where)
        if k == "deal" and p.get("to") == "positions":
            return self._deal_positions(s, p, gate, where)
        if k == "set_hands":
            return self._set_hands(s, p, gate, seats, where)
        if k == "envy":
            return self._envy(s, p, gate, seats, where)
        if k == "burn":
            return self._burn_step(p, gate)
        if k == "deal":
            return self._deal_step(s, p, gate, seats)
        if k == "settle":
            return self._settle_step(s, seats)
        if k == "decide" and p.get("each"):  # taken once per instance of a wager of several (refused when offered)
            if self.proto.offered(p["each"]):
                raise Unsupported(f"{where}: a decision taken once per instance of {p['each']!r} (each)")
            return lambda st, strat: None  # a wager not offered has no instance: the decision is never taken
        if k == "decide":
            return self._decide_step(s, seats)
        if k == "offer":
            return self._offer_step(p, seats, where)
        if k == "block":
            return self._block_step(s, gate)
        if k == "repeat":
            return self._repeat_step(s, gate, where)
        raise Unsupported(f"{where}: step kind {k!r}")

    def _gates(self, s, where):
        """(gate, seats) of step ``s``: the tables where it runs (live, its ``when`` true), as a (K, 1)
        mask; and the seats it is for (in the round, not ended, its ``players`` true), a (K, S) mask."""
        when = self._expr(s.when, where, False) if s.when is not None else None
        players = self._expr(s.players, where, True) if s.players is not None else None

        def gate(st):
            if when is None:
                return st.live
            return st.live & np.asarray(when(st), dtype=bool)

        def seats(st):
            m = gate(st) & st.in_round & ~st.ended
            if players is not None:
                m = m & np.asarray(players(st), dtype=bool)
            return m
        return gate, seats

    def _burn_step(self, p, gate):
        """``do: burn``: ``count`` cards off the top of the shoe."""
        n = int(p.get("count", 1))

        def burn(st, strat):
            st.idx += n * gate(st)[:, 0]
        return burn

    def _deal_step(self, s, p, gate, seats):
        """``do: deal``: ``count`` cards to each player in the round, or to the dealer or the community."""
        to = p.get("to", "players")
        n = int(p.get("count", 1))
        if to == "players":
            return self._deal_players(s, p, n, seats)
        return self._deal_dealer(p, n, gate, to)

    def _deal_players(self, s, p, n, seats):
        """``n`` cards to each seat of the step, in the step's order, one at a time or (``stack``) all at once."""
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
            self._put(st, key, m, cards)
            _order(st, key)
            st.idx += cnt * n
        return deal_players

    def _put(self, st, key, m, cards):
        """The cards ``cards`` (K, S|1, n) dealt to zone ``key`` of the holders ``m`` (K, S|1): the zone's
        cards, or (a zone dealt by several steps) appended after the cards it holds (a new array: the
        evaluators remember the last array they read)."""
        if key not in self.grown:
            st.zones[key] = np.where(m[..., None], cards, -1)
            return
        z = st.zones[key].copy()
        fill = (z >= 0).sum(-1)
        ii = np.nonzero(m)
        if (fill[ii] + cards.shape[-1] > z.shape[-1]).any():
            raise RuntimeError(f"zone {key[1]!r}: more cards than its deal steps deal")
        for j in range(cards.shape[-1]):
            z[ii + (fill[ii] + j,)] = cards[ii + (j,)]
        st.zones[key] = z

    def _deal_dealer(self, p, n, gate, owner="dealer"):
        """``n`` cards to the dealer (or the community: ``owner``)."""
        key = (owner, p.get("zone", "cards"))

        def deal_dealer(st, strat):
            g = gate(st)[:, 0]
            pos = st.idx[:, None] + np.arange(n)[None, :]
            pos = np.where(g[:, None], pos, 0)
            if (pos >= st.shoe.shape[1]).any():
                raise RuntimeError("the shoe is empty")
            cards = np.take_along_axis(st.shoe, pos, 1)
            self._put(st, key, g[:, None], cards[:, None, :])
            _order(st, key)
            st.idx += n * g
        return deal_dealer

    def _settle_step(self, s, seats):
        """``do: settle``: every rule whose ``when`` holds acts, in order, on the seats of the step."""
        rules = [(self._expr(r.when, f"rule at {r.cite}", True) if r.when is not None else None,
                  self._actions(r.then, f"rule at {r.cite}")) for r in s.rules]

        by_seat = self._sets_round_state(s)
        ccw = s.order == "counterclockwise"

        def settle(st, strat):
            m = seats(st)
            if not m.any():
                return
            if not by_seat:
                for w, then in rules:
                    mm = m if w is None else m & np.asarray(w(st), dtype=bool)
                    if mm.any():
                        then(st, mm)
                return
            for j in (range(st.S - 1, -1, -1) if ccw else range(st.S)):  # seat by seat, in the step's order
                mj = np.zeros_like(m)
                mj[:, j] = m[:, j]
                if not mj.any():
                    continue
                for w, then in rules:
                    mm = mj if w is None else mj & np.asarray(w(st), dtype=bool)
                    if mm.any():
                        then(st, mm)
        return settle

    def _decide_step(self, s, seats):
        """``do: decide``: each seat takes the first choice its strategy prefers that is available, else the
        first available; the choice's actions follow."""
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

    def _offer_step(self, p, seats, where):
        """``do: offer``: the wager is placed as the strategy's ``offers`` say, where the table offers it."""
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

    def _block_step(self, s, gate):
        """``do: block``: its steps, in order, on the tables where the block runs, until the round ends there."""
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
        if pt.amounts and not self.proto.offered(w):  # never placed at this table: nobody receives it
            return lambda st, strat: None
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
