"""`rulespec submission --rulespec FILE`: a casino's Rules Submission for a chapter whose rulespec is not in
rulespecs/ (a draft, a test chapter) is checked against the rulespec given and documented with its figures; a
rulespec that cannot be read or compiled is an error at its position, exit 1."""
from __future__ import annotations

from cli_run import run_rulespec

from compiler.pipeline import ROOT

CH = ROOT / "tests/fixtures/chapters/roulette-0-la-partage.yaml"
SUB = ("rules_submission: 1\ncertificate_holder: Test Gaming, L.P.\nfacility: Test Casino\n"
       'game: {chapter: "945"}\neffective_date: "2099-02-01"\n'
       "contact: {name: A. Tester, title: Director}\nselections: {la_partage: true}\n")


def test_a_submission_for_a_chapter_outside_rulespecs_is_checked_against_the_rulespec_given(tmp_path):
    sub = tmp_path / "945-test.yaml"
    sub.write_text(SUB, encoding="utf-8")
    alone = run_rulespec("submission", str(sub))
    assert alone.returncode == 1 and "Traceback" not in alone.stdout + alone.stderr
    proc = run_rulespec("submission", str(sub), "--rulespec", str(CH), "-o", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    md = (tmp_path / "out" / "945-test.md").read_text(encoding="utf-8")
    assert "1.3514%" in md and "2.7027%" in md  # La Partage's even-money wagers, and every other wager


def test_a_rulespec_given_that_cannot_be_read_is_an_error(tmp_path):
    sub = tmp_path / "945-test.yaml"
    sub.write_text(SUB, encoding="utf-8")
    missing = tmp_path / "nowhere.yaml"
    proc = run_rulespec("submission", str(sub), "--rulespec", str(missing))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert f"{missing}:1:1: error: cannot read the rulespec" in proc.stderr
