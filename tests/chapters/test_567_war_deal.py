"""Chapter 567 War, §§ 567.5-567.8; §§ 567.9-567.11 and whole sessions are in test_567_war_play.py.

The tests of the chapter and how they are written: tests/chapters/ch567.py.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from chapters.ch567 import (
    scripted, result, log_cites,
)

from compiler.runtime.engine import CallbackStrategy, FixedStrategy, RefusedError

SPEC = "rulespecs/567-war.yaml"


# ------------------------------------------------------------------------------------------------
# § 567.5 Shuffle and cut
# ------------------------------------------------------------------------------------------------

def test_567_5_a_shuffled_before_play_and_after_each_shoe(game):
    mod, _ = game
    t = mod.new_table(seed=3)
    first = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]))
    assert "§ 567.5(a)" in log_cites(first, "shuffle")
    assert t.shoe.shuffles == 1


def test_567_5_b_1_cut_offered_to_first_player_when_game_begins(game):
    mod, _ = game
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


def test_567_5_b_2_cut_offered_to_player_whose_area_showed_the_cover_card(game):
    mod, _ = game
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


def test_567_5_b_3_cut_offered_to_rightmost_player_when_cover_card_on_dealer(game):
    mod, _ = game
    for seed in range(1, 60):
        t, res = _play_until_reshuffle(mod, [1, 3], seed)
        cover = [e for e in res.log if e.kind == "cover_card"][0]
        if "dealer" in cover.text:
            offer = [e for e in res.log if e.kind == "cut_offer"][0]
            assert offer.cite == "§ 567.5(b)(3)"
            assert "first to seat 3;" in offer.text  # seat 3 is the farthest right of the dealer here
            return
    raise AssertionError("the cover card never came out on the dealer's hand")


def test_567_5_b_4_floor_reshuffle_cut_offered_to_rightmost_player(game):
    mod, _ = game
    t = mod.new_table(seed=5)
    t.play_round({2: {"initial": 5}, 4: {"initial": 5}}, FixedStrategy(["war"]))
    res = t.play_round({2: {"initial": 5}, 4: {"initial": 5}}, FixedStrategy(["war"]), [{"event": "floor_reshuffle"}])
    assert res.reshuffled
    assert "§ 567.5(b)(4)" in log_cites(res, "reshuffle")
    offer = [e for e in res.log if e.kind == "cut_offer"][0]
    assert offer.cite == "§ 567.5(b)(4)" and "first to seat 4;" in offer.text


def test_567_5_c_refused_cut_goes_clockwise_then_to_dealer(game):
    mod, _ = game
    t = mod.new_table(seed=1)
    order = t.cut_offer_order("cover_card_on_player", [1, 3, 6], cover_seat=3)
    assert [w for w, _ in order] == [3, 6, 1, "dealer"]
    assert order[0][1] == "§ 567.5(b)(2)" and all(c == "§ 567.5(c)" for _, c in order[1:])


def test_567_5_d_cover_card_at_least_10_cards_from_top_or_bottom(game):
    mod, _ = game
    t = mod.new_table(seed=7)
    n = t.shoe.size
    for _ in range(300):
        t.shoe.shuffle()
        assert 10 <= t.shoe.cut_at <= n - 10


def test_567_5_e_cards_above_cover_moved_to_bottom_and_marker_a_quarter_from_bottom(game):
    mod, _ = game
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


def test_567_5_f_recut_by_next_person_entitled_under_b_4(game):
    mod, compiled = game
    cut = compiled.chapter.data["cards"]["cut"]
    assert cut["recut"] == {"by": "next_entitled", "as_in": "floor_reshuffle", "cite": "§ 567.5(f)"}
    t = mod.new_table(seed=1)
    order = t.cut_offer_order("floor_reshuffle", [2, 5])
    assert order[0] == (5, "§ 567.5(b)(4)")


def test_567_5_g_reshuffle_after_round_in_which_cover_card_is_reached(game):
    mod, _ = game
    t, res = _play_until_reshuffle(mod, [1, 2, 3, 4, 5, 6, 7], seed=2)
    kinds = [e.kind for e in res.log]
    assert kinds.index("cover_card") < kinds.index("reshuffle")
    # the round in which the cover card came out was completed: every wager settled before the reshuffle
    assert all(r.outcome in ("win", "lose", "surrender") for r in res.results)
    assert "§ 567.5(g); § 567.8(d)" in log_cites(res, "reshuffle")


def _checklist(mod, options):
    return [c for c, _ in mod.new_table(options, seed=1).requirements()]


def test_567_5_h_idle_table_procedure_in_every_configuration(game):
    mod, _ = game
    assert "§ 567.5(h)" in _checklist(mod, {}) and "§ 567.5(h)" in _checklist(mod, {"automated_shuffler": True,
                                                                                       "decks": 12})


def test_567_5_h_1_idle_table_without_shuffler_wash_shuffle_and_cut(game):
    mod, _ = game
    assert "§ 567.5(h)(1)" in _checklist(mod, {"decks": 6})
    assert "§ 567.5(h)(1)" not in _checklist(mod, {"automated_shuffler": True, "decks": 12})


@pytest.mark.parametrize("cite", ["§ 567.5(h)(2)", "§ 567.5(h)(2)(i)", "§ 567.5(h)(2)(ii)"])
def test_567_5_h_2_i_ii_idle_table_with_shuffler_stored_batch(game, cite):
    mod, _ = game
    assert cite in _checklist(mod, {"automated_shuffler": True, "decks": 12})
    assert cite not in _checklist(mod, {"decks": 6})


def test_567_5_h_2_ii_stored_batch_released_under_approved_procedures(game):
    mod, _ = game
    text = dict(mod.new_table({"automated_shuffler": True, "decks": 12}, seed=1).requirements())["§ 567.5(h)(2)(ii)"]
    assert "released and prepared" in text


# ------------------------------------------------------------------------------------------------
# § 567.6 and § 567.7 Wagers
# ------------------------------------------------------------------------------------------------

def test_567_6_suit_has_no_effect_on_rank(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["9S"], ("dealer", "original"): ["9H"]})
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["surrender"]))
    assert result(res, 1, "initial").outcome == "surrender"


def test_567_7_a_wagers_on_layout_recorded_as_requirement(game):
    mod, _ = game
    assert "§ 567.7(a)" in [r[0] for r in mod.REQUIREMENTS]


def test_567_7_b_initial_wager_required_to_participate(game):
    mod, _ = game
    t = mod.new_table(seed=1)
    with pytest.raises(RefusedError, match=r"Initial wager is required.*§ 567.7\(b\)"):
        t.play_round({1: {"tie": 5}})


def test_567_7_c_tie_wager_with_initial_wager_pays_on_tie(game):
    mod, _ = game
    t = scripted(mod, {(1, "original"): ["KS"], ("dealer", "original"): ["KD"]})
    res = t.play_round({1: {"initial": 10, "tie": 2}}, FixedStrategy(["surrender"]))
    assert result(res, 1, "tie").net == Decimal("20.00")  # 10 to 1 on $2


def test_567_7_d_no_wager_after_no_more_bets_except_war_and_tie_on_war_deal(game):
    mod, _ = game
    # a Tie wager may be offered only to players who went to War (§ 567.9(e)); nobody else is asked
    asked = []
    strat = CallbackStrategy(lambda d, c, v: "war", lambda w, v: asked.append((v.seat, w)) or 0)
    t = scripted(mod, {(1, "original"): ["4S"], (2, "original"): ["QS"], ("dealer", "original"): ["4D"],
                       (1, "war"): ["2C"], ("dealer", "war"): ["3C"]})
    t.play_round({1: {"initial": 5}, 2: {"initial": 5}}, strat)
    assert asked == [(1, "war_tie")]
    assert "§ 567.7(d)" in [r[0] for r in mod.REQUIREMENTS]


def test_567_7_e_up_to_two_additional_adjacent_positions_when_allowed(game):
    mod, _ = game
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

def test_567_8_a_burn_first_card_after_cut_and_for_each_new_dealer(game):
    mod, _ = game
    t = mod.new_table(seed=4)
    r1 = t.play_round({1: {"initial": 5}}, FixedStrategy(["surrender"]))
    r2 = t.play_round({1: {"initial": 5}}, FixedStrategy(["surrender"]))
    r3 = t.play_round({1: {"initial": 5}}, FixedStrategy(["surrender"]), new_dealer=True)
    assert log_cites(r1, "burn")[:1] == ["§ 567.8(a)"]
    assert "§ 567.8(a)" not in log_cites(r2, "burn")
    assert log_cites(r3, "burn")[:1] == ["§ 567.8(a)"]


def test_567_8_b_no_more_bets_announced_before_any_card(game):
    mod, _ = game
    t = mod.new_table(seed=4)
    res = t.play_round({1: {"initial": 5}}, FixedStrategy(["war"]))
    kinds = [e.kind for e in res.log]
    assert kinds.index("announce") < kinds.index("deal")
    assert log_cites(res, "announce") == ["§ 567.8(b)"]


def test_567_8_c_1_one_card_to_each_initial_wager_from_dealers_left(game):
    mod, _ = game
    t = mod.new_table(seed=4)
    res = t.play_round({6: {"initial": 5}, 2: {"initial": 5}, 4: {"initial": 5}}, FixedStrategy(["war"]))
    deals = [e for e in res.log if e.kind == "deal" and e.cite == "§ 567.8(c)(1)"]
    assert [e.seat for e in deals] == [2, 4, 6]


def test_567_8_c_2_one_card_to_the_dealer_after_the_players(game):
    mod, _ = game
    t = mod.new_table(seed=4)
    res = t.play_round({1: {"initial": 5}, 2: {"initial": 5}}, FixedStrategy(["war"]))
    deals = [e for e in res.log if e.kind == "deal"]
    assert deals[2].cite == "§ 567.8(c)(2)" and deals[2].seat is None
    assert len(res.dealt["dealer"]["original"]) == 1


def test_567_8_d_cover_card_round_completed_then_reshuffle(game):
    test_567_5_g_reshuffle_after_round_in_which_cover_card_is_reached(game)


def test_567_8_e_players_do_not_touch_cards_recorded(game):
    mod, _ = game
    assert "§ 567.8(e)" in [r[0] for r in mod.REQUIREMENTS]
