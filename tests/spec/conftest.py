"""Shared fixtures for the spec loader/diagnostics tests."""

from __future__ import annotations

from pathlib import Path

import pytest

BROKEN = Path(__file__).resolve().parent.parent / "fixtures" / "broken"
REPO = BROKEN.parent.parent.parent


@pytest.fixture
def broken():
    """Path of a fixture in tests/fixtures/broken, relative to the repository root."""

    def get(name: str) -> str:
        assert (BROKEN / name).exists(), name
        return f"tests/fixtures/broken/{name}"

    return get


@pytest.fixture(autouse=True)
def _repo_root_cwd(monkeypatch):
    """Fixture paths in expected messages are relative to the repository root."""
    monkeypatch.chdir(REPO)
