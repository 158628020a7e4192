"""Chapter 567 War, §§ 567.9-567.11 and whole sessions; §§ 567.5-567.8 are in test_567_war_deal.py.

The tests of the chapter and how they are written: tests/chapters/ch567.py.
"""
from __future__ import annotations

import sys
from decimal import Decimal

import pytest

from chapters import test_567_war_deal as deal
from chapters.ch567 import (
    scripted, result, log_cites,
)

from compiler.pipeline import ROOT, load_game
from compiler.runtime.cards import parse_card
from compiler.runtime.engine import CallbackStrategy, FixedStrategy

SPEC = "rulespecs/567-war.yaml"


# ------------------------------------------------------------------------------------------------
# § 567.9 Completion of the round
# ------------------------------------------------------------------------------------------------

def test_567_9_a_settled_from_dealers_left_clockwise(game):
    mod, _ = game
    t = scripted(mod, {(5, "original"): ["2S"], (1, "original"): ["AS"], ("dealer", "original"): ["9H"]})
    res = t.play_round({5: {"initial": 5}, 1: {"initial": 5}}, FixedStrategy(["war"]))
    settled = [e.seat for e in res.log if e.kind in ("win", "lose")]
    assert settled == [1, 5]


def test_567_9_a_1_lower_card_loses_initial_and_tie(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["7S"], ("dealer", "original"): ["8H"]})
    res = t.play_round({1: {"initial": 10, "tie": 3}}, FixedStrategy(["war"]))
    assert (result(res, 1, "initial").net, result(res, 1, "tie").net) == (Decimal("-10.00"), Decimal("-3.00"))
    assert result(res, 1, "initial").cites == ("§ 567.9(a)(1)",)


def test_567_9_a_2_higher_card_wins_initial_and_loses_tie(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["AS"], ("dealer", "original"): ["KH"]})
    res = t.play_round({1: {"initial": 10, "tie": 3}}, FixedStrategy(["war"]))
    assert result(res, 1, "initial").net == Decimal("10.00")
    assert result(res, 1, "tie").net == Decimal("-3.00")
    assert "§ 567.9(a)(2)" in result(res, 1, "initial").cites


def test_567_9_a_3_tie_hand_wins_tie_wager_and_offers_options(game):
    mod, _ = game
    seen = []
    strat = CallbackStrategy(lambda d, c, v: seen.append((d, tuple(c))) or "surrender")
    t = scripted(mod, {(1, "original"): ["5S"], ("dealer", "original"): ["5C"]})
    res = t.play_round({1: {"initial": 10, "tie": 1}}, strat)
    assert result(res, 1, "tie").net == Decimal("10.00")
    assert seen == [("tie_hand_option", ("surrender", "war"))]


def test_567_9_b_losing_wagers_collected_and_winners_paid_at_567_10(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["QS"], ("dealer", "original"): ["JH"]})
    res = t.play_round({1: {"initial": 25}}, FixedStrategy(["war"]))
    assert result(res, 1, "initial").cites == ("§ 567.9(a)(2)", "§ 567.10(1)")
    assert t.ledger.players == Decimal("25.00") and t.ledger.house == Decimal("-25.00")


def test_567_9_c_1_surrender_collects_half_and_returns_half(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["5S"], ("dealer", "original"): ["5C"]})
    res = t.play_round({1: {"initial": 25}}, FixedStrategy(["surrender"]))
    r = result(res, 1, "initial")
    assert (r.outcome, r.net) == ("surrender", Decimal("-12.50"))
    assert r.cites == ("§ 567.9(c)(1)",)


def test_567_9_c_2_war_surrenders_initial_and_places_equal_war_wager(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["5S"], ("dealer", "original"): ["5C"], (1, "war"): ["9S"],
                       ("dealer", "war"): ["2D"]})
    res = t.play_round({1: {"initial": 20}}, FixedStrategy(["war"]))
    assert result(res, 1, "initial").net == Decimal("-20.00")
    assert result(res, 1, "war").amount == Decimal("20.00")
    assert result(res, 1, "war").net == Decimal("40.00")  # 2 to 1


def test_567_9_d_original_deal_kept_for_reconstruction(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["5S"], (2, "original"): ["KD"], ("dealer", "original"): ["5C"],
                       (1, "war"): ["9S"], ("dealer", "war"): ["2D"]})
    res = t.play_round({1: {"initial": 5}, 2: {"initial": 5}}, FixedStrategy(["war"]))
    assert res.dealt["seat 2"] == {"original": ["KD"]}
    assert res.dealt["seat 1"] == {"original": ["5S"], "war": ["9S"]}
    assert "§ 567.9(d)" in [r[0] for r in mod.REQUIREMENTS]


def test_567_9_e_tie_wager_may_be_placed_on_war_deal(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["JS"],
                       ("dealer", "war"): ["JD"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"], {"war_tie": 2}))
    assert result(res, 1, "war_tie").cites == ("§ 567.9(g)(3)", "§ 567.10(2)")
    assert result(res, 1, "war_tie").net == Decimal("20.00")
    assert [e.cite for e in res.log if e.kind == "wager" and e.wager == "war_tie"] == ["§ 567.9(e)"]


def test_567_9_f_war_deal_burns_three_then_deals_players_then_dealer(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["8S"], (3, "original"): ["8H"], ("dealer", "original"): ["8C"],
                       (1, "war"): ["JS"], (3, "war"): ["2S"], ("dealer", "war"): ["9D"]},
                 burned=["AS", "AH", "AD"])
    res = t.play_round({1: {"initial": 5}, 3: {"initial": 5}}, FixedStrategy(["war"]))
    burns = [e for e in res.log if e.kind == "burn"]
    assert burns[-1].cite == "§ 567.9(f)" and burns[-1].text.startswith("3 cards")
    war_deals = [(e.seat, e.cite) for e in res.log if e.kind == "deal" and "(war)" in e.text]
    assert war_deals == [(1, "§ 567.9(f)"), (3, "§ 567.9(f)"), (None, "§ 567.9(f)")]


def test_567_9_g_1_lower_war_card_loses_war_and_tie(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["3S"],
                       ("dealer", "war"): ["9D"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"], {"war_tie": 1}))
    assert result(res, 1, "war").net == Decimal("-5.00")
    assert result(res, 1, "war_tie").net == Decimal("-1.00")


def test_567_9_g_2_higher_war_card_wins_war_at_2_to_1_and_loses_tie(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["KS"],
                       ("dealer", "war"): ["9D"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"], {"war_tie": 1}))
    assert result(res, 1, "war").net == Decimal("10.00")
    assert result(res, 1, "war_tie").net == Decimal("-1.00")


def test_567_9_g_3_war_deal_tie_pays_war_3_to_1_and_tie_10_to_1(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["KS"],
                       ("dealer", "war"): ["KD"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"], {"war_tie": 1}))
    assert result(res, 1, "war").net == Decimal("15.00")
    assert result(res, 1, "war_tie").net == Decimal("10.00")
    assert sum(r.net for r in res.results) == Decimal("20.00")  # -5 initial + 15 + 10


def test_567_9_h_war_deal_losers_collected_winners_paid_cards_kept(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["3S"],
                       ("dealer", "war"): ["9D"]})
    t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]))
    assert t.ledger.house == Decimal("10.00")  # Initial and War wagers both collected
    assert "§ 567.9(h)" in [r[0] for r in mod.REQUIREMENTS]


# ------------------------------------------------------------------------------------------------
# § 567.10 Payout odds
# ------------------------------------------------------------------------------------------------

def test_567_10_1_initial_wager_1_to_1(game):
    mod, _ = game
    assert str(mod.PAYOUTS["initial"].odds) == "1 to 1" and mod.PAYOUTS["initial"].cite == "§ 567.10(1)"


def test_567_10_2_tie_wager_10_to_1(game):
    mod, _ = game
    assert str(mod.PAYOUTS["tie"].odds) == "10 to 1"
    deal.test_567_7_c_tie_wager_with_initial_wager_pays_on_tie(game)


def test_567_10_3_war_wager_2_to_1_or_3_to_1_on_tie(game):
    mod, _ = game
    assert (str(mod.PAYOUTS["war"].odds), str(mod.PAYOUTS["war_tie_hand"].odds)) == ("2 to 1", "3 to 1")
    test_567_9_g_3_war_deal_tie_pays_war_3_to_1_and_tie_10_to_1(game)


# ------------------------------------------------------------------------------------------------
# § 567.11 Irregularities
# ------------------------------------------------------------------------------------------------

def test_567_11_a_one_face_up_card_is_discarded_and_not_used(game):
    mod, _ = game
    t = mod.new_table(seed=21)

    twin = mod.new_table(seed=21)
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]), [{"event": "face_up_card", "before": "deal_players"}])
    assert "§ 567.11(a)" in log_cites(res, "discard")
    # the discarded card is not dealt: the player gets the card after it
    twin_cards = twin.shoe.cards
    nxt = twin_cards[2]  # after the burn card and the face-up card
    from compiler.runtime.cards import card_str

    assert res.dealt["seat 1"]["original"] == [card_str(nxt)]
    assert not res.void


def test_567_11_a_more_than_one_face_up_card_voids_all_hands_and_reshuffles(game):
    mod, _ = game
    t = mod.new_table(seed=21)
    res = t.play_round({1: {"initial": 5, "tie": 1}, 2: {"initial": 10}}, FixedStrategy(["war"]),
                       [{"event": "face_up_card", "before": "deal_players", "count": 2}])
    assert res.void and res.reshuffled
    assert all(r.outcome == "void" and r.net == 0 for r in res.results)
    assert "§ 567.11(a)" in log_cites(res, "reshuffle")
    assert t.ledger.players == 0 and t.ledger.house == 0


def test_567_11_b_card_drawn_in_error_used_as_next_card(game):
    mod, _ = game
    t = mod.new_table(seed=8)
    twin = mod.new_table(seed=8)
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]), [{"event": "drawn_in_error", "before": "deal_players"}])
    twin_res = twin.play_round({1: {"initial": 5}}, FixedStrategy(["war"]))
    assert res.dealt == twin_res.dealt  # the same cards reach the same places
    assert "§ 567.11(b)" in log_cites(res, "use")


def test_567_11_c_card_not_dealt_voids_initial_and_tie(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["9H"], ("dealer", "original"): ["8D"]})
    res = t.play_round({1: {"initial": 10}, 3: {"initial": 15, "tie": 5}}, FixedStrategy(["war"]),
                       [{"event": "card_not_dealt", "before": "deal_players", "seat": 3}])
    assert result(res, 3, "initial").outcome == "void" and result(res, 3, "tie").outcome == "void"
    assert result(res, 1, "initial").net == Decimal("10.00")
    assert any("next round" in e.text for e in res.log if e.kind == "note")


def test_567_11_c_card_not_dealt_in_war_deal_completes_the_war_deal_under_567_9_f_g(game):
    # § 567.11(c) covers the original deal only (interpretation card-not-dealt-in-war-deal): the
    # skipped player receives the War deal card and the War and Tie wagers are settled by § 567.9(g)
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["7H"], (1, "war"): ["JD"], (4, "original"): ["7C"], (4, "war"): ["4D"],
                       ("dealer", "original"): ["7S"], ("dealer", "war"): ["9C"]}, burned=["2D", "3D", "5D"])
    strat = CallbackStrategy(lambda d, ids, v: "war", lambda w, v: Decimal(5) if v.seat == 1 else Decimal(0))
    res = t.play_round({1: {"initial": 10}, 4: {"initial": 25}}, strat,
                       [{"event": "card_not_dealt", "before": "war_deal_players", "seat": 1}])
    # JD beats 9C: War wager paid 2 to 1 (§ 567.10(3)): 10 x 2; the Tie wager on the War deal lost
    war_w = result(res, 1, "war")
    assert war_w.outcome == "win" and war_w.net == Decimal(20) and "§ 567.9(g)(2)" in war_w.cites
    assert result(res, 1, "war_tie").net == Decimal(-5)
    assert result(res, 1, "initial").net == Decimal(-10)  # collected when going to War (§ 567.9(e))
    assert result(res, 4, "war").net == Decimal(-25)  # 4D loses to 9C (§ 567.9(g)(1))
    assert "§ 567.9(f)" in log_cites(res, "note")
    assert not any(r.outcome == "void" for r in res.results)


def test_567_11_c_card_not_dealt_in_war_deal_hand_history_settles(capsys):
    from compiler.cli import main

    f = "rulespecs/rounds/567-war-card-not-dealt-in-war-deal.yaml"
    assert main(["settle", SPEC, f, "--format", "json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["net_by_seat"] == {"1": "5.00", "4": "-50.00"}  # -10 + 20 - 5; -25 - 25


def test_567_11_d_shuffler_jam_reshuffles(game):
    mod, _ = game
    t = mod.new_table({"automated_shuffler": True, "decks": 12}, seed=8)
    before = t.shoe.shuffles
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]), [{"event": "shuffler_malfunction", "before": "no_more_bets"}])
    assert t.shoe.shuffles == before + 1
    assert "§ 567.11(d)" in log_cites(res, "reshuffle")


def test_567_3_c_shuffler_batches_make_a_shoe_of_half_the_decks(game):
    mod, _ = game
    assert mod.new_table({"automated_shuffler": True, "decks": 14}, seed=1).shoe.decks == 7
    assert mod.new_table({"decks": 8}, seed=1).shoe.decks == 8


# ------------------------------------------------------------------------------------------------
# Whole sessions
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", ["war", "surrender"])
def test_567_money_is_conserved_over_whole_shoes_with_seven_positions(game, policy):
    mod, _ = game
    t = mod.new_table({"decks": 8}, seed=1234)
    for i in range(1500):
        t.play_round({s: {"initial": 5, "tie": 1} for s in range(1, 8)}, FixedStrategy([policy], {"war_tie": 1}))
    assert t.ledger.balance() == 0
    assert len(t.reshuffles) >= 10
    assert t.ledger.players != 0


def test_567_strategy_callback_is_consulted_with_the_view(game):
    mod, _ = game
    views = []

    def choose(decision, choices, view):
        views.append(view)
        return "war"

    t = scripted(mod, {(1, "original"): ["5S"], ("dealer", "original"): ["5C"], (1, "war"): ["9S"],
                       ("dealer", "war"): ["2D"]})
    t.play_round({1: {"initial": 20}}, CallbackStrategy(choose))
    assert views[0].cards == {"original": (parse_card("5S"),)}
    assert views[0].dealer == {"original": (parse_card("5C"),)}


def test_567_every_numbered_provision_of_5_and_7_to_11_has_a_test():
    """Each numbered provision of §§ 567.5 and 567.7-567.11 is named by a test of this module or of
    test_567_war_deal.py (test_567_9_c_1_... covers § 567.9(c)(1) and its parents)."""
    names = [n for m in (sys.modules[__name__], deal) for n in dir(m) if n.startswith("test_567_")]
    _, compiled = load_game(SPEC)
    wanted = []

    def walk(section, nodes, path):
        for n in nodes or ():
            p = path + (n["label"],)
            wanted.append((section, p))
            walk(section, n.get("children"), p)

    for s in compiled.chapter.data["provisions"]:
        if s["section"] in ("567.5", "567.7", "567.8", "567.9", "567.10", "567.11"):
            walk(s["section"], s.get("children"), ())
    assert len(wanted) > 40
    missing = []
    for section, path in wanted:
        key = "test_" + section.replace(".", "_") + "_" + "_".join(p.lower() for p in path) + "_"
        if not any(n.startswith(key) or n + "_" == key for n in names):
            missing.append(f"§ {section}" + "".join(f"({p})" for p in path))
    assert missing == []


def test_567_settle_a_round_under_the_casinos_rules_submission(tmp_path, capsys):
    """A hand history may name the Rules Submission it was played under; its selections apply."""
    from compiler.cli import main

    assert main(["settle", SPEC, "rulespecs/rounds/567-war-under-a-submission.yaml", "--format", "json"]) == 0
    out = capsys.readouterr().out
    import json

    data = json.loads(out)
    # surrender of half of $20 (-10) and the $5 Tie wager at 10 to 1 (+50)
    assert data["net_by_seat"] == {"5": "40.00"}
    # the same history on two positions of one player: Keystone Valley allows no adjacent position
    text = (ROOT / "rulespecs/rounds/567-war-adjacent-positions.yaml").read_text(encoding="utf-8")
    p = tmp_path / "adjacent.yaml"
    p.write_text(text.replace("options: {adjacent_positions: 1}",
                              "submission: rulespecs/submissions/567-war-keystone-manual.yaml"), encoding="utf-8")
    assert main(["settle", SPEC, str(p)]) == 1
    assert "at most 1" in capsys.readouterr().err
