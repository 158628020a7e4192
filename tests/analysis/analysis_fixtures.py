"""Shared, cached fixtures of the analysis tests (the full enumerations run once per session).

Rankings and paytables are read from the rulespecs themselves (``rulespecs/<chapter>-*.yaml``),
never from copies of them."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from compiler.analysis.enumerate import enumerate_hands, standard_deck
from compiler.runtime.rankings import Ranking

RULESPECS = Path(__file__).resolve().parents[2] / "rulespecs"


def spec_path(ch: str) -> Path:
    (path,) = RULESPECS.glob(f"{ch}-*.yaml")
    return path


@lru_cache(maxsize=None)
def spec(ch: str) -> dict:
    return yaml.safe_load(spec_path(ch).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def ranking(ch: str, rid: str) -> Ranking:
    return Ranking.from_spec(spec(ch)["rankings"][rid], rid)


@lru_cache(maxsize=None)
def dist(ch: str, rid: str, k: int, jokers: int = 0, card_hands: tuple = ()):
    return enumerate_hands(ranking(ch, rid), k, standard_deck(jokers), card_hands)


@pytest.fixture(scope="session")
def six_card_669a():
    return dist("669a", "five_card", 6)


@pytest.fixture(scope="session")
def six_card_670a():
    return dist("670a", "five_card", 6, 1)


def hand_scores(game, rid: str):
    """``score(cards)``: the score of a hand in ranking ``rid`` of a compiled game, memoised on its cards
    (the brute forces of the dealer-hand tests key the engine's results on the two hands' scores)."""
    r = Ranking.from_spec(game.rankings[rid], rid)
    value: dict = {}

    def score(cards):
        k = tuple(sorted(cards))
        if k not in value:
            value[k] = r.evaluate(list(k)).score
        return value[k]

    return score


@lru_cache(maxsize=None)
def reduced_tree(fixture: str, bets: tuple, cards: tuple):
    """(game module, compiled chapter, leaves) of the game tree (compiler/analysis/game_tree.py) of a test
    fixture chapter (tests/fixtures/chapters/) with ``bets`` (pairs) on the reduced deck ``cards``.

    test_game_tree.py and test_deal_distribution.py check other routes against the same two trees (Let
    It Ride and Mississippi Stud on reduced decks): each is played out once per test process. The leaves
    are a tuple: shared, read only."""
    from compiler.analysis.game_tree import game_tree
    from compiler.pipeline import load_game
    from compiler.runtime.cards import parse_cards

    mod, comp = load_game(RULESPECS.parent / "tests" / "fixtures" / "chapters" / fixture)
    leaves = game_tree(mod.GAME, dict(bets), {}, counts={c: 1 for c in parse_cards(list(cards))})
    return mod, comp, tuple(leaves)


@lru_cache(maxsize=None)
def report_of(path: str, options: tuple = ()):
    """``analyze`` (compiler/analysis/report.py) of a chapter under ``options`` (pairs), with the default
    rounds and seed: computed once per test process for every test asking for the same chapter and options
    (the full-deck Let It Ride analysis is read by test_deal_classes.py, test_honest_figures.py and
    test_written_styles.py through the fixture lir_report, whose tests share one xdist group so one worker
    computes it once).
    The report is shared: read only."""
    from compiler.analysis.report import analyze
    from compiler.pipeline import load_game

    mod, comp = load_game(path)
    return analyze(mod.GAME, comp.chapter, dict(options))


@pytest.fixture(scope="session")
def lir_report():
    """The report of the Let It Ride test fixture (tests/fixtures/chapters/let-it-ride.yaml, NOT official text)
    with no options: report_of, once per process; its tests share one xdist group (tests/conftest.py GROUPS)."""
    return report_of(str(RULESPECS.parent / "tests" / "fixtures" / "chapters" / "let-it-ride.yaml"))
