"""The draw walk (:mod:`compiler.analysis.draw_walk`) on several cores: the round's first deal is split by
the class of card it gives, and each class's position is walked in a process of its own (forked, so that it
holds the compiled game as the parent has it). The values are exact fractions; the parent weighs them by the
count of each class, as the walk does.

The processes share no memory: a position reached under two first cards is walked by each process that
reaches it, so the positions reported are the sum of those each process walked."""
from __future__ import annotations

import multiprocessing

from compiler.analysis.draw_model import ZERO, DrawLimit, Value
from compiler.analysis.draw_steps import advance, dealt_values

__all__ = ["run_parallel"]

_WORK: tuple | None = None  # (walk, position of the first deal), set before the fork


def run_parallel(walk, jobs: int) -> Value:
    """The value of the round, its first deal's classes walked by ``jobs`` processes."""
    global _WORK
    st = walk.start()
    while True:
        if st.rnd.stopped or st.seat.ended or st.pc >= len(walk.prog.ops) or st.pc == walk.prog.suffix:
            return walk.value(st)
        branch = advance(walk, st)
        if branch is not None:
            break
    if not getattr(branch, "dealt", False):  # the round begins with a decision: walked in this process
        return walk.memoized(st, branch)
    left = walk.left(st)
    classes = [c for c, n in enumerate(left) if n > 0]
    _WORK = (walk, st)
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(classes))) as pool:
            done = pool.map(_class_value, classes, chunksize=1)
    finally:
        _WORK = None
    acc = ZERO
    for n, value, positions, dealer, settlements, error, chart in done:
        if error is not None:
            raise DrawLimit(error)
        acc += n * value
        if walk.chart is not None:
            walk.chart.merge(*chart)
        walk.positions += positions
        walk.dealer.dealer_positions += dealer
        walk.dealer.settlements += settlements
    return acc / sum(left)


def _class_value(c: int) -> tuple:
    """(count, value, positions, dealer's positions, settlements, error) of the first deal giving class ``c``."""
    walk, st = _WORK
    before = (walk.positions, walk.dealer.dealer_positions, walk.dealer.settlements)  # a process walks several
    if walk.chart is not None:
        walk.chart.entries = {}  # this class's entries only (the parent merges them)
    try:
        for n, value in dealt_values(walk, st, {c}):
            chart = (walk.chart.entries, walk.chart.steps) if walk.chart is not None else None
            return (n, value, walk.positions - before[0], walk.dealer.dealer_positions - before[1],
                    walk.dealer.settlements - before[2], None, chart)
    except DrawLimit as e:
        return 0, ZERO, 0, 0, 0, str(e), None
    return 0, ZERO, 0, 0, 0, None, None
