"""The dealer-hand route: the optimal strategy of one seat against a dealer's hand dealt from the same deck.

Taken by :func:`compiler.analysis.deals.solve` when a deal step deals to the dealer. :func:`dealer_plan`
(:mod:`compiler.analysis.dealer_rules`) checks what the rules read (the seat's cards through hand values of all N,
the dealer's through hand values of all M, the two together only by comparing hand values in one ranking);
:func:`solve_dealer` counts the dealer completions of every view by card removal (:mod:`compiler.analysis.removal`),
up to the permutations of suits.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from itertools import permutations
from math import comb, factorial, lcm
from typing import Sequence

import numpy as np

from compiler.analysis.deal_common import MAX_DEALER_SETS, MAX_SETS, DealSolution, Refused, _histories, _play
from compiler.analysis.dealer_rules import _DealerPlan, _ranking, dealer_plan
from compiler.analysis.enumerate import Vectoriser, colex_combinations, colex_index
from compiler.analysis.removal import DisjointCounter, binomials
from compiler.lang.closures import closure
from compiler.runtime.cards import JOKER
from compiler.runtime.engine import Context, Table
from compiler.runtime.money import money

_ZONE_CTX: list = []


def _zone_ctx(table, game, zones: dict):
    """A context over one deal's zones only, for evaluating the card-reading atoms with the compiled code."""
    if not _ZONE_CTX:
        class _Ctx(Context):
            def __init__(self, table, game, zones):  # noqa: D401 - no round: only zones are read
                self.table = table
                self.game = game
                self._z = zones
                self.cite = None  # no rule is being applied: an error names the procedure

            def zone(self, owner, zone):
                if zone is None or zone == "cards":
                    return [c for (o, _), cs in self._z.items() if o == owner for c in cs]
                return list(self._z.get((owner, zone), ()))

        _ZONE_CTX.append(_Ctx)
    return _ZONE_CTX[0](table, game, zones)


_SUIT_BITS = [sum(1 << (4 * r + s) for r in range(13)) for s in range(4)]


def _permute_mask(mask: np.ndarray, g: tuple) -> np.ndarray:
    """Masks of card sets (bit c for card c; the joker's bit 52 stays) with suit s renamed g[s]."""
    out = mask & np.int64(1 << 52)
    for s in range(4):
        part = mask & np.int64(_SUIT_BITS[s])
        d = g[s] - s
        out |= (part << d) if d >= 0 else (part >> -d)
    return out


def _suit_group(deck: Sequence[int]) -> list[tuple]:
    """The permutations of the deck's suits that map the deck onto itself (as maps suit -> suit)."""
    suits = sorted({c & 3 for c in deck if c != JOKER})
    whole = sorted(deck)
    group = []
    for img in permutations(suits):
        g = {a: b for a, b in zip(suits, img)}
        if sorted(c if c == JOKER else (c & ~3) | g[c & 3] for c in deck) == whole:
            group.append(tuple(g.get(x, x) for x in range(4)))
    return group


class _AtomClasses:
    """Classes of card sets: the distinct results of the compiled atoms, each distinct hand value evaluated once."""

    def __init__(self, game, deck: list, table):
        self.game, self.deck, self.table = game, deck, table
        self.deck_arr = np.array(deck, dtype=np.int64)
        self._vcache: dict = {}
        self._ecache: dict = {}

    def vectoriser(self, rid, k):
        if (rid, k) not in self._vcache:
            self._vcache[rid, k] = Vectoriser(_ranking(self.game, rid), k, self.deck)
        return self._vcache[rid, k]

    def evaluate(self, rid, k, rows):
        if (rid, k, id(rows)) not in self._ecache:
            self._ecache[rid, k, id(rows)] = self.vectoriser(rid, k).evaluate_positions(rows).astype(np.int64)
        return self._ecache[rid, k, id(rows)]

    def classes_of(self, rows, k, rankings, atoms, pcodes, zones_of_cards):
        """Class of every k-set (colex order): the distinct results of the compiled atoms."""
        keys = [self.evaluate(r, k, rows) for r in rankings]
        if not keys:
            return np.zeros(len(rows), dtype=np.int64), [[int(c) for c in self.deck_arr[rows[0].astype(np.int64)]]]
        if len(keys) == 1:
            _, first, inv = np.unique(keys[0], return_index=True, return_inverse=True)
        else:
            _, first, inv = np.unique(np.stack(keys, axis=1), axis=0, return_index=True, return_inverse=True)
        codes = [closure(a) for a in atoms]
        seen: dict = {}
        reps: list = []
        of_key = np.empty(len(first), dtype=np.int64)
        for i, r in enumerate(first):
            cards = [int(c) for c in self.deck_arr[rows[r].astype(np.int64)]]
            ctx = _zone_ctx(self.table, self.game, zones_of_cards(cards))
            key = tuple(repr(c(ctx)) for c in codes) + tuple(
                repr(self.table.paytable_odds(pid, c(ctx))) for pid, c in pcodes)
            if key not in seen:
                seen[key] = len(reps)
                reps.append(cards)
            of_key[i] = seen[key]
        return of_key[inv.reshape(-1)], reps


def _seat_zones(order: list, cards) -> dict:
    """The zones of the seat's cards (player and community), dealt in ``order``."""
    z, i = {}, 0
    for owner, zone, k, _ in order:
        if owner != "dealer":
            z.setdefault((owner, zone), []).extend(cards[i:i + k])
            i += k
    return z


def _dealer_zones(dealer: dict, cards) -> dict:
    """The dealer's M cards as the rules read them: in the dealer's one zone (``dealer.hand``), or, dealt to
    several zones, as all the dealer's cards (the rules read hand values of all M)."""
    return {("dealer", next(iter(dealer)) if len(dealer) == 1 else "cards"): list(cards)}


@dataclass
class _Sides:
    """Per card set of the seat (N cards) and of the dealer (M cards), in colex order: its class and its hand
    value on the dense scale of the comparison (both zero when the rules compare no hands)."""
    seat_rows: np.ndarray
    seat_cls: np.ndarray
    seat_t: np.ndarray
    deal_rows: np.ndarray
    deal_cls: np.ndarray
    deal_v: np.ndarray
    C_p: int
    C_d: int
    R: int


def _sides(classes: _AtomClasses, dp: _DealerPlan, n: int) -> tuple[_Sides, list]:
    """The classes and the compared values of every seat and dealer card set; a seat card set of each class."""
    N, M = dp.n_cards, dp.m_cards
    seat_rows = colex_combinations(n, N)
    deal_rows = colex_combinations(n, M) if M != N else seat_rows
    pcodes = [(pid, closure(e)) for pid, e in dp.paytable_values]
    seat_cls, seat_reps = classes.classes_of(seat_rows, N, dp.seat_rankings, dp.seat_atoms, pcodes,
                                             partial(_seat_zones, dp.order))
    deal_cls, _ = classes.classes_of(deal_rows, M, dp.dealer_rankings, dp.dealer_atoms, [],
                                     partial(_dealer_zones, dp.dealer))
    # the comparison: both hands on one dense scale of hand values
    if dp.compare is not None:
        vs, vd = classes.vectoriser(dp.compare, N), classes.vectoriser(dp.compare, M)
        scale = sorted({v.score for v in vs.values} | {v.score for v in vd.values})
        pos = {sc: i for i, sc in enumerate(scale)}
        seat_t = np.array([pos[v.score] for v in vs.values], dtype=np.int64)[classes.evaluate(dp.compare, N, seat_rows)]
        deal_v = np.array([pos[v.score] for v in vd.values], dtype=np.int64)[classes.evaluate(dp.compare, M, deal_rows)]
        R = len(scale)
    else:
        seat_t = np.zeros(len(seat_rows), dtype=np.int64)
        deal_v = np.zeros(len(deal_rows), dtype=np.int64)
        R = 1
    sides = _Sides(seat_rows, seat_cls, seat_t, deal_rows, deal_cls, deal_v, int(seat_cls.max()) + 1,
                   int(deal_cls.max()) + 1, R)
    return sides, seat_reps


def _image_index(rows: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """Colex index of the image under ``perm`` (positions -> positions) of each row of positions (sorted as bytes:
    a deck's positions fit, and a row of bytes sorts faster than one of 64-bit integers)."""
    small = perm.astype(np.uint8) if len(perm) <= 256 else perm.astype(np.int64)
    return colex_index(np.sort(small[rows], axis=1))


def _symmetries(deck: list, sd: _Sides) -> tuple[list, list]:
    """The suit permutations that keep the deck and every class and value (the identity alone if some class or
    value depends on the suits' names), and each as the deck positions it maps the deck's positions to."""
    group = _suit_group(deck)
    pos_of = {c: i for i, c in enumerate(deck)}

    def perm_positions(g):
        return np.array([pos_of[c if c == JOKER else (c & ~3) | g[c & 3]] for c in deck], dtype=np.int64)

    gpos = [perm_positions(g) for g in group]
    suits = sorted({c & 3 for c in deck if c != JOKER})
    checks = gpos[1:]
    if len(group) == factorial(len(suits)) and len(suits) > 2:  # every permutation: two generators suffice
        swap = {suits[0]: suits[1], suits[1]: suits[0]}
        cycle = {a: b for a, b in zip(suits, suits[1:] + suits[:1])}
        checks = [perm_positions(tuple(swap.get(x, x) for x in range(4))),
                  perm_positions(tuple(cycle.get(x, x) for x in range(4)))]
    symmetric = True
    for gp in checks:
        for rows, arrs in ((sd.seat_rows, (sd.seat_cls, sd.seat_t)), (sd.deal_rows, (sd.deal_cls, sd.deal_v))):
            img = _image_index(rows, gp)
            symmetric = symmetric and not any((a[img] != a).any() for a in arrs)
    if not symmetric:  # some hand value or class depends on the suits' names: no reduction by suits
        group, gpos = group[:1], gpos[:1]
    return group, gpos


def _deal_cards(order: list, P, U, T) -> list:
    """The cards in deal order from the seat's ``P``, the dealer's seen ``U`` and the dealer's unseen ``T``."""
    P, U, T = list(P), list(U), list(T)
    out = []
    for owner, zone, k, seen in order:
        src = P if owner != "dealer" else (U if seen else T)
        out.extend(src[:k])
        del src[:k]
    return out


class _Outcomes:
    """The round engine on one representative deal per (seat class, dealer class, sign of the comparison):
    every sequence of choices (``hist``) and the nets of each (``nets``), and the choice made per view."""

    def __init__(self, game, options: dict, stakes: dict, dp: _DealerPlan, deck: list, reps: list):
        self.game, self.options, self.stakes, self.order = game, options, stakes, dp.order
        self.rk_cache: dict = {}
        self.W_ids = sorted(game.wagers)
        self.gated = dp.gated
        V, M = dp.visible, dp.m_cards
        found: dict = {}
        # every sequence of choices; where a choice is offered only on some of the seat's cards, those of a seat
        # card set of every class (the choices a deal offers are its class's)
        for first in (reps if dp.gated else reps[:1]):
            rest = [c for c in deck if c not in first]
            for h, seen in _histories(game, options, stakes, _deal_cards(self.order, first, rest[:V], rest[V:M]),
                                      self.rk_cache, True):
                found.setdefault(h, seen)
        self.hist = sorted(found.items())
        self.nets: dict = {}              # (cp, cd, sign) -> [row per history, None where not offered]

    def play_triple(self, key, P, U, T) -> None:
        rows = []
        W_ids = self.W_ids
        for h, seen in self.hist:
            try:
                s2, net, stake = _play(self.game, self.options, self.stakes, _deal_cards(self.order, P, U, T), h,
                                       self.rk_cache, True)
            except Refused as e:
                if self.gated and "offers different choices" in str(e):
                    rows.append(None)  # a choice of h is not offered on this seat's cards
                    continue
                raise
            if [(d, k) for d, _, k in s2] != [(d, k) for d, _, k in seen] or (not self.gated and tuple(s2) != seen):
                raise Refused("the decisions a round reaches depend on the cards")
            rows.append([sum(net.values(), Fraction(0))] + [net.get(w, Fraction(0)) for w in W_ids]
                        + [stake.get(w, Fraction(0)) for w in W_ids])
        self.nets[key] = rows

    def play_new(self, sd: _Sides, deck: list, view: dict) -> None:
        """The net of every (seat class, dealer class, sign) that occurs in the view and has not been played."""
        cp, cnt, t, P_glob, members, midx = (view[k] for k in ("cp", "cnt", "t", "P_glob", "members", "midx"))
        occurs = np.zeros((sd.C_p, sd.C_d, 3), dtype=bool)
        np.logical_or.at(occurs, cp, cnt > 0)
        for key in zip(*np.nonzero(occurs)):
            key = tuple(int(x) for x in key)
            if key in self.nets:
                continue
            i = int(np.nonzero((cp == key[0]) & (cnt[:, key[1], key[2]] > 0))[0][0])
            pmask = np.bitwise_or.reduce(np.left_shift(np.int64(1), P_glob[i]))
            mm = np.bitwise_or.reduce(np.left_shift(np.int64(1), members), axis=1)
            dv = sd.deal_v[midx]
            sign = np.where(dv < t[i], 0, np.where(dv == t[i], 1, 2))
            j = int(np.nonzero(((mm & pmask) == 0) & (sd.deal_cls[midx] == key[1]) & (sign == key[2]))[0][0])
            self.play_triple(key, [int(deck[x]) for x in P_glob[i]], [int(deck[x]) for x in view["U"]],
                             [int(deck[x]) for x in members[j]])

    def choose(self, sd: _Sides, cnt: np.ndarray, cp: np.ndarray) -> np.ndarray:
        """The history of largest expected net per seat set of a view (scaled integer nets of the outcomes)."""
        H = len(self.hist)
        L = 1
        for rows in self.nets.values():
            for r in rows:
                if r is not None:
                    L = lcm(L, r[0].denominator)
        tab = np.zeros((H, sd.C_p, sd.C_d, 3), dtype=np.int64)
        offered = np.ones((H, sd.C_p), dtype=bool)
        for key, rows in self.nets.items():
            for h in range(H):
                if rows[h] is None:
                    offered[h, key[0]] = False
                else:
                    tab[h][key] = int(rows[h][0] * L)
        order = sorted(range(H), key=lambda h: self.hist[h][0], reverse=True)   # ties: the largest choices
        ev = np.stack([np.einsum("qcs,qcs->q", cnt, tab[h][cp]) for h in order], axis=1)
        ev = np.where(offered[order][:, cp].T, ev, np.iinfo(np.int64).min)   # only the choices offered
        return np.array(order)[np.argmax(ev, axis=1)]


def _view_orbits(n: int, V: int, gpos: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sets of visible dealer cards (positions), one of each orbit under the suit permutations, and its size."""
    u_rows = colex_combinations(n, V).astype(np.int64) if V else np.zeros((1, 0), dtype=np.int64)
    u_canon = np.min(np.stack([colex_index(np.sort(gp[u_rows], axis=1)) if V else np.zeros(1, np.int64)
                               for gp in gpos]), axis=0)
    _, u_first, u_orbit = np.unique(u_canon, return_index=True, return_counts=True)
    return u_rows, u_first, u_orbit


def _seat_orbits(sd: _Sides, card_bit: np.ndarray, stab: list) -> tuple[np.ndarray, np.ndarray]:
    """The seat's N-sets up to the suit permutations ``stab`` (one set of each orbit) and the orbits' sizes."""
    allP = sd.seat_rows.astype(np.int64)
    cmask = np.left_shift(np.int64(1), card_bit[allP]).sum(axis=1)     # the cards, one bit each
    if len(stab) > 1:
        cmask = np.min(np.stack([_permute_mask(cmask, g) for g in stab]), axis=0)
    _, q_first, q_mult = np.unique(cmask, return_index=True, return_counts=True)
    return allP[q_first], q_mult.astype(np.int64)


def _colex_with(rows: np.ndarray, local: np.ndarray, U: np.ndarray, n: int) -> np.ndarray:
    """Colex index (among the n positions) of each set ``local[row]`` together with the increasing positions ``U``
    (``local``: the other positions, increasing), without sorting: an item's place in the union is its place
    in its own set plus the items of the other set below it."""
    binom = binomials(n, rows.shape[1] + len(U))
    u_below = np.searchsorted(U, local)                      # items of U below each local position
    idx = np.zeros(len(rows), dtype=np.int64)
    for i in range(rows.shape[1]):
        idx += binom[local, i + 1 + u_below][rows[:, i]]     # C(item, its place in the union) by local position
    for j, u in enumerate(U.tolist()):
        below = np.zeros(len(rows), dtype=np.uint8)          # items of the row below u
        for i in range(rows.shape[1]):
            below += rows[:, i] < u - j                      # u - j: the local positions below u
        idx += binom[u, j + 1:][below]
    return idx


class _Views:
    """The deals counted view by view (the seat's cards P, the visible dealer cards U), each view's choice the one
    of largest expected net: deals per (history chosen, outcome) in ``agg``, per outcome in ``agg_all``."""

    def __init__(self, dp: _DealerPlan, deck: list, sd: _Sides, group: list, gpos: list, engine: _Outcomes):
        self.dp, self.deck, self.sd, self.group, self.gpos, self.engine = dp, deck, sd, group, gpos, engine
        H = len(engine.hist)
        self.agg = np.zeros((H, sd.C_p, sd.C_d, 3), dtype=np.int64)   # deals per (history chosen, outcome)
        self.agg_all = np.zeros((sd.C_p, sd.C_d, 3), dtype=np.int64)  # deals per outcome, whatever is chosen
        self.total = 0
        self._canon: dict = {}
        self._counter = None  # the previous view's counter, whose tables the next one fills again
        self._card_bit = np.array(deck, dtype=np.int64)   # bit of each deck position in a mask of cards (joker: 52)

    def count_all(self) -> None:
        """Every view: visible dealer cards U up to suits, then the seat's cards P up to the suits that fix U."""
        n, V, M = len(self.deck), self.dp.visible, self.dp.m_cards
        u_rows, u_first, u_orbit = _view_orbits(n, V, self.gpos)
        self._rows8 = colex_combinations(n - V, M - V)       # uint8
        member_rows = self._rows8.astype(np.int64)
        for ui, orbit in zip(u_first, u_orbit):
            self.count_view(u_rows[ui], orbit, member_rows)

    def _dealer_counter(self, U: np.ndarray, member_rows: np.ndarray) -> tuple:
        """The dealer's hands holding U (positions), their colex indices, and a counter of those disjoint from a set."""
        n, V, sd = len(self.deck), self.dp.visible, self.sd
        local = np.array([i for i in range(n) if i not in set(U.tolist())], dtype=np.int64)   # universe -> deck
        midx = _colex_with(self._rows8, local, U, n)
        members = local[member_rows]
        try:
            self._counter = DisjointCounter(n - V, member_rows, sd.deal_cls[midx], sd.deal_v[midx], sd.C_d, sd.R,
                                            max_query=self.dp.n_cards, reuse=self._counter)
        except MemoryError as e:
            raise Refused(f"the card-removal tables do not fit: {e}") from None
        return local, members, midx

    def count_view(self, U: np.ndarray, orbit, member_rows: np.ndarray) -> None:
        n, sd = len(self.deck), self.sd
        stab = [g for g, gp in zip(self.group, self.gpos) if np.array_equal(np.sort(gp[U]), U)]
        local, members, midx = self._dealer_counter(U, member_rows)
        skey = tuple(stab)
        if skey not in self._canon:  # the seat's N-sets up to the suit permutations fixing U (shared by every such U)
            self._canon[skey] = _seat_orbits(sd, self._card_bit, stab)
        reps, mult = self._canon[skey]
        in_u = np.zeros(n, dtype=bool)
        in_u[U] = True
        keep = ~in_u[reps].any(axis=1)       # an orbit avoids U when one of its sets does (U is fixed)
        P_glob = reps[keep]
        local_of = np.full(n, -1, dtype=np.int64)
        local_of[local] = np.arange(len(local))
        P_loc = local_of[P_glob]
        pidx = colex_index(P_glob)
        cp, t = sd.seat_cls[pidx], sd.seat_t[pidx]
        cnt = self._counter.counts(P_loc, t)                                   # (q, C_d, 3)
        weight = mult[keep] * int(orbit)
        # the net of every (seat class, dealer class, sign) that occurs, played by the engine
        self.engine.play_new(sd, self.deck, {"cp": cp, "cnt": cnt, "t": t, "P_glob": P_glob, "members": members,
                                             "midx": midx, "U": U})
        # the choice of largest expected net per view (scaled integer nets of the outcomes that occur)
        pick = self.engine.choose(sd, cnt, cp)
        wc = cnt * weight[:, None, None]
        # deals (weighted views x completions) per history, seat class and outcome
        for h in range(len(self.engine.hist)):
            sel = pick == h
            np.add.at(self.agg[h], cp[sel], wc[sel])
        np.add.at(self.agg_all, cp, wc)
        self.total += int((cnt.sum(axis=(1, 2)) * weight).sum())


def _dealer_solution(dp: _DealerPlan, n: int, views: _Views, engine: _Outcomes, group: list) -> DealSolution:
    """The figures of the counted deals: expected nets and stakes, the choices' frequencies, the distribution of
    the round's net and the declared policies."""
    N, M, V = dp.n_cards, dp.m_cards, dp.visible
    hist, nets, agg, agg_all, total = engine.hist, engine.nets, views.agg, views.agg_all, views.total
    H, W_ids = len(hist), engine.W_ids
    W = len(W_ids)
    dist: dict = {}
    freq: dict = {}
    acc = [Fraction(0)] * (1 + 2 * W)
    for key, rows in nets.items():
        for h in range(H):
            c = int(agg[h][key])
            if not c:
                continue
            for w in range(1 + 2 * W):
                acc[w] += c * rows[h][w]
            freq[hist[h][0]] = freq.get(hist[h][0], 0) + c
            dist[rows[h][0]] = dist.get(rows[h][0], 0) + c
    expect = comb(n, N) * comb(n - N, M - V) * comb(n - N - (M - V), V)
    if total != expect:
        raise Refused(f"the views counted {total:,} deals, not {expect:,}")
    policies = {}
    for h in range(H):  # a declared policy: the same sequence of choices on every deal (where it is offered on all)
        if any(rows[h] is None for key, rows in nets.items() if agg_all[key]):
            continue
        pn = sum((int(agg_all[key]) * rows[h][0] for key, rows in nets.items() if rows[h] is not None),
                 Fraction(0)) / total
        ps = sum((int(agg_all[key]) * sum(rows[h][1 + W:], Fraction(0)) for key, rows in nets.items()
                  if rows[h] is not None), Fraction(0)) / total
        policies[hist[h][0]] = (pn, ps)
    ex = [a / total for a in acc]
    net = {w: ex[1 + i] for i, w in enumerate(W_ids) if ex[1 + W + i] or ex[1 + i]}
    stake = {w: ex[1 + W + i] for i, w in enumerate(W_ids) if w in net}
    choice_frequency = {" then ".join(dict.fromkeys(d for d, _, _ in hist[0][1])): {
        ",".join(h): Fraction(c, total) for h, c in sorted(freq.items())}}
    return DealSolution(ex[0], sum(stake.values(), Fraction(0)), net, stake, len(nets), total, H, choice_frequency,
                        {x: Fraction(c, total) for x, c in sorted(dist.items())},
                        policies=policies, method=f"exact: optimal strategy per view (the seat's {N} cards and {V} dealer card"
                        f"{'s' if V != 1 else ''} seen) over all {total:,} deals; the dealer's hand counted by card "
                        f"removal, {len(nets)} (seat class, dealer class, comparison) outcomes played by the engine, "
                        f"{H} sequences of choices; {len(group)} suit permutations")


def solve_dealer(game, steps, deck: Sequence[int], options: dict, bets: dict) -> DealSolution:
    """The optimal strategy of one seat against a dealer's hand dealt from the same deck, exactly.

    The player decides seeing the seat's N cards and the V dealer cards the steps show (dealt face up,
    or revealed before the decision); the dealer's other M - V cards are chance after the decision.
    The rules (checked by :func:`dealer_plan`) read the seat's cards through hand values of all N, the
    dealer's through hand values of all M, and the two together only by comparing their hand values in
    one ranking. So the net of a round is a function of (the seat's class, the dealer's class, the sign
    of the comparison): the classes are the distinct results of the compiled atoms, the net of each
    triple is played by the round engine (a representative deal), and for every view (seat cards P,
    visible dealer cards U) the number of dealer completions in each (class, sign) is counted by
    card removal (:mod:`compiler.analysis.removal`). Views are taken up to the permutations of suits
    (checked to leave every hand value unchanged); the choice of largest expected net is taken per view.
    """
    dp = dealer_plan(game, steps)
    deck = sorted(deck)
    n, N, M = len(deck), dp.n_cards, dp.m_cards
    if comb(n, N) > MAX_SETS:
        raise Refused(f"hands of {N} cards from {n} exceed the {MAX_SETS:,} sets the route enumerates for the seat")
    if comb(n, M) > MAX_DEALER_SETS:
        raise Refused(f"the dealer's hands of {M} cards from {n} exceed the {MAX_DEALER_SETS:,} sets the route "
                      "enumerates")
    stakes = {k: money(v) for k, v in bets.items()}
    table = Table(game, options, seed=0)
    sides, seat_reps = _sides(_AtomClasses(game, deck, table), dp, n)
    # suit symmetry: every permutation of suits that keeps the deck must keep every class and value
    group, gpos = _symmetries(deck, sides)
    # the engine: every sequence of choices, and the net of each (seat class, dealer class, sign)
    engine = _Outcomes(game, options, stakes, dp, deck, seat_reps)
    views = _Views(dp, deck, sides, group, gpos, engine)
    views.count_all()
    return _dealer_solution(dp, n, views, engine, group)
