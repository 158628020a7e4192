"""`rulespec play` never loses a session or a file (issue 29 item 5; compiler/play/saving.py): amounts
read strictly and asked again with the reason, the save prompt never overwrites a file without asking,
a second `--save DIR` session numbers on from the first one's rounds, and a save path that cannot be
used is refused before the game starts."""
from __future__ import annotations

import io
import sys
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console

from compiler.cli import main
from compiler.play.saving import first_free_number, parse_amount, save_round
from compiler.play.terminal import TerminalPlayer

ROOT = Path(__file__).resolve().parents[2]
WAR = str(ROOT / "rulespecs" / "567-war.yaml")


@pytest.mark.parametrize("text,value", [("25", "25.00"), ("0", "0.00"), ("$12.5", "12.50"), (" 1,500.25 ", "1500.25"),
                                        ("1,000,000", "1000000.00"), ("007", "7.00")])
def test_amounts_in_dollars_and_cents(text, value):
    assert parse_amount(text) == (Decimal(value), None)


@pytest.mark.parametrize("text,why", [
    ("NaN", "dollars and cents"), ("nan", "dollars and cents"), ("Infinity", "dollars and cents"),
    ("-Infinity", "0 or more"), ("1e30", "dollars and cents"), ("1E3", "dollars and cents"),
    ("1,5", "a comma separates thousands"), ("12,50", "a comma separates thousands"), ("1,50,000", "dollars"),
    ("-5", "0 or more"), ("2.505", "at most two decimals"), ("", "an amount is needed"), ("5.", "dollars"),
    ("0x10", "dollars"), ("\u0661\u0662", "dollars"), ("1" * 41, "too long"),
    ("99999999999", "largest amount accepted"), ("5 5", "dollars"),
])
def test_what_is_not_an_amount_is_refused_with_the_reason(text, why):
    a, message = parse_amount(text)
    assert a is None and why in message


class Scripted(TerminalPlayer):
    def __init__(self, answers):
        self.out = io.StringIO()
        super().__init__(Console(file=self.out, width=200), SimpleNamespace(wagers=[]))
        self.answers, self.asked = list(answers), []

    def ask(self, question, choices=None, default=None):
        self.asked.append(question)
        return self.answers.pop(0)


def test_a_refused_amount_is_asked_again_and_1_5_is_never_15():
    p = Scripted(["NaN", "Infinity", "1e30", "1,5", "-3", "2.505", "1.5"])
    assert p.amount("Seat 1, Ante: amount") == Decimal("1.50")
    assert len(p.asked) == 7 and not p.answers
    shown = p.out.getvalue()
    assert "a comma separates thousands" in shown and "0 or more" in shown and "at most two decimals" in shown


def test_the_save_prompt_asks_before_overwriting_a_file(tmp_path):
    old = tmp_path / "round.yaml"
    old.write_text("the first round\n")
    p = Scripted([str(old), "n", str(tmp_path), str(tmp_path / "missing" / "r.yaml"), str(old), "y"])
    assert p.save_path("the second round\n") == old
    assert old.read_text() == "the second round\n"  # replaced only after the player said yes
    assert sum("overwrite" in q for q in p.asked) == 2
    assert "is a directory" in p.out.getvalue() and "cannot save to" in p.out.getvalue()
    p = Scripted([str(old), "n", ""])
    assert p.save_path("a third round\n") is None and old.read_text() == "the second round\n"


def _play(monkeypatch, capsys, *args) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 40))  # every question answered by its default
    rc = main(["play", WAR, "--seed", "3", *args])
    out = capsys.readouterr()
    return rc, out.out + out.err


def test_a_second_save_session_numbers_on_from_the_first(tmp_path, monkeypatch, capsys):
    for _ in range(2):
        rc, shown = _play(monkeypatch, capsys, "--save", str(tmp_path))
        assert rc == 0, shown
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["567-round-001.yaml", "567-round-002.yaml"]
    first = (tmp_path / files[0]).read_text()
    (tmp_path / "567-round-009.yaml").write_text("kept")
    assert first_free_number(tmp_path, "567") == 10
    assert save_round(tmp_path, "567", "x").name == "567-round-010.yaml"
    assert (tmp_path / files[0]).read_text() == first and (tmp_path / "567-round-009.yaml").read_text() == "kept"


@pytest.mark.parametrize("where", ["missing", "a file"])
def test_a_save_path_that_cannot_be_used_is_refused_before_the_game(where, tmp_path, monkeypatch, capsys):
    target = tmp_path / "rounds"
    if where == "a file":
        target.write_text("not a directory")
    rc, shown = _play(monkeypatch, capsys, "--save", str(target))
    assert rc == 1
    assert ("no such directory" if where == "missing" else "not a directory") in shown
    assert "Round 1" not in shown and "Traceback" not in shown


def test_a_required_wager_left_out_is_refused_with_its_rule_and_asked_again_not_the_end_of_the_session():
    """Issue 27 item 2: 0 for the required Initial wager with a Tie wager ended the session with status 1."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pty_driver import Terminal

    term = Terminal([str(Path(sys.executable).parent / "rulespec"), "play", "567", "--seed", "3"], cwd=str(ROOT))
    initial_answers = ["0", "10"]
    rounds = 0
    while (prompt := term.next_prompt()) is not None:
        if "another round" in prompt:
            rounds += 1
            answer = "n"
        elif "Initial" in prompt and "amount" in prompt:
            answer = initial_answers.pop(0)
        elif "Tie wager" in prompt:
            answer = "1"
        elif "amount (0 declines)" in prompt:
            answer = "0"
        elif "tie hand option" in prompt:
            answer = "surrender"
        else:
            answer = ""
        term.answer(answer)
    assert term.wait(60) == 0
    text = term.text
    assert "not accepted" in text and "Initial" in text and "required to play" in text and "§ 567" in text
    assert not initial_answers and rounds == 1  # asked again, then the round was played


def test_a_670a_round_at_80_columns_is_compact_names_are_never_cut_and_the_full_log_is_a_key_away():
    """Issue 27 item 2: a 670a round took 115 lines, event names were cut (`dealing_shoe_malfuncti…`) and choices
    split mid-word by the terminal."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pty_driver import Terminal

    term = Terminal([str(Path(sys.executable).parent / "rulespec"), "play", "670a", "--seed", "3"], cwd=str(ROOT),
                    columns=80)
    asked_log = False
    starts = {}
    while (prompt := term.next_prompt()) is not None:
        if "another round" in prompt:
            answer = "n" if asked_log else "log"
            if not asked_log:
                starts["log"] = len(term.text)
            asked_log = True
        else:
            starts.setdefault("round", len(term.text))  # the first question: the wager
            if "set the hands" in prompt:
                starts["shown"] = len(term.text)
            answer = ""
        term.answer(answer)
    assert term.wait(60) == 0
    text = term.text
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "dealing_shoe_malfunction" in text and "…" not in text
    events = ["no_roll", "wrong_dice_total", "exposed_card", "dealer_card_exposed", "face_up_card", "drawn_in_error",
              "wrong_card_count", "dealer_setting_wrong", "stack_card_exposed", "shuffler_malfunction",
              "dealing_shoe_malfunction", "stub_count_wrong", "player_left_table"]
    question = text[starts["round"]:starts["shown"]]
    for ev in events:  # each choice whole on its own line
        assert any(line.strip() == ev for line in question.splitlines()), ev
    compact = text[starts["shown"]:starts["log"]]
    assert len(compact.splitlines()) <= 40 and "Settlement" in compact and "§ 670a" in compact
    assert "dealt" not in compact.split("Settlement")[0].replace("dealt to", "")  # the deals condensed into hands
    full = text[starts["log"]:]
    assert "every ruling with its provision" in full and full.count("dealt ") >= 6
