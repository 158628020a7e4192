"""Rules Submissions with a house way (an option of type house_way, § 688a.11(a)): each rule
parsed and name-checked in the rule language, errors placed in the submission file with the
option's §; the house way rendered in the document; the house way used at the table.
The casino and its house way are fictional (tests/fixtures/submissions/688a-*.yaml)."""
from __future__ import annotations

import pytest

from compiler.pipeline import load_game
from compiler.spec.diagnostics import DiagnosticError
from compiler.submission.document import load_submission, render_documents

SPEC = "rulespecs/688a-face-up-pai-gow-poker.yaml"
F = "tests/fixtures/submissions/"


@pytest.fixture(scope="module")
def ch688a():
    return load_game(SPEC)[1].chapter


def _errors(name, ch):
    with pytest.raises(DiagnosticError) as e:
        load_submission(F + name, {"688a": ch})
    return [d.format() for d in e.value.diagnostics]


def test_valid_house_way_is_accepted(ch688a):
    sub = load_submission(F + "688a-house-way-fictional.yaml", {"688a": ch688a})
    rules = sub.selections["house_way"]
    assert [r["rule"].split(":")[0] for r in rules] == ["Pai gow (no pair, straight or flush)", "One pair",
                                                         "Two pair", "Any other hand"]


def test_unknown_name_in_a_house_way_rule_is_rejected_with_position_and_cite(ch688a):
    assert _errors("688a-house-way-unknown-ranking.yaml", ch688a) == [
        F + "688a-house-way-unknown-ranking.yaml:17:13: error: house_way: rule 2, when: unknown ranking 'fivecard' "
        "(did you mean 'five_card'?) (column 15 of \"category(best(fivecard, setting.cards)) == 'pair'\") "
        "(§ 688a.11(a)) [at /selections/house_way/1/when]"]


def test_syntax_error_in_a_house_way_criterion_is_rejected_with_position_and_cite(ch688a):
    [err] = _errors("688a-house-way-syntax-error.yaml", ch688a)
    assert err.startswith(F + "688a-house-way-syntax-error.yaml:25:16: error: house_way: rule 3, max: rule syntax: ")
    assert err.endswith("(§ 688a.11(a)) [at /selections/house_way/2/choose/1/max]")


def test_payout_odds_option_must_read_as_odds(ch688a):
    assert _errors("688a-odds-not-odds.yaml", ch688a) == [
        F + "688a-odds-not-odds.yaml:9:17: error: face_up_odds: cannot read odds 'even money': expected 'N to M', "
        "'N for M', 'P% of meter', '$A' or 'Push' (§ 688a.12(a)) [at /selections/face_up_odds]"]


def test_house_way_shape_is_checked_by_the_generated_schema(ch688a):
    text = open(F + "688a-house-way-fictional.yaml").read().replace("      choose:\n        - max: hand(low_hand, setting.low)\n"
                                                                  "    - rule: \"One pair", "    - rule: \"One pair", 1)
    assert "One pair" in text and text.count("choose:") == 3
    with pytest.raises(DiagnosticError) as e:
        load_submission("x.yaml", {"688a": ch688a}, text)
    msgs = [d.format() for d in e.value.diagnostics]
    assert any("missing required field 'choose'" in m and "(§ 688a.11(a))" in m and "/selections/house_way/0" in m
               for m in msgs), msgs


def test_house_way_is_required_by_688a_11_a(ch688a):
    text = open(F + "688a-house-way-fictional.yaml").read().split("  house_way:")[0] + "  fortune_bonus_offered: true\n"
    msgs = _errors_text(text, ch688a)
    assert any("missing selection 'house_way'" in m and "(§ 688a.11(a))" in m for m in msgs), msgs


def _errors_text(text, ch):
    with pytest.raises(DiagnosticError) as e:
        load_submission("x.yaml", {"688a": ch}, text)
    return [d.format() for d in e.value.diagnostics]


def test_document_renders_each_rule_with_condition_and_choice_in_order(ch688a):
    sub = load_submission("rulespecs/submissions/688a-face-up-pai-gow-lakeshore.yaml", {"688a": ch688a})
    md, html = render_documents(sub)
    i1, i2, i3, i4 = (md.index(f"| {n} | ") for n in (1, 2, 3, 4))
    assert i1 < i2 < i3 < i4
    row2 = md[i2:i3]
    assert "One pair: the pair in the high hand" in row2
    assert "`category(best(five_card, setting.cards)) == 'pair'`" in row2
    assert "1. keep `category(hand(five_card, setting.high)) == 'pair'`; 2. max `hand(low_hand, setting.low)`" in row2
    assert "any cards" in md[i4:]
    # HTML: every string escaped (the house way's quotes and comparison signs included)
    assert "== &#39;pair&#39;" in html and "<li>keep <code>" in html
    assert "(fictional)" in md
    # where the numbers come from: no odds in the sources, no house edge
    assert "a win is recorded without an amount" in md
    assert "no house edge is computed" in md


def test_hostile_strings_in_a_house_way_are_escaped(ch688a):
    text = open(F + "688a-house-way-fictional.yaml").read().replace(
        'rule: "One pair:', 'rule: "<script>alert(1)</script> | *One* pair:', 1)
    sub = load_submission("x.yaml", {"688a": ch688a}, text)
    md, html = render_documents(sub)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "\\| \\*One\\* pair" in md


def test_submission_house_way_sets_the_dealers_hands(ch688a):
    from compiler.runtime.cards import parse_cards
    from compiler.runtime.engine import CallbackStrategy
    from compiler.runtime.shoe import ScriptedShoe

    mod = load_game(SPEC)[0]
    sub = load_submission(F + "688a-house-way-fictional.yaml", {"688a": ch688a})
    script = {("player", 1, "hand"): parse_cards("AH AD 8S 6C 4H QH JD"),
              ("dealer", None, "hand"): parse_cards("KS KD 9C 7H 5D 3S 2C")}
    t = mod.new_table(sub.selections, shoe=ScriptedShoe(script))
    res = t.play_round({1: {"face_up": 10}}, {1: CallbackStrategy(lambda d, c, v: "play", None,
                                                                  lambda s, c, v: parse_cards("QH JD"))})
    line = next(e for e in res.log if e.kind == "setting" and e.seat is None)
    assert "dealer sets the high hand KS KD 5D 3S 2C and the low hand 9C 7H" in line.text
    assert "rule 2: One pair" in line.text and line.cite == "§ 688a.11(a)"
