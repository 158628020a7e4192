"""Rulings of the round engine across chapters: reshuffles between rounds, irregularities that name
no seat, and what a player is shown of the dealer's cards (issue 15's engine findings).

Each test names the provision whose ruling it checks; the expected behaviour comes from the text of
the provision, not from the engine's output.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from compiler.pipeline import load_game
from compiler.runtime.engine import CallbackStrategy, RefusedError, Strategy

W567 = "rulespecs/567-war.yaml"
W669A = "rulespecs/669a-raise-it-up-stud-poker.yaml"
W670A = "rulespecs/670a-six-card-fortune-pai-gow-poker.yaml"
W688A = "rulespecs/688a-face-up-pai-gow-poker.yaml"
SUB688A = "rulespecs/submissions/688a-face-up-pai-gow-lakeshore.yaml"


def _mod(path):
    return load_game(path)[0]


class _RefuseSetting(Strategy):
    """Names a setting that is not made of the player's cards: the round is refused mid-way."""

    def setting(self, step, candidates, view):
        return (("XX",), ("YY",))


def test_670a_5_a_cards_reshuffled_before_the_next_round_when_a_round_was_not_completed():
    # § 670a.5(a): the cards are shuffled before every round. A round refused after the deal (a setting
    # not made of the player's cards) must not leave the next round dealing from the rest of the deck:
    # one deck and a joker (53 cards) hold fewer than two deals to six positions and the dealer (2 x 42).
    mod = _mod(W670A)
    t = mod.new_table({}, seed=4)
    bets = {n: {"pai_gow": Decimal(5)} for n in range(1, 7)}
    for _ in range(3):
        with pytest.raises(RefusedError):
            t.play_round(bets, _RefuseSetting())
    res = t.play_round(bets)
    shuffles = [e for e in res.log if e.kind == "reshuffle"]
    assert shuffles and shuffles[0].cite == "§ 670a.5(a)"
    assert res.log.index(shuffles[0]) < min(i for i, e in enumerate(res.log) if e.kind == "deal")
    assert sum(len(z) for z in res.dealt["dealer"].values()) == 6


def test_669a_7_b_player_left_table_naming_no_seat_is_refused_with_its_provision():
    # § 669a.7(b) acts on the wagers of the player who leaves: an event naming no seat cannot be ruled
    # on, and is refused with the provision (never an AttributeError).
    mod = _mod(W669A)
    bets = {1: {"ante": 5, "blind": 5}, 2: {"ante": 5, "blind": 5}}
    for before in ("settle_hands", None):
        t = mod.new_table({}, seed=1)
        e = {"event": "player_left_table", **({"before": before} if before else {})}
        with pytest.raises(RefusedError) as exc:
            t.play_round(bets, None, [e])
        assert "§ 669a.7(b)" in str(exc.value) and "seat" in str(exc.value)


def test_669a_7_b_player_left_table_with_a_seat_loses_that_seats_wagers_only():
    mod = _mod(W669A)
    t = mod.new_table({}, seed=1)
    res = t.play_round({1: {"ante": 5, "blind": 5}, 2: {"ante": 5, "blind": 5}}, None,
                       [{"event": "player_left_table", "seat": 2, "before": "settle_hands"}])
    lost = {(r.seat, r.wager): r for r in res.results if "§ 669a.7(b)" in r.cites}
    assert {s for s, _ in lost} == {2} and {(2, "ante"), (2, "blind")} <= set(lost)
    assert all(r.outcome == "lose" and r.net == -r.amount for r in lost.values())
    assert {r.wager for r in res.results if r.seat == 2} == {w for _, w in lost}


def test_688a_11_a_player_sees_the_dealers_hands_only_once_set_face_up():
    # §§ 688a.8-688a.10 deal the dealer's seven cards face down; § 688a.11(a) sets them into two hands
    # placed face up before the players decide. A player's view shows no face-down dealer card.
    import yaml

    mod = _mod(W688A)
    opts = yaml.safe_load(open(SUB688A, encoding="utf-8"))["selections"]
    seen = []

    def choose(decision, choices, view):
        seen.append(("choose", dict(view.dealer)))
        return choices[0]

    def setting(step, cands, view):
        seen.append(("setting", dict(view.dealer)))
        return None

    t = mod.new_table(opts, seed=3)
    t.play_round({1: {"face_up": 10}}, CallbackStrategy(choose, None, setting))
    assert seen
    for _, dealer in seen:
        assert "hand" not in dealer  # the seven cards as dealt, face down
        assert len(dealer.get("high", ())) == 5 and len(dealer.get("low", ())) == 2


def test_670a_11_b_player_setting_hands_does_not_see_the_dealers_face_down_cards():
    # § 670a.8(d) / § 670a.9(c): the dealer's six cards are dealt face down; the players set their hands
    # (§ 670a.11(b)) before the dealer's are exposed (§ 670a.11(d)): the player's view holds none of them.
    mod = _mod(W670A)
    seen = []

    def setting(step, cands, view):
        seen.append(dict(view.dealer))
        return None

    t = mod.new_table({}, seed=5)
    res = t.play_round({1: {"pai_gow": 5}, 3: {"pai_gow": 5}}, CallbackStrategy(None, None, setting))
    assert len(seen) == 2 and all(d == {} for d in seen)
    assert sum(len(z) for z in res.dealt["dealer"].values()) == 6  # the cards were dealt all the same


def test_567_8_c_2_dealer_card_dealt_face_up_is_shown_to_the_player():
    # § 567.8(c)(2): the dealer's card is dealt face up: a player deciding a tie sees it.
    mod = _mod(W567)
    t = mod.new_table({}, seed=11)
    seen = []

    def choose(decision, choices, view):
        seen.append(dict(view.dealer))
        return choices[0]

    for _ in range(200):
        t.play_round({1: {"initial": 5}}, CallbackStrategy(choose))
        if seen:
            break
    assert seen and len(seen[0].get("original", ())) == 1
