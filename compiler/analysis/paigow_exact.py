"""The main wager of a pai gow chapter (and the wager offered equal to it) exact over every deal, player and
dealer setting their hands by the house way: card-removal counting with suit symmetry.

Everything is read from the compiled chapter (no chapter, wager or rule is named here):

1. **Every hand set once.** All C(N, n) hands of the deck are set by the players' and by the dealer's
   ``set_hands`` steps (their house ways compiled to numpy, :mod:`compiler.fast.houseway`). Per hand and
   side: the scores of the hands the settle rules compare (ordinals of the compiled rankings: equal
   ordinals are equal hands) and the truth of every other condition of the settle rules that reads one
   side's cards (the *atoms*, evaluated by the fast path's compiled expressions).
2. **Classes.** The settle step's conditions are split statically into atoms: a comparison of a player's
   hand with the dealer's hand of the same zone and ranking, a condition of the player's cards alone (or
   the flag its ``set_hands`` step raises on an illegal setting), a condition of the dealer's cards alone,
   and constants of the scenario (wagers placed, options, flags the step itself sets). Anything else
   refuses (:class:`Refused`, no figure). The net of a pair of settings is then a function of its class
   (the signs of at most two comparisons and the atom bits), found by running the compiled settle rules
   (:class:`compiler.analysis.paigow_model.Outcomes`) on one pair of settings of each class that occurs.
3. **Card removal.** For a player hand P the dealer hands D disjoint from P in each class are counted by
   inclusion-exclusion over the subsets S of P: #{D : D n P = {}} = sum_S (-1)^|S| #{D : D contains S},
   each a two-dimensional dominance count over the dealer hands containing S (sorted by the first score,
   prefix counts over the second score and the dealer's atom bits).
4. **Suit symmetry.** Checked, not assumed: every per-hand quantity is compared between each hand and
   its image under two permutations of the suits that generate all 24. Then the player hands are taken
   up to a permutation of the suits (each weighted by its orbit size) and the dealer groups are built for
   one set S per orbit; a query (P, S) goes to the group of S's orbit with P's own scores.

The figure is a Fraction: the sum over canonical player hands of weight x net x count, over
C(N, n) x C(N - n, n) deals.
"""
from __future__ import annotations

import itertools
import math
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

import numpy as np

from compiler.analysis.enumerate import colex_combinations, colex_index, iter_colex_blocks, standard_deck
from compiler.analysis.paigow_model import Outcomes, Refused, _ir_step, model_or_reason, options_read, settle_atoms
from compiler.fast.hands import vec_ranking
from compiler.fast.houseway import CompiledHouseWay, HouseWayUnsupported
from compiler.fast.vector import State, Unsupported, compile_fast
from compiler.runtime.cards import JOKER
from compiler.runtime.engine import Table

ANALYSIS_VERSION = 1


def _log(verbose, msg):
    if verbose:
        print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# The model: steps, house ways, atoms, outcomes per class
# ---------------------------------------------------------------------------------------------


class ExactPaiGow:
    def __init__(self, game, chapter, options=None):
        m, why = model_or_reason(game, chapter)
        if m is None:
            raise Refused(why)
        self.game, self.chapter, self.m = game, chapter, m
        # the wager offered during the round is offered (its figure needs it); no other optional wager
        dd = game.wagers.get(m.double) if m.double else None
        self.options = {**({dd.offered_by: True} if dd is not None and dd.offered_by else {}), **dict(options or {})}
        self.table = Table(game, self.options, seed=0)
        if self.table.shoe_decks() != 1:
            raise Refused("more than one deck in the shoe")
        self.n, self.low = m.high + m.low, m.low
        self.pstep, self.dstep = _ir_step(chapter, m.player_step.id), _ir_step(chapter, m.dealer_step.id)
        self.sstep = _ir_step(chapter, m.settle_step.id)
        own = {a.name for r in self.sstep.rules for a in r.then if a.kind == "set"}
        pflag = dict(self.pstep.params).get("flag")
        self.foul_flag = pflag
        self.atoms = settle_atoms(self.sstep, own, {pflag} if pflag else set())
        # the fast path compiles the atoms; it is given only the options the rules read (other optional
        # wagers, whose steps it may not compile, stay off)
        fast_opts = {**({dd.offered_by: True} if dd is not None and dd.offered_by else {}),
                     **{o: v for o, v in dict(options or {}).items() if o in options_read(game, chapter)}}
        try:
            self.fast = compile_fast(chapter, game, fast_opts)
        except Unsupported as e:
            raise Refused(f"the fast path cannot compile the chapter: {e}") from None
        self.ways = {side: self._way(s) for side, s in (("player", self.pstep), ("dealer", self.dstep))}
        self.outcomes = Outcomes(self.table, m)

    def _way(self, s):
        p = dict(s.params)
        if p.get("house_way_option"):
            raise Refused(f"step {s.id!r}: the house way is given by an option")
        way = next((h for h in self.chapter.house_ways if h.id == p.get("house_way")), None)
        if way is None:
            raise Refused(f"step {s.id!r}: no house way")
        legal = dict((k, v) for k, v, _ in s.exprs).get("legal")
        try:
            return CompiledHouseWay(self.table, way, self.n, self.low, legal)
        except HouseWayUnsupported as e:
            raise Refused(f"step {s.id!r}: {e}") from None

    # -- per hand ----------------------------------------------------------------------------
    def split(self, cards: np.ndarray, side: str):
        """(high, low, index of the setting) of hands ``cards`` (M, n) set by ``side``'s house way."""
        try:
            return self.ways[side].split(cards)
        except HouseWayUnsupported as e:
            raise Refused(str(e)) from None

    def features(self, cards: np.ndarray, setting, side: str):
        """Scores of the compared hands (M, 2) int32 and the atom bits (M,) of ``side``'s settings."""
        hi, lo, ch = setting
        M = len(cards)
        zones = {"high": hi, "low": lo}
        scores = np.zeros((M, 2), dtype=np.int32)
        for i, (rid, z) in enumerate(self.atoms.comparisons):
            scores[:, i] = vec_ranking(self.table, rid).evaluate(zones[z])
        atoms = self.atoms.player if side == "player" else self.atoms.dealer
        bits = np.zeros(M, dtype=np.int16)
        if atoms:
            st = State(K=M, S=1, shoe=None, idx=None, in_round=np.ones((M, 1), bool), live=np.ones((M, 1), bool),
                       options=self.fast.options, offered={})
            st.zones = {(side, "high"): hi[:, None, :], (side, "low"): lo[:, None, :]}
            st.order = {side: ["high", "low"]}
            if side == "player" and self.foul_flag:
                st.flags[self.foul_flag] = ~self.ways[side].is_legal(cards, ch)[:, None]
            for j, a in enumerate(atoms):
                f = self.fast._expr(a, f"settle condition {a!r}", True)
                v = np.broadcast_to(np.asarray(f(st), dtype=bool), (M, 1))[:, 0]
                bits |= (v.astype(np.int16) << j)
        return scores, bits

    # -- nets per class ------------------------------------------------------------------------
    def nets(self, classes, reps) -> dict:
        """{(sx, sy, pbits, dbits): (main net, double net)} by the compiled settle rules, for the classes
        that occur (one pair of settings of each class; ``reps``: per side, signatures -> setting)."""
        out = {}
        for key in classes:
            pair = _find_pair(key, reps, len(self.atoms.comparisons))
            ph, pl, dh, dl = pair
            main, _ = self.outcomes.run(ph, pl, dh, dl, double=False)
            main2, dd = self.outcomes.run(ph, pl, dh, dl, double=True) if self.m.double else (main, None)
            if main2 != main:
                raise Refused("the main wager's result depends on the Double Down being made")
            out[key] = (Fraction(main), None if dd is None else Fraction(dd))
        return out


def _find_pair(key, reps, ncmp):
    sx, sy, pb, db = key
    P = reps["player"].get(pb)
    D = reps["dealer"].get(db)
    if P is None or D is None:
        raise Refused(f"no settings of class {key}")
    ps, pset = P
    ds, dset = D
    for i in range(len(ps)):
        cx = np.sign(ps[i, 0] - ds[:, 0]) if ncmp >= 1 else np.zeros(len(ds), int)
        cy = np.sign(ps[i, 1] - ds[:, 1]) if ncmp >= 2 else np.zeros(len(ds), int)
        hit = np.nonzero((cx == sx) & (cy == sy))[0]
        if len(hit):
            j = int(hit[0])
            return (*pset[i], *dset[j])
    raise Refused(f"no pair of settings of class {key}")


# ---------------------------------------------------------------------------------------------
# Suit symmetry
# ---------------------------------------------------------------------------------------------


def _perm_tables(deck: list[int]) -> np.ndarray:
    pos = {c: i for i, c in enumerate(deck)}
    if len(pos) != len(deck):
        raise Refused("a deck with repeated cards")
    out = []
    for s in itertools.permutations(range(4)):
        try:
            out.append([pos[c if c == JOKER else (c & ~3) | s[c & 3]] for c in deck])
        except KeyError:
            raise Refused("the deck is not closed under permutations of the suits") from None
    return np.array(out, dtype=np.int64)


def _sort_rows(a: np.ndarray) -> np.ndarray:
    return np.sort(a, axis=1)


def _canon(rows: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Smallest colex index of the images of each row (positions) under the suit permutations ``T``."""
    best = None
    for t in T:
        idx = colex_index(_sort_rows(t[rows]))
        best = idx if best is None else np.minimum(best, idx)
    return best


# ---------------------------------------------------------------------------------------------
# The count
# ---------------------------------------------------------------------------------------------


@dataclass
class Counts:
    deck: list
    n: int
    index: np.ndarray          # (R,) colex index (positions in the deck) of the canonical player hands
    weights: np.ndarray        # (R,) orbit sizes of the canonical player hands
    pbits: np.ndarray          # (R,)
    counts: np.ndarray         # (R, 3, 3, ND) dealer hands disjoint from P: [x class, y class, dealer bits]
    nd: int
    reps: dict
    seconds: dict
    nets: dict = field(default_factory=dict)   # class -> (main net, double net), set by result_of
    extra: np.ndarray | None = None            # (Q, 3, 3, ND) the extra queries' counts (count_classes)

    def row_of(self, positions) -> int:
        """The row of the canonical hand of a hand given by its positions in the deck."""
        c = int(_canon(np.array([sorted(positions)], dtype=np.int64), _perm_tables(self.deck)
                       if len(self.index) < comb(len(self.deck), self.n) else
                       np.arange(len(self.deck), dtype=np.int64)[None, :])[0])
        return int(np.searchsorted(self.index, c))

    def hand_nets(self, row: int) -> tuple[Fraction, Fraction | None]:
        """(sum over the dealer hands of the main wager's net, of the double's net) for player hand ``row``."""
        main, dd = Fraction(0), Fraction(0)
        for xi, yi, d in zip(*np.nonzero(self.counts[row])):
            m, v = self.nets[(SIGN[xi], SIGN[yi], int(self.pbits[row]), int(d))]
            c = int(self.counts[row, xi, yi, d])
            main += m * c
            dd = None if v is None or dd is None else dd + v * c
        return main, dd


def _set_every_hand(model: ExactPaiGow, cards_of: np.ndarray, n: int, block: int, verbose: bool,
                    t0: float) -> tuple[dict, dict]:
    """Every hand of the deck set by the players' and by the dealer's house way: per side the scores of the
    compared hands (nh, 2) and the atom bits (nh,); per side, by atom bits, the settings met of each scores."""
    N = len(cards_of)
    nh = comb(N, n)
    side = {s: {"s": np.zeros((nh, 2), np.int32), "b": np.zeros(nh, np.int16)} for s in ("player", "dealer")}
    same = (dict(model.pstep.params).get("house_way") == dict(model.dstep.params).get("house_way")
            and [e[2] for e in model.pstep.exprs] == [e[2] for e in model.dstep.exprs])
    reps = {"player": {}, "dealer": {}}
    for start, rows in iter_colex_blocks(N, n, block):
        cards = cards_of[rows.astype(np.int64)]
        sl = slice(start, start + len(rows))
        sp = model.split(cards, "player")
        sd = sp if same else model.split(cards, "dealer")
        for s, st_ in (("player", sp), ("dealer", sd)):
            sc, bits = model.features(cards, st_, s)
            side[s]["s"][sl] = sc
            side[s]["b"][sl] = bits
            _keep_reps(reps[s], sc, bits, st_[0], st_[1])
        _log(verbose, f"  set {start + len(rows):,} / {nh:,} hands ({time.perf_counter() - t0:.0f} s)")
    reps = {s: {b: (np.array([k for k in d]), [d[k] for k in d]) for b, d in _by_bits(reps[s]).items()}
            for s in reps}
    return side, reps


@dataclass
class _Hands:
    """Every hand of the deck (colex order) set by each side's house way: the scores of the compared hands
    compressed to their rank among the distinct scores (x: the first comparison, y: the second; ``xu``/``yu``
    the distinct scores) and the atom bits (``pb``, ``db``)."""
    px: np.ndarray
    py: np.ndarray
    dx: np.ndarray
    dy: np.ndarray
    pb: np.ndarray
    db: np.ndarray
    xu: np.ndarray
    yu: np.ndarray
    NX: int
    NY: int
    ND: int


def _compress_scores(side: dict, nh: int) -> _Hands:
    """Compress the scores (x: the first comparison, y: the second)."""
    X, Y = {}, {}
    for j, dst in ((0, X), (1, Y)):
        u = np.unique(np.concatenate([side["player"]["s"][:, j], side["dealer"]["s"][:, j]]))
        for s in ("player", "dealer"):
            side[s]["s"][:, j] = np.searchsorted(u, side[s]["s"][:, j])
        dst["n"], dst["u"] = len(u), u
    px, py = side["player"]["s"][:, 0].copy(), side["player"]["s"][:, 1].copy()
    dx, dy = side["dealer"]["s"][:, 0].copy(), side["dealer"]["s"][:, 1].copy()
    pb, db = side["player"]["b"], side["dealer"]["b"]
    ND = int(db.max()) + 1 if nh else 1
    return _Hands(px, py, dx, dy, pb, db, X["u"], Y["u"], X["n"], Y["n"], ND)


def _check_symmetry(T: np.ndarray, N: int, n: int, h: _Hands) -> None:
    """Suit symmetry, checked on every hand: two generators of the 24 permutations change no hand's quantities."""
    perms = list(itertools.permutations(range(4)))
    gens = [T[perms.index((1, 0, 2, 3))], T[perms.index((1, 2, 3, 0))]]
    for start, rows in iter_colex_blocks(N, n, 2_000_000):
        sl = slice(start, start + len(rows))
        for g in gens:
            img = colex_index(_sort_rows(g[rows.astype(np.int64)]))
            for a in (h.px, h.py, h.dx, h.dy, h.pb, h.db):
                if not np.array_equal(a[img], a[sl]):
                    raise Refused("the setting of hands by the house way depends on the suits (a hand and "
                                  "its image under a permutation of the suits are set differently)")


def _canonical_hands(N: int, n: int, T: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The canonical player hands (R, n) positions in colex order, their colex indices and their weights."""
    nh = comb(N, n)
    canon = np.empty(nh, dtype=np.int64)
    rep_rows = []
    for start, rows in iter_colex_blocks(N, n, 1_000_000):
        r64 = rows.astype(np.int64)
        c = _canon(r64, T)
        canon[start:start + len(rows)] = c
        own = c == (start + np.arange(len(rows)))
        rep_rows.append(r64[own])
    weights_all = np.bincount(canon, minlength=nh)
    del canon
    P = np.concatenate(rep_rows)                      # (R, n) positions, in colex order
    Pidx = colex_index(P)
    W = weights_all[Pidx].astype(np.int64)
    del weights_all
    assert int(W.sum()) == nh
    return P, Pidx, W


@dataclass
class _Queries:
    """The queries: the house way's setting of every canonical hand, then the extra ones. A score is compressed
    to the position of the first known score at or above it; ``ex``/``ey`` say it is one of them."""
    row: np.ndarray
    x: np.ndarray
    y: np.ndarray
    ex: np.ndarray
    ey: np.ndarray

    def add(self, xr, xs, ys, h: _Hands) -> None:
        """The extra queries ``(row, first score, second score)`` (raw scores)."""
        NX, NY = h.NX, h.NY
        zx, zy = np.searchsorted(h.xu, xs), np.searchsorted(h.yu, ys)
        exx = (zx < NX) & (h.xu[np.minimum(zx, NX - 1)] == xs)
        eyy = (zy < NY) & (h.yu[np.minimum(zy, NY - 1)] == ys)
        self.row, self.x, self.y = (np.concatenate([a, b.astype(np.int64)])
                                    for a, b in ((self.row, xr), (self.x, zx), (self.y, zy)))
        self.ex, self.ey = np.concatenate([self.ex, exx]), np.concatenate([self.ey, eyy])


def _dealer_hands_containing(S: np.ndarray, N: int, n: int, combT, nh: int) -> np.ndarray:
    """The colex indices of the dealer hands containing each set S of the batch, one row per S."""
    k = S.shape[1]
    if k == 0:
        return np.arange(nh, dtype=np.int64)[None, :]
    m_el = comb(N - k, n - k)
    full = np.ones((len(S), N), bool)
    full[np.arange(len(S))[:, None], S] = False
    comp = np.nonzero(full)[1].reshape(len(S), N - k)
    hands = np.concatenate([np.broadcast_to(S[:, None, :], (len(S), m_el, k)),
                            comp[:, combT]], axis=2).reshape(-1, n)
    return colex_index(_sort_rows(hands)).reshape(len(S), m_el)


def _dominance_table(el: np.ndarray, h: _Hands) -> tuple[np.ndarray, np.ndarray]:
    """For the dealer hands of each group of a batch (rows of ``el``): the keys ``group * NX + first score`` that
    occur, sorted, and the prefix counts ``C[key row, second score, dealer bits]`` over both."""
    NX, NY, ND = h.NX, h.NY, h.ND
    B = el.shape[0]
    gl = np.repeat(np.arange(B, dtype=np.int64), el.shape[1])
    e = el.ravel()
    key = gl * NX + h.dx[e]
    ukeys, inv = np.unique(key, return_inverse=True)
    U = len(ukeys)
    cnt = np.bincount((inv * NY + h.dy[e]) * ND + h.db[e], minlength=U * NY * ND).reshape(U, NY, ND)
    C = np.zeros((U + 1, NY + 1, ND), dtype=np.int64)
    C[1:, 1:, :] = cnt.cumsum(0).cumsum(1)
    return ukeys, C


def _add_query_counts(acc: np.ndarray, ukeys: np.ndarray, C: np.ndarray, ql: np.ndarray, qpp: np.ndarray,
                      q: _Queries, h: _Hands, sign: float) -> None:
    """Add ``sign`` x the dealer hands of each query's group (``ql``: the group in the batch) in each class."""
    NX, NY, ND, NQ = h.NX, h.NY, h.ND, len(q.row)
    x, y = q.x[qpp], q.y[qpp]
    kk = ql * NX + x
    r_lo = np.searchsorted(ukeys, kk, "left")
    r_hi = np.where(q.ex[qpp], np.searchsorted(ukeys, kk, "right"), r_lo)
    r_g0 = np.searchsorted(ukeys, ql * NX, "left")
    r_g1 = np.searchsorted(ukeys, (ql + 1) * NX, "left")
    rows_ = (r_g0, r_lo, r_hi, r_g1)
    vs = (np.zeros_like(y), y, y + q.ey[qpp], np.full_like(y, NY))
    # x class 0: the dealer's first score below the player's (rows g0..lo), 1 equal, 2 above
    for xi in range(3):
        ra, rb = rows_[xi], rows_[xi + 1]
        for yi in range(3):
            va, vb = vs[yi], vs[yi + 1]
            c = C[rb, vb] - C[ra, vb] - C[rb, va] + C[ra, va]     # (q, ND)
            for d in range(ND):
                acc[:, xi, yi, d] += sign * np.bincount(qpp, weights=c[:, d], minlength=NQ)


def _count_subsets(acc: np.ndarray, k: int, T: np.ndarray, P: np.ndarray, q: _Queries, h: _Hands) -> int:
    """Add (-1)^k x the dealer hands containing S, by class, over the k-subsets S of each query's player hand;
    the number of groups of k-subsets."""
    N, n, NQ = T.shape[1], P.shape[1], len(q.row)
    # canonical k-subsets and the group of each
    if k == 0:
        Srows = np.zeros((1, 0), dtype=np.int64)
        gid_of = np.zeros(1, dtype=np.int64)
    else:
        allk = colex_combinations(N, k).astype(np.int64)
        ck = _canon(allk, T)
        uniq, gid_of = np.unique(ck, return_inverse=True)
        Srows = allk[uniq]
        del allk, ck
    G = len(Srows)
    masks = [m for m in itertools.combinations(range(n), k)]
    # queries: (player hand, group), sorted by group
    qg = np.concatenate([gid_of[colex_index(P[:, list(m)])][q.row] if k else np.zeros(NQ, np.int64)
                         for m in masks])
    qp = np.tile(np.arange(NQ, dtype=np.int64), len(masks))
    order = np.argsort(qg, kind="stable")
    qg, qp = qg[order], qp[order]
    m_el = comb(N - k, n - k)
    per = max(1, 1_000_000 // m_el)
    combT = colex_combinations(N - k, n - k).astype(np.int64) if k else None
    sign = -1.0 if k % 2 else 1.0
    for g0 in range(0, G, per):
        g1 = min(G, g0 + per)
        # elements: the dealer hands containing each S of the batch
        el = _dealer_hands_containing(Srows[g0:g1], N, n, combT, len(h.px))
        ukeys, C = _dominance_table(el, h)
        a, b = np.searchsorted(qg, g0, "left"), np.searchsorted(qg, g1, "left")
        if a == b:
            continue
        _add_query_counts(acc, ukeys, C, qg[a:b] - g0, qp[a:b], q, h, sign)
    return G


def count_classes(model: ExactPaiGow, deck: list[int] | None = None, symmetry: bool = True,
                  verbose: bool = False, block: int = 500_000, extra=None) -> Counts:
    """Per canonical player hand, the dealer hands disjoint from it by class (x: the first comparison,
    y: the second; index 0 = the player's hand higher, 1 = equal, 2 = lower; dealer atom bits).

    ``extra(model, cards, reps)``, given the canonical player hands' cards (R, n) and the settings met so
    far, returns more queries ``(row, first score, second score)`` (raw scores of other settings of the
    player hand of that row): they are counted like the house way's, into ``Counts.extra``."""
    secs = {}
    t0 = time.perf_counter()
    deck = standard_deck(model.game.cards.jokers) if deck is None else list(deck)
    N, n = len(deck), model.n
    nh = comb(N, n)
    cards_of = np.array(deck, dtype=np.int64)
    side, reps = _set_every_hand(model, cards_of, n, block, verbose, t0)
    secs["set"] = time.perf_counter() - t0
    h = _compress_scores(side, nh)
    del side

    # suit symmetry: checked on every hand (two generators of the 24 permutations)
    T = _perm_tables(deck) if symmetry else np.arange(N, dtype=np.int64)[None, :]
    if symmetry:
        t1 = time.perf_counter()
        _check_symmetry(T, N, n, h)
        secs["symmetry check"] = time.perf_counter() - t1
        _log(verbose, f"  suit symmetry checked on every hand ({secs['symmetry check']:.0f} s)")

    # canonical player hands and their weights
    t1 = time.perf_counter()
    P, Pidx, W = _canonical_hands(N, n, T)
    R = len(P)
    secs["canonical hands"] = time.perf_counter() - t1
    _log(verbose, f"  {R:,} player hands up to suit permutation ({secs['canonical hands']:.0f} s)")

    # the queries: the house way's setting of every canonical hand, then the extra ones
    ones = np.ones(R, dtype=bool)
    q = _Queries(np.arange(R, dtype=np.int64), h.px[Pidx].astype(np.int64), h.py[Pidx].astype(np.int64), ones, ones)
    if extra is not None:
        t1 = time.perf_counter()
        xr, xs, ys = extra(model, cards_of[P], reps)
        q.add(xr, xs, ys, h)
        secs["other settings"] = time.perf_counter() - t1
        _log(verbose, f"  {len(xr):,} other settings to count ({secs['other settings']:.0f} s)")
    NQ = len(q.row)
    acc = np.zeros((NQ, 3, 3, h.ND), dtype=np.float64)
    for k in range(0, n):
        t1 = time.perf_counter()
        G = _count_subsets(acc, k, T, P, q, h)
        secs[f"subsets of {k}"] = time.perf_counter() - t1
        _log(verbose, f"  subsets of {k} cards: {G:,} groups ({secs[f'subsets of {k}']:.0f} s)")
    # S = P: the dealer hand P itself
    own = Pidx[q.row]   # (compressed x above / at / below the dealer's x: class 0 / 1 / 2)
    xi = np.where(q.x > h.dx[own], 0, np.where((q.x == h.dx[own]) & q.ex, 1, 2))
    yi = np.where(q.y > h.dy[own], 0, np.where((q.y == h.dy[own]) & q.ey, 1, 2))
    np.add.at(acc, (np.arange(NQ), xi, yi, h.db[own].astype(np.int64)), 1.0 if n % 2 == 0 else -1.0)
    counts = np.rint(acc).astype(np.int64)
    del acc
    if not np.array_equal(counts.sum(axis=(1, 2, 3)), np.full(NQ, comb(N - n, n))):
        raise RuntimeError("card-removal counting: the classes of a player hand do not add up to C(N-n, n)")
    secs["total"] = time.perf_counter() - t0
    return Counts(deck, n, Pidx, W, h.pb[Pidx].astype(np.int64), counts[:R], h.ND, reps, secs, extra=counts[R:])


def _keep_reps(d, scores, bits, hi, lo):
    """One setting per distinct (scores, bits): the pair of settings the settle rules are run on."""
    if scores.size and (scores.min() < 0 or scores.max() >= 1 << 20 or bits.max() >= 1 << 8):
        raise Refused("a hand score out of range")
    key = (scores[:, 0].astype(np.int64) << 28) | (scores[:, 1].astype(np.int64) << 8) | bits.astype(np.int64)
    _, first = np.unique(key, return_index=True)
    for i in first.tolist():
        k = (int(scores[i, 0]), int(scores[i, 1]), int(bits[i]))
        if k not in d:
            d[k] = (tuple(hi[i].tolist()), tuple(lo[i].tolist()))


def _by_bits(d):
    out: dict = {}
    for k, v in d.items():
        out.setdefault(k[-1], {})[k[:-1]] = v
    return out


# ---------------------------------------------------------------------------------------------
# Figures from the counts
# ---------------------------------------------------------------------------------------------


SIGN = (1, 0, -1)  # class index -> sign of (player - dealer)


def result_of(model: ExactPaiGow, cnt: Counts) -> dict:
    """Exact figures (Fractions) and counts: the main wager; the Double Down made always and when its
    exact expected net given the player's cards is positive."""
    R = len(cnt.weights)
    N, n = len(cnt.deck), cnt.n
    total = comb(N, n) * comb(N - n, n)
    # the classes that occur, and their nets
    classes = []
    for pbv in np.unique(cnt.pbits).tolist():
        sel = cnt.pbits == pbv
        occ = cnt.counts[sel].sum(0) > 0
        for xi, yi, d in zip(*np.nonzero(occ)):
            classes.append((SIGN[xi], SIGN[yi], pbv, int(d)))
    nets = model.nets(classes, cnt.reps)
    cnt.nets = nets
    # weighted counts per (player bits, class)
    agg: dict = {}
    for pbv in np.unique(cnt.pbits).tolist():
        sel = cnt.pbits == pbv
        a = np.einsum("r,rxyd->xyd", cnt.weights[sel], cnt.counts[sel])
        for xi, yi, d in zip(*np.nonzero(a)):
            agg[(SIGN[xi], SIGN[yi], pbv, int(d))] = int(a[xi, yi, d])
    assert sum(agg.values()) == total
    main = sum((Fraction(c) * nets[k][0] for k, c in agg.items()), Fraction(0)) / total
    tally = {"win": 0, "push": 0, "lose": 0}
    for k, c in agg.items():
        v = nets[k][0]
        tally["win" if v > 0 else "push" if v == 0 else "lose"] += c
    out = {"deals": total, "main": main, "main_counts": tally, "main_by_net": _by_net(agg, nets, 0),
           "classes": {f"{k}": [str(nets[k][0]), None if nets[k][1] is None else str(nets[k][1]), c]
                       for k, c in sorted(agg.items())}}
    if model.m.double and all(nets[k][1] is not None for k in agg):
        den = math.lcm(*(nets[k][1].denominator for k in agg))
        # per player hand: sum over classes of the double's net x count (integers, times den)
        per = np.zeros(R, dtype=np.int64)
        for (sx, sy, pbv, d), _ in agg.items():
            v = nets[(sx, sy, pbv, d)][1] * den
            sel = cnt.pbits == pbv
            per[sel] += int(v) * cnt.counts[sel, SIGN.index(sx), SIGN.index(sy), d]
        always = Fraction(int((per * cnt.weights).sum()), den * total)
        made = per > 0
        opt = Fraction(int((per[made] * cnt.weights[made]).sum()), den * total)
        share = Fraction(int(cnt.weights[made].sum()), comb(N, n))
        dd_tally = {"win": 0, "push": 0, "lose": 0}
        for k, c in agg.items():
            v = nets[k][1]
            dd_tally["win" if v > 0 else "push" if v == 0 else "lose"] += c
        out.update({"double_always": always, "double_always_counts": dd_tally,
                    "double_always_by_net": _by_net(agg, nets, 1),
                    "double_optimal_per_round": opt, "double_optimal_share": share,
                    "double_optimal_per_made": (opt / share) if share else None})
    return out


def _by_net(agg, nets, i) -> dict:
    out: dict = {}
    for k, c in agg.items():
        v = nets[k][i]
        out[str(v)] = out.get(str(v), 0) + c
    return dict(sorted(out.items(), key=lambda kv: Fraction(kv[0])))


def run(game, chapter, options=None, deck=None, symmetry=True, verbose=False) -> tuple[dict, Counts]:
    model = ExactPaiGow(game, chapter, options)
    cnt = count_classes(model, deck, symmetry=symmetry, verbose=verbose)
    return result_of(model, cnt), cnt
