"""Chapter 670a Six-Card Fortune Pai Gow Poker, §§ 670a.11-670a.13, sessions and the coverage check;
§§ 670a.5-670a.10 are in test_670a_deal.py.

The tests of the chapter and how they are written: tests/chapters/ch670a.py.
"""
from __future__ import annotations

import random

import pytest

from chapters import test_670a_deal
from chapters.provisions import numbered_provisions
from chapters.ch670a import (
    ROUNDS, D, ALL, covers, COVERED, requirement, play, net, outcome, house, _steps, sort_cards,
)

from compiler.analysis.paigow import _set_by_house_way, category_counts_two_ways, model_of
from compiler.pipeline import load_game
from compiler.round_file import load_round
from compiler.runtime.cards import JOKER, parse_card, parse_cards
from compiler.runtime.engine import CallbackStrategy, Context, RefusedError, Table
from compiler.runtime.shoe import ScriptedShoe

SPEC = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"


# ------------------------------------------------------------------------------------------------
# § 670a.11 Completion of the round
# ------------------------------------------------------------------------------------------------

@covers("§ 670a.11(a)", "§ 670a.11(a)(1)", "§ 670a.11(a)(2)", "§ 670a.11(a)(3)")
def test_670a_11_a_player_sets_own_hands_or_is_told_the_house_way(mod, data):
    t, res = play(mod, {1: {"cards": "KH KC 4S 6C TS QC", "wagers": {"pai_gow": 5}}}, "8C 2S 7C 2C 4D AD")
    e = next(e for e in res.log if e.kind == "setting" and e.seat == 1)
    assert "the way the house sets them, § 670a.11(d)(1)" in e.text and e.text.startswith("sets the high hand KH KC 4S 6C TS and the low hand QC")
    for c in ("§ 670a.11(a)(1)", "§ 670a.11(a)(2)", "§ 670a.11(a)(3)"):
        assert requirement(data, c)[0]["step"] == "players_set_hands"


@covers("§ 670a.11(b)")
def test_670a_11_b_high_hand_must_rank_at_least_the_low_hand(mod):
    t = mod.new_table({}, seed=0)
    step = next(s for s in _steps(mod.GAME.procedure) if s.id == "players_set_hands")
    ctx = Context(t, None)

    def legal(high, low):
        ctx.setting = (parse_cards(high), parse_cards(low))
        return step.exprs["legal"](ctx)

    assert legal("2S 2H 7D 4C 3S", "AS")            # a pair outranks any single card
    assert legal("AS 9H 7D 4C 3S", "KD")
    assert legal("AS 9H 7D 4C 3S", "AD")            # equal ranks: equal to the low hand
    assert not legal("KS 9H 7D 4C 3S", "AD")
    assert not legal("KS 9H 7D 4C 3S", "JK")        # the joker low hand is an ace
    assert legal("JK 9H 7D 4C 3S", "AD")            # the joker in the high hand is an ace


@covers("§ 670a.11(c)")
def test_670a_11_c_double_down_offered_after_the_cards_are_examined(mod):
    seen = []

    def offer(w, view):
        seen.append((w, len(view.cards["hand"])))
        return view.wagers["pai_gow"]

    t = mod.new_table({"double_down_offered": True}, seed=4)
    res = t.play_round({1: {"pai_gow": 10}}, CallbackStrategy(None, offer))
    assert seen == [("double_down", 6)]
    assert any(r.wager == "double_down" and r.amount == 10 for r in res.results)


@covers("§ 670a.11(d)", "§ 670a.11(d)(1)")
@pytest.mark.parametrize("cards,high,low", [
    ("2C 2D AS KH QD JC", "2C 2D KH QD JC", "AS"),       # a pair: the highest card left is the low hand
    ("7C 7D 7H 7S KD 2D", "7C 7D 7H 7S 2D", "KD"),       # four of a kind kept
    ("AS AH AD AC KD 2D", "AS AH AD AC 2D", "KD"),       # four aces are not broken for an ace low hand
    ("7C 7D 7H 7S 5D 5C", "7C 7D 7H 7S 5C", "5D"),       # four of a kind and a pair: the pair gives the low card
    ("9S 9H 9D 4C 4S KD", "9S 9H 9D 4C 4S", "KD"),       # full house kept
])
def test_670a_11_d_1_sets_are_not_broken_to_play_a_higher_low_card(mod, cards, high, low):
    h, l, cite = house(mod, cards)
    assert cite == "§ 670a.11(d)(1)"
    assert h == sort_cards(high) and (l >> 2) == (parse_card(low) >> 2)


@covers("§ 670a.11(d)(1)(i)")
def test_670a_11_d_1_i_two_three_of_a_kinds_lower_set_kept_higher_split(mod):
    h, l, cite = house(mod, "7C 7D 7H 5S 5D 5C")
    assert cite == "§ 670a.11(d)(1)(i)"
    assert (l >> 2) == parse_card("7C") >> 2 and sorted(c >> 2 for c in h) == [3, 3, 3, 5, 5]


@covers("§ 670a.11(d)(1)(ii)")
def test_670a_11_d_1_ii_three_pairs_two_lower_in_high_hand(mod):
    h, l, cite = house(mod, "7C 7D 5H 5S 3C 3D")
    assert cite == "§ 670a.11(d)(1)(ii)"
    assert (l >> 2) == 5 and sorted(c >> 2 for c in h) == [1, 1, 3, 3, 5]


@covers("§ 670a.11(d)(2)")
@pytest.mark.parametrize("cards,low", [("4C 5D 6H 7S 8D 9C", "9C"),      # six to a straight: lowest straight
                                       ("2S 5S 7S 9S JS KS", "KS"),      # six to a flush: king low
                                       ("AH 2D 3C 4S 5D 6C", "AH"),      # 2-6 over the ace, not A-2-3-4-5 over a 6
                                       ("9S 9D TC JH QS KD", "9S")])     # a pair and a straight: the straight
def test_670a_11_d_2_lowest_possible_straight_or_flush_highest_card_in_low(mod, cards, low):
    h, l, cite = house(mod, cards)
    assert cite == "§ 670a.11(d)(2)"
    assert (l >> 2) == (parse_card(low) >> 2)


@covers("§ 670a.11(d)(3)")
def test_670a_11_d_3_straight_and_flush_plays_the_flush(mod):
    h, l, cite = house(mod, "5H 6H 7H 8C 9H KH")
    assert cite == "§ 670a.11(d)(3)" and l == parse_card("8C")


@covers("§ 670a.11(d)(4)")
def test_670a_11_d_4_straight_and_straight_flush_plays_the_straight_flush(mod):
    h, l, cite = house(mod, "5H 6H 7H 8H 9H TC")
    assert cite == "§ 670a.11(d)(4)" and l == parse_card("TC")


@covers("§ 670a.11(d)(5)")
def test_670a_11_d_5_flush_and_straight_flush_plays_the_straight_flush(mod):
    h, l, cite = house(mod, "5H 6H 7H 8H 9H 2H")
    assert cite == "§ 670a.11(d)(5)" and l == parse_card("2H")


@covers("§ 670a.11(d)(6)")
def test_670a_11_d_6_no_pair_second_highest_card_is_the_low_hand(mod):
    h, l, cite = house(mod, "AS KS 9D 7C 4H 2D")
    assert cite == "§ 670a.11(d)(6)" and l == parse_card("KS")
    h, l, cite = house(mod, "JK KS 9D 7C 4H 2D")       # the joker is the highest card (an ace)
    assert l == parse_card("KS") and JOKER in h


@covers("§ 670a.11(e)")
def test_670a_11_e_hands_revealed_from_the_dealers_right_counterclockwise(mod):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 5}},
                        4: {"cards": "AH KH 9C 7D 4S 3H", "wagers": {"pai_gow": 5}},
                        6: {"cards": "AC KD 9H 7S 4C 3C", "wagers": {"pai_gow": 5}}}, "QS QH 8C 5C 3D 2S")
    seats = [e.seat for e in res.log if e.wager == "pai_gow" and e.kind in ("win", "lose", "push")]
    assert seats == [6, 4, 1]


@covers("§ 670a.11(f)", "§ 670a.11(f)(1)", "§ 670a.11(f)(1)(i)")
def test_670a_11_f_1_i_both_hands_lower_lose(mod):
    t, res = play(mod, {1: {"cards": "3S 3H 7D 4C 2S 9D", "wagers": {"pai_gow": 10}, "low": "9D"}},
                  "QS QH 8C 5C 3D JH")
    r = outcome(res, 1, "pai_gow")
    assert (r.outcome, r.net, r.cites[0]) == ("lose", D(-10), "§ 670a.11(f)(1)(i)")


@covers("§ 670a.11(f)(1)(ii)")
def test_670a_11_f_1_ii_lower_high_identical_low_loses(mod):
    t, res = play(mod, {1: {"cards": "3S 3H 7D 4C 2S JD", "wagers": {"pai_gow": 10}, "low": "JD"}},
                  "QS QH 8C 5C 3D JH")
    r = outcome(res, 1, "pai_gow")
    assert (r.outcome, r.net, r.cites[0]) == ("lose", D(-10), "§ 670a.11(f)(1)(ii); § 670a.6(c)")


@covers("§ 670a.11(f)(1)(iii)")
def test_670a_11_f_1_iii_identical_high_lower_low_loses(mod):
    t, res = play(mod, {1: {"cards": "QD QC 8H 5S 3H 9D", "wagers": {"pai_gow": 10}, "low": "9D"}},
                  "QS QH 8C 5C 3D JH")
    r = outcome(res, 1, "pai_gow")
    assert (r.outcome, r.net, r.cites[0]) == ("lose", D(-10), "§ 670a.11(f)(1)(iii); § 670a.6(c)")


@covers("§ 670a.11(f)(1)(iv)")
def test_670a_11_f_1_iv_identical_hands_lose(mod):
    res = load_and_settle(mod, "670a-copies-go-to-the-dealer.yaml")
    r = outcome(res, 2, "pai_gow")
    assert (r.outcome, r.net, r.cites[0]) == ("lose", D(-10), "§ 670a.11(f)(1)(iv); § 670a.6(c)")


@covers("§ 670a.11(f)(1)(v)")
def test_670a_11_f_1_v_fouled_setting_loses_even_against_a_weaker_dealer(mod):
    t, res = play(mod, {6: {"cards": "QH JH 8D 6S 4C AS", "wagers": {"pai_gow": 20}, "low": "AS"}},
                  "7S 5H 4D 3S 2C 9C")
    r = outcome(res, 6, "pai_gow")
    assert (r.outcome, r.net, r.cites) == ("lose", D(-20), ["§ 670a.11(f)(1)(v)"])
    assert any(e.kind == "foul" and e.seat == 6 for e in res.log)


@covers("§ 670a.11(f)(2)", "§ 670a.11(f)(2)(i)")
def test_670a_11_f_2_i_higher_high_lower_low_ties(mod):
    t, res = play(mod, {1: {"cards": "AC AD 7S 7C 4H 2S", "wagers": {"pai_gow": 5}, "low": "4H"}},
                  "KS KH QD 8C 5C 3H")
    r = outcome(res, 1, "pai_gow")
    assert (r.outcome, r.net) == ("push", D(0)) and r.cites[0] == "§ 670a.11(f)(2)(i); § 670a.6(c)"


@covers("§ 670a.11(f)(2)(ii)")
def test_670a_11_f_2_ii_player_low_joker_ties_when_high_loses(mod):
    t, res = play(mod, {1: {"cards": "JK 6C 6D 2H 9S JD", "wagers": {"pai_gow": 10}, "low": "JK"}},
                  "KS KH QD 8C 5C AH")
    r = outcome(res, 1, "pai_gow")
    assert (r.outcome, r.net, r.cites) == ("push", D(0), ["§ 670a.11(f)(2)(ii)"])


@covers("§ 670a.11(f)(3)")
def test_670a_11_f_3_both_hands_higher_win_1_to_1(mod):
    t, res = play(mod, {3: {"cards": "AS AH KD KC 9S 4D", "wagers": {"pai_gow": 25}, "low": "9S"}},
                  "7C 7D 5H 5S 3C 3D")
    r = outcome(res, 3, "pai_gow")
    assert (r.outcome, r.net) == ("win", D(25)) and r.cites == ["§ 670a.11(f)(3)", "§ 670a.12(a)"]


@covers("§ 670a.11(g)", "§ 670a.11(g)(1)")
def test_670a_11_g_1_double_down_follows_the_wager_when_the_dealer_has_eights_or_better(mod):
    o = {"double_down_offered": True}
    t, res = play(mod, {3: {"cards": "AS AH KD KC 9S 4D", "wagers": {"pai_gow": 25}, "low": "9S",
                            "offers": {"double_down": 25}},
                        6: {"cards": "QH JH 8D 6S 4C AC", "wagers": {"pai_gow": 20}, "low": "AC",
                            "offers": {"double_down": 20}}},
                  "8S 8H 6S 5D 3S 2C", options=o)
    assert outcome(res, 3, "double_down").net == D(25)    # both hands beat eights over a 6
    assert outcome(res, 6, "double_down").net == D(-20)   # fouled: loses with the wager
    assert net(res, 3) == D(50) and net(res, 6) == D(-40)


@covers("§ 670a.11(g)(2)")
def test_670a_11_g_2_double_down_returned_without_a_pair_of_eights(mod):
    t, res = play(mod, {3: {"cards": "AS AH KD KC 9S 4D", "wagers": {"pai_gow": 25}, "low": "9S",
                            "offers": {"double_down": 25}}},
                  "7S 7H 6S 5D 3S 2C", options={"double_down_offered": True})
    r = outcome(res, 3, "double_down")
    assert (r.outcome, r.net, r.cites) == ("void", D(0), ["§ 670a.11(g)(2)"])
    assert outcome(res, 3, "pai_gow").net == D(25)


@covers("§ 670a.11(h)", "§ 670a.11(h)(1)", "§ 670a.11(h)(1)(i)", "§ 670a.11(h)(1)(i)(A)", "§ 670a.11(h)(1)(i)(B)",
        "§ 670a.11(h)(1)(i)(C)", "§ 670a.11(h)(1)(ii)", "§ 670a.11(h)(2)", "§ 670a.11(h)(2)(i)", "§ 670a.11(h)(2)(ii)",
        "§ 670a.11(h)(3)", "§ 670a.11(h)(3)(i)", "§ 670a.11(h)(3)(i)(A)", "§ 670a.11(h)(3)(i)(B)",
        "§ 670a.11(h)(3)(i)(C)", "§ 670a.11(h)(3)(ii)", "§ 670a.12(b)", "§ 670a.12(b)(1)", "§ 670a.12(b)(2)",
        "§ 670a.12(c)", "§ 670a.12(d)(4)")
def test_670a_11_h_optional_wagers_on_the_rearranged_hand_and_envy_across_the_table(mod):
    res = load_and_settle(mod, "670a-envy-bonuses-across-the-table.yaml")
    assert outcome(res, 1, "fortune_bonus").net == D(75)          # full house 15 to 1 on $5
    assert outcome(res, 1, "progressive").net == D(70)            # full house 15 for 1 on $5
    assert outcome(res, 3, "fortune_bonus").net == D(250)         # four-of-a-kind 50 to 1 on $5
    assert outcome(res, 3, "progressive").net == D(149)           # four-of-a-kind 150 for 1 on $1
    assert outcome(res, 5, "insurance").net == D(20)              # queen-high 4 to 1 on $5
    assert outcome(res, 5, "fortune_bonus").net == D(-1)
    assert outcome(res, 6, "progressive").net == D(-5)
    bonuses = sorted((r.seat, r.name, r.net) for r in res.results if r.outcome == "bonus")
    assert bonuses == [(1, "Envy Bonus (Fortune Bonus)", D(75)), (1, "Envy Bonus (Progressive Payout)", D(25)),
                       (3, "Envy Bonus (Fortune Bonus)", D(25)), (6, "Envy Bonus (Progressive Payout)", D(25))]
    assert {s: net(res, s) for s in (1, 3, 5, 6)} == {1: D(250), 3: D(424), 5: D(19), 6: D(20)}
    kinds = [(e.kind, e.seat) for e in res.log if e.wager in ("fortune_bonus", "insurance", "progressive")
             and e.kind in ("win", "lose", "bonus")]
    # passes: Fortune Bonus, its Envy Bonuses, Insurance, Progressive, its Envy Bonuses
    fb_last = max(i for i, e in enumerate(res.log) if e.wager == "fortune_bonus" and e.kind in ("win", "lose"))
    ins = min(i for i, e in enumerate(res.log) if e.wager == "insurance" and e.kind in ("win", "lose"))
    assert fb_last < next(i for i, e in enumerate(res.log) if e.kind == "bonus") < ins
    assert any("acknowledged" in e.text for e in res.log)
    assert kinds


@covers("§ 670a.11(h)(2)(i)", "§ 670a.12(c)")
def test_670a_11_h_2_insurance_better_than_king_high_loses_joker_is_an_ace(mod):
    o = {"insurance_offered": True}
    for cards, expect in (("JK QS 8H 6D 5S 3D", D(-5)), ("AS QS 8H 6D 5S 3D", D(-5)), ("KS QC 8H 6D 5S 3D", D(15)),
                          ("8S 6C 5H 3D 4S 2D", D(-5)), ("8S 7C 5H 3D 4S 2D", D(500))):
        t, res = play(mod, {1: {"cards": cards, "wagers": {"pai_gow": 5, "insurance": 5}}}, "AD AC 9C 9D TC 2C",
                      options=o)
        assert outcome(res, 1, "insurance").net == expect, cards


@covers("§ 670a.11(h)(3)(i)(B)(I)", "§ 670a.11(h)(3)(i)(B)(II)", "§ 670a.11(h)(3)(i)(B)(III)",
        "§ 670a.11(h)(3)(i)(B)(IV)", "§ 670a.12(d)", "§ 670a.12(d)(1)", "§ 670a.12(d)(3)")
def test_670a_11_h_3_five_aces_paid_the_meter_when_the_player_is_paid(mod):
    res = load_and_settle(mod, "670a-five-aces-progressive.yaml")
    r = outcome(res, 2, "progressive")
    assert r.net == D("12345.27")   # 12,345.67 + 0.10 + 0.50 grown before payment, less the $1 stake
    assert "not paid from the table inventory container" in " ".join(e.text for e in res.log)
    assert net(res, 4) == D(495)
    texts = [e.text for e in res.log if e.seat == 2 and e.kind == "note"]
    assert any("verified" in x for x in texts)


@covers("§ 670a.11(i)", "§ 670a.11(j)")
def test_670a_11_i_j_optional_wagers_settled_before_discard_encoded(data):
    assert requirement(data, "§ 670a.11(i)")[0]["step"] == "progressive_envy_bonus"
    assert "reconstructed" in requirement(data, "§ 670a.11(j)")[0]["text"]


# ------------------------------------------------------------------------------------------------
# § 670a.12 Payouts
# ------------------------------------------------------------------------------------------------

@covers("§ 670a.12(a)")
def test_670a_12_a_main_and_double_down_pay_1_to_1(mod):
    assert str(mod.GAME.payouts["even_money"].odds) == "1 to 1"
    assert mod.GAME.wagers["pai_gow"].pays == mod.GAME.wagers["double_down"].pays == "even_money"


@covers("§ 670a.12(d)(2)")
def test_670a_12_d_2_reset_amount_at_least_5000(chapter, mod):
    from compiler.analysis.report import _constraints_ok

    assert not _constraints_ok(chapter, Table(mod.GAME, {"progressive_offered": True, "progressive_reset_amount": 4999}))
    assert _constraints_ok(chapter, Table(mod.GAME, {"progressive_offered": True, "progressive_reset_amount": 5000}))


def test_670a_12_b_2_envy_only_for_qualifying_wagers_of_at_least_5(mod):
    o = {"fortune_bonus_offered": True}
    t, res = play(mod, {1: {"cards": "9S 9H 9D 4C 4S KD", "wagers": {"pai_gow": 5}},
                        2: {"cards": "AH KH 9C 7D 4H 3H", "wagers": {"pai_gow": 5, "fortune_bonus": 1}},
                        3: {"cards": "AC KD 8H 7S 5C 3C", "wagers": {"pai_gow": 5, "fortune_bonus": 10}}},
                  "QS QH 8C 5S 3D 2S", options=o)
    bonuses = [(r.seat, r.net) for r in res.results if r.outcome == "bonus"]
    assert bonuses == [(3, D(25))]       # $10: the $5 schedule; $1: not a Qualifying Wager


# ------------------------------------------------------------------------------------------------
# § 670a.13 Irregularities
# ------------------------------------------------------------------------------------------------

@covers("§ 670a.13(a)", "§ 670a.13(b)")
@pytest.mark.parametrize("cause,cite", [("not_flat", "§ 670a.13(a)"), ("fell_out", "§ 670a.13(b)")])
def test_670a_13_a_b_no_roll_and_reshake(mod, cause, cite):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 5}}}, "QS QH 8C 5C 3H 2S",
                  events=[{"event": "no_roll", "before": "shake_dice", "cause": cause}])
    e = next(e for e in res.log if e.kind == "note" and "no roll" in e.text)
    assert e.cite == cite and not res.void


@covers("§ 670a.13(c)")
def test_670a_13_c_wrong_dice_total_voids_and_reshuffles(mod):
    res = load_and_settle(mod, "670a-wrong-dice-total.yaml")
    assert res.void and outcome(res, 1, "pai_gow").cites == ["§ 670a.13(c)"]


@covers("§ 670a.13(d)")
@pytest.mark.parametrize("voids", [True, False])
def test_670a_13_d_exposed_card_player_may_void_the_hand(mod, voids):
    t, res = play(mod, {1: {"cards": "AS AH KD KC 9S 4D", "wagers": {"pai_gow": 10}, "low": "9S"},
                        2: {"cards": "AC QD JS 7H 5D 2C", "wagers": {"pai_gow": 5}}}, "7C 7D 5H 5S 3C 3D",
                  events=[{"event": "exposed_card", "after": "deal_hands", "seat": 1, "voids": voids}])
    assert outcome(res, 1, "pai_gow").net == (D(0) if voids else D(10))
    assert outcome(res, 1, "pai_gow").outcome == ("void" if voids else "win")
    assert not res.void


@covers("§ 670a.13(e)", "§ 670a.13(j)", "§ 670a.13(h)", "§ 670a.13(k)", "§ 670a.13(m)")
@pytest.mark.parametrize("event,options", [("dealer_card_exposed", {}), ("wrong_card_count", {}),
                                           ("stack_card_exposed", {"dealing_method": "automated_shoe"}),
                                           ("dealing_shoe_malfunction", {"dealing_method": "automated_shoe"})])
def test_670a_13_void_round_events(mod, event, options):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}}}, "QS QH 8C 5C 3H 2S",
                  options=options, events=[{"event": event, "after": "collect_unwagered_stacks"}])
    assert res.void and net(res, 1) == 0 and any(e.kind == "void_round" for e in res.log)


@covers("§ 670a.13(f)")
def test_670a_13_f_face_up_cards(mod):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}}}, "QS QH 8C 5C 3H 2S",
                  events=[{"event": "face_up_card", "before": "collect_unwagered_stacks", "cards": [parse_card("5D")]}])
    assert not res.void and any(e.kind == "discard" for e in res.log)
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}}}, "QS QH 8C 5C 3H 2S",
                  events=[{"event": "face_up_card", "before": "collect_unwagered_stacks",
                           "cards": parse_cards("5D 6D")}])
    assert res.void


@covers("§ 670a.13(g)")
def test_670a_13_g_card_drawn_in_error_used(mod):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}}}, "QS QH 8C 5C 3H 2S",
                  events=[{"event": "drawn_in_error", "before": "collect_unwagered_stacks", "cards": [parse_card("5D")]}])
    assert any(e.kind == "use" and e.cite == "§ 670a.13(g)" for e in res.log)


@covers("§ 670a.13(i)")
def test_670a_13_i_dealer_hands_reset_by_the_house_way(mod):
    res = load_and_settle(mod, "670a-dealer-sets-hands-wrongly.yaml")
    assert any(e.kind == "irregularity" and e.cite == "§ 670a.13(i)" for e in res.log)
    assert outcome(res, 1, "pai_gow").net == D(10)
    # a recorded setting the house way allows is played as recorded
    t, res = play(mod, {1: {"cards": "AH QH 8S 7D 4C 6C", "wagers": {"pai_gow": 10}, "low": "QH"}},
                  "2S 3D 5H 9C JD KS", dealer_setting="JD")
    assert not any(e.kind == "irregularity" for e in res.log)


@covers("§ 670a.13(l)", "§ 670a.13(n)")
def test_670a_13_l_n_shuffler_malfunction_reshuffles_and_out_of_order_device(mod, data):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}}}, "QS QH 8C 5C 3H 2S",
                  options={"automated_shuffler": True},
                  events=[{"event": "shuffler_malfunction", "before": "no_more_bets"}])
    assert any(e.kind == "reshuffle" and e.cite == "§ 670a.13(l)" for e in res.log)
    assert requirement(data, "§ 670a.13(n)")


def test_670a_13_h_and_k_are_one_irregularity(data):
    irr = [i for i in data["irregularities"] if i["event"] == "wrong_card_count"]
    assert len(irr) == 1 and irr[0]["cite"] == "§ 670a.13(h); § 670a.13(k)"
    assert any(i["id"] == "irregularity-h-and-k" for i in data["interpretations"])


# ------------------------------------------------------------------------------------------------
# Hand histories, sessions, interpretations, analysis cross-checks
# ------------------------------------------------------------------------------------------------

def load_and_settle(mod, name):
    rs = load_round(str(ROUNDS / name))
    t = mod.new_table(rs.options, shoe=rs.shoe())
    t.game_beginning = False
    for mid, v in rs.meters.items():
        t.meters[mid] = v
    return t.play_round(rs.bets, rs.strategy(), rs.events, players=rs.players or None, rolls=rs.rolls,
                        dealer_setting=rs.dealer_setting)


# Each round file's seat nets, worked out by hand, are in the round file itself (`expect:`, issue
# 13.3), settled and compared by tests/fidelity/test_rounds.py (`rulespec settle --check`).


def test_670a_every_round_file_states_its_expected_settlement():
    import yaml

    names = sorted(ROUNDS.glob("670a-*.yaml"))
    assert names
    for p in names:
        assert (yaml.safe_load(p.read_text(encoding="utf-8")).get("expect") or {}).get("net_by_seat"), p.name


def test_670a_settle_cli_json(capsys):
    from compiler.cli import main

    assert main(["settle", SPEC, str(ROUNDS / "670a-three-pairs-double-down-wins.yaml"), "--format", "json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["net_by_seat"] == {"3": "50.00"} and out["warnings"] == []


def test_670a_round_file_missing_setting_is_an_error(tmp_path, capsys):
    from compiler.cli import main

    p = tmp_path / "r.yaml"
    p.write_text((ROUNDS / "670a-three-pairs-double-down-wins.yaml").read_text().replace("    setting: {low: [9S]}\n", ""))
    assert main(["settle", SPEC, str(p)]) == 1
    assert "players_set_hands" in capsys.readouterr().err


def test_670a_session_of_six_players_with_every_optional_wager_conserves_money(mod):
    t = mod.new_table({**ALL, "progressive_reset_amount": 5000}, seed=20)
    rng = random.Random(5)

    def offer(w, view):
        return view.wagers["pai_gow"] if rng.random() < 0.5 else 0

    bets = {s: {"pai_gow": 5 * s, "fortune_bonus": 5 if s % 2 else 1, "insurance": 1,
                "progressive": 5 if s > 3 else 1} for s in range(1, 7)}
    for _ in range(40):
        t.play_round(bets, CallbackStrategy(None, offer))
    assert t.ledger.balance() == 0
    assert t.ledger.meters > 0


def test_670a_house_way_from_the_table_options_is_used(mod):
    # a casino's house way given as data (688a style) overrides the spec's through house_way_option
    import dataclasses


    step = next(s for s in _steps(mod.GAME.procedure) if s.id == "dealer_sets_hands")
    new = dataclasses.replace(step, params={**step.params, "house_way_option": "hw"})
    proc = tuple(new if s.id == step.id else s for s in mod.GAME.procedure)
    game = dataclasses.replace(mod.GAME, procedure=proc, options={**mod.GAME.options, "hw": {"type": "house_way"}})
    way = {"title": "lowest card low", "rules": [{"cite": "§ 670a.11(d)", "choose": [{"min": "hand(low_hand, setting.low)"}]}]}
    script = {("player", 1, "hand"): parse_cards("AS KS 9D 7C 4H 2D"),
              ("dealer", None, "hand"): parse_cards("QS JH 8C 5C 3H 2S")}
    t = Table(game, {"hw": way}, shoe=ScriptedShoe(script))
    t.game_beginning = False
    res = t.play_round({1: {"pai_gow": 5}}, rolls=[[1, 1, 1]])
    assert "low hand 2S by the house way (lowest card low)" in " ".join(e.text for e in res.log)
    with pytest.raises(RefusedError, match="unknown function"):
        Table(game, {"hw": {"rules": [{"cite": "x", "choose": [{"max": "nope(setting.low)"}]}]}},
              shoe=ScriptedShoe(script)).play_round({1: {"pai_gow": 5}}, rolls=[[1, 1, 1]])


def test_670a_interpretations_cover_the_known_questions(data):
    ids = {i["id"] for i in data["interpretations"]}
    assert {"two-joker-decks", "irregularity-h-and-k", "resent-amount", "envy-qualifying-wager",
            "notwithstanding-the-following", "house-way-order", "low-hand-joker"} <= ids


def test_670a_category_counts_two_ways_on_a_reduced_deck(mod):
    r = mod.new_table({}, seed=0).ranking("five_card")
    ranks = [8, 9, 10, 11, 12]                                  # T J Q K A and the joker: 21 cards
    one, two = category_counts_two_ways(r, 6, 1, ranks)
    assert one == two and sum(one.values()) == 54264           # C(21, 6)
    # brute force: the evaluator on every hand
    from itertools import combinations
    from compiler.analysis.enumerate import standard_deck

    brute: dict = {}
    for h in combinations(standard_deck(1, ranks), 6):
        c = r.best(h)[0].category
        brute[c] = brute.get(c, 0) + 1
    assert {k: v for k, v in one.items() if v} == brute


def test_670a_house_way_dealer_setting_is_always_legal(mod):
    t = mod.new_table({}, seed=0)
    m = model_of(mod.GAME, load_game(SPEC)[1].chapter)
    rng = random.Random(3)
    deck = list(range(52)) + [JOKER]
    step = m.player_step
    ctx = Context(t, None)
    for _ in range(300):
        high, low = _set_by_house_way(t, m.dealer_step, rng.sample(deck, 6))
        ctx.setting = (high, low)
        assert step.exprs["legal"](ctx)


NUMBERED_SECTIONS = {"670a.5", "670a.6", "670a.7", "670a.8", "670a.9", "670a.10", "670a.11", "670a.12", "670a.13"}


def test_every_numbered_provision_is_covered(data):
    assert test_670a_deal.covers == covers  # the tests of both modules record into one Coverage
    numbered = numbered_provisions(data, NUMBERED_SECTIONS)
    assert len(numbered) > 120
    missing = [c for c in numbered if c not in COVERED]
    assert missing == []
