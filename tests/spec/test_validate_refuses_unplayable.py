"""`validate` refuses what cannot be played (issue 29 item 4): each a positioned error, with
did-you-mean where a name is involved.

Every broken spec is a seeded spec with one edit; the expected line and column are found by
searching the edited text for the edit, independently of the compiler.
"""
from __future__ import annotations

import pytest

from compiler.pipeline import ROOT, compile_spec
from compiler.spec import limits

WAR = (ROOT / "rulespecs" / "567-war.yaml").read_text(encoding="utf-8")
R669A = (ROOT / "rulespecs" / "669a-raise-it-up-stud-poker.yaml").read_text(encoding="utf-8")
R670A = (ROOT / "rulespecs" / "670a-six-card-fortune-pai-gow-poker.yaml").read_text(encoding="utf-8")
HIGH = (ROOT / "tests" / "fixtures" / "specs" / "high-card.yaml").read_text(encoding="utf-8")
CARIBBEAN = (ROOT / "tests" / "fixtures" / "chapters" / "caribbean-stud.yaml").read_text(encoding="utf-8")


def edit(text: str, old: str, new: str, count: int = 1) -> str:
    assert text.count(old) >= count, old
    return text.replace(old, new, count)


def at(text: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the nth *needle* in *text*, plus *offset* columns."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col + offset


def errors(text: str, name: str = "b.yaml") -> list[str]:
    return [d.format() for d in compile_spec(name, text).diagnostics if d.is_error]


def one_error(text: str, needle: str, message: str, pointer: str, offset: int = 0, nth: int = 0) -> None:
    line, col = at(text, needle, offset, nth)
    assert errors(text) == [f"b.yaml:{line}:{col}: error: {message} [at {pointer}]"]


CHAPTERS = sorted([*(ROOT / "rulespecs").glob("*.yaml"), *(ROOT / "tests/fixtures/chapters").glob("*.yaml"),
                   *(ROOT / "tests/fixtures/specs").glob("*.yaml")])


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_every_seeded_and_test_chapter_is_playable(path):
    """No check refuses a chapter that plays (High Die's thresholds 'round.roll >= 4' / '<= 3' included)."""
    assert errors(path.read_text(encoding="utf-8"), str(path)) == []


# ----------------------------------------------------------------------------- round and event attributes


def test_a_misspelt_round_attribute_is_refused_with_did_you_mean():
    text = edit(R670A, "start: round.roll", "start: round.rol")
    line, col = at(text, "round.rol")
    errs = errors(text)
    assert errs[0] == (f"b.yaml:{line}:{col}: error: unknown round attribute 'rol' (did you mean 'roll'?); a round "
                       "has first_after_shuffle, new_dealer, number, roll [at /procedure/5/steps/0/start]")
    assert len(errs) == 1  # the second deal step still reads round.roll


def test_a_misspelt_dice_attribute_is_refused_with_did_you_mean():
    sic_bo = (ROOT / "tests" / "fixtures" / "chapters" / "sic-bo.yaml").read_text(encoding="utf-8")
    text = edit(sic_bo, "when: \"dice.total <= 10", "when: \"dice.totl <= 10")
    line, col = at(text, "dice.totl")
    assert errors(text)[0].startswith(f"b.yaml:{line}:{col}: error: unknown dice attribute 'totl' (did you mean "
                                      "'total'?): 'dice' is followed by one of total, ")


def test_round_roll_without_a_roll_step_is_refused():
    text = edit(HIGH, "  - {id: deal_dealer, do: deal, to: dealer, zone: up, count: 1,",
                "  - {id: deal_dealer, do: deal, to: dealer, zone: up, count: 1, when: round.roll > 2,")
    one_error(text, "round.roll", "round.roll is the total of the round's 'roll' step, and the procedure has no "
                                  "roll step", "/procedure/1/when")


def test_a_misspelt_event_attribute_is_refused_with_did_you_mean():
    text = edit(R669A, "and event.misdealt, then", "and event.misdelt, then")
    one_error(text, "event.misdelt", "unknown event attribute 'misdelt' (did you mean 'misdealt'?): the rules of "
                                     "event 'stub_count_wrong' read 'misdelt' only here and 'misdealt' elsewhere",
              "/irregularities/1/rules/0/when")


def test_an_event_attribute_outside_an_irregularity_is_refused():
    text = edit(HIGH, "  - {id: deal_dealer, do: deal, to: dealer, zone: up, count: 1,",
                "  - {id: deal_dealer, do: deal, to: dealer, zone: up, count: 1, when: event.count > 2,")
    one_error(text, "event.count", "event.count is an attribute of the irregularity event being handled: only the "
                                   "rules of an irregularity can read it", "/procedure/1/when")


# ----------------------------------------------------------------------------- data


def test_a_card_twice_in_a_named_hand_is_refused():
    text = edit(R669A, "cards: [AS, KS, QS]", "cards: [AS, KS, KS]")
    one_error(text, "KS]", "card KS is listed twice in named hand 'ace_king_queen_spades' (also at position 2): a "
                           "named hand is matched as a set of distinct cards, so it would match any hand holding one "
                           "KS", "/rankings/three_card/hands/ace_king_queen_spades/cards/2")


def test_a_term_defined_twice_is_refused():
    text = edit(R669A, "  - term: Envy Bonus\n", "  - term: Community Card\n")
    first = at(text, "term: Community card", 6)
    one_error(text, "term: Community Card", f"the term 'Community Card' is defined twice (first at line {first[0]}, "
                                            f"column {first[1]}): one word, one meaning; merge the definitions",
              "/provisions/0/definitions/1/term", offset=6)


def test_more_positions_than_the_stated_limit_are_refused_with_the_reason():
    text = edit(HIGH, "max_positions: 5", "max_positions: 13")
    (err,) = errors(text)
    line, col = at(text, "13")
    assert err.startswith(f"b.yaml:{line}:{col}: error: a table of 13 positions: at most 12 (MAX_POSITIONS, "
                          "docs/spec-format.md 'Limits'): ")
    assert limits.MAX_POSITIONS_REASON in err and err.endswith("[at /table/max_positions]")
    assert not [e for e in errors(edit(HIGH, "max_positions: 5", "max_positions: 12")) if "MAX_POSITIONS" in e]
    doc = (ROOT / "docs" / "spec-format.md").read_text(encoding="utf-8")
    row = doc.split("| `MAX_POSITIONS` |")[1].split("\n")[0]
    assert " 12 " in row and "Why:" in row


def test_a_shoe_never_reshuffled_is_refused():
    text = edit(WAR, "  reshuffle_marker: {from_bottom: 1/4, cite: § 567.5(e)}\n", "")
    one_error(text, "cover_card, cite: § 567.5(g)", "the cards are reshuffled when the reshuffle cover card comes "
              "out, but no 'reshuffle_marker' places one: the shoe (156 cards at its fewest) is never reshuffled, and "
              "the rounds draw from it (burn_first_card, deal_players, deal_dealer, war_burn, war_deal_players, "
              "war_deal_dealer) until it runs out; give cards.reshuffle_marker, or 'reshuffle: {when: every_round}'",
              "/cards/reshuffle/when")


def test_a_reshuffle_marker_too_near_the_bottom_is_refused():
    # 6 decks in two batches of 3 (156 cards); 1/100 of them leaves 1 card, a full War round draws up to 20
    text = edit(WAR, "from_bottom: 1/4", "from_bottom: 1/100")
    one_error(text, "1/100", "the reshuffle cover card leaves 1 cards below it in a shoe of 156 cards, and one round "
              "at a full table can draw up to 20 (burn_first_card, deal_players, deal_dealer, war_burn, "
              "war_deal_players, war_deal_dealer): the round that reaches the cover card can run the shoe out before "
              "it is completed", "/cards/reshuffle_marker/from_bottom")


# ----------------------------------------------------------------------------- lint: decks, open wagers


def test_fixed_decks_the_text_does_not_state_are_refused():
    text = edit(CARIBBEAN, "  decks: 1\n", "  decks: 8\n")
    # the provision text stating the deck: the first 'text:' line with 'One deck' (not the text_facts quote)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.lstrip().startswith("text:") and "One deck" in ln)
    col = text.splitlines()[line - 1].index("One deck") + 1
    decks_line, decks_col = at(text, "  decks: 8", offset=len("  decks: "))
    assert errors(text) == [f"b.yaml:{decks_line}:{decks_col}: error: the data gives 8 decks, but the provision text "
                            f"states 'One deck' and never 8 (first at line {line}, column {col}) [at /cards/decks]"]


def test_decks_and_a_text_saying_six_decks():
    text = edit(HIGH, "one deck of 52 cards", "six decks of 52 cards")
    text = edit(text, "  decks: 1\n", "  decks: 8\n")
    errs = errors(text)
    line, col = at(text, "  decks: 8", offset=len("  decks: "))
    assert errs[0].startswith(f"b.yaml:{line}:{col}: error: the data gives 8 decks, but the provision text states "
                              "'six decks' and never 8")
    assert errors(edit(text, "  decks: 8\n", "  decks: 6\n")) == []


def test_a_deleted_losing_rule_is_refused_where_it_leaves_the_wager_open():
    text = edit(WAR, "        then: lose initial; lose tie\n", "        then: lose tie\n")
    line, col = at(text, "  - id: settle_original", 4)
    assert errors(text) == [
        f"b.yaml:{line}:{col}: error: step 'settle_original': when hand(war, dealer.original) > hand(war, "
        "player.original), no rule settles 'initial' (its rules settle it only when hand(war, dealer.original) < "
        "hand(war, player.original)), and no other step does: the wager would be left unsettled [at /procedure/4]"]


DRAGON_TIGER = (ROOT / "tests" / "fixtures" / "chapters" / "dragon-tiger.yaml").read_text(encoding="utf-8")
_DT_WINS = ('      - {cite: § 944.7(a), when: "hand(dragon_tiger, dealer.dragon) > hand(dragon_tiger, dealer.tiger)", '
            'then: win dragon; lose tiger; lose tie}\n'
            '      - {cite: § 944.7(a), when: "hand(dragon_tiger, dealer.dragon) < hand(dragon_tiger, dealer.tiger)", '
            'then: win tiger; lose dragon; lose tie}\n')


def test_a_wager_settled_by_an_earlier_step_where_a_later_one_is_silent_is_not_left_open():
    """Dragon Tiger (tests/fixtures/chapters/dragon-tiger.yaml, NOT official text) with the tie settled first and
    the Dragon and Tiger wins in a settle step after it: the later step says nothing on a tie, where the earlier
    one settled every wager; the lint used to look only at later steps and refused it."""
    text = edit(DRAGON_TIGER, _DT_WINS, "")
    later = "  - id: settle_wins\n    do: settle\n    cite: § 944.6(b)\n    rules:\n" + _DT_WINS
    assert errors(edit(text, "text_facts:\n", later + "text_facts:\n")) == []
    # without the tie's rule, the tie is open in both steps: still refused, at the later step
    no_tie = edit(text, '      - {cite: § 944.7(b), when: "hand(dragon_tiger, dealer.dragon) == hand(dragon_tiger, '
                        'dealer.tiger)", then: surrender dragon 1/2; surrender tiger 1/2; win tie}\n', "")
    errs = errors(edit(no_tie, "text_facts:\n", later + "text_facts:\n"))
    assert any("step 'settle_wins': when hand(dragon_tiger, dealer.dragon) == hand(dragon_tiger, dealer.tiger), "
               "no rule settles 'dragon'" in e and "no other step does" in e for e in errs), errs


def test_a_wager_no_rule_can_lose_is_refused():
    text = edit(HIGH, '      - {cite: § 999.3, when: "hand(high, player.up) < hand(high, dealer.up)", then: lose bet}\n',
                "")
    errs = errors(text)
    line, col = at(text, "bet: {name: Bet", 5)
    assert f"b.yaml:{line}:{col}: error: wager 'bet' is won, pushed or returned by rules (§ 999.3) but never lost " \
           "by any: a round it does not win would leave it unsettled (a losing rule 'lose bet' is missing) " \
           "[at /wagers/bet]" in errs
    assert any("step 'settle': when hand(high, dealer.up) > hand(high, player.up), no rule settles 'bet'" in e
               for e in errs)


BLACKJACK = (ROOT / "tests" / "fixtures" / "chapters" / "blackjack.yaml").read_text(encoding="utf-8")
CRAPS = (ROOT / "tests" / "fixtures" / "chapters" / "craps.yaml").read_text(encoding="utf-8")


def test_a_round_condition_that_reads_a_player_is_refused_at_its_position():
    """A step's `when` is read for no player (the engine has none there): `active()` would be false for
    everyone and the dealer would never draw. `any_player(active())`, the chapter's own text, is accepted
    (test_every_seeded_and_test_chapter_is_playable)."""
    text = edit(BLACKJACK, "when: any_player(active())", "when: active()")
    line, col = at(text, "when: active()", len("when: "))
    assert errors(text) == [
        f"b.yaml:{line}:{col}: error: step 'dealer_draws': the when of a step is a condition on the round, read for "
        "no player, but active() reads a player: there it reads no one (no wager, flag or card of anyone), whatever "
        "the players hold. Give the step 'players:' (a condition each player must meet) or read the players with "
        "any_player(...) or count_players(...) [at /procedure/13/when]"]


def test_a_loop_without_players_whose_until_reads_a_player_is_refused():
    text = edit(CRAPS, "    until: state.point == 0\n", "    until: state.point == 0 or not has(pass_line)\n")
    errs = errors(text)
    line, col = at(text, "until: state.point == 0 or", len("until: "))
    assert len(errs) == 1 and errs[0].startswith(
        f"b.yaml:{line}:{col}: error: step 'point_rolls': the until of a step is a condition on the round, read for "
        "no player, but has(pass_line) reads a player")
    # the same condition read for each player (a loop with `players`) is the player's own: accepted
    assert errors(edit(text, "    bound: 1000\n    cite: § 981.6(c)\n",
                       "    bound: 1000\n    players: has(pass_line)\n    cite: § 981.6(c)\n")) == []


# ----------------------------------------------------------------------------- the command line


@pytest.mark.parametrize("name, expected", [
    ("unplayable.yaml", [("13\n", "a table of 13 positions: at most 12", "/table/max_positions"),
                         ("cover_card", "no 'reshuffle_marker' places one", "/cards/reshuffle/when"),
                         ("5H]", "card 5H is listed twice in named hand 'two_fives'",
                          "/rankings/high/hands/two_fives/cards/1"),
                         ("round.rol", "unknown round attribute 'rol' (did you mean 'roll'?)", "/procedure/1/when"),
                         ("bet, text: The wager each player places before",
                          "the term 'bet' is defined twice", "/provisions/0/definitions/1/term")]),
    ("unplayable_lint.yaml", [("8\n", "the data gives 8 decks, but the provision text states 'six decks'",
                               "/cards/decks"),
                              ("bet: {name", "wager 'bet' is won, pushed or returned", "/wagers/bet"),
                              ("id: settle\n", "step 'settle': when hand(high, dealer.up) > hand(high, player.up)",
                               "/procedure/2")]),
])
def test_cli_validate_reports_every_unplayable_part_at_once(capsys, name, expected):
    from compiler.cli import main

    path = f"tests/fixtures/broken/{name}"
    text = (ROOT / path).read_text(encoding="utf-8")
    assert "NOT OFFICIAL TEXT" in text
    assert main(["validate", str(ROOT / path)]) == 1
    out = capsys.readouterr()
    lines = [ln for ln in out.err.splitlines() if ": error: " in ln]
    assert len(lines) == len(expected), out.err
    for needle, message, pointer in expected:
        line, col = at(text, needle, offset=5 if needle.startswith("bet: {") else 0)
        assert any(ln.startswith(f"{ROOT / path}:{line}:{col}: error: ") and message in ln
                   and ln.endswith(f"[at {pointer}]") for ln in lines), (needle, line, col, out.err)
    assert "Traceback" not in out.err + out.out
