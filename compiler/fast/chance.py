"""The fast path's dice and wheels: ``roll`` (dice or a random number), ``spin`` (a wheel of equally likely
pockets), ``dice.*``, ``pocket.*``, ``dice_count()``, and the chosen-number functions ``hits()``,
``matched()``, ``picked()``. Every draw is the engine's (``random.randrange`` on the table's own
generator, word for word: ``_MTShoes.randint``). A wager placed on chosen numbers has the same numbers
at every seat (``State.chosen``, as :meth:`FastGame.play` places it); an unplaced wager's are none, as in
the engine (``hits`` 0, ``matched`` 0, ``picked`` false). A mixin of :class:`compiler.fast.vector.FastGame`."""
from __future__ import annotations

import numpy as np

from compiler.fast.state import Unsupported
from compiler.values.chance import DICE_ATTRS, wheel_pockets


class ChanceCompiler:
    """Compiles rolls, spins and what the rules read of them."""

    def _chance_kinds(self, where: str) -> set:
        kinds = {("dice" if dict(x.params).get("dice") else "numbers") if x.kind == "roll" else x.kind
                 for x in self.chapter.all_steps() if x.kind in ("roll", "spin")}
        if "dice" in kinds and "spin" in kinds:
            raise Unsupported(f"{where}: dice and a wheel in one chapter")
        return kinds

    def _roll_step(self, p, gate):
        """``do: roll``: ``dice`` six-sided dice, or one number of ``numbers``; the total is round.roll,
        the faces (dice) what ``dice.*`` reads."""
        dice, numbers = p.get("dice"), p.get("numbers")
        sides, cnt = (6, int(dice)) if dice else (int(numbers), 1)

        def roll(st, strat):
            g = gate(st)[:, 0]
            v = st.attrs.get("roll")
            v = np.zeros((st.K, 1), dtype=np.int64) if v is None else v.copy()
            faces = np.zeros((st.K, 1, cnt), dtype=np.int64)
            rows = np.flatnonzero(g)
            if len(rows):
                for i in range(cnt):
                    faces[rows, 0, i] = st.rolls.randint(sides, rows)
                v[rows, 0] = faces[rows, 0].sum(-1)
            st.attrs["roll"] = v
            if dice:
                old = st.attrs.get("dice")
                st.attrs["dice"] = faces if old is None or old.shape != faces.shape else \
                    np.where(g[:, None, None], faces, old)
        return roll

    def _spin_step(self, s, p, gate, where):
        """``do: spin``: one of the wheel's pockets, each equally likely (its index: ``st.attrs['pocket']``)."""
        pockets = wheel_pockets(p["wheel"])
        if not pockets:
            raise Unsupported(f"{where}: a wheel without pockets")
        self.pockets = pockets
        n = len(pockets)

        def spin(st, strat):
            g = gate(st)[:, 0]
            v = st.attrs.get("pocket")
            v = np.zeros((st.K, 1), dtype=np.int64) if v is None else v.copy()
            rows = np.flatnonzero(g)
            if len(rows):
                v[rows, 0] = st.rolls.randint(n, rows) - 1
            st.attrs["pocket"] = v
        return spin

    def _chance_ref(self, owner: str, attr, where: str):
        """``dice.X`` (docs/rule-language.md "Dice and wheels") or ``pocket.X`` (an attribute every pocket has)."""
        kinds = self._chance_kinds(where)
        if owner == "dice":
            if "dice" not in kinds or attr not in DICE_ATTRS:
                raise Unsupported(f"{where}: reference dice.{attr}")
            return lambda st, a=attr: _dice_attr(st.attrs["dice"], a)
        spins = [x for x in self.chapter.all_steps() if x.kind == "spin"]
        if len(spins) != 1:
            raise Unsupported(f"{where}: reference pocket.{attr} ({len(spins)} spin steps)")
        pockets = wheel_pockets(dict(spins[0].params)["wheel"])
        if attr is None or any(attr not in q for q in pockets):
            raise Unsupported(f"{where}: reference pocket.{attr} (not an attribute of every pocket)")
        vals = [q[attr] for q in pockets]
        arr = np.array(vals, dtype=object if any(isinstance(x, (bool, type(None))) for x in vals) else None)
        return lambda st, arr=arr: arr[st.attrs["pocket"]]

    def _chance_call(self, n, where: str):
        """dice_count(face); hits(), matched(), picked() of a wager on chosen numbers."""
        name = n.name
        if name == "dice_count":
            if "dice" not in self._chance_kinds(where):
                raise Unsupported(f"{where}: dice_count() without dice")
            face = self._expr(n.args[0], where, False)
            return lambda st, f=face: (st.attrs["dice"] == np.asarray(f(st))[..., None]).sum(-1)
        w = n.args[0].parts[0]
        if not self.game.wagers[w].choose:
            raise Unsupported(f"{where}: {name}() of {w!r}, a wager without chosen numbers")
        shown = self._shown(where)
        vf = self._expr(n.args[1], where, True) if name == "picked" else None

        def chosen(st, w=w):
            placed = st.amount[w] > 0
            if not placed.any():
                return np.zeros(placed.shape, dtype=bool if name == "picked" else np.int64)
            on = st.chosen.get(w)
            if on is None:
                raise Unsupported(f"{where}: {name}() of the {w!r} placed on numbers that differ by seat")
            if name == "picked":
                v = np.asarray(vf(st))
                hit = np.isin(v.astype(str) if v.dtype.kind != "U" else v, list(on))
                return placed & hit
            labels, showing = shown(st)
            on_label = np.isin(labels, list(on))
            if name == "hits":
                count = on_label[showing].sum(-1)
            else:  # matched: each chosen number shown counts once
                count = sum((showing == i).any(-1) for i in np.flatnonzero(on_label))
            return np.where(placed, count, 0)
        return chosen

    def _shown(self, where: str):
        """``shown(st)``: (the labels that can show, (K, 1, n) indexes into them of what the latest roll or
        spin shows): dice faces (labels "1".."6") or the pocket."""
        kinds = self._chance_kinds(where)
        if "spin" in kinds:
            spin = next(x for x in self.chapter.all_steps() if x.kind == "spin")
            labels = np.array([q["label"] for q in wheel_pockets(dict(spin.params)["wheel"])])
            return lambda st: (labels, st.attrs["pocket"][..., None])
        if "dice" in kinds:
            labels = np.array([str(v) for v in range(7)])
            return lambda st: (labels, st.attrs["dice"])
        raise Unsupported(f"{where}: chosen numbers without dice or a wheel")


def _dice_attr(faces: np.ndarray, name: str) -> np.ndarray:
    """``dice.X`` of faces (K, 1, n): as compiler.values.chance.dice_attr."""
    if name == "total":
        return faces.sum(-1)
    if name == "count":
        return np.full(faces.shape[:-1], faces.shape[-1])
    s = np.sort(faces, -1)
    distinct = 1 + (np.diff(s, axis=-1) != 0).sum(-1)
    if name == "distinct":
        return distinct
    if name == "doubles":
        return distinct < faces.shape[-1]
    if name == "triple":
        return (distinct == 1) & (faces.shape[-1] >= 3)
    return s[..., -1] if name == "high" else s[..., 0]
