"""Chapter 567 War: every numbered provision of §§ 567.5 and 567.7-567.11 against the compiled game.

Amounts are worked out by hand from the text (e.g. a $2 Tie wager at 10 to 1 nets +$20), never
copied from program output.
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from compiler.pipeline import ROOT, load_game
from compiler.runtime.cards import parse_card, parse_cards
from compiler.runtime.engine import CallbackStrategy, FixedStrategy, RefusedError
from compiler.runtime.shoe import ScriptedShoe

SPEC = "rulespecs/567-war.yaml"


@pytest.fixture(scope="module")
def war():
    mod, compiled = load_game(SPEC)
    return mod, compiled


def scripted(mod, dealt, options=None, burned=(), first_after_shuffle=False):
    shoe = ScriptedShoe({(("player", k, z) if isinstance(k, int) else (k, None, z)): parse_cards(v)
                         for (k, z), v in dealt.items()}, parse_cards(burned) if burned else ())
    t = mod.new_table(options or {}, shoe=shoe)
    t.first_after_shuffle = first_after_shuffle
    t.game_beginning = False
    return t


def result(res, seat, wager):
    out = [r for r in res.results if r.seat == seat and r.wager == wager]
    assert len(out) == 1, (seat, wager, res.results)
    return out[0]


def log_cites(res, kind):
    return [e.cite for e in res.log if e.kind == kind]


# ------------------------------------------------------------------------------------------------
# § 567.5 Shuffle and cut
# ------------------------------------------------------------------------------------------------

def test_567_5_a_shuffled_before_play_and_after_each_shoe(war):
    mod, _ = war
    t = mod.new_table(seed=3)
    first = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]))
    assert "§ 567.5(a)" in log_cites(first, "shuffle")
    assert t.shoe.shuffles == 1


def test_567_5_b_1_cut_offered_to_first_player_when_game_begins(war):
    mod, _ = war
    t = mod.new_table(seed=3)
    res = t.play_round({2: {"initial": 5}, 5: {"initial": 5}}, FixedStrategy(["war"]))
    offer = [e for e in res.log if e.kind == "cut_offer"][0]
    assert offer.cite == "§ 567.5(b)(1)"
    assert "first to seat 2" in offer.text


def _play_until_reshuffle(mod, seats, seed=11, events_at=None):
    t = mod.new_table(seed=seed)
    for n in range(2000):
        ev = events_at(n) if events_at else []
        res = t.play_round({s: {"initial": 5} for s in seats}, FixedStrategy(["surrender"]), ev)
        if res.reshuffled:
            return t, res
    raise AssertionError("no reshuffle")


def test_567_5_b_2_cut_offered_to_player_whose_area_showed_the_cover_card(war):
    mod, _ = war
    for seed in range(1, 40):
        t, res = _play_until_reshuffle(mod, [1, 3, 6], seed)
        cover = [e for e in res.log if e.kind == "cover_card"][0]
        if "seat" in cover.text:
            seat = int(cover.text.split("seat ")[1].split(";")[0])
            offer = [e for e in res.log if e.kind == "cut_offer"][0]
            assert offer.cite == "§ 567.5(b)(2)"
            assert f"first to seat {seat};" in offer.text
            return
    raise AssertionError("the cover card never came out on a player's area")


def test_567_5_b_3_cut_offered_to_rightmost_player_when_cover_card_on_dealer(war):
    mod, _ = war
    for seed in range(1, 60):
        t, res = _play_until_reshuffle(mod, [1, 3], seed)
        cover = [e for e in res.log if e.kind == "cover_card"][0]
        if "dealer" in cover.text:
            offer = [e for e in res.log if e.kind == "cut_offer"][0]
            assert offer.cite == "§ 567.5(b)(3)"
            assert "first to seat 3;" in offer.text  # seat 3 is the farthest right of the dealer here
            return
    raise AssertionError("the cover card never came out on the dealer's hand")


def test_567_5_b_4_floor_reshuffle_cut_offered_to_rightmost_player(war):
    mod, _ = war
    t = mod.new_table(seed=5)
    t.play_round({2: {"initial": 5}, 4: {"initial": 5}}, FixedStrategy(["war"]))
    res = t.play_round({2: {"initial": 5}, 4: {"initial": 5}}, FixedStrategy(["war"]), [{"event": "floor_reshuffle"}])
    assert res.reshuffled
    assert "§ 567.5(b)(4)" in log_cites(res, "reshuffle")
    offer = [e for e in res.log if e.kind == "cut_offer"][0]
    assert offer.cite == "§ 567.5(b)(4)" and "first to seat 4;" in offer.text


def test_567_5_c_refused_cut_goes_clockwise_then_to_dealer(war):
    mod, _ = war
    t = mod.new_table(seed=1)
    order = t.cut_offer_order("cover_card_on_player", [1, 3, 6], cover_seat=3)
    assert [w for w, _ in order] == [3, 6, 1, "dealer"]
    assert order[0][1] == "§ 567.5(b)(2)" and all(c == "§ 567.5(c)" for _, c in order[1:])


def test_567_5_d_cover_card_at_least_10_cards_from_top_or_bottom(war):
    mod, _ = war
    t = mod.new_table(seed=7)
    n = t.shoe.size
    for _ in range(300):
        t.shoe.shuffle()
        assert 10 <= t.shoe.cut_at <= n - 10


def test_567_5_e_cards_above_cover_moved_to_bottom_and_marker_a_quarter_from_bottom(war):
    mod, _ = war
    import random

    t = mod.new_table(seed=7)
    rng = random.Random(99)
    t.shoe.rng = rng
    state = rng.getstate()
    t.shoe.shuffle()
    rng.setstate(state)
    pack = list(range(52)) * 6
    rng.shuffle(pack)
    k = rng.randint(10, len(pack) - 10)
    assert t.shoe.cut_at == k
    assert t.shoe.cards == pack[k:] + pack[:k]
    assert len(t.shoe.cards) - t.shoe.marker == 312 // 4  # six decks: 78 cards below the second cover card


def test_567_5_f_recut_by_next_person_entitled_under_b_4(war):
    mod, compiled = war
    cut = compiled.chapter.data["cards"]["cut"]
    assert cut["recut"] == {"by": "next_entitled", "as_in": "floor_reshuffle", "cite": "§ 567.5(f)"}
    t = mod.new_table(seed=1)
    order = t.cut_offer_order("floor_reshuffle", [2, 5])
    assert order[0] == (5, "§ 567.5(b)(4)")


def test_567_5_g_reshuffle_after_round_in_which_cover_card_is_reached(war):
    mod, _ = war
    t, res = _play_until_reshuffle(mod, [1, 2, 3, 4, 5, 6, 7], seed=2)
    kinds = [e.kind for e in res.log]
    assert kinds.index("cover_card") < kinds.index("reshuffle")
    # the round in which the cover card came out was completed: every wager settled before the reshuffle
    assert all(r.outcome in ("win", "lose", "surrender") for r in res.results)
    assert "§ 567.5(g); § 567.8(d)" in log_cites(res, "reshuffle")


def _checklist(mod, options):
    return [c for c, _ in mod.new_table(options, seed=1).requirements()]


def test_567_5_h_idle_table_procedure_in_every_configuration(war):
    mod, _ = war
    assert "§ 567.5(h)" in _checklist(mod, {}) and "§ 567.5(h)" in _checklist(mod, {"automated_shuffler": True,
                                                                                       "decks": 12})


def test_567_5_h_1_idle_table_without_shuffler_wash_shuffle_and_cut(war):
    mod, _ = war
    assert "§ 567.5(h)(1)" in _checklist(mod, {"decks": 6})
    assert "§ 567.5(h)(1)" not in _checklist(mod, {"automated_shuffler": True, "decks": 12})


@pytest.mark.parametrize("cite", ["§ 567.5(h)(2)", "§ 567.5(h)(2)(i)", "§ 567.5(h)(2)(ii)"])
def test_567_5_h_2_i_ii_idle_table_with_shuffler_stored_batch(war, cite):
    mod, _ = war
    assert cite in _checklist(mod, {"automated_shuffler": True, "decks": 12})
    assert cite not in _checklist(mod, {"decks": 6})


def test_567_5_h_2_ii_stored_batch_released_under_approved_procedures(war):
    mod, _ = war
    text = dict(mod.new_table({"automated_shuffler": True, "decks": 12}, seed=1).requirements())["§ 567.5(h)(2)(ii)"]
    assert "released and prepared" in text


# ------------------------------------------------------------------------------------------------
# § 567.6 and § 567.7 Wagers
# ------------------------------------------------------------------------------------------------

def test_567_6_suit_has_no_effect_on_rank(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["9S"], ("dealer", "original"): ["9H"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["surrender"]))
    assert result(res, 1, "initial").outcome == "surrender"


def test_567_7_a_wagers_on_layout_recorded_as_requirement(war):
    mod, _ = war
    assert "§ 567.7(a)" in [r[0] for r in mod.REQUIREMENTS]


def test_567_7_b_initial_wager_required_to_participate(war):
    mod, _ = war
    t = mod.new_table(seed=1)
    with pytest.raises(RefusedError, match=r"Initial wager is required.*§ 567.7\(b\)"):
        t.play_round({1: {"tie": 5}})


def test_567_7_c_tie_wager_with_initial_wager_pays_on_tie(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["KS"], ("dealer", "original"): ["KD"]})
    res = t.play_round({1: {"initial": 10, "tie": 2}}, FixedStrategy(["surrender"]))
    assert result(res, 1, "tie").net == Decimal("20.00")  # 10 to 1 on $2


def test_567_7_d_no_wager_after_no_more_bets_except_war_and_tie_on_war_deal(war):
    mod, _ = war
    # a Tie wager may be offered only to players who went to War (§ 567.9(e)); nobody else is asked
    asked = []
    strat = CallbackStrategy(lambda d, c, v: "war", lambda w, v: asked.append((v.seat, w)) or 0)
    t = scripted(mod, {(1, "original"): ["4S"], (2, "original"): ["QS"], ("dealer", "original"): ["4D"],
                       (1, "war"): ["2C"], ("dealer", "war"): ["3C"]})
    t.play_round({1: {"initial": 5}, 2: {"initial": 5}}, strat)
    assert asked == [(1, "war_tie")]
    assert "§ 567.7(d)" in [r[0] for r in mod.REQUIREMENTS]


def test_567_7_e_up_to_two_additional_adjacent_positions_when_allowed(war):
    mod, _ = war
    t = mod.new_table({"adjacent_positions": 2}, seed=1)
    t.play_round({3: {"initial": 5}, 4: {"initial": 5}, 5: {"initial": 5}}, FixedStrategy(["war"]),
                 players={3: "Pat", 4: "Pat", 5: "Pat"})
    with pytest.raises(RefusedError, match=r"at most 3 .*§ 567.7\(e\)"):
        t.play_round({1: {"initial": 5}, 2: {"initial": 5}, 3: {"initial": 5}, 4: {"initial": 5}},
                     FixedStrategy(["war"]), players={1: "Pat", 2: "Pat", 3: "Pat", 4: "Pat"})
    with pytest.raises(RefusedError, match=r"not adjacent .*§ 567.7\(e\)"):
        t.play_round({1: {"initial": 5}, 3: {"initial": 5}}, FixedStrategy(["war"]), players={1: "Pat", 3: "Pat"})
    t0 = mod.new_table({}, seed=1)
    with pytest.raises(RefusedError, match=r"at most 1"):
        t0.play_round({1: {"initial": 5}, 2: {"initial": 5}}, FixedStrategy(["war"]), players={1: "Pat", 2: "Pat"})


# ------------------------------------------------------------------------------------------------
# § 567.8 Dealing
# ------------------------------------------------------------------------------------------------

def test_567_8_a_burn_first_card_after_cut_and_for_each_new_dealer(war):
    mod, _ = war
    t = mod.new_table(seed=4)
    r1 = t.play_round({1: {"initial": 5}}, FixedStrategy(["surrender"]))
    r2 = t.play_round({1: {"initial": 5}}, FixedStrategy(["surrender"]))
    r3 = t.play_round({1: {"initial": 5}}, FixedStrategy(["surrender"]), new_dealer=True)
    assert log_cites(r1, "burn")[:1] == ["§ 567.8(a)"]
    assert "§ 567.8(a)" not in log_cites(r2, "burn")
    assert log_cites(r3, "burn")[:1] == ["§ 567.8(a)"]


def test_567_8_b_no_more_bets_announced_before_any_card(war):
    mod, _ = war
    t = mod.new_table(seed=4)
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]))
    kinds = [e.kind for e in res.log]
    assert kinds.index("announce") < kinds.index("deal")
    assert log_cites(res, "announce") == ["§ 567.8(b)"]


def test_567_8_c_1_one_card_to_each_initial_wager_from_dealers_left(war):
    mod, _ = war
    t = mod.new_table(seed=4)
    res = t.play_round({6: {"initial": 5}, 2: {"initial": 5}, 4: {"initial": 5}}, FixedStrategy(["war"]))
    deals = [e for e in res.log if e.kind == "deal" and e.cite == "§ 567.8(c)(1)"]
    assert [e.seat for e in deals] == [2, 4, 6]


def test_567_8_c_2_one_card_to_the_dealer_after_the_players(war):
    mod, _ = war
    t = mod.new_table(seed=4)
    res = t.play_round({1: {"initial": 5}, 2: {"initial": 5}}, FixedStrategy(["war"]))
    deals = [e for e in res.log if e.kind == "deal"]
    assert deals[2].cite == "§ 567.8(c)(2)" and deals[2].seat is None
    assert len(res.dealt["dealer"]["original"]) == 1


def test_567_8_d_cover_card_round_completed_then_reshuffle(war):
    test_567_5_g_reshuffle_after_round_in_which_cover_card_is_reached(war)


def test_567_8_e_players_do_not_touch_cards_recorded(war):
    mod, _ = war
    assert "§ 567.8(e)" in [r[0] for r in mod.REQUIREMENTS]


# ------------------------------------------------------------------------------------------------
# § 567.9 Completion of the round
# ------------------------------------------------------------------------------------------------

def test_567_9_a_settled_from_dealers_left_clockwise(war):
    mod, _ = war
    t = scripted(mod, {(5, "original"): ["2S"], (1, "original"): ["AS"], ("dealer", "original"): ["9H"]})
    res = t.play_round({5: {"initial": 5}, 1: {"initial": 5}}, FixedStrategy(["war"]))
    settled = [e.seat for e in res.log if e.kind in ("win", "lose")]
    assert settled == [1, 5]


def test_567_9_a_1_lower_card_loses_initial_and_tie(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["7S"], ("dealer", "original"): ["8H"]})
    res = t.play_round({1: {"initial": 10, "tie": 3}}, FixedStrategy(["war"]))
    assert (result(res, 1, "initial").net, result(res, 1, "tie").net) == (Decimal("-10.00"), Decimal("-3.00"))
    assert result(res, 1, "initial").cites == ("§ 567.9(a)(1)",)


def test_567_9_a_2_higher_card_wins_initial_and_loses_tie(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["AS"], ("dealer", "original"): ["KH"]})
    res = t.play_round({1: {"initial": 10, "tie": 3}}, FixedStrategy(["war"]))
    assert result(res, 1, "initial").net == Decimal("10.00")
    assert result(res, 1, "tie").net == Decimal("-3.00")
    assert "§ 567.9(a)(2)" in result(res, 1, "initial").cites


def test_567_9_a_3_tie_hand_wins_tie_wager_and_offers_options(war):
    mod, _ = war
    seen = []
    strat = CallbackStrategy(lambda d, c, v: seen.append((d, tuple(c))) or "surrender")
    t = scripted(mod, {(1, "original"): ["5S"], ("dealer", "original"): ["5C"]})
    res = t.play_round({1: {"initial": 10, "tie": 1}}, strat)
    assert result(res, 1, "tie").net == Decimal("10.00")
    assert seen == [("tie_hand_option", ("surrender", "war"))]


def test_567_9_b_losing_wagers_collected_and_winners_paid_at_567_10(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["QS"], ("dealer", "original"): ["JH"]})
    res = t.play_round({1: {"initial": 25}}, FixedStrategy(["war"]))
    assert result(res, 1, "initial").cites == ("§ 567.9(a)(2)", "§ 567.10(1)")
    assert t.ledger.players == Decimal("25.00") and t.ledger.house == Decimal("-25.00")


def test_567_9_c_1_surrender_collects_half_and_returns_half(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["5S"], ("dealer", "original"): ["5C"]})
    res = t.play_round({1: {"initial": 25}}, FixedStrategy(["surrender"]))
    r = result(res, 1, "initial")
    assert (r.outcome, r.net) == ("surrender", Decimal("-12.50"))
    assert r.cites == ("§ 567.9(c)(1)",)


def test_567_9_c_2_war_surrenders_initial_and_places_equal_war_wager(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["5S"], ("dealer", "original"): ["5C"], (1, "war"): ["9S"],
                       ("dealer", "war"): ["2D"]})
    res = t.play_round({1: {"initial": 20}}, FixedStrategy(["war"]))
    assert result(res, 1, "initial").net == Decimal("-20.00")
    assert result(res, 1, "war").amount == Decimal("20.00")
    assert result(res, 1, "war").net == Decimal("40.00")  # 2 to 1


def test_567_9_d_original_deal_kept_for_reconstruction(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["5S"], (2, "original"): ["KD"], ("dealer", "original"): ["5C"],
                       (1, "war"): ["9S"], ("dealer", "war"): ["2D"]})
    res = t.play_round({1: {"initial": 5}, 2: {"initial": 5}}, FixedStrategy(["war"]))
    assert res.dealt["seat 2"] == {"original": ["KD"]}
    assert res.dealt["seat 1"] == {"original": ["5S"], "war": ["9S"]}
    assert "§ 567.9(d)" in [r[0] for r in mod.REQUIREMENTS]


def test_567_9_e_tie_wager_may_be_placed_on_war_deal(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["JS"],
                       ("dealer", "war"): ["JD"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"], {"war_tie": 2}))
    assert result(res, 1, "war_tie").cites == ("§ 567.9(g)(3)", "§ 567.10(2)")
    assert result(res, 1, "war_tie").net == Decimal("20.00")
    assert [e.cite for e in res.log if e.kind == "wager" and e.wager == "war_tie"] == ["§ 567.9(e)"]


def test_567_9_f_war_deal_burns_three_then_deals_players_then_dealer(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["8S"], (3, "original"): ["8H"], ("dealer", "original"): ["8C"],
                       (1, "war"): ["JS"], (3, "war"): ["2S"], ("dealer", "war"): ["9D"]},
                 burned=["AS", "AH", "AD"])
    res = t.play_round({1: {"initial": 5}, 3: {"initial": 5}}, FixedStrategy(["war"]))
    burns = [e for e in res.log if e.kind == "burn"]
    assert burns[-1].cite == "§ 567.9(f)" and burns[-1].text.startswith("3 cards")
    war_deals = [(e.seat, e.cite) for e in res.log if e.kind == "deal" and "(war)" in e.text]
    assert war_deals == [(1, "§ 567.9(f)"), (3, "§ 567.9(f)"), (None, "§ 567.9(f)")]


def test_567_9_g_1_lower_war_card_loses_war_and_tie(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["3S"],
                       ("dealer", "war"): ["9D"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"], {"war_tie": 1}))
    assert result(res, 1, "war").net == Decimal("-5.00")
    assert result(res, 1, "war_tie").net == Decimal("-1.00")


def test_567_9_g_2_higher_war_card_wins_war_at_2_to_1_and_loses_tie(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["KS"],
                       ("dealer", "war"): ["9D"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"], {"war_tie": 1}))
    assert result(res, 1, "war").net == Decimal("10.00")
    assert result(res, 1, "war_tie").net == Decimal("-1.00")


def test_567_9_g_3_war_deal_tie_pays_war_3_to_1_and_tie_10_to_1(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["KS"],
                       ("dealer", "war"): ["KD"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"], {"war_tie": 1}))
    assert result(res, 1, "war").net == Decimal("15.00")
    assert result(res, 1, "war_tie").net == Decimal("10.00")
    assert sum(r.net for r in res.results) == Decimal("20.00")  # -5 initial + 15 + 10


def test_567_9_h_war_deal_losers_collected_winners_paid_cards_kept(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["8S"], ("dealer", "original"): ["8C"], (1, "war"): ["3S"],
                       ("dealer", "war"): ["9D"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]))
    assert t.ledger.house == Decimal("10.00")  # Initial and War wagers both collected
    assert "§ 567.9(h)" in [r[0] for r in mod.REQUIREMENTS]


# ------------------------------------------------------------------------------------------------
# § 567.10 Payout odds
# ------------------------------------------------------------------------------------------------

def test_567_10_1_initial_wager_1_to_1(war):
    mod, _ = war
    assert str(mod.PAYOUTS["initial"].odds) == "1 to 1" and mod.PAYOUTS["initial"].cite == "§ 567.10(1)"


def test_567_10_2_tie_wager_10_to_1(war):
    mod, _ = war
    assert str(mod.PAYOUTS["tie"].odds) == "10 to 1"
    test_567_7_c_tie_wager_with_initial_wager_pays_on_tie(war)


def test_567_10_3_war_wager_2_to_1_or_3_to_1_on_tie(war):
    mod, _ = war
    assert (str(mod.PAYOUTS["war"].odds), str(mod.PAYOUTS["war_tie_hand"].odds)) == ("2 to 1", "3 to 1")
    test_567_9_g_3_war_deal_tie_pays_war_3_to_1_and_tie_10_to_1(war)


# ------------------------------------------------------------------------------------------------
# § 567.11 Irregularities
# ------------------------------------------------------------------------------------------------

def test_567_11_a_one_face_up_card_is_discarded_and_not_used(war):
    mod, _ = war
    t = mod.new_table(seed=21)
    import copy

    twin = mod.new_table(seed=21)
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]), [{"event": "face_up_card", "before": "deal_players"}])
    assert "§ 567.11(a)" in log_cites(res, "discard")
    # the discarded card is not dealt: the player gets the card after it
    twin_cards = twin.shoe.cards
    burn, face_up, nxt = twin_cards[0], twin_cards[1], twin_cards[2]
    from compiler.runtime.cards import card_str

    assert res.dealt["seat 1"]["original"] == [card_str(nxt)]
    assert not res.void


def test_567_11_a_more_than_one_face_up_card_voids_all_hands_and_reshuffles(war):
    mod, _ = war
    t = mod.new_table(seed=21)
    res = t.play_round({1: {"initial": 5, "tie": 1}, 2: {"initial": 10}}, FixedStrategy(["war"]),
                       [{"event": "face_up_card", "before": "deal_players", "count": 2}])
    assert res.void and res.reshuffled
    assert all(r.outcome == "void" and r.net == 0 for r in res.results)
    assert "§ 567.11(a)" in log_cites(res, "reshuffle")
    assert t.ledger.players == 0 and t.ledger.house == 0


def test_567_11_b_card_drawn_in_error_used_as_next_card(war):
    mod, _ = war
    t = mod.new_table(seed=8)
    twin = mod.new_table(seed=8)
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]), [{"event": "drawn_in_error", "before": "deal_players"}])
    twin_res = twin.play_round({1: {"initial": 5}}, FixedStrategy(["war"]))
    assert res.dealt == twin_res.dealt  # the same cards reach the same places
    assert "§ 567.11(b)" in log_cites(res, "use")


def test_567_11_c_card_not_dealt_voids_initial_and_tie(war):
    mod, _ = war
    t = scripted(mod, {(1, "original"): ["9H"], ("dealer", "original"): ["8D"]})
    res = t.play_round({1: {"initial": 10}, 3: {"initial": 15, "tie": 5}}, FixedStrategy(["war"]),
                       [{"event": "card_not_dealt", "before": "deal_players", "seat": 3}])
    assert result(res, 3, "initial").outcome == "void" and result(res, 3, "tie").outcome == "void"
    assert result(res, 1, "initial").net == Decimal("10.00")
    assert any("next round" in e.text for e in res.log if e.kind == "note")


def test_567_11_c_card_not_dealt_in_war_deal_completes_the_war_deal_under_567_9_f_g(war):
    # § 567.11(c) covers the original deal only (interpretation card-not-dealt-in-war-deal): the
    # skipped player receives the War deal card and the War and Tie wagers are settled by § 567.9(g)
    mod, _ = war
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


def test_567_11_d_shuffler_jam_reshuffles(war):
    mod, _ = war
    t = mod.new_table({"automated_shuffler": True, "decks": 12}, seed=8)
    before = t.shoe.shuffles
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]), [{"event": "shuffler_malfunction", "before": "no_more_bets"}])
    assert t.shoe.shuffles == before + 1
    assert "§ 567.11(d)" in log_cites(res, "reshuffle")


def test_567_3_c_shuffler_batches_make_a_shoe_of_half_the_decks(war):
    mod, _ = war
    assert mod.new_table({"automated_shuffler": True, "decks": 14}, seed=1).shoe.decks == 7
    assert mod.new_table({"decks": 8}, seed=1).shoe.decks == 8


# ------------------------------------------------------------------------------------------------
# Whole sessions
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", ["war", "surrender"])
def test_567_money_is_conserved_over_whole_shoes_with_seven_positions(war, policy):
    mod, _ = war
    t = mod.new_table({"decks": 8}, seed=1234)
    for i in range(1500):
        t.play_round({s: {"initial": 5, "tie": 1} for s in range(1, 8)}, FixedStrategy([policy], {"war_tie": 1}))
    assert t.ledger.balance() == 0
    assert len(t.reshuffles) >= 10
    assert t.ledger.players != 0


def test_567_strategy_callback_is_consulted_with_the_view(war):
    mod, _ = war
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
    """Each numbered provision of §§ 567.5 and 567.7-567.11 is named by a test of this module
    (test_567_9_c_1_... covers § 567.9(c)(1) and its parents)."""
    import sys

    names = [n for n in dir(sys.modules[__name__]) if n.startswith("test_567_")]
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
