"""Exact figures of Craps (tests/fixtures/chapters/craps.yaml, not official text) by the absorbing
Markov chain of compiler/analysis/markov.py, checked three ways: the published figures (Michael
Shackleford, Wizard of Odds, "Craps", https://wizardofodds.com/games/craps/ : Pass Line 1.4141%,
Don't Pass bar 12 1.3636%, Place 6/8 1.52%, Place 5/9 4.00%, Place 4/10 6.67% per bet resolved, Field
with 12 paying 3 to 1 2.78%, Any Seven 16.67%, Any Craps and Eleven 11.11%, Aces and Twelve 13.89%), a
closed-form count of the 36 ways two dice fall written in this test, and a seeded simulation of the
engine itself within four standard errors."""
from __future__ import annotations

import math
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from compiler.analysis import markov
from compiler.analysis.report import analyze
from compiler.pipeline import load_game

# the module's craps chains (fixture solved) are solved on one pytest-xdist worker only (make test)
pytestmark = pytest.mark.xdist_group("markov_craps")

ROOT = Path(__file__).resolve().parents[2]
CRAPS = ROOT / "tests" / "fixtures" / "chapters" / "craps.yaml"
WAYS = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(2, 13)}


def p(*totals) -> Fraction:
    return Fraction(sum(WAYS[t] for t in totals), 36)


@pytest.fixture(scope="module")
def craps():
    mod, c = load_game(str(CRAPS))
    return mod.GAME, c.chapter


@pytest.fixture(scope="module")
def solved(craps):
    t = time.perf_counter()
    res, facts = markov.chains(*craps)
    return res, facts, time.perf_counter() - t


def closed_form_pass() -> Fraction:
    """P(natural) + sum over points of P(point) * P(point before 7), minus the rest."""
    win = p(7, 11) + sum(p(x) * p(x) / (p(x) + p(7)) for x in (4, 5, 6, 8, 9, 10))
    return win - (1 - win)


def closed_form_dont_pass() -> Fraction:
    win = p(2, 3) + sum(p(x) * p(7) / (p(x) + p(7)) for x in (4, 5, 6, 8, 9, 10))
    push = p(12)
    return win - (1 - win - push)


def test_line_wagers_equal_the_published_figures_and_a_closed_form_count(solved):
    res = solved[0]
    assert res["pass_line"].net == closed_form_pass() == Fraction(-7, 495)  # 1.4141%, Wizard of Odds
    assert res["dont_pass"].net == closed_form_dont_pass() == Fraction(-3, 220)  # 1.3636%, Wizard of Odds
    assert f"{float(-res['pass_line'].net) * 100:.4f}" == "1.4141"
    assert f"{float(-res['dont_pass'].net) * 100:.4f}" == "1.3636"
    assert res["dont_pass"].push == p(12)


def place_on(number: int) -> tuple[str, tuple[str, ...]]:
    """The chain key of the Place wager (one wager on a chosen number, § 981.5(d)) placed on ``number``."""
    return ("place", (str(number),))


@pytest.mark.parametrize("number,odds,published", [
    (6, Fraction(7, 6), "1.5152"), (8, Fraction(7, 6), "1.5152"), (5, Fraction(7, 5), "4.0000"),
    (9, Fraction(7, 5), "4.0000"), (4, Fraction(9, 5), "6.6667"), (10, Fraction(9, 5), "6.6667")])
def test_a_place_wager_on_each_chosen_number_per_bet_resolved_and_per_bet_made(solved, number, odds, published):
    c = solved[0][place_on(number)]
    assert c.wager == "place" and c.numbers == (str(number),)
    win = p(number) / (p(number) + p(7))  # resolved by the first of its number or a 7
    assert c.per_resolved == odds * win - (1 - win)
    assert f"{float(-c.per_resolved) * 100:.4f}" == published  # Wizard of Odds, craps appendix 1
    # made before the come-out: in action only once a point is set, returned when the round ends first
    assert c.void > 0 and c.win + c.lose + c.void == 1 and c.net == c.per_resolved * c.resolved


@pytest.mark.parametrize("wager,edge", [
    ("field", p(2) * 2 + p(12) * 3 + p(3, 4, 9, 10, 11) - p(5, 6, 7, 8)), ("any_seven", p(7) * 4 - (1 - p(7))),
    ("any_craps", p(2, 3, 12) * 7 - (1 - p(2, 3, 12))), ("eleven", p(11) * 15 - (1 - p(11))),
    ("aces", p(2) * 30 - (1 - p(2))), ("twelve", p(12) * 30 - (1 - p(12)))])
def test_one_roll_wagers(solved, wager, edge):
    assert solved[0][wager].net == edge and solved[0][wager].states == 0


def test_a_seeded_simulation_of_the_engine_agrees_within_four_standard_errors(craps, solved):
    mod, _ = load_game(str(CRAPS))
    table = mod.new_table({}, seed=20261202)
    n = 4000
    sums = {"pass_line": [0.0, 0.0], "dont_pass": [0.0, 0.0], "place": [0.0, 0.0]}  # the Place on 6
    for _ in range(n):
        r = table.play_round({1: {"pass_line": 6, "dont_pass": 6, "place": {"amount": 6, "numbers": [6]}}})
        for w in r.results:
            x = float(w.net) / 6
            sums[w.wager][0] += x
            sums[w.wager][1] += x * x
    for w, (s, s2) in sums.items():
        mean = s / n
        se = math.sqrt((s2 / n - mean * mean) / n)
        assert abs(mean - float(solved[0][place_on(6) if w == "place" else w].net)) < 4 * se, (w, mean, se)


def test_analyze_routes_a_looping_chapter_to_the_chain(craps):
    rep = analyze(*craps, simulate_refused=False)  # the chain's own answers
    figs = {f.wager: f for f in rep.figures}
    covered = {w for f in rep.figures for w in (*f.wager.split("+"), *f.includes)}
    assert covered == set(craps[0].wagers) and not rep.not_computed
    assert figs["pass_line"].exact and figs["pass_line"].expected_return == Fraction(-7, 495)
    assert "Markov chain" in figs["pass_line"].method and "1000 passes" in figs["pass_line"].method
    assert any(n.startswith("Place: per bet resolved") and "-1/66" in n and "[placed on [6], [8];" in n
               for n in rep.notes)


@pytest.mark.parametrize("old,new,named", [
    ("then: lose field}", "then: lose field; set cold}\n      - {cite: § 981.7(a), when: flag(cold), then: note 'x'}",
     "flag"),  # the contract names it ("function 'flag'"), or the chain's own check ("the function flag()")
    ("when: round.roll == 12, then: win twelve}", "when: round.number == 12, then: win twelve}",
     "'round.number'"),
    ("  field: {name: Field, cite: § 981.5(c), pays: even_money}",
     "  field: {name: Field, cite: § 981.5(c), pays: even_money, required: true}", "wager 'field'"),
])
def test_a_construct_the_chain_does_not_model_is_refused_by_name(tmp_path, old, new, named):
    text = CRAPS.read_text(encoding="utf-8")
    assert old in text
    f = tmp_path / "craps.yaml"
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    mod, c = load_game(str(f))
    rep = analyze(mod.GAME, c.chapter, simulate_refused=False)  # the chain's own refusal
    assert not rep.figures and rep.not_computed
    assert all(named in n.reason for n in rep.not_computed), rep.not_computed[0].reason


def test_a_step_kind_the_chain_does_not_declare_is_refused(craps, monkeypatch):
    monkeypatch.setattr(markov, "STEP_KINDS", markov.STEP_KINDS - {"settle"})
    assert "the step kind 'settle' is not modelled" in markov.refusal(*craps)


def test_odds_behind_the_line_made_between_rolls_have_no_edge_and_dilute_the_line_wager(solved, craps):
    res = solved[0]
    odds = res["pass_odds"]
    # made once a point is set (2/3 of rounds), paid at the true odds of the point against a 7
    assert odds.made == 1 - p(2, 3, 7, 11, 12) == Fraction(2, 3) and odds.net == 0 and res["dont_odds"].net == 0
    assert odds.win == sum(p(x) * p(x) / (p(x) + p(7)) for x in (4, 5, 6, 8, 9, 10))
    # Pass Line with single odds: 0.848% per total wagered (Wizard of Odds, craps page, "Pass/Come with 1X odds")
    figs = {f.wager: f for f in analyze(*craps, simulate_refused=False).figures}
    both = figs["pass_line+pass_odds"]
    assert both.expected_return == Fraction(-7, 495) and both.per_total_wagered == Fraction(-7, 495) / (1 + odds.made)
    assert f"{float(-both.per_total_wagered) * 100:.3f}" == "0.848"


def test_place_wagers_under_each_policy_of_the_take_down_decision(craps):
    """§ 981.7(e): Place wagers may be taken down after a roll that neither wins nor loses them. Taken
    down every time, a Place wager is in action for the first roll after the point only."""
    pols = markov.chains(*craps)[1]["policies"]
    down = next(v for k, v in pols.items() if k.startswith("always take_down"))
    up = next(v for k, v in pols.items() if k.startswith("always leave_up"))
    point = 1 - p(2, 3, 7, 11, 12)
    for n, odds in ((6, Fraction(7, 6)), (5, Fraction(7, 5)), (4, Fraction(9, 5))):
        assert down[place_on(n)].net == point * (p(n) * odds - p(7))
        assert down[place_on(n)].per_resolved == up[place_on(n)].per_resolved  # per bet resolved, the same either way
    assert down["pass_line"] is up["pass_line"]  # no choice acts on it: one chain
    rep = analyze(*craps, simulate_refused=False)  # the chain's own answers
    assert [f.policy.text for f in rep.figures if f.wager == "place"][:2] == [
        "placed on [4], [10]; always leave_up (take_down, § 981.7(e))",
        "placed on [4], [10]; always take_down (take_down, § 981.7(e))"]
    assert [f.policy.text for f in rep.figures if f.wager == "field"] == ["any choice at take_down (the same figure)"]


def test_a_come_wager_with_its_own_point_kept_per_player(solved):
    """A Come wager (made after a roll while the point is on, equal to the Pass Line) is a Pass Line of its
    own: its point is round state kept per player. Open when the Pass Line's round ends, it stays on the
    layout (`stays: until_settled`) and the chain follows it into the next rounds, whose come-out roll
    settles it too (its point wins, a 7 loses): it is always won or lost in the end. Per unit made it has
    the Pass Line's figure, 1.41% (Wizard of Odds, craps page: "Come")."""
    come = solved[0]["come"]
    assert come.net / come.made == closed_form_pass() == Fraction(-7, 495)
    assert come.push == come.void == 0 and come.win + come.lose == come.made
    assert come.base == "pass_line" and come.base_net == Fraction(-7, 495)
    # made when the first roll after the point is neither a 7 nor the point
    assert come.made == sum(p(x) * (1 - p(x, 7)) for x in (4, 5, 6, 8, 9, 10))


def test_a_dont_come_wager_per_unit_made_is_the_dont_pass_figure(solved):
    """A Don't Come wager (made after a roll while the point is on, equal to the Don't Pass) is a Don't Pass of
    its own, with its own point kept per player, followed into later rounds while open: per unit made it has the
    Don't Pass's figure, -3/220, 1.3636% (Wizard of Odds, craps appendix 1: "Don't Pass / Don't Come")."""
    dc = solved[0]["dont_come"]
    assert dc.net / dc.made == closed_form_dont_pass() == Fraction(-3, 220)
    assert f"{float(-dc.net / dc.made) * 100:.4f}" == "1.3636"
    assert dc.push == dc.made * p(12) and dc.void == 0 and dc.win + dc.lose + dc.push == dc.made
    assert dc.base == "dont_pass" and dc.base_net == Fraction(-3, 220)
    # made when the first roll after the point is neither a 7 nor the point, as the Come is
    assert dc.made == solved[0]["come"].made == sum(p(x) * (1 - p(x, 7)) for x in (4, 5, 6, 8, 9, 10))


def test_the_place_wager_written_once_gets_a_figure_per_group_of_chosen_numbers_paid_alike(solved, craps):
    """§ 981.5(d), § 981.8(c): one Place wager on a number the player chooses, paid 9 to 5 on 4 or 10, 7 to 5 on
    5 or 9, 7 to 6 on 6 or 8. The chain is solved once per chosen number; numbers whose chains are alike under
    every policy share a figure, so the analysis gives three groups, each under each policy of the take-down
    decision, with the published figures per bet resolved (Wizard of Odds, craps appendix 1: Place 6/8 1.5152%,
    5/9 4.0000%, 4/10 6.6667%)."""
    pols = markov.chains(*craps)[1]["policies"]
    for chains_ in pols.values():
        for a, b in ((4, 10), (5, 9), (6, 8)):
            assert markov._values(chains_[place_on(a)]) == markov._values(chains_[place_on(b)])
        assert len({markov._values(chains_[place_on(n)]) for n in (4, 5, 6)}) == 3
    rep = analyze(*craps, simulate_refused=False)
    place = [f for f in rep.figures if f.wager == "place"]
    groups = ("[4], [10]", "[5], [9]", "[6], [8]")
    assert [f.policy.text.split(";")[0] for f in place] == [f"placed on {g}" for g in groups for _ in range(2)]
    up = next(k for k in pols if k.startswith("always leave_up"))
    for f, n in zip(place[::2], (4, 5, 6)):
        assert f.expected_return == pols[up][place_on(n)].net and f.exact
    for g, edge in zip(groups, ("-1/15 (house edge 6.6667%)", "-1/25 (house edge 4.0000%)",
                                "-1/66 (house edge 1.5152%)")):
        notes = [n for n in rep.notes if n.startswith("Place: per bet resolved") and f"[placed on {g};" in n]
        assert len(notes) == 2 and all(edge in n for n in notes), notes
