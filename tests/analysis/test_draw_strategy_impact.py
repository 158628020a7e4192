"""`rulespec diff --impact` of two blackjack chapters compares their optimal strategies: the draw walk's chart
(compiler/analysis/draw_chart.py) is a table by holding, not the stud solver's arrays, and the impact used to
fail on it ('DrawStrategy' object has no attribute 'decisions', exit 1, on `diff --impact --decks 1` of the
Blackjack with Late Surrender test chapter, NOT official text, against a 6 to 5 amendment). Here on a
reduced shoe (seconds): each decision is compared holding by holding, counted by an independent count of the
two tables."""
from __future__ import annotations

from pathlib import Path

from compiler.analysis.draw_report import analyze_draw
from compiler.pipeline import load_game
from compiler.text.impact import strategy_impact

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "tests" / "fixtures" / "chapters" / "blackjack-late-surrender.yaml"
RANKS = "23456789TJQKA"
SHOE = {RANKS.index(c): "A24689TTT".count(c) for c in set("A24689TTT")}


def _chart(path):
    mod, compiled = load_game(path)
    _, walk, _ = analyze_draw(mod.GAME, compiled.chapter, {}, 1, dict(SHOE))
    return walk.chart


def test_the_impact_compares_the_draw_walks_charts_holding_by_holding(tmp_path):
    amended = tmp_path / "965-six-to-five.yaml"
    text = CHAPTER.read_text(encoding="utf-8").replace("three_to_two: {odds: 3 to 2", "three_to_two: {odds: 6 to 5")
    amended.write_text(text.replace("A Blackjack is paid at 3 to 2.", "A Blackjack is paid at 6 to 5."), encoding="utf-8")
    old, new = _chart(CHAPTER), _chart(amended)
    entries = strategy_impact(old, new)
    assert [e["policy"] for e in entries] == [f"decision {lvl}" for lvl in old.levels()]
    for e, level in zip(entries, old.levels()):
        a = {r["hand"]: r["decision"] for r in old.strategy_table(level)}
        b = {r["hand"]: r["decision"] for r in new.strategy_table(level)}
        assert e["holdings"] == len(a.keys() & b.keys())
        assert e["decisions_changed"] == sum(1 for h in a.keys() & b.keys() if a[h] != b[h])
    assert strategy_impact(old, old) and not any(e["changed"] for e in strategy_impact(old, old))
