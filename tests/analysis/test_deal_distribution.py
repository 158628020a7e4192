"""The exact distribution of the round's net result under the optimal strategy (deal-class route,
compiler/analysis/deals.py::solve) equals the game tree's (tree.py, every round played by the engine) on
reduced decks of the Let It Ride and Mississippi Stud test fixtures (tests/fixtures/chapters/, NOT official text)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.analysis.deals import solve
from compiler.analysis.card_routes import _active_steps
from compiler.analysis.game_tree import game_tree, optimal
from compiler.pipeline import load_game
from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import Table

ROOT = Path(__file__).resolve().parents[2]


def _game(name):
    mod, comp = load_game(ROOT / "tests/fixtures/chapters" / name)
    g = mod.GAME
    return g, _active_steps(g, comp.chapter, Table(g, {}, seed=0))


@pytest.mark.parametrize("name, bets, cards", [
    ("let-it-ride.yaml", {"bet_1": 1, "bet_2": 1, "bet_3": 1}, "AS KS QS JS TS AH KH"),
    ("mississippi-stud.yaml", {"ante": 1}, "AS AH KS QS JS 6D"),
])
def test_distribution_of_the_net_result_equals_the_game_tree(name, bets, cards):
    game, steps = _game(name)
    deck = parse_cards(cards.split())
    tree = optimal(game_tree(game, bets, {}, counts={c: 1 for c in deck}))
    sol = solve(game, steps, deck, {}, bets)
    assert sol.distribution == {k: v for k, v in tree.round_net.items() if v}
    assert sum(k * p for k, p in sol.distribution.items()) == sol.expected_net
