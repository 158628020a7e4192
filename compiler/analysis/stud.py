"""Exact optimal strategy of a "stud raise" game, by data: every parameter comes from the compiled
procedure (``card_routes.stud_model_or_reason``), none is assumed here.

The game, as parameters:

* the player holds ``hole`` cards; ``community`` cards are then revealed one at a time;
* before some reveals (the decision ``schedule``), a player who has not yet made the raise wager
  may make it at one of the allowed multiples of the base wager, or ``check``; a decision may
  offer ``fold`` (forfeit the ``fixed`` wagers made before the deal);
* the final hand is the best ``ranking.cards``-card hand of all ``hole + community`` cards;
* below the ``qualifier`` every wager loses; otherwise each wager is paid by its paytable (first
  row matched; a hand matching no row loses the wager).

Schedule example: ``[{known: 3, options: [3, 2, 1, check]}, {known: 4, options: [2, 1, check]},
{known: 5, options: [1, fold]}]``.

Method.  The final hand depends only on the *set* of known cards, and so does the value of a
decision (the unseen cards are uniform over the rest of the deck, whatever their order).  So a
state is a set of known cards: every T-card set (T = hole + community) is valued once
(vectorised, block by block in colex order: ``Vectoriser.colex_values``), its payoff class
counted into the (T-1)-sets it contains, then sums over supersets walk down the levels
T-1, ..., hole, in the combinatorial number system (colex indices), and the decisions are taken
by backward induction.  All sums are integers (payoffs scaled by the common denominator), so the
result is exact.

Units: at level s, ``A[S]``/``B[S]`` are sums over the ordered completions of S (the unseen
community cards in order) of the fixed wagers' net and of the raise wager's net per unit of the
base wager; ``V[S]`` is the sum of the net result under optimal play.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations
from math import comb, lcm, perm
from typing import Any, Mapping, Sequence

import numpy as np

from compiler.runtime.cards import card_str
from compiler.runtime.definition import Paytable
from compiler.runtime.rankings import HandValue, Ranking

from .enumerate import Vectoriser, colex_combinations
from .paytables import Payout, priced_paytable

__all__ = ["StudGame", "StudSolution", "solve_stud", "stud_game_from_spec"]


@dataclass
class StudGame:
    """Parameters of a stud raise game (all data).

    ``fixed``: ``[(name, multiple of the base wager, paytable dict)]`` for the wagers made before
    the deal; ``play``: the raise wager's paytable (net per unit of it); ``qualifier``: a category
    id or a named hand of the ranking; ``deck``: card ints (a deck of 52 when not given).
    """

    ranking: Ranking
    hole: int
    community: int
    schedule: list
    qualifier: str
    fixed: list  # [(wager id, multiple of the ante, Paytable)]
    play: Paytable
    deck: list = field(default_factory=lambda: list(range(52)))


def stud_game_from_spec(ranking: Ranking, paytables: Mapping[str, Paytable], *, hole: int, community: int,
                        schedule: Sequence[Mapping[str, Any]], qualifier: str,
                        fixed: Sequence[tuple[str, int]], play: str,
                        deck: Sequence[int] | None = None) -> StudGame:
    """Build a :class:`StudGame` from compiled paytables (``game.paytables``) by ids; each pays by its
    first column. Every parameter comes from the compiled procedure
    (``card_routes.stud_model_or_reason``): no defaults."""
    return StudGame(ranking, hole, community, [dict(d) for d in schedule], qualifier,
                    [(name, mult, priced_paytable(paytables[name])) for name, mult in fixed],
                    priced_paytable(paytables[play]),
                    list(range(52)) if deck is None else list(deck))


def _row_net(ranking: Ranking, table: Paytable, v: HandValue) -> Fraction:
    for hand, odds, _ in table.rows:
        if ranking.value_matches(v, hand):
            p = Payout(odds[0])
            if p.kind not in ("to", "for", "push"):
                raise ValueError(f"stud solver: payout {p.odds} is not a fixed odds payout")
            return p.net(1)
    return Fraction(-1)


def _drop_indices(rows: np.ndarray, j: int) -> np.ndarray:
    """Colex index of each row with its j-th element removed."""
    idx = np.zeros(rows.shape[0], dtype=np.int64)
    out_pos = 0
    for i in range(rows.shape[1]):
        if i == j:
            continue
        out_pos += 1
        idx += _B[rows[:, i].astype(np.int64), out_pos]
    return idx


_B = np.array([[comb(a, b) for b in range(10)] for a in range(64)], dtype=np.int64)
_EXACT = float(2 ** 52)


class _Drops:
    """Per level s, the colex indices of the (s-1)-subsets of each s-subset of ``range(N)`` (one
    array per dropped element), computed once and shared by the sums over supersets and subsets."""

    def __init__(self, N: int):
        self.N = N
        self._of: dict[int, list] = {}

    def __call__(self, s: int) -> list:
        if s not in self._of:
            rows = colex_combinations(self.N, s)
            self._of[s] = [_drop_indices(rows, j) for j in range(s)]
        return self._of[s]


def _scatter_down(drops: list, vals: np.ndarray, size: int) -> np.ndarray:
    """out[T] = sum of vals[S] over the sets S that are T plus one element (exact int64)."""
    out = np.zeros(size, dtype=np.float64)
    w = vals.astype(np.float64)
    # every output receives fewer than 64 terms: bounding each term keeps every float sum exact
    if float(np.abs(vals).max(initial=0)) * 64 >= _EXACT:
        raise OverflowError("values exceed the exact range of float64 sums")
    for idx in drops:
        out += np.bincount(idx, weights=w, minlength=size)
    return np.rint(out).astype(np.int64)


def _gather_up(drops: list, vals: np.ndarray) -> np.ndarray:
    """out[S] = sum of vals[T] over the subsets T of S with one element fewer."""
    out = np.zeros(len(drops[0]), dtype=np.int64)
    for idx in drops:
        out += vals[idx]
    return out


@dataclass
class StudSolution:
    game: StudGame
    ev_per_ante: Fraction              # expected net per unit of the base wager (optimal play)
    expected_wager: Fraction           # expected total wagered (fixed + raise) per unit base wager
    ev_per_wagered: Fraction           # ev_per_ante / expected_wager
    level_options: dict                # known -> option list
    decisions: dict                    # known -> int8 array over colex sets of deck positions
    option_frequencies: dict           # known -> {option: probability of taking it there}
    payoff_classes: list               # [(a, b, description)] per class
    seconds: float
    timings: dict
    outcomes: dict = field(default_factory=dict)   # net per unit base wager -> probability (optimal play)
    hit_frequency: Fraction = Fraction(0)          # probability the round ends ahead (net > 0)

    def decision_of(self, cards: Sequence[int]):
        """The optimal option for a holding (card ints) at its decision level."""
        pos = self.__dict__.get("_pos")
        if pos is None:
            pos = self._pos = {c: i for i, c in enumerate(self.game.deck)}
        p = sorted(pos[c] for c in cards)
        idx = sum(comb(x, i + 1) for i, x in enumerate(p))
        s = len(p)
        return self.level_options[s][int(self.decisions[s][idx])]

    def strategy_table(self, known: int) -> list[dict]:
        """Decisions at a level, one row per suit-isomorphism class, best first:
        ``{hand: "Ka Qa 9b", sets: 12, decision: 3, ev: {"3": Fraction, ...}}`` (suits shown
        as a, b, c, d in order of appearance; ev per unit base wager of each option)."""
        return _strategy_rows(self, known)

    def levels(self) -> list[int]:
        """The decision levels in the order they are shown (cards known, fewest first)."""
        return sorted(self.level_options)

    def file_stem(self, known: int) -> str:
        """The name of a level's files (--strategy-out)."""
        return f"strategy-{known}-cards-known"

    def format_strategy(self, known: int, max_rows: int | None = None) -> str:
        opts = self.level_options[known]
        out = [f"Known cards: {known}; options {opts}"]
        for o, classes, holdings, shown in _strategy_rows(self, known, per_option=max_rows or 10 ** 9):
            out.append(f"  {o!s:>6}: {classes} classes, {holdings} holdings")
            for r in shown:
                evs = ", ".join(f"{k}={float(v):+.4f}" for k, v in r["ev"].items())
                out.append(f"      {r['hand']:<24} x{r['sets']:<6} {evs}")
            if max_rows is not None and classes > max_rows:
                out.append(f"      ... {classes - max_rows} more")
        return "\n".join(out)


def _schedule(game: StudGame, p: int, T: int) -> dict:
    """The decision schedule as ``{known cards: options}``, checked."""
    sched = {int(d["known"]): list(d["options"]) for d in game.schedule}
    if min(sched) < p or max(sched) >= T:
        raise ValueError("decisions must come after the deal and before the last card")
    for s, opts in sched.items():
        for o in opts:
            if not (o in ("check", "fold") or (isinstance(o, int) and o > 0)):
                raise ValueError(f"unknown option {o!r}")
    return sched


def _payoff_classes(game: StudGame, vec: Vectoriser, fixed_total: int) -> tuple[list, dict, np.ndarray]:
    """The payoff classes of the final values: their (fixed wagers' net, raise wager's net) keys in class order,
    a description of each, and the class of every value."""
    r = game.ranking
    classes: dict[tuple, int] = {}
    class_of = np.zeros(len(vec.values), dtype=np.int64)
    descr = {}
    for i, v in enumerate(vec.values):
        if r.value_matches(v, game.qualifier):
            a = sum(m * _row_net(r, tbl, v) for _, m, tbl in game.fixed)
            b = _row_net(r, game.play, v)
        else:
            a, b = Fraction(-fixed_total), Fraction(-1)
        key = (a, b)
        if key not in classes:
            classes[key] = len(classes)
            descr[key] = v.name if key[1] != -1 else "below qualifier"
        class_of[i] = classes[key]
    keys = sorted(classes, key=lambda k: classes[k])
    return keys, descr, class_of


def _final_set_counts(vec: Vectoriser, N: int, T: int, class_of: np.ndarray, C: int) -> np.ndarray:
    """Level T -> T-1: class counts of every (T-1)-set's completions (exact ints), (C(N, T-1), C).

    The T-sets come in colex blocks of one largest position L (Vectoriser.colex_values): dropping L
    gives the (T-1)-sets of range(L) in order (one each); dropping another element j gives a
    (T-1)-set containing L, inside the range of indices [C(L, T-1), C(L+1, T-1))."""
    size = comb(N, T - 1)
    counts = np.zeros(size * C, dtype=np.int64)
    prev = colex_combinations(N, T - 1)
    drop_prev = [_drop_indices(prev, j) for j in range(T - 1)]   # (T-2)-set left when j is dropped
    del prev
    class_small = class_of.astype(np.int32 if C < 2 ** 31 else np.int64)
    for last, a, vals in vec.colex_values(max_rows=2_000_000):
        cls = class_small[vals]
        m = len(cls)
        counts[(np.arange(a, a + m, dtype=np.int64)) * C + cls] += 1     # drop L: distinct targets
        base, width = comb(last, T - 1), comb(last, T - 2)
        for j in range(T - 1):
            local = drop_prev[j][a:a + m] * C + cls
            counts[base * C:(base + width) * C] += np.bincount(local, minlength=width * C)
    del drop_prev
    return counts.reshape(size, C)


def _induction(sched: dict, A: dict, B: dict, drops: _Drops, N: int, p: int, T: int, fixed_total,
               D: int) -> tuple[dict, dict, dict]:
    """Backward induction from level T-1 down to the deal: the optimal sum ``V[s]`` of every s-set, the option
    taken at every decision level (first listed among equals) and the sums of every option there."""
    V: dict[int, np.ndarray] = {}
    decisions: dict[int, np.ndarray] = {}
    option_values: dict[int, np.ndarray] = {}
    for s in range(T - 1, p - 1, -1):
        W = perm(N - s, T - s)                     # ordered completions of an s-set
        # continuing without a Play wager: sum of the next level's values
        if s == T - 1:
            cont = A[s]                            # no Play wager: only the fixed wagers settle
        else:
            cont = _scatter_down(drops(s + 1), V[s + 1], comb(N, s))
        if s not in sched:
            V[s] = cont
            continue
        opts = sched[s]
        vals = []
        for o in opts:
            if o == "check":
                vals.append(cont)
            elif o == "fold":
                vals.append(np.full(comb(N, s), -fixed_total * D * W, dtype=np.int64))
            else:
                vals.append(A[s] + o * B[s])
        M = np.stack(vals)
        dec = np.argmax(M, axis=0).astype(np.int8)     # first listed option among equals
        decisions[s] = dec
        option_values[s] = M
        V[s] = M[dec, np.arange(M.shape[1])]
    return V, decisions, option_values


def _settle_later(pending: dict, w: np.ndarray, mult: int) -> None:
    """Add the paths ``w`` settled with the Play multiple ``mult`` to ``pending``."""
    pending[mult] = pending[mult] + w if mult in pending else w


def _forward(sched: dict, decisions: dict, drops: _Drops, N: int, p: int, T: int, fixed_total,
             outcome_counts: dict) -> tuple[Fraction, dict, dict]:
    """How often each option is taken and the expected Play wager, the paths folded counted into
    ``outcome_counts``; the paths settled with each Play multiple, pushed up to the (T-1)-sets."""
    total_sets = comb(N, p)
    Wp = perm(N - p, T - p)
    reach = np.ones(comb(N, p), dtype=np.int64)    # (hole set, community prefix) paths per set
    exp_play = Fraction(0)
    freqs = {}
    pending: dict[int, np.ndarray] = {}           # Play multiple -> paths settled with it, at level s
    for s in range(p, T):
        W = perm(N - s, T - s)
        if s in sched:
            opts = sched[s]
            dec = decisions[s]
            f = {}
            for oi, o in enumerate(opts):
                n = int((reach * (dec == oi)).sum()) * W
                f[o] = Fraction(n, total_sets * Wp)
                if isinstance(o, int):
                    exp_play += o * f[o]
                    _settle_later(pending, reach * (dec == oi), o)
                elif o == "fold" and n:
                    net = Fraction(-fixed_total)
                    outcome_counts[net] = outcome_counts.get(net, 0) + n
                elif o == "check" and s == T - 1:
                    _settle_later(pending, reach * (dec == oi), 0)  # no Play wager at all: the fixed wagers settle
            freqs[s] = f
            carry = reach * (np.array([o == "check" for o in opts])[dec])
        else:
            carry = reach
            if s == T - 1:
                _settle_later(pending, carry, 0)
        if s + 1 < T:
            reach = _gather_up(drops(s + 1), carry)
            pending = {m: _gather_up(drops(s + 1), w) for m, w in pending.items()}
    return exp_play, freqs, pending


def _settled_outcomes(pending: dict, counts: np.ndarray, keys: list, outcome_counts: dict) -> None:
    """Count into ``outcome_counts`` the net of every ordered completion of the paths settled with a Play wager
    (or none): sum_S w[S] * completions(S) = sum_S' w'[S'] * counts[S'] over the (T-1)-sets."""
    a_frac = [a for a, _ in keys]
    b_frac = [b for _, b in keys]
    for mult, w in sorted(pending.items()):
        by_class = w @ counts                     # ordered completions per final class
        for c in range(len(keys)):
            n = int(by_class[c])
            if n:
                net = a_frac[c] + mult * b_frac[c]
                outcome_counts[net] = outcome_counts.get(net, 0) + n


def solve_stud(game: StudGame, keep_values: bool = True) -> StudSolution:
    """Exact optimal strategy and return of a stud raise game (see the module docstring)."""
    t_start = time.perf_counter()
    timings = {}
    deck = list(game.deck)
    N = len(deck)
    p, T = game.hole, game.hole + game.community
    sched = _schedule(game, p, T)

    # ---- payoff classes of the final values
    t0 = time.perf_counter()
    vec = Vectoriser(game.ranking, T, deck)
    fixed_total = sum(m for _, m, _ in game.fixed)
    keys, descr, class_of = _payoff_classes(game, vec, fixed_total)
    D = 1
    for a, b in keys:
        D = lcm(D, a.denominator, b.denominator)
    a_int = np.array([int(a * D) for a, _ in keys], dtype=np.int64)
    b_int = np.array([int(b * D) for _, b in keys], dtype=np.int64)
    C = len(keys)
    timings["tables"] = time.perf_counter() - t0

    # ---- level T -> T-1: class counts of every (T-1)-set's completions (exact ints)
    t0 = time.perf_counter()
    counts = _final_set_counts(vec, N, T, class_of, C)
    A = {T - 1: counts @ a_int}
    B = {T - 1: counts @ b_int}
    timings["final_sets"] = time.perf_counter() - t0

    # ---- sums over supersets down to the deal
    t0 = time.perf_counter()
    drops = _Drops(N)
    for s in range(T - 2, p - 1, -1):
        A[s] = _scatter_down(drops(s + 1), A[s + 1], comb(N, s))
        B[s] = _scatter_down(drops(s + 1), B[s + 1], comb(N, s))
    timings["superset_sums"] = time.perf_counter() - t0

    # ---- backward induction
    t0 = time.perf_counter()
    V, decisions, option_values = _induction(sched, A, B, drops, N, p, T, fixed_total, D)
    total_sets = comb(N, p)
    Wp = perm(N - p, T - p)
    denom = total_sets * Wp * D
    ev = Fraction(int(V[p].sum()), denom)
    timings["induction"] = time.perf_counter() - t0

    # ---- forward: how often each option is taken, expected Play wager, distribution of the net result.
    # The sets settled at a level with a Play multiple are pushed up, as path counts, to the (T-1)-sets,
    # whose completions' class counts are known: sum_S w[S] * completions(S) = sum_S' w'[S'] * counts[S'].
    t0 = time.perf_counter()
    outcome_counts: dict[Fraction, int] = {}
    exp_play, freqs, pending = _forward(sched, decisions, drops, N, p, T, fixed_total, outcome_counts)
    _settled_outcomes(pending, counts, keys, outcome_counts)
    timings["forward"] = time.perf_counter() - t0
    exp_wager = Fraction(fixed_total) + exp_play
    sol = StudSolution(game, ev, exp_wager, ev / exp_wager, {s: list(o) for s, o in sched.items()},
                       decisions, freqs, [(a, b, descr[(a, b)]) for a, b in keys],
                       time.perf_counter() - t_start, timings)
    total_paths = total_sets * Wp
    sol.outcomes = {net: Fraction(n, total_paths) for net, n in sorted(outcome_counts.items())}
    sol.hit_frequency = sum((p_ for net, p_ in sol.outcomes.items() if net > 0), Fraction(0))
    if keep_values:
        sol._option_values = option_values
        sol._D = D
    return sol


# ----------------------------------------------------------------------------- strategy tables
_PERMS = np.array(list(permutations(range(4))), dtype=np.int64)


def _suit_class(cards: np.ndarray) -> np.ndarray:
    """A key of each row of cards equal for two rows exactly when a permutation of suits maps one onto
    the other: the four suits' rank masks (13 bits each), sorted (jokerless)."""
    ranks = cards >> 2
    suits = cards & 3
    bit = np.left_shift(np.int64(1), ranks)
    masks = np.stack([np.where(suits == s, bit, 0).sum(axis=1) for s in range(4)], axis=1)
    masks.sort(axis=1)
    return ((masks[:, 3] << 39) | (masks[:, 2] << 26) | (masks[:, 1] << 13) | masks[:, 0]).astype(np.int64)


def _canonical(cards: np.ndarray) -> np.ndarray:
    """Canonical code of each row of cards under the 24 suit permutations (jokerless): the least
    code of its images, so the row a class is shown by."""
    ranks = cards >> 2
    suits = cards & 3
    best = None
    k = cards.shape[1]
    for pm in _PERMS:
        c = np.sort(ranks * 4 + pm[suits], axis=1)
        code = np.zeros(len(cards), dtype=np.int64)
        for i in range(k):
            code = code * 64 + c[:, k - 1 - i]
        best = code if best is None else np.minimum(best, code)
    return best


def _describe(code: int, k: int) -> str:
    cards = []
    for _ in range(k):
        cards.append(code % 64)
        code //= 64
    cards = sorted(cards, key=lambda c: (-(c >> 2), c & 3))
    label: dict[int, str] = {}
    for c in cards:
        if c & 3 not in label:
            label[c & 3] = "abcd"[len(label)]
    return " ".join(card_str(c)[0] + label[c & 3] for c in cards)


def _strategy_rows(sol: StudSolution, known: int, per_option: int | None = None) -> list:
    """Every row best first; or, with ``per_option``, (option, classes, holdings, first rows) of each."""
    game = sol.game
    deck = np.array(game.deck, dtype=np.int64)
    if (deck >= 52).any():
        raise ValueError("strategy tables need a deck without jokers")
    rows = colex_combinations(len(deck), known)
    cards = deck[rows]
    # classes by the suits' rank masks (one pass), then each class shown by its least code (24 sorts of
    # one row per class, not of every row)
    _, first, inv, cnt = np.unique(_suit_class(cards), return_index=True, return_inverse=True,
                                   return_counts=True)
    inv = inv.reshape(-1)
    uniq = _canonical(cards[first])
    order = np.argsort(uniq, kind="stable")      # classes in the order of their codes, as before
    uniq, first, cnt = uniq[order], first[order], cnt[order]
    inv = np.argsort(order)[inv]
    dec = sol.decisions[known]
    # every member of a class takes the same decision (suit symmetry); checked here
    d_first = dec[first]
    if not np.array_equal(dec, d_first[inv]):
        raise AssertionError("a decision differs inside a suit class (tie broken differently)")
    M = sol._option_values[known]
    opts = sol.level_options[known]
    N = len(deck)
    W = perm(N - known, game.hole + game.community - known)
    scale = W * sol._D
    # best first: one positive scale for every value, so the integers order as the fractions (stable)
    best = np.max(np.stack([np.asarray(M[i, first], dtype=object) for i in range(len(opts))]), axis=0)
    ranked = sorted(range(len(first)), key=lambda j: -best[j])

    def row(j: int) -> dict:
        f = int(first[j])
        return {"hand": _describe(int(uniq[j]), known), "sets": int(cnt[j]), "decision": opts[int(dec[f])],
                "ev": {str(o): Fraction(int(M[i, f]), scale) for i, o in enumerate(opts)}}

    if per_option is None:
        return [row(j) for j in ranked]
    # per option: its classes and holdings, and its first rows only (what format_strategy prints)
    out = []
    for k, o in enumerate(opts):
        mine = [j for j in ranked if dec[first[j]] == k]
        out.append((o, len(mine), int(sum(int(cnt[j]) for j in mine)), [row(j) for j in mine[:per_option]]))
    return out
