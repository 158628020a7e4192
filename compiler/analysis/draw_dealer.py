"""The dealer's play in the draw walk (:mod:`compiler.analysis.draw_walk`): the instructions after the last
one that asks or deals to the player, up to the first settlement, valued once per position of the dealer
from the shoe at the player's first decision; then each outcome of the dealer's cards (what the settlement
reads of them) settled against the player's hand by the engine's own settle steps."""
from __future__ import annotations

from fractions import Fraction

from compiler.runtime.errors import EngineError
from compiler.analysis.draw_model import ZERO, DrawLimit, State, Value, _reads, settle_observations
from compiler.analysis.draw_steps import advance
from compiler.lang.closures import closure

_DEALER_STEPS = frozenset({"reveal", "announce", "burn"})
_TAIL_STEPS = frozenset({"settle", "announce", "reveal"})


class DealerPlay:
    def __init__(self, walk):
        self.walk = walk
        prog = walk.prog
        self.start = prog.suffix
        self.settle_from = next((i for i in range(self.start, len(prog.ops))
                                 if prog.ops[i][1].kind == "settle"), len(prog.ops))
        self.conditions = self._conditions()
        obs = settle_observations(prog, self.settle_from)
        self.dealer_obs, self.player_obs = [], []
        for o in obs:
            owners = {owner for owner, _ in _reads(o)}
            if owners == {"dealer"}:
                self.dealer_obs.append(closure(o))
            elif owners <= {"player"}:
                self.player_obs.append(closure(o))
            else:
                raise DrawLimit("a settlement reads the dealer's and the player's cards in one expression; the "
                                "draw walk settles what each hand shows on its own")
        self.dists: dict = {}
        self._compiled: dict = {}  # the dealer's paths by position (_paths), for every shoe
        self._conds: dict = {}
        self._scratch = None
        self.settled: dict = {}
        self.values: dict = {}
        self.dealer_positions = 0
        self.settlements = 0

    def _conditions(self) -> list:
        """The conditions of the dealer's play that read no card (read once, when it begins); one that reads
        the player's cards makes the walk refuse (the dealer's play is valued once for every player's hand)."""
        out, mixed = [], False
        prog = self.walk.prog
        for i in range(self.start, len(prog.ops)):
            op = prog.ops[i]
            if i >= self.settle_from:
                if op[0] not in ("step", "block") or (op[0] == "step" and op[1].kind not in _TAIL_STEPS):
                    raise DrawLimit(f"step {op[1].id} ({op[1].cite}) follows the settlement in the dealer's play")
                continue
            if op[0] == "step" and op[1].kind not in _DEALER_STEPS:
                raise DrawLimit(f"step {op[1].id} ({op[1].cite}), a {op[1].kind!r} step, is part of the dealer's play")
            if op[0] == "deal1" and op[1].params.get("to", "players") == "players":
                raise DrawLimit(f"step {op[1].id} ({op[1].cite}) deals to the player in the dealer's play")
            if op[0] == "loop" and op[1].players is not None:
                raise DrawLimit(f"step {op[1].id} ({op[1].cite}) loops for each player in the dealer's play")
            owners = {o for o, _ in prog.reads[i]}
            if "player" in owners:
                raise DrawLimit(f"step {op[1].id} ({op[1].cite}) reads the player's cards in the dealer's play")
            if not owners and op[0] in ("block", "loop", "deal1") and op[1].when is not None:
                out.append(op[1].when)
            mixed = mixed or (bool(owners) and op[1].when is not None and op[0] in ("block", "loop", "deal1"))
        self.mixed = mixed
        return out

    # -- the dealer's outcomes -------------------------------------------------------------------
    def distribution(self, st: State) -> dict:
        """{what the settlement reads of the dealer's cards: (probability, the dealer's zones)}."""
        return self._distribution(st)[1]

    def _distribution(self, st: State) -> tuple:
        """(the key of the dealer's position, :meth:`distribution`)."""
        walk = self.walk
        ctx = walk.ctx(st)
        seat_free = tuple(bool(c(ctx)) for c in self.conditions)
        dealer = tuple((z, walk.norm("dealer", z, v)) for z, v in sorted(st.rnd.dealer.items()))
        base = st.frozen if st.frozen is not None else st.removed
        # a condition that reads the dealer's cards and the seat (none in the chapters seen): the seat's state
        key = (base, dealer, st.pending, seat_free, walk.seat_sig(st.seat, cards=False) if self.mixed else None,
               st.passes)
        hit = self.dists.get(key)
        if hit is None:
            hit = self.dists[key] = self._outcomes(st.light(removed=base))
        return key, hit

    def _outcomes(self, d: State) -> dict:
        """{reading: (probability, the dealer's zones)}: the face-down card dealt first, from the classes it
        may be; then the dealer's play walked by :meth:`_walk` (integer weights, exact at the end)."""
        walk = self.walk
        left = walk.left(d)
        zone, allowed = d.pending if d.pending is not None else (None, None)
        starts = ([(c, left[c]) for c in sorted(allowed) if left[c] > 0] if zone is not None else [(None, 1)])
        total = sum(n for _, n in starts)
        out: dict = {}
        self._scratch = d.light(pending=None)
        for c, n in starts:
            dealer = {z: tuple(walk.of_card[x] for x in v if x is not None) for z, v in d.rnd.dealer.items()}
            removed = d.removed
            if c is not None:
                dealer[zone] = dealer.get(zone, ()) + (c,)
                removed = walk.take(removed, c)
            cards = sum(n2 - r for n2, r in zip(walk.counts, removed))
            falling = [1]
            for k in range(1, 40):
                falling.append(falling[-1] * (cards - k + 1))
            for (reading, k), (w, zones) in self._weights(d.pc, dealer, removed, d.passes, cards).items():
                p0, z0 = out.get(reading, (Fraction(0), zones))
                out[reading] = (p0 + Fraction(n, total) * Fraction(w, falling[k]), z0)
        return out

    def _weights(self, pc: int, dealer: dict, removed: tuple, passes: tuple, cards: int) -> dict:
        """{(reading, cards drawn): integer weight}, as :meth:`_walk` gives them, from the dealer's paths
        compiled once per position (:meth:`_paths`): a path drawing ``m[c]`` cards of class ``c`` has the
        weight ``prod_c fall(left[c], m[c])`` whatever their order. A shoe that may run out first is walked."""
        paths = self._paths(pc, dealer, passes, self._compiled)
        deepest = max((sum(m) for _, m in paths), default=0)
        if cards < deepest:  # a path draws as many cards as the shoe holds: walked, so that it refuses
            return self._walk(pc, dealer, removed, passes, {})
        left = [n - r for n, r in zip(self.walk.counts, removed)]
        fall = [_falling(n, deepest) for n in left]
        out: dict = {}
        for (reading, m), (count, zones) in paths.items():
            w = count
            for c, j in enumerate(m):
                if j:
                    w *= fall[c][j]
            if w:
                k = (reading, sum(m))
                w0, z0 = out.get(k, (0, zones))
                out[k] = (w0 + w, z0)
        return out

    def _paths(self, pc: int, dealer: dict, passes: tuple, memo: dict) -> dict:
        """{(reading, cards drawn by class): (number of orders, the dealer's zones)} of the dealer's play
        from this position, for any shoe: the engine's conditions read the dealer's cards, never the shoe."""
        key = (pc, passes, tuple(sorted((z, tuple(sorted(v))) for z, v in dealer.items())))
        hit = memo.get(key)
        if hit is not None:
            return hit
        pc, passes, draw = self._to_draw(pc, dealer, passes)
        if draw is None:
            ctx = self.walk.ctx(self._set(dealer))
            out = {(tuple(_observe(f, ctx) for f in self.dealer_obs), (0,) * len(self.walk.counts)):
                   (1, dict(self._scratch.rnd.dealer))}
        else:
            self.dealer_positions += 1
            zone = draw.params.get("zone", "cards")
            out = {}
            held = [0] * len(self.walk.counts)
            for v in dealer.values():
                for c in v:
                    held[c] += 1
            for c, n in enumerate(self.walk.counts):
                if held[c] >= n:  # no shoe this walk deals from holds another card of the class
                    continue
                nd = dict(dealer)
                nd[zone] = nd.get(zone, ()) + (c,)
                for (reading, m), (n, zones) in self._paths(pc + 1, nd, passes, memo).items():
                    m2 = m[:c] + (m[c] + 1,) + m[c + 1:]
                    n0, z0 = out.get((reading, m2), (0, zones))
                    out[(reading, m2)] = (n0 + n, z0)
        memo[key] = out
        return out

    def _set(self, dealer: dict) -> State:
        sc = self._scratch
        sc.rnd.dealer = {z: [self.walk.rep[c] for c in v] for z, v in dealer.items()}
        return sc

    def _holds(self, pc: int, fn, dealer: dict, seat) -> bool:
        k = (pc, tuple(sorted((z, tuple(sorted(v))) for z, v in dealer.items())))
        v = self._conds.get(k)
        if v is None:
            v = self._conds[k] = bool(fn(self.walk.ctx(self._set(dealer), seat)))
        return v

    def _walk(self, pc: int, dealer: dict, removed: tuple, passes: tuple, memo: dict) -> dict:
        """{(reading, cards drawn): integer weight} of every way the dealer's play ends from this position."""
        pc, passes, draw = self._to_draw(pc, dealer, passes)
        if draw is not None:
            return self._draw(pc, draw, dealer, removed, passes, memo)
        ctx = self.walk.ctx(self._set(dealer))
        return {(tuple(_observe(f, ctx) for f in self.dealer_obs), 0): (1, dict(self._scratch.rnd.dealer))}

    def _to_draw(self, pc: int, dealer: dict, passes: tuple) -> tuple:
        """(pc, passes, the deal step) of the next card the dealer draws from this position, or (.., None)
        when the play ends first (the settlement's instruction)."""
        ops = self.walk.prog.ops
        passes_d = dict(passes)
        while pc < self.settle_from:
            op = ops[pc]
            kind, step = op[0], op[1]
            if kind == "block":
                pc = pc + 1 if step.when is None or self._holds(pc, step.when, dealer, None) else op[2]
            elif kind == "back":
                pc = op[2]
            elif kind == "loop":
                if pc not in passes_d:
                    if step.when is not None and not self._holds(-pc - 1, step.when, dealer, None):
                        pc = op[2]
                        continue
                    passes_d[pc] = 0
                cond, until = step.exprs.get("while"), step.exprs.get("until")  # (one of them)
                if ((cond is not None and not self._holds(pc, cond, dealer, None))
                        or (until is not None and passes_d[pc] > 0 and self._holds(pc, until, dealer, None))):
                    del passes_d[pc]
                    pc = op[2]
                    continue
                if passes_d[pc] == int(step.params["bound"]):
                    raise DrawLimit(f"the bound of step {step.id} ({step.cite}) can be reached")
                passes_d[pc] += 1
                pc += 1
            elif kind == "deal1":
                if op[2] and step.when is not None and not self._holds(-pc - 1, step.when, dealer, None):
                    pc = op[3]
                    continue
                return pc, tuple(sorted(passes_d.items())), step
            else:  # reveal, announce, burn: nothing the dealer's cards change
                pc += 1
        return pc, tuple(sorted(passes_d.items())), None

    def _draw(self, pc, step, dealer, removed, passes, memo) -> dict:
        walk = self.walk
        key = (pc, passes, tuple(sorted((z, tuple(sorted(v))) for z, v in dealer.items())))
        hit = memo.get(key)
        if hit is not None:
            return hit
        self.dealer_positions += 1
        zone = step.params.get("zone", "cards")
        if sum(walk.counts) - sum(removed) <= 0:
            raise DrawLimit(f"the shoe runs out at step {step.id} ({step.cite})")
        out: dict = {}
        for c, n in enumerate(walk.counts):
            n -= removed[c]
            if n <= 0:
                continue
            nd = dict(dealer)
            nd[zone] = nd.get(zone, ()) + (c,)
            for (reading, k), (w, zones) in self._walk(pc + 1, nd, walk.take(removed, c), passes, memo).items():
                w0, z0 = out.get((reading, k + 1), (0, zones))
                out[(reading, k + 1)] = (w0 + n * w, z0)
        memo[key] = out
        return out

    # -- settling ---------------------------------------------------------------------------------
    def value(self, st: State) -> Value:
        """The value of a position at the start of the dealer's play."""
        walk = self.walk
        where, dist = self._distribution(st)
        ctx = walk.ctx(st, st.seat)
        mine = (tuple(_observe(f, ctx) for f in self.player_obs), walk.seat_sig(st.seat, cards=False),
                st.rnd.stopped)
        known = self.values.get((where, mine))  # the same dealer's play against a hand that reads the same
        if known is not None:
            return known
        acc = ZERO
        for reading, (p, zones) in dist.items():
            k = (mine, reading)
            v = self.settled.get(k)
            if v is None:
                v = self.settled[k] = self._settle(st, zones)
            acc += p * v
        self.values[(where, mine)] = acc
        return acc

    def _settle(self, st: State, zones: dict) -> Value:
        self.settlements += 1
        walk = self.walk
        t = st.copy(pc=self.settle_from, pending=None)
        t.rnd.dealer = {z: list(v) for z, v in zones.items()}
        while t.pc < len(walk.prog.ops) and not t.rnd.stopped and not t.seat.ended:
            if advance(walk, t) is not None:
                raise DrawLimit("the settlement branches")
        return walk.terminal(t)


def _falling(n: int, most: int) -> list[int]:
    """[n (n-1) ... (n-j+1) for j = 0..most] (0 once j passes n)."""
    out = [1]
    for j in range(most):
        out.append(out[-1] * max(n - j, 0))
    return out


def _observe(f, ctx):
    """What the settlement may read (a key of its result): the observation's value, or the error it raises on
    these cards (a hand of another size for a ranking, read only behind a condition the settlement tests first,
    ``count(player.hand) == 3 and category(hand(R, player.hand)) == ...``); a settlement that does read it raises
    the same error itself."""
    try:
        return _plain(f(ctx))
    except EngineError as e:
        return ("not readable", str(e))


def _plain(v):
    return tuple(v) if isinstance(v, list) else v
