"""Shared fixtures for the spec loader/diagnostics tests."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
import yaml

import compiler.spec.loader as loader_module

BROKEN = Path(__file__).resolve().parent.parent / "fixtures" / "broken"

BACKENDS = ["python"] + (["libyaml"] if getattr(yaml, "CSafeLoader", None) else [])


@contextlib.contextmanager
def use_backend(name: str):
    """Force the composer: 'python' (pure PyYAML) or 'libyaml' (fast path when allowed)."""
    saved = loader_module._CLoader
    loader_module._CLoader = yaml.CSafeLoader if name == "libyaml" else None
    try:
        yield
    finally:
        loader_module._CLoader = saved


@pytest.fixture(params=BACKENDS)
def backend(request):
    with use_backend(request.param):
        yield request.param


@pytest.fixture
def broken():
    """Path of a fixture in tests/fixtures/broken, relative to the repository root."""

    def get(name: str) -> str:
        path = BROKEN / name
        assert path.exists(), path
        return f"tests/fixtures/broken/{name}"

    return get


@pytest.fixture(autouse=True)
def _repo_root_cwd(monkeypatch):
    """Fixture paths in expected messages are relative to the repository root."""
    monkeypatch.chdir(BROKEN.parent.parent.parent)
