"""Suite-wide fixtures: one build of the committed tree per test process, shared by every test that
reads it (tests/pipeline, tests/submission), and a second one for the tests of determinism.

`make test` runs the suite over every core (pytest-xdist, `-n auto --dist loadgroup`): the tests
that use these builds carry the xdist group "build", so one worker builds once for all of them;
likewise the tests of the six-card enumerations (group "six_card").
"""
from __future__ import annotations

import pytest

BUILD_GROUP = "build"
# expensive session fixtures -> the xdist group of the tests that use them (computed once per group)
GROUPS = {"committed_build": BUILD_GROUP, "rebuilt": BUILD_GROUP,
          "six_card_669a": "six_card", "six_card_670a": "six_card",  # tests/analysis/analysis_fixtures.py
          "csp_figures": "caribbean_stud",  # tests/analysis/test_dealer_hand.py: the full-deck Caribbean Stud solve
          "lir_report": "lir_report",  # tests/analysis/analysis_fixtures.py: the full-deck Let It Ride analysis
          # tests/analysis/test_new_chapters.py: each full analysis once, each on a worker of its own choosing
          "fcp_report": "fcp_report", "uth": "uth_report", "hcf_report": "hcf_report",
          # tests/analysis/test_poker_chapters_never_seen.py: the full-deck Crazy 4 Poker analysis (about a minute)
          "c4_report": "c4_report",
          # tests/pipeline/conftest.py: each analysis behind a document computed once per process for the cache tests
          "analysis_computed_once": "cache_analyses"}


@pytest.fixture(scope="session")
def committed_build():
    """`rulespec build --check` of the committed tree (computed once, never written)."""
    from compiler.build import build
    from compiler.pipeline import ROOT

    return build(ROOT, check=True)


@pytest.fixture(scope="session")
def rebuilt(committed_build):
    """A second, independent build of the committed tree (determinism: compared with the first)."""
    from compiler.build import build
    from compiler.pipeline import ROOT

    return build(ROOT, check=True)


# tests that build every example Rules Submission without the fixtures: on the worker of the committed
# build, they find its analyses in the cache (compiler/cache.py) instead of computing them again at once
BUILDS_SUBMISSIONS = ("tests/pipeline/test_build.py::test_build_check_is_clean_on_the_committed_tree",)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group markers (--dist loadgroup)
def pytest_collection_modifyitems(config, items):
    for item in items:
        groups = {GROUPS[f] for f in getattr(item, "fixturenames", ()) if f in GROUPS}
        if item.nodeid in BUILDS_SUBMISSIONS:
            groups.add(BUILD_GROUP)
        if groups:
            item.add_marker(pytest.mark.xdist_group(min(groups)))
