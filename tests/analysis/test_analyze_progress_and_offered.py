"""rulespec analyze: progress of a route that knows its total (rate and time left, on a terminal
only), and no figure, note or policy of a wager the casino's selections do not offer."""
from __future__ import annotations

import inspect
import io
from fractions import Fraction

from compiler.analysis import paigow, progress
from compiler.analysis.model import Figure, NotComputed, Policy, Report
from compiler.analysis.report import DURING_CLAUSE, drop_unoffered
from compiler.analysis.simulate import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_route_reports_its_total_through_the_installed_reporter_only():
    with progress.track(3, "enumerations") as silent:  # no reporter installed: nothing happens
        silent.update(1)
    seen = []

    class Rec:
        def __init__(self, total, unit):
            seen.append(("start", total, unit))

        def update(self, n):
            seen.append(("update", n))

        def close(self):
            seen.append(("close",))

    with progress.reporting(Rec):
        with progress.track(2, "enumerations") as bar:
            bar.update(1)
            bar.update(1)
    assert seen == [("start", 2, "enumerations"), ("update", 1), ("update", 1), ("close",)]


def test_progress_shows_rate_and_time_left_on_a_terminal_and_nothing_when_piped():
    tty, pipe = _Terminal(), io.StringIO()
    for stream in (tty, pipe):
        p = Progress(4, stream=stream, unit="enumerations")
        p.update(2)
        p.close()
    assert tty.getvalue().startswith("\r2/4 enumerations  ") and "enumerations/s" in tty.getvalue()
    assert " s left" in tty.getvalue()
    assert pipe.getvalue() == ""


def _fig(wager, policy):
    return Figure((wager,), wager, Policy("fixed", policy), Fraction(-1, 100), None, None, {}, "exact", status="exact")


def test_a_wager_not_offered_has_no_figure_no_note_and_no_policy_that_makes_it():
    optimal = "player sets to maximise the estimate" + DURING_CLAUSE
    rep = Report("670a", "t", {}, [_fig("main", "house way"), _fig("main", optimal), _fig("double", "always doubles")],
                 ["house way: per unit Main Wager, with the Double Down Wager always made -0.2",
                  "the optimal setting is estimated against 2,000 dealer hands"])
    rep.not_computed = [NotComputed("double", "Double Down Wager", "always doubles", "no record")]
    drop_unoffered(rep, {"double": "Double Down Wager"}, during="double")
    assert [(f.wager, f.policy.text) for f in rep.figures] == [("main", "house way"),
                                                           ("main", "player sets to maximise the estimate")]
    assert rep.notes == ["the optimal setting is estimated against 2,000 dealer hands"]
    assert rep.not_computed == []


def test_the_pai_gow_route_words_its_doubling_with_the_clause_removed():
    assert "{DURING_CLAUSE}" in inspect.getsource(paigow.analyze_paigow)


def test_the_pai_gow_simulation_reports_its_rounds_as_they_finish():
    from compiler.pipeline import load_game

    mod, comp = load_game("rulespecs/670a-six-card-fortune-pai-gow-poker.yaml")
    seen = []

    class Rec:
        def __init__(self, total, unit):
            seen.append((total, unit))

        def update(self, n):
            seen.append(n)

        def close(self):
            seen.append("close")

    with progress.reporting(Rec):
        paigow.simulate_paigow(mod.GAME, comp.chapter, {}, 2 * paigow.CHUNK, seed=3, processes=1,
                               policies=("house_way",))
    assert seen == [(2 * paigow.CHUNK, "rounds"), paigow.CHUNK, paigow.CHUNK, "close"]
