"""Fixtures of the fidelity tests.

``impact_analysis_once``: the tests of ``rulespec diff --impact`` on War (test_diff_impact.py) run the command
again and again on the same two chapters (the committed 567 and its Tie wager paid 8 to 1, written in the data
or read from a Bulletin page), each run analysing both at 6 or 8 decks, about 2 s an analysis. The fixture
keeps the command's every step and computes each analysis once per test process: the analysis the impact code
calls (``compiler.text.impact.analyze``) is still called at every run (the fixture counts the calls) and answers
with what the real ``compiler.analysis.report.analyze`` computed for the same chapter (its IR digest) and
arguments; those tests share the xdist group impact_567, so one worker computes each analysis once (make
test). The figures themselves are checked against counting here and in tests/analysis.
"""
from __future__ import annotations

import copy

import pytest

_COMPUTED: dict[tuple, object] = {}  # (chapter digest, keyword arguments) -> report, for this process


@pytest.fixture
def impact_analysis_once(monkeypatch):
    from compiler.text import impact

    real = impact.analyze
    calls: list[tuple] = []

    def analyze(game, chapter, **kw):
        key = (chapter.digest, repr(sorted(kw.items())))
        calls.append(key)
        if key not in _COMPUTED:
            _COMPUTED[key] = real(game, chapter, **kw)
        return copy.deepcopy(_COMPUTED[key])

    monkeypatch.setattr(impact, "analyze", analyze)
    return calls
