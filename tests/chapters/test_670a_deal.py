"""Chapter 670a Six-Card Fortune Pai Gow Poker, §§ 670a.5-670a.10; §§ 670a.11-670a.13, sessions and
the coverage check are in test_670a_play.py.

The tests of the chapter and how they are written: tests/chapters/ch670a.py.
"""
from __future__ import annotations

import pytest

from chapters.ch670a import (
    D, ALL, covers, requirement, play, net, outcome, _steps,
)

from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import CallbackStrategy, RefusedError, Strategy, Table

SPEC = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"


# ------------------------------------------------------------------------------------------------
# § 670a.5 Shuffle and cut; starting position
# ------------------------------------------------------------------------------------------------

@covers("§ 670a.5(a)")
def test_670a_5_a_cards_reshuffled_after_every_round(mod):
    t = mod.new_table({}, seed=2)
    for _ in range(3):
        res = t.play_round({1: {"pai_gow": 5}})
        assert any(e.kind == "reshuffle" and e.cite == "§ 670a.5(a)" for e in res.log)
    assert len(t.reshuffles) == 3


@covers("§ 670a.5(b)", "§ 670a.5(b)(1)", "§ 670a.5(b)(2)", "§ 670a.5(c)")
def test_670a_5_b_c_cut_after_a_manual_shuffle_no_cut_after_a_machine_shuffle_encoded(data):
    assert requirement(data, "§ 670a.5(b)(1)")[0]["when"] == "option(automated_shuffler)"
    assert requirement(data, "§ 670a.5(b)(2)")[0]["when"] == "not option(automated_shuffler)"
    assert "§ 670a.5(c)" in data["cards"]["cut"]["cite"]
    assert "no player accepts the cut the dealer cuts" in requirement(data, "§ 670a.5(c)")[0]["text"]


@covers("§ 670a.5(d)", "§ 670a.5(d)(1)", "§ 670a.5(d)(2)")
def test_670a_5_d_cut_offered_first_player_then_rightmost_counterclockwise(mod):
    t = mod.new_table({}, seed=5)
    first = t.play_round({2: {"pai_gow": 5}, 4: {"pai_gow": 5}, 5: {"pai_gow": 5}})
    offers = [e for e in first.log if e.kind == "cut_offer"]
    assert offers[0].cite == "§ 670a.5(d)(1)" and "seat 2" in offers[0].text
    # after the round: the player farthest to the dealer's right (seat 5), then counterclockwise
    assert offers[1].cite == "§ 670a.5(d)(2)"
    assert offers[1].text == ("the cut is offered first to seat 5; if refused, to seat 4, seat 2, the dealer")
    assert t.cut_offer_order("cover_card_on_dealer", [2, 4, 5])[-1][0] == "dealer"


@covers("§ 670a.5(e)")
def test_670a_5_e_cover_card_at_least_ten_cards_from_either_end(mod, data):
    t = mod.new_table({}, seed=11)
    for _ in range(20):
        t.play_round({1: {"pai_gow": 5}})
        assert 10 <= t.shoe.cut_at <= 53 - 10
    assert data["cards"]["cut"]["min_from_edge_cite"] == "§ 670a.5(e)"
    assert requirement(data, "§ 670a.5(e)")


@covers("§ 670a.5(f)")
def test_670a_5_f_recut_encoded(data):
    assert data["cards"]["cut"]["recut"]["cite"] == "§ 670a.5(f)"
    assert "recut" in requirement(data, "§ 670a.5(f)")[0]["text"]


@covers("§ 670a.5(g)", "§ 670a.5(g)(1)", "§ 670a.5(g)(2)")
def test_670a_5_g_idle_table_encoded(data):
    assert "no gaming activity" in requirement(data, "§ 670a.5(g)")[0]["text"]
    assert requirement(data, "§ 670a.5(g)(1)")[0]["when"] == "not option(automated_shuffler)"
    assert requirement(data, "§ 670a.5(g)(2)")[0]["when"] == "option(automated_shuffler)"


@covers("§ 670a.5(h)")
def test_670a_5_h_automatic_reshuffling_device_encoded(data):
    assert requirement(data, "§ 670a.5(h)")[0]["when"] == "option(reshuffling_device)"
    assert any(e["cite"] == "§ 670a.5(h)" for e in data["table"]["equipment"])


@covers("§ 670a.5(i)", "§ 670a.5(i)(1)", "§ 670a.5(i)(1)(i)", "§ 670a.5(i)(1)(ii)", "§ 670a.5(i)(1)(iii)")
@pytest.mark.parametrize("dice,start", [((1, 1, 1), "position 5"), ((2, 3, 4), "position 6"),
                                        ((5, 5, 5), "the dealer"), ((1, 2, 4), "position 1"),
                                        ((6, 6, 6), "position 4"), ((3, 4, 5), "position 3")])
def test_670a_5_i_1_iii_dice_counted_from_the_dealer_counterclockwise(mod, dice, start):
    # dealer = 1, then the dealer's right (position 6) = 2, ..., position 1 = 7, the dealer = 8, ...
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 5}}}, "QS QH 8C 5C 3H 2S",
                  dice=dice)
    roll = next(e for e in res.log if e.kind == "roll")
    assert roll.text.startswith(f"dice {dice[0]} + {dice[1]} + {dice[2]} = {sum(dice)}")
    assert roll.cite == "§ 670a.5(i)(1)(i); § 670a.5(i)(1)(ii)"
    st = next(e for e in res.log if e.kind == "start")
    assert st.text.startswith(f"starting position: {start} (counting {sum(dice)} from the dealer as one")


@covers("§ 670a.5(i)(1)(iv)")
def test_670a_5_i_1_iv_shaker_covered_and_shaken_after_the_deal_encoded(data):
    r = requirement(data, "§ 670a.5(i)(1)(iv)")[0]
    assert r["step"] == "collect_unwagered_stacks" and "shakes it once" in r["text"]


@covers("§ 670a.5(i)(2)")
@pytest.mark.parametrize("number,start", [(1, "the dealer"), (2, "position 6"), (4, "position 4"), (7, "position 1")])
def test_670a_5_i_2_random_number_generator_1_to_7(mod, number, start):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 5}}}, "QS QH 8C 5C 3H 2S",
                  options={"starting_position": "random_number_generator"}, dice=(number,))
    assert next(e for e in res.log if e.kind == "roll").text.startswith(f"random number generator displays {number}")
    assert next(e for e in res.log if e.kind == "start").text.startswith(f"starting position: {start}")
    with pytest.raises(RefusedError):
        play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 5}}}, "QS QH 8C 5C 3H 2S",
             options={"starting_position": "random_number_generator"}, dice=(8,))


@covers("§ 670a.5(j)")
def test_670a_5_j_starting_position_marker_encoded(data):
    assert requirement(data, "§ 670a.5(j)")[0]["when"] == "option(start_marker)"


# ------------------------------------------------------------------------------------------------
# § 670a.6 Rankings
# ------------------------------------------------------------------------------------------------

def value(mod, cards, rid="five_card"):
    t = mod.new_table({}, seed=0)
    cs = parse_cards(cards)
    r = t.ranking(rid)
    return r.evaluate(cs) if len(cs) == r.cards else r.best(cs)[0]


@covers("§ 670a.6(a)")
def test_670a_6_a_joker_as_ace_or_to_complete_straight_or_flush_and_no_wrap(mod):
    assert value(mod, "JK KS 9D 7C 4H").category == "high_card" and value(mod, "JK KS 9D 7C 4H").high == "A"
    assert value(mod, "JK 9S 8D 7C 5H").category == "straight"
    assert value(mod, "JK 9S 6S 4S 2S").category == "flush"
    assert value(mod, "QS KD AH 2C 3S").category == "high_card"        # no wrap
    assert value(mod, "AS 2D 3H 4C 5S").category == "straight"          # ace low


@covers("§ 670a.6(b)", "§ 670a.6(b)(1)", "§ 670a.6(b)(2)", "§ 670a.6(b)(3)", "§ 670a.6(b)(4)",
        "§ 670a.6(b)(5)", "§ 670a.6(b)(6)", "§ 670a.6(b)(7)", "§ 670a.6(b)(8)", "§ 670a.6(b)(9)",
        "§ 670a.6(b)(10)")
def test_670a_6_b_order_of_the_five_card_hands(mod):
    hands = ["AS AH AD AC JK", "KH QH JH TH JK", "AS 2S 3S 4S 5S", "KD QD JD TD 9D", "2C 3C 4C 5C 6C",
             "AS AH AD AC 2C", "2S 2H 2D 2C 3C", "AS AH AD KC KS", "2S 2H 2D 3C 3S", "AS QS 9S 7S 5S",
             "AC KD QH JS TC", "AS 2D 3H 4C 5S", "2S 3D 4H 5C 6S", "AS AH AD 3C 2S", "AS AH KD KC 2S",
             "3S 3H 2D 2C 4S", "AS AH 7D 4C 2S", "2S 2H 7D 4C 3S", "AS KS QD JC 9S"]
    vals = [value(mod, h) for h in hands]
    assert vals == sorted(vals, reverse=True) and len(set(vals)) == len(vals)
    assert [v.category for v in vals[:3]] == ["five_aces", "royal_flush", "straight_flush"]
    # flushes: the highest card not in the other hand
    assert value(mod, "AS QS 9S 7S 5S") > value(mod, "AH QH 9H 7H 4H")


@covers("§ 670a.6(c)")
def test_670a_6_c_identical_hands_go_to_the_dealer_and_a_joker_low_hand_is_higher(mod):
    assert value(mod, "JK", "low_hand") == value(mod, "AS", "low_hand")
    t, res = play(mod, {1: {"cards": "JK 6C 6D 2H 9S JD", "wagers": {"pai_gow": 10}, "low": "JK"},
                        2: {"cards": "AC KD 9H 7S 4C 3C", "wagers": {"pai_gow": 10}, "low": "AC"}},
                  "KS KH QD 8C 5C AH")
    # dealer: kings over an ace. Seat 1's joker beats the ace; seat 2's ace is a copy (dealer)
    assert outcome(res, 1, "pai_gow").outcome == "push"          # high loses, low wins
    assert outcome(res, 2, "pai_gow").outcome == "lose"          # K-9-7-4-3 < kings; ace = ace


# ------------------------------------------------------------------------------------------------
# § 670a.7 Wagers
# ------------------------------------------------------------------------------------------------

@covers("§ 670a.7(a)")
def test_670a_7_a_chips_on_the_layout_encoded(data):
    assert "verbal" in requirement(data, "§ 670a.7(a)")[0]["text"]


@covers("§ 670a.7(b)")
def test_670a_7_b_abandoned_wagers_lose(mod):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}},
                        2: {"cards": "AH KH 9C 7D 4S 3H", "wagers": {"pai_gow": 5}}},
                  "QS QH 8C 5C 3D 2S", events=[{"event": "player_left_table", "after": "collect_unwagered_stacks",
                                                "seat": 1}])
    assert net(res, 1) == D(-10) and outcome(res, 1, "pai_gow").cites == ["§ 670a.7(b)"]


@covers("§ 670a.7(c)")
def test_670a_7_c_double_down_the_only_wager_after_no_more_bets(mod, data):
    assert requirement(data, "§ 670a.7(c)")[0]["step"] == "no_more_bets"
    order = [s.id for s in _steps(mod.GAME.procedure)]
    assert order.index("no_more_bets") < order.index("deal_hands") < order.index("offer_double_down")
    assert mod.GAME.wagers["double_down"].placed == "during_round"


@covers("§ 670a.7(d)")
def test_670a_7_d_the_main_wager_is_required(mod):
    t = mod.new_table(ALL, seed=1)
    with pytest.raises(RefusedError, match="required"):
        t.play_round({1: {"fortune_bonus": 5}})


@covers("§ 670a.7(e)", "§ 670a.7(e)(1)", "§ 670a.7(e)(2)", "§ 670a.7(e)(3)", "§ 670a.7(e)(4)")
def test_670a_7_e_optional_wagers_only_if_offered_and_double_down_equal_to_the_wager(mod):
    t = mod.new_table({}, seed=1)
    for w in ("fortune_bonus", "insurance", "progressive"):
        with pytest.raises(RefusedError, match="not offered"):
            t.play_round({1: {"pai_gow": 5, w: 5}})
    with pytest.raises(RefusedError, match="must equal"):
        play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}, "offers": {"double_down": 5}}},
             "QS QH 8C 5C 3H 2S", options={"double_down_offered": True})
    t2 = mod.new_table(ALL, seed=1)
    t2.play_round({1: {"pai_gow": 5, "fortune_bonus": 1, "insurance": 1, "progressive": 1}})
    assert t2.ledger.balance() == 0


@covers("§ 670a.7(f)")
def test_670a_7_f_two_adjacent_positions_larger_wager_set_first(mod):
    t, res = play(mod, {2: {"cards": "AC QD JS 7H 5D 2C", "wagers": {"pai_gow": 25}},
                        3: {"cards": "TC TH 8D 5S 3C KH", "wagers": {"pai_gow": 5}}},
                  "9S 9D 6C 4H 3S 2H", options={"adjacent_positions": 1}, players={2: "Ann", 3: "Ann"})
    sets = [e.seat for e in res.log if e.kind == "setting" and e.seat is not None]
    assert sets == [2, 3]           # counterclockwise would be 3 then 2: the $25 hand is set first
    with pytest.raises(RefusedError, match="at most 1"):
        play(mod, {2: {"cards": "AC QD JS 7H 5D 2C", "wagers": {"pai_gow": 25}},
                   3: {"cards": "TC TH 8D 5S 3C KH", "wagers": {"pai_gow": 5}}},
             "9S 9D 6C 4H 3S 2H", players={2: "Ann", 3: "Ann"})


# ------------------------------------------------------------------------------------------------
# §§ 670a.8-670a.10 Dealing
# ------------------------------------------------------------------------------------------------

@covers("§ 670a.8(a)", "§ 670a.8(b)", "§ 670a.8(b)(1)", "§ 670a.8(b)(2)", "§ 670a.9(a)(3)", "§ 670a.9(a)(3)(i)",
        "§ 670a.9(a)(3)(ii)", "§ 670a.10(a)(2)", "§ 670a.10(a)(2)(i)", "§ 670a.10(a)(2)(ii)")
def test_670a_8_b_no_more_bets_envy_lammers_for_qualifying_wagers_and_progressive_lockout(mod, data):
    t = mod.new_table(ALL, seed=3)
    res = t.play_round({1: {"pai_gow": 5, "fortune_bonus": 5}, 2: {"pai_gow": 5, "fortune_bonus": 1},
                        3: {"pai_gow": 5, "progressive": 10}, 4: {"pai_gow": 5, "progressive": 1}})
    assert res.log[[e.kind for e in res.log].index("announce")].text == "dealer announces ''no more bets''"
    lammers = [e.seat for e in res.log if "Envy lammer placed" in e.text]
    assert lammers == [1, 3]
    lock = [e.seat for e in res.log if "locked out" in e.text]
    assert lock == [3, 4]
    assert requirement(data, "§ 670a.8(a)")[0]["when"] == "option(dealing_method) == 'manual_shoe'"


@covers("§ 670a.8(c)", "§ 670a.8(d)", "§ 670a.9(b)", "§ 670a.9(c)")
def test_670a_8_d_six_cards_to_every_position_and_the_dealer_clockwise_from_the_start(mod):
    class Spy(Strategy):
        pass

    t = mod.new_table({}, seed=8)
    order = []
    draw = t.shoe.draw
    t.shoe.draw = lambda target=None: (order.append(target), draw(target))[1]
    t.play_round({2: {"pai_gow": 5}, 5: {"pai_gow": 5}}, rolls=[[1, 1, 1]])
    # the count 3 reaches position 5; then 6, the dealer, 1, 2, 3, 4, one card at a time, six rounds
    who = [("dealer" if o[0] == "dealer" else o[1]) for o in order]
    assert who[:7] == [5, 6, "dealer", 1, 2, 3, 4] and len(who) == 42
    assert all(who.count(p) == 6 for p in (1, 2, 3, 4, 5, 6, "dealer"))
    assert [o[0] for o in order if o[1] in (1, 3, 4, 6)] == ["unwagered"] * 24


@covers("§ 670a.8(e)", "§ 670a.9(d)", "§ 670a.10(d)")
def test_670a_8_e_eleven_cards_left_in_the_stub(mod, data):
    t = mod.new_table({}, seed=9)
    seen = []
    t.play_round({1: {"pai_gow": 5}}, CallbackStrategy(setting=lambda s, c, v: (seen.append(t.shoe.remaining), None)[1]))
    assert seen == [53 - 7 * 6] == [11]
    for c in ("§ 670a.8(e)", "§ 670a.9(d)", "§ 670a.10(d)"):
        assert "11" in requirement(data, c)[0]["text"]


@covers("§ 670a.8(f)", "§ 670a.9(e)", "§ 670a.10(e)")
@pytest.mark.parametrize("misdealt", [True, False])
def test_670a_8_f_wrong_stub_count_voids_and_may_remove_the_deck(mod, misdealt):
    t, res = play(mod, {1: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}}}, "QS QH 8C 5C 3H 2S",
                  events=[{"event": "stub_count_wrong", "after": "collect_unwagered_stacks", "misdealt": misdealt}])
    assert res.void and net(res, 1) == 0
    assert any(e.kind == "remove_deck" for e in res.log) is (not misdealt)


@covers("§ 670a.8(g)", "§ 670a.9(f)", "§ 670a.10(f)")
def test_670a_8_g_unwagered_stacks_collected_unexposed(mod):
    t, res = play(mod, {3: {"cards": "AS KS 9D 7C 4H 2D", "wagers": {"pai_gow": 10}}}, "QS QH 8C 5C 3H 2S")
    e = next(e for e in res.log if e.kind == "collect")
    assert e.text.startswith("stacks dealt to positions 1, 2, 4, 5, 6 (no wager) collected without exposing")
    assert e.cite == "§ 670a.8(g); § 670a.9(f); § 670a.10(f)"


@covers("§ 670a.9(a)", "§ 670a.9(a)(1)", "§ 670a.9(a)(2)")
def test_670a_9_a_dealing_from_the_hand_needs_a_shuffler(chapter, mod, data):
    from compiler.analysis.report import _constraints_ok

    assert not _constraints_ok(chapter, Table(mod.GAME, {"dealing_method": "hand"}))
    assert _constraints_ok(chapter, Table(mod.GAME, {"dealing_method": "hand", "automated_shuffler": True}))
    assert requirement(data, "§ 670a.9(a)(2)")[0]["step"] == "deal_hands"


@covers("§ 670a.10(a)", "§ 670a.10(a)(1)", "§ 670a.10(b)", "§ 670a.10(c)")
def test_670a_10_c_automated_shoe_delivers_stacks_clockwise(mod):
    t = mod.new_table({"dealing_method": "automated_shoe"}, seed=8)
    order = []
    draw = t.shoe.draw
    t.shoe.draw = lambda target=None: (order.append(target), draw(target))[1]
    res = t.play_round({2: {"pai_gow": 5}}, rolls=[[2, 3, 4]])
    who = [("dealer" if o[0] == "dealer" else o[1]) for o in order]
    assert who == [6] * 6 + ["dealer"] * 6 + [1] * 6 + [2] * 6 + [3] * 6 + [4] * 6 + [5] * 6
    assert any(e.cite.startswith("§ 670a.5(i)(1)(iii); § 670a.10(b)") for e in res.log)
