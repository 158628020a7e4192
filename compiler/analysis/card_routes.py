"""Exact analysis of poker chapters, read from the compiled spec (no chapter knowledge here).

What it finds in the IR:

* **paytable wagers**: every settle rule ``win W by T on CARDS`` names a wager, its paytable and
  the cards it is judged on; the number of cards (from the deal steps) gives the enumeration
  (three-card hands, best five of six, ...). Each column (or the one a Rules Submission selects)
  gets its exact return, hit frequency and distribution.
* **a stud raise game**: decide steps whose choices place a wager at a multiple of a required
  wager (``place play = wager(ante) * 3``), checks and folds, community cards revealed between
  them, a qualifier (``not at_least(R, best(R, ...), pair, 'T')`` loses every base wager) and the
  paytables of the base wagers (read by :mod:`compiler.analysis.stud_model`). It is solved exactly by
  :mod:`compiler.analysis.stud`.
* **Envy Bonuses**: envy steps give the value per other player of each schedule.

Games whose structure this does not recognise get the paytable figures only, and a note says so.
"""
from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction
from typing import Any

from compiler.analysis import contract, deals
from compiler.analysis.counted_loops import unroll_counted_deals
from compiler.analysis.thresholds import threshold_steps
from compiler.analysis.enumerate import enumerate_hands, standard_deck
from compiler.analysis.assumptions import paytable_refusal, settle_dependencies, wager_facts
from compiler.analysis.model import OPTIMAL, Figure, Policy, Report
from compiler.analysis.paytables import Affine, card_hands_of, envy_value, paytable_return
from compiler.analysis.stud import solve_stud, stud_game_from_spec
from compiler.analysis.stud_model import StudModel, _zone_sizes, find_stud_model, stud_model_or_reason
from compiler.lang.rules import Action, BinOp, Call, Ref
from compiler.runtime.definition import Paytable
from compiler.runtime.engine import Context, Seat, Strategy, Table, Wager, _Round
from compiler.runtime.rankings import Ranking

_CACHE: dict = {}
_AFFINE: dict = {}  # wager -> (a, b) of its last meter-dependent return
_DISTS: dict = {}  # (ranking spec, k, jokers, card hands) -> Distribution


def _active_steps(game, chapter, table):
    """The IR steps in order, entering blocks whose condition holds for the table's options."""
    fn_steps = {s.id: s for s in _walk(game.procedure)}
    ctx = Context(table, None)
    seat_ctx = _unit_bets_context(game, table)
    dealt = [False]

    def walk(steps):
        for s in steps:
            g = fn_steps.get(s.id)
            dealt[0] = dealt[0] or s.kind == "deal"
            if not dealt[0] and s.kind == "settle" and g is not None and g.players is not None and seat_ctx is not None:
                # a check of the bets before any card is dealt: it applies to the analysed bets (one unit
                # of every wager placed before the deal) only when its condition holds for them
                try:
                    if not g.players(seat_ctx):
                        continue
                except Exception:
                    pass
            if s.kind == "block":
                ok = True
                if g is not None and g.when is not None:
                    try:
                        ok = bool(g.when(ctx))
                    except Exception:
                        ok = True
                if ok:
                    yield from walk(s.steps)
            else:
                yield s

    # a deal loop of fixed passes: its deal steps; a threshold hand read by is_hand: the at_least it stands for
    return threshold_steps(walk(unroll_counted_deals(chapter).procedure), table.ranking)


def _walk(steps):
    for s in steps:
        yield s
        yield from _walk(s.steps)


def _unit_bets_context(game, table):
    """A context for one seat holding one unit of each wager placed before the deal, no card dealt."""
    try:
        rnd = _Round(table, 0, False, False)
        seat = Seat(1)
        for w, d in game.wagers.items():
            if d.placed != "during_round":
                seat.wagers[w] = Wager(w, Decimal(1), "")
                seat.history.append(seat.wagers[w])
        rnd.seats = {1: seat}
        ctx = Context(table, rnd)
        ctx.seat = seat
        return ctx
    except Exception:
        return None


def _card_count(node, player: dict, community: dict, dealer: dict | None = None) -> int | None:
    """The number of cards an expression reads (a zone, a sum of zones, a hand of them), from the deal steps."""
    if isinstance(node, Ref):
        owner = node.parts[0]
        zone = node.parts[1] if len(node.parts) > 1 else None
        holder = {"player": player, "community": community, "dealer": dealer}.get(owner)
        if holder is None:
            return None
        return sum(holder.values()) if zone in (None, "cards") else holder.get(zone)
    if isinstance(node, BinOp) and node.op == "+":
        a, b = _card_count(node.left, player, community, dealer), _card_count(node.right, player, community, dealer)
        return None if a is None or b is None else a + b
    if isinstance(node, Call) and node.name in ("best", "hand"):
        return _card_count(node.args[1], player, community, dealer)
    return None


def _dealer_sizes(steps) -> dict:
    """Cards per dealer zone, from the deal steps."""
    out: dict = {}
    for s in steps:
        p = dict(s.params)
        if s.kind == "deal" and p.get("to") == "dealer":
            z = p.get("zone", "cards")
            out[z] = out.get(z, 0) + int(p.get("count", 1))
    return out


class OptimalStudStrategy(Strategy):
    """A player strategy that follows the exact optimal solution (for simulation cross-checks)."""

    def __init__(self, model: StudModel, sol):
        self.model, self.sol = model, sol
        self.by_step = {d["step"]: d for d in model.schedule}

    def choose(self, decision, choices, view):
        d = self.by_step[decision]
        cards = [c for z in view.cards.values() for c in z] + list(view.community)
        opt = self.sol.decision_of(cards)
        return d["choices"][opt]

    def offer(self, wager, view):
        return Decimal(0)


def optimal_strategy(game, chapter, options: dict | None = None):
    """(strategy, solution) for a game with a stud-raise structure, else (None, None)."""
    table = Table(game, options or {}, seed=0)
    model = find_stud_model(game, chapter, _active_steps(game, chapter, table))
    if model is None:
        return None, None
    sol = solve_model(game, model, Ranking.from_spec(game.rankings[model.ranking_id], model.ranking_id))
    return OptimalStudStrategy(model, sol), sol


def _option_column(game, pid: str, options: dict) -> list[int]:
    pt = game.paytables[pid]
    if pt.option and pt.option in options:
        return [list(pt.columns).index(options[pt.option])]
    return list(range(len(pt.columns)))


def solve_model(game, model: StudModel, ranking: Ranking, deck=None):
    key = (id(game), model.ranking_id, repr(model), None if deck is None else tuple(deck))
    if key in _CACHE:
        return _CACHE[key]
    qual_id = "__qualifier"
    spec = dict(game.rankings[model.ranking_id])
    hands = dict(spec.get("hands") or {})
    cat, rank = model.qualifier
    hands[qual_id] = {"name": "qualifier", "at_least": cat, **({"min_rank": rank} if rank else {})}
    spec["hands"] = hands
    r = Ranking.from_spec(spec, model.ranking_id)
    tables = {}
    for w, (kind, ref) in model.pays.items():
        if kind == "paytable":
            tables[w] = game.paytables[ref]  # the solver pays by its first column
        else:
            odds = game.payouts[ref].odds
            if odds is None:
                raise ValueError(f"payout {ref!r} has no odds in the sources")
            tables[w] = Paytable(ref, "qualifying hand", game.payouts[ref].cite, ("Payout",),
                                 ((qual_id, (odds,), "qualifying hand"),))
    sg = stud_game_from_spec(r, tables, hole=model.hole, community=model.community, schedule=model.schedule,
                             qualifier=qual_id, fixed=model.base, play=model.play, deck=deck)
    sol = solve_stud(sg)
    _CACHE[key] = sol
    return sol


def paytable_wagers(game, steps, player, community):
    """[(wager, paytable, ranking, k)] for every ``win W by T on CARDS`` of the settle steps."""
    out = []
    seen = set()
    dealer = _dealer_sizes(steps)  # a hand of the seat's and the dealer's cards together is k cards of the deck too
    for s in steps:
        if s.kind != "settle":
            continue
        for r in s.rules:
            for a in r.then:
                if a.kind == "win" and a.paytable is not None and (a.wager, a.paytable) not in seen:
                    k = _card_count(a.value, player, community, dealer)
                    pt = game.paytables[a.paytable]
                    seen.add((a.wager, a.paytable))
                    out.append((a.wager, a.paytable, pt.ranking, k))
    return out


def _stud_figures(game, model: StudModel, rep: Report):
    """The stud solver's figure of the base and raise wagers under optimal play, and its notes; the solution."""
    r = Ranking.from_spec(game.rankings[model.ranking_id], model.ranking_id)
    sol = solve_model(game, model, r)
    names = " + ".join(game.wagers[w].name for w, _ in model.base) + f" + {game.wagers[model.play].name}"
    outcomes = {("+" if net > 0 else "") + str(net): p for net, p in sol.outcomes.items()}
    rep.figures.append(Figure(tuple([w for w, _ in model.base] + [model.play]), names, OPTIMAL,
                              sol.ev_per_ante, sol.ev_per_wagered, sol.hit_frequency, outcomes,
                              "exact: optimal strategy by backward induction over every card set", (),
                              status="exact"))
    said = {e["known"]: e["choices"] for e in model.schedule}  # the solver's option -> the chapter's choice id
    rep.notes.append(f"{names}, optimal strategy: how often each choice is made: " + "; ".join(
        f"{k} cards known: " + ", ".join(f"{said.get(k, {}).get(o, o)} {float(v):.6f}" for o, v in d.items())
        for k, d in sorted(sol.option_frequencies.items())) + "; outcomes are the net result per unit "
        f"{game.wagers[model.base[0][0]].name}")
    rep.notes.append(f"{names}: expected return per unit {game.wagers[model.base[0][0]].name}; "
                     f"expected total wagered per unit {game.wagers[model.base[0][0]].name}: "
                     f"{sol.expected_wager} = {float(sol.expected_wager):.6f}")
    return sol


def _deal_figures(game, sol, bets: dict, facts, rep: Report) -> set:
    """The deal-class route's figures (optimal strategy, then each declared policy) and notes; the wagers judged."""
    ids = [w for w in game.wagers if w in sol.net]
    judged = {w for w in game.wagers if facts[w].chosen_by or (w in ids and facts[w].placed_by)}
    base = next(iter(bets))
    names = " + ".join(game.wagers[w].name for w in ids)
    dist = {("+" if x > 0 else "") + str(x / bets[base]): p for x, p in sol.distribution.items()}
    hit = sum((p for x, p in sol.distribution.items() if x > 0), Fraction(0)) if dist else None
    rep.figures.append(Figure(tuple(ids), names, OPTIMAL, sol.expected_net / bets[base],
                              sol.expected_net / sol.expected_stake, hit, dist,
                              sol.method or
                              f"exact: optimal strategy by backward induction over every set of cards seen; all "
                              f"{sol.sets:,} deals in {sol.classes} classes the rules tell apart, "
                              f"{sol.histories} sequences of choices", (), status="exact"))
    rep.notes.append(f"{names}, optimal strategy: expected return per unit {game.wagers[base].name}; expected "
                     f"total wagered per unit {game.wagers[base].name}: {sol.expected_stake / bets[base]} = "
                     f"{float(sol.expected_stake / bets[base]):.6f}; per wager: " + ", ".join(
                         f"{game.wagers[w].name} {sol.net[w]}" for w in ids))
    for h, (pn, ps) in sol.policies.items():  # declared policies: the same choices on every deal
        rep.figures.append(Figure(tuple(ids), names, Policy("fixed", "always " + ", then ".join(h), _choices(h)),
                                  pn / bets[base], pn / ps if ps else None, None, {},
                                  f"exact: the same {sol.sets:,} deals and outcomes, the player choosing "
                                  f"{', then '.join(h)} on every deal", (), status="exact"))
    if sol.method:  # the dealer-hand route: how often each sequence of choices is made, per deal
        rep.notes.append(f"{names}, optimal strategy: how often each choice is made: " + "; ".join(
            f"{d}: " + ", ".join(f"{c} {v} = {float(v):.6f}" for c, v in fr.items())
            for d, fr in sol.choice_frequency.items()))
    return judged


def _refuse_decided(game, rep: Report, facts, flags, why_not, deal_why: str, paytables_refused) -> None:
    """No route models the game's decisions: refuse what a decision acts on, and the wagers placed otherwise."""
    for w, d in game.wagers.items():
        if facts[w].chosen_by:  # what a player's decision acts on
            rep.refuse(w, d.name, f"the game's decisions are not modelled: {why_not}"
                       + (f"; the deal-class route: {deal_why}" if deal_why else ""))
        elif facts[w].placed_by:
            rep.refuse(w, d.name, paytables_refused or paytable_refusal(game, facts[w], flags, w)[0])


def _distribution(game, r: Ranking, rid: str, k: int, pt):
    """The enumeration of the k-card hands under ranking ``rid``, shared by every analysis of the process (same
    ranking, k, deck)."""
    ch = tuple(card_hands_of(r, pt))
    key = (repr(game.rankings[rid]), k, game.cards.jokers, ch)
    if key not in _DISTS:
        _DISTS[key] = enumerate_hands(r, k, _deck(game), ch)
    return _DISTS[key]


def _paytable_column_figure(game, table, wager: str, pt, dist, ci: int, k: int, assumed: str) -> Figure:
    """The exact figure of ``wager`` paid by column ``ci`` of its paytable ``pt``."""
    res = paytable_return(dist, pt, ci)
    exp = res.expected
    meter_note, meter = "", None
    if isinstance(exp, Affine):
        meter = _meter_value(game, table, wager)
        a, b = exp.a, exp.b
        # the meter M when paid: the reading when the round begins (the reset amount) plus this wager's own
        # share of its stake, which the engine adds before it pays (one seat: no other player's share)
        own = _own_share(game, table, wager)
        meter_note = (f"; as a function of the meter M when paid: {a} + {b}*M per unit; break-even meter "
                      f"{(-a / b) if b else 'none'}; shown at M = {meter} + {own}, the reading when the round "
                      f"begins and the wager's own share")
        exp = a + b * (meter + own)
        _AFFINE[wager] = (a, b)
        policy = f"{res.column}, meter {meter} when the round begins"
        meter = meter + own  # the typed field: the meter when paid, at which the figure is exact
    else:
        policy = res.column
    said = assumed if assumed != "no player decision affects it" else ""
    if said:
        policy = f"{policy}; {assumed}"
    policy = Policy("none", policy, column=res.column, meter=meter, assumes=said)
    outcomes = {row.label: row.probability for row in res.rows}
    outcomes["lose"] = Fraction(res.lose_count, res.total)
    return Figure((wager,), game.wagers[wager].name, policy, exp, None, res.hit_frequency, outcomes,
                  f"exact: all {res.total:,} {k}-card hands{meter_note}", status="exact")


def _paytable_figures(game, table, rep: Report, pw: list, judged: set, paytables_refused, facts, flags,
                      options: dict) -> None:
    """The figures of the wagers paid by a paytable on the cards (each column, or the one selected), or why not."""
    done = set()
    for wager, pid, rid, k in pw:
        if wager in judged or not table.offered(wager) or wager in rep_refused(rep):
            continue
        if paytables_refused is not None:
            rep.refuse(wager, game.wagers[wager].name, paytables_refused)
            continue
        if k is None:
            rep.refuse(wager, game.wagers[wager].name, f"the number of cards its paytable ({pid}) is judged on "
                                                       "is not given by the deal steps")
            continue
        reason, assumed = paytable_refusal(game, facts[wager], flags, wager)
        if reason is not None:
            rep.refuse(wager, game.wagers[wager].name, reason)
            continue
        if (wager, pid) in done:
            continue
        done.add((wager, pid))
        r = Ranking.from_spec(game.rankings[rid], rid)
        pt = game.paytables[pid]
        dist = _distribution(game, r, rid, k, pt)
        for ci in _option_column(game, pid, options):
            rep.figures.append(_paytable_column_figure(game, table, wager, pt, dist, ci, k, assumed))


def _envy_figures(game, table, rep: Report, steps, player: dict, community: dict, paytables_refused,
                  flags) -> dict:
    """Envy bonuses: the value per other player of each column; ``{(wager, amount): value}``."""
    envy: dict = {}
    for s in steps:
        if s.kind != "envy" or not table.offered(dict(s.params)["wager"]):
            continue
        if paytables_refused is not None:
            rep.refuse(dict(s.params)["wager"], dict(s.params)["name"], paytables_refused)
            continue
        p = dict(s.params)
        pt = game.paytables[p["paytable"]]
        r = Ranking.from_spec(game.rankings[pt.ranking], pt.ranking)
        k = _card_count(next(e for n, e, _ in s.exprs if n == "hand"), player, community)
        dist = _distribution(game, r, pt.ranking, k, pt)
        # the value counts every other player holding a qualifying hand: a qualification that reads a flag
        # a player's choice sets (a fold) is an assumption the figure states
        _, qflags = settle_dependencies(next((e for n, e, _ in s.exprs if n == "qualifying"), None))
        assumed = "; ".join(f"other players never choose '{cid}' ({cite}) with a qualifying hand"
                            for f in sorted(qflags) for cid, cite in flags.get(f, ()))
        for ci, col in enumerate(pt.columns):
            v = envy_value(dist, pt, ci)
            amount = pt.amounts[ci] if pt.amounts else None
            label = f"{col}" + (f" (wager ${amount})" if amount is not None else "") + (f"; {assumed}" if assumed else "")
            rep.figures.append(Figure((p["wager"],), f"{p['name']} per other player",
                                      Policy("none", label, column=col if amount is None else None, assumes=assumed),
                                      Fraction(v), None, None, {}, f"exact: all {k}-card hands; "
                                      "expected bonus in dollars per other player at the table", kind="value",
                                      status="exact"))
            envy[(p["wager"], amount)] = Fraction(v)
    return envy


def _progressive_notes(game, table, rep: Report, envy: dict) -> None:
    """A progressive wager: its return as a function of the meter and of the number of other players."""
    for f in [f for f in rep.figures if f.kind == "return" and "meter" in f.method]:
        for (w, amount), v in sorted(envy.items(), key=lambda x: (x[0][0], x[0][1] or 0)):
            if (w,) != f.stakes or amount is None:
                continue
            a_b = _AFFINE.get(w)
            if a_b is None:
                continue
            a, b = a_b
            stake = Fraction(amount)
            rows = []
            for meter in (Fraction(table.meter_reset(game.wagers[w].progressive)), Fraction(10000),
                          Fraction(25000), Fraction(50000)):
                vals = [a + b * meter / stake + n * v / stake for n in range(0, game.max_positions)]
                rows.append(f"meter ${meter}: " + ", ".join(f"{n} others {float(x):+.4f}" for n, x in enumerate(vals)))
            rep.notes.append(f"{game.wagers[w].name} of ${amount}: expected return per unit = {a} + {b}*M/{stake} "
                             f"+ n*{v}/{stake} (M: meter when paid, n: other players)\n    " + "\n    ".join(rows))


def analyze(game, chapter, options: dict, settings: dict, within: str | None = None) -> Report:
    """The card routes' figures. ``within``: the analysis method (compiler/analysis/contract.py) that uses
    these routes as part of itself (the pai gow method for its side wagers) and answers for their contract."""
    # every optional wager is analysed unless the caller's selections say it is not offered
    offer_all = {d.offered_by: True for d in game.wagers.values() if d.offered_by and d.offered_by not in options}
    table = Table(game, {**offer_all, **options}, seed=0)
    steps = _active_steps(game, chapter, table)
    player, community = _zone_sizes(steps)

    figures: list[Figure] = []
    notes: list[str] = []
    rep = Report(game.chapter, game.title, settings, figures, notes)
    facts, flags = wager_facts(game, steps)
    # each route answers to its contract (compiler/analysis/contract.py) before its own properties are read
    def refused(route: str) -> str | None:
        return contract.refusal(within or route, game, chapter, options)

    why_not = refused("raise-or-fold solver")
    model = None
    if why_not is None:
        model, why_not = stud_model_or_reason(game, chapter, steps)
    paytables_refused = refused("paytable enumeration")
    pw = paytable_wagers(game, steps, player, community)
    judged: set = set()
    if model is not None:
        judged = {w for w, _ in model.base} | {model.play}
        sol = _stud_figures(game, model, rep)
    else:
        sol, deal_why = None, ""
        deal_refused = refused("deal classes")
        if deal_refused is not None:
            deal_why = deal_refused
        elif any(facts[w].chosen_by for w in game.wagers):
            sol, bets, deal_why = _deal_route(game, steps, facts, {**offer_all, **options})
        if sol is not None:
            judged = _deal_figures(game, sol, bets, facts, rep)
        else:
            _refuse_decided(game, rep, facts, flags, why_not, deal_why, paytables_refused)
    _paytable_figures(game, table, rep, pw, judged, paytables_refused, facts, flags, options)
    envy = _envy_figures(game, table, rep, steps, player, community, paytables_refused, flags)
    _progressive_notes(game, table, rep, envy)
    if model is not None:
        rep.strategy = sol
    return rep


def _deal_route(game, steps, facts, options):
    """(deal-class solution or None, the unit bets it assumes, the reason it refused): one unit of every required wager placed
    before the deal and of every such wager a decision acts on."""
    bets = {w: 1 for w, d in game.wagers.items()
            if d.placed != "during_round" and (d.required or facts[w].chosen_by)}
    if not bets:
        return None, bets, "no wager is placed before the deal"
    unmet = contract.unmet_any_of(game, bets)  # the table would refuse the round: the route does not model it
    if unmet:
        return None, bets, unmet
    try:
        return deals.solve(game, _in_play(steps, bets, facts), _deck(game), options, bets), bets, ""
    except deals.Refused as e:
        return None, bets, str(e)


def _in_play(steps, bets: dict, facts) -> list:
    """The steps with no settle rule that acts only on wagers the analysed round never holds: neither one of
    ``bets`` nor placed during the round (by a rule or a choice). Such a rule changes nothing in the round
    (a side wager not made, or not offered, as a Three Card Bonus on part of the cards): the deal routes do
    not read it, and the wager gets its own figure, or its own refusal."""
    live = set(bets) | {w for w, f in facts.items() if f.placed_by or f.chosen_by}

    def acts(r) -> bool:
        ws = [a.wager for a in r.then if a.wager is not None]
        return not ws or "*" in ws or any(w in live for w in ws)
    return [dataclasses.replace(s, rules=tuple(r for r in s.rules if acts(r))) if s.kind == "settle" else s
            for s in steps]


def _choices(h) -> tuple[tuple[str, str], ...]:
    """A declared policy's choices, in order; the deal routes name each by its choice id only."""
    return tuple(("", c) for c in h)


def rep_refused(rep) -> set:
    return {n.wager for n in rep.not_computed}


def _meter_value(game, table, wager: str) -> Fraction:
    mid = game.wagers[wager].progressive
    if mid is None:
        return Fraction(0)
    return Fraction(table.meter_reset(mid))


def _own_share(game, table, wager: str) -> Fraction:
    """What one unit of ``wager`` adds to its progressive meter before a win is paid from it."""
    mid = game.wagers[wager].progressive
    if mid is None:
        return Fraction(0)
    d = game.wagers[wager]
    unit = Fraction(d.amounts[0]) if getattr(d, "amounts", None) else Fraction(1)
    return unit * Fraction(table.meter_rate(mid)) / 100


def _deck(game):
    return standard_deck(game.cards.jokers)
