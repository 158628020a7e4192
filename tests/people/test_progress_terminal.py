"""Progress of long work on a real (pseudo-)terminal: `rulespec simulate` shows rounds done, rate and
time left, with its own carriage returns working (not shown as ``\\x0d`` by the CLI's escaping of
text), and the result as usual; piped, the same command writes no progress (tests/cli)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pty_driver import Terminal  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_on_a_terminal_shows_rate_and_time_left():
    t = Terminal([str(ROOT / ".venv" / "bin" / "rulespec"), "simulate", "rulespecs/567-war.yaml",
                  "--rounds", "20000", "--workers", "1"], cwd=str(ROOT))
    assert t.wait(600) == 0
    raw = t.raw.decode("utf-8", "replace")
    assert "rounds/s" in raw and "s left" in raw and "/20,000 rounds" in raw
    assert "\\x0d" not in raw and "\\x1b" not in raw  # the progress line's codes reach the terminal raw
    assert "\r" in raw


def test_diff_impact_on_a_terminal_shows_the_progress_of_its_analyses(tmp_path):
    war = (ROOT / "rulespecs" / "567-war.yaml").read_text(encoding="utf-8")
    new = tmp_path / "567-war.yaml"
    new.write_text(war, encoding="utf-8")
    t = Terminal([str(ROOT / ".venv" / "bin" / "rulespec"), "diff", "rulespecs/567-war.yaml", str(new), "--impact"],
                 cwd=str(ROOT))
    assert t.wait(600) == 0
    raw = t.raw.decode("utf-8", "replace")
    assert "enumerations" in raw and "s left" in raw  # each analysis's own progress: done/total, rate, time left
    assert "\r" in raw
