"""What a Rules Submission document shows of the analysis (§ 601a.2): figures only for the wagers the
casino offers, notes written for people, and plots drawn from the exact figures, byte for byte the
same on every rebuild."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from compiler.submission.check import check_files
from compiler.submission.document import document_context, render_formats
from compiler.submission.figures import _report_fields, analysis_of, figure_rows, meter_line, net_distribution

ROOT = Path(__file__).resolve().parents[2]
SUBS = ROOT / "rulespecs" / "submissions"
KEYSTONE_670A = SUBS / "670a-six-card-fortune-keystone-full.yaml"
MOUNTAINVIEW_669A = SUBS / "669a-raise-it-up-mountainview-full.yaml"


def _sub(path: Path):
    (res,), spec_diags = check_files([path], root=ROOT)
    assert not spec_diags and res[1] is not None, res[2]
    return res[1]


@pytest.fixture(scope="module")
def basic_670a(tmp_path_factory):
    """The Keystone 670a submission with neither the Progressive Payout nor the Double Down Wager."""
    text = KEYSTONE_670A.read_text(encoding="utf-8")
    text = text.replace("progressive_offered: true", "progressive_offered: false") \
               .replace("double_down_offered: true", "double_down_offered: false")
    # the meter's options apply only with the Progressive (their `when`): left out
    text = "\n".join(line for line in text.split("\n")
                     if not line.strip().startswith(("progressive_reset_amount:", "rate_of_progression:")))
    path = tmp_path_factory.mktemp("sub") / "670a-basic.yaml"
    path.write_text(text, encoding="utf-8")
    return _sub(path)


def test_601a_2_document_of_670a_without_progressive_shows_no_progressive_or_double_down(basic_670a):
    rows = figure_rows(basic_670a)
    shown = {w for r in rows for w in r["wager"].split("+")}
    assert "fortune_bonus" in shown and "insurance" in shown  # the offered side wagers keep their figures
    assert not shown & {"progressive", "double_down", "envy_progressive_1"}
    ctx = document_context(basic_670a, "670a-basic.yaml")
    assert not [p for p in ctx["paytables"] if "Progressive" in p["title"]]
    assert ctx["meters"] == []
    assert not [p for p in ctx["plots"] if "meter" in p["title"]]
    md = render_formats(ctx, ("md",))["md"]
    assert "Progressive Payout:" not in md and "### Progressive meters" not in md
    for p in ctx["payouts"]:
        assert "Double Down" not in p["wagers"]


def test_601a_2_figures_of_offered_wagers_are_the_analysis_figures_unchanged(basic_670a):
    """Filtering drops rows; the rows kept carry the analysis's numbers exactly."""
    report = analysis_of(basic_670a)
    by_name = {(f.name, f.policy.text): f for f in report.figures}
    for r in figure_rows(basic_670a):
        if r["kind"] == "exact":
            f = by_name[(r["name"], r["policy"])]
            assert r["expected_return_fraction"] == str(f.expected_return)


def test_document_notes_are_plain_words_not_analysis_dumps():
    for md_path in sorted((ROOT / "generated" / "submissions").glob("*.md")):
        md = md_path.read_text(encoding="utf-8")
        section = md.split("## 3.", 1)[1].split("## 4.", 1)[0]
        has_figures = "| Wager | Play assumed |" in section
        if has_figures:
            assert "\nNote: " not in section, md_path.name  # the analysis's own notes are for developers
            assert "What each figure means and assumes:" in section
        assert "recognised" not in section and "0.00000209" not in section, md_path.name
        assert max(len(line) for line in section.split("\n")) < 900, md_path.name


def test_669a_12_e_1_progressive_edge_falls_by_one_22100th_per_meter_dollar():
    """Only the ace, king and queen of spades (1 of the C(52,3) = 22,100 three-card hands) pays
    100% of the meter, so each dollar on the meter adds 1/22100 to the return per $1 wagered."""
    sub = _sub(MOUNTAINVIEW_669A)
    fig = next(f for f in _report_fields(analysis_of(sub))["figures"]
               if f["stakes"] == ("progressive",) and f["kind"] == "return")
    a, b, m0 = meter_line(sub, fig)
    assert b == Fraction(1, 22100)
    # paid at the selected initial and reset amount plus the $1 wager's own share at the selected rate of
    # progression, which the engine adds to the meter before it pays
    assert m0 == 2500 + Fraction(str(sub.effective["rate_of_progression"])) / 100 != 2500
    assert a + b * m0 == fig["expected_return"]
    ctx = document_context(sub, "x.yaml")
    breakeven = -a / b
    assert f"${round(breakeven):,} the house edge is zero" in " ".join(ctx["figure_notes"])
    meter_plots = [p for p in ctx["plots"] if "meter" in p["title"]]
    assert len(meter_plots) == 1 and meter_plots[0]["svg"].startswith("<svg")


def test_net_distribution_is_a_distribution_reproducing_the_figure():
    sub = _sub(MOUNTAINVIEW_669A)
    for fig in _report_fields(analysis_of(sub))["figures"]:
        dist = net_distribution(sub, fig)
        if dist is None:
            continue
        assert sum(p for _, _, p in dist) == 1
        assert sum(n * p for _, n, p in dist) == fig["expected_return"]


def test_plots_are_in_the_html_and_identical_on_rebuild():
    sub = _sub(KEYSTONE_670A)
    one = render_formats(document_context(sub, "k.yaml"))
    two = render_formats(document_context(_sub(KEYSTONE_670A), "k.yaml"))
    assert one == two  # md, html and pdf, byte for byte
    html = one["html"]
    assert html.count("<svg ") == 2  # the Fortune Bonus's net result, the Progressive against the meter
    # one bar per net result of the Fortune Bonus paytable (eight paying hands and a loss)
    dist_svg = html.split("<svg ")[1]
    assert dist_svg.count("<rect ") == 9
    assert "Date" not in html.split("<svg ", 1)[1].split("</svg>")[0]
