"""The card routes and `requires: [{any_of: ...}]` (a Six Card Bonus made only with an Ante or a Pair Plus Wager,
tests/fixtures/chapters/three-card-poker-six-card-bonus.yaml, NOT official text). The paytable route counts hands and
places no wager; the round's routes place their own bets, and refuse by name a round whose bets leave such a
requirement unmet (the table would refuse the round) instead of failing with a traceback."""
from __future__ import annotations

import pytest

from compiler.analysis.report import analyze
from compiler.pipeline import ROOT, load_game

FIXTURE = ROOT / "tests/fixtures/chapters/three-card-poker-six-card-bonus.yaml"
WORKAROUND = ("  - id: no_ante_or_pair_plus\n    do: settle\n    cite: § 645a.7(d)(3)\n"
              "    players: has(six_card) and not has(ante) and not has(pair_plus)\n    rules:\n"
              "      - {cite: § 645a.7(d)(3), then: return six_card; end}\n")
SIX = "  six_card: {name: Six Card Bonus Wager, cite: § 645a.7(d)(3), paytable: six_card}"


def _figures(path):
    mod, compiled = load_game(path)
    rep = analyze(mod.GAME, compiled.chapter, {}, simulate_refused=False)
    return {(f.stakes, f.policy.text): (f.status, f.expected_return, f.per_total_wagered) for f in rep.figures}, rep


def _written(tmp_path, six: str, ante: str | None = None):
    text = FIXTURE.read_text(encoding="utf-8")
    assert WORKAROUND in text and SIX in text
    text = text.replace(WORKAROUND, "").replace(SIX, six)
    if ante:
        old = "  ante: {name: Ante Wager, cite: § 645a.7(d)(1), pays: even_money}"
        assert old in text
        text = text.replace(old, ante)
    p = tmp_path / FIXTURE.name
    p.write_text(text, encoding="utf-8")
    return p


def test_645a_the_six_card_bonus_required_with_an_ante_or_pair_plus_keeps_every_exact_figure(tmp_path):
    plain, _ = _figures(FIXTURE)
    p = _written(tmp_path, SIX[:-1] + ", requires: [{any_of: [ante, pair_plus]}]}")
    written, _ = _figures(p)
    assert written == plain and all(s == "exact" for s, _, _ in written.values())
    mod, _ = load_game(p)
    with pytest.raises(Exception, match="requires a Ante Wager or a Pair Plus Wager"):
        mod.new_table({}, seed=1).play_round({1: {"six_card": 5}})


def test_a_round_whose_bets_leave_the_requirement_unmet_is_refused_by_name(tmp_path):
    p = _written(tmp_path, SIX, ante="  ante: {name: Ante Wager, cite: § 645a.7(d)(1), pays: even_money, "
                                    "requires: [{any_of: [six_card, play]}]}")
    _, rep = _figures(p)
    said = " ".join([*rep.notes, *(n.reason for n in rep.not_computed), *(f.method for f in rep.figures)])
    assert "wager 'ante' requires one of six_card, play (§ 645a.7(d)(1))" in said
