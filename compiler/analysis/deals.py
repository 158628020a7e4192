"""Deal-class backward induction: the optimal strategy of one seat over every deal of the full deck.

The second backend of the general analyzer (``game_tree.py``), for procedures in which every card the
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
   ``U`` (ties: the largest choice id, as ``game_tree.optimal``); the expected net is ``U_0 / P(n, N)``.

A dealer's hand goes to :func:`compiler.analysis.dealer.solve_dealer`. Anything else (an offer, a decision
that reads cards, cards read through anything but a hand value of all the seat's cards) raises
:class:`Refused` with the reason, before any enumeration.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import comb, factorial, lcm, perm
from typing import Sequence

import numpy as np

from compiler.analysis.deal_common import (
    _HAND, MAX_SETS, DealSolution, Refused, _atoms, _histories, _play, _reads_cards, refuse_bonus_outside_settle)
from compiler.analysis.dealer import solve_dealer
from compiler.analysis.enumerate import Vectoriser, colex_combinations, colex_index
from compiler.lang.closures import closure
from compiler.lang.rules import Call, Ref
from compiler.runtime.engine import Context, Table
from compiler.runtime.money import money
from compiler.runtime.rankings import Ranking


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
    refuse_bonus_outside_settle(steps)
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
                if a.kind in ("win", "bonus") and getattr(a, "paytable", None) is not None:
                    pt = game.paytables[a.paytable]
                    if pt.amounts:
                        raise Refused(f"paytable {a.paytable} ({pt.cite}) pays by the amount wagered")

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



# ------------------------------------------------------------------------------------- set algebra
class _Lift:
    """Sums over one-card extensions: ``U_s(S) = sum_x U_{s+1}(S + x)`` on colex-indexed arrays."""

    def __init__(self, n: int):
        self.n = n
        self._sub: dict[int, list[np.ndarray]] = {}

    def subs(self, k: int) -> list[np.ndarray]:
        """For the k-sets in colex order: the colex index of each (k-1)-subset (one array per dropped card)."""
        if k not in self._sub:
            rows = colex_combinations(self.n, k)
            self._sub[k] = [colex_index(np.delete(rows, i, axis=1)) for i in range(k)]
        return self._sub[k]

    def down(self, u: np.ndarray, k: int) -> np.ndarray:
        """u: (C(n,k), m) int64 -> (C(n,k-1), m)."""
        out = np.zeros((comb(self.n, k - 1),) + u.shape[1:], dtype=np.int64)
        for idx in self.subs(k):
            np.add.at(out, idx, u)
        return out


def _deal_classes(game, pl: _Plan, deck: list, rows: np.ndarray, options: dict) -> tuple[np.ndarray, list]:
    """The class of every N-card set (colex order) and a set of each class: the distinct hand values under each
    ranking used (vectorised), each evaluated once by the compiled atoms and paytable rows."""
    N = pl.n_cards
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
    codes = [closure(a) for a in pl.atoms]
    pcodes = [(pid, closure(e)) for pid, e in pl.paytable_values]

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
        key = tuple(repr(c(ctx)) for c in codes) + tuple(repr(table.paytable_odds(pid, c(ctx))) for pid, c in pcodes)
        if key not in classes:
            classes[key] = len(reps)
            reps.append(cards)
        class_of_key[i] = classes[key]
    return class_of_key[inverse], reps


def _net_tables(game, options: dict, stakes: dict, reps: list, hist: list, wagers: list,
                rk: dict) -> tuple[int, dict]:
    """Per sequence of choices, the (C, 1 + 2W) table of each class's net of the round, nets and stakes per wager,
    as integers scaled by their common denominator L; (L, the tables)."""
    raw = {}
    for h, seen in hist:
        rowsf = []
        for c in range(len(reps)):
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
    return L, {h: np.array([[int(x * L) for x in r] for r in rowsf], dtype=np.int64) for h, rowsf in raw.items()}


def _stages(hist: list, N: int) -> dict:
    """The decision taken after each prefix of choices: (decision, its choices, cards seen when it is taken)."""
    stage = {}
    for h, seen in hist:
        for i, (d, chs, k) in enumerate(seen):
            if k > N:
                raise Refused("a decision is taken after more cards than the seat is dealt")
            stage[h[:i]] = (d, chs, k)
    for p, (d, chs, k) in stage.items():
        if p and stage[p[:-1]][2] > k:
            raise Refused("the player's view shrinks between decisions")
    return stage


class _Induction:
    """Backward induction over the seen sets (``value``), then the ordered deals carried forward under the
    strategy it finds (``forward``): the distribution of the round's net."""

    def __init__(self, n: int, N: int, cls: np.ndarray, C: int, table_of: dict, stage: dict):
        self.n, self.N, self.cls, self.C, self.table_of, self.stage = n, N, cls, C, table_of, stage
        self.lift = _Lift(n)
        self.M: dict[int, np.ndarray] = {}      # M_s[S, c]: N-sets above S of class c
        self.freq: dict[str, dict[str, Fraction]] = {}
        self.chosen: dict = {}
        self.dist: dict = {}

    def counts(self, s: int) -> np.ndarray:
        M, N, C = self.M, self.N, self.C
        if s not in M:
            if s == N - 1:
                m = np.zeros(comb(self.n, s) * C, dtype=np.int64)
                for idx in self.lift.subs(N):
                    m += np.bincount(idx * C + self.cls, minlength=len(m))
                M[s] = m.reshape(-1, C)
            else:
                M[s] = self.lift.down(self.counts(s + 1), s + 1) // (N - s)
        return M[s]

    def value(self, prefix: tuple, s: int) -> np.ndarray:
        """U_s over the seen sets of size s, after the choices ``prefix``."""
        N, table_of = self.N, self.table_of
        if prefix in self.stage:
            d, chs, k = self.stage[prefix]
            sub = {c: self.value(prefix + (c,), k) for c in chs}
            order = sorted(chs, reverse=True)
            stack = np.stack([sub[c][:, 0] for c in order], axis=1)
            pick = np.argmax(stack, axis=1)
            self.chosen[prefix] = (order, pick)
            u = np.stack([sub[c] for c in order], axis=0)[pick, np.arange(len(pick))]
            total = comb(self.n, k)
            for j, c in enumerate(order):  # how often the choice is made, at this node, per seen set
                self.freq.setdefault(f"{d} after {','.join(prefix) or 'start'}", {})[c] = Fraction(
                    int((pick == j).sum()), total)
        else:
            return self.counts(s) @ table_of[prefix] * factorial(N - s) if s < N else table_of[prefix][self.cls]
        while k > s:
            u = self.lift.down(u, k)
            k -= 1
        return u

    # the distribution of the round's net under that strategy: the ordered deals reaching each seen set,
    # carried forward (m_k(S) = sum over x in S of m_{k-1}(S - x)) and split by the choice made at S
    def up(self, m: np.ndarray, k: int) -> np.ndarray:
        out = np.zeros(comb(self.n, k), dtype=np.int64)
        for idx in self.lift.subs(k):
            out += m[idx]
        return out

    def forward(self, prefix: tuple, s: int, m: np.ndarray) -> None:
        if prefix in self.stage:
            _, _, k = self.stage[prefix]
            for j in range(s + 1, k + 1):
                m = self.up(m, j)
            order, pick = self.chosen[prefix]
            for i, c in enumerate(order):
                self.forward(prefix + (c,), k, np.where(pick == i, m, 0))
            return
        for j in range(s + 1, self.N + 1):
            m = self.up(m, j)
        vals = self.table_of[prefix][self.cls, 0]
        for v in np.unique(vals[m > 0]):
            self.dist[int(v)] = self.dist.get(int(v), 0) + int(m[vals == v].sum())


def solve(game, steps, deck: Sequence[int], options: dict, bets: dict) -> DealSolution:
    """The optimal strategy (largest expected net of the round at every seen set) over every deal."""
    if any(s.kind == "deal" and dict(s.params).get("to") == "dealer" for s in steps):
        return solve_dealer(game, steps, deck, options, bets)
    pl = plan(game, steps)
    deck = sorted(deck)  # rows of increasing positions are then rows of increasing cards (Vectoriser)
    n, N = len(deck), pl.n_cards
    if comb(n, N) > MAX_SETS:
        raise Refused(f"{comb(n, N):,} sets of {N} cards exceed the {MAX_SETS:,} the deal-class route enumerates")
    stakes = {k: money(v) for k, v in bets.items()}
    rows = colex_combinations(n, N)
    cls, reps = _deal_classes(game, pl, deck, rows, options)
    C = len(reps)
    rk: dict = {}
    hist = _histories(game, options, stakes, reps[0], rk)
    wagers = sorted({w for w in game.wagers})
    # net table per history: (C, 1 + 2W) of Fractions -> scaled integers
    L, table_of = _net_tables(game, options, stakes, reps, hist, wagers, rk)
    ind = _Induction(n, N, cls, C, table_of, _stages(hist, N))
    u0 = ind.value((), 0)[0]
    denom = perm(n, N) * L
    ex = [Fraction(int(x), denom) for x in u0]
    W = len(wagers)
    net = {w: ex[1 + i] for i, w in enumerate(wagers) if ex[1 + W + i] or ex[1 + i]}
    stake = {w: ex[1 + W + i] for i, w in enumerate(wagers) if w in net}
    ind.forward((), 0, np.ones(1, dtype=np.int64))
    dist = ind.dist
    if sum(dist.values()) != perm(n, N):
        raise Refused("the distribution of the net result does not cover every deal")
    return DealSolution(ex[0], sum(stake.values(), Fraction(0)), net, stake, C, len(rows), len(hist), ind.freq,
                        {Fraction(v, L): Fraction(c, perm(n, N)) for v, c in sorted(dist.items())})
