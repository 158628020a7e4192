"""A paytable whose rows are values a rule gives, not hands of a ranking (`rows: [{value: 9, ...}]`, no
`ranking`): `win W by T on total(dealer.punto) - total(dealer.banco)` pays the row of that margin, `on
'natural_tie'` the row of that text, in the column the Rules Submission selects. Written for the Dragon Bonus
(Golden Talons, 58 Pa. Code § 631b.9(f): five paytables A to E by margin of win and naturals), in the
Baccarat with the Dragon Bonus test chapter (NOT official text), which without it needed one rule per row and
per paytable."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import yaml

from compiler.cli import main
from compiler.pipeline import compile_spec

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "tests/fixtures/chapters/baccarat-dragon-bonus.yaml"
TEXT = SPEC.read_text(encoding="utf-8")


def _settle(tmp_path, dealt: dict, options: dict) -> dict:
    h = {"rulespec_round": 1, "chapter": "915", "options": options,
         "positions": {1: {"wagers": {"dragon_player": 10}}, 2: {"wagers": {"dragon_banker": 10}}}, "dealt": dealt}
    f = tmp_path / "r.yaml"
    f.write_text(yaml.safe_dump(h), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["settle", str(SPEC), str(f), "--format", "json"]) == 0, err.getvalue()
    return {r["wager"]: (r["outcome"], r["net"]) for r in json.loads(out.getvalue())["results"]}


NATURAL_TIE = {"dealer": {"punto": ["9S", "KD"], "banco": ["4H", "5C"]}}   # 9 against 9, both naturals
BY_SEVEN = {"dealer": {"punto": ["3S", "TD", "4H"], "banco": ["KD", "QC", "TS"]}}  # 7 (three cards) against 0


@pytest.mark.parametrize("column, tie, seven", [
    ("Paytable A", ("push", "0.00"), ("win", "60.00")),
    ("Paytable B", ("win", "20.00"), ("win", "50.00")),   # a natural tie pays 2 to 1; a win by 7 5 to 1
    ("Paytable D", ("push", "0.00"), ("win", "70.00")),
    ("Paytable E", ("push", "0.00"), ("win", "40.00")),
])
def test_the_row_of_the_value_in_the_selected_column(tmp_path, column, tie, seven):
    opts = {"dragon_bonus_paytable": column}
    got = _settle(tmp_path, NATURAL_TIE, opts)
    assert got == {"dragon_player": tie, "dragon_banker": tie}
    got = _settle(tmp_path, BY_SEVEN, opts)
    assert got == {"dragon_player": seven, "dragon_banker": ("lose", "-10.00")}


def _errors(text: str) -> list[str]:
    return [d.format() for d in compile_spec("b.yaml", text).diagnostics if d.is_error]


def test_a_value_row_in_a_table_of_hands_is_refused():
    text = TEXT.replace("    header: Result\n", "    header: Result\n    ranking: point_count\n")
    errs = _errors(text)
    assert any("paytable 'dragon_bonus' pays hands of ranking 'point_count': its rows name a 'hand', not a 'value'"
               in e and "[at /paytables/dragon_bonus/rows/0/value]" in e for e in errs), errs


def test_rows_keyed_some_by_value_some_by_hand_are_refused():
    text = TEXT.replace("      - {value: natural_win, label: Natural win,", "      - {hand: natural_win, label: Natural win,")
    errs = _errors(text)
    assert any("paytable 'dragon_bonus' keys its rows by 'value': every row gives a value, not a hand" in e
               and "[at /paytables/dragon_bonus/rows/6/hand]" in e for e in errs), errs


def test_a_row_with_neither_hand_nor_value_is_refused_by_the_schema():
    text = TEXT.replace("      - {value: 4, label: Win by 4,", "      - {label: Win by 4,")
    errs = _errors(text)
    assert errs and all("/paytables/dragon_bonus/rows/5" in e for e in errs), errs
