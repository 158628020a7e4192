"""A rule dividing by zero (issue 29 item 4): refused by `validate` where the divisor is a constant,
and at run time a positioned engine error naming the rule and its §, never a traceback."""
from __future__ import annotations

import contextlib
import io

from compiler.cli import main
from compiler.pipeline import ROOT, compile_spec

WAR = (ROOT / "rulespecs" / "567-war.yaml").read_text(encoding="utf-8")
RULE = "when: hand(war, player.original) < hand(war, dealer.original)"


def _edited(when: str) -> str:
    assert WAR.count(RULE) == 1
    return WAR.replace(RULE, f"when: {when}")


def _at(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def test_a_constant_zero_divisor_is_refused_by_validate():
    for divisor in ("0", "(2 - 2)", "-0", "(0 * 2)", "(2 - 2 * 1)"):
        when = f"count(player.original) / {divisor} > 1 or hand(war, player.original) < hand(war, dealer.original)"
        text = _edited(when)
        line, col = _at(text, f"/ {divisor}")
        errs = [d.format() for d in compile_spec("b.yaml", text).diagnostics if d.is_error]
        mine = [e for e in errs if "division by zero: the divisor is always 0" in e]
        assert len(mine) == 1 and mine[0].startswith(f"b.yaml:{line}:"), (divisor, errs)
    ok = _edited("count(player.original) / count(dealer.original) > count(player.original) or "
                 "hand(war, player.original) < hand(war, dealer.original)")
    assert compile_spec("b.yaml", ok).ok


def test_a_division_by_zero_at_run_time_is_the_engines_positioned_error(tmp_path):
    # the original hands have one card each: the divisor is 0 in every round, but no constant
    when = ("count(player.original) / (count(dealer.original) - count(player.original)) > count(player.original) "
            "or hand(war, player.original) < hand(war, dealer.original)")
    text = _edited(when)
    spec = tmp_path / "567-war.yaml"
    spec.write_text(text, encoding="utf-8")
    assert compile_spec(str(spec), text).ok  # validate cannot know the number of cards
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["settle", str(spec), str(ROOT / "rulespecs" / "rounds" / "567-war-tie-goes-to-war.yaml")])
    line, _ = _at(text, when)
    shown = err.getvalue()
    assert rc == 1 and "Traceback" not in shown
    assert f"{spec}:{line - 1}:" in shown or f"{spec}:{line}:" in shown, shown
    assert "divides by zero" in shown and "§ 567.9(a)(1)" in shown, shown


def test_a_house_way_given_as_data_that_divides_by_zero_is_a_house_way_error():
    """A casino's house way (a Rules Submission selection, compiled to closures): the engine turns a
    HouseWayError into its error for the step (compiler/runtime/paigow.py), never a traceback."""
    import pytest

    from compiler.lang.houseway import HouseWayError, _fn
    from compiler.lang.rules import Names

    class Ctx:
        def count(self, zone):
            return 2

        def zone(self, owner, attr):
            return [1, 2]

    f = _fn("count(setting.high) / (count(setting.low) - count(setting.high))", "house way 'x', rule 1, max",
            Names())
    with pytest.raises(HouseWayError, match=r"house way 'x', rule 1, max: divides by zero: count\(setting.high\)"):
        f(Ctx())
    assert _fn("count(setting.high) / count(setting.low)", "w", Names())(Ctx()) == 1
