"""An interpretation may acknowledge places its reading leaves as they are (670a: the $1 Envy schedules,
printed but paid by no rule, interpretation envy-qualifying-wager): lint's warning there becomes a note
naming the interpretation; an acknowledgement of a place that does not exist, or where lint warns of
nothing, is an error."""
from __future__ import annotations

from pathlib import Path

from compiler.pipeline import compile_spec

SPEC = Path("rulespecs/670a-six-card-fortune-pai-gow-poker.yaml")
ACK = "    acknowledges: [/paytables/envy_fortune_bonus_1, /paytables/envy_progressive_1]\n"


def _at(c, pointer):
    return [(d.severity, d.message) for d in c.diagnostics if d.pointer == pointer]


def test_670a_12_b_2_unpaid_1_dollar_envy_schedules_are_notes_naming_the_interpretation():
    c = compile_spec(SPEC)
    assert c.ok and not [d for d in c.diagnostics if d.severity == "warning"]
    [(sev, msg)] = _at(c, "/paytables/envy_fortune_bonus_1")
    assert sev == "note" and "never used by a rule" in msg and "'envy-qualifying-wager'" in msg


def test_without_the_acknowledgement_the_same_places_warn(tmp_path):
    text = SPEC.read_text(encoding="utf-8")
    assert text.count(ACK) == 1
    p = tmp_path / SPEC.name
    p.write_text(text.replace(ACK, ""), encoding="utf-8")
    c = compile_spec(p)
    assert [s for s, _ in _at(c, "/paytables/envy_fortune_bonus_1")] == ["warning"]
    assert [s for s, _ in _at(c, "/paytables/envy_progressive_1")] == ["warning"]


def test_acknowledging_a_missing_place_or_one_without_a_warning_is_an_error(tmp_path):
    text = SPEC.read_text(encoding="utf-8")
    p = tmp_path / SPEC.name
    p.write_text(text.replace(ACK, "    acknowledges: [/paytables/no_such_table, /paytables/envy_fortune_bonus_5,"
                                   " /paytables/envy_progressive_1]\n"), encoding="utf-8")
    c = compile_spec(p)
    assert not c.ok
    errors = {(d.pointer, d.message) for d in c.errors}
    assert any(m.startswith("acknowledges /paytables/no_such_table: no such place") for _, m in errors)
    assert any(m.startswith("acknowledges /paytables/envy_fortune_bonus_5, where lint warns of nothing")
               for _, m in errors)
    assert all(ptr.startswith("/interpretations/") for ptr, _ in errors)
    line = next(i for i, x in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "no_such_table" in x)
    assert {d.line for d in c.errors} == {line}
