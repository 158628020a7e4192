"""The exact distribution of the round's net result under the optimal strategy (deal-class route,
compiler/analysis/deals.py::solve) equals the game tree's (tree.py, every round played by the engine) on
reduced decks of the Let It Ride and Mississippi Stud test fixtures (tests/fixtures/chapters/, NOT official text)."""
from __future__ import annotations

import pytest
from analysis_fixtures import reduced_tree

from compiler.analysis.deals import solve
from compiler.analysis.card_routes import _active_steps
from compiler.analysis.game_tree import optimal
from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import Table


@pytest.mark.xdist_group("reduced_trees")  # with test_game_tree.py's tests of the same trees (make test)
@pytest.mark.parametrize("name, bets, cards", [
    ("let-it-ride.yaml", {"bet_1": 1, "bet_2": 1, "bet_3": 1}, "AS KS QS JS TS AH KH"),
    ("mississippi-stud.yaml", {"ante": 1}, "AS AH KS QS JS 6D"),
])
def test_distribution_of_the_net_result_equals_the_game_tree(name, bets, cards):
    # the game tree of the same deck and bets as test_game_tree.py's, played out once per process
    mod, comp, leaves = reduced_tree(name, tuple(bets.items()), tuple(cards.split()))
    game = mod.GAME
    steps = _active_steps(game, comp.chapter, Table(game, {}, seed=0))
    deck = parse_cards(cards.split())
    tree = optimal(leaves)
    sol = solve(game, steps, deck, {}, bets)
    assert sol.distribution == {k: v for k, v in tree.round_net.items() if v}
    assert sum(k * p for k, p in sol.distribution.items()) == sol.expected_net
