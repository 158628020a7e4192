"""The fast path's round state and loops: ``state.NAME`` (the round's, a (K, 1) array, or kept per player,
(K, S)), the action ``set NAME = EXPR``, and the step ``repeat`` (``while`` tested before each pass,
``until`` after, at most ``bound`` passes; every table loops until its own condition stops it). A settle
step that sets the round's state acts seat after seat, in the step's order, as the engine does (a later
seat reads what an earlier one set). A mixin of :class:`compiler.fast.vector.FastGame`."""
from __future__ import annotations

import numpy as np

from compiler.fast.state import OPEN, VOID, State, Unsupported, _all_ended, _stop


class LoopCompiler:
    """Compiles the round state and ``repeat``."""

    def _state_decl(self, name: str, where: str):
        d = self.game.state.get(name)
        if d is None:
            raise Unsupported(f"{where}: unknown round state {name!r}")
        init = d.get("initial")
        if isinstance(init, bool) or not isinstance(init, int):
            raise Unsupported(f"{where}: round state {name!r} of initial value {init!r} (not a whole number)")
        return d.get("per") == "player", init

    def _state_init(self, st: State) -> None:
        """Every declared value of the round state at its initial value (whole numbers only)."""
        for name, d in self.game.state.items():
            init = d.get("initial")
            if isinstance(init, int) and not isinstance(init, bool):
                per = d.get("per") == "player"
                st.vals[name] = np.full((st.K, st.S if per else 1), init, dtype=np.int64)

    def _state_ref(self, attr, where: str, seat: bool):
        per, _ = self._state_decl(attr, where)
        if per and not seat:
            raise Unsupported(f"{where}: state.{attr} (kept per player) outside a player step")
        return lambda st, a=attr: st.vals[a]

    def _set_state(self, a, where: str):
        """``set NAME = EXPR`` on the seats ``m``: a player's own value, or the round's (from the one seat
        acting: settle steps that set the round's state act seat by seat)."""
        per, _ = self._state_decl(a.name, where)
        vf = self._expr(a.value, where, True)

        def set_state(st, m, name=a.name, per=per, vf=vf):
            v = np.broadcast_to(np.asarray(vf(st), dtype=np.int64), m.shape)
            cur = st.vals[name]
            if per:
                st.vals[name] = np.where(m, v, cur)
                return
            rows = m.any(1)
            if (m.sum(1) > 1).any():
                raise RuntimeError(f"{where}: the round's state set by two seats at once")
            col = m.argmax(1)
            new = cur.copy()
            new[rows, 0] = v[rows, col[rows]]
            st.vals[name] = new
        return set_state

    def _sets_round_state(self, s) -> bool:
        return any(a.kind == "set_state" and (self.game.state.get(a.name) or {}).get("per") != "player"
                   for r in s.rules for a in r.then)

    def _repeat_step(self, s, gate, where):
        """``do: repeat`` without ``players``: the steps, pass after pass, on the tables where the loop goes on."""
        if s.players is not None:
            raise Unsupported(f"{where}: a repeat for each player in turn")
        ex = dict((k, v) for k, v, _ in s.exprs)
        wf = self._expr(ex["while"], where, False) if ex.get("while") is not None else None
        uf = self._expr(ex["until"], where, False) if ex.get("until") is not None else None
        bound = int(dict(s.params)["bound"])
        subs = [self._step(x) for x in s.steps]

        def repeat(st, strat):
            saved = st.live
            active = gate(st)
            passes = 0
            try:
                while True:
                    if wf is not None:
                        active = active & np.asarray(wf(st), dtype=bool)
                    if not active.any():
                        return
                    if passes == bound:
                        self._bound_reached(st, active)
                        return
                    passes += 1
                    st.live = active
                    for sub in subs:
                        if not st.live.any():
                            break
                        sub(st, strat)
                        _stop(st)
                    active = active & st.live
                    st.live = saved
                    if uf is not None:
                        active = active & ~np.asarray(uf(st), dtype=bool)
            finally:
                st.live = saved & ~_all_ended(st)
        return repeat

    def _bound_reached(self, st, active) -> None:
        """The bound reached (an irregularity): the wagers still in action are returned and the round ends."""
        rows = np.broadcast_to(active, (st.K, st.S)) & st.in_round
        for w in self.wagers:
            t = rows & (st.amount[w] > 0) & (st.outcome[w] == OPEN)
            st.outcome[w][t] = VOID
            st.net[w][t] = 0
        st.ended |= rows
