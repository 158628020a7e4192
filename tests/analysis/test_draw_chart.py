"""The draw walk's strategy chart and its walk on several processes (compiler/analysis/draw_chart.py,
draw_parallel.py), on the Blackjack test chapter (NOT official text: tests/fixtures/chapters/blackjack.yaml).

* The chart's expected nets of standing and of hitting on the first two cards are those of an independent
  calculator (tests/analysis/blackjack_reference.py) for the same hand, up card and shoe, as fractions.
* The walk on two processes gives the fraction, and the chart, that it gives on one.
"""
from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

from compiler.analysis.draw_report import analyze_draw

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blackjack_reference import Blackjack  # noqa: E402
from test_draw_walk import _game, _points, _shoe  # noqa: E402

SHOE = "A2468 9TTT".replace(" ", "")


def _walk(jobs: int = 1):
    game, chapter = _game()
    fig, walk, _ = analyze_draw(game, chapter, {}, 1, _shoe(SHOE), jobs=jobs)
    return fig, walk.chart


def _reference():
    ref = Blackjack(_points(_shoe(SHOE)))
    ref.expected()  # fills ref._dealers: the dealer's totals per (up card, shoe at the first decision)
    return ref


def _value(v: str) -> int:
    return 1 if v == "A" else int(v)


def test_961_8_c_the_chart_values_stand_and_hit_as_the_independent_calculator_does():
    _, chart = _walk()
    ref = _reference()
    rows = chart.strategy_table("hit_or_stand")
    checked = 0
    for row in rows:
        player, dealer = row["hand"].split(" v ")
        p1, p2 = (_value(x) for x in player.split())
        up = _value(dealer)
        if up in (1, 10) or {p1, p2} == {1, 10}:
            continue  # the peek and insurance change what a position holds; the plain case is compared
        base = ref.take((0,) * 10, p1, up, p2)
        key = (up, base)
        dealer_totals = ref._dealers[key]
        total = p1 + p2 + (10 if 1 in (p1, p2) else 0)
        assert row["ev"]["stand"] == ref.stand(total, dealer_totals), row
        hit = Fraction(0)
        for v, p in ref.probs(base):
            cards = tuple(sorted((p1, p2, v)))
            bust = sum(cards) > 21
            hit += p * (-1 if bust else ref.play(cards, ref.take(base, v), key, False, True))
        assert row["ev"]["hit"] == hit, row
        assert row["decision"] == ("hit" if hit > row["ev"]["stand"] else "stand")
        checked += 1
    assert checked >= 10


def test_961_the_walk_on_two_processes_equals_the_walk_on_one():
    one, chart1 = _walk(1)
    two, chart2 = _walk(2)
    assert two.expected_return == one.expected_return
    for level in chart1.levels():
        assert chart2.strategy_table(level) == chart1.strategy_table(level)
    assert chart1.levels() == ["insurance", "split_pairs", "double_down", "hit_or_stand"]


def test_961_the_chart_is_a_grid_of_holdings_against_the_dealer_card():
    _, chart = _walk()
    text = chart.format_strategy("hit_or_stand")
    head = text.splitlines()[1].split()
    assert head[-1] == "A" and "2" in head
    assert "S = stand, H = hit" in text.splitlines()[0]
    assert text.splitlines()[0].startswith("Decision hit_or_stand (§ 961.8(c))")


def test_961_the_chart_writes_as_csv_each_choice_exact_and_as_a_decimal():
    from compiler.game_commands import _strategy_csv

    _, chart = _walk()
    assert chart.file_stem("double_down") == "strategy-double_down"
    rows = _strategy_csv(chart, "double_down").splitlines()
    assert rows[0] == "hand,holdings,decision,ev_no,ev_double,ev_no_decimal,ev_double_decimal"
    table = chart.strategy_table("double_down")
    assert len(rows) == 1 + len(table)
    first = rows[1].split(",")
    assert first[0] == table[0]["hand"] and first[2] == table[0]["decision"]
    assert Fraction(first[3]) == table[0]["ev"]["no"] and abs(float(first[5]) - float(Fraction(first[3]))) < 1e-9
