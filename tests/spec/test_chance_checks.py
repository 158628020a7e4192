"""Dice, wheels and chosen numbers misused in a rulespec: every mistake is a positioned error, all at
once, exit 1, never a traceback (compiler/spec/chance_checks.py, compiler/lang/names.py). The chapters are
the test fixtures tests/fixtures/chapters/{roulette-00,sic-bo}.yaml (NOT official text)."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
CH = ROOT / "tests/fixtures/chapters"


def _validate(tmp_path, name, *edits) -> tuple[int, str]:
    text = (CH / f"{name}.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    p = tmp_path / f"{name}.yaml"
    p.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["validate", str(p)])
    text = out.getvalue() + err.getvalue()
    assert "Traceback" not in text
    return rc, text


def test_wheel_and_choose_mistakes_are_each_an_error_at_its_position(tmp_path):
    rc, out = _validate(
        tmp_path, "roulette-00",
        ("choose: {wheel: spin, size: 1,", "choose: {wheel: spinner, size: 1,"),
        ("choose: {wheel: spin, shapes: [[2, 2]]", "choose: {wheel: spin, shapes: [[13, 2]]"),
        ('- {label: "00", number: 0, colour: green, column: 0, dozen: 0, parity: none, half: none}',
         '- {label: "00", number: 0, colour: green, column: 0, dozen: 0, parity: none}'),
        ('[["0", "00"], ["0", 1]', '[["0", "000"], ["0", 1]'),
    )
    assert rc == 1
    assert "error: 'spinner' is no `spin` step of the procedure (its spin steps: spin) [at /wagers/straight_up/choose/wheel]" in out
    assert "a rectangle of 13 rows and 2 columns fits nowhere in the grid [at /wagers/corner/choose/shapes/0]" in out
    assert "pocket '00' does not declare half" in out and "[at /procedure/0/wheel/pockets/1]" in out
    assert "'000' is neither a value of `from` nor a pocket of the wheel [at /wagers/split/choose/also/0]" in out
    assert out.count(": error: ") >= 4  # all at once
    assert "roulette-00.yaml:19:" in out  # file:line:col


def test_rule_language_misuse_of_dice_pockets_and_chosen_numbers(tmp_path):
    rc, out = _validate(
        tmp_path, "roulette-00",
        ("when: \"pocket.colour == 'red'\"", "when: \"pocket.colr == 'red'\""),
        ('when: "pocket.column == 1"', 'when: "dice.total == 1"'),
        ('when: "pocket.dozen == 1"', 'when: "hits(red) == 1"'),
    )
    assert rc == 1
    assert "no spun wheel's pockets have an attribute 'colr' (did you mean 'colour'?)" in out
    assert "no step rolls dice, so dice.total would never be known" in out
    assert "hits(red): the wager is not placed on chosen numbers (it has no `choose`)" in out
    rc, out = _validate(tmp_path, "sic-bo", ('when: "dice.total <= 10 and', 'when: "dice.sum <= 10 and'),
                        ("when: dice.triple, then", "when: pocket.label, then"))
    assert rc == 1
    assert "'dice' is followed by one of total, count, distinct, doubles, triple, high, low" in out
    assert "no spun wheel's pockets have an attribute 'label' (no step spins a wheel)" in out
