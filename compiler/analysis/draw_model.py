"""The parts of the draw walk (:mod:`compiler.analysis.draw_walk`) its instructions share: a position
(:class:`State`), the procedure as instructions (:class:`Program`), copies of a round, card classes, and what
a settlement reads."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from compiler.analysis.card_reads import observations
from compiler.lang.closures import closure
from compiler.lang.rules import Node, Ref, expr_nodes
from compiler.lang.syntax import Call, Lit
from compiler.runtime.engine import Strategy
from compiler.runtime.shoe import StandInShoe
from compiler.runtime.state import Round, Seat

__all__ = ["DrawLimit", "PLAYER_KINDS", "Program", "State", "Value", "card_classes", "clone_round",
           "settle_observations"]

PLAYER_KINDS = frozenset({"decide", "offer", "split"})  # steps that ask the player


class DrawLimit(RuntimeError):
    """The walk cannot give the figure: a budget reached, or a construct met while walking that it does not
    model (the reason names it)."""


class Value:
    """The value of a position: the expected net of the seat's wagers (``net``) and the expected amount they
    stake (``staked``), both exact, under the play the walk takes. Added, scaled and compared as one: a
    choice is better when its expected net is larger, and among choices of equal expected net, when it
    stakes less (so that the amount wagered follows one stated play, whatever the order of the choices)."""
    __slots__ = ("net", "staked")

    def __init__(self, net, staked):
        self.net, self.staked = net, staked

    def __add__(self, other):
        if isinstance(other, Value):
            return Value(self.net + other.net, self.staked + other.staked)
        if other == 0:  # sum()'s start
            return self
        return NotImplemented

    __radd__ = __add__

    def __mul__(self, k):
        if isinstance(k, Value):
            return NotImplemented
        return Value(self.net * k, self.staked * k)

    __rmul__ = __mul__

    def __truediv__(self, k):
        return Value(self.net / k, self.staked / k)

    def _order(self) -> tuple:
        return self.net, -self.staked

    def __lt__(self, other):
        return self._order() < other._order()

    def __gt__(self, other):
        return self._order() > other._order()

    def __eq__(self, other):
        return isinstance(other, Value) and self._order() == other._order()

    __hash__ = None

    def __repr__(self) -> str:
        return f"Value(net={self.net}, staked={self.staked})"


ZERO = Value(Fraction(0), Fraction(0))


class _Shoe(StandInShoe):
    """The walk's shoe: deals the cards it is given, in order; a burned card is never seen (None)."""

    def __init__(self):
        self.queue: list[int] = []

    def draw(self, target=None):
        if target is None or target[0] == "burn":
            return None
        if not self.queue:
            raise DrawLimit(f"the engine drew a card the walk did not deal ({target})")
        return self.queue.pop(0)


class _Choice(Strategy):
    """The walk's player: the choice and the offered amount it is told to take."""

    def __init__(self):
        self.choice: str | None = None
        self.amount = Decimal(0)

    def choose(self, decision, choices, view):
        return self.choice if self.choice in choices else choices[0]

    def offer(self, wager, view):
        return self.amount


def clone_round(rnd: Round, seats: bool = True) -> Round:
    """A copy of a round that the walk may change: seats (unless ``seats`` is false: shared, for a walk that
    changes only the dealer's cards), zones, wagers, flags; no log."""
    r = object.__new__(Round)
    r.__dict__.update(rnd.__dict__)
    r.seats = {k: clone_seat(s) for k, s in rnd.seats.items()} if seats else rnd.seats
    r.dealer = {z: list(v) for z, v in rnd.dealer.items()}
    r.community = {z: list(v) for z, v in rnd.community.items()}
    r.revealed, r.flags, r.state = set(rnd.revealed), set(rnd.flags), dict(rnd.state)
    r.events, r.acting = [], None
    r.log = _no_log  # the walk reads the state, never the log: no entry is written (or formatted)
    return r


def _no_log(*args, **kw) -> None:
    return None


def clone_seat(s: Seat) -> Seat:
    """A copy of a seat the walk may change (as ``Seat(...)`` field by field, without the dataclass's
    constructor: the walk makes millions)."""
    copies = {id(w): _copy(w) for w in s.history}
    for w in s.wagers.values():
        if id(w) not in copies:
            copies[id(w)] = _copy(w)
    n = object.__new__(Seat)
    d = n.__dict__
    d.update(s.__dict__)
    d["history"] = [copies[id(w)] for w in s.history]
    d["wagers"] = {k: copies[id(w)] for k, w in s.wagers.items()}
    d["zones"] = {z: list(v) for z, v in s.zones.items()}
    d["flags"], d["choices"], d["state"] = set(s.flags), dict(s.choices), dict(s.state)
    d["bonuses"] = list(s.bonuses)
    return n


def _copy(w: Any) -> Any:
    """A shallow copy of a wager (as ``copy.copy``, without its protocol's cost: the walk makes millions)."""
    n = object.__new__(w.__class__)
    n.__dict__.update(w.__dict__)
    return n


class State:
    """A position of the walk: the next instruction, the round, the passes of the loops entered, the cards
    removed from the shoe (by class), the shoe frozen at the first decision, the face-down card not yet
    dealt (its zone and the classes it may be) and the number of hands of the position."""
    __slots__ = ("pc", "rnd", "passes", "removed", "frozen", "pending", "hands", "context")

    def __init__(self, pc, rnd, passes, removed, frozen, pending, hands):
        self.pc, self.rnd, self.passes, self.removed = pc, rnd, passes, removed
        self.frozen, self.pending, self.hands = frozen, pending, hands
        self.context = None

    def copy(self, **kw) -> "State":
        s = State(self.pc, clone_round(self.rnd), self.passes, self.removed, self.frozen, self.pending, self.hands)
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    def light(self, **kw) -> "State":
        """A copy whose seats are shared (the dealer's play changes only the dealer's cards)."""
        s = State(self.pc, clone_round(self.rnd, seats=False), self.passes, self.removed, self.frozen, self.pending,
                  self.hands)
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    @property
    def seat(self) -> Seat:
        return self.rnd.seats[1]


def _reads(node: Node | None) -> set[tuple[str, str | None]]:
    """The (owner, zone) of every card reference of an expression (zone None: all the owner's cards)."""
    out = set()
    for x in expr_nodes(node):
        if isinstance(x, Ref) and x.parts[0] in ("player", "dealer", "community"):
            z = x.parts[1] if len(x.parts) > 1 and x.parts[1] != "cards" else None
            out.add((x.parts[0], z))
    return out


def _whole_reads(node: Node | None, out: set, at: dict) -> None:
    """Like :func:`_reads`, but a zone read only as ``card(owner.ZONE, N)`` (N written) goes to ``at``, (owner,
    zone) -> the largest N, instead of ``out``: such a read does not see a card dealt to the zone after its N-th."""
    from compiler.analysis.card_reads import _CHILDREN
    if node is None:
        return
    if isinstance(node, Call) and node.name == "card" and len(node.args) == 2:
        ref, n = node.args
        if (isinstance(ref, Ref) and len(ref.parts) == 2 and ref.parts[0] in ("player", "dealer", "community")
                and ref.parts[1] != "cards" and isinstance(n, Lit) and isinstance(n.value, (int, Decimal))):
            key = (ref.parts[0], ref.parts[1])
            at[key] = max(at.get(key, 0), int(n.value))
            return
    if isinstance(node, Ref) and node.parts[0] in ("player", "dealer", "community"):
        out.add((node.parts[0], node.parts[1] if len(node.parts) > 1 and node.parts[1] != "cards" else None))
    for x in _CHILDREN.visit(node):
        _whole_reads(x, out, at)


class Program:
    """The procedure as instructions: ``("step", step)``, ``("block", step, end)``, ``("loop", step, end)``,
    ``("back", head)``, ``("deal1", step, first)`` (one card of a deal step), with, per instruction, the
    zones its expressions read (IR steps give the expressions; runtime steps the executors)."""

    def __init__(self, game, chapter):
        self.ir = {s.id: s for s in chapter.all_steps()}
        self.ops: list[tuple] = []
        self.reads: list[set] = []
        self._positions: dict = {}
        self._emit(game.procedure)
        self.suffix = self._suffix()

    def _step_exprs(self, sid: str, own: bool = True) -> list:
        s = self.ir[sid]
        out = [e for e in ((s.when, s.players) if own else (s.players,)) if e is not None]
        out += [e for _, e, _ in s.exprs]
        for r in s.rules:
            out += [r.when] + [a.value for a in r.then]
        for c in s.choices:
            out += [c.when] + [a.value for a in c.then]
        return [e for e in out if e is not None]

    def _step_reads(self, sid: str, own: bool = True) -> set:
        out = set()
        for e in self._step_exprs(sid, own):
            out |= _reads(e)
        return out

    def _add(self, op: tuple, reads: set) -> int:
        self.ops.append(op)
        self.reads.append(reads)
        return len(self.ops) - 1

    def positions_read(self, i: int) -> tuple[set, dict]:
        """(the zones instruction ``i`` reads whole, (owner, zone) -> the last position it reads of a zone read
        only card by card at written positions): a face-down card dealt after that position is not read."""
        hit = self._positions.get(i)
        if hit is None:
            whole: set = set()
            at: dict = {}
            kind, s = self.ops[i][0], self.ops[i][1]
            exprs = ([] if kind == "back" else [self.ir[s.id].when] if kind == "block" else
                     self._step_exprs(s.id, own=kind != "deal1" or bool(self.ops[i][2])))
            for e in exprs:
                _whole_reads(e, whole, at)
            hit = self._positions[i] = (whole, at)
        return hit

    def _emit(self, steps) -> None:
        for s in steps:
            if s.kind == "block":
                j = self._add(["block", s, None, None], _reads(self.ir[s.id].when))
                self._emit(s.steps)
                self.ops[j][2] = len(self.ops)
            elif s.kind == "repeat":
                j = self._add(["loop", s, None, None], self._step_reads(s.id))
                self._emit(s.steps)
                self._add(["back", s, j, None], set())
                self.ops[j][2] = len(self.ops)
            elif s.kind == "deal":
                n = int(s.params.get("count", 1))
                after = len(self.ops) + n
                for k in range(n):
                    self._add(["deal1", s, k == 0, after], self._step_reads(s.id, own=k == 0))
            else:
                self._add(["step", s, None, None], self._step_reads(s.id))

    def _suffix(self) -> int:
        """The first instruction of the dealer's play: after the last one that asks or deals to the player."""
        last = -1
        for i, op in enumerate(self.ops):
            s = op[1]
            if s.kind in PLAYER_KINDS or (s.kind == "deal" and s.params.get("to", "players") == "players"):
                last = i
        # a loop that holds a player instruction ends after its back instruction
        for i, op in enumerate(self.ops):
            if op[0] == "back" and op[2] <= last < i:
                last = i
        # the settlements that follow the player's play (a bust lost at once) are still the player's part
        i = last + 1
        while i < len(self.ops) and self.ops[i][0] == "step" and self.ops[i][1].kind in ("settle", "announce"):
            i += 1
        return i


def card_classes(table, decks: int, composition: dict[int, int] | None, reads: tuple = ((), False)):
    """(classes: card-id lists, class of each card id, a card of each class, the count of each class, the points
    of each class: its key in the rankings by points). Cards are
    told apart by what the rules read (``reads``, :func:`rules_read`): the points of every ranking by points,
    the rank where a ranking of another kind is read, the suit where a suit is read (then each rank's count is
    shared equally by the four suits: a composition must give a multiple of 4)."""
    points = [table.ranking(rid) for rid in table.game.rankings if table.game.rankings[rid].get("kind") == "points"]
    ranked, suits = reads
    without = getattr(table.game.cards, "without", ())
    per_rank = (composition if composition is not None else
                {r: 4 * decks for r in range(13) if r not in without})
    if suits and any(n % 4 for n in per_rank.values()):
        raise DrawLimit("the rules read the suits of the cards and the shoe's count of a rank is not a multiple of "
                        "4 (its cards shared equally by the suits)")
    klass: dict[tuple, list[int]] = {}
    count: dict[tuple, int] = {}
    for r in range(13):
        if per_rank.get(r, 0) <= 0:
            continue
        for s in range(4):
            k = (tuple((rk.values[r], r == rk.soft_rank) for rk in points), r if ranked else None, s if suits else None)
            klass.setdefault(k, []).append(r * 4 + s)
            count[k] = count.get(k, 0) + (per_rank[r] // 4 if suits else (per_rank[r] if s == 0 else 0))
    keys = list(klass)
    of_card = {c: i for i, k in enumerate(keys) for c in klass[k]}
    return [klass[k] for k in keys], of_card, [klass[k][0] for k in keys], [count[k] for k in keys], \
        [k[0] for k in keys]


_RANKED = ("hand", "best", "at_least", "is_hand", "rank", "groups")  # functions naming a ranking first


def rules_read(game, chapter, bets) -> tuple:
    """(whether a ranking not by points is read, whether a suit is read) by the rules a walk for ``bets`` can
    apply: every step's expressions but the rules acting only on optional wagers made before the deal that are
    not among ``bets`` (a side wager's own rules, when the walk values the round without it)."""
    side = {w for w, d in game.wagers.items() if not d.required and d.placed != "during_round" and w not in bets}
    ranked = suits = False
    for s in chapter.all_steps():
        exprs = [e for e in (s.when, s.players) if e is not None] + [e for _, e, _ in s.exprs]
        for c in s.choices:
            exprs += [c.when] if c.when is not None else []
        for r in s.rules:
            ws = {a.wager for a in r.then if a.wager not in (None, "*")}
            if ws and ws <= side:
                continue
            exprs += [r.when] if r.when is not None else []
            exprs += [a.value for a in r.then if a.value is not None]
        for e in exprs:
            for n in expr_nodes(e):
                if isinstance(n, Call) and n.name == "suited":
                    suits = True
                rid = _ranking_arg(n) if isinstance(n, Call) and n.name in _RANKED else None
                spec = game.rankings.get(rid) if rid else None
                if spec is not None and spec.get("kind") != "points":
                    ranked = True
                    suits = suits or _reads_suits(spec)
    return ranked, suits


def _ranking_arg(n) -> str | None:
    a = n.args[0] if n.args else None
    if isinstance(a, Ref) and len(a.parts) == 1:
        return a.parts[0]
    if isinstance(a, Lit) and isinstance(a.value, str):
        return a.value
    return None


def _reads_suits(spec: dict) -> bool:
    """A ranking that tells suits apart: a flush pattern or a named hand of given cards."""
    cats = spec.get("categories") or []
    hands = spec.get("hands") or {}
    return (any((c.get("pattern") or {}).get("flush") for c in cats)
            or any(("cards" in h or "any_of" in h or "min_hand" in h) for h in hands.values() if isinstance(h, dict)))


def _all_exprs(s) -> list[Node]:
    out = [e for e in (s.when, s.players) if e is not None]
    out += [e for _, e, _ in s.exprs]
    for r in s.rules:
        out += [r.when] if r.when is not None else []
        out += [a.value for a in r.then if a.value is not None]
    for c in s.choices:
        out += [c.when] if c.when is not None else []
        out += [a.value for a in c.then if a.value is not None]
    return out


def settle_observations(prog: Program, start: int) -> list[Node]:
    """The maximal card-reading parts of the expressions of instructions from ``start`` on (the settlement)."""
    out: list[Node] = []
    for op in prog.ops[start:]:
        s = prog.ir.get(op[1].id)
        if s is not None:
            for e in _all_exprs(s):
                found: list[Node] = []
                observations(e, found)
                for o in found:
                    _by_owner(o, out)
    return list(dict.fromkeys(out))


def _by_owner(e: Node, out: list[Node]) -> None:
    """The parts of a card-reading expression that each read one owner's cards."""
    from compiler.analysis.card_reads import _CHILDREN
    if len({o for o, _ in _reads(e)}) <= 1:
        if _reads(e):
            out.append(e)
        return
    kids = _CHILDREN.visit(e)
    if not kids:
        out.append(e)
        return
    for x in kids:
        _by_owner(x, out)


def compiled(node: Node) -> Any:
    return closure(node)
