"""`requires: [{any_of: [...]}]`: a wager that may be placed only with one at least of several others (a Six Card
Bonus made with an Ante or a Pair Plus; a Suited Tie made with a Dragon or a Tiger). Checked where every other
requirement is: validate names the wagers, the engine refuses the placement, a hand history is refused at its
position, and the analysis values the wager as before (the requirement changes who may make it, not what it pays)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from compiler.pipeline import ROOT, load_game
from compiler.runtime.errors import RefusedError

from cli_run import run_rulespec  # tests/cli_run.py


def run(*args) -> tuple[int, str, str]:
    proc = run_rulespec(*(str(a) for a in args))
    return proc.returncode, proc.stdout, proc.stderr

DT = ROOT / "tests/fixtures/chapters/dragon-tiger.yaml"
PLAIN = "  suited_tie: {name: Suited Tie, cite: § 944.5, pays: suited_tie}\n"


def _variant(tmp_path, requires: str):
    text = DT.read_text(encoding="utf-8")
    assert PLAIN in text
    p = tmp_path / "dragon-tiger.yaml"
    p.write_text(text.replace(PLAIN, "  suited_tie: {name: Suited Tie, cite: § 944.5, pays: suited_tie, "
                                     f"requires: {requires}}}\n"), encoding="utf-8")
    return p


def test_a_wager_placed_with_one_of_a_group_is_played_and_alone_is_refused(tmp_path):
    mod, compiled = load_game(_variant(tmp_path, "[{any_of: [dragon, tiger]}]"))
    assert compiled.chapter.wagers["suited_tie"].requires_any == (("dragon", "tiger"),)
    table = mod.new_table({}, seed=1)
    with pytest.raises(RefusedError, match=r"seat 1: the Suited Tie requires a Dragon or a Tiger \(§ 944.5\)"):
        table.play_round({1: {"suited_tie": 5}})
    for other in ("dragon", "tiger"):
        res = mod.new_table({}, seed=1).play_round({1: {other: 5, "suited_tie": 5}})
        assert {r.wager for r in res.results} == {other, "suited_tie"}


def test_every_requirement_and_one_of_a_group_together(tmp_path):
    mod, _ = load_game(_variant(tmp_path, "[tie, {any_of: [dragon, tiger]}]"))
    with pytest.raises(RefusedError, match="requires a Tie"):
        mod.new_table({}, seed=1).play_round({1: {"dragon": 5, "suited_tie": 5}})
    with pytest.raises(RefusedError, match="requires a Dragon or a Tiger"):
        mod.new_table({}, seed=1).play_round({1: {"tie": 5, "suited_tie": 5}})
    mod.new_table({}, seed=1).play_round({1: {"tie": 5, "tiger": 5, "suited_tie": 5}})


@pytest.mark.parametrize("requires, pointer, message", [
    ("[{any_of: [dragon, tigre]}]", "/wagers/suited_tie/requires/0/any_of/1", "tigre"),
    ("[{any_of: [dragon, suited_tie]}]", "/wagers/suited_tie/requires/0/any_of/1", "requires itself"),
    ("[{any_of: [dragon]}]", "/wagers/suited_tie/requires/0/any_of", "at least 2 items"),
    ("[{one_of: [dragon, tiger]}]", "/wagers/suited_tie/requires/0/one_of", "did you mean 'any_of'?"),
])
def test_validate_names_what_is_wrong_at_its_position(tmp_path, requires, pointer, message):
    p = _variant(tmp_path, requires)
    rc, out, err = run("validate", p)
    assert rc == 1 and "Traceback" not in out + err
    line = next(i for i, s in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "suited_tie: {" in s)
    errors = [x for x in (out + err).splitlines() if f"[at {pointer}]" in x]
    assert errors and all(f"dragon-tiger.yaml:{line}:" in x and ": error: " in x for x in errors), out + err
    assert any(message in x for x in errors), errors


def test_a_hand_history_placing_it_alone_is_refused_at_its_position(tmp_path):
    p = _variant(tmp_path, "[{any_of: [dragon, tiger]}]")
    h = tmp_path / "alone.yaml"
    h.write_text("rulespec_round: 1\nchapter: '944'\npositions:\n  1: {wagers: {suited_tie: 5}}\n"
                 "  2: {wagers: {tiger: 5, suited_tie: 5}}\ndealt:\n  dealer: {dragon: [9H], tiger: [9H]}\n",
                 encoding="utf-8")
    rc, out, err = run("settle", p, h)
    assert rc == 1 and "Traceback" not in out + err
    (line,) = [x for x in (out + err).splitlines() if "requires" in x]
    assert "alone.yaml:4:" in line and "seat 1: the Suited Tie requires a Dragon or a Tiger (§ 944.5)" in line


def test_the_analysis_values_the_wager_as_without_the_requirement(tmp_path):
    from compiler.analysis.report import analyze

    def edges(path):
        mod, compiled = load_game(path)
        rep = analyze(mod.GAME, compiled.chapter, {})
        return {f.stakes: f.expected_return for f in rep.figures if f.exact}

    plain, grouped = edges(DT), edges(_variant(tmp_path, "[{any_of: [dragon, tiger]}]"))
    assert grouped == plain and grouped[("suited_tie",)] == Fraction(-58, 415)


def test_the_points_method_values_a_baccarat_tie_made_with_the_player_or_banker(tmp_path):
    """The points method plays each optional wager with its companions (the first of the group) and reads only
    its results: the Tie exact, as in the chapter without the requirement (14.3596%, 8 decks)."""
    from compiler.analysis.report import analyze

    src = ROOT / "tests/fixtures/chapters/mini-baccarat.yaml"
    text = src.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("  tie: {"))
    p = tmp_path / "mini-baccarat.yaml"
    p.write_text(text.replace(line, line[:-1] + ", requires: [{any_of: [player, banker]}]}"), encoding="utf-8")
    mod, compiled = load_game(p)
    rep = analyze(mod.GAME, compiled.chapter, {}, simulate_refused=False)
    (tie,) = [f for f in rep.figures if f.stakes == ("tie",)]
    assert tie.status == "exact" and tie.method.startswith("exact: points method")
    assert f"{float(tie.house_edge) * 100:.4f}" == "14.3596"


def test_a_method_that_does_not_declare_it_refuses_it_by_name(tmp_path):
    from compiler.analysis import contract

    mod, compiled = load_game(_variant(tmp_path, "[{any_of: [dragon, tiger]}]"))
    items = contract.constructs(mod.GAME, compiled.chapter, {})
    (c,) = [c for c in items if c.category == "wager"]
    assert c.name == "requires any_of" and "wager 'suited_tie'" in c.where
    assert c in contract.all_unmodelled("engine enumeration", items)
    assert c not in contract.all_unmodelled("chance", items)
