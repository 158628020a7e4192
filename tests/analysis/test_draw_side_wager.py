"""A blackjack chapter with an optional side wager made before the deal (the Blackjack test chapter, NOT official
text, with a Pair Bonus added here): the draw walk values the round's play of the required wager without it, as a
Rules Submission that does not offer it (compiler/analysis/per_wager.py, contract.WagerRefusal), instead of
leaving every wager to a simulation of the first choices. Walked on a 9-card shoe (draw_report.analyze_draw with
that composition), so that the figures are exact and quick."""
from __future__ import annotations

import functools
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from compiler.analysis import draw_report, report
from compiler.analysis.contract import WagerRefusal
from compiler.analysis.draw_model import DrawLimit
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


def _chapter(tmp_path, side: bool, late: bool = False):
    """The chapter, with the Pair Bonus (``side``), settled after the insurance decision (``late``)."""
    text = BLACKJACK.read_text(encoding="utf-8")
    if side:
        for old, new in SIDE:
            assert old in text, old
            text = text.replace(old, new, 1)
    if late:
        i, j = text.index("  - id: settle_pair_bonus\n"), text.index("  - id: insurance\n")
        k = text.index("\n  - id: ", j + 1) + 1
        text = text[:i] + text[j:k] + text[i:j] + text[k:]
    p = tmp_path / ("side.yaml" if side else "plain.yaml")
    p.write_text(text, encoding="utf-8")
    mod, compiled = load_game(p)
    return mod.GAME, compiled.chapter


def _small_shoe(monkeypatch):
    monkeypatch.setattr(draw_report, "analyze_draw",
                        functools.partial(draw_report.analyze_draw, composition=_shoe("A24689TTT")))
    return walk_limits.budget.set(None)


def test_961_the_draw_walk_models_a_side_wager_settled_before_the_player_decides(tmp_path):
    game, chapter = _chapter(tmp_path, side=True)
    assert draw_report.refusal(game, chapter, {}) is None


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
    assert any("Pair Bonus, made before the deal and settled before the player decides, valued alone" in n
               for n in rep.notes), rep.notes
    assert main.includes == ("double", "insurance")  # made during the round; the Pair Bonus is not in it
    # the Pair Bonus, settled before the player decides, is valued alone by the walk up to its settlement, exact:
    # the chapter's own 6-deck shoe here (the patch above reduces the round's walk only)
    (side,) = [f for f in rep.figures if f.stakes == ("pair_bonus",)]
    assert side.status == "exact" and side.expected_return == _pair_bonus_by_counting({**{v: 24 for v in range(1, 10)},
                                                                                        10: 96})
    assert side.expected_return == Fraction(3001, 4043)


def _pair_bonus_by_counting(points: dict[int, int]) -> Fraction:
    """11 to 1 when the player's first two cards have equal points: by exchangeability (the up card dealt
    between them is any card), P = sum n(n-1) / (N(N-1))."""
    n = sum(points.values())
    p = Fraction(sum(k * (k - 1) for k in points.values()), n * (n - 1))
    return 12 * p - 1


def test_961_a_side_wager_valued_alone_on_other_shoes_equals_counting(tmp_path):
    game, chapter = _chapter(tmp_path, side=True)
    for cards in ("A24689TTT", "AA566TTJ7", "A23456789TJQK" * 2):
        comp = _shoe(cards)
        fig = draw_report.side_figure(game, chapter, {}, "pair_bonus", 1, comp)
        assert fig.status == "exact" and fig.expected_return == _pair_bonus_by_counting(_points(comp)), cards


def test_961_a_side_wager_settled_after_the_player_decides_is_refused_by_name(tmp_path, monkeypatch):
    game, chapter = _chapter(tmp_path, side=True, late=True)
    why = draw_report.refusal(game, chapter, {})
    assert isinstance(why, WagerRefusal) and why.wagers == {"pair_bonus"}
    assert "still in action at step insurance" in why and "settled before the player decides" in why
    with pytest.raises(DrawLimit, match="Pair Bonus is still in action"):
        draw_report.side_figure(game, chapter, {}, "pair_bonus", 1, _shoe("A24689TTT"))
    # the round is then walked without it (per_wager.py withholds it, as a Rules Submission that does not offer it)
    token = _small_shoe(monkeypatch)
    try:
        rep = report.analyze(game, chapter, rounds=200, seed=1)
    finally:
        walk_limits.budget.reset(token)
    (main,) = [f for f in rep.figures if f.stakes == ("initial",)]
    assert main.status == "exact" and main.expected_return == Blackjack(_points(_shoe("A24689TTT"))).expected()
    assert any("per wager: the draw walk" in n and "Pair Bonus" in n for n in rep.notes), rep.notes


def test_961_the_settlement_check_walks_points_first_and_confirms_a_refusal_with_the_cards_the_rules_read(
        tmp_path, monkeypatch):
    """draw_report._side_refusal: the deck walked with cards told apart by points alone; only a refusal found so is
    walked again with the classes the rules read, which gives it (here) or clears it (a coarse refusal made up)."""
    calls = []
    real = draw_report._side_walk

    def spy(game, chapter, options, wager, reads):
        calls.append(reads)
        return real(game, chapter, options, wager, reads)

    monkeypatch.setattr(draw_report, "_side_walk", spy)
    game, chapter = _chapter(tmp_path, side=True)
    assert draw_report._side_refusal(game, chapter, {}, "pair_bonus") is None
    assert calls == [draw_report._BY_POINTS]                      # settled before the decision: one short walk
    calls.clear()
    (tmp_path / "late").mkdir()
    late_game, late_chapter = _chapter(tmp_path / "late", side=True, late=True)
    why = draw_report._side_refusal(late_game, late_chapter, {}, "pair_bonus")
    assert "still in action at step insurance" in why
    assert calls == [draw_report._BY_POINTS, None]                # the refusal confirmed by the rules' own classes
    calls.clear()

    def coarse_refuses(game, chapter, options, wager, reads):    # a refusal the points alone would make up
        calls.append(reads)
        return "made up" if reads == draw_report._BY_POINTS else real(game, chapter, options, wager, reads)

    monkeypatch.setattr(draw_report, "_side_walk", coarse_refuses)
    (tmp_path / "again").mkdir()
    game2, chapter2 = _chapter(tmp_path / "again", side=True)
    assert draw_report._side_refusal(game2, chapter2, {}, "pair_bonus") is None
    assert calls == [draw_report._BY_POINTS, None]
