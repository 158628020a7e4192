"""The IR types a chapter's money: wagers, payouts and paytables are frozen dataclasses whose odds
the value layer's parser read once, with their citations and the text as the rulespec writes it;
the analysis prices the compiled paytables as they are."""
from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from compiler.analysis.enumerate import enumerate_hands
from compiler.analysis.paytables import card_hands_of, envy_value, paytable_return
from compiler.ir.model import Payout, Paytable, PaytableRow, Wager
from compiler.pipeline import compile_spec, load_game
from compiler.runtime.rankings import Ranking
from compiler.values.odds import Odds

ROOT = Path(__file__).resolve().parents[2]
RAISE_IT_UP = ROOT / "rulespecs" / "669a-raise-it-up-stud-poker.yaml"


@pytest.fixture(scope="module")
def chapter():
    c = compile_spec(str(RAISE_IT_UP))
    assert c.ok, [d.format() for d in c.errors]
    return c.chapter


def test_669a_12_a_pair_plus_paytable_is_typed_once(chapter):
    pt = chapter.paytables["pair_plus"]
    assert isinstance(pt, Paytable) and pt.cite == "§ 669a.12(a)" and pt.option == "pair_plus_paytable"
    assert pt.columns == ("Paytable A", "Paytable B", "Paytable C", "Paytable D")
    row = pt.rows[1]
    assert isinstance(row, PaytableRow) and row.hand == "three_of_a_kind" and row.cite == "§ 669a.12(a)"
    assert row.odds[1] == Odds("to", Fraction(25), Fraction(1)) and row.pays[1] == "25 to 1"
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.label = "changed"  # type: ignore[misc]


def test_669a_12_b_ante_payout_and_669a_7_d_wagers_are_typed(chapter):
    ante = chapter.payouts["ante"]
    assert isinstance(ante, Payout) and ante.cite == "§ 669a.12(b)"
    assert ante.odds == Odds("to", Fraction(1), Fraction(1)) and ante.text == "1 to 1"
    prog = chapter.wagers["progressive"]
    assert isinstance(prog, Wager) and prog.cite == "§ 669a.7(d)(4)"
    assert prog.amounts == (Decimal(1), Decimal(5)) and prog.requires == ("ante", "blind")
    assert prog.offered_by == "progressive_offered" and prog.paytable == "progressive" and not prog.required
    assert chapter.wagers["play"].placed == "during_round" and chapter.wagers["ante"].pays == "ante"


def test_the_game_module_holds_the_odds_the_ir_read(chapter):
    game = load_game(str(RAISE_IT_UP))[0].GAME
    for pid, pt in chapter.paytables.items():
        assert [(r.hand, r.odds, r.label) for r in pt.rows] == [tuple(r) for r in game.paytables[pid].rows]
    assert game.payouts["ante"].odds == chapter.payouts["ante"].odds


def test_669a_12_e_envy_value_of_the_compiled_paytable_equals_the_rulespec_table(chapter):
    """The analysis takes the compiled paytable (its Odds) as it is: the same value as the rulespec's
    table whose cells it reads itself."""
    game = load_game(str(RAISE_IT_UP))[0].GAME
    compiled = game.paytables["envy_progressive_1"]
    spec = dict(chapter.data["paytables"]["envy_progressive_1"])
    r = Ranking.from_spec(game.rankings[compiled.ranking], compiled.ranking)
    dist = enumerate_hands(r, 3, None, tuple(card_hands_of(r, compiled)))
    assert envy_value(dist, compiled) == envy_value(dist, spec) > 0
    res = paytable_return(dist, compiled)
    assert all(isinstance(row.odds, Odds) and row.pays == str(row.odds) for row in res.rows)
