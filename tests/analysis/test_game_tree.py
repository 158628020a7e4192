"""The general analyzer (compiler/analysis/game_tree.py): the game tree derived by playing the compiled
procedure against a branching shoe and a branching strategy, solved by backward induction over
information sets. Checked against independent routes: closed-form counting (War) and a brute force
written here (Let It Ride, a test fixture chapter that is not official text, on a reduced deck);
and the fast paytable route proven equal to it on the same deck."""
from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
from analysis_fixtures import reduced_tree

from compiler.analysis.game_tree import game_tree, optimal, under_policy
from compiler.pipeline import load_game
from compiler.runtime.cards import RANKS, parse_cards

SMALL = ["AS", "KS", "QS", "JS", "TS", "AH", "KH"]  # a reduced deck: royal, straight, flush, pairs possible
# the tests of the game trees test_deal_distribution.py solves too run on one pytest-xdist worker (make test)
SHARES_TREES = pytest.mark.xdist_group("reduced_trees")


def test_567_war_optimal_strategy_is_always_war_and_equals_closed_form():
    """Six decks: going to War beats surrendering; closed form as in test_war_exact.closed_form(6)."""
    mod, _ = load_game("rulespecs/567-war.yaml")
    leaves = game_tree(mod.GAME, {"initial": 1}, {})
    n, m = 6, 312
    t1 = F(4 * n - 1, m - 1)
    m2 = m - 2
    t2 = F((4 * n - 2) * (4 * n - 3) + 12 * 4 * n * (4 * n - 1), m2 * (m2 - 1))
    win2 = (1 - t2) / 2
    war = t1 * (-1 + 2 * win2 - win2 + 3 * t2)
    opt = optimal(leaves)
    assert opt.total_net() == war
    assert {c for k, c in opt.choice.items() if k[0] == "tie_hand_option"} == {"war"}
    assert {c for k, c in opt.choice.items() if k[0] == "offer:war_tie"} == {"decline"}
    surrender = under_policy(leaves, {"tie_hand_option": "surrender"})
    assert surrender.total_net() == t1 * F(-1, 2)


@pytest.mark.parametrize("chapter, base, counts", [
    ("rulespecs/567-war.yaml", {"initial": 1}, {r * 4: 3 for r in range(13)}),  # 39 cards, one per rank x 3
    ("tests/fixtures/chapters/red-dog.yaml", {"ante": 1}, {r * 4: 2 for r in range(13)}),
])
def test_every_fixed_policy_read_from_the_tree_equals_its_own_enumeration(chapter, base, counts):
    """`rulespec analyze` reads each fixed policy's figures (and the wagers offered during the round, made
    whenever offered) from the one game tree it plays for the optimal strategy: field for field they equal
    an enumeration of the engine under that policy alone (compiler/analysis/exact_engine.py)."""
    from compiler.analysis.exact_engine import enumerate_round
    from compiler.analysis.game_tree import policy_result
    from compiler.analysis.report import policies
    from compiler.runtime.engine import FixedStrategy

    game = load_game(chapter)[0].GAME
    leaves = game_tree(game, base, {}, counts=counts)
    offers = sorted({key[0] for lf in leaves for key, _ in lf.decisions if key[0].startswith("offer:")})
    checked = 0
    for _, pref in policies(game):
        for make in [None, *offers]:
            policy = {**pref, **{o: "make" if o == make else "decline" for o in offers}}
            tree = policy_result(leaves, policy)
            strat = FixedStrategy(pref, offers={make[6:]: 1}) if make else FixedStrategy(pref)
            direct = enumerate_round(game, base, strat, counts=counts)
            assert tree.total_prob == direct.total_prob == 1
            assert tree.paths == direct.paths
            assert tree.by_outcome == {k: v for k, v in direct.by_outcome.items() if v}
            assert tree.round_net == direct.round_net
            for w, st in direct.wagers.items():
                per_unit = (lambda s: s.expected_net / s.expected_stake) if make == "offer:" + w else \
                    (lambda s: s.expected_net)
                assert (tree.wagers[w].placed_prob, per_unit(tree.wagers[w])) == (st.placed_prob, per_unit(st))
            checked += 1
    assert checked >= 2
    with pytest.raises(ValueError, match="does not name"):
        policy_result(leaves, {})


def _pays(cards) -> int:
    """Let It Ride paytable (net per unit) of five cards, evaluated here independently."""
    ranks = sorted((RANKS.index(c[0]) for c in cards), reverse=True)
    suits = {c[1] for c in cards}
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    flush = len(suits) == 1
    uniq = sorted(set(ranks))
    straight = len(uniq) == 5 and (uniq[-1] - uniq[0] == 4 or uniq == [0, 1, 2, 3, 12])
    if straight and flush:
        return 1000 if uniq[0] == RANKS.index("T") else 200
    if counts[0] == 4:
        return 50
    if counts[:2] == [3, 2]:
        return 11
    if flush:
        return 8
    if straight:
        return 5
    if counts[0] == 3:
        return 3
    if counts[:2] == [2, 2]:
        return 2
    if counts[0] == 2 and max(r for r in ranks if ranks.count(r) == 2) >= RANKS.index("T"):
        return 1
    return -1


def _brute_force_optimal(deck) -> F:
    """Three equal bets; Bet 1 may be taken back after three cards, Bet 2 after the fourth."""
    total = F(0)
    n = len(deck)
    hands = list(itertools.combinations(deck, 3))
    for h in hands:
        rest = [c for c in deck if c not in h]
        ride1 = {}
        for r1 in (0, 1):
            v1 = F(0)
            for c1 in rest:
                rest2 = [c for c in rest if c != c1]
                best2 = max(sum(F(r1 + r2 + 1) * _pays(h + (c1, c2)) for c2 in rest2) / len(rest2) for r2 in (0, 1))
                v1 += best2 / len(rest)
            ride1[r1] = v1
        total += max(ride1.values()) / len(hands)
    assert len(hands) == n * (n - 1) * (n - 2) // 6
    return total


@pytest.fixture(scope="module")
def lir_small():
    mod, _, leaves = reduced_tree("let-it-ride.yaml", (("bet_1", 1), ("bet_2", 1), ("bet_3", 1)), tuple(SMALL))
    return mod, leaves


@SHARES_TREES
def test_withdrawable_wagers_optimal_strategy_equals_brute_force_on_a_reduced_deck(lir_small):
    _, leaves = lir_small
    assert optimal(leaves).total_net() == _brute_force_optimal(tuple(SMALL))


@SHARES_TREES
def test_paytable_route_equals_the_general_analyzer_on_a_reduced_deck(lir_small):
    """Bet 3 always rides: the fast paytable enumeration over the same deck gives its figure."""
    from compiler.analysis.enumerate import enumerate_hands
    from compiler.analysis.paytables import card_hands_of, paytable_return
    from compiler.runtime.rankings import Ranking

    mod, leaves = lir_small
    game = mod.GAME
    r = Ranking.from_spec(game.rankings["five_card"], "five_card")
    pt = game.paytables["let_it_ride"]  # compiled: its odds as the IR read them
    dist = enumerate_hands(r, 5, parse_cards(SMALL), tuple(card_hands_of(r, pt)))
    fast = paytable_return(dist, pt, 0).expected
    never = under_policy(leaves, {"first_decision": "let_it_ride", "second_decision": "let_it_ride"})
    assert never.expected_net["bet_3"] == fast == never.expected_net["bet_1"]
    assert optimal(leaves).expected_net["bet_3"] == fast


@pytest.mark.parametrize("cards", [["AS", "AH", "KS", "TS", "TH", "9D"], ["AS", "AH", "KS", "QS", "JS", "TH", "2C"]])
def test_669a_raise_or_fold_solver_equals_the_general_analyzer_on_reduced_decks(cards):
    """The fast route (stud.py backward induction over card sets, its parameters read from the
    compiled procedure) and the game tree of the compiled module give the same optimal return."""
    from compiler.analysis import card_routes as pr
    from compiler.runtime.engine import Table
    from compiler.runtime.rankings import Ranking

    mod, comp = load_game("rulespecs/669a-raise-it-up-stud-poker.yaml")
    game = mod.GAME
    deck = parse_cards(cards)
    tree_opt = optimal(game_tree(game, {"ante": 1, "blind": 1}, {}, counts={c: 1 for c in deck}))
    model = pr.find_stud_model(game, comp.chapter, pr._active_steps(game, comp.chapter, Table(game, {}, seed=0)))
    sol = pr.solve_model(game, model, Ranking.from_spec(game.rankings[model.ranking_id], model.ranking_id),
                         deck=sorted(deck))
    assert sol.ev_per_ante == tree_opt.total_net()


def _ms_pays(cards) -> int:
    """Mississippi Stud paytable (net per unit) of five cards, from the Let It Ride evaluation above:
    the same categories; pairs of jacks or better pay 1, pairs of 6s through 10s push."""
    lir = _pays(cards)
    table = {1000: 500, 200: 100, 50: 40, 11: 10, 8: 6, 5: 4, 3: 3, 2: 2}
    if lir in table:
        return table[lir]
    ranks = [RANKS.index(c[0]) for c in cards]
    pairs = [r for r in set(ranks) if ranks.count(r) == 2]
    if pairs:
        return 1 if pairs[0] >= RANKS.index("J") else 0 if pairs[0] >= RANKS.index("6") else -1
    return -1


def _ms_brute_force(deck) -> F:
    """Fold (losing what is on the layout) or raise 1x-3x the Ante before each community card."""
    def street(known, rest, risked, left):
        if left == 0:
            return risked * _ms_pays(known)
        best = F(-(risked - 0))  # fold: lose the Ante and the street wagers made
        for k in (1, 2, 3):
            v = sum(street(known + (c,), tuple(x for x in rest if x != c), risked + k, left - 1) for c in rest)
            best = max(best, F(v) / len(rest))
        return best

    hands = list(itertools.combinations(deck, 2))
    return sum(street(h, tuple(c for c in deck if c not in h), 1, 3) for h in hands) / len(hands)


@SHARES_TREES
def test_three_streets_of_raises_optimal_strategy_equals_brute_force_on_a_reduced_deck():
    """Mississippi Stud (test fixture, not official text): a shape the raise-or-fold solver refuses
    (decisions place three wagers); the general analyzer solves it on a reduced deck."""
    cards = ["AS", "AH", "KS", "QS", "JS", "6D"]
    mod, comp, leaves = reduced_tree("mississippi-stud.yaml", (("ante", 1),), tuple(cards))
    assert optimal(leaves).total_net() == _ms_brute_force(tuple(cards))
    from compiler.analysis import card_routes as pr
    from compiler.runtime.engine import Table

    _, why = pr.stud_model_or_reason(mod.GAME, comp.chapter,
                                     pr._active_steps(mod.GAME, comp.chapter, Table(mod.GAME, {}, seed=0)))
    assert "more than one wager" in why  # the raise-or-fold solver refuses; deals.py solves it (test_deal_classes)
