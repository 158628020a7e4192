"""`rulespec analyze`: the exact figures of a chapter's wagers, computed from its spec.

Games whose rankings ignore suits (single-card comparison games such as War) are solved by
enumerating the compiled game itself (:mod:`compiler.analysis.exact_engine`); the poker
chapters use the vectorised enumerators of :mod:`compiler.analysis.enumerate`.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from compiler.analysis import chance_exact, contract, markov, paigow, per_wager, points_exact, card_routes, progress
from compiler.analysis.exact_engine import PATH_BUDGET, PathLimit, enumerate_round, rank_level_ok
from compiler.analysis.game_tree import game_tree, optimal, policy_result
from compiler.analysis.counted_loops import unroll_counted_deals
from compiler.analysis.stakes import rounded_on_one
from compiler.analysis.model import (DURING_CLAUSE, NO_DECISION, Figure, NotComputed, Policy, Report,  # noqa: F401
                                     dec, pct)  # (DURING_CLAUSE: callers)
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
    """Exact figures by enumerating the engine (games with suit-free rankings). Where the round has a
    decision (several policies), the game tree is played once and gives every fixed policy's figure, the
    wagers offered during the round and the optimal strategy; a tree past its budget leaves each policy
    to an enumeration of its own."""
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
    # a round's figure is per unit of its required wagers; with none required (each wager is a choice, as at
    # roulette or baccarat) every wager has its own figure, per unit of that wager made
    round_pols = pols if required else []
    leaves = _tree(game, base, options, decks) if required and len(round_pols) > 1 else None
    with progress.track(len(round_pols) + len(pols) * len(during_offered) + len(optional_offered),
                        "enumerations") as bar:
        run = _Runner(game, base, options, decks, leaves, bar)
        for label, pref in round_pols:
            res, how = run.result(pref)
            net = sum((res.wagers[w].expected_net for w in res.wagers), Fraction(0))
            stake = sum((res.wagers[w].expected_stake for w in res.wagers), Fraction(0))
            names = " + ".join(game.wagers[w].name for w in required)
            win = sum((p for (w, o), p in res.by_outcome.items() if w in required and o == "win"), Fraction(0))
            n = len(required)
            outcomes = {("+" if k > 0 else "") + str(k / n): v for k, v in sorted(res.round_net.items())}
            figs.append(Figure(tuple(required), names, _fixed(label, pref), net / len(required), net / stake, win,
                               outcomes, f"exact: {how} over {res.paths} deals",
                               tuple(w for w in res.wagers if w not in required), status="exact"))
        if leaves is not None:
            figs.extend(_optimal_engine(game, required, leaves, figs))
        included = {w for f in figs for w in f.includes}
        for w in during_offered:
            # a wager the player may make when offered during the round: per unit made, under each policy that
            # reaches the offer, the player making it whenever offered
            if w in included:
                bar.update(len(pols))
                continue
            for label, pref in pols:
                res, how = run.result(pref, make=w)
                st = res.wagers.get(w)
                if st is None or not st.placed_prob:
                    continue
                figs.append(Figure((w,), game.wagers[w].name, _fixed(f"{label}; made whenever offered", pref),
                                   st.expected_net / st.expected_stake, None,
                                   st.outcomes.get("win", Fraction(0)) / st.placed_prob,
                                   {k: v / st.placed_prob for k, v in st.outcomes.items()},
                                   f"exact: {how} over {res.paths} deals; per unit made (made in "
                                   f"{st.placed_prob} of rounds)", status="exact"))
        for w in optional_offered:
            bets = dict(base)
            bets[w] = 1
            pref = pols[0][1]
            res = enumerate_round(game, bets, FixedStrategy(pref), options=options, decks=decks)
            bar.update(1)
            st = res.wagers[w]
            figs.append(Figure((w,), game.wagers[w].name, NO_DECISION, st.expected_net, None,
                               st.outcomes.get("win", Fraction(0)), dict(st.outcomes),
                               f"exact: engine enumerated over {res.paths} deals", status="exact"))
    return figs


ENGINE_OPTIMAL = ("optimal strategy: at each decision the choice of largest expected net given what the player "
                  "has seen (backward induction over every deal and choice of the compiled round)")


def _tree(game, base: dict, options, decks):
    """The game tree of the round with its required wagers, or None past the path budget."""
    try:
        return game_tree(game, base, options, decks=decks, max_paths=PATH_BUDGET)
    except PathLimit:
        return None


@dataclass
class _Runner:
    """One fixed policy's round: read from the game tree where there is one (every choice and offer named),
    else enumerated on the engine (the offer ``make`` made for one unit whenever offered)."""
    game: object
    base: dict
    options: dict | None
    decks: int | None
    leaves: list | None
    bar: object

    def result(self, pref: dict, make: str | None = None):
        self.bar.update(1)
        if self.leaves is not None:
            offers = {w for w, d in self.game.wagers.items() if _during(self.game, w)}
            policy = {**pref, **{f"offer:{w}": "make" if w == make else "decline" for w in offers}}
            try:
                return policy_result(self.leaves, policy), "engine game tree"
            except ValueError:
                pass
        strat = FixedStrategy(pref, offers={make: 1}) if make else FixedStrategy(pref)
        res = enumerate_round(self.game, self.base, strat, options=self.options, decks=self.decks)
        return res, "engine enumerated"


def _optimal_engine(game, required: list, leaves, fixed: list[Figure]) -> list[Figure]:
    """The round under optimal play, where a choice that depends on the cards seen (Red Dog: raise on a wide
    spread) does better than every fixed policy; none where one of them is optimal (War: always go to war)."""
    opt = optimal(leaves)
    net, stake = opt.total_net(), opt.total_stake()
    n = len(required)
    if not fixed or net / n <= max(f.expected_return for f in fixed):
        return []
    win = sum((opt.win.get(w, Fraction(0)) for w in required), Fraction(0))
    outcomes = {("+" if k > 0 else "") + str(k / n): v for k, v in sorted(opt.round_net.items())}
    return [Figure(tuple(required), " + ".join(game.wagers[w].name for w in required),
                   Policy("optimal", ENGINE_OPTIMAL), net / n, net / stake, win, outcomes,
                   f"exact: engine game tree over {opt.leaves} deals and choices",
                   tuple(w for w in opt.expected_net if w not in required), status="exact")]


def _fixed(label: str, pref: dict[str, str]) -> Policy:
    """The policy of a fixed set of choices (``pref``: decision id -> choice id); none when no decision."""
    return Policy("fixed", label, tuple(pref.items())) if pref else Policy("none", label)


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
            seed: int | None = None, precision: Fraction | float | None = None,
            simulate_refused: bool = True) -> Report:
    """Every figure of a chapter, by the route that fits its rankings. ``rounds`` / ``seed``: the
    simulated part of the figures (pai gow main wager and Double Down); ``precision``: the standard
    error (per unit wagered) a simulated figure must reach to count as a figure.

    Every offered wager ends with a figure or in ``Report.not_computed`` with the reason; a wager no exact
    method gives a figure is simulated where the contract's simulation models the chapter
    (``simulate_refused``), its figure naming why no exact method applied."""
    precision = float(DEFAULT_PRECISION if precision is None else precision)
    rep, analysed, part = _analyze(game, chapter, options, decks, rounds, seed, precision, simulate_refused)
    if any(d.offered_by and d.offered_by in (options or {}) for d in game.wagers.values()):
        # the selections say whether a wager is offered: none of a wager they do not offer
        offer_all = {d.offered_by: True for d in game.wagers.values() if d.offered_by and d.offered_by not in options}
        selected = Table(game, {**offer_all, **options}, seed=0)
        unoffered = {w: d.name for w, d in game.wagers.items() if not selected.offered(w)}
        _dropper(game, chapter)(rep, unoffered)
    covered = {w for f in rep.figures for w in (*f.stakes, *f.includes)}
    covered |= {n.wager for n in rep.not_computed}
    if analysed:
        offer_all = {d.offered_by: True for d in game.wagers.values() if d.offered_by and d.offered_by not in
                     (options or {})}
        table = Table(game, {**offer_all, **(options or {})}, seed=0)
        for w, d in game.wagers.items():
            if w not in covered and table.offered(w):
                rep.refuse(w, d.name, "no analysis route covers it (its settlement is not a paytable on its own "
                                      "cards and no solver models the decisions it depends on)")
    if analysed and simulate_refused and any(n.policy == "any" for n in rep.not_computed):
        from compiler.analysis.simulated import simulate_refused as fill
        # where the chapter was split, the wagers its method refused are simulated as it analysed them
        fill_game, fill_options = part or (game, options)
        fill(rep, fill_game, chapter, fill_options, rounds, seed, precision, decks)
    return rep


# what the pai gow route's simulated setting policy says of the wager made during the round
# (compiler/analysis/paigow.py, analyze_paigow); said only when the casino offers that wager


def drop_unoffered(rep: Report, unoffered: dict[str, str], during: str | None = None) -> None:
    """No figure, refusal or note of a wager the caller's selections do not offer (``unoffered``: id ->
    name), and no policy that has the player make one: a figure must not describe a wager that is not
    there. ``during``: the wager the pai gow route's policies make during the round, if any."""
    if not unoffered:
        return
    rep.figures = [f for f in rep.figures if not set(f.stakes) & set(unoffered)]
    rep.not_computed = [n for n in rep.not_computed if n.wager not in unoffered]
    names = [re.compile(rf"(?<!\w){re.escape(n)}(?!\w)") for n in unoffered.values() if n]
    rep.notes = [n for n in rep.notes if not any(p.search(n) for p in names)]
    if during in unoffered:
        for f in rep.figures:
            f.policy = f.policy.with_text(f.policy.text.replace(DURING_CLAUSE, ""))
        for n in rep.not_computed:
            n.policy = n.policy.replace(DURING_CLAUSE, "")


def _dropper(game, chapter) -> Callable[[Report, dict[str, str]], None]:
    """:func:`drop_unoffered` for this chapter (its pai gow Double Down, if any, is the wager made during the
    round that policies name)."""
    def drop(rep: Report, unoffered: dict[str, str]) -> None:
        model = paigow.model_or_reason(game, chapter)[0] if unoffered and not rank_level_ok(game) else None
        drop_unoffered(rep, unoffered, getattr(model, "double", None))
    return drop


def _analyze(game, chapter, options, decks, rounds, seed, precision, simulated: bool = True
             ) -> tuple[Report, bool, tuple | None]:
    """The report, whether a method was tried, and the (game, options) a part of the figures was computed on
    when the chapter was split wager by wager (compiler/analysis/per_wager.py), else None."""
    options = dict(options or {})
    chapter = unroll_counted_deals(chapter)  # a deal written as a loop of fixed passes: its deal steps
    table = Table(game, options, seed=0)
    if decks is not None:
        allowed = _legal_shoe_decks(game, chapter, table)
        if allowed and decks not in allowed:
            raise ValueError(f"{decks} decks is not legal for Chapter {game.chapter}: a dealing shoe holds "
                             f"{', '.join(map(str, sorted(allowed)))} decks under the spec's constraints")
    settings = {**table.options}
    if chapter.cards:  # a chapter that deals no card (dice, a wheel) has no shoe to state
        settings["decks_in_shoe"] = decks if decks is not None else table.shoe_decks()
    unpriced = [p for p in game.payouts.values() if table.payout_odds(p) is None]
    if unpriced:  # a partial chapter: wins at these payouts have no amount, so no return can be computed
        return Report(game.chapter, game.title, settings, [],
                      ["no house edge is computed: the payout odds of "
                       + ", ".join(sorted({p.cite for p in unpriced}))
                       + " are not in the sources (a win is recorded without an amount) and these selections "
                         "do not state them"]), False, None
    if not game.wagers:
        return Report(game.chapter, game.title, settings, [],
                      ["the rulespec defines no wagers (the sources give no wager of this chapter): nothing to "
                       "analyse"]), False, None
    refusals = []
    methods = [m for m in METHODS if simulated or m.name != "simulation"]
    run_args = (decks, settings, rounds, seed, precision)
    for method in methods:  # in order: the first that applies gives the report
        if method.name == "simulation":  # before simulating it all: exact figures wager by wager (per_wager.py)
            parts = per_wager.split(game, chapter, options, [m for m in methods if m is not method], methods,
                                    run_args, _dropper(game, chapter))
            if parts is not None:
                return parts.report, True, (parts.game, parts.options)
        why = method.refusal(game, chapter, options)
        if why is None:
            try:
                rep = method.run(game, chapter, options, *run_args)
                if refusals and method.name == "simulation":  # a simulated figure says why no exact one
                    why_not = "; ".join(f"{name}: {w}" for name, w in refusals)
                    for f in rep.figures:
                        f.method = f"no exact method ({why_not}). {f.method}"
                return rep, True, None
            except contract.Refused as e:  # it found out while computing (a budget reached): the next one
                why = str(e)
        refusals.append((method.name, why))
    # a construct that concerns only some optional wagers: the others as if those were not offered (per_wager.py)
    # (with the simulation tried on the rest where the exact methods were, else the exact methods)
    parts = per_wager.split(game, chapter, options, [m for m in methods if m.name == "simulation"] or methods,
                            methods, run_args, _dropper(game, chapter))
    if parts is not None:
        return parts.report, True, (parts.game, parts.options)
    rep = Report(game.chapter, game.title, settings, [], [f"{name}: {why}" for name, why in refusals])
    reason = contract.unmodelled([d for m in methods for d in m.declarations], game, chapter, options,
                                 refusals)
    table = contract.offer_table(game, options)
    for w, d in game.wagers.items():
        if table.offered(w):
            rep.refuse(w, d.name, reason)
    return rep, True, None


@dataclass(frozen=True)
class Method:
    """An analysis method: the contracts it answers to (compiler/analysis/contract.py: it applies when one of
    them models every construct of the active procedure), what else it requires of the chapter (``fits``:
    None, or why not) and what it computes (``run``). Tried in the order of :data:`METHODS`."""
    name: str
    declarations: tuple[str, ...]
    fits: Callable[..., str | None]
    run: Callable[..., Report]

    def refusal(self, game, chapter, options) -> str | None:
        whys = [contract.refusal(d, game, chapter, options) for d in self.declarations]
        if all(w is not None for w in whys):
            return whys[0]
        return self.fits(game, chapter, options)


def _on_one(game, chapter, method: str) -> None:
    """Refused where the method's stake of 1 would have a payout rounded down to the cent (stakes.py)."""
    odd = rounded_on_one(game, chapter)
    if odd:
        raise contract.Refused(f"the {method} plays a stake of 1, on which {odd} is no whole number of cents (the "
                               "engine would round it down)")


def _run_engine(game, chapter, options, decks, settings, rounds, seed, precision) -> Report:
    _on_one(game, chapter, "engine enumeration")
    try:
        figs = analyze_engine(game, options, decks)
    except PathLimit as e:
        raise contract.Refused(f"the exact enumeration of the engine stopped: {e}") from None
    return Report(game.chapter, game.title, settings, figs,
                  ["exact over every deal of a freshly shuffled shoe (one seat; by exchangeability other "
                   "seats and burned cards do not change it)"])


def _paigow_fits(game, chapter, options) -> str | None:
    model, why = paigow.model_or_reason(game, chapter)
    return None if model is not None else (why or "no pai gow model")


def _run_paigow(game, chapter, options, decks, settings, rounds, seed, precision) -> Report:
    return paigow.analyze_paigow(game, chapter, options, {**settings, "rounds": rounds, "seed": seed},
                                 precision=precision)


def _run_simulated(game, chapter, options, decks, settings, rounds, seed, precision) -> Report:
    from compiler.analysis.simulated import analyze_simulated
    return analyze_simulated(game, chapter, options, settings, rounds, seed, precision, decks)


def _run_cards(game, chapter, options, decks, settings, rounds, seed, precision) -> Report:
    return card_routes.analyze(game, chapter, options, settings)


def _points_fits(game, chapter, options) -> str | None:
    if not points_exact.applies(game):
        return "no ranking of kind points"
    return points_exact.refusal(game, chapter)


def _run_points(game, chapter, options, decks, settings, rounds, seed, precision) -> Report:
    _on_one(game, chapter, "points method")
    return points_exact.report(game, chapter, options, decks, settings)


def _chance_fits(game, chapter, options) -> str | None:
    why = chance_exact.unmodelled(game, chapter, contract.offer_table(game, options).offered)
    if why is not None:
        return f"it does not model {why}"
    if not chance_exact.concerns(game, chapter):
        if chance_exact.concerns(game, chapter, required=True) and (
                not rank_level_ok(game) or contract.refusal("engine enumeration", game, chapter, options)
                or rounded_on_one(game, chapter)):
            return None  # a required wager, and cards the engine enumeration does not model (a suited tie, 7 to 6)
        return "no dice, wheel or random number decides the round, and a wager is required"
    return None


def _run_chance(game, chapter, options, decks, settings, rounds, seed, precision) -> Report:
    try:
        return chance_exact.report(game, chapter, options, decks, settings, Table(game, options, seed=0).offered)
    except chance_exact.Unmodelled as e:
        raise contract.Refused(str(e)) from None


def _draw_fits(game, chapter, options) -> str | None:
    from compiler.analysis import draw_report
    return draw_report.refusal(game, chapter, options)


def _run_draw(game, chapter, options, decks, settings, rounds, seed, precision) -> Report:
    from compiler.analysis import draw_report
    return draw_report.report(game, chapter, options, decks, settings)


def _markov_fits(game, chapter, options) -> str | None:
    if not markov.has_loop(chapter):
        return "no repeat step (a round that loops)"
    return markov.refusal(game, chapter, contract.offer_table(game, options).offered)


def _run_markov(game, chapter, options, decks, settings, rounds, seed, precision) -> Report:
    rep = markov.analyze(game, chapter, options, settings)
    if not rep.figures and rep.not_computed:  # it found out while building the chain: the next method
        raise contract.Refused(rep.not_computed[0].reason)
    return rep


METHODS: list[Method] = [
    # a round that loops (roll until a 7 or the point): an absorbing Markov chain over the round state (markov.py)
    Method("markov", ("markov",), _markov_fits, _run_markov),
    # hands valued by points (baccarat): the dealing walked over card classes (points_exact.py)
    Method("points", ("points",), _points_fits, _run_points),
    # dice, wheels and random numbers, every outcome with its probability (chance_exact.py)
    Method("chance", ("chance",), _chance_fits, _run_chance),
    Method("engine enumeration", ("engine enumeration",),
           lambda game, chapter, options: None if rank_level_ok(game) else "a ranking reads suits", _run_engine),
    Method("pai gow", ("pai gow",), _paigow_fits, _run_paigow),
    # the card routes: raise-or-fold solver, deal classes (with the dealer-hand route), paytables, Envy Bonuses;
    # each answers to its own contract in card_routes.analyze, wager by wager
    Method("card routes", ("raise-or-fold solver", "deal classes", "paytable enumeration"),
           lambda game, chapter, options: None, _run_cards),
    # hands valued by points played by the player's decisions against a dealer's play (draw_walk.py)
    Method("draw walk", ("draw walk",), _draw_fits, _run_draw),
    # where no exact method applies: seeded simulation, with standard error and deviation, to the target
    Method("simulation", ("simulation",), lambda game, chapter, options: None, _run_simulated),
]


def _legal_shoe_decks(game, chapter, table) -> set[int]:
    """Deck counts per shoe allowed by the options and constraints of the spec."""
    cd = game.cards
    if not cd.decks_option:
        return set()
    opt = game.options[cd.decks_option]
    lo, hi = int(opt.get("minimum", 1)), int(opt.get("maximum", 16))
    counts = [int(v) for v in opt["values"]] if opt.get("values") else range(lo, hi + 1)  # "six or eight decks"
    out = set()
    flags = [k for k, v in game.options.items() if v.get("type") == "boolean"]
    for combo in itertools.product([False, True], repeat=len(flags)):
        for n in counts:
            o = {**table.options, **dict(zip(flags, combo)), cd.decks_option: n}
            t = Table(game, o, seed=0)
            if _constraints_ok(chapter, t):
                out.add(t.shoe_decks())
    return out


def _constraints_ok(chapter, table) -> bool:
    return not table.violations()
