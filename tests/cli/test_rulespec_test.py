"""`rulespec test [PATH ...]` (issue 27 item 3): every hand history run against its rulespec and its
`expect:`, with a summary; `settle` reports a difference from `expect:` too, and says so when it is
given a hand history where the rulespec goes."""
from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import yaml

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = ROOT / "rulespecs" / "rounds"
WAR = ROOT / "rulespecs" / "567-war.yaml"
TIE = ROUNDS / "567-war-tie-goes-to-war.yaml"


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def wrong_expect(tmp_path) -> Path:
    d = yaml.safe_load(TIE.read_text())
    first = d["expect"]["results"][0]
    first["net"] = int(first["net"]) + 1  # one dollar off: a difference settle must report
    f = tmp_path / "wrong.yaml"
    f.write_text(yaml.safe_dump(d, sort_keys=False))
    return f


def test_every_hand_history_of_the_repository_passes_and_is_counted():
    rc, out, err = run("test", ROUNDS)
    n = sum(1 for f in ROUNDS.glob("*.yaml") if "rulespec_round:" in f.read_text())
    assert rc == 0, err
    assert n > 20 and out.strip().endswith(f"{n} passed")


def test_a_wrong_expectation_fails_the_run_naming_the_file_and_the_difference(tmp_path):
    bad = wrong_expect(tmp_path)
    (tmp_path / "good.yaml").write_text(TIE.read_text())
    (tmp_path / "notes.yaml").write_text("just: a yaml file that is not a hand history\n")
    rc, out, err = run("test", tmp_path)
    assert rc == 1
    assert out.strip().endswith("1 passed, 1 failed")
    assert "FAILED" in err and "wrong.yaml" in err and "good.yaml" not in err
    assert "error:" in err and "Traceback" not in err


def test_json_summary(tmp_path):
    wrong_expect(tmp_path)
    rc, out, _ = run("test", tmp_path, "--format", "json")
    d = json.loads(out)
    assert rc == 1 and d["ok"] is False and d["passed"] == 0 and d["failed"][0]["round"].endswith("wrong.yaml")
    assert d["failed"][0]["messages"]


def test_no_hand_history_and_a_missing_folder_are_errors(tmp_path):
    assert run("test", tmp_path)[0] == 1
    rc, _, err = run("test", tmp_path / "nowhere")
    assert rc == 1 and "no such file or folder" in err


def test_a_hand_history_names_its_rulespec_relative_to_itself(tmp_path):
    d = yaml.safe_load(TIE.read_text())
    d["rulespec"] = os.path.relpath(WAR, tmp_path)
    d["chapter"] = "567"
    f = tmp_path / "elsewhere.yaml"
    f.write_text(yaml.safe_dump(d, sort_keys=False))
    assert run("test", f)[0] == 0
    d["rulespec"] = "no-such-rulespec.yaml"
    f.write_text(yaml.safe_dump(d, sort_keys=False))
    rc, _, err = run("test", f)
    assert rc == 1 and "is not a file" in err


def test_plain_settle_reports_a_difference_from_expect(tmp_path):
    rc, out, err = run("settle", WAR, wrong_expect(tmp_path))
    assert rc == 1 and "SEAT" in out and "error:" in err  # the settlement is shown, and the difference
    rc, out, _ = run("settle", WAR, wrong_expect(tmp_path), "--format", "json")
    d = json.loads(out)
    assert rc == 1 and d["expected"] is False and d["differences"]
    assert run("settle", WAR, TIE)[0] == 0


def test_settle_says_so_when_a_hand_history_is_where_the_rulespec_goes():
    rc, _, err = run("settle", TIE, WAR)
    assert rc == 1 and "hand history, given where the rulespec is expected" in err and "schema" not in err
    rc, _, err = run("settle", "--check", TIE, ROUNDS / "567-war-card-not-dealt.yaml")
    assert rc == 1 and "rulespec test" in err


def test_a_chapter_number_finds_its_rulespec_wherever_a_rulespec_path_goes(tmp_path):
    rc, out, _ = run("validate", "567")
    assert rc == 0 and "1 rulespec valid" in out
    rc, out, err = run("settle", "567", TIE)
    assert rc == 0 and "Chapter 567" in out, err
    rc, _, err = run("validate", "999")
    assert rc == 1 and "no rulespec of Chapter 999" in err


def test_did_you_mean_for_a_mistyped_subcommand_and_option():
    rc, _, err = run("analyse", WAR)
    assert rc == 1 and "did you mean 'analyze'?" in err
    rc, _, err = run("settle", WAR, TIE, "--optoin", "x=1")
    assert rc == 1 and "did you mean --option?" in err
    rc, _, err = run("settle", WAR, TIE, "--zzzzzz")
    assert rc == 1 and "did you mean" not in err


def test_validate_json_gives_errors_in_the_one_shape_the_readme_states(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("rulespec: 1\nchapter: 5\n")
    rc, out, _ = run("validate", bad, "--format", "json")
    d = json.loads(out)
    assert rc == 1 and d["errors"] and all(set(e) == {"path", "line", "col", "message", "pointer"} for e in d["errors"])
    assert d["errors"][0]["path"] == str(bad) and d["errors"][0]["line"] >= 1
    rc, out, _ = run("validate", WAR, "--format", "json")
    assert rc == 0 and json.loads(out)["errors"] == []


def _complete(words: list[str]) -> list[str]:
    """COMPREPLY of the bash completion script for the command line ``words`` (the last one being typed)."""
    import subprocess
    import sys

    rc, script, _ = run("completion", "bash")
    assert rc == 0
    bin_dir = str(Path(sys.executable).parent)
    line = " ".join(f"'{w}'" for w in words)
    prog = (f"{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _rulespec; "
            "printf '%s\\n' \"${COMPREPLY[@]}\"")
    out = subprocess.run(["bash", "-c", prog], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"]}, timeout=120)
    return [w for w in out.stdout.splitlines() if w]


def test_completion_offers_the_options_of_the_chapter_and_their_values():
    got = _complete(["rulespec", "settle", "669a", "--option", "pair"])
    assert got and all(w.startswith("pair_plus_paytable=Paytable\\ ") for w in got)
    assert len(got) == 4
    assert "six_card_bonus_offered=true" in _complete(["rulespec", "analyze", "rulespecs/669a-raise-it-up-stud-poker.yaml",
                                                       "--option", "six"])
    assert "--format" in _complete(["rulespec", "analyze", "--for"])
    assert "json" in _complete(["rulespec", "analyze", "--format", "j"])
