"""The chance test chapters (tests/fixtures/chapters/{roulette-00,sic-bo,big-six,dragon-tiger}.yaml, NOT
official text; issue 23 item 5): each validates, plays through `play_one` into a hand history that `settle`
reproduces, settles its hand histories as expected (`settle --check`), renders its text and gets a Rules
Submission document. Dice are read face by face, the wheel is data, chosen-number wagers are checked."""
from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import pytest
import yaml

from compiler.cli import main
from compiler.pipeline import load_game
from compiler.play.session import history_yaml, play_one, prepare_table
from compiler.runtime.errors import RefusedError
from test_play import RandomPlayer

ROOT = Path(__file__).resolve().parents[2]
CH = ROOT / "tests/fixtures/chapters"
ROUNDS = sorted((ROOT / "tests/fixtures/chance-rounds").glob("*.yaml"))
SPEC_OF = {"roulette-00": "roulette-00", "sic-bo": "sic-bo", "big-six": "big-six", "dragon-tiger": "dragon-tiger"}
CHAPTERS = ["roulette-00", "sic-bo", "big-six", "dragon-tiger"]
BETS = {
    "roulette-00": {1: {"straight_up": {"amount": 5, "numbers": ["00"]}, "split": {"amount": 5, "numbers": [8, 11]},
                        "red": 10, "five_number": 2},
                    2: {"corner": {"amount": 5, "numbers": [32, 33, 35, 36]}, "line": {"amount": 6, "numbers": [1, 2, 3, 4, 5, 6]},
                        "dozen_3": 5, "high": 5}},
    "sic-bo": {1: {"small": 10, "total": {"amount": 2, "numbers": [11]}, "single": {"amount": 5, "numbers": [4]},
                   "combination": {"amount": 3, "numbers": [1, 6]}},
               3: {"big": 10, "any_triple": 1, "specific_double": {"amount": 2, "numbers": [6]}}},
    "big-six": {1: {"one": 5, "joker": 1}, 2: {"twenty": 2}},
    "dragon-tiger": {1: {"dragon": 10, "tie": 5}, 2: {"tiger": 10}},
}


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(list(argv))
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_validates_with_every_number_of_its_text_tied(name):
    rc, out, err = run("validate", str(CH / f"{name}.yaml"))
    assert rc == 0, out + err
    assert "0 untied" in out + err and "warning" not in out + err


@pytest.mark.parametrize("name", CHAPTERS)
def test_no_rule_longer_than_300_characters_and_no_untied(name):
    d = yaml.safe_load((CH / f"{name}.yaml").read_text(encoding="utf-8"))
    assert "untied" not in d
    for step in d["procedure"]:
        for r in step.get("rules") or ():
            assert len(str(r.get("when", ""))) <= 300 and len(str(r["then"])) <= 300


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.stem)
def test_hand_history_settles_as_expected(path):
    spec = CH / f"{SPEC_OF[path.stem.split('-')[0] + '-' + path.stem.split('-')[1]]}.yaml"
    rc, out, err = run("settle", "--check", str(spec), str(path))
    assert rc == 0, err
    assert "as expected" in out


def test_every_chapter_has_a_hand_history_with_expectations():
    stems = {p.stem for p in ROUNDS}
    for name in CHAPTERS:
        assert any(s.startswith(name) for s in stems), name
    for p in ROUNDS:
        assert yaml.safe_load(p.read_text(encoding="utf-8"))["expect"]["results"]


@pytest.mark.parametrize("name", CHAPTERS)
def test_played_round_is_saved_and_settle_reproduces_it(name, tmp_path):
    mod, _ = load_game(CH / f"{name}.yaml")
    table = prepare_table(mod.new_table({}, seed=11))
    for k in range(3):
        r = play_one(table, BETS[name], RandomPlayer(random.Random(k)))
        h = yaml.safe_load(history_yaml(r.history))
        if name != "dragon-tiger":
            assert h["rolls"] == [[str(v) if isinstance(v, str) else v for v in x] for x in r.result.rolled]
        chosen = [w for pos in h["positions"].values() for w in pos["wagers"].values() if isinstance(w, dict)]
        assert all("numbers" in w and "amount" in w for w in chosen)
        f = tmp_path / f"r{k}.yaml"
        f.write_text(history_yaml(r.history), encoding="utf-8")
        rc, out, err = run("settle", str(CH / f"{name}.yaml"), str(f), "--format", "json")
        assert rc == 0, err
        got = json.loads(out)
        assert got["net_by_seat"] == {str(s): str(v) for s, v in r.result.net_by_seat().items()}


def _settle_edited(tmp_path, name, round_name, edit) -> tuple[int, str]:
    h = yaml.safe_load((ROOT / "tests/fixtures/chance-rounds" / round_name).read_text(encoding="utf-8"))
    h.pop("expect", None)
    edit(h)
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump(h), encoding="utf-8")
    rc, _, err = run("settle", str(CH / f"{name}.yaml"), str(f))
    assert "Traceback" not in err
    return rc, err


def test_a_set_the_wager_cannot_be_placed_on_is_an_error_at_its_position(tmp_path):
    def edit(h):
        h["positions"][1]["wagers"]["split"]["numbers"] = [17, 21]  # not next to each other on the layout
    rc, err = _settle_edited(tmp_path, "roulette-00", "roulette-00-seventeen.yaml", edit)
    assert rc == 1 and "[at /positions/1/wagers/split/numbers]" in err and "cannot be placed on [17, 21]" in err
    assert "§ 941.4(b)" in err


def test_a_chosen_wager_without_its_numbers_is_an_error(tmp_path):
    def edit(h):
        h["positions"][1]["wagers"]["straight_up"] = 5
    rc, err = _settle_edited(tmp_path, "roulette-00", "roulette-00-seventeen.yaml", edit)
    assert rc == 1 and "Straight Up cannot be placed on []" in err


def test_a_pocket_that_is_not_on_the_wheel_is_an_error_naming_the_step(tmp_path):
    def edit(h):
        h["rolls"] = [["37"]]
    rc, err = _settle_edited(tmp_path, "roulette-00", "roulette-00-seventeen.yaml", edit)
    assert rc == 1 and "one pocket of the roulette wheel" in err and "§ 941.3" in err


def test_the_table_refuses_a_set_outside_the_layout():
    mod, _ = load_game(CH / "sic-bo.yaml")
    with pytest.raises(RefusedError, match="Two Dice Combination cannot be placed on \\[3, 3\\]"):
        mod.new_table({}, seed=1).play_round({1: {"combination": {"amount": 1, "numbers": [3, 3]}}})


@pytest.mark.parametrize("name", CHAPTERS)
def test_text_renders(name):
    rc, out, err = run("text", "render", str(CH / f"{name}.yaml"))
    assert rc == 0, err
    assert "Payouts" in out or "Wagers" in out


@pytest.mark.parametrize("name", CHAPTERS)
def test_rules_submission_document_with_house_edges(name):
    from compiler.submission.document import load_submission, render_documents

    mod, comp = load_game(CH / f"{name}.yaml")
    ch = comp.chapter
    text = (f"rules_submission: 1\ncertificate_holder: Test Gaming, L.P.\nfacility: Test Casino\n"
            f"game: {{chapter: \"{ch.chapter}\", title: \"{ch.title}\", edition: 99 Pa.B. {ch.chapter}}}\n"
            f"effective_date: \"2026-03-01\"\ncontact: {{name: A Person, title: Director}}\nselections: {{}}\n")
    sub = load_submission("s.yaml", {ch.chapter: ch}, text)
    md, html = render_documents(sub, "s.yaml")
    assert html.startswith("<!DOCTYPE html>")
    first = next(iter(mod.GAME.wagers.values())).name
    assert first in md and "%" in md


def test_rulespec_play_asks_the_numbers_of_a_chosen_wager_and_saves_them(tmp_path):
    """At the terminal: an illegal set is refused and asked again; the saved hand history holds the
    numbers and the pocket's label, and `settle` reproduces the round."""
    import subprocess
    import sys

    answers = ["5", "1 5", "17"] + ["0"] * 12 + ["10"] + ["0"] * 5 + ["n"]
    proc = subprocess.run([sys.executable, "-m", "compiler.cli", "play", str(CH / "roulette-00.yaml"), "--seats", "1",
                           "--seed", "5", "--save", str(tmp_path)], input="\n".join(answers) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "cannot be placed on [1, 5]" in proc.stdout
    saved = tmp_path / "941-round-001.yaml"
    h = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert h["positions"]["1"]["wagers"]["straight_up"] == {"amount": 5, "numbers": [17]}
    assert len(h["rolls"]) == 1 and isinstance(h["rolls"][0][0], str)
    rc, out, err = run("settle", str(CH / "roulette-00.yaml"), str(saved))
    assert rc == 0, err
    assert "Straight Up" in out


def test_a_label_given_for_dice_is_an_error_naming_the_step(tmp_path):
    def edit(h):
        h["rolls"] = [["two", 2, 5]]
    rc, err = _settle_edited(tmp_path, "sic-bo", "sic-bo-two-twos-and-a-five.yaml", edit)
    assert rc == 1 and "shake: expected 3 values from 1 to 6, got ['two', 2, 5] (§ 942.3)" in err


def test_hits_of_a_wager_the_player_has_not_placed_is_zero(tmp_path):
    """A rule need not guard hits(W) with has(W): a seat without W reads 0 (as wager(W) reads 0)."""
    text = (CH / "roulette-00.yaml").read_text(encoding="utf-8").replace(
        "has(split) and hits(split) == 1", "hits(split) == 1")
    spec = tmp_path / "roulette-00.yaml"
    spec.write_text(text, encoding="utf-8")
    rc, out, err = run("settle", "--check", str(spec), str(ROOT / "tests/fixtures/chance-rounds/roulette-00-seventeen.yaml"))
    assert rc == 0, err


def test_rulespec_play_says_so_when_the_input_ends_during_a_round():
    """The input ends at a decision (blackjack's Double Down): no 'internal error', the round is said to be
    incomplete and nothing of it kept, exit 1; ended between rounds it is a normal end, exit 0."""
    import subprocess
    import sys

    def play(text):
        return subprocess.run([sys.executable, "-m", "compiler.cli", "play", str(CH / "blackjack.yaml"), "--seats",
                               "1", "--seed", "3"], input=text, capture_output=True, text=True, cwd=ROOT, timeout=120)

    mid = play("10\n")
    assert mid.returncode == 1 and "internal error" not in mid.stdout + mid.stderr
    assert "input ended during the round: it is not complete, and nothing of it is kept" in mid.stdout
    before = play("")
    assert before.returncode == 0 and "input ended" in before.stdout and "internal error" not in before.stdout
