"""The dealer-hand route (compiler/analysis/dealer.py::solve_dealer, card removal by
compiler/analysis/removal.py) on the Caribbean Stud Poker test fixture (tests/fixtures/chapters/caribbean-stud.yaml,
NOT official text): equal to a brute force written here on reduced decks (every deal, the round engine
settling each), and on the full deck equal to the figure Wizard of Odds publishes."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import pytest

from compiler.analysis import deal_common, dealer, deals
from compiler.analysis.model import OPTIMAL
from compiler.analysis.card_routes import _active_steps
from compiler.pipeline import load_game
from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import Table

from analysis_fixtures import hand_scores

ROOT = Path(__file__).resolve().parents[2]
CSP = ROOT / "tests/fixtures/chapters/caribbean-stud.yaml"


@pytest.fixture(scope="module")
def csp():
    mod, comp = load_game(CSP)
    g = mod.GAME
    return g, _active_steps(g, comp.chapter, Table(g, {}, seed=0))


def _brute_force(game, deck):
    """Every deal of the fixture's order (5 to the player, 4 down and 1 up to the dealer); for every view
    (player's cards, the dealer's up card) the choice of largest expected net over the dealer's hole cards;
    each round settled by the engine (memoised on the two hands' values under the fixture's ranking)."""
    v = hand_scores(game, "five_card")

    memo: dict = {}
    rk: dict = {}

    def net(P, T, u, choice):
        key = (v(P), v(T + (u,)), choice)
        if key not in memo:
            _, nets, _ = deal_common._play(game, {}, {"ante": Decimal(1)}, list(P) + list(T) + [u], (choice,), rk, True)
            memo[key] = sum(nets.values(), Fraction(0))
        return memo[key]

    total, acc = 0, Fraction(0)
    always = {"call": Fraction(0), "fold": Fraction(0)}
    for P in combinations(deck, 5):
        rest = [c for c in deck if c not in P]
        for u in rest:
            others = [c for c in rest if c != u]
            holes = list(combinations(others, 4))
            each = {ch: sum(net(P, T, u, ch) for T in holes) for ch in ("call", "fold")}
            acc += max(each.values())
            for ch in always:
                always[ch] += each[ch]
            total += len(holes)
    return acc / total, {ch: x / total for ch, x in always.items()}


@pytest.mark.parametrize("cards, permutations", [
    # two suits of A K 5 4 3 2: straights, flushes, every kind of dealer hand; suits symmetric
    ("AS KS 5S 4S 3S 2S AH KH 5H 4H 3H 2H", 2),
    # one card fewer: no suit permutation keeps the deck (the route then counts without symmetry)
    ("AS KS 5S 4S 3S 2S AH KH 5H 4H 3H", 1),
    # four suits of three ranks: all 24 suit permutations, the up card fixed by 6 of them
    ("AS AH AD AC KS KH KD KC 2S 2H 2D 2C", 24),
])
def test_dealer_route_equals_brute_force_on_a_reduced_deck(csp, cards, permutations):
    game, steps = csp
    deck = sorted(parse_cards(cards.split()))
    sol = deals.solve(game, steps, deck, {}, {"ante": 1})
    assert f"; {permutations} suit permutations" in sol.method
    assert sol.sets == comb(len(deck), 5) * comb(len(deck) - 5, 4) * (len(deck) - 9)
    best, always = _brute_force(game, deck)
    assert sol.expected_net == best
    assert {h: pn for h, (pn, _) in sol.policies.items()} == {("call",): always["call"], ("fold",): always["fold"]}


# Wizard of Odds (Michael Shackleford), https://wizardofodds.com/games/caribbean-stud-poker/ , "Strategy Statistics
# in Caribbean Stud Poker" (stored copy: https://toho-talent.com/2022/04/14/caribbean-stud-poker-strategy/):
# perfect strategy, paytable 100/50/20/7/5/4/3/2/1 and ace-king 1 to 1, total loss 1,041,372,912,372 over all
# 19,933,230,517,200 combinations; house edge 5.224%, element of risk (per total wagered) 2.555%; "playing
# blind (raise on everything)": total loss 3,310,360,338,060, house edge 16.607%, element of risk 5.536%.
WOO_TOTAL_LOSS = 1_041_372_912_372
WOO_BLIND_TOTAL_LOSS = 3_310_360_338_060
WOO_COMBINATIONS = 19_933_230_517_200


@pytest.fixture(scope="module")
def csp_figures():
    from compiler.analysis.report import analyze

    mod, comp = load_game(CSP)
    rep = analyze(mod.GAME, comp.chapter, {})
    assert not rep.not_computed
    return {f.policy.text: f for f in rep.figures if f.stakes == ("ante", "call")}


@pytest.fixture(scope="module")
def csp_figure(csp_figures):
    return csp_figures["optimal strategy"]


def test_caribbean_stud_house_edge_equals_wizard_of_odds_exactly(csp_figure):
    f = csp_figure
    assert f.policy == OPTIMAL and f.method.startswith("exact")
    assert f.expected_return == Fraction(-WOO_TOTAL_LOSS, WOO_COMBINATIONS)
    assert f"{float(-f.per_total_wagered):.3%}" == "2.555%"
    assert "19,933,230,517,200 deals" in f.method


def test_caribbean_stud_always_calling_equals_wizard_of_odds_playing_blind(csp_figures):
    f = csp_figures["always call"]
    assert f.expected_return == Fraction(-WOO_BLIND_TOTAL_LOSS, WOO_COMBINATIONS)
    assert f"{float(-f.per_total_wagered):.3%}" == "5.536%"
    assert csp_figures["always fold"].expected_return == -1


def test_caribbean_stud_distribution_of_the_net_result(csp_figure):
    f = csp_figure
    dist = {Fraction(k): p for k, p in f.outcomes.items()}
    assert sum(dist.values()) == 1
    assert sum(k * p for k, p in dist.items()) == f.expected_return
    # a fold loses the Ante (-1); a called hand loses 3, pushes (0), or wins 1 (dealer does not qualify)
    # up to 1 + 2 x 100 (royal flush)
    assert min(dist) == -3 and max(dist) == 201 and {-1, 0, 1, 3, 5} <= set(dist)
    assert f.hit_frequency == sum(p for k, p in dist.items() if k > 0)


def _variant(tmp_path, *edits):
    text = CSP.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    p = tmp_path / "variant.yaml"
    p.write_text(text, encoding="utf-8")
    mod, comp = load_game(p)
    g = mod.GAME
    return g, _active_steps(g, comp.chapter, Table(g, {}, seed=0))


def test_dealer_cards_dealt_after_the_decision_are_refused_with_the_reason(tmp_path):
    extra = "  - {id: deal_more, do: deal, to: dealer, zone: more, count: 1, face: down, cite: § 903.6(c)}\n"
    game, steps = _variant(tmp_path, ("  - {id: reveal_dealer,", extra + "  - {id: reveal_dealer,"),
                           ("untied:\n", "untied:\n  - {at: /procedure/4/count, why: a test variant}\n"))
    with pytest.raises(deals.Refused, match="deals cards after a decision"):
        dealer.dealer_plan(game, steps)


def test_a_hand_judged_on_part_of_the_dealers_cards_is_refused_with_the_reason(tmp_path):
    game, steps = _variant(tmp_path, ("hand(five_card, player.hand) < hand(five_card, dealer.cards)",
                                      "hand(five_card, player.hand) < hand(five_card, dealer.down)"))
    with pytest.raises(deals.Refused, match="part of the dealer's cards"):
        dealer.dealer_plan(game, steps)


def test_what_the_player_sees_of_the_dealer_is_read_from_the_deal_steps(tmp_path):
    # all five dealer cards face down: the player decides on the seat's cards alone
    game, steps = _variant(tmp_path, ("zone: up, count: 1, face: up", "zone: up, count: 1, face: down"))
    assert dealer.dealer_plan(game, steps).visible == 0


def test_the_game_tree_information_set_holds_only_the_dealer_cards_the_player_sees(csp):
    """tree.py (the general analyzer) keys a decision by the player's view; the engine's view lists the
    dealer's face-down cards too, so the tree keeps only the zones dealt face up or revealed before it."""
    from compiler.analysis.game_tree import _dealer_visible, _view_key
    from compiler.runtime.engine import PlayerView

    game, _ = csp
    visible = _dealer_visible(game)
    assert visible == {"call_or_fold": frozenset({"up"})}
    a = PlayerView(1, {"hand": (0, 1, 2, 3, 4)}, {"down": (10, 11, 12, 13), "up": (20,)}, (), {"ante": Decimal(1)})
    b = PlayerView(1, {"hand": (0, 1, 2, 3, 4)}, {"down": (14, 15, 16, 17), "up": (20,)}, (), {"ante": Decimal(1)})
    assert _view_key("call_or_fold", a, visible) == _view_key("call_or_fold", b, visible)
    assert _view_key("call_or_fold", a, visible) != _view_key(
        "call_or_fold", PlayerView(1, a.cards, {"down": a.dealer["down"], "up": (21,)}, (), a.wagers), visible)
