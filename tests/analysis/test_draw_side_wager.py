"""A blackjack chapter with an optional side wager made before the deal (the Blackjack test chapter, NOT official
text, with a Pair Bonus added here): the draw walk values the round's play of the required wager without it, as a
Rules Submission that does not offer it (compiler/analysis/per_wager.py, contract.WagerRefusal), instead of
leaving every wager to a simulation of the first choices. Walked on a 9-card shoe (draw_report.analyze_draw with
that composition), so that the figures are exact and quick."""
from __future__ import annotations

import functools
import sys
from pathlib import Path

from compiler.analysis import draw_report, report
from compiler.analysis.contract import WagerRefusal
from compiler.pipeline import load_game
from compiler.values import walk_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blackjack_reference import Blackjack  # noqa: E402
from test_draw_walk import BLACKJACK, _points, _shoe  # noqa: E402

SIDE = [
    ("  insurance: {name: Insurance, cite: § 961.5(c), placed: during_round, pays: insurance_odds}\n",
     "  insurance: {name: Insurance, cite: § 961.5(c), placed: during_round, pays: insurance_odds}\n"
     "  pair_bonus: {name: Pair Bonus, cite: § 961.5(a), pays: pair_odds}\n"),
    ("  insurance_odds: {odds: 2 to 1, cite: § 961.11(c)}\n",
     "  insurance_odds: {odds: 2 to 1, cite: § 961.11(c)}\n  pair_odds: {odds: 11 to 1, cite: § 961.11(a)}\n"),
    ("  - id: insurance\n    do: decide\n",
     "  - id: settle_pair_bonus\n    do: settle\n    cite: § 961.7(a)\n    rules:\n"
     "      - {cite: § 961.7(a), when: \"has(pair_bonus) and points(card(player.hand, 1)) == points(card(player.hand, "
     "2))\", then: win pair_bonus}\n"
     "      - {cite: § 961.7(a), when: \"has(pair_bonus) and points(card(player.hand, 1)) != points(card(player.hand, "
     "2))\", then: lose pair_bonus}\n"
     "  - id: insurance\n    do: decide\n"),
    ('text: "Before the deal a player makes a Blackjack wager."',
     'text: "Before the deal a player makes a Blackjack wager, and may make a Pair Bonus wager."'),
    ('text: "A winning Blackjack or Double Down wager is paid at odds of 1 to 1."',
     'text: "A winning Blackjack or Double Down wager is paid at odds of 1 to 1, a Pair Bonus at odds of 11 to 1."'),
]


def _chapter(tmp_path, side: bool):
    text = BLACKJACK.read_text(encoding="utf-8")
    if side:
        for old, new in SIDE:
            assert old in text, old
            text = text.replace(old, new, 1)
    p = tmp_path / ("side.yaml" if side else "plain.yaml")
    p.write_text(text, encoding="utf-8")
    mod, compiled = load_game(p)
    return mod.GAME, compiled.chapter


def _small_shoe(monkeypatch):
    monkeypatch.setattr(draw_report, "analyze_draw",
                        functools.partial(draw_report.analyze_draw, composition=_shoe("A24689TTT")))
    return walk_limits.budget.set(None)


def test_961_the_draw_walk_refuses_a_side_wager_by_name_and_only_it(tmp_path):
    game, chapter = _chapter(tmp_path, side=True)
    why = draw_report.refusal(game, chapter, {})
    assert isinstance(why, WagerRefusal) and why.wagers == {"pair_bonus"} and "Pair Bonus" in why


def test_961_the_round_is_walked_without_the_side_wager_and_the_same_as_the_chapter_without_it(tmp_path, monkeypatch):
    token = _small_shoe(monkeypatch)
    try:
        plain = report.analyze(*_chapter(tmp_path, side=False), simulate_refused=False)
        game, chapter = _chapter(tmp_path, side=True)
        rep = report.analyze(game, chapter, rounds=200, seed=1)
    finally:
        walk_limits.budget.reset(token)
    (main,) = [f for f in rep.figures if f.stakes == ("initial",)]
    (alone,) = [f for f in plain.figures if f.stakes == ("initial",)]
    assert main.status == "exact" and main.expected_return == alone.expected_return
    # and the independent calculator's figure for the same shoe (tests/analysis/blackjack_reference.py)
    assert main.expected_return == Blackjack(_points(_shoe("A24689TTT"))).expected()
    assert any("per wager: the draw walk" in n and "Pair Bonus" in n for n in rep.notes), rep.notes
    side = [f for f in rep.figures if f.stakes == ("pair_bonus",)] + [n for n in rep.not_computed
                                                                      if n.wager == "pair_bonus"]
    assert side, "the Pair Bonus gets a figure or a reason"
