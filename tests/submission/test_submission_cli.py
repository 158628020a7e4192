"""`rulespec submission`, `settle/analyze --submission` and `diff` of two submissions, through the CLI."""
from __future__ import annotations

import argparse
import json

import pytest

from compiler.submission import args as submission_args
from submission_fixtures import EXAMPLES, FIX, ROOT, variant_text


@pytest.fixture
def main():
    from compiler import cli

    assert submission_args.register_submission in cli.REGISTER
    return cli.main


def test_register_builds_a_parser():
    p = argparse.ArgumentParser()
    submission_args.register_submission(p.add_subparsers(dest="command"))
    a = p.parse_args(["submission", "a.yaml", "b.yaml", "-o", "out", "--format", "json"])
    assert a.files == ["a.yaml", "b.yaml"] and a.output == "out" and a.format == "json"


def test_summary_table(main, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    files = [p.relative_to(ROOT).as_posix() for p in EXAMPLES]
    assert main(["submission", *files]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["FILE", "GAME", "CERTIFICATE", "HOLDER", "EFFECTIVE", "SELECTIONS",
                                           "RESULT"]
    assert "automated_shuffler=yes, decks=14, adjacent_positions=2" in out
    assert "automated_shuffler=no, decks=8, adjacent_positions=0" in out
    assert out.count(" valid") == len(files)


def test_invalid_file_exit_1_with_positioned_error(main, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    f = "tests/fixtures/submissions/decks-below-minimum.yaml"
    assert main(["submission", f]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (f"{f}:9:10: error: decks: 4 is below the 6 minimum of § 567.3(a); § 567.3(c) "
                           "[at /selections/decks]")


def test_json_and_output_dir(main, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    f = "rulespecs/submissions/567-war-riverside-shuffler.yaml"
    assert main(["submission", f, "-o", str(tmp_path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["submissions"][0]["selections"] == {"automated_shuffler": True, "decks": 14,
                                                                  "adjacent_positions": 2}
    assert {p.name for p in tmp_path.iterdir()} == {"567-war-riverside-shuffler.md", "567-war-riverside-shuffler.html",
                                                    "567-war-riverside-shuffler.pdf"}
    assert (tmp_path / "567-war-riverside-shuffler.md").read_text(encoding="utf-8") == \
        (ROOT / "generated/submissions/567-war-riverside-shuffler.md").read_text(encoding="utf-8")
    assert data["submissions"][0]["figures"][0]["kind"] == "exact"


def test_analyze_with_invalid_submission_is_refused(main, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    f = "tests/fixtures/submissions/constraint-unequal-batches.yaml"
    assert main(["analyze", "rulespecs/567-war.yaml", "--submission", f]) == 1
    assert "(§ 567.3(c)(2)) [at /selections/decks]" in capsys.readouterr().err


ROUND = """rulespec_round: 1
chapter: "567"
positions:
  1: {wagers: {initial: 10, tie: 5}}
dealt:
  1: {original: [7H]}
  dealer: {original: [9C]}
"""


def test_settle_refuses_a_wager_not_offered(main, capsys, tmp_path):
    spec = tmp_path / "567-war-variant.yaml"
    spec.write_text(variant_text(), encoding="utf-8")
    rnd = tmp_path / "round.yaml"
    rnd.write_text(ROUND, encoding="utf-8")
    base = (FIX / "variant-missing-required-option.yaml").read_text(encoding="utf-8") + "  dealing_method: shoe\n"
    offered, not_offered = tmp_path / "offered.yaml", tmp_path / "not-offered.yaml"
    offered.write_text(base, encoding="utf-8")
    not_offered.write_text(base + "  tie_offered: false\n", encoding="utf-8")
    assert main(["settle", str(spec), str(rnd), "--submission", str(offered), "--format", "json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert {r["wager"] for r in res["results"]} >= {"initial", "tie"}
    assert main(["settle", str(spec), str(rnd), "--submission", str(not_offered)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (f"{rnd}:4:34: error: seat 1: the Tie wager is not offered by this casino's Rules "
                           "Submission (§ 567.7(c)) [at /positions/1/wagers/tie]")


def test_diff_of_two_submissions(main, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    old = "rulespecs/submissions/567-war-keystone-manual.yaml"
    new = "rulespecs/submissions/567-war-riverside-shuffler.yaml"
    assert main(["diff", old, new]) == 0
    out = capsys.readouterr().out
    assert "  changed  decks: 8 -> 14  (Number of decks of 52 cards at the table (both batches when a shuffler " \
           "is used); § 567.3(a); § 567.3(c))" in out
    assert "  changed  automated_shuffler: no -> yes  (Automated card shuffling device used; § 567.3(c))" in out
    assert "automated card shuffling device: now required (Automated card shuffling device used: yes)  § 567.3(c)" in out
    assert "Tie wager [any]: 17.8313% -> 18.1818% (+0.3505 points; 74/415 -> 2/11), exact" in out
    assert main(["diff", old, new, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "rules_submission_diff"
    assert {s["option"]: (s["change"], s["old"], s["new"], s["cite"]) for s in data["selections"]} == {
        "automated_shuffler": ("changed", "no", "yes", "§ 567.3(c)"),
        "decks": ("changed", "8", "14", "§ 567.3(a); § 567.3(c)"),
        "adjacent_positions": ("changed", "0", "2", "§ 567.7(e)")}
    tie = next(e for e in data["house_edge"] if e["wager"] == "tie")
    assert (tie["old_house_edge"], tie["new_house_edge"], tie["change_fraction"]) == ("74/415", "2/11", "16/4565")


def test_diff_added_and_removed_selections(main, capsys, tmp_path):
    a = (ROOT / "rulespecs/submissions/567-war-keystone-manual.yaml").read_text(encoding="utf-8")
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(a, encoding="utf-8")
    new.write_text(a.replace("  adjacent_positions: 0\n", "").replace("  decks: 8\n", "  decks: 6\n"),
                   encoding="utf-8")
    assert main(["diff", str(old), str(new), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(s["option"], s["change"], s["old"], s["new"]) for s in data["selections"]] == [
        ("decks", "changed", "8", "6"), ("adjacent_positions", "removed", "0", "0 (default)")]
    assert data["header"] == [] and data["equipment"] == [] and data["wagers"] == []


def test_diff_refuses_an_invalid_submission(main, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["diff", "rulespecs/submissions/567-war-keystone-manual.yaml",
                 "tests/fixtures/submissions/decks-below-minimum.yaml"]) == 1
    assert "decks: 4 is below the 6 minimum" in capsys.readouterr().err
