"""`rulespec diff --impact` on a chapter whose main wagers only a simulation figures (the Casino Hold'em test chapter,
tests/fixtures/chapters/casino-holdem.yaml, NOT official text): each side's simulated house edge is printed with its
standard error and whether it reaches the precision target, and JSON gives it as a decimal, never a fraction.
Before, a simulated mean short of its target was printed as a plain house edge ('20.78% -> 20.78% (unchanged)')
and given in JSON as an exact fraction, as if enumerated (found on the Ultimate Texas Hold 'Em test chapter)."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

from compiler.cli import main
from compiler.pipeline import ROOT

CHM = ROOT / "tests/fixtures/chapters/casino-holdem.yaml"


def _run(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def test_a_simulated_figure_keeps_its_standard_error_in_diff_impact(tmp_path):
    text = CHM.read_text(encoding="utf-8")
    old_row = "{hand: royal_flush,     label: Royal flush,     pays: [100 to 1]}"
    assert text.count(old_row) == 1
    new = tmp_path / "casino-holdem.yaml"
    new.write_text(text.replace(old_row, old_row.replace("100 to 1", "50 to 1")).replace(
        "Royal flush 100 to 1 down to", "Royal flush 50 to 1 down to"), encoding="utf-8")
    code, out, err = _run("diff", "--impact", CHM, new)
    assert code == 0, err
    (line,) = [x for x in out.splitlines() if x.strip().startswith("impact Ante [")]
    assert line.count("points (simulated, short of the precision target)") == 2, line
    assert "(unchanged)" not in line
    assert "hit frequency none" not in line  # a simulated figure has no hit frequency: no 'none -> none'
    code, out, err = _run("diff", "--impact", "--format", "json", CHM, new)
    assert code == 0, err
    entries = [w for ch in json.loads(out)["chapters"] for w in ch.get("impact") or () if w.get("wager", "").startswith("ante")]
    (entry,) = entries
    assert all("/" not in entry["house_edge"][side] for side in ("old", "new"))
    assert entry["simulated"]["old"]["meets_target"] is False and float(entry["simulated"]["old"]["standard_error"]) > 0
