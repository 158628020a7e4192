"""Session fixtures of the analysis tests (helpers in analysis_fixtures.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from analysis_fixtures import lir_report, six_card_669a, six_card_670a  # noqa: E402,F401
