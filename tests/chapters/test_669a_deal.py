"""Chapter 669a Raise It Up Stud Poker, §§ 669a.5-669a.10; §§ 669a.11-669a.13, sessions and the
coverage check are in test_669a_play.py.

The tests of the chapter and how they are written: tests/chapters/ch669a.py.
"""
from __future__ import annotations

import pytest

from chapters.ch669a import (
    D, covers, play, net, seat_net, cites, requirement, equipment, violated, PLAY3, PLAY2_AT_4TH, PLAY1_AT_5TH, PROG, SIX,
)

from compiler.runtime.engine import CallbackStrategy, RefusedError

SPEC = "rulespecs/669a-raise-it-up-stud-poker.yaml"


# ------------------------------------------------------------------------------------------------
# § 669a.5 Shuffle and cut of the cards
# ------------------------------------------------------------------------------------------------

@covers("§ 669a.5(a)")
def test_669a_5_a_cards_shuffled_after_every_round(mod):
    t = mod.new_table({}, seed=5)
    for _ in range(3):
        res = t.play_round({1: {"ante": 5, "blind": 5}}, CallbackStrategy(lambda d, c, v: c[0]))
        assert res.reshuffled
        assert "§ 669a.5(a)" in cites(res, "reshuffle")
    assert t.shoe.shuffles == 4  # the first shuffle and one after each of the three rounds


@covers("§ 669a.5(b)")
def test_669a_5_b_counting_shuffler_short_deck_removed_from_table(mod):
    dealt = {1: "AS 2D 9C", "community": "KD 7C 3S"}
    opts = {"automated_shuffler": True, "counting_shuffler": True}
    _, res = play(mod, {1: {"ante": 5, "blind": 5}}, dealt, {1: PLAY1_AT_5TH}, opts,
                  [{"event": "wrong_deck_count", "before": "no_more_bets_shoe"}])
    assert "§ 669a.5(b)" in cites(res, "remove_deck")
    # the deck is replaced before the deal: the round itself is played (A-high, no pair of 10s)
    assert seat_net(res, 1) == D(-15)
    # without a counting shuffler the provision does not apply
    _, res = play(mod, {1: {"ante": 5, "blind": 5}}, dealt, {1: PLAY1_AT_5TH}, {},
                  [{"event": "wrong_deck_count", "before": "no_more_bets_shoe"}])
    assert "§ 669a.5(b)" not in cites(res, "remove_deck")


@covers("§ 669a.5(c)", "§ 669a.5(c)(1)", "§ 669a.5(c)(2)", "§ 669a.5(d)")
def test_669a_5_c_d_cut_cover_card_at_least_ten_from_the_top(mod, data):
    cut = data["cards"]["cut"]
    assert cut["min_from_edge"] == 10 and cut["min_from_edge_cite"] == "§ 669a.5(d)"
    assert data["cards"]["cover_cards"] == {"count": 1, "cite": "§ 669a.3(a)"}
    assert requirement(data, "§ 669a.5(c)(1)")[0]["when"] == "option(automated_shuffler)"
    assert requirement(data, "§ 669a.5(c)(2)")[0]["when"] == "not option(automated_shuffler)"
    t = mod.new_table({}, seed=9)
    for _ in range(20):
        res = t.play_round({1: {"ante": 1, "blind": 1}}, CallbackStrategy(lambda d, c, v: c[0]))
        cut = [e for e in res.log if e.kind == "cut"]
        assert cut and cut[0].cite == "§ 669a.5(d)"
        assert 10 <= t.shoe.cut_at <= 52 - 10


@covers("§ 669a.5(e)")
def test_669a_5_e_recut_encoded(data):
    assert data["cards"]["cut"]["recut"]["cite"] == "§ 669a.5(e)"
    assert requirement(data, "§ 669a.5(e)")


@covers("§ 669a.5(f)")
def test_669a_5_f_idle_table_procedure_encoded(data):
    assert "no gaming activity" in requirement(data, "§ 669a.5(f)")[0]["text"]


@covers("§ 669a.5(g)")
def test_669a_5_g_automatic_reshuffling_device_encoded(data):
    assert equipment(data, "§ 669a.5(g)")[0]["when"] == "option(reshuffling_device)"
    assert requirement(data, "§ 669a.5(g)")[0]["when"] == "option(reshuffling_device)"


# ------------------------------------------------------------------------------------------------
# § 669a.7 Wagers
# ------------------------------------------------------------------------------------------------

@covers("§ 669a.7(a)")
def test_669a_7_a_chips_on_the_layout_encoded(data):
    assert "verbal" in requirement(data, "§ 669a.7(a)")[0]["text"]


@covers("§ 669a.7(b)")
def test_669a_7_b_abandoned_wagers_are_losing_wagers(mod, data):
    dealt = {2: "AS AD 9C", 4: "5H 6H 7H", "community": "KD 7C 3S"}
    _, res = play(mod, {2: {"ante": 10, "blind": 10, "pair_plus": 5}, 4: {"ante": 5, "blind": 5}}, dealt,
                  {2: PLAY3, 4: PLAY3}, events=[{"event": "player_left_table", "after": "reveal_4th_street",
                                                 "seat": 2}])
    # seat 2 leaves with Ante 10, Blind 10, Pair Plus 5 and a Play Wager of 30: all lost
    assert seat_net(res, 2) == D(-55)
    assert all(r.outcome == "lose" and "§ 669a.7(b)" in r.cites for r in res.results if r.seat == 2)
    assert "seated" in requirement(data, "§ 669a.7(b)")[0]["text"]


@covers("§ 669a.7(c)")
def test_669a_7_c_only_the_play_wager_is_made_after_no_more_bets(mod, data):
    during = [w for w, d in data["wagers"].items() if d.get("placed") == "during_round"]
    assert during == ["play"]
    assert not any(s["do"] == "offer" for s in data["procedure"])
    _, res = play(mod, {1: {"ante": 5, "blind": 5}}, {1: "2C 3D 9S", "community": "KD 7C 4S"}, {1: PLAY2_AT_4TH})
    placed = [e for e in res.log if e.kind == "wager" and e.wager == "play"]
    assert [e.cite for e in placed] == ["§ 669a.11(d)"]
    i_nmb = cites(res).index("§ 669a.8(b)")
    assert all(res.log.index(e) > i_nmb for e in placed)
    assert requirement(data, "§ 669a.7(c)")


@covers("§ 669a.7(d)", "§ 669a.7(d)(1)")
def test_669a_7_d_1_ante_and_equal_blind_required_to_play(mod):
    dealt = {1: "2C 3D 9S", 3: "4H 4S 8D", "community": "KD 7C 5S"}
    with pytest.raises(RefusedError, match="Blind Wager"):
        play(mod, {1: {"ante": 5}}, dealt)
    with pytest.raises(RefusedError, match="Ante Wager"):
        play(mod, {1: {"pair_plus": 5}}, dealt)
    # a Blind unequal to the Ante: the position's wagers are returned before the deal
    _, res = play(mod, {1: {"ante": 5, "blind": 10}, 3: {"ante": 5, "blind": 5}},
                  {3: "4H 4S 8D", "community": "KD 7C 5S"}, {3: PLAY1_AT_5TH})
    assert [(r.wager, r.outcome) for r in res.results if r.seat == 1] == [("ante", "void"), ("blind", "void")]
    assert net(res, 1, "ante").cites == ("§ 669a.7(d)(1)",)
    assert not [e for e in res.log if e.kind == "deal" and e.seat == 1]


@covers("§ 669a.7(d)(2)")
def test_669a_7_d_2_play_wager_wins_on_pair_of_10s_or_better(mod):
    _, res = play(mod, {1: {"ante": 5, "blind": 5}}, {1: "TC TD 4S", "community": "2H 7C 9S"}, {1: PLAY3})
    assert net(res, 1, "play").net == D(15)  # 15 at 1 to 1
    _, res = play(mod, {1: {"ante": 5, "blind": 5}}, {1: "9C 9D 4S", "community": "2H 7C KS"}, {1: PLAY3})
    assert net(res, 1, "play").net == D(-15)  # a pair of 9s is below a pair of 10s


@covers("§ 669a.7(d)(3)")
def test_669a_7_d_3_pair_plus_on_the_three_cards_alone(mod):
    # pair of 4s in the three cards: Pair Plus wins 1 to 1 although the five-card hand loses
    _, res = play(mod, {1: {"ante": 5, "blind": 5, "pair_plus": 5}}, {1: "4H 4S 8D", "community": "KD 7C 2S"},
                  {1: PLAY1_AT_5TH})
    assert net(res, 1, "pair_plus").net == D(5)
    assert net(res, 1, "ante").net == D(-5)


@covers("§ 669a.7(d)(4)")
def test_669a_7_d_4_progressive_only_where_offered_after_ante_and_blind(mod, data):
    dealt = {1: "2C 3D 9S", "community": "KD 7C 5S"}
    with pytest.raises(RefusedError, match="not offered"):
        play(mod, {1: {"ante": 5, "blind": 5, "progressive": 1}}, dealt, {1: PLAY1_AT_5TH})
    with pytest.raises(RefusedError, match="not an allowed amount"):
        play(mod, {1: {"ante": 5, "blind": 5, "progressive": 2}}, dealt, {1: PLAY1_AT_5TH}, PROG)
    assert data["wagers"]["progressive"]["requires"] == ["ante", "blind"]
    assert requirement(data, "§ 669a.7(d)(4)")[0]["when"] == "option(progressive_offered)"


@covers("§ 669a.7(d)(5)")
def test_669a_7_d_5_six_card_bonus_only_where_offered(mod):
    dealt = {1: "2C 3D 9S", "community": "KD 7C 5S"}
    with pytest.raises(RefusedError, match="not offered"):
        play(mod, {1: {"ante": 5, "blind": 5, "six_card_bonus": 5}}, dealt, {1: PLAY1_AT_5TH})
    _, res = play(mod, {1: {"ante": 5, "blind": 5, "six_card_bonus": 5}}, dealt, {1: PLAY1_AT_5TH}, SIX)
    assert net(res, 1, "six_card_bonus").net == D(-5)


@covers("§ 669a.7(e)")
def test_669a_7_e_one_position_per_player(mod):
    dealt = {1: "2C 3D 9S", 2: "4H 4S 8D", "community": "KD 7C 5S"}
    with pytest.raises(RefusedError, match="at most 1"):
        play(mod, {1: {"ante": 5, "blind": 5}, 2: {"ante": 5, "blind": 5}}, dealt,
             {1: PLAY1_AT_5TH, 2: PLAY1_AT_5TH}, players={1: "Pat", 2: "Pat"})


# ------------------------------------------------------------------------------------------------
# §§ 669a.8-669a.10 Dealing: manual shoe, hand, automated shoe
# ------------------------------------------------------------------------------------------------

def _deal_log(res):
    return [(e.seat, e.cite) for e in res.log if e.kind == "deal"]


@covers("§ 669a.8(a)", "§ 669a.8(c)")
def test_669a_8_a_c_manual_shoe_location_and_hands_encoded(data):
    assert equipment(data, "§ 669a.8(a)")[0]["when"] == "option(dealing_method) == 'manual_shoe'"
    assert requirement(data, "§ 669a.8(a)") and requirement(data, "§ 669a.8(c)")


@covers("§ 669a.8(b)")
def test_669a_8_b_no_more_bets_and_progressive_lock_out_before_the_deal(mod, data):
    _, res = play(mod, {1: {"ante": 5, "blind": 5}}, {1: "2C 3D 9S", "community": "KD 7C 5S"}, {1: PLAY1_AT_5TH})
    kinds = [e.kind for e in res.log]
    ann = kinds.index("announce")
    assert res.log[ann].cite == "§ 669a.8(b)" and "no more bets" in res.log[ann].text
    assert ann < kinds.index("deal")
    lock = requirement(data, "§ 669a.8(b)")[0]
    assert lock["step"] == "no_more_bets_shoe" and "option(progressive_offered)" in lock["when"]
    assert "lock-out" in equipment(data, "§ 669a.2(c)(2)")[0]["item"]


@covers("§ 669a.8(d)", "§ 669a.8(d)(1)", "§ 669a.8(d)(2)")
def test_669a_8_d_one_card_at_a_time_clockwise_then_three_community_cards(mod):
    dealt = {1: "2C 3D 9S", 3: "4H 4S 8D", 6: "AH KC 6D", "community": "KD 7C 5S"}
    _, res = play(mod, {6: {"ante": 5, "blind": 5}, 1: {"ante": 5, "blind": 5}, 3: {"ante": 5, "blind": 5}},
                  dealt, {1: PLAY3, 3: PLAY3, 6: PLAY3})
    d = _deal_log(res)
    assert d[:9] == [(1, "§ 669a.8(d)(1)"), (3, "§ 669a.8(d)(1)"), (6, "§ 669a.8(d)(1)")] * 3
    assert d[9:] == [(None, "§ 669a.8(d)(2)")] * 3
    assert all("face down" in e.text for e in res.log if e.kind == "deal")


@covers("§ 669a.8(e)", "§ 669a.8(f)", "§ 669a.8(g)")
def test_669a_8_e_f_g_stub_to_discard_rack_and_count_every_5_rounds_encoded(data):
    assert requirement(data, "§ 669a.8(e)")[0]["step"] == "deal_6th_street_shoe"
    assert requirement(data, "§ 669a.8(g)")
    f = requirement(data, "§ 669a.8(f)")[0]
    assert "every 5 rounds" in f["text"] and "not option(counting_shuffler)" in f["when"]


@pytest.mark.parametrize("method,after,cite", [
    ("manual_shoe", "deal_6th_street_shoe", "§ 669a.8(h)"),
    ("hand", "deal_6th_street_hand", "§ 669a.9(f)"),
    ("automated_shoe", "deal_6th_street_auto", "§ 669a.10(f)"),
])
@covers("§ 669a.8(h)", "§ 669a.9(f)", "§ 669a.10(f)")
def test_669a_8_h_9_f_10_f_wrong_stub_count_voids_and_removes_deck_unless_misdealt(mod, method, after, cite):
    opts = {"dealing_method": method, "automated_shuffler": True}
    dealt = {2: "AC 8D 8S", 5: "4H 5H 6H", "community": "JS 2D TC"}
    bets = {2: {"ante": 10, "blind": 10, "pair_plus": 5}, 5: {"ante": 5, "blind": 5}}
    for misdealt in (True, False):
        _, res = play(mod, bets, dealt, {}, opts, [{"event": "stub_count_wrong", "after": after,
                                                     "misdealt": misdealt}])
        assert res.void
        assert all(r.outcome == "void" and r.net == 0 and r.cites == (cite,) for r in res.results)
        assert (cite in cites(res, "remove_deck")) is (not misdealt)


@covers("§ 669a.9(a)", "§ 669a.9(a)(1)")
def test_669a_9_a_1_dealing_from_the_hand_requires_an_automated_shuffler(game):
    mod, compiled = game
    assert "§ 669a.9(a)(1)" in violated(mod, compiled, {"dealing_method": "hand"})
    assert violated(mod, compiled, {"dealing_method": "hand", "automated_shuffler": True}) == []


@covers("§ 669a.9(a)(2)", "§ 669a.9(a)(3)", "§ 669a.9(b)", "§ 669a.9(b)(1)", "§ 669a.9(b)(2)")
def test_669a_9_b_dealing_from_the_hand(mod, data):
    assert requirement(data, "§ 669a.9(a)(2)")[0]["step"] == "deal_players_hand"
    assert requirement(data, "§ 669a.9(a)(3)")[0]["step"] == "no_more_bets_hand"
    opts = {"dealing_method": "hand", "automated_shuffler": True}
    dealt = {2: "2C 3D 9S", 4: "4H 4S 8D", "community": "KD 7C 5S"}
    _, res = play(mod, {2: {"ante": 5, "blind": 5}, 4: {"ante": 5, "blind": 5}}, dealt,
                  {2: PLAY3, 4: PLAY3}, opts)
    assert [e.cite for e in res.log if e.kind == "announce"] == ["§ 669a.9(a)(3)"]
    assert _deal_log(res) == [(2, "§ 669a.9(b)(1)"), (4, "§ 669a.9(b)(1)")] * 3 + [(None, "§ 669a.9(b)(2)")] * 3


@covers("§ 669a.9(c)", "§ 669a.9(d)", "§ 669a.9(e)")
def test_669a_9_c_d_e_stub_handling_and_count_encoded(data):
    assert requirement(data, "§ 669a.9(c)") and requirement(data, "§ 669a.9(e)")
    assert "not option(counting_shuffler)" in requirement(data, "§ 669a.9(d)")[0]["when"]


@covers("§ 669a.10(a)", "§ 669a.10(a)(1)", "§ 669a.10(a)(2)", "§ 669a.10(b)")
def test_669a_10_b_automated_shoe_delivers_stacks_of_three(mod, data):
    assert equipment(data, "§ 669a.10(a)(1)")[0]["when"] == "option(dealing_method) == 'automated_shoe'"
    opts = {"dealing_method": "automated_shoe"}
    dealt = {1: "2C 3D 9S", 4: "4H 4S 8D", "community": "KD 7C 5S"}
    _, res = play(mod, {1: {"ante": 5, "blind": 5}, 4: {"ante": 5, "blind": 5}}, dealt,
                  {1: PLAY3, 4: PLAY3}, opts)
    assert [e.cite for e in res.log if e.kind == "announce"] == ["§ 669a.10(a)(2)"]
    assert _deal_log(res) == [(1, "§ 669a.10(b)")] * 3 + [(4, "§ 669a.10(b)")] * 3 + [(None, "§ 669a.10(b)")] * 3


@covers("§ 669a.10(c)", "§ 669a.10(d)", "§ 669a.10(e)")
def test_669a_10_c_d_e_stub_handling_and_count_encoded(data):
    assert requirement(data, "§ 669a.10(c)") and requirement(data, "§ 669a.10(e)")
    assert "not option(counting_shuffler)" in requirement(data, "§ 669a.10(d)")[0]["when"]
