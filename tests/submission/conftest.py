"""Fixtures of the Rules Submission tests (defined in submission_fixtures.py, shared with the test modules)."""
from submission_fixtures import *  # noqa: F401,F403
