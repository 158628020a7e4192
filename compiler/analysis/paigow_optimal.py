"""The player's optimal setting against the house way, exact: the main wager of a pai gow chapter when the
player sets each hand to maximise its exact expected net given the cards he holds, the dealer setting by
the house way, over every deal (:mod:`compiler.analysis.paigow_exact` counts; nothing of a chapter is
named here).

1. **Candidates.** Every setting the player may choose (the legal ones, all if none is: as the house way
   starts) of every canonical player hand gets the scores of its compared hands and its atom bits, as the
   house way's setting does.
2. **Pruning, proved from the rules.** The nets of every class that can occur are found by running the
   compiled settle rules (one pair of settings per class). Where, for every player and dealer bits, the net
   does not fall as either comparison improves (checked on the table, never assumed), a setting whose two
   scores are both at most another's with the same bits can do no better on any dealer hand and is
   dropped; settings with equal scores and bits are one. Bits ``b`` are dropped beside bits ``c`` in the
   same hand when every net with ``c`` is at least every net with ``b`` (e.g. a foul that loses outright).
   A dropped setting is never better than a kept one on any dealer hand, so where their expectations tie
   they tie on every dealer hand: the win / push / lose counts are the same whichever is chosen.
   Without the monotony no setting is dropped.
3. **Counting.** The kept settings are counted as extra queries of the same card-removal count as the
   house way's (the dealer hands disjoint from the player's, by class), then valued exactly; the player's
   choice per hand is the highest value (ties: the house way's setting, else the first in the engine's
   order). Checked per hand: the choice is never below the house way's setting.
"""
from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import numpy as np

from compiler.analysis.paigow_exact import SIGN, ExactPaiGow, Refused, _log, count_classes, result_of

BLOCK = 50_000  # player hands per pass of the candidate scoring


class Candidates:
    """The ``extra`` queries of :func:`count_classes`: the player's other settings worth counting."""

    def __init__(self, verbose: bool = False):
        self.verbose = verbose
        self.bits: np.ndarray | None = None     # (Q,) player bits of each query
        self.nets: dict = {}                     # class -> main net (Fraction), every class that can occur
        self.monotone = False
        self.dropped_bits: list = []

    def __call__(self, model: ExactPaiGow, cards: np.ndarray, reps: dict):
        way = model.ways["player"]
        C = len(way.lo_idx)
        R = len(cards)
        X = np.zeros((R, C), np.int64)
        Y = np.zeros((R, C), np.int64)
        B = np.zeros((R, C), np.int64)
        L = np.zeros((R, C), bool)
        for a in range(0, R, BLOCK):
            c = cards[a:a + BLOCK]
            L[a:a + BLOCK] = way.legal_settings(c)
            for j in range(C):
                ch = np.full(len(c), j, dtype=np.intp)
                sc, bits = model.features(c, (c[:, way.hi_idx[j]], c[:, way.lo_idx[j]], ch), "player")
                X[a:a + BLOCK, j], Y[a:a + BLOCK, j], B[a:a + BLOCK, j] = sc[:, 0], sc[:, 1], bits
        _add_reps(reps["player"], X[L], Y[L], B[L], cards, L, way)
        self.nets = _class_nets(model, reps, np.unique(B[L]).tolist())
        keep = self._prune(X, Y, B, L)
        rows, cols = np.nonzero(keep)
        self.bits = B[rows, cols]
        _log(self.verbose, f"  settings kept per player hand: {len(rows) / max(R, 1):.2f} of {L.sum() / max(R, 1):.2f} "
                           f"legal (nets {'monotone' if self.monotone else 'not monotone'} in the comparisons)")
        return rows.astype(np.int64), X[rows, cols], Y[rows, cols]

    def _prune(self, X, Y, B, L) -> np.ndarray:
        pbs = sorted({k[2] for k in self.nets})
        dbs = sorted({k[3] for k in self.nets})
        self.monotone = all(_monotone(self.nets, pb, db) for pb in pbs for db in dbs)
        keep = L.copy()
        R, C = X.shape
        for a in range(0, R, BLOCK):
            s = slice(a, a + BLOCK)
            x, y, b, lg = X[s], Y[s], B[s], L[s]
            ge = (x[:, None, :] >= x[:, :, None]) & (y[:, None, :] >= y[:, :, None])      # [r, i, j]: j >= i
            same = (b[:, None, :] == b[:, :, None]) & lg[:, None, :]
            equal = (x[:, None, :] == x[:, :, None]) & (y[:, None, :] == y[:, :, None])
            earlier = np.tri(C, k=-1, dtype=bool)[None]                                    # [., i, j]: j < i
            beaten = same & ((ge & ~equal) if self.monotone else False) | (same & equal & earlier)
            keep[s] &= ~beaten.any(2)
        # bits every net of which is below every net of other bits present in the same hand
        def above(b2, b1) -> bool:   # every net with b2 at least every net with b1, for both wagers
            ok = True
            for part in (0, 1):
                v1 = [v[part] for k, v in self.nets.items() if k[2] == b1 and v[part] is not None]
                v2 = [v[part] for k, v in self.nets.items() if k[2] == b2 and v[part] is not None]
                if v1 and v2:   # at least as good on every dealer hand; all equal: the lower bits stay
                    ok &= min(v2) >= max(v1) and not (min(v1) >= max(v2) and b1 < b2)
            return ok

        pbs_all = sorted({k[2] for k in self.nets})
        for b1 in pbs_all:
            for b2 in pbs_all:
                if b1 != b2 and above(b2, b1):
                    has2 = (keep & (B == b2)).any(1)
                    gone = keep & (B == b1) & has2[:, None]
                    if gone.any():
                        self.dropped_bits.append((b1, b2))
                    keep &= ~gone
        return keep


def _add_reps(player: dict, xs, ys, bs, cards, L, way) -> None:
    """One setting per distinct (scores, bits) among the candidates, beside the house way's (the pairs of
    settings the settle rules are run on to find a class's net)."""
    key = (xs << 28) | (ys << 8) | bs
    _, first = np.unique(key, return_index=True)
    rr, cc = np.nonzero(L)
    for i in first.tolist():
        b = int(bs[i])
        sc, sets = player.get(b, (np.zeros((0, 2), np.int64), []))
        k = (int(xs[i]), int(ys[i]))
        if len(sc) and ((sc[:, 0] == k[0]) & (sc[:, 1] == k[1])).any():
            continue
        r, j = int(rr[i]), int(cc[i])
        hand = (tuple(cards[r, way.hi_idx[j]].tolist()), tuple(cards[r, way.lo_idx[j]].tolist()))
        player[b] = (np.vstack([sc, np.array([k])]) if len(sc) else np.array([k]), list(sets) + [hand])


def _class_nets(model, reps, pbits) -> dict:
    """{(sx, sy, player bits, dealer bits): main net} for every class some pair of settings falls in."""
    out = {}
    ncmp = len(model.atoms.comparisons)
    for pb in pbits:
        for db in reps["dealer"]:
            for sx in (SIGN if ncmp >= 1 else (0,)):
                for sy in (SIGN if ncmp >= 2 else (0,)):
                    try:
                        out[(sx, sy, pb, db)] = model.nets([(sx, sy, pb, db)], reps)[(sx, sy, pb, db)]
                    except Refused:
                        continue
    return out


def _monotone(nets, pb, db) -> bool:
    """No net (the main wager's, the double's) falls as either comparison improves (sign -1 -> 0 -> 1),
    among the classes that can occur."""
    for part in (0, 1):
        for fixed in SIGN:
            for axis in (0, 1):
                seq = [nets.get((s, fixed, pb, db) if axis == 0 else (fixed, s, pb, db)) for s in (-1, 0, 1)]
                seq = [v[part] for v in seq if v is not None and v[part] is not None]
                if any(a > b for a, b in zip(seq, seq[1:])):
                    return False
    return True


def _values(cnt, counts, bits, nets, den, part) -> np.ndarray:
    """Per query: the summed net (x ``den``, an integer) over the dealer hands of its counts."""
    out = np.zeros(len(counts), dtype=np.int64)
    for pb in np.unique(bits).tolist():
        mat = np.zeros((3, 3, cnt.nd), dtype=np.int64)
        seen = np.zeros((3, 3, cnt.nd), dtype=bool)
        for (sx, sy, b, d), v in nets.items():
            if b == pb and d < cnt.nd and v[part] is not None:
                mat[SIGN.index(sx), SIGN.index(sy), d] = int(v[part] * den)
                seen[SIGN.index(sx), SIGN.index(sy), d] = True
        sel = bits == pb
        if (counts[sel][:, ~seen] > 0).any():
            raise Refused("a class with dealer hands has no net (no pair of settings found for it)")
        out[sel] = np.einsum("qxyd,xyd->q", counts[sel], mat)
    return out


def _choose(rows, v_hw, v_x):
    """Per hand the best value and the kept setting chosen (-1: the house way's, when it is best)."""
    best = v_hw.copy()
    np.maximum.at(best, rows, v_x)
    if (best < v_hw).any():
        raise RuntimeError("the optimal setting is below the house way's")
    hit = np.nonzero((v_x == best[rows]) & (v_hw[rows] < best[rows]))[0]
    first = np.full(len(v_hw), len(rows), dtype=np.int64)
    np.minimum.at(first, rows[hit], hit)
    return best, np.where(first < len(rows), first, -1)


def _tally(cnt, cand, nets, pick, weights, part):
    """Win / push / lose deals and deals by net of the settings chosen (``pick``) for one wager."""
    tally = {"win": 0, "push": 0, "lose": 0}
    by_net: dict = {}
    hw = pick < 0
    for c, w, bits in ((cnt.counts[hw], weights[hw], cnt.pbits[hw]),
                       (cnt.extra[pick[~hw]], weights[~hw], cand.bits[pick[~hw]])):
        for pb in np.unique(bits).tolist():
            a = np.einsum("r,rxyd->xyd", w[bits == pb], c[bits == pb])
            for xi, yi, d in zip(*np.nonzero(a)):
                v = nets[(SIGN[xi], SIGN[yi], pb, int(d))][part]
                tally["win" if v > 0 else "push" if v == 0 else "lose"] += int(a[xi, yi, d])
                by_net[str(v)] = by_net.get(str(v), 0) + int(a[xi, yi, d])
    return tally, dict(sorted(by_net.items(), key=lambda kv: Fraction(kv[0])))


def optimal_of(model: ExactPaiGow, cnt, cand: Candidates, hw: dict) -> dict:
    """Exact figures under the optimal setting, from the counts of the kept settings: the main wager alone
    (the setting maximising its expectation), and where a wager is offered during the round the round with
    both choices optimal (double with the setting that maximises main + double, when that beats the best
    without it)."""
    N, n = len(cnt.deck), cnt.n
    total = comb(N, n) * comb(N - n, n)
    nets = {**cand.nets, **cnt.nets}
    den = math.lcm(*(x.denominator for v in nets.values() for x in v if x is not None))
    W = cnt.weights
    rows = cand.rows
    main_hw, main_x = (_values(cnt, c, b, nets, den, 0) for c, b in ((cnt.counts, cnt.pbits), (cnt.extra, cand.bits)))
    best, pick = _choose(rows, main_hw, main_x)
    main = Fraction(int((best * W).sum()), den * total)
    tally, by_net = _tally(cnt, cand, nets, pick, W, 0)
    assert sum(tally.values()) == total
    out = {"main_optimal": main, "main_optimal_counts": tally, "main_optimal_by_net": by_net,
           "optimal_differs_share": Fraction(int(W[pick >= 0].sum()), comb(N, n)),
           "optimal_gain": main - hw["main"],
           "optimal_pruning": {"monotone": cand.monotone, "kept settings": len(rows), "canonical hands": len(W),
                               "dropped bits": [list(x) for x in cand.dropped_bits]}}
    if model.m.double and all(v[1] is not None for v in nets.values()):
        dd_hw, dd_x = (_values(cnt, c, b, nets, den, 1) for c, b in ((cnt.counts, cnt.pbits), (cnt.extra, cand.bits)))
        both, pick2 = _choose(rows, main_hw + dd_hw, main_x + dd_x)
        made = both > best
        dd_of = np.where(pick2 < 0, dd_hw, dd_x[np.maximum(pick2, 0)])
        share = Fraction(int(W[made].sum()), comb(N, n))
        out.update({"round_optimal": Fraction(int((np.where(made, both, best) * W).sum()), den * total),
                    "double_optimal_setting_share": share,
                    "double_optimal_setting_per_made": (Fraction(int((dd_of[made] * W[made]).sum()), den * total)
                                                        / share) if share else None})
    return out


def run(game, chapter, options=None, deck=None, symmetry=True, verbose=False):
    """House way and optimal setting, exact: (figures, counts)."""
    model = ExactPaiGow(game, chapter, options)
    cand = Candidates(verbose)

    def extra(m, cards, reps):
        r, x, y = cand(m, cards, reps)
        cand.rows = r
        return r, x, y

    cnt = count_classes(model, deck, symmetry=symmetry, verbose=verbose, extra=extra)
    res = result_of(model, cnt)
    res.update(optimal_of(model, cnt, cand, res))
    return res, cnt
