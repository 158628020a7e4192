"""The dealer-hand route: the optimal strategy of one seat against a dealer's hand dealt from the same deck.

Taken by :func:`compiler.analysis.deals.solve` when a deal step deals to the dealer. :func:`dealer_plan`
checks what the rules read (the seat's cards through hand values of all N, the dealer's through hand
values of all M, the two together only by comparing hand values in one ranking); :func:`solve_dealer`
counts the dealer completions of every view by card removal (:mod:`compiler.analysis.removal`), up to
the permutations of suits.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import permutations
from math import comb, factorial, lcm
from typing import Sequence

import numpy as np

from compiler.analysis.deal_common import (
    _CARD_OWNERS, _HAND, _VALUE_OF_HAND, MAX_SETS, DealSolution, Refused, _atoms, _histories, _play,
    _reads_cards, _walk_nodes, _zones_of, refuse_bonus_outside_settle)
from compiler.analysis.enumerate import Vectoriser, colex_combinations, colex_index
from compiler.analysis.removal import DisjointCounter
from compiler.lang.rules import BinOp, BoolOp, Call, Not, Ref, compile_expr
from compiler.runtime.cards import JOKER
from compiler.runtime.engine import Context, Table
from compiler.runtime.money import money
from compiler.runtime.rankings import Ranking

# ------------------------------------------------------------------------------------- a dealer's hand
_CMP = {"<", ">", "<=", ">=", "==", "!="}


@dataclass
class _DealerPlan:
    player: dict
    community: dict
    dealer: dict                # dealer zone -> cards
    order: list                 # [(owner, zone, count, seen at the decisions)] in deal order
    n_cards: int                # N: the seat's cards (player and community)
    m_cards: int                # M: the dealer's cards
    visible: int                # V: dealer cards the player sees when deciding
    seat_atoms: list
    dealer_atoms: list
    paytable_values: list
    seat_rankings: list
    dealer_rankings: list
    compare: str | None         # the ranking in which the seat's hand is compared with the dealer's


def _side(node, player, community, dealer, n_cards, m_cards) -> str | None:
    """'seat' / 'dealer' when every card ``node`` reads is the seat's / the dealer's, else None."""
    owners = {o for o, _ in _zones_of(node)}
    if owners <= {"player", "community"}:
        return "seat"
    if owners == {"dealer"}:
        return "dealer"
    return None


def _dealer_side_atom(node, where, dealer, m_cards, game, rankings: set) -> None:
    """Check a sub-expression reading only the dealer's cards is a function of one hand value of all of them."""
    if not (isinstance(node, Call) and (node.name in _VALUE_OF_HAND or node.name in _HAND or node.name == "is_hand")):
        raise Refused(f"{where} reads the dealer's cards outside a hand value")
    hands = [x for x in _walk_nodes(node) if isinstance(x, Call) and (x.name in _HAND or x.name == "is_hand")]
    for h in hands:
        zones = _zones_of(h.args[1])
        total = 0
        for owner, z in zones:
            if owner != "dealer":
                raise Refused(f"{where} judges a hand on the dealer's and other cards together")
            total += sum(dealer.values()) if z in (None, "cards") else dealer.get(z, -10**6)
        if total != m_cards or len(set(zones)) != len(zones):
            raise Refused(f"{where} judges a hand on part of the dealer's cards; the dealer-hand route models only "
                          f"rules that read all {m_cards} of them together")
        rid = h.args[0].parts[0]
        if h.name == "is_hand":
            hid = h.args[2].parts[0]
            if _ranking(game, rid).card_sets(hid) is not None:
                raise Refused(f"{where} asks whether the dealer holds '{hid}', a hand named by its cards, not by "
                              "its value")
        rankings.add(rid)
    bare = [x for x in _walk_nodes(node) if isinstance(x, Ref) and x.parts[0] in _CARD_OWNERS]
    if len(bare) != sum(len(_zones_of(h.args[1])) for h in hands):
        raise Refused(f"{where} reads the dealer's cards outside a hand value")


def _split_atoms(node, where, pl: dict, out: dict) -> None:
    """The card-reading parts of a condition: the seat's hand values, the dealer's, and comparisons of the two."""
    if node is None or not _reads_cards(node):
        return
    side = _side(node, pl["player"], pl["community"], pl["dealer"], pl["N"], pl["M"])
    if side == "seat":
        _atoms(node, where, pl["player"], pl["community"], pl["N"], out["seat_rankings"], out["seat"])
        return
    if side == "dealer" and isinstance(node, Call):
        _dealer_side_atom(node, where, pl["dealer"], pl["M"], pl["game"], out["dealer_rankings"])
        out["dealer"].append(node)
        return
    if isinstance(node, BinOp) and node.op in _CMP:
        sides = [_side(x, pl["player"], pl["community"], pl["dealer"], pl["N"], pl["M"]) for x in (node.left, node.right)]
        if (set(sides) == {"seat", "dealer"} and all(isinstance(x, Call) and x.name in _HAND for x in (node.left, node.right))
                and node.left.args[0] == node.right.args[0]):
            seat, deal = (node.left, node.right) if sides[0] == "seat" else (node.right, node.left)
            _atoms(seat, where, pl["player"], pl["community"], pl["N"], set(), [])
            _dealer_side_atom(deal, where, pl["dealer"], pl["M"], pl["game"], set())
            rid = node.left.args[0].parts[0]
            if out["compare"] not in (None, rid):
                raise Refused(f"{where} compares the hands in a second ranking ({rid}); the dealer-hand route counts "
                              "comparisons in one ranking")
            out["compare"] = rid
            return
        raise Refused(f"{where} reads the player's and the dealer's cards together other than by comparing their "
                      "hand values in one ranking")
    if isinstance(node, BoolOp):
        for x in node.items:
            _split_atoms(x, where, pl, out)
    elif isinstance(node, Not):
        _split_atoms(node.item, where, pl, out)
    elif isinstance(node, BinOp) and side == "dealer":
        _split_atoms(node.left, where, pl, out)
        _split_atoms(node.right, where, pl, out)
    else:
        raise Refused(f"{where} reads the player's and the dealer's cards together")


def dealer_plan(game, steps) -> _DealerPlan:
    """Check a procedure with a dealer's hand (raises :class:`Refused`) and read what the counting needs."""
    refuse_bonus_outside_settle(steps)
    player: dict = {}
    community: dict = {}
    dealer: dict = {}
    order: list = []
    visible: set = set()
    decided = False
    reveal_after = False
    for s in steps:
        p = dict(s.params)
        if s.kind == "deal":
            if decided:
                raise Refused(f"step {s.id} ({s.cite}) deals cards after a decision; the dealer-hand route models "
                              "decisions taken once every card of the seat is dealt")
            to = p.get("to")
            z = p.get("zone", "cards")
            n = int(p.get("count", 1))
            if to not in ("players", "community", "dealer"):
                raise Refused(f"step {s.id} ({s.cite}) deals to {to}")
            owner = {"players": "player", "community": "community", "dealer": "dealer"}[to]
            holder = {"player": player, "community": community, "dealer": dealer}[owner]
            holder[z] = holder.get(z, 0) + n
            if p.get("face", "up") == "up" or owner == "player":
                visible.add((owner, z))
            order.append([owner, z, n])
        elif s.kind == "reveal":
            if decided:
                reveal_after = True
            else:
                visible.update({("dealer", p.get("zone")), ("community", p.get("zone"))})
        elif s.kind == "decide":
            if reveal_after:
                raise Refused(f"decision {s.id} ({s.cite}) follows cards revealed after an earlier decision; the "
                              "dealer-hand route models decisions taken with one view of the cards")
            decided = True
            for n in (s.when, s.players):
                if _reads_cards(n):
                    raise Refused(f"whether decision {s.id} ({s.cite}) is made depends on the cards")
            for c in s.choices:
                if _reads_cards(c.when) or any(_reads_cards(a.value) for a in c.then if hasattr(a, "value")):
                    raise Refused(f"choice {c.id} of {s.id} ({c.cite}) depends on the cards")
        elif s.kind not in ("settle", "announce", "burn"):
            raise Refused(f"step {s.id} ({s.cite}) is a '{s.kind}' step, which the dealer-hand route does not model")
        if s.kind != "decide" and (_reads_cards(s.when) or _reads_cards(s.players)):
            raise Refused(f"whether step {s.id} ({s.cite}) applies depends on the cards")
    if not decided:
        raise Refused("the procedure has no decision")
    if not dealer:
        raise Refused("no cards are dealt to the dealer")
    for z in community:
        if ("community", z) not in visible:
            raise Refused(f"community cards ({z}) the player has not seen when deciding: the dealer-hand route models "
                          "decisions taken with every card of the seat seen")
    for o in order:
        o.append((o[0], o[1]) in visible)
    N = sum(player.values()) + sum(community.values())
    M = sum(dealer.values())
    V = sum(n for owner, z, n, seen in order if owner == "dealer" and seen)
    pl = {"player": player, "community": community, "dealer": dealer, "N": N, "M": M, "game": game}
    out = {"seat": [], "dealer": [], "seat_rankings": set(), "dealer_rankings": set(), "compare": None}
    pvals = []
    for s in steps:
        if s.kind != "settle":
            continue
        for r in s.rules:
            _split_atoms(r.when, f"the rule at {r.cite}", pl, out)
            for a in r.then:
                if a.kind in ("win", "bonus") and getattr(a, "paytable", None) is not None:
                    pt = game.paytables[a.paytable]
                    if pt.amounts:
                        raise Refused(f"paytable {a.paytable} ({pt.cite}) pays by the amount wagered")
                    rk = _ranking(game, pt.ranking)
                    if any(rk.card_sets(row[0]) is not None for row in pt.rows):
                        raise Refused(f"paytable {a.paytable} ({pt.cite}) pays hands named by their cards")
                    node = a.value if isinstance(a.value, Call) and a.value.name in _HAND else Call(
                        "best", (Ref((pt.ranking,)), a.value))
                    if _side(node, player, community, dealer, N, M) != "seat":
                        raise Refused(f"the paytable win at {r.cite} is judged on the dealer's cards")
                    _atoms(node, f"the paytable win at {r.cite}", player, community, N, out["seat_rankings"], [])
                    pvals.append((a.paytable, a.value))
                else:
                    for attr in ("value", "amount"):
                        v = getattr(a, attr, None)
                        if v is not None and not isinstance(v, (str, int, Fraction, Decimal)) and _reads_cards(v):
                            raise Refused(f"the action at {r.cite} reads the cards")
    for rid in out["seat_rankings"]:
        if int(game.rankings[rid]["cards"]) > N:
            raise Refused(f"ranking {rid} needs more cards than the seat is dealt")
    for rid in out["dealer_rankings"] | ({out["compare"]} if out["compare"] else set()):
        if int(game.rankings[rid]["cards"]) > min(M, N if rid == out["compare"] else M):
            raise Refused(f"ranking {rid} needs more cards than the hands it judges")
    return _DealerPlan(player, community, dealer, order, N, M, V, out["seat"], out["dealer"], pvals,
                       sorted(out["seat_rankings"]), sorted(out["dealer_rankings"]), out["compare"])


_ZONE_CTX: list = []
_RANKINGS: dict = {}


def _ranking(game, rid: str):
    """The game's ranking ``rid`` (built once per game: its tables take a second)."""
    key = (id(game), rid)
    if key not in _RANKINGS or _RANKINGS[key][0] is not game:
        _RANKINGS[key] = (game, Ranking.from_spec(game.rankings[rid], rid))
    return _RANKINGS[key][1]


def _zone_ctx(table, game, zones: dict):
    """A context over one deal's zones only, for evaluating the card-reading atoms with the compiled code."""
    if not _ZONE_CTX:
        class _Ctx(Context):
            def __init__(self, table, game, zones):  # noqa: D401 - no round: only zones are read
                self.table = table
                self.game = game
                self._z = zones

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
    n, N, M, V = len(deck), dp.n_cards, dp.m_cards, dp.visible
    if comb(n, N) > MAX_SETS or comb(n, M) > MAX_SETS:
        raise Refused(f"hands of {N} and {M} cards from {n} exceed the {MAX_SETS:,} sets the route enumerates")
    stakes = {k: money(v) for k, v in bets.items()}
    deck_arr = np.array(deck, dtype=np.int64)
    table = Table(game, options, seed=0)
    env = {"Decimal": Decimal, "Fraction": Fraction}

    vcache: dict = {}

    def vectoriser(rid, k):
        if (rid, k) not in vcache:
            vcache[rid, k] = Vectoriser(_ranking(game, rid), k, deck)
        return vcache[rid, k]

    ecache: dict = {}

    def evaluate(rid, k, rows):
        if (rid, k, id(rows)) not in ecache:
            ecache[rid, k, id(rows)] = vectoriser(rid, k).evaluate_positions(rows).astype(np.int64)
        return ecache[rid, k, id(rows)]

    def classes_of(rows, k, rankings, atoms, pcodes, zones_of_cards):
        """Class of every k-set (colex order): the distinct results of the compiled atoms."""
        keys = [evaluate(r, k, rows) for r in rankings]
        if not keys:
            return np.zeros(len(rows), dtype=np.int64), [[int(c) for c in deck_arr[rows[0].astype(np.int64)]]]
        if len(keys) == 1:
            _, first, inv = np.unique(keys[0], return_index=True, return_inverse=True)
        else:
            _, first, inv = np.unique(np.stack(keys, axis=1), axis=0, return_index=True, return_inverse=True)
        codes = [compile(compile_expr(a), "<atom>", "eval") for a in atoms]
        seen: dict = {}
        reps: list = []
        of_key = np.empty(len(first), dtype=np.int64)
        for i, r in enumerate(first):
            cards = [int(c) for c in deck_arr[rows[r].astype(np.int64)]]
            ctx = _zone_ctx(table, game, zones_of_cards(cards))
            key = tuple(repr(eval(c, env, {"ctx": ctx})) for c in codes) + tuple(
                repr(table.paytable_odds(pid, eval(c, env, {"ctx": ctx}))) for pid, c in pcodes)
            if key not in seen:
                seen[key] = len(reps)
                reps.append(cards)
            of_key[i] = seen[key]
        return of_key[inv.reshape(-1)], reps

    def seat_zones(cards):
        z, i = {}, 0
        for owner, zone, k, _ in dp.order:
            if owner != "dealer":
                z.setdefault((owner, zone), []).extend(cards[i:i + k])
                i += k
        return z

    def dealer_zones(cards):
        return {("dealer", "cards"): list(cards)}

    seat_rows = colex_combinations(n, N)
    deal_rows = colex_combinations(n, M) if M != N else seat_rows
    pcodes = [(pid, compile(compile_expr(e), "<paytable value>", "eval")) for pid, e in dp.paytable_values]
    seat_cls, seat_reps = classes_of(seat_rows, N, dp.seat_rankings, dp.seat_atoms, pcodes, seat_zones)
    deal_cls, _ = classes_of(deal_rows, M, dp.dealer_rankings, dp.dealer_atoms, [], dealer_zones)
    C_p, C_d = int(seat_cls.max()) + 1, int(deal_cls.max()) + 1
    # the comparison: both hands on one dense scale of hand values
    if dp.compare is not None:
        vs, vd = vectoriser(dp.compare, N), vectoriser(dp.compare, M)
        scale = sorted({v.score for v in vs.values} | {v.score for v in vd.values})
        pos = {sc: i for i, sc in enumerate(scale)}
        seat_t = np.array([pos[v.score] for v in vs.values], dtype=np.int64)[evaluate(dp.compare, N, seat_rows)]
        deal_v = np.array([pos[v.score] for v in vd.values], dtype=np.int64)[evaluate(dp.compare, M, deal_rows)]
        R = len(scale)
    else:
        seat_t = np.zeros(len(seat_rows), dtype=np.int64)
        deal_v = np.zeros(len(deal_rows), dtype=np.int64)
        R = 1
    # suit symmetry: every permutation of suits that keeps the deck must keep every class and value
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
        for rows, arrs in ((seat_rows, (seat_cls, seat_t)), (deal_rows, (deal_cls, deal_v))):
            img = colex_index(np.sort(gp[rows.astype(np.int64)], axis=1))
            symmetric = symmetric and not any((a[img] != a).any() for a in arrs)
    if not symmetric:  # some hand value or class depends on the suits' names: no reduction by suits
        group, gpos = group[:1], gpos[:1]
    card_bit = np.array(deck, dtype=np.int64)   # bit of each deck position in a mask of cards (joker: 52)
    # the engine: every sequence of choices, and the net of each (seat class, dealer class, sign)
    rk_cache: dict = {}
    W_ids = sorted(game.wagers)
    W = len(W_ids)

    def deal_cards(P, U, T):
        P, U, T = list(P), list(U), list(T)
        out = []
        for owner, zone, k, seen in dp.order:
            src = P if owner != "dealer" else (U if seen else T)
            out.extend(src[:k])
            del src[:k]
        return out

    first = seat_reps[0]
    rest = [c for c in deck if c not in first]
    hist = _histories(game, options, stakes, deal_cards(first, rest[:V], rest[V:M]), rk_cache, True)
    H = len(hist)
    nets: dict = {}              # (cp, cd, sign) -> [row per history] of Fractions

    def play_triple(key, P, U, T):
        rows = []
        for h, seen in hist:
            s2, net, stake = _play(game, options, stakes, deal_cards(P, U, T), h, rk_cache, True)
            if tuple(s2) != seen:
                raise Refused("the decisions a round reaches depend on the cards")
            rows.append([sum(net.values(), Fraction(0))] + [net.get(w, Fraction(0)) for w in W_ids]
                        + [stake.get(w, Fraction(0)) for w in W_ids])
        nets[key] = rows

    # views: visible dealer cards U up to suits, then the seat's cards P up to the suits that fix U
    u_rows = colex_combinations(n, V).astype(np.int64) if V else np.zeros((1, 0), dtype=np.int64)
    u_canon = np.min(np.stack([colex_index(np.sort(gp[u_rows], axis=1)) if V else np.zeros(1, np.int64)
                               for gp in gpos]), axis=0)
    _, u_first, u_orbit = np.unique(u_canon, return_index=True, return_counts=True)
    agg = np.zeros((H, C_p, C_d, 3), dtype=np.int64)   # deals per (history chosen, outcome)
    agg_all = np.zeros((C_p, C_d, 3), dtype=np.int64)  # deals per outcome, whatever is chosen
    canon: dict = {}
    dist: dict = {}
    freq: dict = {}
    total = 0
    member_rows = colex_combinations(n - V, M - V).astype(np.int64)
    counter = None  # the previous view's counter, whose tables the next one fills again
    for ui, orbit in zip(u_first, u_orbit):
        U = u_rows[ui]
        stab = [g for g, gp in zip(group, gpos) if np.array_equal(np.sort(gp[U]), U)]
        local = np.array([i for i in range(n) if i not in set(U.tolist())], dtype=np.int64)   # universe -> deck
        members = local[member_rows]
        full = np.sort(np.concatenate([members, np.broadcast_to(U, (len(members), V))], axis=1), axis=1)
        midx = colex_index(full)
        try:
            counter = DisjointCounter(n - V, member_rows, deal_cls[midx], deal_v[midx], C_d, R, max_query=N,
                                      reuse=counter)
        except MemoryError as e:
            raise Refused(f"the card-removal tables do not fit: {e}") from None
        skey = tuple(stab)
        if skey not in canon:  # the seat's N-sets up to the suit permutations fixing U (shared by every such U)
            allP = seat_rows.astype(np.int64)
            cmask = np.left_shift(np.int64(1), card_bit[allP]).sum(axis=1)     # the cards, one bit each
            if len(stab) > 1:
                cmask = np.min(np.stack([_permute_mask(cmask, g) for g in stab]), axis=0)
            _, q_first, q_mult = np.unique(cmask, return_index=True, return_counts=True)
            canon[skey] = (allP[q_first], q_mult.astype(np.int64))
            del cmask
        reps, mult = canon[skey]
        in_u = np.zeros(n, dtype=bool)
        in_u[U] = True
        keep = ~in_u[reps].any(axis=1)       # an orbit avoids U when one of its sets does (U is fixed)
        P_glob = reps[keep]
        local_of = np.full(n, -1, dtype=np.int64)
        local_of[local] = np.arange(len(local))
        P_loc = local_of[P_glob]
        pidx = colex_index(P_glob)
        cp, t = seat_cls[pidx], seat_t[pidx]
        cnt = counter.counts(P_loc, t)                                   # (q, C_d, 3)
        weight = mult[keep] * int(orbit)
        # the net of every (seat class, dealer class, sign) that occurs, played by the engine
        occurs = np.zeros((C_p, C_d, 3), dtype=bool)
        np.logical_or.at(occurs, cp, cnt > 0)
        for key in zip(*np.nonzero(occurs)):
            key = tuple(int(x) for x in key)
            if key in nets:
                continue
            i = int(np.nonzero((cp == key[0]) & (cnt[:, key[1], key[2]] > 0))[0][0])
            pmask = np.bitwise_or.reduce(np.left_shift(np.int64(1), P_glob[i]))
            mm = np.bitwise_or.reduce(np.left_shift(np.int64(1), members), axis=1)
            dv = deal_v[midx]
            sign = np.where(dv < t[i], 0, np.where(dv == t[i], 1, 2))
            j = int(np.nonzero(((mm & pmask) == 0) & (deal_cls[midx] == key[1]) & (sign == key[2]))[0][0])
            play_triple(key, [int(deck[x]) for x in P_glob[i]], [int(deck[x]) for x in U],
                        [int(deck[x]) for x in members[j]])
        # the choice of largest expected net per view (scaled integer nets of the outcomes that occur)
        L = 1
        for rows in nets.values():
            for r in rows:
                L = lcm(L, r[0].denominator)
        tab = np.zeros((H, C_p, C_d, 3), dtype=np.int64)
        for key, rows in nets.items():
            for h in range(H):
                tab[h][key] = int(rows[h][0] * L)
        order = sorted(range(H), key=lambda h: hist[h][0], reverse=True)   # ties: the largest choices
        ev = np.stack([np.einsum("qcs,qcs->q", cnt, tab[h][cp]) for h in order], axis=1)
        pick = np.array(order)[np.argmax(ev, axis=1)]
        wc = cnt * weight[:, None, None]
        for h in range(H):  # deals (weighted views x completions) per history, seat class and outcome
            sel = pick == h
            np.add.at(agg[h], cp[sel], wc[sel])
        np.add.at(agg_all, cp, wc)
        total += int((cnt.sum(axis=(1, 2)) * weight).sum())
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
    for h in range(H):  # a declared policy: the same sequence of choices on every deal
        pn = sum((int(agg_all[key]) * rows[h][0] for key, rows in nets.items()), Fraction(0)) / total
        ps = sum((int(agg_all[key]) * sum(rows[h][1 + W:], Fraction(0)) for key, rows in nets.items()),
                 Fraction(0)) / total
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
