"""The last analysis method (issue 24.3): a seeded simulation of the compiled game where no exact method
applies. It plays whole rounds with the engine's own code (:func:`compiler.analysis.simulate.simulate`, one
seat, one unit of every required wager and of every offered wager placed before the deal), each decision
taking its first choice (the policy the figure names), and gives every wager the mean net per unit made with
its standard error and standard deviation, held to the precision target. It answers to the contract's
"simulation" declaration (compiler/analysis/contract.py): a construct the engine executes but no method
declares is named and not simulated."""
from __future__ import annotations

import math
from fractions import Fraction

from compiler.analysis import contract
from compiler.analysis.model import NO_DECISION, Figure, Policy, Report
from compiler.analysis.simulate import simulate
from compiler.runtime.chance import first_set
from compiler.runtime.errors import EngineError

__all__ = ["DEFAULT_ROUNDS", "analyze_simulated", "simulate_refused"]

DEFAULT_ROUNDS = 20_000  # rounds when the caller gives none (a few seconds of the engine)


def _rounded(x: float) -> Fraction:
    """A simulated mean kept to 6 decimals (never shown as a fraction: Figure.simulated_text)."""
    return Fraction(round(x * 10 ** 6), 10 ** 6)


def _first_choices(game) -> Policy:
    """Every decision's first choice available (FixedStrategy with no preference plays it): a choice with a
    condition (``when``) is taken where it holds, else the next, up to the first choice without one."""
    out = []

    def walk(ss):
        for s in ss:
            if s.kind in ("decide", "split") and s.choices:
                tried = []
                for c in s.choices:
                    tried.append(c.id)
                    if c.when is None:
                        break
                out.append((s.id, tried, s.cite))
            walk(s.steps)
    walk(game.procedure)
    if not out:
        return NO_DECISION

    def said(tried):
        return tried[0] if len(tried) == 1 else "the first allowed of " + ", ".join(tried)
    return Policy("fixed", "always " + ", ".join(f"{said(c)} ({d}, {cite})" for d, c, cite in out),
                  tuple((d, c[0]) for d, c, _ in out))


def _needed(n: int, se: float, target: float) -> int:
    return n if not n or se <= target else int(math.ceil(n * (se / target) ** 2 / 1000.0)) * 1000


def analyze_simulated(game, chapter, options, settings, rounds, seed, precision,
                      decks: int | None = None) -> Report:
    table = contract.offer_table(game, options)
    if decks is not None and decks != table.shoe_decks():
        raise contract.Refused(f"the simulation deals from the shoe the options give ({table.shoe_decks()} decks), "
                               f"not {decks}")
    opts = dict(table.options)
    bets: dict = {w: 1 for w, d in game.wagers.items()
                  if d.placed != "during_round" and (d.required or table.offered(w))}
    on: dict[str, str] = {}  # a wager on chosen numbers: placed on the first of its legal sets, which it names
    for w in bets:
        if game.wagers[w].choose:
            numbers = list(first_set(game, w))
            bets[w], on[w] = {"amount": 1, "numbers": numbers}, f"placed on [{', '.join(numbers)}]"
    if not bets:
        raise contract.Refused("no wager is placed before the deal: there is nothing to simulate")
    rounds = DEFAULT_ROUNDS if rounds is None else int(rounds)
    seed = 1 if seed is None else int(seed)
    try:
        res = simulate(game, opts, rounds=rounds, seats=1, seed=seed, bets=bets, workers=1, chapter=chapter)
    except EngineError as e:  # the engine refuses to play a round of it (a wager left unsettled, ...)
        raise contract.Refused(f"the engine cannot play its rounds: {e}") from None
    policy = _first_choices(game)
    required = [w for w, d in game.wagers.items() if d.required and w in bets]
    figs: list[Figure] = []

    def figure(stakes, name, ws, includes=()):
        n, mean, se = ws.n, ws.mean(), ws.se()
        said = [on[w] for w in stakes if w in on]
        play = policy if not said else policy.with_text("; ".join(
            said + ([policy.text] if policy.kind != "none" else [])))
        if n < 2 or se != se:  # nan: too few rounds to estimate a spread
            return
        short = "" if se <= precision else f"; about {_needed(n, se, precision):,} rounds would reach the target"
        figs.append(Figure(tuple(stakes), name, play, _rounded(mean), None, None, {},
                           f"simulation: {n:,} rounds of the compiled game ({res.route}), seed {seed}; standard "
                           f"error {se * 100:.4f} points, target {precision * 100:.4f}{short}",
                           tuple(includes), standard_error=se, target=precision,
                           standard_deviation=se * math.sqrt(n), status="simulated"))

    if required:
        during = [w for w in res.per_unit if w not in bets]
        figure(required, " + ".join(game.wagers[w].name for w in required), res.base, during)
    for w in bets:
        if w not in required and w in res.per_unit:
            figure((w,), game.wagers[w].name, res.per_unit[w])
    rep = Report(game.chapter, game.title, {**settings, "rounds": rounds, "seed": seed}, figs,
                 ["no exact method applies: the figures are simulated, one seat, each decision taking its first "
                  "choice; a simulated figure is a mean with its standard error, never a fraction"])
    return rep


def simulate_refused(rep: Report, game, chapter, options, rounds, seed, precision,
                     decks: int | None = None) -> None:
    """Simulated figures for the wagers an exact method refused (``rep.not_computed``, any play): each
    simulated figure that covers one of them replaces their refusals, its method naming why no exact
    method applied. Nothing changes where the simulation does not model the chapter (the refusals stay,
    the construct added to them) or a wager is never made in the simulated rounds."""
    refused = {n.wager: n for n in rep.not_computed if n.policy == "any"}
    if not refused or all(f.status == "simulated" and "simulation:" in f.method for f in rep.figures) and rep.figures:
        return
    why = contract.refusal("simulation", game, chapter, options)
    if why is not None:
        for n in refused.values():
            if "not modelled" not in n.reason:
                n.reason = f"{n.reason}; not simulated either: {why}"
        return
    try:
        sim = analyze_simulated(game, chapter, options, {}, rounds, seed, precision, decks)
    except contract.Refused as e:
        for n in refused.values():
            n.reason = f"{n.reason}; not simulated either: {e}"
        return
    done: set[str] = set()
    for f in sim.figures:
        covers = [w for w in (*f.stakes, *f.includes) if w in refused and w not in done]
        if not covers:
            continue
        reasons = list(dict.fromkeys(refused[w].reason for w in covers))
        f.method = f"no exact method: {'; '.join(reasons)}. {f.method}"
        rep.figures.append(f)
        done.update(covers)
    rep.not_computed = [n for n in rep.not_computed if n.wager not in done]
