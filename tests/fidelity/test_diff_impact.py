"""rulespec diff OLD.yaml NEW.yaml: executable changes by provision, and --impact (issue 13.2).

The command runs in this process (``compiler.cli.main``, its output captured): the unchanged rulespec is
compiled once for every test, not in a new process each time; one test runs it as a process."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from compiler.cli import main

WAR = Path("rulespecs/567-war.yaml").read_text(encoding="utf-8")
DATA_10, DATA_8 = "tie: {odds: 10 to 1, cite: § 567.10(2)}", "tie: {odds: 8 to 1, cite: § 567.10(2)}"
TEXT_10, TEXT_8 = "A Tie wager shall be paid at odds of 10 to 1.", "A Tie wager shall be paid at odds of 8 to 1."


def _run(*args):
    """`rulespec ARGS` in this process: its exit status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def _run_process(*args):
    return subprocess.run([sys.executable, "-m", "compiler.cli", *args], capture_output=True, text=True)


def _tie_edge(decks: int, odds: int) -> Fraction:
    """Counted: the player's and the dealer's cards come from one shoe of 52d cards; the dealer's card
    has the player's rank in 4d - 1 of the 52d - 1 cards left. A tie pays `odds`, anything else loses."""
    p = Fraction(4 * decks - 1, 52 * decks - 1)
    return -(odds * p - (1 - p))


def _amended(tmp_path):
    assert DATA_10 in WAR and TEXT_10 in WAR
    new = tmp_path / "567-war.yaml"
    new.write_text(WAR.replace(DATA_10, DATA_8).replace(TEXT_10, TEXT_8), encoding="utf-8")
    return new


@pytest.mark.xdist_group("impact_567")  # each analysis once per process (conftest.py impact_analysis_once)
def test_567_10_2_tie_payout_8_to_1_impact_on_the_tie_wager(tmp_path, impact_analysis_once):
    new = _amended(tmp_path)
    r = _run("diff", "--impact", "--decks", "8", "rulespecs/567-war.yaml", str(new))
    assert r.returncode == 0, r.stderr
    assert len(impact_analysis_once) == 2  # the old and the new chapter analysed
    old_edge, new_edge = _tie_edge(8, 10), _tie_edge(8, 8)
    assert f"{float(old_edge) * 100:.2f}%" == "17.83%" and f"{float(new_edge) * 100:.2f}%" == "32.77%"
    tie = [x for x in r.stdout.splitlines() if x.strip().startswith("impact Tie wager [any]")]
    assert len(tie) == 1, r.stdout
    assert "10 to 1 -> 8 to 1" in tie[0]
    assert f"house edge {float(old_edge) * 100:.2f}% -> {float(new_edge) * 100:.2f}%" in tie[0]
    # the Initial wager does not change
    assert all("(unchanged)" in x for x in r.stdout.splitlines() if x.strip().startswith("impact Initial wager"))


@pytest.mark.xdist_group("impact_567")  # each analysis once per process (conftest.py impact_analysis_once)
def test_567_10_2_impact_in_json_is_exact(tmp_path, impact_analysis_once):
    new = _amended(tmp_path)
    r = _run("diff", "--impact", "--format", "json", "rulespecs/567-war.yaml", str(new))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    (ch,) = data["chapters"]
    tie = [w for w in ch["impact"] if w["wager"] == "tie"]
    assert len(tie) == 1
    decks = 6  # the spec's default (options.decks.default), read here from the YAML itself
    assert "    default: 6\n    cite: § 567.3(a); § 567.3(c)" in WAR
    assert Fraction(tie[0]["house_edge"]["old"]) == _tie_edge(decks, 10)
    assert Fraction(tie[0]["house_edge"]["new"]) == _tie_edge(decks, 8)
    p = Fraction(4 * decks - 1, 52 * decks - 1)
    assert Fraction(tie[0]["hit_frequency"]["old"]) == p == Fraction(tie[0]["hit_frequency"]["new"])
    assert tie[0]["payouts"] == [{"payout": "tie", "old": "10 to 1", "new": "8 to 1"}]


def test_executable_changes_are_reported_by_provision(tmp_path):
    new = _amended(tmp_path)
    r = _run("diff", "rulespecs/567-war.yaml", str(new))
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    k = out.index("    § 567.10(2):")
    assert "payouts.tie.odds" in out[k + 1] and out[k + 1].endswith("10 to 1 -> 8 to 1")


def test_a_data_only_change_is_substantive_and_names_its_provision(tmp_path):
    """The issue's report: a payout changed in the data only was 'no substantive change'."""
    new = tmp_path / "567-war.yaml"
    new.write_text(WAR.replace(DATA_10, DATA_8), encoding="utf-8")
    r = _run("diff", "--format", "json", "rulespecs/567-war.yaml", str(new))
    (ch,) = json.loads(r.stdout)["chapters"]
    assert ch["substantive"]
    assert [(d["cite"], d["part"], d["old"], d["new"]) for d in ch["data"]] == [("§ 567.10(2)", "payouts", "10 to 1", "8 to 1")]
    # and --impact refuses a spec validate refuses (its text and data disagree), positioned
    r = _run("diff", "--impact", "rulespecs/567-war.yaml", str(new))
    assert r.returncode == 1 and "no impact" in r.stderr


def test_procedure_rules_irregularities_and_requirements_changes_are_reported(tmp_path):
    changes = [
        ("then: lose initial; lose tie\n", "then: lose initial; push tie\n", "procedure", "§ 567.9(a)(1)"),
        ("{cite: § 567.11(b), then: use card}", "{cite: § 567.11(b), then: discard card}", "irregularities", "§ 567.11(b)"),
        ("text: players may not touch any card other than a cover card}", "text: players may touch no card}",
         "requirements", "§ 567.8(e)"),
        ("    minimum: 6\n    maximum: 16\n", "    minimum: 6\n    maximum: 14\n", "options", "§ 567.3(a); § 567.3(c)"),
    ]
    for old, new_s, part, cite in changes:
        assert old in WAR, old
        new = tmp_path / "567-war.yaml"
        new.write_text(WAR.replace(old, new_s, 1), encoding="utf-8")
        r = _run("diff", "--format", "json", "rulespecs/567-war.yaml", str(new))
        (ch,) = json.loads(r.stdout)["chapters"]
        assert [(d["part"], d["cite"]) for d in ch["data"]] == [(part, cite)], (old, ch["data"])


# -- the optimal strategy ------------------------------------------------------------------------

def test_strategy_impact_counts_the_holdings_whose_decision_changes():
    """Two solutions over the same 5 holdings at one decision point: holdings 1 and 3 move from
    raising 3x to 1x, holding 4 from checking to 2x; the rest keep their choice."""
    from types import SimpleNamespace

    import numpy as np

    from compiler.text.impact import strategy_impact

    game = SimpleNamespace(deck=list(range(8)))
    old = SimpleNamespace(game=game, level_options={3: ["3x", "2x", "1x", "check"]},
                          decisions={3: np.array([0, 0, 1, 0, 3], dtype=np.int8)})
    # the new solution lists its options in another order: choices are compared by name
    new = SimpleNamespace(game=game, level_options={3: ["check", "1x", "2x", "3x"]},
                          decisions={3: np.array([3, 1, 2, 1, 2], dtype=np.int8)})
    [entry] = strategy_impact(old, new)
    assert entry["policy"] == "3 cards known" and entry["holdings"] == 5
    assert entry["decisions_changed"] == 3 and entry["changed"]
    assert {(m["old"], m["new"]): m["holdings"] for m in entry["moves"]} == {("3x", "1x"): 2, ("check", "2x"): 1}
    assert strategy_impact(old, old)[0]["decisions_changed"] == 0
    assert strategy_impact(None, None) == []
    assert "not compared" in strategy_impact(old, None)[0]["note"]


# -- a Bulletin page against a rulespec ------------------------------------------------------------

PAGE = Path("tests/fixtures/sources/40-PaB-1911_2010-04-10_ch535-ch567.txt")


@pytest.mark.xdist_group("impact_567")  # each analysis once per process (conftest.py impact_analysis_once)
def test_567_10_2_bulletin_page_with_8_to_1_maps_onto_the_tie_payout(tmp_path, impact_analysis_once):
    page = tmp_path / "page.txt"
    src = PAGE.read_text(encoding="utf-8")
    assert "(2) A Tie wager shall be paid at odds of 10 to 1." in src
    page.write_text(src.replace("(2) A Tie wager shall be paid at odds of 10 to 1.",
                                "(2) A Tie wager shall be paid at odds of 8 to 1."), encoding="utf-8")
    r = _run("diff", "--impact", "--decks", "8", "--chapter", "567", "rulespecs/567-war.yaml", str(page))
    assert r.returncode == 0, r.stderr
    assert "  mapped § 567.10(2): /payouts/tie/odds: 10 to 1 -> 8 to 1" in r.stdout.splitlines()
    assert "not mapped" not in r.stdout
    tie = [x for x in r.stdout.splitlines() if x.strip().startswith("impact Tie wager [any]")]
    old_edge, new_edge = _tie_edge(8, 10), _tie_edge(8, 8)
    assert len(tie) == 1 and f"house edge {float(old_edge) * 100:.2f}% -> {float(new_edge) * 100:.2f}%" in tie[0]
    j = _run("diff", "--impact", "--decks", "8", "--chapter", "567", "--format", "json", "rulespecs/567-war.yaml",
             str(page))
    entries = json.loads(j.stdout)["chapters"][0]["impact"]
    tie_j = next(e for e in entries if e.get("wager") == "tie" and e.get("policy") == "any")
    assert Fraction(tie_j["house_edge"]["new"]) == new_edge
    assert len(impact_analysis_once) == 4  # each run analysed the old and the new chapter


def test_a_page_number_the_data_does_not_state_is_reported_as_not_mapped(tmp_path):
    """§ 567.4(a) 'six or more decks' is declared in text_facts (not executed): a page printing
    'seven or more decks' changes nothing the analysis can price, and says so."""
    page = tmp_path / "page.txt"
    src = PAGE.read_text(encoding="utf-8")
    assert src.count("After receiving six or more decks") == 1
    page.write_text(src.replace("After receiving six or more decks", "After receiving seven or more decks"),
                    encoding="utf-8")
    r = _run("diff", "--impact", "--chapter", "567", "rulespecs/567-war.yaml", str(page))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert any(x.startswith("  not mapped § 567.4(a): 'six' -> 'seven': no data states this number") for x in lines), \
        r.stdout
    assert "  impact: none of the page's changes maps onto the data" in lines


def test_impact_of_two_pages_is_refused_with_a_reason():
    r = _run_process("diff", "--impact", str(PAGE), str(PAGE))  # as a user runs it: a new process
    assert r.returncode == 1
    assert "--impact compares a rulespec (YAML) with a rulespec or with a Bulletin or Code page given second" in r.stderr


def test_669a_12_c_play_pays_2_to_1_on_a_pair_of_10s_moves_holdings_only_towards_larger_raises(tmp_path):
    """Paying the Play Wager more on a pair of 10s or better can only make a raise (and a larger
    raise) worth more than before: every holding that changes its decision moves up the order
    check/fold < 1x < 2x < 3x, at each decision point, and the holdings counted are every set of
    3, 4 and 5 known cards of a 52-card deck."""
    from math import comb

    spec = Path("rulespecs/669a-raise-it-up-stud-poker.yaml").read_text(encoding="utf-8")
    row = "      - {hand: pair_of_10s_or_better, label: Pair of 10s or better, pays: [1 to 1]}"
    assert spec.count(row) == 1
    new = tmp_path / "669a.yaml"
    new.write_text(spec.replace(row, row.replace("[1 to 1]", "[2 to 1]")), encoding="utf-8")
    r = _run("diff", "--impact", "--format", "json", "rulespecs/669a-raise-it-up-stud-poker.yaml", str(new))
    assert r.returncode == 0, r.stderr
    entries = [e for e in json.loads(r.stdout)["chapters"][0]["impact"] if e.get("kind") == "strategy"]
    assert {e["policy"]: e["holdings"] for e in entries} == {f"{k} cards known": comb(52, k) for k in (3, 4, 5)}
    order = {"check": 0, "fold": 0, "1": 1, "2": 2, "3": 3}
    for e in entries:
        assert e["decisions_changed"] > 0 and e["decisions_changed"] == sum(m["holdings"] for m in e["moves"])
        assert all(order[m["new"]] > order[m["old"]] for m in e["moves"]), e["moves"]
