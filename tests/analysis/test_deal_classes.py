"""The deal-class backward induction (compiler/analysis/deals.py), the fast backend of the general
analyzer: proven equal to the game tree (tree.py) and to brute forces written in test_game_tree.py on
reduced decks, and held on the full deck to independently published figures.

The chapters are test fixtures under tests/fixtures/chapters/ (NOT official text)."""
from __future__ import annotations

from pathlib import Path

import pytest
from analysis_fixtures import reduced_tree
from test_game_tree import _brute_force_optimal, _ms_brute_force

from compiler.analysis.deals import Refused, solve
from compiler.analysis.card_routes import _active_steps
from compiler.analysis.model import OPTIMAL
from compiler.analysis.report import analyze
from compiler.analysis.game_tree import optimal
from compiler.pipeline import load_game
from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import Table

ROOT = Path(__file__).resolve().parents[2]
LIR = ROOT / "tests/fixtures/chapters/let-it-ride.yaml"
MS = ROOT / "tests/fixtures/chapters/mississippi-stud.yaml"
LIR_BETS = {"bet_1": 1, "bet_2": 1, "bet_3": 1}


def _game(path):
    mod, comp = load_game(path)
    game = mod.GAME
    return game, _active_steps(game, comp.chapter, Table(game, {}, seed=0)), comp


@pytest.mark.xdist_group("reduced_trees")  # the tree test_game_tree.py and test_deal_distribution.py solve too
def test_withdrawable_wagers_equal_the_game_tree_on_a_reduced_deck():
    game, steps, _ = _game(LIR)
    cards = ["AS", "KS", "QS", "JS", "TS", "AH", "KH"]
    deck = parse_cards(cards)
    # the game tree of this deck and these bets (analysis_fixtures.reduced_tree: played out once per process)
    mod, _, leaves = reduced_tree("let-it-ride.yaml", tuple(LIR_BETS.items()), tuple(cards))
    assert mod.GAME is game
    tree = optimal(leaves)
    sol = solve(game, steps, deck, {}, LIR_BETS)
    assert sol.expected_net == tree.total_net()
    assert sol.net == tree.expected_net


@pytest.mark.parametrize("cards", [["AS", "KS", "TS", "TH", "9H", "2C", "7D", "5S", "QD"],
                                   ["AS", "AH", "KS", "QS", "JS", "TD", "3C", "3H"]])
def test_withdrawable_wagers_equal_a_brute_force_on_reduced_decks(cards):
    game, steps, _ = _game(LIR)
    assert solve(game, steps, parse_cards(cards), {}, LIR_BETS).expected_net == _brute_force_optimal(tuple(cards))


@pytest.mark.parametrize("cards", [["AS", "AH", "KS", "QS", "JS", "6D"],
                                   ["AS", "KH", "QS", "7S", "7D", "6D", "2C", "9S"]])
def test_three_streets_of_raises_equal_a_brute_force_on_reduced_decks(cards):
    game, steps, _ = _game(MS)
    assert solve(game, steps, parse_cards(cards), {}, {"ante": 1}).expected_net == _ms_brute_force(tuple(cards))


def _round(path):
    game, _, comp = _game(path)
    rep = analyze(game, comp.chapter, {})
    (f,) = [f for f in rep.figures if len(f.stakes) > 1]
    return f, rep


def test_let_it_ride_full_deck_equals_the_published_house_edge(lir_report):
    """Wizard of Odds, Let It Ride (https://wizardofodds.com/games/let-it-ride/): house edge 3.51% of one
    unit bet under optimal strategy, paytable 1000/200/50/11/8/5/3/2/1 (the fixture's); 3.506% in
    https://wizardofodds.com/ask-the-wizard/let-it-ride/; element of risk 2.86%."""
    rep = lir_report  # analyze(let-it-ride.yaml, {}): once per process (analysis_fixtures.py)
    (f,) = [f for f in rep.figures if len(f.stakes) > 1]
    assert f.exact and f.policy == OPTIMAL
    assert round(float(-f.expected_return) * 100, 2) == 3.51
    assert round(float(-f.expected_return) * 100, 3) == 3.506
    assert round(float(-f.per_total_wagered) * 100, 2) == 2.86
    assert not rep.not_computed


def test_mississippi_stud_full_deck_equals_the_published_house_edge():
    """Wizard of Odds, Mississippi Stud (https://wizardofodds.com/games/mississippi-stud/): house edge
    4.91% of the Ante under optimal strategy, paytable 500/100/40/10/6/4/3/2/1/push (the fixture's);
    on average 3.59 units wagered; element of risk 4.91%/3.59 = 1.37%."""
    f, rep = _round(MS)
    assert f.exact and f.policy == OPTIMAL
    assert round(float(-f.expected_return) * 100, 2) == 4.91
    assert round(float(f.expected_return / f.per_total_wagered), 2) == 3.59
    assert round(float(-f.per_total_wagered) * 100, 2) == 1.37
    assert not rep.not_computed and set(f.stakes) == {"ante", "third", "fourth", "fifth"}


def test_a_dealer_hand_is_refused_with_the_reason():
    game, steps, _ = _game(ROOT / "rulespecs/567-war.yaml")
    with pytest.raises(Refused, match="dealer"):
        solve(game, steps, list(range(52)), {}, {"initial": 1})
