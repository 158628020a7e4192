"""The command line's arguments (issue 12, item 7): one exit-status convention for every subcommand
(0 success, 1 any error, usage errors included), and arguments checked against the chapter with a
clear message, never a traceback or a silently wrong figure."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compiler.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
WAR = "rulespecs/567-war.yaml"
SUBCOMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)


def test_every_subcommand_is_covered():
    assert {"validate", "build", "settle", "analyze", "simulate", "submission", "text", "import", "diff",
            "schedule"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_usage_error_exits_1_not_2(command, capsys):
    assert main([command, "--no-such-flag"]) == 1
    err = capsys.readouterr().err
    assert "usage: rulespec" in err and "error: " in err and "Traceback" not in err


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_exits_0(command, capsys):
    assert main([command, "--help"]) == 0
    assert "usage: rulespec" in capsys.readouterr().out


def test_missing_command_and_missing_argument_exit_1(capsys):
    assert main([]) == 1
    assert main(["settle", WAR]) == 1
    assert "required: ROUND" in capsys.readouterr().err


def test_installed_script_exit_status_is_1_on_usage_error():
    # the console script as a user runs it (python -m through the same entry point)
    r = subprocess.run([sys.executable, "-c", "import sys; from compiler.cli import main; sys.exit(main())",
                        "simulate", WAR, "--rounds", "abc"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 1
    assert "invalid int value: 'abc'" in r.stderr and "Traceback" not in r.stderr


BAD_SIMULATE = [
    (["--option", "decks=abc"], "--option decks: expected a whole number, got 'abc'"),
    (["--option", "decks=0"], "--option decks: 0 is below the 6 minimum of § 567.3(a)"),
    (["--option", "decks=1000"], "--option decks: 1000 is above the 16 maximum of § 567.3(a)"),
    (["--option", "automated_shuffler=maybe"], "--option automated_shuffler: expected yes or no, got 'maybe'"),
    (["--option", "decks=10"], "the selections break § 567.3(a)"),
    (["--option", "bogus=1"], "Chapter 567 has no option 'bogus'"),
    (["--option", "decks"], "--option takes NAME=VALUE"),
    (["--seats", "0"], "--seats 0: Chapter 567's table has positions 1 to 7"),
    (["--seats", "8"], "--seats 8: Chapter 567's table has positions 1 to 7"),
    (["--rounds", "-5"], "--rounds -5: give a number of rounds from 1"),
    (["--rounds", "0"], "--rounds 0: give a number of rounds from 1"),
    (["--policy", "banana"], "567-war.yaml:174:5: error: --policy 'banana': no decision of Chapter 567 has this "
                             "choice; its choices are surrender, war"),
]


@pytest.mark.parametrize("extra,message", BAD_SIMULATE, ids=[" ".join(a) for a, _ in BAD_SIMULATE])
def test_simulate_refuses_bad_arguments_clearly(extra, message, capsys):
    assert main(["simulate", WAR, "--rounds", "10", *extra]) == 1
    out, err = capsys.readouterr()
    assert message in err
    assert out == ""  # no figure printed (no 'nan')


def test_simulate_accepts_a_legal_shuffler_configuration(capsys):
    assert main(["simulate", WAR, "--rounds", "20", "--option", "automated_shuffler=yes", "--option", "decks=12",
                 "--policy", "war"]) == 0
    assert "nan" not in capsys.readouterr().out


def test_analyze_refuses_bad_arguments(capsys):
    assert main(["analyze", WAR, "--decks", "0"]) == 1
    assert "--decks 0: Chapter 567 is played with 6 to 16 decks" in capsys.readouterr().err
    assert main(["analyze", WAR, "--option", "decks=abc"]) == 1
    assert "expected a whole number" in capsys.readouterr().err
    for bad in ("0", "-1", "nan", "inf"):
        assert main(["analyze", WAR, "--precision", bad]) == 1
        assert f"--precision {float(bad)}: give a standard error in percentage points" in capsys.readouterr().err


def test_settle_refuses_a_bad_option_on_the_command_line(capsys):
    assert main(["settle", WAR, "rulespecs/rounds/567-war-tie-goes-to-war.yaml", "--option", "decks=1000"]) == 1
    assert "above the 16 maximum" in capsys.readouterr().err


def test_688a_simulate_without_a_submission_asks_for_one(capsys):
    # § 688a.11(a) leaves the house way to the casino's Rules Submission: no traceback, a clear error
    assert main(["simulate", "rulespecs/688a-face-up-pai-gow-poker.yaml", "--rounds", "5"]) == 1
    err = capsys.readouterr().err
    assert "house way" in err and "--submission" in err and "§ 688a.11(a)" in err and "Traceback" not in err


def test_688a_simulate_with_a_submission_runs(capsys):
    assert main(["simulate", "rulespecs/688a-face-up-pai-gow-poker.yaml", "--rounds", "5",
                 "--submission", "rulespecs/submissions/688a-face-up-pai-gow-lakeshore.yaml"]) == 0
    assert "5 rounds" in capsys.readouterr().out


def test_readme_states_the_exit_status_convention():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "usage error" in readme and "exits 0 on success and 1 on any error" in readme


def test_submission_of_another_chapter_is_refused_positioned(capsys):
    assert main(["simulate", WAR, "--rounds", "3", "--submission",
                 "rulespecs/submissions/669a-raise-it-up-lakeside-basic.yaml"]) == 1
    err = capsys.readouterr().err
    assert "669a-raise-it-up-lakeside-basic.yaml:9:12: error: the Rules Submission is for Chapter 669a, the spec is " \
           "Chapter 567 [at /game/chapter]" in err


def test_simulate_of_a_chapter_without_a_placeable_wager_gives_no_figure(capsys):
    # 535 is an amendment of § 535.3(e) only: no wager, so no mean (not 'nan')
    assert main(["simulate", "rulespecs/535-pai-gow.yaml", "--rounds", "5"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "no wager a player can place" in err
