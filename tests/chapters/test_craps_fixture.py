"""The Craps test chapter (tests/fixtures/chapters/craps.yaml, not official text) end to end: it validates,
plays rounds of several rolls (`play_one`), saves hand histories that `settle` replays to the same results,
settles the hand histories of tests/fixtures/chapters/craps-rounds/ with `--check`, renders its text and
gets a Rules Submission document with its figures."""
from __future__ import annotations

import contextlib
import io
from decimal import Decimal
import json
import random
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from compiler.cli import main
from compiler.pipeline import load_game
from compiler.play.session import history_yaml, play_one, prepare_table

ROOT = Path(__file__).resolve().parents[2]
CRAPS = ROOT / "tests" / "fixtures" / "chapters" / "craps.yaml"
ROUNDS = sorted((ROOT / "tests" / "fixtures" / "chapters" / "craps-rounds").glob("*.yaml"))
sys.path.insert(0, str(ROOT / "tests" / "people"))
from test_play import RandomPlayer  # noqa: E402


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def test_it_validates_without_untied_values_and_no_rule_is_longer_than_300_characters():
    rc, out, err = run("validate", CRAPS)
    assert rc == 0, err
    assert "0 untied" in err + out
    data = yaml.safe_load(CRAPS.read_text(encoding="utf-8"))
    texts = []

    def walk(steps):
        for s in steps:
            texts.extend(str(s[k]) for k in ("when", "until", "while") if k in s)
            for r in s.get("rules") or ():
                texts.extend(str(r.get(k, "")) for k in ("when", "then"))
            walk(s.get("steps") or ())

    walk(data["procedure"])
    assert texts and max(map(len, texts)) <= 300


@pytest.mark.parametrize("path", ROUNDS, ids=[p.stem for p in ROUNDS])
def test_hand_histories_of_several_rolls_settle_as_expected(path):
    assert len(yaml.safe_load(path.read_text(encoding="utf-8"))["rolls"]) >= 1
    rc, out, err = run("settle", CRAPS, path, "--check")
    assert rc == 0, err
    assert "settled as expected" in out + err


def test_hand_histories_with_more_than_one_roll_and_odds_taken_between_rolls():
    hs = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in ROUNDS]
    assert len(hs) == 14 and sum(len(h["rolls"]) > 1 for h in hs) == 11
    assert any(pos.get("offers") for h in hs for pos in h["positions"].values())
    assert any(isinstance(c, list) for h in hs for pos in h["positions"].values() for c in (pos.get("choices") or
                                                                                        {}).values())


@pytest.mark.parametrize("choices,message,pointer", [
    ("[leave_up, leave_up, take_down, leave_up]", "gives 4 choices for 'take_down'; the round asked for 3",
     "/positions/1/choices/take_down/3"),
    ("[leave_up, leave_up]", "no choice for 'take_down' after the 2 it lists", "/positions/1/choices/take_down"),
    ("[leave_up, pass, take_down]", "'pass' is not a choice at 'take_down' (§ 981.7(e))",
     "/positions/1/choices/take_down/1"),
])
def test_a_list_of_choices_of_a_repeated_decision_must_match_the_round(tmp_path, choices, message, pointer):
    src = ROOT / "tests" / "fixtures" / "chapters" / "craps-rounds" / "take-down.yaml"
    text = src.read_text(encoding="utf-8")
    f = tmp_path / "r.yaml"
    old = "choices: {take_down: [leave_up, leave_up, take_down]}"
    assert text.count(old) == 1
    f.write_text(text.replace(old, "choices: {take_down: " + choices + "}"), encoding="utf-8")
    rc, out, err = run("settle", CRAPS, f, "--check")
    assert rc == 1 and message in err and f"[at {pointer}]" in err and "Traceback" not in err


def test_played_rounds_are_saved_with_every_roll_and_settle_replays_them(tmp_path):
    mod, _ = load_game(str(CRAPS))
    multi, repeated, offers = 0, 0, 0
    for seed in range(12, 24):
        table = prepare_table(mod.new_table({}, seed=seed))
        # RandomPlayer offers 0 or 5: odds equal to the line wager, or none
        bets = {1: {"pass_line": 5, "place": {"amount": 6, "numbers": [6]}},
                2: {"place": {"amount": 5, "numbers": [9]}}, 4: {"dont_pass": 5, "field": 5, "eleven": 1}}
        player = RandomPlayer(random.Random(seed))
        player.choose = lambda seat, step, decision, choices, view: choices[0]  # leaves the Place wagers up
        r = play_one(table, bets, player)
        h = yaml.safe_load(history_yaml(r.history))
        assert h["rolls"] == r.result.rolled and all(len(x) == 2 for x in h["rolls"])
        multi += len(h["rolls"]) > 1
        repeated += any(isinstance(c, list) for pos in h["positions"].values() for c in (pos.get("choices") or
                                                                                       {}).values())
        offers += any(isinstance(a, list) for pos in h["positions"].values() for a in (pos.get("offers") or
                                                                                     {}).values())
        f = tmp_path / f"r{seed}.yaml"
        f.write_text(history_yaml(r.history), encoding="utf-8")
        rc, out, err = run("settle", CRAPS, f, "--format", "json")
        assert rc == 0, err
        got = {(x["seat"], x["wager"]): (x["outcome"], x["net"]) for x in json.loads(out)["results"]}
        played = {(x.seat, x.wager): (x.outcome, str(x.net)) for x in r.result.results}
        assert {k: (o, float(n)) for k, (o, n) in got.items()} == {k: (o, float(n)) for k, (o, n) in played.items()}
    # points were set and rolled for; a decision taken at several passes; a Come wager declined, then made
    assert multi >= 3 and repeated >= 1 and offers >= 1


def test_the_text_renders():
    rc, out, err = run("text", "render", CRAPS)
    assert rc == 0, err
    assert "§ 981.6. Play." in out and "until a 7 or the point is rolled" in out


def test_a_rules_submission_document_shows_the_chain_figures(tmp_path):
    from compiler.submission.check import check_files
    from compiler.submission.document import document_context, figure_rows, render_formats

    (tmp_path / "rulespecs").mkdir()
    shutil.copy(CRAPS, tmp_path / "rulespecs" / "981-craps.yaml")
    sub = tmp_path / "981-craps-lakeside.yaml"
    sub.write_text("rules_submission: 1\ncertificate_holder: Lakeside Test Gaming, LLC\nfacility: Lakeside Test Casino\n"
                   "game:\n  chapter: \"981\"\n  title: Craps (test fixture, not official text)\n"
                   "effective_date: \"2099-02-01\"\ncontact:\n  name: A. Tester\n  title: Director\n"
                   "  phone: 555-555-0100\nselections: {}\n", encoding="utf-8")
    results, spec_diags = check_files([sub], root=tmp_path)
    ((f, s, diags),) = results
    assert s is not None and not spec_diags, [d.format() for d in [*diags, *spec_diags]]
    rows = figure_rows(s)
    shown = json.dumps(rows)
    assert "Pass Line" in shown and "1.4141%" in shown and "1.3636%" in shown
    md = render_formats(document_context(s, str(f)), ("md",))["md"]
    assert "Craps" in md and "1.4141%" in md
    # a wager that stays from round to round says so in the table of wagers (the Come, the Don't Come; no other)
    come = [line for line in md.splitlines() if line.startswith("| Come |") and "(" in line.split("|")[2]]
    assert len(come) == 1 and "stays on the layout from round to round until settled, keeping come\\_point" in come[0]
    table = [line for line in md.splitlines() if line.startswith("| ") and ("| yes (" in line or "| no (" in line)]
    assert len(table) > 5 and sum("stays on the layout" in line for line in table) == 2  # Come, Don't Come
    (dont_come,) = [line for line in md.splitlines() if line.startswith("| Don't Come | made whenever offered")]
    assert "| 1.3636% | 3/220 |" in dont_come  # the Don't Pass's figure, per unit made


def test_a_come_and_a_dont_come_of_one_seat_keep_their_own_points_and_settle_on_their_own():
    """§ 981.6(e), § 981.7(f), § 981.7(h): come-and-dont-come.yaml's rolls played by the engine: Come #1 and
    Don't Come #1, made after the 4, both take 6 as their point, each in its own state; the 11 wins Come #2 made
    after the 6 and leaves Don't Come #1 alone (an 11 loses a Don't Come only next after it is made); the next 6
    wins the Come and loses the Don't Come."""
    from compiler.runtime.engine import CallbackStrategy
    mod, _ = load_game(str(CRAPS))
    answers = {"come": iter([10, 10, 0, 0]), "dont_come": iter([5, 0, 0, 0])}
    r = mod.new_table({}, seed=1).play_round({1: {"pass_line": 10, "dont_pass": 5}},
                                             CallbackStrategy(offer=lambda w, v: next(answers[w]) if w in answers else 0),
                                             rolls=[[4, 4], [2, 2], [3, 3], [5, 6], [2, 4], [6, 2]])
    got = [(x.label, x.outcome, x.net, x.cites[0]) for x in r.results]
    assert sorted(got) == sorted([("come#2", "win", 10, "§ 981.7(f)"), ("come#1", "win", 10, "§ 981.7(f)"),
                                  ("dont_come#1", "lose", -5, "§ 981.7(h)"),
                                  ("pass_line", "win", 10, "§ 981.6(c)"), ("dont_pass", "lose", -5, "§ 981.6(c)")])
    text = "\n".join(str(e) for e in r.log)
    assert "come_point = 6 (Come #1)" in text and "dont_come_point = 6 (Don't Come #1)" in text
    assert not r.carried_out


@pytest.mark.parametrize("rolls,outcome,net", [
    ([[3, 3], [1, 1], [1, 1]], "win", "10.00"),    # a 2 next after it is made
    ([[3, 3], [1, 1], [1, 2]], "win", "10.00"),    # a 3
    ([[3, 3], [1, 1], [6, 6]], "push", "0.00"),    # a 12
    ([[3, 3], [1, 1], [3, 4]], "lose", "-10.00"),  # a 7
    ([[3, 3], [1, 1], [5, 6]], "lose", "-10.00"),  # an 11
    ([[3, 3], [1, 1], [4, 5], [2, 2], [3, 4]], "win", "10.00"),   # its point 9, then a 7
    ([[3, 3], [1, 1], [4, 5], [2, 2], [6, 3]], "lose", "-10.00"),  # its point 9 rolled again
])
def test_a_dont_come_wager_settles_as_a_dont_pass_of_its_own(rolls, outcome, net):
    """§ 981.7(h): made after the first roll of the point (a 2), the Don't Come wins on 2 or 3, pushes on 12 and
    loses on 7 or 11 next; on another total that is its point, won by a 7 and lost by the point."""
    from compiler.runtime.engine import CallbackStrategy
    mod, _ = load_game(str(CRAPS))
    answers = iter([10])
    r = mod.new_table({}, seed=1).play_round({1: {"dont_pass": 10}},
                                             CallbackStrategy(offer=lambda w, v: next(answers, 0) if w == "dont_come" else 0), rolls=rolls)
    (dc,) = [x for x in r.results if x.label.startswith("dont_come")]
    assert (dc.label, dc.outcome, dc.net, dc.cites[0]) == ("dont_come#1", outcome, Decimal(net), "§ 981.7(h)")
