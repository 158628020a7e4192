"""rulespec: a regulation-as-data compiler for Pennsylvania casino table-game chapters."""

# The version `rulespec --version` prints, read without importlib.metadata (tens of milliseconds at
# start-up); pyproject.toml's `version` must say the same (tests/people/test_cli_conventions.py).
__version__ = "0.1.0"
