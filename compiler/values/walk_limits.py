"""How far the draw walk (:mod:`compiler.analysis.draw_walk`) goes before it refuses, and on how many
processes: values read where the walk runs, set by the command line (kept apart from the walk so that
setting them imports nothing heavy).

* ``budget``: positions of the player one walk may value (None: no limit). A library call gets
  :data:`BUDGET` (a few seconds), ``rulespec analyze`` :data:`CLI_BUDGET` (a 6- or 8-deck blackjack shoe:
  minutes, see docs/speed.md) unless ``--budget N`` says otherwise, ``--exhaustive`` no limit.
* ``jobs``: processes walking the round (the first deal's classes apart: draw_parallel).
* ``progress``: seconds between lines on standard error saying how many positions are valued (a walk of
  minutes says it is working, on a terminal or not)."""
from __future__ import annotations

from contextvars import ContextVar

__all__ = ["BUDGET", "CLI_BUDGET", "budget", "jobs", "progress"]

BUDGET = 5_000
CLI_BUDGET = 3_000_000
budget: ContextVar[int | None] = ContextVar("draw_walk_budget", default=BUDGET)
jobs: ContextVar[int] = ContextVar("draw_walk_jobs", default=1)
# seconds between the walk's progress lines on standard error (None: none; the command line: every 30 s)
progress: ContextVar[float | None] = ContextVar("draw_walk_progress", default=None)
