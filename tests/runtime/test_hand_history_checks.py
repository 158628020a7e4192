"""Hand histories are untrusted input: every bad one is refused with FILE:LINE:COL, before anything
is settled, and never with a traceback (issue 12, item 6)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
WAR = "rulespecs/567-war.yaml"
STUD = "rulespecs/669a-raise-it-up-stud-poker.yaml"
WAR_ROUND = ROOT / "rulespecs/rounds/567-war-tie-goes-to-war.yaml"
STUD_ROUND = ROOT / "rulespecs/rounds/669a-envy-bonus.yaml"
POSITIONED = re.compile(r"^(?P<path>[^\n]+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*?)(?: \[at (?P<ptr>[^\]]*)\])?$")


def settle(tmp_path, capsys, spec, base: Path, old: str, new: str):
    text = base.read_text(encoding="utf-8")
    assert old in text, f"the mutation's anchor {old!r} is not in {base.name}"
    f = tmp_path / "round.yaml"
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    rc = main(["settle", spec, str(f)])
    out, err = capsys.readouterr()
    return rc, out, err, f


def errors_of(err: str) -> list[re.Match]:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    matches = [POSITIONED.match(ln) for ln in lines]
    assert lines and all(matches), f"every error line is FILE:LINE:COL: error: ...; got:\n{err}"
    return matches


CASES = [
    # (id, spec, base, old, new, message part, pointer)
    ("wager NaN", WAR, WAR_ROUND, "initial: 10, tie: 2", "initial: NaN, tie: 2", "finite", "/positions/1/wagers/initial"),
    ("wager Infinity", WAR, WAR_ROUND, "initial: 10, tie: 2", "initial: Infinity, tie: 2", "finite",
     "/positions/1/wagers/initial"),
    ("wager 1e400", WAR, WAR_ROUND, "initial: 10, tie: 2", "initial: 1e400, tie: 2", "beyond the largest amount",
     "/positions/1/wagers/initial"),
    ("wager of 28 digits", WAR, WAR_ROUND, "initial: 10, tie: 2", "initial: 1234567890123456789012345678, tie: 2",
     "number with more than 15 digits", "/positions/1/wagers/initial"),
    ("negative wager", WAR, WAR_ROUND, "initial: 25}", "initial: -25}", "not negative", "/positions/4/wagers/initial"),
    ("joker without jokers", WAR, WAR_ROUND, "original: [7H]", "original: [JK]", "without a joker",
     "/dealt/1/original/0"),
    ("event without a seat", WAR, ROOT / "rulespecs/rounds/567-war-card-not-dealt.yaml", ", seat: 3}", "}",
     "names no seat", "/events/0"),
    ("event before no step", WAR, WAR_ROUND, "burned: [AS, 2D, 3D]",
     "burned: [AS, 2D, 3D]\nevents: [{event: face_up_card, before: nowhere, cards: [9H]}]", "no step 'nowhere'",
     "/events/0/before"),
    ("unknown event", WAR, WAR_ROUND, "burned: [AS, 2D, 3D]",
     "burned: [AS, 2D, 3D]\nevents: [{event: table_on_fire, before: deal_players}]", "no provision", "/events/0/event"),
    ("event at a seat without a wager", WAR, WAR_ROUND, "burned: [AS, 2D, 3D]",
     "burned: [AS, 2D, 3D]\nevents: [{event: card_not_dealt, before: deal_players, seat: 5}]", "seat 5 has no wager",
     "/events/0/seat"),
    ("options out of bounds", WAR, WAR_ROUND, "options: {decks: 6}", "options: {decks: 1000}", "above the 16 maximum",
     "/options/decks"),
    ("unknown option", WAR, WAR_ROUND, "options: {decks: 6}", "options: {decks: 6, bogus: 1}", "no option 'bogus'",
     "/options/bogus"),
    ("options breaking a condition", WAR, WAR_ROUND, "options: {decks: 6}", "options: {decks: 10}", "§ 567.3(a)",
     "/options"),
    ("seat beyond the table", WAR, WAR_ROUND, "  6:\n    wagers: {initial: 5, tie: 1}",
     "  9:\n    wagers: {initial: 5, tie: 1}", "positions 1 to 7", "/positions/9"),
    ("unknown choice", WAR, WAR_ROUND, "tie_hand_option: surrender", "tie_hand_option: run_away",
     "not a choice at 'tie_hand_option'", "/positions/4/choices/tie_hand_option"),
    ("unknown wager", WAR, WAR_ROUND, "initial: 25}", "initial: 25, lucky: 5}", "no wager 'lucky'",
     "/positions/4/wagers/lucky"),
    ("meter abc", STUD, STUD_ROUND, "positions:", "meters: {progressive: abc}\npositions:", "not an amount",
     "/meters/progressive"),
    ("negative meter", STUD, STUD_ROUND, "positions:", "meters: {progressive: -5}\npositions:", "not negative",
     "/meters/progressive"),
    ("unknown meter", STUD, STUD_ROUND, "positions:", "meters: {jackpot: 5000}\npositions:", "no progressive meter",
     "/meters/jackpot"),
    ("same card twice from one deck", STUD, STUD_ROUND, "5: {hand: [2H, 2S, 7D]}", "5: {hand: [2H, 2S, AH]}",
     "AH appears 2 times", "/dealt/5/hand/2"),
    ("three aces of spades in one hand", STUD, STUD_ROUND, "1: {hand: [5C, 6D, 9S]}", "1: {hand: [AS, AS, AS]}",
     "AS appears 3 times", "/dealt/1/hand/1"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_hand_history_is_refused_positioned_before_settling(tmp_path, capsys, case):
    _, spec, base, old, new, part, ptr = case
    rc, out, err, f = settle(tmp_path, capsys, spec, base, old, new)
    assert rc == 1
    assert out == ""  # nothing settled, nothing printed as a result
    found = errors_of(err)
    assert any(part in m["msg"] and m["ptr"] == ptr and m["path"] == str(f) for m in found), err
    # the line and column are those of the offending node
    m = next(m for m in found if m["ptr"] == ptr)
    line = f.read_text(encoding="utf-8").splitlines()[int(m["line"]) - 1]
    assert int(m["col"]) <= len(line) + 1


def test_every_error_of_a_hand_history_is_reported_at_once(tmp_path, capsys):
    rc, _, err, _ = settle(tmp_path, capsys, WAR, WAR_ROUND, "options: {decks: 6}",
                           "options: {decks: 1000, bogus: 1}")
    assert rc == 1
    ptrs = {m["ptr"] for m in errors_of(err)}
    assert {"/options/decks", "/options/bogus"} <= ptrs


ENGINE_CASES = [
    # errors found while playing: still FILE:LINE:COL, at the seat or the cards concerned
    ("choice missing", WAR, WAR_ROUND, "    choices: {tie_hand_option: surrender}\n", "", "no choice for 'tie_hand_option'",
     "/positions/4"),
    ("card missing", WAR, WAR_ROUND, "war: [KD]", "war: []", "no card #1 for seat 1 (war)", "/dealt/1/war"),
    ("fraction of a cent", WAR, WAR_ROUND, "initial: 25}", "initial: 25.001}", "whole number of cents",
     "/positions/4/wagers/initial"),
    ("wager without the one it requires", WAR, WAR_ROUND, "initial: 5, tie: 1", "tie: 1", "requires",
     "/positions/6/wagers/tie"),
]


@pytest.mark.parametrize("case", ENGINE_CASES, ids=[c[0] for c in ENGINE_CASES])
def test_engine_errors_of_a_hand_history_are_positioned(tmp_path, capsys, case):
    _, spec, base, old, new, part, ptr = case
    rc, out, err, f = settle(tmp_path, capsys, spec, base, old, new)
    assert rc == 1
    found = errors_of(err)
    assert any(part in m["msg"] and m["ptr"] == ptr for m in found), err


def test_a_card_dealt_twice_from_a_six_deck_shoe_is_possible(tmp_path, capsys):
    # not every repeated card is impossible: six decks hold six kings of diamonds (seat 1's War card)
    rc, out, err, _ = settle(tmp_path, capsys, WAR, WAR_ROUND, "6: {original: [QS]}", "6: {original: [KD]}")
    assert rc == 0, err


def test_every_seeded_hand_history_passes_the_checks_and_settles(capsys):
    for f in sorted((ROOT / "rulespecs/rounds").glob("*.yaml")):
        spec = next((ROOT / "rulespecs").glob(f.name.split("-")[0] + "-*.yaml"))
        assert main(["settle", str(spec), str(f)]) == 0, (f.name, capsys.readouterr().err)
        capsys.readouterr()
