"""`analyze` states the settings a figure holds under: the casino's selections and, where the chapter deals
cards, the decks in the shoe. A chapter of dice or a wheel deals none: it states no shoe (it used to say
'decks_in_shoe=1' for roulette), and with no option either it says so rather than print nothing."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

from compiler.cli import main

CH = Path(__file__).resolve().parents[2] / "tests/fixtures/chapters"


def _analyze(*argv) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["analyze", *map(str, argv)]) == 0
    return out.getvalue()


def test_a_wheel_chapter_states_its_option_and_no_shoe():
    out = _analyze(CH / "roulette-0-la-partage.yaml", "--option", "la_partage=true")
    assert out.splitlines()[1] == "settings: la_partage=True"


def test_a_dice_chapter_without_options_says_it_has_none():
    assert _analyze(CH / "sic-bo.yaml").splitlines()[1] == "settings: none (the chapter has no option and deals no card)"


def test_a_card_chapter_still_states_its_shoe():
    assert "decks_in_shoe=8" in _analyze(CH / "dragon-tiger.yaml").splitlines()[1]
