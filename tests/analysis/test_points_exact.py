"""The points method (compiler/analysis/points_exact.py) on the Mini-Baccarat test chapter
(tests/fixtures/chapters/mini-baccarat.yaml, NOT official text).

* 8 decks: the house edges Michael Shackleford (Wizard of Odds) publishes for baccarat,
  https://wizardofodds.com/games/baccarat/ : Banker 1.0579%, Player 1.2351%, Tie (8 to 1) 14.3596%.
* Proved independently: equal, fraction for fraction, to the engine's enumeration of every rank path
  (compiler/analysis/exact_engine.py, no classes, no transposition table, no settlement cache) on reduced
  shoes; and within four standard errors of a seeded simulation of whole shoes played by the engine.
* Refusals: a construct the method does not declare makes it refuse, naming it."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from compiler.analysis import points_exact
from compiler.analysis.exact_engine import enumerate_round
from compiler.analysis.model import pct
from compiler.analysis.report import analyze
from compiler.analysis.simulate import simulate
from compiler.pipeline import compile_spec, load_game
from compiler.values.cards import rank_index

ROOT = Path(__file__).resolve().parents[2]
BACCARAT = ROOT / "tests/fixtures/chapters/mini-baccarat.yaml"
WAGERS = ("player", "banker", "tie")


@pytest.fixture(scope="module")
def game():
    mod, comp = load_game(BACCARAT)
    return mod.GAME, comp.chapter


@pytest.fixture(scope="module")
def report(game):
    return analyze(*game)


def test_8_decks_gives_the_published_house_edges_exactly(report):
    """Wizard of Odds, https://wizardofodds.com/games/baccarat/ (8 decks): Banker 1.0579%, Player 1.2351%,
    Tie 14.3596%."""
    figs = {f.wager: f for f in report.figures}
    assert set(figs) == set(WAGERS) and not report.not_computed
    assert all(f.exact and f.method.startswith("exact: points method") for f in figs.values())
    assert pct(figs["banker"].house_edge) == "1.0579%"
    assert pct(figs["player"].house_edge) == "1.2351%"
    assert pct(figs["tie"].house_edge) == "14.3596%"
    # one distribution read three ways: the Player wins when the Banker loses, both push on a tie
    p, b, t = figs["player"].outcomes, figs["banker"].outcomes, figs["tie"].outcomes
    assert p["win"] == b["lose"] and p["lose"] == b["win"] and p["push"] == b["push"] == t["win"]
    assert sum(p.values()) == 1
    assert figs["banker"].expected_return == b["win"] * Fraction(19, 20) - b["lose"]
    assert figs["tie"].expected_return == 8 * t["win"] - t["lose"]


# reduced shoes (rank -> number of cards): each exercises naturals, both third cards and the table's rows
SHOES = {
    "zeros, 2, 5, 7": {"K": 3, "2": 2, "5": 2, "7": 2},
    "ace, 3, 6, 8, 9": {"A": 2, "3": 2, "6": 1, "8": 2, "9": 1},
    "4, 6, queen": {"4": 3, "6": 3, "Q": 3},
}


@pytest.mark.parametrize("shoe", list(SHOES), ids=list(SHOES))
def test_equal_to_the_engine_enumeration_of_every_path_on_a_reduced_shoe(game, shoe):
    g, chapter = game
    composition = {rank_index(r): n for r, n in SHOES[shoe].items()}
    figs, _ = points_exact.analyze_points(g, chapter, composition=composition)
    slow = enumerate_round(g, {w: 1 for w in WAGERS}, counts={r * 4: n for r, n in composition.items()})
    assert slow.total_prob == 1
    for f in figs:
        st = slow.wagers[f.wager]
        assert f.expected_return == st.expected_net, f.wager
        assert f.outcomes == {o: p for o, p in st.outcomes.items() if p}, f.wager


def test_within_four_standard_errors_of_a_seeded_simulation(game, report):
    g, chapter = game
    sim = simulate(g, rounds=6000, seed=906, bets={w: 1 for w in WAGERS}, workers=1, chapter=chapter)
    figs = {f.wager: f for f in report.figures}
    for w in WAGERS:
        est = sim.per_unit[w]
        assert est.n == 6000 and est.se() > 0
        assert abs(est.mean() - float(figs[w].expected_return)) < 4 * est.se(), (w, est.mean(), est.se())


def _variant(tmp_path, old, new):
    text = BACCARAT.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "mini-baccarat.yaml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    mod, comp = load_game(p)
    return mod.GAME, comp.chapter


def test_a_step_kind_it_does_not_declare_is_refused_by_name(tmp_path):
    g, chapter = _variant(tmp_path, "  - id: settle\n    do: settle\n",
                          "  - id: peek\n    do: decide\n    cite: § 906.6(c)\n    choices:\n"
                          "      - {id: look, cite: § 906.6(c)}\n      - {id: pass, cite: § 906.6(c)}\n"
                          "  - id: settle\n    do: settle\n")
    why = points_exact.refusal(g, chapter)
    assert why is not None and "step peek (§ 906.6(c)) is a 'decide' step" in why
    rep = analyze(g, chapter, simulate_refused=False)  # the exact method's own refusal, not the simulation's figure
    assert not rep.figures and {n.wager for n in rep.not_computed} == set(WAGERS)
    assert all("decide" in n.reason for n in rep.not_computed), [n.reason for n in rep.not_computed]


def test_a_dealing_condition_that_reads_a_seat_is_refused(tmp_path):
    """`validate` refuses a step's condition that reads a player (compiler/lint/playable.py); the method refuses it
    too, on its own, for a chapter built without the lint (its IR and game as the pipeline makes them)."""
    from compiler.ir.build import build_ir
    from compiler.runtime.from_ir import game_of
    from compiler.spec.loader import load_document

    old, new = "when: total(community.player) <= 5", "when: total(community.player) <= 5 and has(tie)"
    text = BACCARAT.read_text(encoding="utf-8").replace(old, new, 1)
    assert any("but has(tie) reads a player" in d.format() for d in compile_spec("b.yaml", text).errors)
    chapter, _, _ = build_ir(load_document("b.yaml", text))
    why = points_exact.refusal(game_of(chapter), chapter)
    assert why is not None and "step player_third (§ 906.7(a)) reads has()" in why


def test_a_function_added_to_the_language_without_a_declaration_is_refused(game, monkeypatch):
    """An allow-list: a construct the method has not declared (here: one it declares removed) refuses it."""
    g, chapter = game
    assert points_exact.refusal(g, chapter) is None
    monkeypatch.setattr(points_exact, "STEP_FUNCTIONS", points_exact.STEP_FUNCTIONS - {"points"})
    why = points_exact.refusal(g, chapter)
    assert why is not None and "reads points()" in why


def test_zones_are_multisets_keeping_the_cards_at_the_positions_read(game):
    g, chapter = game
    walk = points_exact.PointsWalk(g, chapter)
    assert dict(zip(walk.zones, walk.mode)) == {("community", "player"): "pos", ("community", "banker"): "sum"}
    assert walk.read_at[0] == {3}
    # the Player hand 9, 2, then 0: read as 3 cards of 11 points (no soft card) with a 0 third
    nine, two, zero = (walk.classes.index([rank_index(r) for r in rs]) for rs in (["9"], ["2"], ["T", "J", "Q", "K"]))
    z = walk._child(0, walk._child(0, walk._child(0, ((), ()), nine), two), zero)
    assert z == (tuple(sorted((nine, two, zero))), (zero,))
    assert walk._zone_key(0, z) == (3, 11, False, (zero,))
    assert [c >> 2 for c in walk._cards_of(0, z)][2] == rank_index("T")
    assert len(walk.classes) == 10 and walk.counts[walk.classes.index([rank_index("T"), rank_index("J"),
                                                                       rank_index("Q"), rank_index("K")])] == 128


def test_a_card_read_by_position_across_zones_is_refused(tmp_path):
    g, chapter = _variant(tmp_path, "points(card(community.player, 3)) != 8", "points(card(community, 5)) != 8")
    why = points_exact.refusal(g, chapter)
    assert why is not None and "card(community, 5)" in why and "within one zone" in why


# EZ Baccarat (tests/fixtures/chapters/ez-baccarat.yaml, NOT official text): written in another style (two
# cards dealt at once, third cards in zones of their own, totals of joined zones, no hand() comparison)
EZ = ROOT / "tests/fixtures/chapters/ez-baccarat.yaml"
EZ_WAGERS = ("player", "banker", "tie", "dragon_7", "panda_8")


@pytest.fixture(scope="module")
def ez():
    mod, comp = load_game(EZ)
    return mod.GAME, comp.chapter


def test_ez_baccarat_gives_the_published_house_edges(ez):
    """Wizard of Odds, https://wizardofodds.com/games/baccarat/ez-baccarat/ (8 decks): Banker (a three-card 7
    pushes, no commission) 1.0183%, Dragon 7 (40 to 1) 7.61%, Panda 8 (25 to 1) 10.19%; Player and Tie as
    in baccarat, https://wizardofodds.com/games/baccarat/ : 1.2351%, 14.3596%."""
    rep = analyze(*ez)
    figs = {f.wager: f for f in rep.figures}
    assert set(figs) == set(EZ_WAGERS) and all(f.exact for f in figs.values())
    assert [pct(figs[w].house_edge) for w in ("player", "banker", "tie")] == ["1.2351%", "1.0183%", "14.3596%"]
    assert pct(figs["dragon_7"].house_edge, 2) == "7.61%" and pct(figs["panda_8"].house_edge, 2) == "10.19%"
    # the Banker's three-card 7 win is the Dragon 7's win, and a push of the Banker wager
    assert figs["dragon_7"].outcomes["win"] == figs["banker"].outcomes["push"] - figs["tie"].outcomes["win"]


def test_ez_baccarat_equal_to_the_engine_enumeration_on_a_reduced_shoe(ez):
    g, chapter = ez
    composition = {rank_index(r): n for r, n in {"K": 2, "3": 2, "4": 2, "7": 2, "8": 1}.items()}
    figs, _ = points_exact.analyze_points(g, chapter, composition=composition)
    slow = enumerate_round(g, {w: 1 for w in EZ_WAGERS}, counts={r * 4: n for r, n in composition.items()})
    for f in figs:
        assert f.expected_return == slow.wagers[f.wager].expected_net, f.wager
        assert f.outcomes == {o: p for o, p in slow.wagers[f.wager].outcomes.items() if p}, f.wager


def test_ez_baccarat_zones_are_all_read_by_point_sums(ez):
    walk = points_exact.PointsWalk(*ez)
    assert walk.zones == [("community", "player"), ("community", "banker"), ("community", "player_third"),
                          ("community", "banker_third")]
    assert walk.mode == ["sum"] * 4


def test_a_settle_step_under_its_own_card_condition_is_settled_by_what_that_condition_reads(tmp_path):
    """A tie of two naturals paid even money by a settle step of its own (its `when` reads the cards): the
    settle rules alone read the same on every tie, so the cache must key on the step's condition too."""
    g, chapter = _variant(tmp_path, "  - id: settle\n    do: settle\n",
                          "  - id: settle_natural_ties\n    do: settle\n    cite: § 906.6(d)\n"
                          "    when: natural(community.player) and natural(community.banker)\n    rules:\n"
                          "      - {cite: § 906.6(d), when: \"hand(baccarat, community.player) == "
                          "hand(baccarat, community.banker)\", then: push player; push banker; win tie at even_money}\n"
                          "  - id: settle\n    do: settle\n")
    composition = {rank_index(r): n for r, n in {"K": 3, "8": 3, "9": 2, "4": 2}.items()}
    figs, _ = points_exact.analyze_points(g, chapter, composition=composition)
    slow = enumerate_round(g, {w: 1 for w in WAGERS}, counts={r * 4: n for r, n in composition.items()})
    for f in figs:
        assert f.expected_return == slow.wagers[f.wager].expected_net, f.wager
    mod, comp = load_game(BACCARAT)
    plain, _ = points_exact.analyze_points(mod.GAME, comp.chapter, composition=composition)
    tie = {f.wager: f for f in figs}["tie"].expected_return
    assert tie < {f.wager: f for f in plain}["tie"].expected_return     # the variant pays less on some ties


def test_a_walk_beyond_its_budget_of_positions_is_refused_cleanly(game, monkeypatch):
    g, chapter = game
    with pytest.raises(points_exact.PointsLimit, match="more than 100 positions"):
        points_exact.analyze_points(g, chapter, max_positions=100)
    real = points_exact.analyze_points
    monkeypatch.setattr(points_exact, "analyze_points", lambda *a, **k: real(*a, **k, max_positions=100))
    rep = analyze(g, chapter, simulate_refused=False)  # the exact method's own refusal, not the simulation's figure
    assert not rep.figures and {n.wager for n in rep.not_computed} == set(WAGERS)
    assert all("more than 100 positions" in n.reason for n in rep.not_computed)


DEALER_BUST = """\
rulespec: 1
chapter: "908"
title: Dealer Bust (test, not official text)
source: {citation: 99 Pa.B. 908, date: "2099-01-01"}
completeness: complete
table: {cite: § 908.2, max_positions: 7}
cards:
  deck: {cards: 52, jokers: 0, cite: § 908.3}
  decks: 6
  reshuffle: {when: every_round, cite: § 908.3}
rankings:
  blackjack:
    cite: § 908.4
    kind: points
    points: {A: 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, T: 10, J: 10, Q: 10, K: 10}
    soft: {rank: A, plus: 10}
    bust: 21
wagers:
  bust: {name: Dealer Bust, cite: § 908.5, pays: even_money}
payouts:
  even_money: {odds: 1 to 1, cite: § 908.7}
procedure:
  - {id: deal, do: deal, to: dealer, zone: cards, count: 2, face: up, cite: § 908.6(a)}
DRAWS
  - id: settle
    do: settle
    cite: § 908.6(c)
    rules:
      - {cite: § 908.6(c), when: "bust(dealer.cards)", then: win bust}
      - {cite: § 908.6(c), when: "not bust(dealer.cards)", then: lose bust}
text_facts:
  - {cite: § 908.2, says: seven positions, why: the table}
  - {cite: § 908.3, says: Six decks of 52 cards, why: "cards.deck and cards.decks"}
  - {cite: § 908.4, says: "an ace 1 or 11, a ten or a face card 10; above 21", why: "the ranking blackjack"}
provisions:
  - {section: "908.2", heading: Table., text: Dealer Bust is played at a table with seven positions.}
  - {section: "908.3", heading: Cards., text: "Six decks of 52 cards, shuffled before each round."}
  - {section: "908.4", heading: Points., text: "Cards count their number, an ace 1 or 11, a ten or a face card 10; above 21 a hand busts."}
  - {section: "908.5", heading: Wagers., text: A player may wager that the dealer busts.}
  - section: "908.6"
    heading: Play.
    children:
      - {label: a, text: The dealer receives 2 cards.}
      - {label: b, text: "The dealer draws 1 card at a time while the total is below 17, and on a soft 17."}
      - {label: c, text: The wager wins when the dealer busts and loses otherwise.}
  - {section: "908.7", heading: Payouts., text: The wager is paid 1 to 1.}
"""


def test_soft_totals_and_busts_walked_equal_the_engine_enumeration(tmp_path):
    """A dealer who draws to 17 and hits a soft 17 (blackjack points: an ace 1 or 11, bust above 21), unrolled
    as conditional draws (a test of the walk's point sums with a soft card, not a chapter of issue 23)."""
    draw = ("  - {id: draw_N, do: deal, to: dealer, zone: cards, count: 1, face: up, cite: § 908.6(b),\n"
            "     when: \"total(dealer.cards) < 17 or total(dealer.cards) == 17 and soft(dealer.cards)\"}")
    p = tmp_path / "908-dealer-bust.yaml"
    p.write_text(DEALER_BUST.replace("DRAWS", "\n".join(draw.replace("_N", f"_{i}") for i in range(8))),
                 encoding="utf-8")
    mod, comp = load_game(p)
    g, chapter = mod.GAME, comp.chapter
    assert points_exact.refusal(g, chapter) is None
    walk = points_exact.PointsWalk(g, chapter)
    assert walk.mode == ["sum"] and len(walk.classes) == 10          # the four ten-point ranks are one class
    composition = {rank_index(r): n for r, n in {"A": 3, "2": 2, "6": 2, "5": 1, "K": 3}.items()}
    figs, _ = points_exact.analyze_points(g, chapter, composition=composition)
    slow = enumerate_round(g, {"bust": 1}, counts={r * 4: n for r, n in composition.items()})
    (f,) = figs
    assert f.expected_return == slow.wagers["bust"].expected_net and f.outcomes["win"] > 0
    # through the engine: A-6 (a soft 17) draws a 4, a soft 21, and stands; K-6 draws a 9 and busts
    from compiler.runtime.cards import parse_cards
    from compiler.runtime.shoe import ScriptedShoe

    for cards, outcome in ((["AS", "6D", "4C"], "lose"), (["KS", "6D", "9C"], "win")):
        t = mod.new_table({}, shoe=ScriptedShoe({("dealer", None, "cards"): parse_cards(cards)}))
        res = t.play_round({1: {"bust": 5}})
        assert res.dealt["dealer"]["cards"] == cards and res.results[0].outcome == outcome
