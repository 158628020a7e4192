"""Chapter 669a Raise It Up Stud Poker, §§ 669a.11-669a.13, sessions and the coverage check; §§
669a.5-669a.10 are in test_669a_deal.py.

The tests of the chapter and how they are written: tests/chapters/ch669a.py.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chapters import test_669a_deal
from chapters.provisions import numbered_provisions
from chapters.ch669a import (
    ROUNDS, D, covers, COVERED, play, net, bonuses, seat_net, cites, requirement, violated, PLAY3, PLAY2_AT_4TH, PLAY1_AT_5TH, FOLD, PROG, SIX,
)

from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import CallbackStrategy

SPEC = "rulespecs/669a-raise-it-up-stud-poker.yaml"


# ------------------------------------------------------------------------------------------------
# § 669a.11 Completion of the round
# ------------------------------------------------------------------------------------------------

@covers("§ 669a.11(a)", "§ 669a.11(a)(1)", "§ 669a.11(a)(2)")
def test_669a_11_a_1_2_players_handle_their_own_cards_encoded(data):
    assert requirement(data, "§ 669a.11(a)(1)")[0]["step"] == "first_decision"
    assert requirement(data, "§ 669a.11(a)(2)")[0]["step"] == "first_decision"


@covers("§ 669a.11(a)(3)")
def test_669a_11_a_3_exchanging_information_forfeits_all_wagers(mod):
    dealt = {2: "QD QS 5C", 3: "TS TD 3H", "community": "6C AD 2H"}
    _, res = play(mod, {2: {"ante": 10, "blind": 10, "pair_plus": 5}, 3: {"ante": 5, "blind": 5}}, dealt,
                  {2: {"first_decision": "play_2x"}, 3: PLAY1_AT_5TH}, {"dealing_method": "hand",
                                                                        "automated_shuffler": True},
                  [{"event": "information_exchanged", "after": "first_decision", "seat": 2}])
    # Ante 10 + Blind 10 + Pair Plus 5 (a pair of queens would have won) + Play 20: all forfeited
    assert seat_net(res, 2) == D(-45)
    assert all(r.cites == ("§ 669a.11(a)(3)",) for r in res.results if r.seat == 2)
    # seat 3: pair of 10s; Ante 1 to 1 +5, Play 5 at 1 to 1 +5, Blind push
    assert seat_net(res, 3) == D(10)


@covers("§ 669a.11(b)")
def test_669a_11_b_play_wager_of_three_two_or_one_times_the_ante_or_check(mod):
    seen = {}
    dealt = {1: "AH 9H 4H", 2: "2C 3D 9S", 3: "KC QC 7S", 5: "JD JS 8C", "community": "KH 2H 6H"}
    ch = {1: PLAY3, 2: PLAY1_AT_5TH, 3: {"first_decision": "play_1x"}, 5: {"first_decision": "play_2x"}}
    _, res = play(mod, {s: {"ante": 5, "blind": 5} for s in dealt if s != "community"}, dealt, ch, seen=seen)
    assert seen[(1, "first_decision")] == ["play_3x", "play_2x", "play_1x", "check"]
    assert [net(res, s, "play").amount for s in (1, 2, 3, 5)] == [D(15), D(5), D(5), D(10)]
    # seat 1: flush A-K-9-6-4 of hearts; Play 15 at 5 to 1 = +75, Ante +5, Blind 3 to 1 = +15
    assert net(res, 1, "play").net == D(75)
    assert seat_net(res, 1) == D(95)
    assert [e.seat for e in res.log if e.kind == "decision" and "first_decision" in e.text] == [1, 2, 3, 5]


@covers("§ 669a.11(c)", "§ 669a.11(e)", "§ 669a.11(h)")
def test_669a_11_c_e_h_community_cards_revealed_one_at_a_time_after_each_round_of_decisions(mod):
    dealt = {1: "2C 3D 9S", 4: "4H 4S 8D", "community": "KD 7C 5S"}
    _, res = play(mod, {1: {"ante": 5, "blind": 5}, 4: {"ante": 5, "blind": 5}}, dealt,
                  {1: PLAY1_AT_5TH, 4: FOLD})
    seq = [(e.kind, e.cite) for e in res.log if e.kind in ("decision", "reveal")]
    assert seq == [("decision", "§ 669a.11(b)"), ("decision", "§ 669a.11(b)"), ("reveal", "§ 669a.11(c)"),
                   ("decision", "§ 669a.11(d)"), ("decision", "§ 669a.11(d)"), ("reveal", "§ 669a.11(e)"),
                   ("decision", "§ 669a.11(f)"), ("decision", "§ 669a.11(f)"), ("reveal", "§ 669a.11(h)")]
    assert [e.text for e in res.log if e.kind == "reveal"] == ["revealed KD (fourth_street)",
                                                               "revealed 7C (fifth_street)",
                                                               "revealed 5S (sixth_street)"]


@covers("§ 669a.11(d)")
def test_669a_11_d_two_or_one_times_or_check_only_for_those_without_a_play_wager(mod):
    seen = {}
    dealt = {1: "2C 3D 9S", 2: "AH AS 4D", "community": "KD 7C 5S"}
    _, res = play(mod, {1: {"ante": 10, "blind": 10}, 2: {"ante": 5, "blind": 5}}, dealt,
                  {1: PLAY2_AT_4TH, 2: PLAY3}, seen=seen)
    assert seen[(1, "second_decision")] == ["play_2x", "play_1x", "check"]
    assert (2, "second_decision") not in seen
    assert net(res, 1, "play").amount == D(20)


@covers("§ 669a.11(f)")
def test_669a_11_f_fold_forfeits_ante_and_blind_at_once(mod):
    seen = {}
    dealt = {1: "2C 3D 9S", 3: "AH AS 4D", "community": "KD 7C 5S"}
    _, res = play(mod, {1: {"ante": 10, "blind": 10}, 3: {"ante": 5, "blind": 5}}, dealt,
                  {1: FOLD, 3: PLAY3}, seen=seen)
    assert seen[(1, "third_decision")] == ["play_1x", "fold"]
    kinds = [(e.kind, e.seat, e.wager) for e in res.log]
    fold = next(i for i, e in enumerate(res.log) if e.kind == "decision" and e.seat == 1
                and "third_decision" in e.text)
    assert kinds[fold + 1:fold + 3] == [("lose", 1, "ante"), ("lose", 1, "blind")]
    assert kinds.index(("reveal", None, None), fold) > fold + 2  # collected before 6th Street
    assert seat_net(res, 1) == D(-20)
    assert "discard rack" in [e.text for e in res.log if e.kind == "note" and e.seat == 1][0]


@covers("§ 669a.11(f)", "§ 669a.11(g)")
def test_669a_11_g_fold_with_progressive_and_six_card_bonus_keeps_envy_and_six_card_eligibility(mod):
    # seat 3 folds a three-card straight with a $1 Progressive and a $5 Six Card Bonus Wager;
    # seat 5 holds the ace, king and queen of diamonds
    opts = {**PROG, **SIX, "six_card_bonus_paytable": "Paytable B"}
    dealt = {3: "2H 3C 4D", 5: "AD KD QD", "community": "8S 8D 8C"}
    _, res = play(mod, {3: {"ante": 5, "blind": 5, "progressive": 1, "six_card_bonus": 5},
                        5: {"ante": 5, "blind": 5}}, dealt, {3: FOLD, 5: PLAY3}, opts)
    assert net(res, 3, "progressive").net == D(-1)           # no Progressive payout (6 for 1 forfeited)
    assert net(res, 3, "progressive").cites == ("§ 669a.11(g)",)
    assert net(res, 3, "six_card_bonus").net == D(25)        # three 8s, Paytable B 5 to 1
    assert bonuses(res, 3) == [D(25)]                        # Envy Bonus, $1 schedule, other suit
    assert seat_net(res, 3) == D(-5 - 5 - 1 + 25 + 25)
    notes = [e.text for e in res.log if e.kind == "note" and e.seat == 3]
    assert any("left on the table" in n for n in notes)


@covers("§ 669a.11(i)")
def test_669a_11_i_settlement_from_the_dealers_right_counterclockwise(mod):
    dealt = {1: "2C 3D 9S", 4: "4H 4S 8D", 6: "AH KC 6D", "community": "KD 7C 5S"}
    _, res = play(mod, {s: {"ante": 5, "blind": 5} for s in (1, 4, 6)}, dealt,
                  {1: PLAY3, 4: PLAY3, 6: PLAY3})
    order = []
    for e in res.log:
        if e.kind in ("win", "lose", "push") and e.seat not in order:
            order.append(e.seat)
    assert order == [6, 4, 1]


@covers("§ 669a.11(i)(1)")
def test_669a_11_i_1_pair_plus_pays_pair_or_better_else_loses(mod):
    dealt = {1: "9H 9S 4D", 2: "KC QC 2S", "community": "3D 7C 5S"}
    _, res = play(mod, {1: {"ante": 5, "blind": 5, "pair_plus": 10}, 2: {"ante": 5, "blind": 5, "pair_plus": 10}},
                  dealt, {1: PLAY1_AT_5TH, 2: PLAY1_AT_5TH})
    assert net(res, 1, "pair_plus").net == D(10) and "§ 669a.11(i)(1)" in net(res, 1, "pair_plus").cites
    assert net(res, 2, "pair_plus").net == D(-10)  # K-Q-2 of two suits: no pair, no flush
    # Pair Plus is settled first for the player
    first = [e for e in res.log if e.seat == 2 and e.kind in ("win", "lose")][0]
    assert first.wager == "pair_plus"


@covers("§ 669a.11(i)(2)", "§ 669a.11(i)(2)(i)")
def test_669a_11_i_2_i_below_pair_of_10s_ante_blind_and_play_lose(mod):
    _, res = play(mod, {1: {"ante": 5, "blind": 5}}, {1: "9C 9D 4S", "community": "2H 7C KS"}, {1: PLAY3})
    assert [(r.wager, r.net) for r in res.results] == [("ante", D(-5)), ("blind", D(-5)), ("play", D(-15))]
    assert all(r.cites == ("§ 669a.11(i)(2)(i)",) for r in res.results)


@covers("§ 669a.11(i)(2)(ii)")
def test_669a_11_i_2_ii_qualifying_hand_pays_ante_play_and_blind(mod):
    # best five of 5H 6H 7H + 8C 9D 2S: a 9-high straight. Ante 10 at 1 to 1, Play 30 at 4 to 1,
    # Blind 10 at 2 to 1
    _, res = play(mod, {1: {"ante": 10, "blind": 10}}, {1: "5H 6H 7H", "community": "8C 9D 2S"}, {1: PLAY3})
    assert (net(res, 1, "ante").net, net(res, 1, "play").net, net(res, 1, "blind").net) == (D(10), D(120), D(20))
    assert seat_net(res, 1) == D(150)


@covers("§ 669a.11(i)(3)", "§ 669a.11(i)(3)(i)")
def test_669a_11_i_3_i_progressive_after_the_other_wagers_straight_or_better(mod):
    dealt = {1: "5H 6C 7D", 2: "JD JC 4S", "community": "2C KH 3D"}
    _, res = play(mod, {1: {"ante": 5, "blind": 5, "progressive": 5}, 2: {"ante": 5, "blind": 5, "progressive": 1}},
                  dealt, {1: PLAY1_AT_5TH, 2: PLAY3}, PROG)
    assert net(res, 1, "progressive").net == D(25)   # straight: 6 for 1 on $5 = $30 back, net +25
    assert net(res, 2, "progressive").net == D(-1)   # a pair is not paid (interpretation)
    seq = [e.wager for e in res.log if e.seat == 1 and e.kind in ("win", "lose", "push")]
    assert seq[-1] == "progressive"


@covers("§ 669a.11(i)(3)(i)(A)", "§ 669a.11(i)(3)(i)(B)", "§ 669a.11(i)(3)(i)(C)")
def test_669a_11_i_3_i_a_b_c_progressive_verification_encoded(data):
    for c in ("A", "B", "C"):
        r = requirement(data, f"§ 669a.11(i)(3)(i)({c})")[0]
        assert r["step"] == "settle_hands" and r["when"] == "option(progressive_offered)"


@covers("§ 669a.11(i)(3)(i)(D)")
def test_669a_11_i_3_i_d_hundred_percent_of_meter_not_paid_from_table_inventory(mod):
    t, res = play(mod, {3: {"ante": 10, "blind": 10, "progressive": 5}}, {3: "AS KS QS", "community": "9D 4C QD"},
                  {3: PLAY3}, PROG, meter="31250.00")
    w = net(res, 3, "progressive")
    # the meter: 31,250 + 15% of $5 = 31,250.75, all of it paid: net 31,245.75
    assert w.net == D("31245.75")
    assert "not the table inventory" in w.detail
    assert any("not paid from the table inventory container" in e.text for e in res.log if e.kind == "note")
    assert t.meters["progressive"] == D(10000)  # back to the reset amount


@covers("§ 669a.11(i)(3)(i)(E)")
def test_669a_11_i_3_i_e_envy_bonus_for_every_other_players_qualifying_hand(mod):
    # seats 2 and 4 both hold an ace-king-queen straight flush (hearts and spades); the community
    # cards make no hand for anyone.  Two decks are not needed: the suits differ.
    dealt = {1: "5C 6D 9S", 2: "AH KH QH", 4: "AS KS QS", 5: "2D 2S 7D", "community": "3C JC 8D"}
    bets = {1: {"ante": 5, "blind": 5, "progressive": 5}, 2: {"ante": 5, "blind": 5, "progressive": 1},
            4: {"ante": 5, "blind": 5, "progressive": 5}, 5: {"ante": 5, "blind": 5}}
    _, res = play(mod, bets, dealt, {1: FOLD, 2: PLAY3, 4: PLAY3, 5: FOLD}, PROG)
    assert sorted(bonuses(res, 1)) == [D(125), D(500)]   # $5 schedule: both hands
    assert bonuses(res, 2) == [D(100)]                   # only seat 4's spades, never its own hearts
    assert bonuses(res, 4) == [D(125)]                   # only seat 2's hearts
    assert bonuses(res, 5) == []                         # no Progressive Payout Wager


@covers("§ 669a.11(i)(3)(ii)")
def test_669a_11_i_3_ii_six_card_bonus_three_of_a_kind_or_better_of_six_cards(mod):
    opts = {**SIX, "six_card_bonus_paytable": "Paytable C"}
    dealt = {1: "7H 7S 2D", 2: "KC KD 9S", "community": "7C 4D JH"}
    _, res = play(mod, {1: {"ante": 5, "blind": 5, "six_card_bonus": 10}, 2: {"ante": 5, "blind": 5,
                                                                             "six_card_bonus": 10}},
                  dealt, {1: PLAY3, 2: PLAY3}, opts)
    assert net(res, 1, "six_card_bonus").net == D(80)   # three 7s, Paytable C 8 to 1
    assert net(res, 2, "six_card_bonus").net == D(-10)  # a pair of kings only


@covers("§ 669a.11(j)")
def test_669a_11_j_cards_collected_for_reconstruction_encoded(data):
    assert "reconstructed" in requirement(data, "§ 669a.11(j)")[0]["text"]


# ------------------------------------------------------------------------------------------------
# § 669a.12 Payout odds; Envy Bonus; rate of progression
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("column,trips,straight,flush", [
    ("Paytable A", 30, 6, 4), ("Paytable B", 25, 6, 4), ("Paytable C", 30, 5, 4), ("Paytable D", 30, 6, 3)])
@covers("§ 669a.12(a)")
def test_669a_12_a_pair_plus_paytables_a_to_d(mod, column, trips, straight, flush):
    opts = {"pair_plus_paytable": column}
    dealt = {1: "8H 8S 8D", 2: "4C 5D 6S", 3: "2H 9H JH", 4: "QS JS TS", "community": "KD 3C AC"}
    _, res = play(mod, {s: {"ante": 1, "blind": 1, "pair_plus": 2} for s in (1, 2, 3, 4)}, dealt,
                  {s: PLAY1_AT_5TH for s in (1, 2, 3, 4)}, opts)
    assert [net(res, s, "pair_plus").net for s in (1, 2, 3, 4)] == [D(2 * trips), D(2 * straight), D(2 * flush),
                                                                    D(80)]


@covers("§ 669a.12(b)")
def test_669a_12_b_ante_pays_one_to_one(mod, data):
    assert data["payouts"]["ante"] == {"odds": "1 to 1", "cite": "§ 669a.12(b)"}
    _, res = play(mod, {1: {"ante": 25, "blind": 25}}, {1: "AH AS 4D", "community": "KD 7C 5S"}, {1: PLAY3})
    assert net(res, 1, "ante").net == D(25) and "§ 669a.12(b)" in net(res, 1, "ante").cites


# (three cards, community cards, Play odds as net per 1, Blind net per 1 or None for a push)
FIVE_CARD = [
    ("AS KS QS", "JS TS 2D", 100, 1000),      # royal flush
    ("5D 4D 3D", "2D AD KC", 20, 200),        # straight flush 5-4-3-2-A (ace low)
    ("9C 9D 9H", "9S 2C 4H", 10, 30),         # four-of-a-kind
    ("JC JD 4H", "4S 4D 8C", 6, 4),           # full house
    ("2C 7C 9C", "JC KC 4D", 5, 3),           # flush
    ("AH 2C 3D", "4S 5H 9C", 4, 2),           # straight A-2-3-4-5
    ("6C 6D 6H", "2S 9C JD", 3, 1),           # three-of-a-kind
    ("3C 3D 5H", "5S 9C JD", D("1.5"), None),  # two pair (of 5s and 3s): Play 3 to 2, Blind push
    ("TC TD 5H", "2S 9C JD", 1, None),        # a pair of 10s: Play 1 to 1, Blind push
]


@pytest.mark.parametrize("cards,community,play_odds,blind_odds", FIVE_CARD)
@covers("§ 669a.12(c)", "§ 669a.12(d)")
def test_669a_12_c_d_play_and_blind_paytables(mod, cards, community, play_odds, blind_odds):
    _, res = play(mod, {1: {"ante": 2, "blind": 2}}, {1: cards, "community": community}, {1: PLAY3})
    assert net(res, 1, "play").net == D(6) * D(play_odds)
    blind = net(res, 1, "blind")
    if blind_odds is None:
        assert blind.outcome == "push" and blind.net == 0
    else:
        assert blind.outcome == "win" and blind.net == D(2) * D(blind_odds)


@covers("§ 669a.12(e)", "§ 669a.12(e)(1)")
def test_669a_12_e_1_progressive_paytable_for_one(mod):
    dealt = {1: "AD KD QD", 2: "8H 9H TH", 3: "4C 4D 4S", 4: "JC QH KS", "community": "2C 6S 7D"}
    _, res = play(mod, {s: {"ante": 5, "blind": 5, "progressive": 5} for s in (1, 2, 3, 4)}, dealt,
                  {s: PLAY1_AT_5TH for s in (1, 2, 3, 4)}, PROG)
    # "for 1": 500, 70, 60 and 6 times $5 returned in all, the stake included
    assert [net(res, s, "progressive").net for s in (1, 2, 3, 4)] == [D(2495), D(345), D(295), D(25)]


@covers("§ 669a.12(e)(2)")
def test_669a_12_e_2_only_the_highest_progressive_hand_is_paid(mod):
    # A-K-Q of diamonds is also a straight flush (70 for 1) and a straight (6 for 1): paid 500 for 1 only;
    # a flush on the board (five diamonds) does not make the three-card wager a five-card one
    _, res = play(mod, {1: {"ante": 5, "blind": 5, "progressive": 1}}, {1: "AD KD QD", "community": "2D 6D 9C"},
                  {1: PLAY3}, PROG)
    assert net(res, 1, "progressive").net == D(499)
    assert len([e for e in res.log if e.wager == "progressive" and e.kind == "win"]) == 1


@covers("§ 669a.12(e)(3)")
def test_669a_12_e_3_rate_of_progression_and_reset_amount(game):
    mod, compiled = game
    t, res = play(mod, {1: {"ante": 5, "blind": 5, "progressive": 5}, 2: {"ante": 5, "blind": 5, "progressive": 1}},
                  {1: "2C 3D 9S", 2: "4H 4S 8D", "community": "KD 7C 5S"}, {1: PLAY1_AT_5TH, 2: PLAY1_AT_5TH},
                  {"progressive_offered": True, "rate_of_progression": 14, "progressive_reset_amount": 2500})
    assert t.meters["progressive"] == D("2500") + D("0.84")  # 14% of $6
    assert "§ 669a.12(e)(3)" in cites(res, "meter")
    assert t.ledger.balance() == 0
    assert "§ 669a.12(e)(3)" in violated(mod, compiled, {"progressive_offered": True, "rate_of_progression": 10,
                                                         "progressive_reset_amount": 1000})
    assert "§ 669a.12(e)(3)" in violated(mod, compiled, {"progressive_offered": True, "rate_of_progression": 14,
                                                         "progressive_reset_amount": 999})
    assert "§ 669a.12(e)(3)" not in violated(mod, compiled, {"progressive_offered": True, "rate_of_progression": 14,
                                                             "progressive_reset_amount": 1000})
    opts = compiled.chapter.data["options"]
    assert (opts["rate_of_progression"]["type"], opts["rate_of_progression"]["minimum"]) == ("percent", 14)
    assert (opts["progressive_reset_amount"]["type"], opts["progressive_reset_amount"]["minimum"]) == ("money", 1000)


@covers("§ 669a.12(e)(4)")
def test_669a_12_e_4_meter_read_when_player_is_paid(mod):
    # the meter reads $12,000.00 before the wagers; seat 5 and seat 2 each add 15% of $5
    t, res = play(mod, {2: {"ante": 5, "blind": 5, "progressive": 5}, 5: {"ante": 5, "blind": 5, "progressive": 5}},
                  {2: "AS KS QS", 5: "2C 3D 9S", "community": "KD 7C 5S"}, {2: PLAY3, 5: PLAY3}, PROG,
                  meter="12000")
    w = net(res, 2, "progressive")
    assert "meter 12,001.50 when paid" in w.detail
    assert w.net == D("11996.50")
    assert t.ledger.balance() == 0


@covers("§ 669a.12(e)(5)")
def test_669a_12_e_5_envy_schedules_for_1_and_5_dollar_wagers(mod, data):
    assert data["paytables"]["envy_progressive_1"]["amounts"] == [1]
    assert data["paytables"]["envy_progressive_5"]["amounts"] == [5]
    dealt = {1: "AS KS QS", 2: "5C 6D 9H", 3: "2D 2S 7D", "community": "3C JC 8D"}
    bets = {1: {"ante": 5, "blind": 5}, 2: {"ante": 5, "blind": 5, "progressive": 1},
            3: {"ante": 5, "blind": 5, "progressive": 5}}
    _, res = play(mod, bets, dealt, {1: PLAY3, 2: FOLD, 3: PLAY3}, PROG)
    assert bonuses(res, 2) == [D(100)] and bonuses(res, 3) == [D(500)]
    dealt[1] = "AC KC QC"
    dealt["community"] = "3S JS 8D"
    _, res = play(mod, bets, dealt, {1: PLAY3, 2: FOLD, 3: PLAY3}, PROG)
    assert bonuses(res, 2) == [D(25)] and bonuses(res, 3) == [D(125)]


@pytest.mark.parametrize("column,quads,full,flush,straight,trips", [
    ("Paytable A", 50, 25, 20, 10, 5), ("Paytable B", 50, 25, 15, 10, 5),
    ("Paytable C", 100, 20, 15, 9, 8), ("Paytable D", 100, 20, 15, 10, 7)])
@covers("§ 669a.12(f)")
def test_669a_12_f_six_card_bonus_paytables_a_to_d(mod, column, quads, full, flush, straight, trips):
    opts = {**SIX, "six_card_bonus_paytable": column}
    # with 9C 8D 4C on the board: four 9s, 4s full of 8s, a club flush, a 6-to-10 straight, three 8s,
    # and a pair of 4s (below three-of-a-kind: loses)
    dealt = {1: "9H 9S 9D", 2: "4D 4S 8H", 3: "2C 7C QC", 4: "TH 7H 6S", 5: "8C 8S KD", 6: "4H AS 3D",
             "community": "9C 8D 4C"}
    seats = (1, 2, 3, 4, 5, 6)
    _, res = play(mod, {s: {"ante": 1, "blind": 1, "six_card_bonus": 1} for s in seats}, dealt,
                  {s: PLAY3 for s in seats}, opts)
    got = [net(res, s, "six_card_bonus").net for s in seats]
    assert got == [D(quads), D(full), D(flush), D(straight), D(trips), D(-1)]


# ------------------------------------------------------------------------------------------------
# § 669a.13 Irregularities
# ------------------------------------------------------------------------------------------------

BETS2 = {1: {"ante": 5, "blind": 5, "pair_plus": 5}, 4: {"ante": 10, "blind": 10}}
DEALT2 = {1: "AH AS 4D", 4: "7C 8C 9C", "community": "KD 7D 5S"}


@covers("§ 669a.13(a)")
def test_669a_13_a_one_face_up_card_discarded_two_void_the_round(mod):
    _, res = play(mod, BETS2, DEALT2, {1: PLAY3, 4: PLAY3},
                  events=[{"event": "face_up_card", "before": "deal_players_shoe", "cards": parse_cards("QH")}])
    assert not res.void and "§ 669a.13(a)" in cites(res, "discard")
    # seat 1: pair of aces; Ante +5, Play 15 at 1 to 1, Blind push, Pair Plus 1 to 1 +5
    assert seat_net(res, 1) == D(25)
    _, res = play(mod, BETS2, {}, {}, events=[{"event": "face_up_card", "before": "deal_players_shoe",
                                               "cards": parse_cards("QH 2C")}])
    assert res.void and all(r.outcome == "void" and r.net == 0 for r in res.results)
    assert "§ 669a.13(a)" in cites(res, "reshuffle")


@covers("§ 669a.13(b)")
def test_669a_13_b_card_drawn_in_error_used_as_next_card(mod):
    _, res = play(mod, BETS2, DEALT2, {1: PLAY3, 4: PLAY3},
                  events=[{"event": "drawn_in_error", "after": "deal_players_shoe", "cards": parse_cards("KD")}])
    assert "§ 669a.13(b)" in cites(res, "use") and not res.void


@pytest.mark.parametrize("event,step,cite", [
    ("wrong_card_count", "reveal_5th_street", "§ 669a.13(c)"),
    ("community_exposed", "reveal_5th_street", "§ 669a.13(d)"),
])
@covers("§ 669a.13(c)", "§ 669a.13(d)")
def test_669a_13_c_d_wrong_card_count_or_exposed_community_card_voids_the_round(mod, event, step, cite):
    _, res = play(mod, BETS2, DEALT2, {1: PLAY3, 4: PLAY2_AT_4TH}, events=[{"event": event, "before": step}])
    assert res.void
    # the Play Wagers already made are returned too
    assert {(r.seat, r.wager) for r in res.results} >= {(1, "play"), (4, "play")}
    assert all(r.outcome == "void" and r.net == 0 and r.cites == (cite,) for r in res.results)
    assert cite in cites(res, "reshuffle")


@covers("§ 669a.13(e)", "§ 669a.13(g)")
def test_669a_13_e_shuffler_malfunction_reshuffles(mod, data):
    _, res = play(mod, BETS2, DEALT2, {1: PLAY3, 4: PLAY3}, {"automated_shuffler": True},
                  events=[{"event": "shuffler_malfunction", "before": "no_more_bets_shoe"}])
    assert "§ 669a.13(e)" in cites(res, "reshuffle") and not res.void
    assert "§ 669a.13(g)" in cites(res, "note")
    assert "out of order" in requirement(data, "§ 669a.13(g)")[0]["text"]


@covers("§ 669a.13(f)", "§ 669a.13(g)")
def test_669a_13_f_automated_shoe_jam_voids_the_round(mod):
    opts = {"dealing_method": "automated_shoe"}
    _, res = play(mod, BETS2, {1: "AH AS 4D", 4: "7C 8C 9C"}, {}, opts,
                  events=[{"event": "dealing_shoe_malfunction", "after": "deal_players_auto"}])
    assert res.void and all(r.outcome == "void" and r.cites == ("§ 669a.13(f)",) for r in res.results)
    assert "§ 669a.13(f)" in cites(res, "reshuffle") and "§ 669a.13(g)" in cites(res, "note")


# ------------------------------------------------------------------------------------------------
# Whole sessions, round files, completeness
# ------------------------------------------------------------------------------------------------

@covers("§ 669a.3(b)")
def test_669a_money_is_conserved_over_a_session_of_six_players_with_every_wager(mod):
    opts = {**PROG, **SIX, "six_card_bonus_paytable": "Paytable D", "pair_plus_paytable": "Paytable C",
            "automated_shuffler": True, "decks": 2, "counting_shuffler": True}
    t = mod.new_table(opts, seed=669)
    assert t.shoe_decks() == 1  # two decks alternate, one per round
    rng = random.Random(4185)
    strategy = CallbackStrategy(lambda d, choices, v: rng.choice(choices))
    hits = {"bonus": 0, "win": 0}
    for n in range(1500):
        bets = {s: {"ante": 5, "blind": 5, "pair_plus": 1 + s % 3, "progressive": rng.choice([1, 5]),
                    "six_card_bonus": 2} for s in range(1, 7)}
        res = t.play_round(bets, strategy)
        for r in res.results:
            if r.outcome in hits:
                hits[r.outcome] += 1
    assert t.ledger.balance() == 0
    assert t.ledger.meters > 0 and hits["win"] > 0


# Each round file's seat nets, worked out by hand, are in the round file itself (`expect:`, issue
# 13.3), settled and compared by tests/fidelity/test_rounds.py (`rulespec settle --check`, which also
# fails on cards the hand history gives but the procedure never deals). The hand arithmetic:
#    raises: seat 1 trips K (Ante +5, Play 15 x 3 = 45, Blind +5, Pair Plus +5); seat 2 trips 7
#    (10 + 20 x 3 + 10); seat 4 no pair (-15); seat 5 Pair Plus straight flush 10 x 40 less 125.
#    fold: seat 3 -5 -5 -1 + 25; seat 6 full house 10 + 30 x 6 + 10 x 4 + 5 x 25.
#    envy: seat 1 -20 -1 + 25; seat 2 -25 + 2,495; seat 4 5+5+45+5-5+125; seat 5 5 + 30 + 5.
#    jackpot: seat 3 10 + 30 + 0 + (31,251.65 - 5); seat 1 5+30+5-1+100; seat 6 -125 + 345 + 500.
#    information: seat 2 -(10+10+5+20); seat 3 pair of 10s 5 + 5 + 0.


def test_every_669a_round_file_states_its_expected_settlement():
    import yaml

    names = sorted(Path(ROUNDS).glob("669a-*.yaml"))
    assert names
    for p in names:
        assert (yaml.safe_load(p.read_text(encoding="utf-8")).get("expect") or {}).get("net_by_seat"), p.name


def test_every_numbered_provision_is_covered(data):
    assert test_669a_deal.covers == covers  # the tests of both modules record into one Coverage
    sections = {"669a.5", "669a.7", "669a.8", "669a.9", "669a.10", "669a.11", "669a.12", "669a.13"}
    numbered = numbered_provisions(data, sections)
    assert len(numbered) > 80
    missing = [c for c in numbered if c not in COVERED]
    assert missing == []
