"""`rulespec analyze` for pai gow chapters (a ``set_hands`` step): exact figures and simulation.

* Exact, from the spec's data: the paytable wagers and Envy Bonuses (through
  :mod:`compiler.analysis.card_routes`), every Envy schedule (also those no rule pays), and the
  category counts of the player's hand (best five of the cards dealt) counted two ways: in one
  enumeration of the deck, and as the hands without a joker plus the hands with it.
* By seeded simulation of the compiled module (the engine plays whole rounds): the wager every
  player makes (``required``) and the wager offered equal to it during the round (Double Down),
  for two policies: the player sets the hands by the house way and always doubles; the player
  sets the hands to maximise the expected result against the dealer's house way (estimated on a
  pool of dealer hands set by the house way, the cards the player holds excluded) and doubles
  when that estimate is positive.  Rounds run in fixed chunks of ``CHUNK`` rounds, chunk i seeded
  from (seed, i), over 2 processes: the result depends on the seed and the number of rounds only.

No chapter knowledge: wagers, zones, rankings, the house way and the settle rules are read from
the compiled game and its IR; the outcome of a main wager is found by running the compiled settle
rules (memoised on the comparisons of the high hands, of the low hands and on jokers in the low hands).
"""
from __future__ import annotations

import math
import multiprocessing as mp
import random
import time
from decimal import Decimal
from fractions import Fraction

import numpy as np

from compiler.analysis import paigow_exact as pe
from compiler.analysis import paigow_record as pr
from compiler.analysis import progress
from compiler.analysis.enumerate import Vectoriser, enumerate_hands, iter_colex_blocks, standard_deck
from compiler.analysis.model import DURING_CLAUSE, Figure, Policy, Report
# the model read from the compiled chapter, shared with paigow_exact (re-exported: report.py and tests read it here)
from compiler.analysis.paigow_model import (  # noqa: F401
    Outcomes, PaiGowModel, _walk, chapter_rules, model_of, model_or_reason,
)
from compiler.runtime.cards import JOKER
from compiler.runtime.engine import Context, Strategy, Table, _Round
from compiler.runtime.paigow import choose_setting, house_way_of, settings as all_settings

CHUNK = 250
DEFAULT_ROUNDS = 4000  # a short default: --rounds raises it (standard error shown)
POOL = 2000


# ---------------------------------------------------------------------------------------------
# A pool of dealer hands set by the house way; the player's best setting against it
# ---------------------------------------------------------------------------------------------


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _set_by_house_way(table, step, cards):
    """(high, low) the house way of ``step`` chooses for the cards."""
    ctx = Context(table, _Round(table, 0, False, False))
    legal_fn = step.exprs.get("legal")
    cands = all_settings(cards, int(step.params["low"]))
    legal = []
    for c in cands:
        ctx.setting = c
        if legal_fn is None or legal_fn(ctx):
            legal.append(c)
    ctx.setting = None
    pool, _ = choose_setting(ctx, house_way_of(table, step), legal or cands)
    return pool[0]


def dealer_pool(game, options, m: PaiGowModel, n: int, seed: int) -> dict:
    table = Table(game, options, seed=0)
    rng = random.Random(seed)
    deck = list(range(52)) + [JOKER] * game.cards.jokers
    size = m.high + m.low
    rh, rl = table.ranking(m.high_ranking), table.ranking(m.low_ranking)
    hs, ls, js, ms, cards = [], [], [], [], []
    for _ in range(n):
        hand = rng.sample(deck, size)
        high, low = _set_by_house_way(table, m.dealer_step, hand)
        hs.append(rh.evaluate(high).score)
        ls.append(rl.evaluate(low).score)
        js.append(JOKER in low)
        ms.append(_mask(hand))
        cards.append((tuple(high), tuple(low)))
    return {"high": np.array(hs, dtype=np.int64), "low": np.array(ls, dtype=np.int64),
            "joker": np.array(js, dtype=bool), "mask": np.array(ms, dtype=np.uint64), "cards": cards}


class PoolStrategy(Strategy):
    """Sets the hands to maximise the estimated result against the dealer pool; doubles when the
    estimate of the chosen setting is positive (a Double Down pays as the main wager when settled)."""

    def __init__(self, outcomes: Outcomes, pool: dict, model: PaiGowModel):
        self.o, self.pool, self.m = outcomes, pool, model
        self.table = np.full((3, 3, 2, 2), np.nan)
        self._cache: dict = {}

    def _ev(self, high, low) -> float:
        p, o = self.pool, self.o
        pm = np.uint64(_mask(high + low))
        ok = (p["mask"] & pm) == 0
        hs = o.rh.evaluate(high).score
        ls = o.rl.evaluate(low).score
        ch = np.sign(hs - p["high"][ok]).astype(int) + 1
        cl = np.sign(ls - p["low"][ok]).astype(int) + 1
        pj = int(JOKER in low)
        dj = p["joker"][ok].astype(int)
        vals = self.table[ch, cl, pj, dj]
        if np.isnan(vals).any():
            idx = np.nonzero(ok)[0]
            for i in np.nonzero(np.isnan(vals))[0]:
                a, b, d = ch[i], cl[i], dj[i]
                if np.isnan(self.table[a, b, pj, d]):
                    dh, dl = p["cards"][idx[i]]
                    self.table[a, b, pj, d] = float(o.run(high, low, dh, dl)[0])
            vals = self.table[ch, cl, pj, dj]
        return float(vals.mean()) if len(vals) else 0.0

    def best(self, cards) -> tuple[tuple, float]:
        key = tuple(sorted(cards))
        if key not in self._cache:
            cands = all_settings(cards, self.m.low)
            legal = []
            t = self.o.table
            ctx = Context(t, _Round(t, 0, False, False))
            fn = self.m.player_step.exprs.get("legal")
            for c in cands:
                ctx.setting = c
                if fn is None or fn(ctx):
                    legal.append(c)
            scored = [(self._ev(h, lo), (h, lo)) for h, lo in legal]
            ev, s = max(scored, key=lambda x: x[0])
            self._cache = {key: (s, ev)}
        return self._cache[key]

    def setting(self, step, candidates, view):
        cards = list(candidates[0][0]) + list(candidates[0][1])
        return self.best(cards)[0]

    def offer(self, wager, view):
        cards = list(view.cards.get(self.m.zone, ()))
        if wager != self.m.double or len(cards) != self.m.high + self.m.low:
            return Decimal(0)
        return self.m.offer_amount(view) if self.best(cards)[1] > 0 else Decimal(0)


class HouseWayStrategy(Strategy):
    """Hands set by the house way (setting() returns None); the Double Down always made."""

    def __init__(self, model: PaiGowModel):
        self.m = model

    def offer(self, wager, view):
        return self.m.offer_amount(view) if wager == self.m.double else Decimal(0)


# ---------------------------------------------------------------------------------------------
# Simulation (2 processes, chunks seeded from (seed, chunk))
# ---------------------------------------------------------------------------------------------

_W: dict = {}


def _chunk(args):
    policy, seed, i, n = args
    game, options, m, pool = _W["game"], _W["options"], _W["model"], _W["pool"]
    table = Table(game, options, seed=seed * 1_000_003 + i)
    if policy == "house_way":
        strat: Strategy = HouseWayStrategy(m)
    else:
        strat = PoolStrategy(Outcomes(Table(game, options, seed=0), m), pool, m)
    sums = {k: [0, 0.0, 0.0] for k in ("main", "double", "both")}
    doubles = 0
    for _ in range(n):
        res = table.play_round({1: {m.main: 1}}, strat)
        main = sum(float(r.net) for r in res.results if r.wager == m.main)
        dd = [float(r.net) for r in res.results if r.wager == m.double]
        for k, v in (("main", main), ("both", main + sum(dd))):
            sums[k][0] += 1
            sums[k][1] += v
            sums[k][2] += v * v
        if dd:
            doubles += 1
            sums["double"][0] += 1
            sums["double"][1] += dd[0]
            sums["double"][2] += dd[0] * dd[0]
    return sums, doubles, float(table.ledger.balance())


def simulate_paigow(game, chapter, options, rounds: int, seed: int, processes: int = 2,
                    policies=("house_way", "optimal")) -> dict:
    m = model_of(game, chapter)
    t0 = time.perf_counter()
    pool = dealer_pool(game, options, m, POOL, seed)
    pool_s = time.perf_counter() - t0
    _W.update(game=game, chapter=chapter, options=options, model=m, pool=pool)
    chunks = max(1, math.ceil(rounds / CHUNK))
    out = {"pool_seconds": pool_s, "model": m}
    for policy in policies:
        jobs = [(policy, seed, i, CHUNK) for i in range(chunks)]
        t0 = time.perf_counter()
        with progress.track(chunks * CHUNK, "rounds") as shown:
            if processes > 1:
                ctx = mp.get_context("fork")
                with ctx.Pool(processes) as p:
                    parts = []
                    for part in p.imap(_chunk, jobs):   # in order: the same result as map
                        parts.append(part)
                        shown.update(CHUNK)
            else:
                parts = []
                for j in jobs:
                    parts.append(_chunk(j))
                    shown.update(CHUNK)
        dt = time.perf_counter() - t0
        tot = {k: [0, 0.0, 0.0] for k in ("main", "double", "both")}
        doubles = 0
        bal = 0.0
        for sums, dd, b in parts:
            doubles += dd
            bal += b
            for k in tot:
                for j in range(3):
                    tot[k][j] += sums[k][j]
        stats = {}
        for k, (n, s, s2) in tot.items():
            mean = s / n if n else float("nan")
            var = (s2 / n - mean * mean) * n / (n - 1) if n > 1 else float("nan")
            stats[k] = (n, mean, math.sqrt(max(var, 0.0) / n) if n > 1 else float("nan"))
        out[policy] = {"stats": stats, "doubles": doubles, "rounds": chunks * CHUNK, "seconds": dt,
                       "balance": bal}
    return out


# ---------------------------------------------------------------------------------------------
# Exact: category counts two ways; every Envy schedule
# ---------------------------------------------------------------------------------------------


def category_counts_two_ways(ranking, k: int, jokers: int, ranks=None) -> tuple[dict, dict]:
    """(one enumeration of the deck, hands without a joker + hands with it) category counts."""
    deck = standard_deck(jokers, ranks)
    one = enumerate_hands(ranking, k, deck).category_counts()
    natural = standard_deck(0, ranks)
    two = enumerate_hands(ranking, k, natural).category_counts()
    if jokers:
        # hands holding the joker: the other k-1 cards from the natural deck, valued with the joker
        vec = Vectoriser(ranking, k, natural + [JOKER])
        counts = np.zeros(len(vec.values), dtype=np.int64)
        arr = np.array(natural, dtype=np.int64)
        for _, block in iter_colex_blocks(len(natural), k - 1):
            cards = np.concatenate([arr[block], np.full((len(block), 1), JOKER)], axis=1)
            cards.sort(axis=1)
            counts += np.bincount(vec.evaluate_cards(cards), minlength=len(vec.values))
        for i, v in enumerate(vec.values):
            if counts[i]:
                two[v.category] = two.get(v.category, 0) + int(counts[i])
    return one, two


def _distribution(game, rid, ranking, k):
    """The enumeration of every k-card hand, cached for the process (shared with card_routes)."""
    from compiler.analysis import card_routes

    key = (repr(game.rankings[rid]), k, game.cards.jokers, ())
    if key not in card_routes._DISTS:
        card_routes._DISTS[key] = enumerate_hands(ranking, k, standard_deck(game.cards.jokers))
    return card_routes._DISTS[key]


def analyze_paigow(game, chapter, options, settings, precision: float = 0.0005) -> Report:
    from compiler.analysis import card_routes
    from compiler.analysis.paytables import envy_value

    options = dict(options or {})
    rounds = int(settings.pop("rounds", None) or DEFAULT_ROUNDS)
    seed = int(settings.pop("seed", None) or 1)
    rep = card_routes.analyze(game, chapter, options, settings, within="pai gow")
    m = model_of(game, chapter)
    table = Table(game, options, seed=0)
    rk = table.ranking(m.high_ranking)
    k = m.high + m.low
    # one enumeration, shared with the paytable figures (the second route, hands without the joker plus
    # hands with it, is a test: tests/chapters/test_670a_play.py)
    dist = _distribution(game, m.high_ranking, rk, k)
    one = dist.category_counts()
    total = sum(one.values())
    rep.notes.append(
        f"{k}-card hands of the {52 + game.cards.jokers}-card deck by the category of their best {rk.cards}-card hand "
        f"({total:,} hands):\n    "
        + "\n    ".join(f"{c:<16} {n:>11,}  {Fraction(n, total)} = {n / total:.8f}" for c, n in one.items()))
    # every Envy schedule, also those no rule pays (value per other player)
    for pid, pt in game.paytables.items():
        rows = [r for r in pt.rows]
        if not rows or not all(o[0].kind == "fixed" for _, o, _ in rows):
            continue
        if any(s.kind == "envy" and s.params.get("paytable") == pid for s in _walk(game.procedure)):
            continue
        v = envy_value(dist, pt, 0)   # the compiled paytable: its odds as read once, no strings
        rep.figures.append(Figure((pt.id,), f"{pt.title} per other player", Policy("schedule", "schedule no rule pays"),
                                  Fraction(v), None, None, {},
                                  f"exact: all {k}-card hands; expected bonus in dollars per other player",
                                  kind="value", status="exact"))
    # the main wager and the Double Down under the house way: exact from the committed record of the
    # full enumeration (compiler/analysis/paigow_exact.py) when its key matches, else not computed
    rep.not_computed = [n for n in rep.not_computed if n.wager not in (m.main, m.double)]
    rec = _exact_house_way(rep, game, chapter, options, m)
    if rec is not None and "main_optimal" in rec["figures"]:
        return rep   # the player's optimal setting is exact too: no simulation
    # the player's setting against the house way, by simulation of the compiled game
    offer_all = {d.offered_by: True for d in game.wagers.values() if d.offered_by and d.offered_by not in options}
    sim = simulate_paigow(game, chapter, {**offer_all, **options}, rounds, seed, policies=("optimal",))
    for policy, label in (("optimal", f"player sets to maximise the estimate against {POOL:,} dealer hands set "
                                      f"by the house way{DURING_CLAUSE}"),):
        st = sim[policy]["stats"]
        n, mean, se = st["main"]
        need = _rounds_needed(n, se, precision)
        short = "" if se <= precision else f"; about {need:,} rounds would reach the target"
        rep.figures.append(Figure((m.main,), game.wagers[m.main].name, Policy("estimated", label), _rounded(mean),
                                  None, None, {},
                                  f"simulation: {sim[policy]['rounds']:,} rounds of the compiled game, seed {seed}; "
                                  f"standard error {se * 100:.4f} points, target {precision * 100:.4f}{short}",
                                  standard_error=se, target=precision, status="simulated"))
        if m.double and st["double"][0]:
            n2, mean2, se2 = st["double"]
            short2 = "" if se2 <= precision else (f"; about {_rounds_needed(n, se2, precision):,} rounds would "
                                                  "reach the target")
            rep.figures.append(Figure((m.double,), game.wagers[m.double].name, Policy("estimated", label),
                                      _rounded(mean2), None, None,
                                      {"made in a share of rounds": _rounded(n2 / max(n, 1))},
                                      f"simulation: {n2:,} wagers; standard error {se2 * 100:.4f} points, target "
                                      f"{precision * 100:.4f}{short2}", standard_error=se2, target=precision,
                                      status="simulated"))
        n3, mean3, se3 = st["both"]
        if max(se, se3) <= precision:  # a note short of the precision target would be a figure in disguise
            rep.notes.append(f"{label}: per unit {game.wagers[m.main].name}, main wager {mean:+.5f} ± {se:.5f}; "
                             f"with the Double Down {mean3:+.5f} ± {se3:.5f} (1 s.e.); {sim[policy]['rounds']:,} "
                             "rounds")
    rep.notes.append(f"the optimal setting is estimated against {POOL:,} dealer hands set by the house way "
                     f"(seed {seed}; the player's own cards excluded)")
    return rep


HOUSE_WAY = "player and dealer set their hands by the house way"
DOUBLE_ALWAYS = "player sets by the house way, always doubles"
DOUBLE_OPTIMAL = ("player sets by the house way, doubles when the exact expected net of the Double Down given "
                  "the player's cards is positive")
MAIN_OPTIMAL = ("player sets each hand to maximise the exact expected net of this wager given his six cards "
                "(no Double Down); dealer by the house way")
DOUBLE_BOTH_OPTIMAL = ("player doubles, and sets his hands, to maximise the exact expected net of both wagers "
                       "given his cards; dealer by the house way")
EXACT_MINUTES = 30  # the full enumeration (house way and optimal setting): 15 CPU-minutes, 31 wall under load (docs/analysis.md)


def _exact_house_way(rep, game, chapter, options, m) -> dict | None:
    """Exact figures of the main wager (and the wager offered during the round) under the house way from the
    chapter's record, or "not computed" with the reason (never a stale figure: the record's key must match)."""

    name = game.wagers[m.main].name
    dname = game.wagers[m.double].name if m.double else None
    try:
        pe.ExactPaiGow(game, chapter, options)
    except pe.Refused as e:
        rep.refuse(m.main, name, f"no exact route: {e}", HOUSE_WAY)
        if m.double:
            rep.refuse(m.double, dname, f"no exact route: {e}", DOUBLE_ALWAYS)
        return None
    rec, bad = pr.read_record(game, chapter, options=options)
    if rec is None:
        spec = pr.spec_name(chapter)
        why = (f"exact enumeration takes ~{EXACT_MINUTES} minutes; run `rulespec analyze --exhaustive {spec}` "
               "to compute it")
        if bad:  # a record that fails its checks is never printed (compiler/analysis/record_check.py)
            why = f"{bad}; {why} again"
        rep.refuse(m.main, name, why, HOUSE_WAY)
        if m.double:
            rep.refuse(m.double, dname, why, DOUBLE_ALWAYS)
            rep.refuse(m.double, dname, why, DOUBLE_OPTIMAL)
        return None
    deals = int(rec["deals"])
    where = (f"record {pr.record_path(chapter).name} (key {rec['key'][:12]}, computed in "
             f"{int(rec['seconds']) // 60} min by `{rec['command']}`)")
    method = (f"exact: all {deals:,} deals (player hand x dealer hand) by card-removal counting against every "
              "hand set by the house way, with suit symmetry")

    def outcomes(by_net):
        return {("+" if Fraction(k) > 0 else "") + k: Fraction(c, deals) for k, c in by_net.items()}

    f = rec["figures"]
    rep.figures.append(Figure((m.main,), name, Policy("house way", HOUSE_WAY), Fraction(f["main"]), None,
                              Fraction(rec["main_counts"]["win"], deals), outcomes(rec["main_by_net"]), method,
                              status="exact", provenance=where))
    if m.double and "double_always" in f:
        rep.figures.append(Figure((m.double,), dname, Policy("house way", DOUBLE_ALWAYS), Fraction(f["double_always"]),
                                  None, Fraction(rec["double_always_counts"]["win"], deals),
                                  outcomes(rec["double_always_by_net"]), method, status="exact",
                                  provenance=where))
        share = Fraction(f["double_optimal_share"])
        if share:
            rep.figures.append(Figure((m.double,), dname, Policy("optimal", DOUBLE_OPTIMAL),
                                      Fraction(f["double_optimal_per_made"]), None,
                                      None, {"made in a share of rounds": share}, method, status="exact",
                                      provenance=where))
        main = Fraction(f["main"])
        rep.notes.append(f"{HOUSE_WAY}: per unit {name}, with the {dname} always made {main + Fraction(f['double_always'])}"
                         f" = {float(main + Fraction(f['double_always'])):+.10f}; made when its exact expectation "
                         f"is positive {main + Fraction(f['double_optimal_per_round'])} = "
                         f"{float(main + Fraction(f['double_optimal_per_round'])):+.10f} (exact)")
    if "main_optimal" in f:
        _exact_optimal(rep, game, m, rec, deals, method, outcomes, where)
    return rec


def _exact_optimal(rep, game, m, rec, deals, method, outcomes, where) -> None:
    """The player's optimal setting (and doubling) against the house way, from the same record."""
    f = rec["figures"]
    name = game.wagers[m.main].name
    how = method.replace("every hand set by the house way", "every dealer hand set by the house way and every "
                         "setting the player may choose")
    rep.figures.append(Figure((m.main,), name, Policy("optimal", MAIN_OPTIMAL), Fraction(f["main_optimal"]), None,
                              Fraction(rec["main_optimal_counts"]["win"], deals), outcomes(rec["main_optimal_by_net"]),
                              how, status="exact", provenance=where))
    gain, share = Fraction(f["optimal_gain"]), Fraction(f["optimal_differs_share"])
    rep.notes.append(f"{MAIN_OPTIMAL}: {name} {f['main_optimal']} = {float(Fraction(f['main_optimal'])):+.10f} "
                     f"per unit (exact), {float(gain) * 100:+.4f} points against the house way; the player's best "
                     f"setting beats the house way's in {float(share) * 100:.4f}% of hands ({share})")
    if m.double and f.get("double_optimal_setting_per_made") not in (None, "None"):
        dname = game.wagers[m.double].name
        dshare = Fraction(f["double_optimal_setting_share"])
        rep.figures.append(Figure((m.double,), dname, Policy("optimal", DOUBLE_BOTH_OPTIMAL),
                                  Fraction(f["double_optimal_setting_per_made"]),
                                  None, None, {"made in a share of rounds": dshare}, how, status="exact",
                                  provenance=where))
        rnd = Fraction(f["round_optimal"])
        rep.notes.append(f"{DOUBLE_BOTH_OPTIMAL}: per unit {name}, the round (both wagers) {rnd} = {float(rnd):+.10f} "
                         f"(exact); the {dname} is made in {float(dshare) * 100:.4f}% of rounds")


def _rounded(x: float) -> Fraction:
    """A simulated mean kept to 6 decimals (never shown as a fraction: see Figure.simulated_text)."""
    return Fraction(round(x * 10 ** 6), 10 ** 6)


def _rounds_needed(n: int, se: float, target: float) -> int:
    """Rounds for the standard error to reach ``target`` (s.e. falls as 1/sqrt(rounds))."""
    if not n or se <= target:
        return n
    return int(math.ceil(n * (se / target) ** 2 / 1000.0)) * 1000

