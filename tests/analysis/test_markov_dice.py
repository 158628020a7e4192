"""The absorbing Markov chain (compiler/analysis/markov.py) reads the dice face by face (`dice.total`,
`dice.doubles`, `dice_count(N)`), as the engine does, not only `round.roll`.

* The Craps test chapter (tests/fixtures/chapters/craps.yaml, NOT official text) written with `dice.total`
  in place of every `round.roll` has the same figures, fraction for fraction.
* A pass of a loop that does not begin by rolling reads the previous roll's faces: the chain's state must
  hold them, not only their total (a hard 8, 4-4, and an easy 8 are one total). A Hard Eight wager (wins on
  4-4 before a 7 or an easy 8, 9 to 1) is -1/11 by a closed-form count of the 36 rolls; merging the two
  eights would give another figure.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from compiler.analysis import markov
from compiler.pipeline import load_game

pytestmark = pytest.mark.xdist_group("markov_craps")

ROOT = Path(__file__).resolve().parents[2]
CRAPS = ROOT / "tests" / "fixtures" / "chapters" / "craps.yaml"

HARD_EIGHT = """\
rulespec: 1
chapter: "989"
title: Hard Eight (test, not official text)
source: {citation: 99 Pa.B. 989}
completeness: complete
table: {cite: § 989.1, max_positions: 1}
wagers:
  hard_eight: {name: Hard Eight, cite: § 989.1, pays: hard}
payouts:
  hard: {odds: 9 to 1, cite: § 989.1}
procedure:
  - {id: first, do: roll, dice: 2, cite: § 989.1}
  - id: rolls
    do: repeat
    while: any_player(has(hard_eight))
    bound: 1000
    cite: § 989.1
    steps:
      - id: judge
        do: settle
        cite: § 989.1
        rules:
          - {cite: § 989.1, when: dice.total == 8 and dice.doubles, then: win hard_eight}
          - {cite: § 989.1, when: dice.total == 7 or (dice.total == 8 and not dice.doubles), then: lose hard_eight}
          - {cite: § 989.1, when: dice_count(4) == 2, then: note 'two fours'}
      - {id: again, do: roll, dice: 2, cite: § 989.1, when: any_player(has(hard_eight))}
text_coverage: reported
provisions:
  - section: "989.1"
    heading: Hard Eight.
    text: At one position, two dice are rolled until a Hard Eight wager is settled; it wins on two 4s, an 8 as a double, paid 9 to 1, and loses on a 7 or an 8 that is not a double.
"""


def _chains(path):
    mod, compiled = load_game(str(path))
    return markov.chains(mod.GAME, compiled.chapter)[0]


def test_dice_total_in_place_of_round_roll_gives_the_same_figures(tmp_path):
    text = CRAPS.read_text(encoding="utf-8")
    assert "round.roll" in text
    spec = tmp_path / "craps.yaml"
    spec.write_text(text.replace("round.roll", "dice.total"), encoding="utf-8")
    assert markov.refusal(*_game(spec)) is None
    plain, faces = _chains(CRAPS), _chains(spec)
    assert set(plain) == set(faces)
    for w in plain:
        assert (faces[w].net, faces[w].win, faces[w].lose, faces[w].push, faces[w].void) == \
               (plain[w].net, plain[w].win, plain[w].lose, plain[w].push, plain[w].void), w


def _game(path):
    mod, compiled = load_game(str(path))
    return mod.GAME, compiled.chapter


def test_a_pass_that_reads_the_previous_rolls_faces_keeps_them_in_its_state(tmp_path):
    spec = tmp_path / "hard-eight.yaml"
    spec.write_text(HARD_EIGHT, encoding="utf-8")
    assert markov.refusal(*_game(spec)) is None
    res = _chains(spec)["hard_eight"]
    # resolved by the first roll that is a 7 (6 ways), an easy 8 (4 ways) or 4-4 (1 way)
    win = Fraction(1, 11)
    assert res.net == 9 * win - (1 - win) == Fraction(-1, 11)
    assert res.win == win and res.lose == 1 - win
