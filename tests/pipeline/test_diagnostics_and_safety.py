"""Broken specs give positioned diagnostics, all at once; hostile strings compile to inert text.

Each broken spec is the War rulespec with one mutation; the expected line is found by searching
the mutated text, so the test checks the position independently of the compiler.
"""
from __future__ import annotations

import json
import re

import pytest

from compiler.cli import main
from compiler.codegen.generate import render_game_module
from compiler.pipeline import ROOT, _module, compile_spec

WAR = (ROOT / "rulespecs" / "567-war.yaml").read_text(encoding="utf-8")
HIGH = (ROOT / "tests" / "fixtures" / "specs" / "high-card.yaml").read_text(encoding="utf-8")


def mutate(old: str, new: str, text: str = WAR) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def line_of(text: str, needle: str, nth: int = 0) -> int:
    idx = -1
    for _ in range(nth + 1):
        idx = text.index(needle, idx + 1)
    return text.count("\n", 0, idx) + 1


def diags_of(text: str, name: str = "broken.yaml"):
    c = compile_spec(name, text)
    return c, [d.format() for d in c.diagnostics if d.is_error]


def test_valid_war_spec_has_no_errors():
    c, errs = diags_of(WAR, "rulespecs/567-war.yaml")
    assert c.ok and errs == []


def test_wrong_type_is_positioned_with_pointer():
    text = mutate("  max_positions: 7\n", "  max_positions: seven\n")
    _, errs = diags_of(text)
    line = line_of(text, "max_positions: seven")
    assert errs == [f"broken.yaml:{line}:18: error: expected integer, got string [at /table/max_positions]"]


def test_missing_field_names_the_field():
    text = mutate("    name: Tie wager\n    cite: § 567.7(c)\n", "    name: Tie wager\n")
    _, errs = diags_of(text)
    line = line_of(text, "  tie:\n    name: Tie wager")  # the mapping that lacks it, at its key
    assert errs == [f"broken.yaml:{line}:3: error: missing required field 'cite' [at /wagers/tie]"]


def test_duplicate_key_is_an_error_at_the_second_occurrence():
    text = mutate("  tie: {odds: 10 to 1, cite: § 567.10(2)}\n",
                  "  tie: {odds: 10 to 1, cite: § 567.10(2)}\n  tie: {odds: 11 to 1, cite: § 567.10(2)}\n")
    _, errs = diags_of(text)
    first, second = line_of(text, "  tie: {odds: 10"), line_of(text, "  tie: {odds: 11")
    assert len(errs) == 1
    assert errs[0].startswith(f"broken.yaml:{second}:3: error: duplicate key 'tie' (first defined at line {first})")


def test_bad_rule_expression_points_inside_the_yaml_string():
    text = mutate("when: hand(war, player.original) < hand(war, dealer.original)\n",
                  "when: hand(war, player.original) <> hand(war, dealer.original)\n")
    _, errs = diags_of(text)
    line = line_of(text, "<> hand(war")
    col = text.splitlines()[line - 1].index("<>") + 2  # the '>' of '<>' is unexpected
    assert len(errs) == 1 and errs[0].startswith(f"broken.yaml:{line}:{col}: error: rule syntax: unexpected '>'")
    assert errs[0].endswith("[at /procedure/4/rules/0/when]")


def test_unknown_wager_in_outcome_suggests_the_declared_one():
    text = mutate("then: lose initial; lose tie\n", "then: lose intial; lose tie\n")
    _, errs = diags_of(text)
    line = line_of(text, "lose intial")
    col = text.splitlines()[line - 1].index("lose intial") + 1
    assert errs == [f"broken.yaml:{line}:{col}: error: unknown wager 'intial' (did you mean 'initial'?) "
                    "[at /procedure/4/rules/0/then]"]


def test_dangling_citation_is_reported():
    text = mutate("  tie: {odds: 10 to 1, cite: § 567.10(2)}\n", "  tie: {odds: 10 to 1, cite: § 567.10(9)}\n")
    _, errs = diags_of(text)
    line = line_of(text, "§ 567.10(9)")
    assert errs == [f"broken.yaml:{line}:30: error: dangling citation: § 567.10(9) names no provision of § 567.10 "
                    "in this spec [at /payouts/tie/cite]"]


def test_citation_to_undeclared_external_section_is_reported():
    text = mutate("  - {cite: § 521.2, title: table games Rules Submissions}\n", "  - {cite: § 601a.2, title: other}\n")
    _, errs = diags_of(text)
    assert any("the text cites § 521.2: declare § 521.2 in 'externals'" in e for e in errs), errs


def test_all_errors_reported_at_once():
    text = mutate("  max_positions: 7\n", "  max_positions: seven\n")
    text = mutate("    name: Tie wager\n    cite: § 567.7(c)\n", "    name: Tie wager\n", text)
    _, errs = diags_of(text)
    assert len(errs) == 2


def test_paytable_rows_out_of_rank_order_are_an_error():
    ranking = """rankings:
  high:
    cite: § 999.3
    kind: poker
    cards: 2
    order: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
    categories:
      - {id: pair, name: Pair, pattern: {groups: [2]}}
      - {id: high_card, name: High card, pattern: {}}
paytables:
  bonus:
    cite: § 999.3
    ranking: high
    columns: [Payout]
    rows:
      - {hand: high_card, label: High card, pays: 1 to 1}
      - {hand: pair, label: Pair, pays: 10 to 1}
"""
    text = HIGH.replace("rankings:\n  high:\n    cite: § 999.3\n    kind: high_card\n"
                        "    order: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]\n", ranking)
    _, errs = diags_of(text)
    line = line_of(text, "{hand: pair, label: Pair")
    assert any(e.startswith(f"broken.yaml:{line}:") and "out of rank order" in e for e in errs), errs


def test_cli_validate_exits_1_and_prints_every_error(tmp_path, capsys):
    p = tmp_path / "bad.yaml"
    p.write_text(mutate("  max_positions: 7\n", "  max_positions: seven\n"), encoding="utf-8")
    assert main(["validate", str(p)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"bad\.yaml:\d+:\d+: error: expected integer, got string \[at /table/max_positions\]", err)
    assert "Traceback" not in err


def test_cli_validate_json(tmp_path, capsys):
    p = tmp_path / "bad.yaml"
    p.write_text(mutate("  max_positions: 7\n", "  max_positions: seven\n"), encoding="utf-8")
    assert main(["validate", str(p), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["diagnostics"][0]["pointer"] == "/table/max_positions"


def test_cli_build_with_a_broken_spec_writes_nothing(tmp_path, capsys, monkeypatch):
    from compiler import build as build_mod

    root = tmp_path / "proj"
    (root / "rulespecs").mkdir(parents=True)
    (root / "rulespecs" / "567-war.yaml").write_text(mutate("  max_positions: 7\n", "  max_positions: x\n"))
    res = build_mod.build(root)
    assert not res.ok and not (root / "generated").exists()


HOSTILE = [
    'x"""\nimport os\nos.system("echo pwned")\n"""',
    "{{ 7*7 }} {% raw %}",
    "</script><script>alert(1)</script><b>bold</b>",
    "'); __import__('os').system('echo pwned') #",
    "line1\nline2\r\n# comment\\",
]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_strings_compile_to_inert_text(hostile):
    if "\n" in hostile or "\r" in hostile:  # a title and a name are one line (docs/security.md): refused there,
        js = json.dumps(hostile)  # at each position; the same text on one line must still compile to inert text
        bad = HIGH.replace("title: High Card", f"title: {js}").replace("bet: {name: Bet,", f"bet: {{name: {js},")
        c = compile_spec("hostile.yaml", bad)
        assert not c.ok and {d.pointer for d in c.errors} == {"/title", "/wagers/bet/name"}
        assert all("one line of text" in d.message or "carriage return" in d.message for d in c.errors)
        hostile = hostile.replace("\r", " ").replace("\n", " ")
    js = json.dumps(hostile)  # a YAML double-quoted scalar
    text = HIGH.replace("title: High Card", f"title: {js}")
    text = text.replace("bet: {name: Bet,", f"bet: {{name: {js},")
    text = text.replace("      - {cite: § 999.3, when: \"hand(high, player.up) == hand(high, dealer.up)\", then: push bet}",
                        "      - {cite: § 999.3, when: \"hand(high, player.up) == hand(high, dealer.up)\", then: push bet}\n"
                        f"      - {{cite: § 999.3, when: \"false\", then: {json.dumps('note ' + repr(hostile.replace(chr(39), '').replace(chr(10), ' ').replace(chr(13), ' ')))}}}")
    c = compile_spec("hostile.yaml", text)
    assert c.ok, [d.format() for d in c.diagnostics]
    src = render_game_module(c.chapter)
    compile(src, "hostile", "exec")  # still valid Python
    mod = _module("hostile_" + str(abs(hash(hostile))), src)
    assert mod.TITLE == hostile
    assert mod.WAGERS["bet"].name == hostile
    import ast

    names = {n.id for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Name)}
    attrs = {n.attr for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Attribute)}
    assert not ({"os", "__import__", "eval", "exec"} & names) and "system" not in attrs
    imports = [n for n in ast.walk(ast.parse(src)) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all((getattr(n, "module", "") or "") in ("decimal", "fractions")
               or (getattr(n, "module", "") or "").startswith("compiler.runtime.") for n in imports)
    # the forms: HTML escaped, Markdown escaped, template syntax not evaluated
    from compiler.build import chapter_outputs

    out = chapter_outputs(c.chapter)
    html = out["generated/forms/999-" + c.chapter.slug.split("-", 1)[1] + "-rules-submission.html"]
    assert "<script>alert" not in html and "<b>bold" not in html
    assert "49" not in html.replace("2099", "")
    text_html = out[f"generated/text/{c.chapter.slug}.html"]
    assert "<script>alert" not in text_html
    md = out[f"generated/forms/{c.chapter.slug}-rules-submission.md"]
    assert "<script>" not in md


def test_new_chapter_in_yaml_only_plays_and_analyzes():
    """A chapter the compiler has never seen, using known card primitives, needs no Python."""
    from fractions import Fraction

    from compiler.analysis.report import analyze_engine
    from compiler.runtime.engine import Strategy

    c = compile_spec("tests/fixtures/specs/high-card.yaml", HIGH)
    assert c.ok, [d.format() for d in c.diagnostics]
    mod = _module("highcard", render_game_module(c.chapter))
    t = mod.new_table(seed=3)
    for _ in range(200):
        t.play_round({1: {"bet": 5}, 2: {"bet": 5}}, Strategy())
    assert t.ledger.balance() == 0
    figs = analyze_engine(mod.GAME)
    # symmetric game, ties push: expected return exactly 0; P(tie) = 3/51 by counting
    assert figs[0].expected_return == 0
    assert figs[0].outcomes["0"] == Fraction(3, 51)
