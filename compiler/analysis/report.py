"""`rulespec analyze`: the exact figures of a chapter's wagers, computed from its spec.

Games whose rankings ignore suits (single-card comparison games such as War) are solved by
enumerating the compiled game itself (:mod:`compiler.analysis.exact_engine`); the poker
chapters use the vectorised enumerators of :mod:`compiler.analysis.enumerate`.
"""
from __future__ import annotations

import itertools
import re
from fractions import Fraction

from compiler.analysis import markov, paigow, poker_report, progress
from compiler.analysis.exact_engine import enumerate_round, rank_level_ok
from compiler.analysis.model import DURING_CLAUSE, Figure, NotComputed, Report, dec, pct  # noqa: F401 (DURING_CLAUSE: callers)
from compiler.runtime.engine import FixedStrategy, Table

__all__ = ["DEFAULT_PRECISION", "Figure", "NotComputed", "Report", "analyze", "analyze_engine", "dec", "pct",
           "policies"]


def policies(game) -> list[tuple[str, dict[str, str]]]:
    """'always X' for each choice of each decision step (other steps: their first choice)."""
    steps = []

    def walk(ss):
        for s in ss:
            if s.kind == "decide":
                steps.append(s)
            walk(s.steps)

    walk(game.procedure)
    if not steps:
        return [("no decisions", {})]
    out = []
    for s in steps:
        for c in s.choices:
            pref = {x.id: x.choices[0].id for x in steps}
            pref[s.id] = c.id
            out.append((f"always {c.id} ({s.id}, {c.cite})", pref))
    return out


def analyze_engine(game, options: dict | None = None, decks: int | None = None) -> list[Figure]:
    """Exact figures by enumerating the engine (games with suit-free rankings)."""
    if not rank_level_ok(game):
        raise ValueError("this game's rankings use suits; use the poker enumerators")
    required = [w for w, d in game.wagers.items() if d.required]
    during = [w for w, d in game.wagers.items() if not d.required and _during(game, w)]
    optional = [w for w, d in game.wagers.items() if not d.required and w not in during]
    figs: list[Figure] = []
    base = {w: 1 for w in required}
    pols = policies(game)
    during_offered = [w for w in during if _offered(game, w, options)]
    optional_offered = [w for w in optional if _offered(game, w, options)]
    with progress.track(len(pols) * (1 + len(during_offered)) + len(optional_offered), "enumerations") as bar:
        for label, pref in pols:
            res = enumerate_round(game, base, FixedStrategy(pref), options=options, decks=decks)
            bar.update(1)
            net = sum((res.wagers[w].expected_net for w in res.wagers), Fraction(0))
            stake = sum((res.wagers[w].expected_stake for w in res.wagers), Fraction(0))
            names = " + ".join(game.wagers[w].name for w in required)
            win = sum((p for (w, o), p in res.by_outcome.items() if w in required and o == "win"), Fraction(0))
            n = len(required)
            outcomes = {("+" if k > 0 else "") + str(k / n): v for k, v in sorted(res.round_net.items())}
            figs.append(Figure("+".join(required), names, label, net / len(required), net / stake, win, outcomes,
                               f"exact: engine enumerated over {res.paths} deals",
                               tuple(w for w in res.wagers if w not in required)))
        included = {w for f in figs for w in f.includes}
        for w in during_offered:
            # a wager the player may make when offered during the round: per unit made, under each policy that
            # reaches the offer, the player making it whenever offered
            if w in included:
                bar.update(len(pols))
                continue
            for label, pref in pols:
                res = enumerate_round(game, base, FixedStrategy(pref, offers={w: 1}), options=options, decks=decks)
                bar.update(1)
                st = res.wagers.get(w)
                if st is None or not st.placed_prob:
                    continue
                figs.append(Figure(w, game.wagers[w].name, f"{label}; made whenever offered",
                                   st.expected_net / st.expected_stake, None,
                                   st.outcomes.get("win", Fraction(0)) / st.placed_prob,
                                   {k: v / st.placed_prob for k, v in st.outcomes.items()},
                                   f"exact: engine enumerated over {res.paths} deals; per unit made (made in "
                                   f"{st.placed_prob} of rounds)"))
        for w in optional_offered:
            bets = dict(base)
            bets[w] = 1
            pref = pols[0][1]
            res = enumerate_round(game, bets, FixedStrategy(pref), options=options, decks=decks)
            bar.update(1)
            st = res.wagers[w]
            figs.append(Figure(w, game.wagers[w].name, "any", st.expected_net, None,
                               st.outcomes.get("win", Fraction(0)), dict(st.outcomes),
                               f"exact: engine enumerated over {res.paths} deals"))
    return figs


def _offered(game, w, options) -> bool:
    wd = game.wagers[w]
    if wd.offered_by is None:
        return True
    return bool({**game.defaults(), **(options or {})}.get(wd.offered_by))


def _during(game, w: str) -> bool:
    """A wager placed during the round (War wager, Double Down), not with the bets before the deal."""
    return game.wagers[w].placed == "during_round"


DEFAULT_PRECISION = Fraction(5, 10000)  # standard error of a simulated figure: at most 0.05 percentage points


def analyze(game, chapter, options: dict | None = None, decks: int | None = None, rounds: int | None = None,
            seed: int | None = None, precision: Fraction | float | None = None) -> Report:
    """Every figure of a chapter, by the route that fits its rankings. ``rounds`` / ``seed``: the
    simulated part of the figures (pai gow main wager and Double Down); ``precision``: the standard
    error (per unit wagered) a simulated figure must reach to count as a figure.

    Every offered wager ends with a figure or in ``Report.not_computed`` with the reason."""
    rep = _analyze(game, chapter, options, decks, rounds, seed,
                   float(DEFAULT_PRECISION if precision is None else precision))
    if any(d.offered_by and d.offered_by in (options or {}) for d in game.wagers.values()):
        # the selections say whether a wager is offered: none of a wager they do not offer
        offer_all = {d.offered_by: True for d in game.wagers.values() if d.offered_by and d.offered_by not in options}
        selected = Table(game, {**offer_all, **options}, seed=0)
        unoffered = {w: d.name for w, d in game.wagers.items() if not selected.offered(w)}
        model = paigow.model_or_reason(game, chapter)[0] if unoffered and not rank_level_ok(game) else None
        drop_unoffered(rep, unoffered, getattr(model, "double", None))
    covered = {w for f in rep.figures for w in (*f.wager.split("+"), *f.includes)}
    covered |= {n.wager for n in rep.not_computed}
    if rep.figures or rep.not_computed:
        offer_all = {d.offered_by: True for d in game.wagers.values() if d.offered_by and d.offered_by not in
                     (options or {})}
        table = Table(game, {**offer_all, **(options or {})}, seed=0)
        for w, d in game.wagers.items():
            if w not in covered and table.offered(w):
                rep.refuse(w, d.name, "no analysis route covers it (its settlement is not a paytable on its own "
                                      "cards and no solver models the decisions it depends on)")
    return rep


# what the pai gow route's simulated setting policy says of the wager made during the round
# (compiler/analysis/paigow.py, analyze_paigow); said only when the casino offers that wager


def drop_unoffered(rep: Report, unoffered: dict[str, str], during: str | None = None) -> None:
    """No figure, refusal or note of a wager the caller's selections do not offer (``unoffered``: id ->
    name), and no policy that has the player make one: a figure must not describe a wager that is not
    there. ``during``: the wager the pai gow route's policies make during the round, if any."""
    if not unoffered:
        return
    rep.figures = [f for f in rep.figures if f.wager not in unoffered]
    rep.not_computed = [n for n in rep.not_computed if n.wager not in unoffered]
    names = [re.compile(rf"(?<!\w){re.escape(n)}(?!\w)") for n in unoffered.values() if n]
    rep.notes = [n for n in rep.notes if not any(p.search(n) for p in names)]
    if during in unoffered:
        for f in rep.figures:
            f.policy = f.policy.replace(DURING_CLAUSE, "")
        for n in rep.not_computed:
            n.policy = n.policy.replace(DURING_CLAUSE, "")


def _analyze(game, chapter, options, decks, rounds, seed, precision) -> Report:
    options = dict(options or {})
    table = Table(game, options, seed=0)
    if decks is not None:
        allowed = _legal_shoe_decks(game, chapter, table)
        if allowed and decks not in allowed:
            raise ValueError(f"{decks} decks is not legal for Chapter {game.chapter}: a dealing shoe holds "
                             f"{', '.join(map(str, sorted(allowed)))} decks under the spec's constraints")
    settings = {**table.options, "decks_in_shoe": decks if decks is not None else table.shoe_decks()}
    unpriced = [p for p in game.payouts.values() if table.payout_odds(p) is None]
    if unpriced:  # a partial chapter: wins at these payouts have no amount, so no return can be computed
        return Report(game.chapter, game.title, settings, [],
                      ["no house edge is computed: the payout odds of "
                       + ", ".join(sorted({p.cite for p in unpriced}))
                       + " are not in the sources (a win is recorded without an amount) and these selections "
                         "do not state them"])
    if not game.wagers:
        return Report(game.chapter, game.title, settings, [],
                      ["the rulespec defines no wagers (the sources give no wager of this chapter): nothing to analyse"])
    if chapter is not None and markov.has_loop(chapter):  # a round that loops (roll until): a Markov chain
        return markov.analyze(game, chapter, options, settings)
    if rank_level_ok(game):
        figs = analyze_engine(game, options, decks)
        return Report(game.chapter, game.title, settings, figs,
                      ["exact over every deal of a freshly shuffled shoe (one seat; by exchangeability other "
                       "seats and burned cards do not change it)"])
    model, _ = paigow.model_or_reason(game, chapter)
    if model is not None:
        return paigow.analyze_paigow(game, chapter, options, {**settings, "rounds": rounds, "seed": seed},
                                     precision=precision)
    return poker_report.analyze(game, chapter, options, settings)


def _legal_shoe_decks(game, chapter, table) -> set[int]:
    """Deck counts per shoe allowed by the options and constraints of the spec."""
    cd = game.cards
    if not cd.decks_option:
        return set()
    opt = game.options[cd.decks_option]
    lo, hi = int(opt.get("minimum", 1)), int(opt.get("maximum", 16))
    out = set()
    flags = [k for k, v in game.options.items() if v.get("type") == "boolean"]
    for combo in itertools.product([False, True], repeat=len(flags)):
        for n in range(lo, hi + 1):
            o = {**table.options, **dict(zip(flags, combo)), cd.decks_option: n}
            t = Table(game, o, seed=0)
            if _constraints_ok(chapter, t):
                out.add(t.shoe_decks())
    return out


def _constraints_ok(chapter, table) -> bool:
    return not table.violations()
