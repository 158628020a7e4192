"""Every analysis route proven equal to the general method (issue 24), chapter by chapter.

For every chapter (the seeded ``rulespecs/*.yaml`` and the test chapters ``tests/fixtures/chapters/*.yaml``,
NOT official text) the route ``analyze`` takes is found by the report's own machinery (the methods of
``compiler.analysis.report.METHODS`` in order, each answering to its contract), so a chapter added later is
picked up with no table here. The route then runs on a reduced shoe (card routes: a deck of a few cards, RICH;
points: a reduced composition; engine and chance routes: a few ranks, ENGINE_RANKS) or, for dice and wheels, on
the real chance space, and the general method on the same shoe and policy:

* decision-free rounds: the compiled game enumerated over every branch of the shoe and of the dice
  (``exact_engine.BranchShoe``, the engine playing each path);
* rounds with decisions: the game tree of the compiled game (``tree.game_tree``), optimal by backward
  induction over information sets, or the declared policy (``game_tree.under_policy``).

Each wager's figure must be equal, Fraction for Fraction (and the outcome probabilities where the route
gives them). A loop (craps) is infinite for both exact general methods: the Markov route is checked
against a seeded simulation of whole rounds by the engine, within four standard errors.

A progressive wager's figure is a + b*M (M: the meter when paid), shown for the meter reading the reset amount
when the round begins: the engine adds the paying wager's own contribution to the meter before paying it, and so
does the figure (M = reset + own share); the two must be equal there.

What is not covered is a named expected refusal, its reason asserted (EXPECTED_UNCOVERED): a wager the
route leaves uncovered, or a chapter whose smallest tree is over this file's budget. A new chapter, route
or wager that falls through fails here until it is compared or listed."""
from __future__ import annotations

import functools
import math
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from compiler.analysis import chance_exact, markov, points_exact, card_routes, report
from compiler.analysis.exact_engine import BranchShoe, PathLimit, enumerate_round, rank_level_ok
from compiler.analysis.game_tree import game_tree, optimal, under_policy
from compiler.pipeline import load_game
from compiler.runtime.cards import parse_cards
from compiler.runtime.chance import first_set
from compiler.runtime.engine import FixedStrategy, Strategy, Table
from compiler.runtime.money import money
from compiler.values.cards import rank_index

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted(ROOT.glob("rulespecs/*.yaml")) + sorted(ROOT.glob("tests/fixtures/chapters/*.yaml"))

# the largest game tree compared here, in rounds played (each a path: an ordering of the cards a round deals
# from the reduced deck and a sequence of choices; the engine plays about a thousand rounds a second)
TREE_BUDGET = 5040
# a deck larger than the cards a round deals is taken while its tree stays under this many rounds (the orderings
# of the cards dealt times each decision's choices, at most)
DECK_BUDGET = 1500
# cards of the reduced decks, in the order they are taken (the first six as in test_game_tree's Raise It Up deck):
# pairs, two pairs, three-card flushes and straights; with more cards straights, flushes and a royal
RICH = parse_cards("AS AH KS TS TH 9D QS JS 2C 2D 3C".split())
# a reduced baccarat shoe by rank (test_points_exact.SHOES): naturals, both third cards, the table's rows
POINTS_SHOE = {"K": 3, "2": 2, "5": 2, "7": 2}
# a reduced shoe of the engine route: two cards of each of four ranks (ties, and wars of every result)
ENGINE_RANKS = "A K 7 2"
SIM_ROUNDS = 1500  # rounds of the seeded simulation of a looping chapter
SIM_SEED = 20261202

# chapter (file stem) -> wager ("*": every wager; "W/envy": the Envy Bonus of W) -> words its reason must contain
_TREE_TOO_BIG = "over this test's budget"
EXPECTED_UNCOVERED: dict[str, dict[str, str]] = {
    "535-pai-gow": {"*": "defines no wagers"},
    "669a-raise-it-up-stud-poker": {"progressive/envy": "paid on other players' hands"},
    # pai gow: seven cards to the seat and seven to the dealer
    "670a-six-card-fortune-pai-gow-poker": {
        w: _TREE_TOO_BIG for w in ("pai_gow", "double_down", "fortune_bonus", "insurance", "progressive")},
    "688a-face-up-pai-gow-poker": {w: _TREE_TOO_BIG for w in ("face_up", "ace_high_bonus", "fortune_bonus",
                                                              "progressive")},
    # the draw walk is exact for its stated method (the dealer's play from the shoe at the first decision, split
    # hands counted), not for the general tree: it is proved against an independent calculator instead
    "blackjack": {w: "stated method" for w in ("initial", "double", "insurance")},
    "craps": {w: "made during the round whenever offered" for w in ("pass_odds", "dont_odds", "come", "dont_come")},
    "crapless-craps": {"pass_odds": "made during the round whenever offered"},
    "blackjack-late-surrender": {w: "stated method" for w in ("bet", "double_down", "insurance")},
    # the side wagers, valued alone by the same walk up to their settlement, are equal to counts of the cards in
    # test_side_wagers_21plus3_lucky_ladies.py
    "blackjack-21plus3-lucky-ladies": {w: "stated method" for w in ("blackjack", "double_down", "insurance",
                                                                    "twenty_one_three", "lucky_ladies")},
    # the suited 6-7-8 and 7-7-7 bonuses split the cards by suit, and a pair may then be of two classes: the draw walk
    # refuses it by name (test_deck_without_ranks.py, the branch's report): simulated
    "spanish-21": {w: "no exact route" for w in ("spanish_21", "double_down")},
    # the dealer-hand route on ten cards: proven equal to a brute force in test_dealer_hand.py
    "caribbean-stud": {w: _TREE_TOO_BIG for w in ("ante", "call")},
    # the route itself refuses (test_casino_holdem_fixture.py)
    "casino-holdem": {w: "deals cards after a decision" for w in ("ante", "call")},
    # eleven cards a round (the dealer's six from one deck): the dealer-hand route proven equal to a brute force on
    # reduced decks in test_new_chapters.py, and on the full deck held to the published figure there
    "four-card-poker": {w: _TREE_TOO_BIG for w in ("ante", "play", "aces_up")},
    # seven cards to the seat and seven to the dealer (hands of two to seven cards): the bonuses held to a count
    # of the 7-card hands by suit in test_new_chapters.py
    "high-card-flush": {w: _TREE_TOO_BIG for w in ("ante", "raise", "flush_bonus", "straight_flush_bonus")},
    # ten cards a round: the dealer-hand route (the Play of three times the Ante offered only on a pair of aces or
    # better) held to a brute force on a reduced deck and the Queens Up to a count of every five-card hand in
    # test_poker_chapters_never_seen.py
    "crazy-4-poker": {w: _TREE_TOO_BIG for w in ("ante", "play", "super_bonus", "queens_up")},
    # community cards dealt between decisions: simulated; the Bonus's 1000 to 1 reads the dealer's two cards too
    "texas-holdem-bonus-poker": {**{w: "deals cards after a decision" for w in ("ante", "flop", "turn", "river")},
                                 "bonus": "not a function of its paytable alone"},
    # community cards turned between decisions: simulated (test_new_chapters.py), the Trips held to the 7-card counts
    "ultimate-texas-holdem": {**{w: "revealed after an earlier decision" for w in ("ante", "blind", "play")},
                              "trips": _TREE_TOO_BIG},
}


@dataclass
class Outcome:
    """What one chapter's check found: wagers compared equal, and wagers not compared with the reason."""
    route: str
    compared: set[str] = field(default_factory=set)
    uncovered: dict[str, str] = field(default_factory=dict)


def route_of(game, chapter, options=None) -> str:
    """The method ``analyze`` takes: the first of ``report.METHODS`` that does not refuse (as ``report._analyze``)."""
    for m in report.METHODS:
        if m.refusal(game, chapter, options or {}) is None:
            return m.name
    raise AssertionError("no method applies, not even the simulation")


def _walk(steps):
    for s in steps:
        yield s
        yield from _walk(s.steps)


def _offer_all(game) -> dict:
    return {d.offered_by: True for d in game.wagers.values() if d.offered_by}


def _unit(game, w) -> Decimal:
    d = game.wagers[w]
    return d.amounts[0] if d.amounts else money(1)


def engine_paths(game, seats, counts, options=None):
    """(probability, RoundResult) of every path of a round, the shoe and the dice branching (the general
    method of decision-free rounds, ``exact_engine.walk_paths``; here the bets are passed as ``play_round``
    takes them, seat -> wager -> amount, so that a wager on chosen numbers is placed on its set)."""
    path: list[int] = []
    while True:
        shoe = BranchShoe(counts, path)
        res = Table(game, options, seed=0, shoe=shoe, chance=shoe).play_round(seats, Strategy(), new_dealer=False)
        yield shoe.prob, res
        k = len(shoe.taken) - 1
        while k >= 0 and shoe.taken[k] + 1 >= shoe.widths[k]:
            k -= 1
        if k < 0:
            return
        path = shoe.taken[:k] + [shoe.taken[k] + 1]


def engine_figures(game, seats, counts, options=None) -> dict[tuple[int, str], tuple]:
    """(seat, wager) -> (expected net per unit staked, {outcome: probability}) by the general method."""
    net, stake, outs = defaultdict(Fraction), defaultdict(Fraction), defaultdict(lambda: defaultdict(Fraction))
    for p, res in engine_paths(game, seats, counts, options):
        for r in res.results:
            k = (r.seat, r.wager)
            net[k] += p * Fraction(r.net)
            stake[k] += p * Fraction(r.amount)
            outs[k][r.outcome] += p
    return {k: (net[k] / stake[k], {o: v for o, v in outs[k].items() if v}) for k in net}


# ---------------------------------------------------------------------------------------------
# one check per route
# ---------------------------------------------------------------------------------------------


def check_engine(game, chapter, out: Outcome, monkeypatch) -> None:
    """Engine enumeration (every branch of the shoe, fixed policies) against the game tree, on a reduced shoe
    (by rank where the rankings ignore suits)."""
    counts = _reduced_shoe(game)
    monkeypatch.setattr(report, "enumerate_round", functools.partial(enumerate_round, counts=counts))
    monkeypatch.setattr(report, "game_tree", functools.partial(game_tree, counts=counts))  # the optimal figure's
    figs = report.analyze_engine(game, {})
    required = [w for w, d in game.wagers.items() if d.required]
    offers = [dict(s.params)["wager"] for s in _walk(game.procedure) if s.kind == "offer"]
    trees: dict = {}

    def leaves(bets):
        key = tuple(sorted(bets))
        if key not in trees:
            trees[key] = game_tree(game, bets, {}, counts=counts)
        return trees[key]

    for f in figs:
        pref = dict(f.policy.choices)
        made = {w for w in f.stakes if game.wagers[w].placed == "during_round" and w in offers}
        policy = {**pref, **{f"offer:{w}": ("make" if w in made else "decline") for w in offers}}
        if set(f.stakes) <= set(required):  # a round: per unit of its required wagers
            tree = leaves({w: 1 for w in required})
            res = optimal(tree) if f.policy.kind == "optimal" else under_policy(tree, policy)
            assert f.expected_return == res.total_net() / len(required), f.policy.text
            assert f.per_total_wagered == res.total_net() / res.total_stake(), f.policy.text
            assert f.outcomes == {("+" if k > 0 else "") + str(k / len(required)): v
                                  for k, v in sorted(res.round_net.items()) if v}, f.policy.text
        elif made:  # made whenever offered: per unit made
            (w,) = f.stakes
            res = under_policy(leaves({x: 1 for x in required}), policy)
            assert f.expected_return == res.expected_net[w] / res.expected_stake[w], (w, f.policy.text)
        else:  # an optional wager with the bets before the deal
            (w,) = f.stakes
            res = under_policy(leaves({**{x: 1 for x in required}, w: 1}), policy)
            assert f.expected_return == res.expected_net[w], w
            assert f.hit_frequency == res.win.get(w, 0), w
        out.compared.update((*f.stakes, *f.includes))


def _reduced_shoe(game) -> dict[int, int]:
    """ENGINE_RANKS, two cards each: by rank (one card standing for its rank) where no ranking reads suits,
    else the spades and hearts of those ranks."""
    ranks = [rank_index(r) for r in ENGINE_RANKS.split()]
    if rank_level_ok(game):
        return {r * 4: 2 for r in ranks}
    return {r * 4 + s: 1 for r in ranks for s in (0, 1)}


def check_chance(game, chapter, out: Outcome, monkeypatch) -> None:
    """The chance route (every outcome of dice, wheel or cards by rank) against the engine's enumeration of
    every branch; one deck where cards are dealt, the real chance space of dice and wheels."""
    deals = any(s.kind == "deal" for s in _walk(game.procedure))
    decks = 1 if deals else None
    # cards: the route's shoe (by rank, or by card for a wager that reads suits) reduced to one card of each
    # suit of ENGINE_RANKS (the route by card weighs the first card's suits alike: every suit is kept)
    ranks = [rank_index(r) for r in ENGINE_RANKS.split()]
    monkeypatch.setattr(chance_exact, "_rank_counts", lambda g, d, suits=False: (
        {r * 4 + s: 1 for r in ranks for s in range(4)} if suits else {r * 4: 4 for r in ranks}))
    table = Table(game, {}, seed=0)
    figs = chance_exact.analyze_chance(game, chapter, {}, decks, table.offered)
    suits = chance_exact.suit_wagers(game, chapter)
    by_wager: dict[str, set] = defaultdict(set)
    for f in figs:
        (w,) = f.stakes
        by_wager[w].add((f.expected_return, tuple(sorted((k, v) for k, v in f.outcomes.items() if v))))
    # each (wager, set) on a seat of its own; where no card is dealt to a player every seat sees the same
    # chance and one round holds as many of them as the table has positions
    to_players = any(s.kind == "deal" and dict(s.params).get("to", "players") not in ("dealer", "community")
                     for s in _walk(game.procedure))
    per_round = 1 if to_players else max(1, game.max_positions)
    plays = []
    for w in by_wager:
        amount = _unit(game, w)
        sets = chance_exact._sets(game, w)
        plays += [(w, amount if x is None else {"amount": amount, "numbers": x})
                  for x in (sets if sets is not None else [None])]
    general: dict[str, set] = defaultdict(set)
    for suited in (False, True):
        these = [pl for pl in plays if (pl[0] in suits) == suited]
        counts = chance_exact._rank_counts(game, decks or 1, suited)
        for i in range(0, len(these), per_round):
            chunk = these[i:i + per_round]
            res = engine_figures(game, {k + 1: {w: b} for k, (w, b) in enumerate(chunk)}, counts)
            for k, (w, _) in enumerate(chunk):
                e, o = res[(k + 1, w)]
                general[w].add((e, tuple(sorted(o.items()))))
    for w, got in by_wager.items():
        assert got == general[w], w
        out.compared.add(w)


def check_points(game, chapter, out: Outcome) -> None:
    """The points method on a reduced composition against the engine's enumeration of every rank path."""
    composition = {rank_index(r): n for r, n in POINTS_SHOE.items()}
    figs, _ = points_exact.analyze_points(game, chapter, composition=composition)
    counts = {r * 4: n for r, n in composition.items()}
    required = [w for w, d in game.wagers.items() if d.required]
    # every wager of the figures on one seat, one enumeration (no settlement of these rounds reads another
    # wager than its own: the points method values each alone)
    general = engine_figures(game, {1: {w: money(1) for f in figs for w in f.stakes}}, counts)
    for f in figs:
        if len(f.stakes) > 1 or f.stakes[0] in required:  # the required wagers as a round
            assert f.expected_return == sum(general[(1, w)][0] for w in f.stakes) / len(f.stakes), f.stakes
        else:
            e, o = general[(1, f.stakes[0])]
            assert f.expected_return == e, f.stakes
            assert f.outcomes == o, f.stakes
        out.compared.update(f.stakes)


def _cards_dealt(steps) -> int:
    """Cards one round deals to one seat, the dealer and the community (a deal to positions: the seat and the
    dealer)."""
    n = 0
    for s in steps:
        p = dict(s.params)
        if s.kind == "deal":
            n += int(p.get("count", 1)) * (2 if p.get("to") == "positions" else 1)
    return n


def _choice_paths(steps) -> int:
    """Sequences of choices of a round, at most: the product of each decision's choices (2 per offer)."""
    return math.prod(len(s.choices) if s.kind == "decide" else 2 for s in steps if s.kind in ("decide", "offer"))


def _tree_too_big(steps) -> str | None:
    """Why the smallest game tree is over the budget (every ordering of the n cards dealt, on a deck of n distinct
    cards, is at least one path), or None."""
    n = _cards_dealt(steps)
    if math.factorial(n) <= TREE_BUDGET:
        return None
    return (f"general method: the game tree replays every ordering of the {n} cards a round deals, at least "
            f"{n}! = {math.factorial(n):,} rounds on the smallest deck, {_TREE_TOO_BIG} of {TREE_BUDGET:,}")


def _reduced_deck(steps) -> list[int]:
    """The largest prefix of RICH (at most n + 2 cards for n dealt, at least n) whose tree is within DECK_BUDGET."""
    n, c = _cards_dealt(steps), _choice_paths(steps)
    m = min(len(RICH), n + 2)
    while m > n and math.perm(m, n) * c > DECK_BUDGET:
        m -= 1
    return sorted(RICH[:m])


def _decide_ids(steps) -> list[str]:
    """The decisions of the active procedure, in order (a declared policy of the deal routes names its choices in
    this order)."""
    return [s.id for s in steps if s.kind == "decide"]


def check_cards(game, chapter, out: Outcome, monkeypatch) -> None:
    """The card routes (raise-or-fold solver, deal classes and the dealer hand, paytables) as ``analyze`` runs
    them, on a reduced deck, against the game tree of the compiled game on the same deck. A wager the routes
    refuse is listed with their reason; where the smallest tree is over the budget, the others with that."""
    options = _offer_all(game)
    steps = card_routes._active_steps(game, chapter, Table(game, options, seed=0))
    too_big = _tree_too_big(steps)
    if _cards_dealt(steps) > len(RICH):
        out.uncovered.update({w: too_big for w in game.wagers})
        return
    deck = _reduced_deck(steps)
    solve_model = card_routes.solve_model
    monkeypatch.setattr(card_routes, "_deck", lambda g: list(deck))
    monkeypatch.setattr(card_routes, "_DISTS", {})
    monkeypatch.setattr(card_routes, "solve_model",
                        lambda g, m, r, deck=None, cards=tuple(deck): solve_model(g, m, r, deck=list(cards)))
    rep = report.analyze(game, chapter, {}, simulate_refused=False)
    for n in rep.not_computed:
        out.uncovered[n.wager] = n.reason
    if too_big:
        out.uncovered.update({w: too_big for w in game.wagers if w not in out.uncovered})
        return
    figs = [f for f in rep.figures if f.kind == "return"]
    for f in rep.figures:
        if f.kind == "value":  # an Envy Bonus: paid on the other players' hands
            out.uncovered.setdefault(f"{f.stakes[0]}/envy", f"an Envy Bonus ({f.name}) is paid on other players' "
                                                           "hands: the general method plays one seat")
    rounds = [f for f in figs if len(f.stakes) > 1]
    main = set(rounds[0].stakes) if rounds else set()
    bets = {w: _unit(game, w) for w, d in game.wagers.items()
            if d.placed != "during_round" and (w in main or any(f.stakes == (w,) for f in figs))}
    try:
        leaves = game_tree(game, bets, options, counts={c: 1 for c in deck}, max_paths=TREE_BUDGET)
    except PathLimit as e:
        for w in bets:
            out.uncovered[w] = f"general method: the game tree on {len(deck)} cards has {e}, {_TREE_TOO_BIG}"
        return
    value = (lambda lf: sum((v for w, v in lf.net.items() if w in main), Fraction(0)))
    best = optimal(leaves, value)
    chosen = [lf for lf in leaves if all(best.choice[k] == c for k, c in lf.decisions)]
    decides = _decide_ids(steps)
    table = Table(game, options, seed=0)
    columns = {table.options.get(pt.option) for pt in game.paytables.values() if pt.option}
    for f in figs:
        if len(f.stakes) > 1:
            if f.policy.kind == "optimal":
                res, these = best, chosen
            else:  # the same choices on every deal, in the order of the decisions
                pol = {decides[i]: c for i, (_, c) in enumerate(f.policy.choices)}
                res = under_policy(leaves, pol)
                these = None
            net = sum((res.expected_net.get(w, Fraction(0)) for w in f.stakes), Fraction(0))
            stake = sum((res.expected_stake.get(w, Fraction(0)) for w in f.stakes), Fraction(0))
            base = Fraction(bets[f.stakes[0]])
            assert f.expected_return == net / base, (f.policy.text, f.expected_return, net)
            if f.per_total_wagered is not None:
                assert f.per_total_wagered == net / stake, f.policy.text
            if these is not None and f.hit_frequency is not None:
                assert f.hit_frequency == sum((lf.prob for lf in these if sum(
                    (v for w, v in lf.net.items() if w in f.stakes), Fraction(0)) > 0), Fraction(0)), f.policy.text
            if these is not None and f.outcomes:
                dist: dict = defaultdict(Fraction)
                for lf in these:
                    dist[sum((v for w, v in lf.net.items() if w in f.stakes), Fraction(0)) / base] += lf.prob
                assert f.outcomes == {("+" if k > 0 else "") + str(k): p for k, p in dist.items() if p}, f.policy.text
        else:
            (w,) = f.stakes
            if f.policy.column is not None and f.policy.column not in columns and len(
                    [x for x in figs if x.stakes == f.stakes]) > 1:
                continue  # another column of the same paytable than the table's: the same enumeration
            e = best.expected_net[w] / best.expected_stake[w]
            if f.hit_frequency is not None:
                assert f.hit_frequency == best.win.get(w, 0), (w, f.hit_frequency, best.win.get(w))
            if f.policy.meter is not None and game.wagers[w].progressive:
                # a return as a function of the meter M when paid, a + b*M, shown at the reading when the round
                # begins (the reset amount) plus the wager's own share, which the engine adds before it pays
                mid = game.wagers[w].progressive
                a, b = card_routes._AFFINE[w]
                paid_at = Fraction(table.meter_reset(mid)) + Fraction(bets[w] * table.meter_rate(mid) / 100)
                assert f.policy.meter == paid_at
                assert a + b * paid_at == e == f.expected_return, (w, a, b, paid_at, e, f.expected_return)
            else:
                assert f.expected_return == e, (w, f.policy.text, f.expected_return, e)
        out.compared.update(f.stakes)


def check_markov(game, chapter, out: Outcome) -> None:
    """A loop: infinite for both exact general methods (every path a played round; a round may last any number
    of rolls). The chain's figures against a seeded simulation of whole rounds by the engine, each wager
    placed before the round within four standard errors of its exact figure; a wager on chosen numbers placed on
    its first legal set, against the figure of the sets that holds it."""
    rep = markov.analyze(game, chapter, {}, {})
    labels = [lbl for lbl, _ in markov.policies(chapter)]
    first = markov.policies(chapter)[0][1]
    stake = markov._stake(game, chapter)
    before = [w for w, d in game.wagers.items() if d.placed != "during_round"]
    chosen = {w: first_set(game, w) for w in before if game.wagers[w].choose}
    bet = {w: {"amount": stake, "numbers": list(chosen[w])} if w in chosen else stake for w in before}
    table = Table(game, {}, seed=SIM_SEED)
    sums = {w: [0.0, 0.0, 0] for w in before}  # sum, sum of squares, wagers settled
    for _ in range(SIM_ROUNDS):
        # a wager still on the layout from the last round (stays: until_settled) plays on: not placed again
        on_layout = table.carried[1].wagers if 1 in table.carried else {}
        res = table.play_round({1: {w: bet[w] for w in before if w not in on_layout}}, FixedStrategy(first))
        for r in res.results:
            if r.wager in sums:
                x = float(r.net) / stake
                sums[r.wager][0] += x
                sums[r.wager][1] += x * x
                sums[r.wager][2] += 1
    for f in rep.figures:
        if len(f.stakes) != 1 or f.stakes[0] not in sums:
            continue
        text = f.policy.text
        if f.stakes[0] in chosen:  # "placed on [4], [10]; always leave_up (...)": the group of the set placed
            placed, _, text = text.partition("; ")
            if "any of its" not in placed and "[" + ", ".join(chosen[f.stakes[0]]) + "]" not in placed:
                continue
        if f.policy.kind != "none" and text != labels[0]:
            continue
        (w,) = f.stakes
        s, s2, n = sums[w]  # per wager settled (one a round, but for a wager that stays up over rounds)
        mean = s / n
        se = math.sqrt(max(s2 / n - mean * mean, 0.0) / n)
        assert abs(mean - float(f.expected_return)) <= 4 * se + 1e-12, (w, mean, se, f.expected_return)
        out.compared.add(w)
    for w, d in game.wagers.items():
        if w not in out.compared and d.placed == "during_round":
            out.uncovered[w] = ("made during the round whenever offered: the seeded simulation here places the "
                                "wagers before the round only, each offer declined")


def _refuse_all(reason):
    def check(game, chapter, out: Outcome) -> None:
        for w in game.wagers:
            out.uncovered[w] = reason
    return check


def check_paigow(game, chapter, out: Outcome) -> None:
    """Pai gow: the route reads no reduced deck, and the tree of one seat and the dealer is far too large."""
    steps = card_routes._active_steps(game, chapter, Table(game, _offer_all(game), seed=0))
    why = _tree_too_big(steps)
    assert why is not None, "a pai gow chapter small enough for the game tree: compare it here"
    _refuse_all(why)(game, chapter, out)


CHECKS = {
    "markov": check_markov,
    "points": check_points,
    "chance": check_chance,
    "engine enumeration": check_engine,
    "pai gow": check_paigow,
    "card routes": check_cards,
    "draw walk": _refuse_all("exact for its stated method, which is not the general method's (the dealer's play "
                             "valued from the shoe at the first decision, split hands counted): equal as fractions "
                             "to an independent calculator of that method in test_draw_walk.py"),
    "simulation": _refuse_all("no exact route: analyze simulates this chapter, so there is no exact figure to "
                              "compare"),
}


def test_every_method_of_the_report_has_a_check_here():
    assert [m.name for m in report.METHODS] and set(m.name for m in report.METHODS) == set(CHECKS)


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_route_equals_the_general_method(path, monkeypatch):
    mod, comp = load_game(path)
    game, chapter = mod.GAME, comp.chapter
    expected = EXPECTED_UNCOVERED.get(path.stem, {})
    if not game.wagers:
        rep = report.analyze(game, chapter)
        assert not rep.figures and any(expected.get("*", "?") in n for n in rep.notes), rep.notes
        return
    route = route_of(game, chapter)
    out = Outcome(route)
    check = CHECKS[route]
    if check in (check_cards, check_engine, check_chance):
        check(game, chapter, out, monkeypatch)
    else:
        check(game, chapter, out)
    offered = Table(game, _offer_all(game), seed=0)
    assert out.compared | set(out.uncovered) >= {w for w in game.wagers if offered.offered(w)}, route
    got = {w: why for w, why in out.uncovered.items() if w not in out.compared}
    assert set(got) == set(expected), (route, got)
    for w, why in got.items():
        assert expected[w] in why, (w, why)
