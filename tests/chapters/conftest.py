"""Fixtures of the chapter tests: the compiled game of the module's SPEC (a rulespec path)."""
from __future__ import annotations

import pytest

from compiler.pipeline import load_game


@pytest.fixture(scope="module")
def game(request):
    return load_game(request.module.SPEC)


@pytest.fixture(scope="module")
def mod(game):
    return game[0]


@pytest.fixture(scope="module")
def data(game):
    return game[1].chapter.data


@pytest.fixture(scope="module")
def chapter(game):
    return game[1].chapter
