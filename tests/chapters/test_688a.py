"""Chapter 688a Face Up Pai Gow Poker (partial: § 688a.11 only) against the compiled game
(rulespecs/688a-face-up-pai-gow-poker.yaml).

Settlement cases are built by hand from the text of § 688a.11; the hands are ranked by the
rankings assumed from § 670a.6 (interpretation rankings-from-670a). The house way is a fictional
casino's (tests/fixtures/submissions/688a-house-way-fictional.yaml): § 688a.11(a) leaves it to the
Rules Submission. The payout odds of § 688a.12 are not in the sources: a win has no amount unless
the selections state the odds. ``test_every_numbered_provision_is_covered`` checks that every
numbered provision of § 688a.11 is claimed by a test (``@covers``).
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from cli_run import run_rulespec

from chapters.provisions import Coverage, numbered_provisions

from compiler.runtime.cards import parse_cards
from compiler.runtime.engine import CallbackStrategy, EngineError, RefusedError
from compiler.runtime.shoe import ScriptedShoe
from compiler.spec.loader import load_document

SPEC = "rulespecs/688a-face-up-pai-gow-poker.yaml"
HW_FILE = "tests/fixtures/submissions/688a-house-way-fictional.yaml"
ROUNDS = Path("rulespecs/rounds")
D = Decimal
COVERAGE = Coverage()
covers = COVERAGE.covers
COVERED = COVERAGE.covered
DEALER_KK = "KS KD 9C 7H 5D 3S 2C"      # house way rule 2 (fictional): high KS KD 5D 3S 2C, low 9C 7H
DEALER_AHPG = "AS KD 9H 7C 5S 3D 2H"    # no pair, straight or flush, ace high: an Ace High Pai Gow


@pytest.fixture(scope="module")
def house_way():
    return load_document(HW_FILE).data["selections"]["house_way"]


def requirement(data, cite):
    return [r for r in data.get("requirements") or () if cite in [p.strip() for p in r["cite"].split(";")]]


def play(mod, house_way, seats, dealer, options=None):
    """seats: {n: {"cards": "...", "wagers": {...}, "low": "QH JD" | None (house way), "surrender": bool}}."""
    script = {("player", n, "hand"): parse_cards(s["cards"]) for n, s in seats.items()}
    script[("dealer", None, "hand")] = parse_cards(dealer)
    t = mod.new_table({"house_way": house_way, **(options or {})}, shoe=ScriptedShoe(script))

    def strat(n):
        s = seats[n]
        return CallbackStrategy(lambda d, choices, v: "surrender" if s.get("surrender") else "play", None,
                                lambda step, c, v: None if s.get("low") is None else parse_cards(s["low"]))

    res = t.play_round({n: s["wagers"] for n, s in seats.items()}, {n: strat(n) for n in seats})
    return t, res


def result(res, seat, wager):
    return next(r for r in res.results if r.seat == seat and r.wager == wager)


def one(mod, house_way, cards, low, dealer=DEALER_KK, wagers=None, options=None):
    _, res = play(mod, house_way, {1: {"cards": cards, "low": low, "wagers": wagers or {"face_up": 10}}}, dealer,
                  options)
    return res


# ------------------------------------------------------------------------------------------------
# (a) the dealer's hands: set first, by the Rules Submission's house way, face up
# ------------------------------------------------------------------------------------------------


@covers("§ 688a.11(a)")
def test_688a_11_a_dealer_sets_seven_cards_first_by_the_submission_house_way(mod, house_way, data):
    res = one(mod, house_way, "AH AD 8S 6C 4H QH JD", "QH JD")
    settings = [e for e in res.log if e.kind == "setting"]
    assert settings[0].seat is None and settings[0].cite == "§ 688a.11(a)"
    assert "high hand KS KD 5D 3S 2C and the low hand 9C 7H" in settings[0].text
    assert settings[1].seat == 1  # the player sets after the dealer
    assert data["options"]["house_way"]["cite"] == "§ 688a.11(a)" and "default" not in data["options"]["house_way"]
    assert requirement(data, "§ 688a.11(a)")[0]["text"].endswith("face up on the appropriate area of the layout")


def test_688a_11_a_without_a_house_way_no_round_is_played(mod):
    script = {("player", 1, "hand"): parse_cards("AH AD 8S 6C 4H QH JD"),
              ("dealer", None, "hand"): parse_cards(DEALER_KK)}
    t = mod.new_table({}, shoe=ScriptedShoe(script))
    with pytest.raises(EngineError, match="no house way"):
        t.play_round({1: {"face_up": 10}}, {1: CallbackStrategy(lambda *a: "play", None, lambda *a: None)})


# ------------------------------------------------------------------------------------------------
# (b), (c) the players' hands
# ------------------------------------------------------------------------------------------------


@covers("§ 688a.11(b)", "§ 688a.11(b)(1)")
def test_688a_11_b_1_player_asking_for_help_has_hands_set_the_house_way(mod, house_way, data):
    res = one(mod, house_way, "QC QD 8H 6S 4C 9D 5C", None)
    line = next(e for e in res.log if e.kind == "setting" and e.seat == 1)
    assert "high hand QC QD 6S 4C 5C and the low hand 8H 9D (the way the house sets them" in line.text  # rule 2
    assert "house way of the Rules Submission" in requirement(data, "§ 688a.11(b)(1)")[0]["text"]


@covers("§ 688a.11(b)(2)", "§ 688a.11(b)(3)")
def test_688a_11_b_2_and_3_encoded_as_requirements(data):
    assert "seven cards in full view" in requirement(data, "§ 688a.11(b)(2)")[0]["text"]
    assert "not touched again" in requirement(data, "§ 688a.11(b)(3)")[0]["text"]


@covers("§ 688a.11(c)")
def test_688a_11_c_five_card_high_hand_must_contain_at_least_the_pair_of_the_low_hand(mod, house_way):
    # the example of (c): a pair of sevens in the low hand needs at least a pair of sevens above it
    ok = one(mod, house_way, "7H 7D 7C 7S KH 9D 4C", "7H 7D")  # high 7C 7S K 9 4 >= low 7 7
    assert not any(e.kind == "foul" for e in ok.log)
    bad = one(mod, house_way, "7H 7D KH QD 9C 5S 3D", "7H 7D")  # high K-high < low pair of 7s
    assert any(e.kind == "foul" for e in bad.log)


# ------------------------------------------------------------------------------------------------
# (d) surrender
# ------------------------------------------------------------------------------------------------


@covers("§ 688a.11(d)")
def test_688a_11_d_surrender_collects_the_wager_and_is_refused_with_an_optional_wager(mod, house_way, data):
    t, res = play(mod, house_way, {
        2: {"cards": "QC 9S 8H 6S 4C 3D 2D", "wagers": {"face_up": 25}, "surrender": True},
        4: {"cards": "QS QD 8D 6C 4H 9D 5C", "wagers": {"face_up": 10, "fortune_bonus": 5}, "low": "9D 5C",
            "surrender": True}}, "AH AD KC JH 7S 5H 3C", {"fortune_bonus_offered": True})
    r = result(res, 2, "face_up")
    assert (r.outcome, r.net, r.cites) == ("lose", D(-25), ("§ 688a.11(d)",))
    assert [x.wager for x in res.results if x.seat == 2] == ["face_up"]  # nothing else settled
    assert not any(e.kind == "setting" and e.seat == 2 for e in res.log)  # cards collected unexposed
    # seat 4 placed a Fortune Bonus Wager: no surrender offered, the hand is played
    assert result(res, 4, "face_up").cites == ("§ 688a.11(f)(1)(i)",)
    assert requirement(data, "§ 688a.11(d)")


# ------------------------------------------------------------------------------------------------
# (e), (f) the Face Up Pai Gow Poker Wager
# ------------------------------------------------------------------------------------------------


@covers("§ 688a.11(e)")
def test_688a_11_e_hands_revealed_from_the_dealers_right_counterclockwise(mod, house_way, data):
    _, res = play(mod, house_way, {
        1: {"cards": "AH AD 8S 6C 4H QH JD", "low": "QH JD", "wagers": {"face_up": 5}},
        4: {"cards": "QC QD 8H 6S 4C 9D 5C", "low": "9D 5C", "wagers": {"face_up": 5}}}, DEALER_KK)
    order = [e.seat for e in res.log if e.kind in ("win", "lose", "push")]
    assert order == [4, 1]
    assert requirement(data, "§ 688a.11(e)")


@covers("§ 688a.11(f)", "§ 688a.11(f)(1)", "§ 688a.11(f)(1)(i)")
def test_688a_11_f_1_i_both_hands_lower_lose(mod, house_way):
    r = result(one(mod, house_way, "QC QD 8H 6S 4C 9D 5C", "9D 5C"), 1, "face_up")
    assert (r.outcome, r.net, r.cites) == ("lose", D(-10), ("§ 688a.11(f)(1)(i)",))


@covers("§ 688a.11(f)(1)(ii)")
def test_688a_11_f_1_ii_identical_high_hand_and_lower_low_hand_lose(mod, house_way):
    r = result(one(mod, house_way, "KH KC 5H 3H 2D 8C 6D", "8C 6D"), 1, "face_up")
    assert (r.outcome, r.cites) == ("lose", ("§ 688a.11(f)(1)(ii)",))


def test_688a_11_f_1_ii_identical_low_hand_and_lower_high_hand_lose(mod, house_way):
    r = result(one(mod, house_way, "JC JH 8D 4S 3C 9H 7D", "9H 7D"), 1, "face_up")
    assert (r.outcome, r.cites) == ("lose", ("§ 688a.11(f)(1)(ii)",))


def test_688a_11_f_1_ii_both_hands_identical_lose(mod, house_way):
    r = result(one(mod, house_way, "KH KC 5H 3H 2D 9H 7D", "9H 7D"), 1, "face_up")
    assert (r.outcome, r.cites) == ("lose", ("§ 688a.11(f)(1)(ii)",))


@covers("§ 688a.11(f)(1)(iii)")
def test_688a_11_f_1_iii_high_hand_below_low_hand_loses(mod, house_way):
    r = result(one(mod, house_way, "AH AD QC JD 8S 6C 4H", "AH AD"), 1, "face_up")
    assert (r.outcome, r.net, r.cites) == ("lose", D(-10), ("§ 688a.11(f)(1)(iii)",))


@covers("§ 688a.11(f)(1)(iv)")
def test_688a_11_f_1_iv_setting_not_of_the_players_cards_is_refused(mod, house_way, data):
    with pytest.raises(RefusedError, match="not made of the player's cards"):
        one(mod, house_way, "AH AD 8S 6C 4H QH JD", "2S 2H")
    assert "not otherwise set correctly" in requirement(data, "§ 688a.11(f)(1)(iv)")[0]["text"]


@covers("§ 688a.11(f)(2)", "§ 688a.11(f)(2)(i)")
def test_688a_11_f_2_i_higher_high_hand_lower_low_hand_ties(mod, house_way):
    r = result(one(mod, house_way, "AS AC TH 6H 4D 8H 2S", "8H 2S"), 1, "face_up")
    assert (r.outcome, r.net, r.cites) == ("push", D(0), ("§ 688a.11(f)(2)(i)",))


def test_688a_11_f_2_i_higher_high_hand_identical_low_hand_ties(mod, house_way):
    r = result(one(mod, house_way, "AS AC TH 6H 4D 9H 7D", "9H 7D"), 1, "face_up")
    assert (r.outcome, r.cites) == ("push", ("§ 688a.11(f)(2)(i)",))


@covers("§ 688a.11(f)(2)(ii)")
def test_688a_11_f_2_ii_lower_high_hand_higher_low_hand_ties(mod, house_way):
    r = result(one(mod, house_way, "TC TD 8S 5S 3D AH QC", "AH QC"), 1, "face_up")
    assert (r.outcome, r.cites) == ("push", ("§ 688a.11(f)(2)(ii)",))


def test_688a_11_f_2_ii_identical_high_hand_higher_low_hand_ties(mod, house_way):
    r = result(one(mod, house_way, "KH KC 5H 3H 2D AD QC", "AD QC"), 1, "face_up")
    assert (r.outcome, r.cites) == ("push", ("§ 688a.11(f)(2)(ii)",))


@covers("§ 688a.11(f)(2)(iii)")
def test_688a_11_f_2_iii_dealer_ace_high_pai_gow_ties_whatever_the_hands(mod, house_way):
    for cards, low in (("AC AH 8D 6S 4C QD JC", "QD JC"), ("KC QH 9D 6H 4D 3C 2S", "3C 2S")):
        r = result(one(mod, house_way, cards, low, dealer=DEALER_AHPG), 1, "face_up")
        assert (r.outcome, r.net, r.cites) == ("push", D(0), ("§ 688a.11(f)(2)(iii)",))


def test_688a_11_f_3_dealer_ace_high_pai_gow_pushes_but_a_fouled_hand_loses(mod, house_way):
    r = result(one(mod, house_way, "TH TS 9S 8C 6D 5C 3H", "TH TS", dealer=DEALER_AHPG), 1, "face_up")
    assert (r.outcome, r.cites) == ("lose", ("§ 688a.11(f)(1)(iii)",))  # interpretation ace-high-pai-gow-precedence


def test_688a_11_f_2_iii_joker_completing_a_straight_is_no_pai_gow(mod, house_way):
    # AS KD QH JC + joker = a straight: the dealer has no Ace High Pai Gow
    res = one(mod, house_way, "8C 8D 6S 5S 4H 3D 2C", "3D 2C", dealer="AS KD QH JC JK 7C 2H")
    assert result(res, 1, "face_up").cites != ("§ 688a.11(f)(2)(iii)",)


@covers("§ 688a.11(f)(3)")
def test_688a_11_f_3_both_hands_higher_win_without_an_invented_amount(mod, house_way):
    r = result(one(mod, house_way, "AH AD 8S 6C 4H QH JD", "QH JD"), 1, "face_up")
    assert (r.outcome, r.net, r.priced, r.cites) == ("win", D(0), False, ("§ 688a.11(f)(3)", "§ 688a.12(a)"))
    assert "§ 688a.12(a) are not in the sources" in r.detail
    assert r.to_json()["net"] is None


def test_688a_11_f_3_win_paid_at_the_odds_the_rules_submission_states(mod, house_way):
    # "3 to 2" is a made-up selection of the test, not the odds of § 688a.12(a)
    r = result(one(mod, house_way, "AH AD 8S 6C 4H QH JD", "QH JD", options={"face_up_odds": "3 to 2"}), 1,
               "face_up")
    assert (r.outcome, r.net, r.priced) == ("win", D(15), True)


# ------------------------------------------------------------------------------------------------
# (g)-(j) discard, rearrangement, optional wagers
# ------------------------------------------------------------------------------------------------


@covers("§ 688a.11(g)")
def test_688a_11_g_cards_to_the_discard_rack_after_the_wager(mod, house_way):
    res = one(mod, house_way, "QC QD 8H 6S 4C 9D 5C", "9D 5C")
    assert any(e.cite == "§ 688a.11(g)" and "discard rack" in e.text for e in res.log)
    res = one(mod, house_way, "QC QD 8H 6S 4C 9D 5C", "9D 5C", wagers={"face_up": 10, "fortune_bonus": 5},
              options={"fortune_bonus_offered": True})
    assert not any(e.cite == "§ 688a.11(g)" for e in res.log)  # except as provided in (h)


ALL = {"ace_high_bonus_offered": True, "fortune_bonus_offered": True, "progressive_offered": True}


@covers("§ 688a.11(h)")
def test_688a_11_h_cards_rearranged_then_optional_wagers_in_order(mod, house_way, data):
    res = one(mod, house_way, "9H 8C 7S 6D 5H KD 2C", "KD 2C",
              wagers={"face_up": 10, "ace_high_bonus": 5, "fortune_bonus": 5, "progressive": 1}, options=ALL)
    kinds = [(e.kind, e.wager) for e in res.log if e.seat == 1 and e.kind in ("win", "lose", "push", "note")]
    assert kinds.index(("win", "face_up")) < kinds.index(("note", None))  # straight > KK, K-2 > 9-7
    assert any(e.cite == "§ 688a.11(h)" and "rearranged" in e.text for e in res.log)
    order = [e.wager for e in res.log if e.kind in ("win", "lose") and e.wager != "face_up"]
    assert order == ["ace_high_bonus", "fortune_bonus", "progressive"]
    assert requirement(data, "§ 688a.11(h)")


@covers("§ 688a.11(h)(1)", "§ 688a.11(h)(1)(i)", "§ 688a.11(h)(1)(i)(A)")
def test_688a_11_h_1_i_A_ace_high_bonus_lost_without_dealer_ace_high_pai_gow(mod, house_way):
    r = result(one(mod, house_way, "AH AD 8S 6C 4H QH JD", "QH JD", wagers={"face_up": 10, "ace_high_bonus": 5},
                   options=ALL), 1, "ace_high_bonus")
    assert (r.outcome, r.net) == ("lose", D(-5)) and r.cites[0].startswith("§ 688a.11(h)(1)(i)(A)")


@covers("§ 688a.11(h)(1)(i)(B)")
def test_688a_11_h_1_i_B_ace_high_bonus_wins_on_dealer_ace_high_pai_gow(mod, house_way):
    r = result(one(mod, house_way, "AC AH 8D 6S 4C QD JC", "QD JC", dealer=DEALER_AHPG,
                   wagers={"face_up": 10, "ace_high_bonus": 5}, options=ALL), 1, "ace_high_bonus")
    assert (r.outcome, r.priced) == ("win", False) and "§ 688a.12(b)" in r.cites


@covers("§ 688a.11(h)(2)", "§ 688a.11(h)(2)(i)", "§ 688a.11(h)(2)(i)(A)")
def test_688a_11_h_2_i_A_fortune_bonus_lost_below_a_straight(mod, house_way):
    r = result(one(mod, house_way, "JS JH JD 4S 3D 9S 8D", "9S 8D", wagers={"face_up": 10, "fortune_bonus": 5},
                   options=ALL), 1, "fortune_bonus")
    assert (r.outcome, r.net) == ("lose", D(-5))


@covers("§ 688a.11(h)(2)(i)(B)")
def test_688a_11_h_2_i_B_fortune_bonus_wins_on_a_straight_of_the_seven_cards(mod, house_way):
    # the player's setting breaks the straight; the rearranged seven cards still hold it
    r = result(one(mod, house_way, "9H 8C 7S 6D 5H KD 2C", "9H 8C", wagers={"face_up": 10, "fortune_bonus": 5},
                   options=ALL), 1, "fortune_bonus")
    assert (r.outcome, r.priced) == ("win", False) and "§ 688a.12(c)" in r.cites


@covers("§ 688a.11(h)(2)(i)(C)", "§ 688a.11(h)(2)(ii)", "§ 688a.11(h)(2)(iii)", "§ 688a.11(h)(3)(i)(C)")
def test_688a_11_h_envy_bonus_encoded_as_requirements_definitions_missing(data):
    for c in ("§ 688a.11(h)(2)(i)(C)", "§ 688a.11(h)(2)(ii)", "§ 688a.11(h)(2)(iii)", "§ 688a.11(h)(3)(i)(C)"):
        assert requirement(data, c), c
    assert any(m["cite"] == "§ 688a.1" and "Envy Bonus Qualifying Hand" in m["what"] for m in data["missing"])


@covers("§ 688a.11(h)(3)", "§ 688a.11(h)(3)(i)", "§ 688a.11(h)(3)(i)(A)")
def test_688a_11_h_3_i_A_progressive_lost_below_a_full_house(mod, house_way):
    r = result(one(mod, house_way, "9H 8C 7S 6D 5H KD 2C", "KD 2C", wagers={"face_up": 10, "progressive": 1},
                   options=ALL), 1, "progressive")
    assert (r.outcome, r.net) == ("lose", D(-1))


@covers("§ 688a.11(h)(3)(i)(B)", "§ 688a.11(h)(3)(i)(B)(1)", "§ 688a.11(h)(3)(i)(B)(2)",
        "§ 688a.11(h)(3)(i)(B)(3)", "§ 688a.11(h)(3)(i)(B)(4)")
def test_688a_11_h_3_i_B_progressive_wins_on_a_full_house_after_verification(mod, house_way, data):
    res = one(mod, house_way, "JS JH JD 4S 4D 9S 8D", "9S 8D", wagers={"face_up": 10, "progressive": 1},
              options=ALL)
    r = result(res, 1, "progressive")
    assert (r.outcome, r.priced) == ("win", False) and "§ 688a.12(d)" in r.cites
    assert any("verified" in e.text and "§ 688a.11(h)(3)(i)(B)(1)" in e.cite for e in res.log)
    for c in ("§ 688a.11(h)(3)(i)(B)(1)", "§ 688a.11(h)(3)(i)(B)(2)", "§ 688a.11(h)(3)(i)(B)(3)",
              "§ 688a.11(h)(3)(i)(B)(4)"):
        assert requirement(data, c), c


@covers("§ 688a.11(i)", "§ 688a.11(j)")
def test_688a_11_i_and_j_optional_wagers_settled_before_the_discard_rack(mod, house_way, data):
    res = one(mod, house_way, "JS JH JD 4S 4D 9S 8D", "9S 8D",
              wagers={"face_up": 10, "fortune_bonus": 5, "progressive": 1}, options=ALL)
    last = [e for e in res.log if e.seat == 1][-1]
    assert last.cite == "§ 688a.11(i); § 688a.11(j)" and "discard rack" in last.text
    assert requirement(data, "§ 688a.11(i)") and requirement(data, "§ 688a.11(j)")


# ------------------------------------------------------------------------------------------------
# hand histories, the partial chapter, the analysis
# ------------------------------------------------------------------------------------------------

# The expected settlement of each hand history is in the hand history itself (`expect:`, issue
# 13.3), settled and compared by tests/fidelity/test_rounds.py (`rulespec settle --check`).


def test_every_688a_round_file_states_its_expected_settlement():
    import yaml

    names = sorted(p.name for p in ROUNDS.glob("688a-*.yaml"))
    assert names
    for name in names:
        exp = yaml.safe_load((ROUNDS / name).read_text(encoding="utf-8")).get("expect")
        assert exp and exp["results"], name
        # no odds in the sources: every win is expected without an amount
        assert all(r["net"] is None for r in exp["results"] if r["outcome"] == "win"), name


def test_rulespec_settle_cli_prints_an_unknown_amount_not_a_number():
    out = run_rulespec("settle", SPEC, ROUNDS / "688a-win-and-lose.yaml")
    assert out.returncode == 0, out.stderr
    assert "not known" in out.stdout and "-10.00" in out.stdout


def test_partial_chapter_lists_what_is_missing(data):
    assert data["completeness"] == "partial"
    cited = {m["cite"] for m in data["missing"]}
    for c in ("§ 688a.6", "§ 688a.7", "§§ 688a.8-688a.10", "§ 688a.12", "§ 688a.1"):
        assert c in cited
    assert "§ 601a.2" in {e["cite"] for e in data["externals"]}
    out = run_rulespec("validate", SPEC)
    assert out.returncode == 0
    assert "missing from the sources: § 688a.12" in out.stdout + out.stderr


def test_build_lists_missing_and_interpretations(game):
    from compiler.build import interpretations_md

    text = interpretations_md([game[1].chapter])
    assert "Missing from the sources (not invented):" in text and "- § 688a.6:" in text
    for i in ("rankings-from-670a", "ace-high-pai-gow", "payouts-not-in-sources", "house-way-from-submission"):
        assert f"### {i}" in text


def test_provisions_are_the_imported_text_exactly(data):
    import yaml

    imported = yaml.safe_load(Path("tests/fixtures/text/imported/688a.yaml").read_text())
    assert data["provisions"] == imported["provisions"]


def test_no_paytable_or_odds_invented(data):
    assert not data.get("paytables")
    assert all("odds" not in p for p in data["payouts"].values())
    assert "house_ways" not in data


def test_analysis_reports_no_house_edge_without_odds(game):
    from compiler.analysis.report import analyze

    rep = analyze(game[0].GAME, game[1].chapter, {})
    assert rep.figures == [] and "no house edge is computed" in rep.notes[0]


def test_every_numbered_provision_is_covered(data):
    numbered = numbered_provisions(data, {"688a.11"})
    assert len(numbered) > 40
    assert [c for c in numbered if c not in COVERED] == []
