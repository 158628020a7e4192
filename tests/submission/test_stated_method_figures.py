"""A figure exact for a stated method (the draw walk's blackjack figure: the dealer's play valued from the shoe
at the player's first decision) is shown as such wherever it appears: the analysis text and JSON, the Rules
Submission table and notes. It is never called a count of every possible outcome of the round (§ 601a.2)."""
from __future__ import annotations

import functools
import shutil
import sys
from pathlib import Path

import pytest

from compiler.analysis import draw_report
from compiler.analysis.model import Figure, NO_DECISION, pct
from compiler.submission.figures import analysis_of
from compiler.values import walk_limits

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "analysis"))
from test_draw_walk import BLACKJACK, _shoe  # noqa: E402


@pytest.fixture()
def document(tmp_path, monkeypatch):
    """The blackjack test chapter's Rules Submission document, its round walked on a reduced shoe (the
    walk's own code, only the shoe smaller), with no cache (the reduced figure is stored nowhere)."""
    from compiler.submission.check import check_files
    from compiler.submission.document import document_context, render_formats
    from compiler.submission import figures

    monkeypatch.setenv("RULESPEC_NO_CACHE", "1")
    monkeypatch.setattr(draw_report, "analyze_draw",
                        functools.partial(draw_report.analyze_draw, composition=_shoe("A24689TTT")))
    monkeypatch.setattr(figures, "_ANALYSES", {})
    token = walk_limits.budget.set(None)
    try:
        (tmp_path / "rulespecs").mkdir()
        shutil.copy(BLACKJACK, tmp_path / "rulespecs" / "961-blackjack.yaml")
        sub = tmp_path / "961-test.yaml"
        sub.write_text("rules_submission: 1\ncertificate_holder: Test Gaming, L.P.\nfacility: Test Casino\n"
                       'game: {chapter: "961"}\neffective_date: "2099-02-01"\n'
                       "contact: {name: A. Tester, title: Director}\nselections: {}\n", encoding="utf-8")
        ((f, s, diags),), spec_diags = check_files([sub], root=tmp_path)
        assert s is not None and not diags and not spec_diags, [d.format() for d in [*diags, *spec_diags]]
        ctx = document_context(s, str(f))
        yield ctx, render_formats(ctx, ("md", "html")), s
    finally:
        walk_limits.budget.reset(token)


def test_601a_2_a_stated_method_figure_is_named_so_in_the_table_and_its_note(document):
    ctx, out, sub = document
    (row,) = [r for r in ctx["figures"] if r["wager"] == "initial"]
    assert row["kind"] == "exact for the stated method"
    assert row["stated_method"] == draw_report.METHOD
    md, html = out["md"], out["html"]
    (note,) = [line for line in md.splitlines() if line.startswith("- Blackjack wager")]
    assert "Exact for the stated method" in note and draw_report.METHOD in note
    assert "every possible outcome" not in note
    # the round's stake varies with the play (doubles, splits, insurance): per unit of its base wager, and per
    # total amount wagered, both as the analysis gives them
    fig = next(f for f in analysis_of(sub).figures if f.stakes == ("initial",))
    assert fig.per_total_wagered != fig.expected_return
    assert (f"the player gains {pct(fig.expected_return)} of every dollar of the Blackjack wager in the long run "
            f"({pct(fig.per_total_wagered)} of the total amount wagered on the round, after every raise, double or "
            "wager taken back: its element of risk)") in note
    assert "exact for the stated method (" in md  # the table's kind column
    assert "Exact for the stated method</span> figures are exact fractions of a method" in html


def test_a_figure_counting_every_outcome_keeps_its_words_and_states_no_method():
    fig = Figure(("w",), "W", NO_DECISION, -1, None, None, {}, "exact: every deal", status="exact")
    assert "stated_method" not in fig.to_json() and fig.to_json()["status"] == "exact"
    assert "stated method" not in "\n".join(_report_text(fig))
    with pytest.raises(ValueError, match="only an exact figure"):
        Figure(("w",), "W", NO_DECISION, -1, None, None, {}, "simulated", standard_error=0.01, target=0.0005,
               status="simulated", stated_method="a method")


def test_the_analysis_text_and_json_say_the_stated_method():
    fig = Figure(("w",), "W", NO_DECISION, -1, None, None, {}, "exact for the stated method: a walk",
                 status="exact", stated_method="the dealer valued once")
    js = fig.to_json()
    assert js["status"] == "exact for the stated method" and js["stated_method"] == "the dealer valued once"
    assert "  the stated method (not every round as the game deals it): the dealer valued once" in _report_text(fig)
    # kept through the document cache's plain fields
    assert Figure.from_fields(fig.to_fields()).stated_method == "the dealer valued once"


def _report_text(fig) -> list[str]:
    from compiler.analysis.model import Report
    return Report("0", "T", {}, [fig]).to_text().splitlines()
