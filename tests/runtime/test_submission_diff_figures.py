"""`rulespec diff` of two Rules Submissions of the same game (issue 12, item 11): figures without a
hit frequency and fixed-amount figures (Envy Bonus) are compared, not a TypeError."""
from __future__ import annotations

import json
from pathlib import Path

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
FULL = ROOT / "rulespecs/submissions/669a-raise-it-up-mountainview-full.yaml"


def test_669a_diff_of_a_submission_and_its_copy_with_another_paytable(tmp_path, capsys):
    text = FULL.read_text(encoding="utf-8")
    assert "pair_plus_paytable: Paytable B" in text
    new = tmp_path / "669a-raise-it-up-mountainview-full.yaml"
    new.write_text(text.replace("pair_plus_paytable: Paytable B", "pair_plus_paytable: Paytable C"), encoding="utf-8")
    assert main(["diff", str(FULL), str(new), "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [(s["option"], s["old"], s["new"]) for s in d["selections"]] == [
        ("pair_plus_paytable", "Paytable B", "Paytable C")]
    envy = [e for e in d["house_edge"] if "Envy" in e["name"]]
    assert envy and all(e["change_fraction"] == "0" for e in envy)
    # a fixed bonus is an expected amount in dollars, without a hit frequency of its own here
    assert all(e["new_percent"].startswith("$") and e["new_percent"].endswith("expected") for e in envy)
    both = [e for e in d["house_edge"] if e["old_house_edge"] and e["new_house_edge"]]
    assert both and all(e["old_hit_frequency"] and e["new_hit_frequency"] for e in both)
    assert any(e["new_hit_frequency"] == "n/a" for e in envy)  # figures without one say so
    withdrawn = [e for e in d["house_edge"] if e["new_house_edge"] is None]
    assert [e["policy"] for e in withdrawn] == ["Paytable B"]
