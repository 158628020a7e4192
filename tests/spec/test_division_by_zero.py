"""A rule dividing by zero (issue 29 item 4): refused by `validate` where the divisor is 0 or can be 0
(a rule divides only by a number written in it), and a house way's the same when it is read."""
from __future__ import annotations

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
    ok = _edited("count(player.original) / 2 > count(player.original) or "
                 "hand(war, player.original) < hand(war, dealer.original)")
    assert not [d for d in compile_spec("b.yaml", ok).diagnostics if "divisor" in d.message]  # a number: fine


def test_a_divisor_that_can_be_zero_is_refused_by_validate_at_its_position():
    """A rule divides only by a number written in it: a divisor read from the round can be 0 in some round."""
    when = ("count(player.original) / (count(dealer.original) - count(player.original)) > count(player.original) "
            "or hand(war, player.original) < hand(war, dealer.original)")
    text = _edited(when)
    line, _ = _at(text, when)
    errs = [d.format() for d in compile_spec("b.yaml", text).diagnostics if d.is_error]
    mine = [e for e in errs if "can be 0 in some round" in e]
    assert len(mine) == 1 and "the divisor count(dealer.original) - count(player.original)" in mine[0], errs
    assert mine[0].startswith((f"b.yaml:{line}:", f"b.yaml:{line - 1}:")), mine


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

    # a divisor that can be 0 is refused when the house way is read, at its rule (as validate refuses it in a
    # chapter's rules); a number written in it is fine
    with pytest.raises(HouseWayError, match=r"house way 'x', rule 1, max: the divisor count\(setting.low\) - "
                                            r"count\(setting.high\) can be 0 in some round"):
        _fn("count(setting.high) / (count(setting.low) - count(setting.high))", "house way 'x', rule 1, max", Names())
    assert _fn("count(setting.high) / 2", "w", Names())(Ctx()) == 1
