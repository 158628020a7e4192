"""The rule language's functions of hands valued by points (total, soft, natural, bust, points, card; see
docs/rule-language.md "Points"): what validate refuses, with its position, on the Mini-Baccarat test
chapter (tests/fixtures/chapters/mini-baccarat.yaml, NOT official text)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.pipeline import compile_spec

ROOT = Path(__file__).resolve().parents[2]
BACCARAT = ROOT / "tests/fixtures/chapters/mini-baccarat.yaml"
TEXT = BACCARAT.read_text(encoding="utf-8")


def _errors(text: str) -> list[str]:
    c = compile_spec("tests/fixtures/chapters/mini-baccarat.yaml", text)
    return [d.format() for d in c.errors]


def test_the_chapter_compiles():
    assert _errors(TEXT) == []


@pytest.mark.parametrize("old, new, message", [
    ("when: total(community.player) <= 5", "when: totl(community.player) <= 5", "unknown function 'totl' (did you mean 'total'?)"),
    ("when: total(community.player) <= 5", "when: 'total(community.player, three) <= 5'",
     "total() reads a ranking of kind points; 'three' is not one (the chapter's: baccarat)"),
    ("points(card(community.player, 3)) != 8", "points(card(community.player, x)) != 8",
     "card() takes the position of a card in its zone, a whole number from 1"),
    ("when: total(community.player) <= 5", "when: 'best(baccarat, community.player) <= 5'",
     "best() reads poker-style hands; ranking 'baccarat' is valued by points"),
    ("when: total(community.player) <= 5", "when: 'total(community.player, baccarat, 1) <= 5'",
     "total() takes 1 to 2 arguments, got 3"),
])
def test_a_misused_points_function_is_an_error_at_its_position(old, new, message):
    assert old in TEXT
    errs = _errors(TEXT.replace(old, new, 1))
    assert any(message in e for e in errs), errs
    assert all(e.startswith("tests/fixtures/chapters/mini-baccarat.yaml:") for e in errs)


def test_a_points_function_needs_a_points_ranking_to_read():
    # a second points ranking: total() must then name the one it reads
    text = TEXT.replace("rankings:\n  baccarat:", "rankings:\n  other:\n    cite: § 906.4\n    kind: points\n"
                        "    points: {A: 1, \"2\": 2, \"3\": 3, \"4\": 4, \"5\": 5, \"6\": 6, \"7\": 7, \"8\": 8, \"9\": 9, "
                        "T: 0, J: 0, Q: 0, K: 0}\n  baccarat:", 1)
    errs = _errors(text)
    assert any("total() needs the points ranking it reads as its last argument" in e
               and "the chapter declares baccarat, other" in e for e in errs), errs


def test_a_bad_points_ranking_is_an_error_at_validate():
    errs = _errors(TEXT.replace("    modulo: 10\n", "    modulo: 10\n    soft: {rank: A, plus: 10}\n", 1))
    assert any("declare bust" in e and "[at /rankings/baccarat]" in e for e in errs), errs


@pytest.mark.parametrize("expr, text", [
    ("total(community.banker) <= 2", "total of community banker: 2 or less"),
    ("not natural(community.player) and bust(player.cards)",
     "not: community player is a natural; and player cards is bust"),
    ("points(card(community.player, 3)) != 8", "points of card 3 of community player: not 8"),
    ("option(h17) and total(dealer.cards) == 17 and soft(dealer.cards)",
     "Dealer hits soft 17: yes; and total of dealer cards: 17; and dealer cards is a soft total"),
])
def test_points_conditions_read_in_plain_words(expr, text):
    from compiler.lang.plain import plain_when

    assert plain_when(expr, {"h17": {"title": "Dealer hits soft 17"}}) == text
