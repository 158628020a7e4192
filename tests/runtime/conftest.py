"""Fixtures shared by the runtime tests: the Craps test chapter (tests/fixtures/chapters/craps.yaml, not official
text), compiled once per module, for the tests of wagers a player may have several of."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.pipeline import load_game

CRAPS = Path(__file__).resolve().parents[1] / "fixtures" / "chapters" / "craps.yaml"


@pytest.fixture(scope="module")
def craps():
    """(the compiled game module, the compiled chapter) of the Craps test chapter."""
    return load_game(str(CRAPS))
