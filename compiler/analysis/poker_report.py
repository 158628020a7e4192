"""Exact analysis of poker chapters, read from the compiled spec (no chapter knowledge here).

What it finds in the IR:

* **paytable wagers**: every settle rule ``win W by T on CARDS`` names a wager, its paytable and
  the cards it is judged on; the number of cards (from the deal steps) gives the enumeration
  (three-card hands, best five of six, ...). Each column (or the one a Rules Submission selects)
  gets its exact return, hit frequency and distribution.
* **a stud raise game**: decide steps whose choices place a wager at a multiple of a required
  wager (``place play = wager(ante) * 3``), checks and folds, community cards revealed between
  them, a qualifier (``not at_least(R, best(R, ...), pair, 'T')`` loses every base wager) and the
  paytables of the base wagers. It is solved exactly by :mod:`compiler.analysis.stud`.
* **Envy Bonuses**: envy steps give the value per other player of each schedule.

Games whose structure this does not recognise get the paytable figures only, and a note says so.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from compiler.analysis import contract, deals
from compiler.analysis.enumerate import enumerate_hands, standard_deck
from compiler.analysis.honesty import paytable_refusal, settle_dependencies, wager_facts
from compiler.analysis.model import OPTIMAL, Figure, Policy, Report
from compiler.analysis.paytables import Affine, card_hands_of, envy_value, paytable_return
from compiler.analysis.stud import solve_stud, stud_game_from_spec
from compiler.lang.rules import Action, BinOp, BoolOp, Call, Lit, Not, Ref
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

    return list(walk(chapter.procedure))


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


def _zone_sizes(steps) -> tuple[dict, dict]:
    """Cards per player zone and per community zone, from the deal steps."""
    player, community = {}, {}
    for s in steps:
        if s.kind != "deal":
            continue
        p = dict(s.params)
        n = int(p.get("count", 1))
        z = p.get("zone", "cards")
        if p.get("to") in ("players", "positions"):  # positions: every position and the dealer (pai gow)
            player[z] = player.get(z, 0) + n
        elif p.get("to") == "community":
            community[z] = community.get(z, 0) + n
    return player, community


def _card_count(node, player: dict, community: dict) -> int | None:
    if isinstance(node, Ref):
        owner = node.parts[0]
        zone = node.parts[1] if len(node.parts) > 1 else None
        if owner == "player":
            return sum(player.values()) if zone in (None, "cards") else player.get(zone)
        if owner == "community":
            return sum(community.values()) if zone in (None, "cards") else community.get(zone)
        return None
    if isinstance(node, BinOp) and node.op == "+":
        a, b = _card_count(node.left, player, community), _card_count(node.right, player, community)
        return None if a is None or b is None else a + b
    if isinstance(node, Call) and node.name in ("best", "hand"):
        return _card_count(node.args[1], player, community)
    return None


def _multiplier(value, base: str) -> int | None:
    """k of ``wager(base) * k`` (or 1 for ``wager(base)``)."""
    if isinstance(value, Call) and value.name == "wager" and value.args[0].parts[0] == base:
        return 1
    if isinstance(value, BinOp) and value.op == "*":
        for a, b in ((value.left, value.right), (value.right, value.left)):
            if isinstance(a, Call) and a.name == "wager" and a.args[0].parts[0] == base and isinstance(b, Lit):
                return int(b.value)
    return None


def _find_at_least(node):
    """The first ``at_least(R, v, cat[, rank])`` under a ``not``."""
    if isinstance(node, Not) and isinstance(node.item, Call) and node.item.name == "at_least":
        return node.item
    if isinstance(node, BoolOp):
        for x in node.items:
            f = _find_at_least(x)
            if f is not None:
                return f
    return None


@dataclass
class StudModel:
    ranking_id: str
    hole: int
    community: int
    schedule: list
    qualifier: tuple  # (category, rank or None)
    base: list  # [(wager id, multiple)]
    play: str  # play wager id
    pays: dict  # wager id -> ('paytable', id) | ('payout', id)


def find_stud_model(game, chapter, steps) -> StudModel | None:
    return stud_model_or_reason(game, chapter, steps)[0]


def stud_model_or_reason(game, chapter, steps) -> tuple[StudModel | None, str]:
    """The raise-or-fold structure of the procedure, or why it is not one the stud solver computes.

    Its properties, all read from the steps: every decision's choices place one wager at a multiple
    of a required wager, check, or lose the required wagers (fold); the wagers they place and the
    required wagers are settled by win/lose rules that read only the player's and the community
    cards (a qualifier on the player's best hand, paytables); no decision withdraws a wager."""
    required = [w for w, d in game.wagers.items() if d.required]
    player, community = _zone_sizes(steps)
    known = sum(player.values())
    revealed = 0
    schedule = []
    play = None
    decides = [s for s in steps if s.kind == "decide"]
    if not decides:
        return None, "the procedure has no player decision of the raise-or-fold kind"
    for s in steps:
        if s.kind == "reveal":
            revealed += community.get(dict(s.params).get("zone"), 0)
        elif s.kind == "deal" and dict(s.params).get("to") == "community" and dict(s.params).get("face") == "up":
            revealed += int(dict(s.params).get("count", 1))
        elif s.kind == "decide":
            opts = []
            choice_of = {}
            for c in s.choices:
                places = [a for a in c.then if a.kind == "place"]
                loses = [a for a in c.then if a.kind == "lose"]
                other = [a for a in c.then if a.kind in ("return", "surrender", "win", "push")]
                if other:
                    return None, (f"choice '{c.id}' of decision '{s.id}' ({c.cite}) does '{other[0].kind}', which the "
                                  "raise-or-fold solver does not model")
                if places:
                    a = places[0]
                    k = None
                    for base in required:
                        k = k or _multiplier(a.value, base)
                    if k is None:
                        return None, (f"choice '{c.id}' of decision '{s.id}' ({c.cite}) places an amount that is not "
                                      "a fixed multiple of a required wager")
                    play = play or a.wager
                    if a.wager != play:
                        return None, f"decisions place more than one wager ({play}, {a.wager})"
                    opts.append(k)
                elif loses:
                    if {a.wager for a in loses} != set(required):
                        return None, (f"choice '{c.id}' of decision '{s.id}' ({c.cite}) loses some required wagers "
                                      "but not all")
                    opts.append("fold")
                elif not c.then or all(a.kind in ("set", "note") for a in c.then):
                    opts.append("check")
                else:
                    return None, f"choice '{c.id}' of decision '{s.id}' ({c.cite}) is not a raise, check or fold"
                if opts[-1] in choice_of:
                    return None, f"decision '{s.id}' has two choices of the same kind ({opts[-1]})"
                choice_of[opts[-1]] = c.id
            if play is None:
                return None, f"decision '{s.id}' ({s.cite}) places no wager"
            schedule.append({"known": known + revealed, "options": opts, "step": s.id, "choices": choice_of})
    if not schedule or play is None:
        return None, "no decision places a wager"
    # qualifier and paytables from the settle rules
    qualifier = None
    ranking_id = None
    pays: dict = {}
    judged = set(required) | {play}
    for s in steps:
        if s.kind != "settle":
            continue
        for r in s.rules:
            acts = [a for a in r.then if a.wager in judged or a.wager == "*"]
            if not acts:
                continue
            bad = [a for a in acts if a.kind not in ("win", "lose")]
            if bad:
                return None, (f"{r.cite} settles {bad[0].wager} by '{bad[0].kind}', which the raise-or-fold solver "
                              "does not model")
            deps, _ = settle_dependencies(r.when)
            if deps:
                return None, (f"{r.cite} settles {', '.join(sorted({a.wager for a in acts}))} on "
                              f"{', '.join(sorted(deps))}: the raise-or-fold solver models only hands judged on the "
                              "player's and the community cards")
            wagers_lost = {a.wager for a in r.then if a.kind == "lose"}
            if set(required) <= wagers_lost and play in wagers_lost and r.when is not None:
                f = _find_at_least(r.when)
                if f is not None:
                    ranking_id = f.args[0].parts[0]
                    cat = f.args[2].parts[0]
                    rank = None
                    if len(f.args) > 3:
                        rank = f.args[3].value if isinstance(f.args[3], Lit) else f.args[3].parts[0]
                    qualifier = (cat, rank)
            for a in r.then:
                if a.kind == "win" and a.wager in judged:
                    if a.paytable is not None:
                        pays[a.wager] = ("paytable", a.paytable)
                    elif a.payout is not None:
                        pays[a.wager] = ("payout", a.payout)
                    else:
                        pays[a.wager] = ("payout", game.wagers[a.wager].pays)
    if qualifier is None:
        return None, "no rule loses every wager of the player on a qualifier of the player's hand"
    if set(pays) != judged:
        return None, f"no rule pays {', '.join(sorted(judged - set(pays)))}"
    return StudModel(ranking_id, known, sum(community.values()), schedule, qualifier,
                     [(w, 1) for w in required], play, pays), ""


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
    for s in steps:
        if s.kind != "settle":
            continue
        for r in s.rules:
            for a in r.then:
                if a.kind == "win" and a.paytable is not None and (a.wager, a.paytable) not in seen:
                    k = _card_count(a.value, player, community)
                    pt = game.paytables[a.paytable]
                    seen.add((a.wager, a.paytable))
                    out.append((a.wager, a.paytable, pt.ranking, k))
    return out


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
        r = Ranking.from_spec(game.rankings[model.ranking_id], model.ranking_id)
        sol = solve_model(game, model, r)
        names = " + ".join(game.wagers[w].name for w, _ in model.base) + f" + {game.wagers[model.play].name}"
        outcomes = {("+" if net > 0 else "") + str(net): p for net, p in sol.outcomes.items()}
        figures.append(Figure(tuple([w for w, _ in model.base] + [model.play]), names, OPTIMAL,
                              sol.ev_per_ante, sol.ev_per_wagered, sol.hit_frequency, outcomes,
                              "exact: optimal strategy by backward induction over every card set", (), status="exact"))
        notes.append(f"{names}, optimal strategy: how often each choice is made: " + "; ".join(
            f"{k} cards known: " + ", ".join(f"{o} {float(v):.6f}" for o, v in d.items())
            for k, d in sorted(sol.option_frequencies.items())) + "; outcomes are the net result per unit "
            f"{game.wagers[model.base[0][0]].name}")
        notes.append(f"{names}: expected return per unit {game.wagers[model.base[0][0]].name}; "
                     f"expected total wagered per unit {game.wagers[model.base[0][0]].name}: "
                     f"{sol.expected_wager} = {float(sol.expected_wager):.6f}")
    else:
        sol, deal_why = None, ""
        deal_refused = refused("deal classes")
        if deal_refused is not None:
            deal_why = deal_refused
        elif any(facts[w].chosen_by for w in game.wagers):
            sol, bets, deal_why = _deal_route(game, steps, facts, {**offer_all, **options})
        if sol is not None:
            ids = [w for w in game.wagers if w in sol.net]
            judged = {w for w in game.wagers if facts[w].chosen_by or (w in ids and facts[w].placed_by)}
            base = next(iter(bets))
            names = " + ".join(game.wagers[w].name for w in ids)
            dist = {("+" if x > 0 else "") + str(x / bets[base]): p for x, p in sol.distribution.items()}
            hit = sum((p for x, p in sol.distribution.items() if x > 0), Fraction(0)) if dist else None
            figures.append(Figure(tuple(ids), names, OPTIMAL, sol.expected_net / bets[base],
                                  sol.expected_net / sol.expected_stake, hit, dist,
                                  sol.method or
                                  f"exact: optimal strategy by backward induction over every set of cards seen; all "
                                  f"{sol.sets:,} deals in {sol.classes} classes the rules tell apart, "
                                  f"{sol.histories} sequences of choices", (), status="exact"))
            notes.append(f"{names}, optimal strategy: expected return per unit {game.wagers[base].name}; expected "
                         f"total wagered per unit {game.wagers[base].name}: {sol.expected_stake / bets[base]} = "
                         f"{float(sol.expected_stake / bets[base]):.6f}; per wager: " + ", ".join(
                             f"{game.wagers[w].name} {sol.net[w]}" for w in ids))
            for h, (pn, ps) in sol.policies.items():  # declared policies: the same choices on every deal
                figures.append(Figure(tuple(ids), names, Policy("fixed", "always " + ", then ".join(h), _choices(h)),
                                      pn / bets[base], pn / ps if ps else None, None, {},
                                      f"exact: the same {sol.sets:,} deals and outcomes, the player choosing "
                                      f"{', then '.join(h)} on every deal", (), status="exact"))
            if sol.method:  # the dealer-hand route: how often each sequence of choices is made, per deal
                notes.append(f"{names}, optimal strategy: how often each choice is made: " + "; ".join(
                    f"{d}: " + ", ".join(f"{c} {v} = {float(v):.6f}" for c, v in fr.items())
                    for d, fr in sol.choice_frequency.items()))
        for w, d in game.wagers.items():
            if sol is not None:
                break
            if facts[w].chosen_by:  # what a player's decision acts on
                rep.refuse(w, d.name, f"the game's decisions are not modelled: {why_not}"
                           + (f"; the deal-class route: {deal_why}" if deal_why else ""))
            elif facts[w].placed_by:
                rep.refuse(w, d.name, paytables_refused or paytable_refusal(game, facts[w], flags, w)[0])
    dists = _DISTS  # enumerations are shared by every analysis of the process (same ranking, k, deck)
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
        ch = tuple(card_hands_of(r, pt))
        key = (repr(game.rankings[rid]), k, game.cards.jokers, ch)
        if key not in dists:
            dists[key] = enumerate_hands(r, k, _deck(game), ch)
        dist = dists[key]
        for ci in _option_column(game, pid, options):
            res = paytable_return(dist, pt, ci)
            exp = res.expected
            meter_note, meter = "", None
            if isinstance(exp, Affine):
                meter = _meter_value(game, table, wager)
                a, b = exp.a, exp.b
                meter_note = (f"; as a function of the meter M: {a} + {b}*M per unit; break-even meter "
                              f"{(-a / b) if b else 'none'}")
                exp = a + b * meter
                _AFFINE[wager] = (a, b)
                policy = f"{res.column}, meter {meter}"
            else:
                policy = res.column
            said = assumed if assumed != "no player decision affects it" else ""
            if said:
                policy = f"{policy}; {assumed}"
            policy = Policy("none", policy, column=res.column, meter=meter, assumes=said)
            outcomes = {row.label: row.probability for row in res.rows}
            outcomes["lose"] = Fraction(res.lose_count, res.total)
            figures.append(Figure((wager,), game.wagers[wager].name, policy, exp, None, res.hit_frequency, outcomes,
                                  f"exact: all {res.total:,} {k}-card hands{meter_note}", status="exact"))
    # envy bonuses: value per other player
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
        ch = tuple(card_hands_of(r, pt))
        key = (repr(game.rankings[pt.ranking]), k, game.cards.jokers, ch)
        if key not in dists:
            dists[key] = enumerate_hands(r, k, _deck(game), ch)
        # the value counts every other player holding a qualifying hand: a qualification that reads a flag
        # a player's choice sets (a fold) is an assumption the figure states
        _, qflags = settle_dependencies(next((e for n, e, _ in s.exprs if n == "qualifying"), None))
        assumed = "; ".join(f"other players never choose '{cid}' ({cite}) with a qualifying hand"
                            for f in sorted(qflags) for cid, cite in flags.get(f, ()))
        for ci, col in enumerate(pt.columns):
            v = envy_value(dists[key], pt, ci)
            amount = pt.amounts[ci] if pt.amounts else None
            label = f"{col}" + (f" (wager ${amount})" if amount is not None else "") + (f"; {assumed}" if assumed else "")
            figures.append(Figure((p["wager"],), f"{p['name']} per other player",
                                  Policy("none", label, column=col if amount is None else None, assumes=assumed),
                                  Fraction(v), None, None, {}, f"exact: all {k}-card hands; "
                                  "expected bonus in dollars per other player at the table", kind="value",
                                  status="exact"))
            envy[(p["wager"], amount)] = Fraction(v)
    # a progressive wager: its return as a function of the meter and of the number of other players
    for f in [f for f in figures if f.kind == "return" and "meter" in f.method]:
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
            notes.append(f"{game.wagers[w].name} of ${amount}: expected return per unit = {a} + {b}*M/{stake} "
                         f"+ n*{v}/{stake} (M: meter when paid, n: other players)\n    " + "\n    ".join(rows))
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


def _deck(game):
    return standard_deck(game.cards.jokers)
