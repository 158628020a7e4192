"""A round with a declared set of wagers (issue 24.4: chapters with no required wager have figures per unit of
each wager made, and per round for a declared set): `rulespec analyze SPEC --bet W=AMOUNT ...`
(compiler/analysis/declared_bets.py). Each figure is checked against a count written here from the chapter's
own data (the wheel's pockets), or against the single wagers' figures that `analyze` gives by its own route
(the round's mean is their sum; its distribution follows from how baccarat's results go together)."""
from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from cli_run import run_in_process

from compiler.analysis.declared_bets import Bet, Refused, round_figure
from compiler.analysis.report import analyze
from compiler.cli import main
from compiler.pipeline import load_game

ROOT = Path(__file__).resolve().parents[2]
CH = ROOT / "tests/fixtures/chapters"


def _load(name):
    mod, comp = load_game(CH / name)
    return mod.GAME, comp.chapter


def _pockets():
    spec = yaml.safe_load((CH / "roulette-00.yaml").read_text(encoding="utf-8"))
    (spin,) = [s for s in spec["procedure"] if s.get("do") == "spin"]
    return spin["wheel"]["pockets"]


def test_941_red_and_a_straight_up_17_equal_a_count_of_the_wheels_pockets():
    game, chapter = _load("roulette-00.yaml")
    fig = round_figure(game, chapter, [Bet("red", 10), Bet("straight_up", 5, ("17",))])
    pockets = _pockets()
    counts = Counter()
    for p in pockets:  # Red pays 1 to 1, a straight up 35 to 1 (the chapter's payouts)
        counts[(10 if p.get("colour") == "red" else -10) + (175 if p["label"] == "17" else -5)] += 1
    dist = {Fraction(n): Fraction(k, len(pockets)) for n, k in counts.items()}
    assert fig.outcomes == dist
    mean = sum(n * p for n, p in dist.items())
    assert fig.expected_net == mean == Fraction(-15, 19)  # 15 wagered at the double-zero wheel's 2/38
    assert fig.per_wagered == Fraction(-1, 19)
    assert fig.variance == sum((n - mean) ** 2 * p for n, p in dist.items())
    assert fig.hit == sum(p for n, p in dist.items() if n > 0) and fig.push == 0


def test_906_player_and_tie_together_follow_from_the_single_wagers_figures():
    """Player 10 and Tie 1: a tie pushes the Player and pays the Tie 8 (+8), a Player win nets 10 - 1 (+9), a
    Banker win loses both (-11); the probabilities are the single wagers' own (their route: analyze)."""
    game, chapter = _load("mini-baccarat.yaml")
    single = {f.wager: f for f in analyze(game, chapter, {}).figures}
    tie = single["tie"].outcomes["win"]
    player_wins = single["player"].outcomes["win"]
    fig = round_figure(game, chapter, [Bet("player", 10), Bet("tie", 1)])
    assert fig.outcomes == {Fraction(-11): 1 - tie - player_wins, Fraction(8): tie, Fraction(9): player_wins}
    assert fig.expected_net == 10 * single["player"].expected_return + single["tie"].expected_return
    assert fig.method.startswith("exact: points method")


def test_the_round_figure_is_refused_naming_each_methods_reason_where_neither_models_it():
    mod, comp = load_game(ROOT / "rulespecs/567-war.yaml")
    with pytest.raises(Refused, match="chance enumeration does not model .*; the points method: "):
        round_figure(mod.GAME, comp.chapter, [Bet("initial", 10)])


@pytest.mark.parametrize("bets, message", [
    (["nosuch=5"], "has no such wager; its wagers are straight_up"),
    (["red=5", "red=1"], "declared twice"),
    (["straight_up=5"], "placed on chosen numbers .*straight_up=AMOUNT@N"),
    (["red=5@3"], "not placed on chosen numbers"),
    (["red=0"], "more than zero"),
    (["red=abc"], "write WAGER=AMOUNT"),
    (["red=1.005"], "dollars and cents"),
    (["straight_up=5@"], "an empty number after @"),
    # not a number of the wheel: the engine's own refusal at placement, as an error
    (["straight_up=5@99"], r"the Straight Up cannot be placed on \[99\].*§ 941.4\(a\)"),
])
def test_a_bad_declared_wager_is_an_error_exit_1_without_a_traceback(bets, message):
    args = ["analyze", str(CH / "roulette-00.yaml")] + [a for b in bets for a in ("--bet", b)]
    r = run_in_process(main, args)
    assert r.returncode == 1, r.stdout
    assert "Traceback" not in r.stderr and r.stderr.startswith("error: ") and not r.stdout, r.stderr
    assert re.search(message, r.stderr), r.stderr


def test_analyze_bet_in_json_gives_fractions_and_decimals():
    r = run_in_process(main, ["analyze", str(CH / "roulette-00.yaml"), "--bet", "red=10", "--bet",
                              "straight_up=5@17", "--format", "json"])
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)["declared_wagers"]
    assert out["status"] == "exact" and out["expected_net"] == {"fraction": "-15/19", "decimal": "-0.7894736842"}
    assert out["house_edge_percent"] == "5.2632%" and out["staked"] == "15"
    assert [o["net"] for o in out["outcomes"]] == ["-15", "5", "165"]
    refused = run_in_process(main, ["analyze", str(ROOT / "rulespecs/567-war.yaml"), "--bet", "initial=5",
                                    "--format", "json"])
    assert refused.returncode == 0
    body = json.loads(refused.stdout)["declared_wagers"]
    assert body["status"] == "not computed" and "does not model" in body["reason"]
