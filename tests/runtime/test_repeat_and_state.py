"""`do: repeat` (steps run while / until a condition, never beyond a declared bound) and round state
(`state:` declared in the chapter, `set NAME = EXPR`, read as `state.NAME`), on the Craps test chapter
(tests/fixtures/chapters/craps.yaml, not official text)."""
from __future__ import annotations

import contextlib
import io
from decimal import Decimal
from pathlib import Path

import pytest

from compiler.cli import main
from compiler.pipeline import load_game
from compiler.runtime.shoe import StandInShoe

ROOT = Path(__file__).resolve().parents[2]
CRAPS = ROOT / "tests" / "fixtures" / "chapters" / "craps.yaml"


def _validate(path: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["validate", str(path)])
    return rc, err.getvalue() + out.getvalue()


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    text = CRAPS.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "craps.yaml"
    p.write_text(text.replace(old, new), encoding="utf-8")
    return p


def _table(path=CRAPS):
    mod, _ = load_game(str(path))
    return mod.new_table({}, seed=1)


def _net(r) -> dict[str, Decimal]:
    return {w.wager: w.net for w in r.results}


def test_the_point_is_kept_between_rolls_and_the_line_wagers_stay_up_until_it_is_made():
    r = _table().play_round({1: {"pass_line": 10, "dont_pass": 5, "place": {"amount": 6, "numbers": [6]},
                                 "field": 5}}, rolls=[[4, 1], [5, 6], [3, 3], [1, 4]])
    assert _net(r) == {"pass_line": Decimal(10), "dont_pass": Decimal(-5), "place": Decimal(7),
                       "field": Decimal(-5)}
    kinds = [(e.kind, e.cite) for e in r.log]
    assert ("state", "§ 981.6(b)") in kinds  # point = 5, logged with its §
    assert [e.text for e in r.log if e.kind == "state"] == ["point = 5", "point = 0"]  # set, then turned off
    passes = [e for e in r.log if e.kind == "repeat"]
    assert [e.cite for e in passes] == ["§ 981.6(c)"] * 3 and passes[-1].text.endswith("pass 3")
    assert r.rolled == [[4, 1], [5, 6], [3, 3], [1, 4]]


def test_the_loop_stops_on_a_seven_and_a_place_wager_loses_with_its_section():
    on_8 = {"amount": 6, "numbers": [8]}
    r = _table().play_round({1: {"pass_line": 10, "place": on_8}}, rolls=[[6, 4], [4, 4], [3, 4]])
    assert _net(r) == {"pass_line": Decimal(-10), "place": Decimal(7)}
    r = _table().play_round({1: {"dont_pass": 10, "place": on_8}}, rolls=[[6, 4], [3, 4]])
    assert _net(r) == {"dont_pass": Decimal(10), "place": Decimal(-6)}
    lost = next(w for w in r.results if w.wager == "place")
    assert lost.cites == ("§ 981.7(b)",)


def test_no_point_no_pass_and_the_place_wagers_are_returned_not_pushed():
    r = _table().play_round({1: {"pass_line": 10, "dont_pass": 10, "place": {"amount": 6, "numbers": [6]}}},
                            rolls=[[6, 6]])
    assert [e.kind for e in r.log].count("repeat") == 0  # the loop's `when` (a point) does not hold
    res = {w.wager: (w.outcome, w.net) for w in r.results}
    assert res == {"pass_line": ("lose", Decimal(-10)), "dont_pass": ("push", Decimal(0)),
                   "place": ("void", Decimal(0))}


def test_a_missing_roll_inside_the_loop_is_an_error_not_a_silent_end():
    from compiler.runtime.engine import RefusedError
    mod, _ = load_game(str(CRAPS))
    t = mod.new_table({}, shoe=StandInShoe())  # scripted: every roll must come from the hand history
    with pytest.raises(RefusedError, match="gives no dice"):
        t.play_round({1: {"pass_line": 10}}, rolls=[[4, 1], [5, 6]])


def test_reaching_the_bound_is_an_irregularity_with_its_section_and_returns_the_wagers_in_action(tmp_path):
    p = _variant(tmp_path, "bound: 1000", "bound: 2")
    r = _table(p).play_round({1: {"pass_line": 10, "field": 5}}, rolls=[[4, 1], [5, 6], [3, 3]])
    irr = [e for e in r.log if e.kind == "irregularity"]
    assert len(irr) == 1 and irr[0].cite == "§ 981.6(c)" and "bound of 2 passes" in irr[0].text
    res = {w.wager: (w.outcome, w.net) for w in r.results}
    assert res == {"pass_line": ("void", Decimal(0)), "field": ("lose", Decimal(-5))}  # settled stays settled


def test_while_is_tested_before_each_pass(tmp_path):
    p = _variant(tmp_path, "    when: state.point != 0\n    until: state.point == 0\n", "    while: state.point != 0\n")
    assert _validate(p)[0] == 0
    r = _table(p).play_round({1: {"pass_line": 10}}, rolls=[[6, 6]])
    assert [e.kind for e in r.log].count("repeat") == 0
    r = _table(p).play_round({1: {"pass_line": 10}}, rolls=[[2, 2], [5, 5], [1, 3]])
    assert [e.kind for e in r.log].count("repeat") == 2 and _net(r) == {"pass_line": Decimal(10)}
    assert [e.text for e in r.log if e.kind == "state"] == ["point = 4", "point = 0"]


def test_the_craps_chapter_validates():
    rc, out = _validate(CRAPS)
    assert rc == 0, out


@pytest.mark.parametrize("old,new,message", [
    ("    bound: 1000\n", "", "bound"),
    ("    until: state.point == 0\n", "", "missing one of the fields 'while' or 'until'"),
    ("until: state.point == 0\n", "until: state.pont == 0\n", "unknown round state 'pont' (did you mean 'point'?)"),
    ("then: set point = round.roll", "then: set pointt = round.roll",
     "unknown round state 'pointt' (did you mean 'point'?)"),
    ("  point: {initial: 0, cite: § 981.6(b), title: the point (0 while none is set)}\n",
     "  point: {initial: 0, cite: § 981.6(b), title: the point (0 while none is set)}\n  hot: {initial: 1.5, cite: § 981.6(b)}\n",
     "/state/hot/initial"),
    # a wager that stays on the layout from one round to the next (issue 23): misuse is a positioned error
    ("stays: until_settled, keeps: [come_point]", "stays: until_settled, keeps: [come_pont]",
     "unknown state 'come_pont' (did you mean 'come_point'?)"),
    ("stays: until_settled, keeps: [come_point]", "stays: until_settled, keeps: [point]",
     "keeps 'point', which is kept for the round"),
    ("stays: until_settled, keeps: [come_point]", "keeps: [come_point]", "add 'stays: until_settled'"),
    ("stays: until_settled, keeps: [come_point]", "stays: forever, keeps: [come_point]", "/wagers/come/stays"),
])
def test_validate_requires_the_bound_and_declared_state(tmp_path, old, new, message):
    rc, out = _validate(_variant(tmp_path, old, new))
    assert rc == 1 and message in out and "Traceback" not in out
    assert "craps.yaml:" in out and ": error: " in out


TCP = ROOT / "tests" / "fixtures" / "chapters" / "three-card-poker.yaml"


def _per_player(tmp_path, bound=3, until="count(player.hand) == 3"):
    text = TCP.read_text(encoding="utf-8")
    old = "  - {id: deal_players, do: deal, to: players, zone: hand, count: 3, face: down, cite: § 905.6(a)}\n"
    assert old in text
    new = (f"  - id: draw_each\n    do: repeat\n    players: has(ante)\n    until: {until}\n    bound: {bound}\n"
           "    cite: § 905.6(a)\n    steps:\n"
           "      - {id: deal_players, do: deal, to: players, zone: hand, count: 1, face: down, cite: § 905.6(a)}\n")
    said = "Three cards are dealt face down to each player and to the dealer."
    assert said in text
    text = text.replace(said, "Each player in turn is dealt one card at a time, face down, until holding three cards "
                              "(at most three times); three cards are dealt face down to the dealer.")
    p = tmp_path / "tcp.yaml"
    p.write_text(text.replace(old, new), encoding="utf-8")
    return p


def test_a_loop_per_player_reads_that_player_and_deals_to_that_player_only(tmp_path):
    p = _per_player(tmp_path)
    assert _validate(p)[0] == 0
    mod, _ = load_game(str(p))
    r = mod.new_table({}, seed=3).play_round({1: {"ante": 5}, 4: {"ante": 5}})
    deals = [e.seat for e in r.log if e.kind == "deal" and e.seat is not None]
    assert deals == [1, 1, 1, 4, 4, 4]
    passes = [(e.seat, e.text) for e in r.log if e.kind == "repeat"]
    assert passes == [(1, "draw_each (seat 1): pass 1"), (1, "draw_each (seat 1): pass 2"),
                      (1, "draw_each (seat 1): pass 3"), (4, "draw_each (seat 4): pass 1"),
                      (4, "draw_each (seat 4): pass 2"), (4, "draw_each (seat 4): pass 3")]
    assert all(len(x.cites) for x in r.results)


def test_the_bound_of_a_loop_per_player_returns_that_players_wagers_only(tmp_path):
    p = _per_player(tmp_path, bound=2)  # three cards are never reached in two passes
    mod, _ = load_game(str(p))
    r = mod.new_table({}, seed=3).play_round({1: {"ante": 5}, 4: {"ante": 5}})
    irr = [e for e in r.log if e.kind == "irregularity"]
    assert [e.seat for e in irr] == [1, 4] and all(e.cite == "§ 905.6(a)" for e in irr)
    assert {(x.seat, x.outcome) for x in r.results} == {(1, "void"), (4, "void")}


def test_a_rule_naming_a_wager_an_earlier_rule_always_settled_first_is_an_error_with_both_positions(tmp_path):
    """Issue 23 item 7: the later rule holds only when the earlier one held (its condition is part of the
    later one's), and the earlier one settled the wager: the later action could never apply."""
    old = "      - {cite: § 981.6(a), when: round.roll == 12, then: lose pass_line; push dont_pass}\n"
    p = _variant(tmp_path, old, old + "      - {cite: § 981.6(a), when: round.roll == 12 and round.roll > 1, "
                                       "then: note 'bar'; win dont_pass}\n")
    rc, out = _validate(p)
    text = p.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(text, 1) if line.startswith(old.rstrip("\n")))
    assert rc == 1 and "'win dont_pass': this rule applies only when the rule at" in out
    assert f"craps.yaml:{first}:9 (§ 981.6(a))" in out and f"craps.yaml:{first + 1}:" in out
    assert "[at /procedure/1/rules/3/then]" in out


@pytest.mark.parametrize("extra", [
    "when: round.roll == 12 and has(dont_pass), then: win dont_pass",  # reads what settling changes
    "when: round.roll == 11, then: win field at field_12",  # its condition does not contain the earlier one's
])
def test_a_later_rule_that_may_apply_on_its_own_is_not_refused(tmp_path, extra):
    old = "      - {cite: § 981.7(c), when: round.roll != 12, then: lose twelve}\n"
    p = _variant(tmp_path, old, old + "      - {cite: § 981.7(a), " + extra + "}\n")
    rc, out = _validate(p)
    assert "this rule applies only when" not in out


def test_round_state_kept_per_player(tmp_path):
    """`per: player`: one value for each player, read and set in a player step (a loop per player)."""
    p = _per_player(tmp_path, until="state.drawn == 3")
    text = p.read_text(encoding="utf-8")
    text = text.replace("wagers:\n", "state:\n  drawn: {initial: 0, per: player, cite: § 905.6(a)}\nwagers:\n", 1)
    text = text.replace(
        "      - {id: deal_players, do: deal, to: players, zone: hand, count: 1, face: down, cite: § 905.6(a)}\n",
        "      - {id: deal_players, do: deal, to: players, zone: hand, count: 1, face: down, cite: § 905.6(a)}\n"
        "      - {id: count_drawn, do: settle, cite: § 905.6(a), rules: [{cite: § 905.6(a), "
        "then: set drawn = state.drawn + 1}]}\n")
    p.write_text(text, encoding="utf-8")
    rc, out = _validate(p)
    assert rc == 0, out
    mod, _ = load_game(str(p))
    r = mod.new_table({}, seed=3).play_round({1: {"ante": 5}, 4: {"ante": 5}})
    assert [e.seat for e in r.log if e.kind == "deal" and e.seat is not None] == [1, 1, 1, 4, 4, 4]
    assert [(e.seat, e.text) for e in r.log if e.kind == "state"] == [
        (1, "drawn = 1"), (1, "drawn = 2"), (1, "drawn = 3"), (4, "drawn = 1"), (4, "drawn = 2"), (4, "drawn = 3")]


def test_the_same_holds_for_the_rules_of_an_irregularity(tmp_path):
    p = _variant(tmp_path, "# numbers of the text no executable part states", "irregularities:\n"
                 "  - id: no_roll\n    event: no_roll\n    title: dice not rolled\n    cite: § 981.6(a)\n    rules:\n"
                 "      - {cite: § 981.6(a), then: return all}\n      - {cite: § 981.6(a), then: lose pass_line}\n"
                 "# numbers of the text no executable part states")
    rc, out = _validate(p)
    assert rc == 1 and "'lose pass_line': this rule applies only when the rule at" in out
    assert "[at /irregularities/0/rules/1/then]" in out


DICE = Path(__file__).resolve().parents[1] / "fixtures" / "chapters" / "dice-total.yaml"
_LOSE_SEVEN = "      - {cite: § 906.5(a), when: \"has(seven) and round.roll != 7\", then: lose seven}\n"


def _dice_variant(tmp_path: Path, steps: str) -> Path:
    """The dice-total test chapter with an unconditional settle step before its settlement and ``steps`` after."""
    text = DICE.read_text(encoding="utf-8")
    anchor = "  - id: settle\n"
    first = ("  - id: seven_first\n    do: settle\n    cite: § 906.5\n    rules:\n"
             "      - {cite: § 906.5(a), then: lose seven}\n")
    assert anchor in text and "text_facts:" in text
    text = text.replace(anchor, first + anchor, 1).replace("text_facts:", steps + "text_facts:", 1)
    p = tmp_path / "dice-total.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_a_rule_naming_a_wager_an_earlier_step_always_settled_is_an_error_with_both_positions(tmp_path):
    """Issue 23 item 7 across steps: a settle step with no condition settles the Seven wager in a rule with no
    condition; every later rule that settles it could never apply (the engine would skip it silently)."""
    p = _dice_variant(tmp_path, "")
    rc, out = _validate(p)
    lines = p.read_text(encoding="utf-8").splitlines()
    earlier = next(i for i, line in enumerate(lines, 1) if "then: lose seven}" in line and "when" not in line)
    later = next(i for i, line in enumerate(lines, 1) if line.startswith(_LOSE_SEVEN.rstrip("\n")))
    assert rc == 1 and "'lose seven': the rule at" in out and "in an earlier step that always runs" in out
    assert f"dice-total.yaml:{earlier}:" in out and f"dice-total.yaml:{later}:" in out
    assert "[at /procedure/2/rules/1/then]" in out and "[at /procedure/2/rules/0/then]" in out


def test_a_wager_placed_again_between_the_steps_is_not_refused(tmp_path):
    """A `place` between the two steps makes the wager open again: the later rule may apply."""
    p = _dice_variant(tmp_path, "")
    text = p.read_text(encoding="utf-8").replace(
        "  - id: settle\n", "  - id: again\n    do: settle\n    cite: § 906.5\n    rules:\n"
        "      - {cite: § 906.5(a), then: place seven = wager(seven)}\n  - id: settle\n", 1)
    p.write_text(text, encoding="utf-8")
    rc, out = _validate(p)
    assert rc == 0 and "in an earlier step that always runs" not in out, out
