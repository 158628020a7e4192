"""Limits on what a rulespec may contain: one place for every bound the compiler enforces.

A rulespec is untrusted input (it comes from casinos and from people's editors). Beyond these
limits ``rulespec validate`` refuses the file at once with a positioned error, before any work
whose cost grows with the input (composition, schema validation, rule parsing, code generation).
Each limit is far above what a real chapter needs: the largest seeded chapter (670a) is 109 KB,
2,386 YAML nodes, 13 levels deep, with rule expressions of at most 296 characters and 6 levels.

Documented in ``docs/spec-format.md`` (section "Limits"); a test checks the two agree.
"""
from __future__ import annotations

# -- the YAML file ------------------------------------------------------------------------------
MAX_FILE_BYTES = 1_000_000
"""Size of a rulespec file in bytes (UTF-8). Checked before the file is parsed."""

MAX_NODES = 25_000
"""YAML nodes (scalars, mappings, sequences) in the document as written. Counted while composing,
so a huge document stops at this node (the pure-Python composer reads about 20,000 nodes a second)."""

MAX_ALIAS_NODES = 10_000
"""Nodes produced by expanding aliases (``*name``): stops "billion laughs" documents."""

MAX_DEPTH = 64
"""Nesting of mappings and sequences. Keeps every recursive stage (schema validation, lint, text
rendering) far from Python's recursion limit."""

MAX_NUMBER_DIGITS = 15
"""Digits of a number, in YAML (``decks: 6``, ``min: 5.00``) and in the rule language (``$1,000``,
``3 to 2``, ``1/2``): at most this many digits before and after the decimal point together."""

# -- the rule language ------------------------------------------------------------------------------
MAX_EXPR_CHARS = 2_000
"""Characters of one rule-language string (a ``when``, ``then``, ``require``, ...)."""

MAX_EXPR_DEPTH = 40
"""Nesting of one rule-language string: parentheses, ``not``, ``-``, comparisons, arithmetic and
function calls each add a level; a chain ``a and b and c`` is one level whatever its length."""

# -- the game -------------------------------------------------------------------------------------
MAX_DECKS = 100
"""Decks in a shoe: ``cards.decks`` and the bounds and default of the ``cards.decks_option``."""

MAX_POSITIONS = 12
"""Betting positions at a table: ``table.max_positions``."""
MAX_POSITIONS_REASON = ("a rulespec is untrusted input, and the positions bound the work of every round (each "
                        "position is dealt, decided and settled) and the simulation's arrays (tables x positions); "
                        "the chapters written so far seat at most 7 (567 War; 669a, 670a and 688a seat no more than "
                        "six players on one side of the table), so 12 leaves room for a larger table; a chapter that "
                        "needs more raises MAX_POSITIONS in compiler/spec/limits.py with docs/spec-format.md")
"""Why :data:`MAX_POSITIONS` exists and has this value: the error of a larger table states it."""

LIMITS = {
    "MAX_FILE_BYTES": MAX_FILE_BYTES,
    "MAX_NODES": MAX_NODES,
    "MAX_ALIAS_NODES": MAX_ALIAS_NODES,
    "MAX_DEPTH": MAX_DEPTH,
    "MAX_NUMBER_DIGITS": MAX_NUMBER_DIGITS,
    "MAX_EXPR_CHARS": MAX_EXPR_CHARS,
    "MAX_EXPR_DEPTH": MAX_EXPR_DEPTH,
    "MAX_DECKS": MAX_DECKS,
    "MAX_POSITIONS": MAX_POSITIONS,
}
