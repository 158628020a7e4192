"""Fixtures of the cache tests (test_build_cache.py, test_cache_tampering.py).

Those tests are about compiler/cache.py: what is stored, what is read, what a damaged or forged entry
makes the build do. They make the cache miss again and again on purpose, and each miss computes the
analysis behind a Rules Submission document afresh (compiler/submission/figures.analysis_of), about
3 s for a War submission. ``analysis_computed_once`` keeps the cache's every step (key, miss, compute,
store, verify) and computes each analysis itself once per test process: the function the cache
calls on a miss is still called each time (the fixture counts the calls), and answers with the value
that the real ``compiler.analysis.report.analyze`` computed for the same chapter content and
selections. The figures themselves are checked elsewhere (tests/analysis, tests/submission, and the
committed build).
"""
from __future__ import annotations

import copy

import pytest

_COMPUTED: dict[tuple, object] = {}  # (chapter content digest, selections) -> report, for this process


@pytest.fixture
def analysis_computed_once(monkeypatch):
    from compiler.submission import figures

    real = figures.analyze
    calls: list[tuple] = []

    def analyze(game, chapter, opts):
        key = (chapter.digest, repr(sorted(opts.items(), key=lambda kv: kv[0])))
        calls.append(key)
        if key not in _COMPUTED:
            _COMPUTED[key] = real(game, chapter, opts)
        return copy.deepcopy(_COMPUTED[key])

    monkeypatch.setattr(figures, "analyze", analyze)
    return calls
