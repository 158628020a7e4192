"""A figure's exactness, policy and stakes are typed fields, never read back from its prose (issue 24.1,
issue 25.4): the method text may say anything, ``status`` decides; stakes are a tuple of wager ids."""
from __future__ import annotations

import json
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from compiler import cache
from compiler.analysis.model import NO_DECISION, OPTIMAL, Figure, Policy, Report
from compiler.submission import figures as subfig

ROOT = Path(__file__).resolve().parents[2]


def _fig(**kw):
    base = dict(stakes=("ante", "play"), name="Ante + Play", policy=OPTIMAL, expected_return=F(-1, 50),
                per_total_wagered=F(-1, 70), hit_frequency=F(1, 2), outcomes={"+1": F(1, 2), "-1": F(1, 2)},
                method="exact: all deals", status="exact")
    return Figure(**{**base, **kw})


def test_exactness_is_the_status_field_not_the_first_word_of_the_method():
    # a method that opens with "exact" but a simulated status: simulated; and the reverse
    sim = _fig(method="exact-looking words", status="simulated", standard_error=0.001, target=0.0005)
    assert not sim.exact and sim.to_json()["status"] == "short of precision target"
    ex = _fig(method="by a route whose prose says nothing of exactness")
    assert ex.exact and ex.to_json()["status"] == "exact" and "fraction" in ex.to_json()["expected_return"]


def test_status_is_required_and_checked():
    with pytest.raises(ValueError, match="'exact' or 'simulated'"):
        _fig(status=None)
    with pytest.raises(ValueError, match="standard error"):
        _fig(status="simulated")  # a simulated figure without its standard error
    with pytest.raises(ValueError, match="standard error"):
        _fig(standard_error=0.01)  # an exact one with a standard error


def test_stakes_are_a_tuple_of_ids_and_the_label_is_only_shown():
    f = _fig()
    assert f.stakes == ("ante", "play") and f.wager == "ante+play" and f.to_json()["wager"] == "ante+play"
    with pytest.raises(TypeError, match="tuple of wager ids"):
        _fig(stakes="ante+play")
    with pytest.raises(TypeError, match="Policy"):
        _fig(policy="optimal strategy")


def test_policy_is_typed_and_shown_by_its_text():
    p = Policy("fixed", "always war (tie_hand_option, § 567.8)", (("tie_hand_option", "war"),))
    f = _fig(policy=p)
    assert f.to_json()["policy"] == p.text and str(f.policy) == p.text
    assert "[always war (tie_hand_option, § 567.8)]" in Report("x", "t", {}, [f]).to_text()
    with pytest.raises(ValueError, match="unknown policy kind"):
        Policy("sometimes", "now and then")


def test_every_typed_field_survives_the_cache():
    p = Policy("none", "Paytable A, meter 10000; the player never folds", column="Paytable A", meter=F(10000),
               assumes="the player never folds")
    f = _fig(policy=p, stakes=("progressive",))
    back = Figure.from_fields(cache.decode(json.loads(json.dumps(cache.encode(f.to_fields())))))
    assert back == f and back.policy == p and back.stakes == ("progressive",)


def test_document_sentences_read_the_typed_policy():
    assert subfig._assumes(OPTIMAL).startswith("the player makes every decision")
    assert subfig._assumes(NO_DECISION) == "the result does not depend on any decision of the player"
    p = Policy("none", "Paytable B; never folds", column="Paytable B", assumes="never folds")
    assert subfig._assumes(p) == "it is paid by the Paytable B column of its paytable; never folds"


def test_no_code_splits_wager_ids_at_plus():
    """The stakes travel as a tuple: no module of compiler/ splits a joined id again."""
    found = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "compiler").rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"""split\(\s*["']\+["']\s*\)""", line)]
    assert found == []


def test_567_the_standard_deviation_of_the_net_is_exact_where_the_outcomes_are_its_distribution():
    """Issue 24.5: the standard deviation of the round's net beside the hit frequency. War at six decks, always
    surrendering: a tie (probability t = 23/311, the second card one of the 23 other cards of its rank) loses
    half, otherwise the round wins or loses one unit with equal chance; variance = E[x^2] - E[x]^2 by hand."""
    from compiler.analysis.report import analyze
    from compiler.pipeline import load_game

    mod, comp = load_game(ROOT / "rulespecs/567-war.yaml")
    rep = analyze(mod.GAME, comp.chapter, {}, decks=6)
    (fig,) = [f for f in rep.figures if f.stakes == ("initial",) and "surrender" in f.policy.text]
    t = F(23, 311)
    mean = -t / 2
    assert fig.expected_return == mean
    assert fig.variance == (1 - t) + t / 4 - mean ** 2
    assert f"standard deviation of the net per unit: {float(fig.variance) ** 0.5:.6f}" in rep.to_text()
    assert fig.to_json()["standard_deviation"]["variance"]["fraction"] == str(fig.variance)
    # outcomes named (win, lose), or a distribution whose mean is not the figure: no standard deviation claimed
    assert _fig(outcomes={"win": F(1, 2), "lose": F(1, 2)}).variance is None
    assert _fig(outcomes={"+1": F(1, 2), "-1": F(1, 2)}).variance is None  # mean 0, figure -1/50
    assert "standard_deviation" not in _fig(outcomes={"win": F(1)}).to_json()
