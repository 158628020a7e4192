"""Deal-class backward induction: the optimal strategy of one seat over every deal of the full deck.

The second backend of the general analyzer (``tree.py``), for procedures in which every card the
seat's result depends on is one set of N cards (the player's zones and the community zones together)
and the player decides while that set is revealed card by card. Everything is read from the compiled
procedure (IR steps and the compiled module), nothing from a chapter's shape:

1. **What the rules read of the cards** (:func:`_atoms`): every sub-expression of a rule that reads
   cards must be a hand value (``hand``/``best`` of a ranking) of all N cards, or a function of one
   (``at_least``, ``category``, ``category_rank``); ``win W by PAYTABLE on E`` reads the paytable row
   of E. Decisions (their conditions) read no cards, so the decisions a round reaches depend on the
   choices only.
2. **Classes of deals, vectorised**: every N-card set of the deck gets its hand value under each
   ranking used (numpy, ``Vectoriser``); each distinct value is evaluated once by the compiled
   expressions of step 1 (the same code the round engine runs), and deals whose atoms and paytable
   rows agree form one class: the compiled rules cannot tell them apart.
3. **Net per (class, sequence of choices)**: the round engine plays the compiled procedure once for
   each class (a representative deal) and each sequence of choices, giving every wager's net and
   stake exactly (Decimal -> Fraction).
4. **Backward induction over what the player has seen**: the player's view at a decision is the set
   of cards seen so far (own cards and community cards revealed); since the rules read only the whole
   N-card set, views with the same seen set have the same future. For every seen set S of size s,
   ``U_s(S) = sum over the ordered completions of S`` of the net (integers, scaled by the common
   denominator), ``U_s(S) = sum_x U_{s+1}(S + x)``; a decision takes, at each S, the choice of largest
   ``U`` (ties: the largest choice id, as ``tree.optimal``); the expected net is ``U_0 / P(n, N)``.

Anything else (a dealer's hand, an offer, a decision that reads cards, cards read through anything but
a hand value of all the seat's cards) raises :class:`Refused` with the reason, before any enumeration.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from math import factorial, lcm, perm
from typing import Any, Sequence

import numpy as np

from compiler.lang.rules import BinOp, BoolOp, Call, Neg, Not, Ref, compile_expr

_VALUE_OF_HAND = {"at_least", "category", "category_rank"}  # functions of one hand value
_HAND = {"hand", "best"}
_CARD_OWNERS = ("player", "community", "dealer", "setting")
MAX_SETS = 3_000_000  # N-card sets enumerated at most (C(52, 5) = 2,598,960)


class Refused(Exception):
    """The deal-class route cannot model the procedure (the message is the reason)."""


@dataclass
class DealSolution:
    expected_net: Fraction                 # whole round, per the analysed bets
    expected_stake: Fraction               # total wagered
    net: dict[str, Fraction]               # per wager
    stake: dict[str, Fraction]
    classes: int
    sets: int
    histories: int
    choice_frequency: dict[str, dict[str, Fraction]] = field(default_factory=dict)


def _walk_nodes(n):
    if n is None:
        return
    yield n
    if isinstance(n, Call):
        for a in n.args:
            yield from _walk_nodes(a)
    elif isinstance(n, BinOp):
        yield from _walk_nodes(n.left)
        yield from _walk_nodes(n.right)
    elif isinstance(n, BoolOp):
        for x in n.items:
            yield from _walk_nodes(x)
    elif isinstance(n, (Not, Neg)):
        yield from _walk_nodes(n.item)


def _reads_cards(n) -> bool:
    return any(isinstance(x, Ref) and x.parts[0] in _CARD_OWNERS for x in _walk_nodes(n))


def _zones_of(n) -> list[tuple[str, str | None]]:
    return [(x.parts[0], x.parts[1] if len(x.parts) > 1 else None) for x in _walk_nodes(n) if isinstance(x, Ref)
            and x.parts[0] in _CARD_OWNERS]


def _card_count(zones, player: dict, community: dict) -> int | None:
    total = 0
    for owner, z in zones:
        holder = player if owner == "player" else community if owner == "community" else None
        if holder is None:
            return None
        if z is None or z == "cards":
            total += sum(holder.values())
        elif z in holder:
            total += holder[z]
        else:
            return None
    return total


def _atoms(node, where: str, player, community, n_cards, rankings: set, out: list) -> None:
    """Collect the maximal card-reading sub-expressions of ``node`` (refusing what is no hand value)."""
    if node is None or not _reads_cards(node):
        return
    if isinstance(node, Call) and (node.name in _VALUE_OF_HAND or node.name in _HAND):
        hands = [x for x in _walk_nodes(node) if isinstance(x, Call) and x.name in _HAND]
        for h in hands:
            zones = _zones_of(h.args[1])
            if _card_count(zones, player, community) != n_cards or len(set(zones)) != len(zones):
                raise Refused(f"{where} judges a hand on part of the seat's cards; the deal-class route models "
                              f"only rules that read all {n_cards} of them together")
            rankings.add(h.args[0].parts[0])
        bare = [x for x in _walk_nodes(node) if isinstance(x, Ref) and x.parts[0] in _CARD_OWNERS]
        if len(bare) != sum(len(_zones_of(h.args[1])) for h in hands):
            raise Refused(f"{where} reads cards outside a hand value")
        out.append(node)
        return
    if isinstance(node, Call):
        if node.name in ("is_hand", "rank", "groups", "count"):
            raise Refused(f"{where} reads the cards through '{node.name}', not through a hand value")
        if node.name not in ("has", "placed", "wager", "flag", "chose", "option"):
            raise Refused(f"{where} reads the cards through '{node.name}'")
        for a in node.args:
            _atoms(a, where, player, community, n_cards, rankings, out)
    elif isinstance(node, BinOp):
        _atoms(node.left, where, player, community, n_cards, rankings, out)
        _atoms(node.right, where, player, community, n_cards, rankings, out)
    elif isinstance(node, BoolOp):
        for x in node.items:
            _atoms(x, where, player, community, n_cards, rankings, out)
    elif isinstance(node, (Not, Neg)):
        _atoms(node.item, where, player, community, n_cards, rankings, out)
    else:
        raise Refused(f"{where} reads the cards outside a hand value")


@dataclass
class _Plan:
    player: dict
    community: dict
    deal_order: list            # [(owner, zone, count)] in deal order
    n_cards: int
    atoms: list
    paytable_values: list       # [(paytable id, expression node)]
    rankings: list


def plan(game, steps) -> _Plan:
    """Check the procedure (raises :class:`Refused`) and read what the enumeration needs."""
    player: dict = {}
    community: dict = {}
    order = []
    decisions = 0
    for s in steps:
        p = dict(s.params)
        if s.kind == "deal":
            to = p.get("to")
            if to not in ("players", "community"):
                raise Refused(f"step {s.id} ({s.cite}) deals to {to}: the deal-class route models one seat's "
                              "cards and the community cards, not a dealer's hand")
            z = p.get("zone", "cards")
            n = int(p.get("count", 1))
            holder = player if to == "players" else community
            holder[z] = holder.get(z, 0) + n
            order.append(("player" if to == "players" else "community", z, n))
        elif s.kind == "decide":
            decisions += 1
            for n, w in ((s.when, "condition"), (s.players, "players")):
                if _reads_cards(n):
                    raise Refused(f"whether decision {s.id} ({s.cite}) is made depends on the cards")
            for c in s.choices:
                if _reads_cards(c.when) or any(_reads_cards(a.value) for a in c.then if hasattr(a, "value")):
                    raise Refused(f"choice {c.id} of {s.id} ({c.cite}) depends on the cards")
        elif s.kind not in ("reveal", "settle", "announce", "burn"):
            raise Refused(f"step {s.id} ({s.cite}) is a '{s.kind}' step, which the deal-class route does not model")
        if s.kind not in ("decide",) and (_reads_cards(s.when) or _reads_cards(s.players)):
            raise Refused(f"whether step {s.id} ({s.cite}) applies depends on the cards")
    if not decisions:
        raise Refused("the procedure has no decision")
    n_cards = sum(player.values()) + sum(community.values())
    atoms: list = []
    rankings: set = set()
    pvals = []
    for s in steps:
        if s.kind != "settle":
            continue
        for r in s.rules:
            _atoms(r.when, f"the rule at {r.cite}", player, community, n_cards, rankings, atoms)
            for a in r.then:
                if a.kind == "win" and getattr(a, "paytable", None) is not None:
                    pt = game.paytables[a.paytable]
                    if pt.amounts:
                        raise Refused(f"paytable {a.paytable} ({pt.cite}) pays by the amount wagered")
                    from compiler.runtime.rankings import Ranking

                    rk = Ranking.from_spec(game.rankings[pt.ranking], pt.ranking)
                    if any(rk.card_sets(row[0]) is not None for row in pt.rows):
                        raise Refused(f"paytable {a.paytable} ({pt.cite}) pays hands named by their cards")
                    node = a.value if isinstance(a.value, Call) and a.value.name in _HAND else Call(
                        "best", (Ref((pt.ranking,)), a.value))
                    _atoms(node, f"the paytable win at {r.cite}", player, community, n_cards, rankings, [])
                    pvals.append((a.paytable, a.value))
                else:
                    for attr in ("value", "amount"):
                        v = getattr(a, attr, None)
                        if v is not None and not isinstance(v, (str, int, Fraction, Decimal)) and _reads_cards(v):
                            raise Refused(f"the action at {r.cite} reads the cards")
    for rid in rankings:
        if int(game.rankings[rid]["cards"]) > n_cards:
            raise Refused(f"ranking {rid} needs more cards than the seat is dealt")
    return _Plan(player, community, order, n_cards, atoms, pvals, sorted(rankings))


# ------------------------------------------------------------------------------------- engine runs
class _RiggedShoe:
    cover_reached = False
    marker = None
    cut_at = None

    def __init__(self, cards: Sequence[int]):
        self.cards = list(cards)
        self.index = 0
        self.shuffles = 0

    def shuffle(self) -> None:
        self.shuffles += 1

    def draw(self, target=None):
        if target is None or target[0] == "burn":
            return None
        if self.index >= len(self.cards):
            raise Refused("the procedure deals more cards than the deal steps declare")
        c = self.cards[self.index]
        self.index += 1
        return c


class _Follow:
    """Takes the given choices in order; beyond them the first choice. Records (decision, choices, seen)."""

    def __init__(self, prefix: Sequence[str]):
        self.prefix = list(prefix)
        self.seen: list[tuple[str, tuple, int]] = []

    def choose(self, decision, choices, view):
        i = len(self.seen)
        c = self.prefix[i] if i < len(self.prefix) else choices[0]
        if c not in choices:
            raise Refused(f"decision {decision} offers different choices in different rounds")
        n = sum(len(cs) for cs in view.cards.values()) + len(view.community)
        if view.dealer and any(view.dealer.values()):
            raise Refused("the player sees dealer cards")
        self.seen.append((decision, tuple(choices), n))
        return c

    def offer(self, wager, view):
        raise Refused(f"the {wager} is offered during the round")

    def setting(self, step, candidates, view):
        raise Refused("the player sets hands")


def _play(game, options, stakes, cards, prefix, rankings):
    from compiler.runtime.engine import EngineError, Table

    shoe = _RiggedShoe(cards)
    strat = _Follow(prefix)
    table = Table(game, options, seed=0, shoe=shoe)
    table._rankings = rankings
    try:
        res = table.play_round({1: stakes}, strat, new_dealer=False)
    except EngineError as e:
        raise Refused(f"a round of the compiled procedure cannot be played to its end: {e}") from None
    net: dict[str, Fraction] = {}
    stake: dict[str, Fraction] = {}
    for r in res.results:
        net[r.wager] = net.get(r.wager, Fraction(0)) + Fraction(r.net)
        # a wager returned to the player (withdrawn) was not at risk: no amount wagered
        stake[r.wager] = stake.get(r.wager, Fraction(0)) + (Fraction(0) if r.outcome == "void" else Fraction(r.amount))
    return strat.seen, net, stake


def _histories(game, options, stakes, cards, rankings):
    """Every sequence of choices (card-independent by the checks of :func:`plan`), with the decisions."""
    out = []
    todo = [[]]
    while todo:
        prefix = todo.pop()
        seen, _, _ = _play(game, options, stakes, cards, prefix, rankings)
        if len(prefix) < len(seen):
            for c in seen[len(prefix)][1]:
                todo.append(prefix + [c])
        else:
            out.append((tuple(prefix), tuple(seen)))
    return sorted(out)


# ------------------------------------------------------------------------------------- set algebra
class _Lift:
    """Sums over one-card extensions: ``U_s(S) = sum_x U_{s+1}(S + x)`` on colex-indexed arrays."""

    def __init__(self, n: int):
        self.n = n
        self._sub: dict[int, list[np.ndarray]] = {}

    def subs(self, k: int) -> list[np.ndarray]:
        """For the k-sets in colex order: the colex index of each (k-1)-subset (one array per dropped card)."""
        if k not in self._sub:
            from compiler.analysis.enumerate import colex_combinations, colex_index

            rows = colex_combinations(self.n, k)
            self._sub[k] = [colex_index(np.delete(rows, i, axis=1)) for i in range(k)]
        return self._sub[k]

    def down(self, u: np.ndarray, k: int) -> np.ndarray:
        """u: (C(n,k), m) int64 -> (C(n,k-1), m)."""
        from math import comb

        out = np.zeros((comb(self.n, k - 1),) + u.shape[1:], dtype=np.int64)
        for idx in self.subs(k):
            np.add.at(out, idx, u)
        return out


def solve(game, steps, deck: Sequence[int], options: dict, bets: dict) -> DealSolution:
    """The optimal strategy (largest expected net of the round at every seen set) over every deal."""
    from math import comb

    from compiler.analysis.enumerate import Vectoriser, colex_combinations
    from compiler.runtime.engine import Context, Table
    from compiler.runtime.money import money
    from compiler.runtime.rankings import Ranking

    pl = plan(game, steps)
    deck = sorted(deck)  # rows of increasing positions are then rows of increasing cards (Vectoriser)
    n, N = len(deck), pl.n_cards
    if comb(n, N) > MAX_SETS:
        raise Refused(f"{comb(n, N):,} sets of {N} cards exceed the {MAX_SETS:,} the deal-class route enumerates")
    stakes = {k: money(v) for k, v in bets.items()}
    rows = colex_combinations(n, N)
    deck_arr = np.array(deck, dtype=np.int64)
    keys = []
    for rid in pl.rankings:
        v = Vectoriser(Ranking.from_spec(game.rankings[rid], rid), N, deck)
        keys.append(v.evaluate_positions(rows).astype(np.int64))
    if keys:
        stacked = np.stack(keys, axis=1)
        _, first, inverse = np.unique(stacked, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    else:
        first, inverse = np.array([0]), np.zeros(len(rows), dtype=np.int64)
    # evaluate the atoms once per distinct hand value, with the compiled expressions
    table = Table(game, options, seed=0)
    codes = [compile(compile_expr(a), "<atom>", "eval") for a in pl.atoms]
    pcodes = [(pid, compile(compile_expr(e), "<paytable value>", "eval")) for pid, e in pl.paytable_values]
    env = {"Decimal": Decimal, "Fraction": Fraction}

    class _Ctx(Context):
        def __init__(self, cards):  # noqa: D401 - a context over one deal's zones only
            self.table = table
            self.game = game
            self._z = {}
            i = 0
            for owner, z, k in pl.deal_order:
                self._z.setdefault((owner, z), []).extend(cards[i:i + k])
                i += k

        def zone(self, owner, zone):
            if zone is None or zone == "cards":
                return [c for (o, _), cs in self._z.items() if o == owner for c in cs]
            return list(self._z.get((owner, zone), ()))

    class_of_key = np.empty(len(first), dtype=np.int64)
    classes: dict = {}
    reps: list = []
    for i, r in enumerate(first):
        cards = [int(c) for c in deck_arr[rows[r].astype(np.int64)]]
        ctx = _Ctx(cards)
        key = tuple(repr(eval(c, env, {"ctx": ctx})) for c in codes) + tuple(
            repr(table.paytable_odds(pid, eval(c, env, {"ctx": ctx}))) for pid, c in pcodes)
        if key not in classes:
            classes[key] = len(reps)
            reps.append(cards)
        class_of_key[i] = classes[key]
    cls = class_of_key[inverse]
    C = len(reps)
    rk: dict = {}
    hist = _histories(game, options, stakes, reps[0], rk)
    wagers = sorted({w for w in game.wagers})
    # net table per history: (C, 1 + 2W) of Fractions -> scaled integers
    raw = {}
    for h, seen in hist:
        rowsf = []
        for c in range(C):
            s2, net, stake = _play(game, options, stakes, reps[c], h, rk)
            if tuple(s2) != seen:
                raise Refused("the decisions a round reaches depend on the cards")
            rowsf.append([sum(net.values(), Fraction(0))] + [net.get(w, Fraction(0)) for w in wagers]
                         + [stake.get(w, Fraction(0)) for w in wagers])
        raw[h] = rowsf
    L = 1
    for rowsf in raw.values():
        for r in rowsf:
            for x in r:
                L = lcm(L, x.denominator)
    table_of = {h: np.array([[int(x * L) for x in r] for r in rowsf], dtype=np.int64) for h, rowsf in raw.items()}
    lift = _Lift(n)
    # M_s[S, c]: N-sets above S of class c
    M: dict[int, np.ndarray] = {}

    def counts(s: int) -> np.ndarray:
        if s not in M:
            if s == N - 1:
                m = np.zeros(comb(n, s) * C, dtype=np.int64)
                for idx in lift.subs(N):
                    m += np.bincount(idx * C + cls, minlength=len(m))
                M[s] = m.reshape(-1, C)
            else:
                M[s] = lift.down(counts(s + 1), s + 1) // (N - s)
        return M[s]

    stage = {}
    for h, seen in hist:
        for i, (d, chs, k) in enumerate(seen):
            if k > N:
                raise Refused("a decision is taken after more cards than the seat is dealt")
            stage[h[:i]] = (d, chs, k)
    for p, (d, chs, k) in stage.items():
        if p and stage[p[:-1]][2] > k:
            raise Refused("the player's view shrinks between decisions")
    freq: dict[str, dict[str, Fraction]] = {}

    def value(prefix: tuple, s: int) -> np.ndarray:
        """U_s over the seen sets of size s, after the choices ``prefix``."""
        if prefix in stage:
            d, chs, k = stage[prefix]
            sub = {c: value(prefix + (c,), k) for c in chs}
            order = sorted(chs, reverse=True)
            stack = np.stack([sub[c][:, 0] for c in order], axis=1)
            pick = np.argmax(stack, axis=1)
            u = np.stack([sub[c] for c in order], axis=0)[pick, np.arange(len(pick))]
            total = comb(n, k)
            for j, c in enumerate(order):  # how often the choice is made, at this node, per seen set
                freq.setdefault(f"{d} after {','.join(prefix) or 'start'}", {})[c] = Fraction(
                    int((pick == j).sum()), total)
        else:
            return counts(s) @ table_of[prefix] * factorial(N - s) if s < N else table_of[prefix][cls]
        while k > s:
            u = lift.down(u, k)
            k -= 1
        return u

    u0 = value((), 0)[0]
    denom = perm(n, N) * L
    ex = [Fraction(int(x), denom) for x in u0]
    W = len(wagers)
    net = {w: ex[1 + i] for i, w in enumerate(wagers) if ex[1 + W + i] or ex[1 + i]}
    stake = {w: ex[1 + W + i] for i, w in enumerate(wagers) if w in net}
    return DealSolution(ex[0], sum(stake.values(), Fraction(0)), net, stake, C, len(rows), len(hist), freq)
