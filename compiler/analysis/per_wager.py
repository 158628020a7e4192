"""Per-wager analysis (issue 24): a chapter no method models as a whole, because of constructs that concern
only some of its optional wagers, analysed wager by wager.

The mechanism is one view of the compiled game, :func:`withhold`: the game as if the casino did not offer some
wagers, each offered by an option that is false, exactly as a Rules Submission leaves a wager out. Every route
reads the wagers it prices from the options' table (``Table.offered``), and the contract's active procedure leaves
out the steps and rules that concern only wagers not offered (``contract.active_steps``, ``rule_offered``): the
figures of the other wagers are those of the chapter without them.

:func:`split`: a wager's own constructs are those the active procedure loses when that wager alone is withheld
(its declaration, the rules acting on it alone, the steps naming it). For each method in order, the constructs
its declaration does not model are looked up among the optional wagers' own constructs; where every one is some
optional wager's, those wagers (and the wagers that require one of them) are withheld and the method analyses the
rest. Each withheld wager is then analysed on its own (every other optional wager withheld) by the first method
that models that, or refused naming its construct with its position. A construct of a required wager or of the
procedure itself cannot be left out: nothing is split, and every wager is refused as before.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from compiler.analysis import contract
from compiler.analysis.model import Report

__all__ = ["WITHHELD", "Split", "own_constructs", "selections", "split", "withhold"]

# the option that offers a withheld wager: always false (no rulespec option can be named so: ids are identifiers)
WITHHELD = "(withheld by the analysis)"

_VIEWS: dict = {}


def withhold(game, wagers) -> Any:
    """The compiled game as if the casino did not offer ``wagers``: each is offered by :data:`WITHHELD`, an
    option whose default is false (pass :func:`selections` as the options). The same object for the same game
    and wagers (a route's cache keyed on the game's id sees no other game under that id)."""
    wagers = frozenset(wagers)
    if not wagers:
        return game
    key = (id(game), wagers)
    hit = _VIEWS.get(key)
    if hit is not None and hit[0] is game:
        return hit[1]
    view = dataclasses.replace(
        game, wagers={w: dataclasses.replace(d, offered_by=WITHHELD) if w in wagers else d
                      for w, d in game.wagers.items()},
        options={**game.options, WITHHELD: {"type": "withheld", "default": False}})
    if len(_VIEWS) > 64:  # it keeps its games alive (so no id is reused while cached): a small cache
        _VIEWS.clear()
    _VIEWS[key] = (game, view)
    return view


def selections(options: dict | None) -> dict:
    """The caller's selections with the withheld wagers not offered (every route reads them so)."""
    return {**(options or {}), WITHHELD: False}


def own_constructs(game, chapter, options, wagers) -> dict[str, set]:
    """wager -> the constructs of the active procedure that concern it alone: those the procedure loses when
    it alone is withheld."""
    full = set(contract.constructs(game, chapter, options))
    return {w: full - set(contract.constructs(withhold(game, {w}), chapter, selections(options))) for w in wagers}


@dataclass
class Split:
    """The merged report, and the game and options the other wagers were analysed on (the simulation of a
    wager their method refused plays that game)."""
    report: Report
    game: Any
    options: dict


def _blocked(unmodelled, own: dict[str, set], game) -> frozenset | None:
    """The optional wagers whose own constructs include each of ``unmodelled`` (and the wagers that require
    one of them); None when a construct is no optional wager's own."""
    if not unmodelled:
        return None
    out: set[str] = set()
    for c in unmodelled:
        ws = {w for w, cs in own.items() if c in cs}
        if not ws:
            return None
        out |= ws
    return _with_requirers(out, own, game)


def _with_requirers(out: set, own: dict, game) -> frozenset:
    """The optional wagers ``out`` and those that require one of them (withheld together)."""
    out = set(out)
    grew = True
    while grew:
        more = {w for w in own if w not in out and (set(game.wagers[w].requires) & out or any(
            set(g) <= out for g in game.wagers[w].requires_any))}
        out |= more
        grew = bool(more)
    return frozenset(out)


def _kept(game, chapter, options, methods, exact, run_args, items, own, required):
    """The first of ``methods`` that models the procedure without the wagers its unmodelled constructs block:
    (method, blocked wagers, unmodelled constructs, its report, the game and options it ran on), or None.
    ``exact``: the exact methods, whose refusals a simulated figure names."""
    for m in methods:
        tried = set()
        for unmodelled, blocked in _blocks(m, game, chapter, options, items, own):
            if blocked is None or blocked in tried or (blocked == set(own) and not required):
                continue
            tried.add(blocked)
            view, opts = withhold(game, blocked), selections(options)
            if m.refusal(view, chapter, opts) is not None:
                continue
            try:
                rep = m.run(view, chapter, opts, *run_args)
            except contract.Refused:
                continue
            if m.name == "simulation":
                _why_simulated(rep, [(n.name, n.refusal(view, chapter, opts) or "it refused") for n in exact])
            return m, blocked, unmodelled, rep, view, opts
    return None


def _blocks(m, game, chapter, options, items, own):
    """(what ``m`` does not model, the optional wagers that block it): for each of its declarations, the
    constructs it does not model that are those wagers' own; then a refusal of its own that names the optional
    wagers causing it (:class:`contract.WagerRefusal`)."""
    for decl in m.declarations:
        unmodelled = contract.all_unmodelled(decl, items)
        yield unmodelled, _blocked(unmodelled, own, game)
    why = m.refusal(game, chapter, options)
    if isinstance(why, contract.WagerRefusal) and why.wagers <= set(own):
        yield [why], _with_requirers(why.wagers, own, game)


def _why_simulated(rep: Report, refusals) -> None:
    if refusals:
        why_not = "; ".join(f"{name}: {w}" for name, w in refusals)
        for f in rep.figures:
            f.method = f"no exact method ({why_not}). {f.method}"


def _alone(game, chapter, options, methods, run_args, w, others):
    """The figures of ``w`` analysed on its own (``others`` withheld) by the first method that models that, or []
    with each method's refusal."""
    view, opts = withhold(game, others), selections(options)
    refusals = []
    for m in methods:
        why = m.refusal(view, chapter, opts)
        if why is None:
            try:
                rep = m.run(view, chapter, opts, *run_args)
                figs = [f for f in rep.figures if tuple(f.stakes) == (w,)]
                if figs:
                    if m.name == "simulation":
                        _why_simulated(rep, refusals)
                    return figs, refusals
                why = next((n.reason for n in rep.not_computed if n.wager == w), "it gives it no figure")
            except contract.Refused as e:
                why = str(e)
        refusals.append((m.name, why))
    return [], refusals


def split(game, chapter, options, kept, methods, run_args, drop) -> Split | None:
    """The report wager by wager where no method models the whole active procedure (module docstring), or
    None where no optional wager's own constructs explain the refusal. ``kept``: the methods tried on the
    other wagers, in order; ``methods``: every method, tried in order on a withheld wager alone;
    ``run_args``: (decks, settings, rounds, seed, precision) as the methods' ``run`` takes them; ``drop(report,
    {wager: name})``: takes out of a report what it says of wagers not offered (``report.drop_unoffered``), for a
    route that prices a wager whatever the offers (the pai gow route's Double Down)."""
    table = contract.offer_table(game, options)
    optional = [w for w, d in game.wagers.items() if not d.required and table.offered(w)]
    required = [w for w, d in game.wagers.items() if d.required]
    if not optional:
        return None
    items = contract.constructs(game, chapter, options)
    own = own_constructs(game, chapter, options, optional)
    exact = [m for m in methods if m.name != "simulation"]
    found = _kept(game, chapter, options, kept, exact, run_args, items, own, required)
    if found is None:
        return None
    method, blocked, unmodelled, rep, view, opts = found
    drop(rep, {w: game.wagers[w].name for w in blocked})
    names = [game.wagers[w].name for w in optional if w in blocked]
    for w in (w for w in optional if w in blocked):
        name = game.wagers[w].name
        # on its own: with the wagers it requires (of a group of which one is required, the first)
        others = set(optional) - {w} - set(game.wagers[w].requires) - {g[0] for g in game.wagers[w].requires_any}
        figs, refusals = _alone(game, chapter, options, methods, run_args, w, others)
        if figs:
            rep.figures.extend(figs)
            continue
        mine = [c for c in unmodelled if c in own[w]]
        needs = [game.wagers[x].name for x in game.wagers[w].requires if x in blocked]
        said = [c for c in unmodelled if isinstance(c, contract.WagerRefusal) and w in c.wagers]
        why = (f"{mine[0]} is not modelled by the {method.name}" if mine else
               f"the {method.name} refuses it: {said[0]}" if said else f"it requires the {', '.join(needs)}")
        same = [n for n, r in refusals if mine and r.startswith(f"{mine[0]} is not modelled")]
        alone = [f"{n}: {r}" for n, r in refusals if n not in same] + ([f"{', '.join(same)}: the same"] if same else [])
        rep.refuse(w, name, f"{why} (the other wagers' figures are those of the chapter without the {name}); nor "
                            "does any method analyse it on its own (" + "; ".join(alone) + ")")
    why = ("because " + "; ".join(unmodelled) if all(isinstance(c, contract.WagerRefusal) for c in unmodelled)
           else "its declaration not modelling " + "; ".join(str(c) for c in unmodelled))
    rep.notes.append(f"per wager: the {method.name} gives the figures of the other wagers as if the "
                     f"{', '.join(names)} were not offered, {why}")
    return Split(rep, view, opts)
