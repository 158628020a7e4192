"""Specs that `validate` once accepted and that crashed later (issue 12.4, 10.4), and inputs that
crashed or hung `validate` itself (issue 12.5): each is now a positioned error.

Every broken spec is a seeded spec with one edit; the expected line and column are found by
searching the edited text for the edit, independently of the compiler.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.pipeline import ROOT, compile_spec
from compiler.spec import limits

WAR = (ROOT / "rulespecs" / "567-war.yaml").read_text(encoding="utf-8")
HIGH = (ROOT / "tests" / "fixtures" / "specs" / "high-card.yaml").read_text(encoding="utf-8")
WIN_RULE = 'when: "hand(high, player.up) > hand(high, dealer.up)"'


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def at(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """1-based (line, column) of *needle* in *text*, plus *offset* columns."""
    i = text.index(needle)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col + offset


def errors(text: str, name: str = "b.yaml") -> list[str]:
    return [d.format() for d in compile_spec(name, text).diagnostics if d.is_error]


def one_error(text: str, needle: str, message: str, pointer: str, offset: int = 0) -> None:
    line, col = at(text, needle, offset)
    assert errors(text) == [f"b.yaml:{line}:{col}: error: {message} [at {pointer}]"]


# ----------------------------------------------------------------------------- 12.4: found by validate


def test_payout_odds_dividing_by_zero():
    text = edit(HIGH, "odds: 1 to 1", "odds: 1 to 0")
    one_error(text, "1 to 0", "odds '1 to 0' divide by zero", "/payouts/even/odds")


def test_inline_odds_dividing_by_zero_point_at_the_denominator():
    text = edit(HIGH, "then: win bet}", "then: win bet at 3 to 0}")
    one_error(text, "3 to 0", "rule syntax: odds '3 to 0' divide by zero", "/procedure/2/rules/0/then", offset=5)


def test_reshuffle_marker_with_zero_denominator():
    text = edit(WAR, "from_bottom: 1/4", "from_bottom: 1/0")
    one_error(text, "1/0", "fraction 1/0 has a zero denominator", "/cards/reshuffle_marker/from_bottom")


def test_reshuffle_marker_beyond_the_stack():
    text = edit(WAR, "from_bottom: 1/4", "from_bottom: 5/4")
    one_error(text, "5/4", "the reshuffle marker is 5/4 of the stack from the bottom: at most 1/1 (the whole stack)",
              "/cards/reshuffle_marker/from_bottom")


def test_unknown_rank_symbol_queen():
    text = edit(HIGH, "order: [A, K, Q,", "order: [A, K, 'Queen',")
    one_error(text, "'Queen'", "unknown rank 'Queen' (ranks are 2 to 9, T (or 10), J, Q, K and A)",
              "/rankings/high/order/2")


def test_rank_listed_twice():
    text = edit(HIGH, "order: [A, K, Q,", "order: [A, K, K,")
    one_error(text, "K, K", "rank 'K' appears twice in the order (first at item 1)", "/rankings/high/order/2",
              offset=3)


def test_rank_missing_from_the_order():
    text = edit(HIGH, "order: [A, K, Q, J, T,", "order: [A, K, J,")
    one_error(text, "[A, K, J,", "the order lacks the ranks Q, T: every rank of the deck must be ranked",
              "/rankings/high/order")


def test_card_zz_in_a_named_hand():
    text = edit(HIGH, "    order: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]\n",
                "    order: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]\n    hands:\n      top: {cards: [AS, ZZ]}\n")
    one_error(text, "ZZ", "cannot read card 'ZZ': unknown suit 'Z' (use S, H, D or C)",
              "/rankings/high/hands/top/cards/1")


def test_pattern_rank_not_a_rank():
    text = edit(HIGH, "    order: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]\n",
                "    order: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]\n"
                "    categories:\n      - {id: top, name: Top, pattern: {high: Queen}}\n"
                "      - {id: high_card, name: High card, pattern: {}}\n")
    one_error(text, "Queen}", "unknown rank 'Queen' in high (ranks are 2 to 9, T (or 10), J, Q, K and A)",
              "/rankings/high/categories/0/pattern/high")


def test_ranking_the_runtime_cannot_build_is_refused():
    # no catch-all category: a hand of a lower rank matches no category
    text = edit(HIGH, "    order: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]\n",
                "    order: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]\n"
                "    categories:\n      - {id: ace, name: Ace, pattern: {high: A}}\n")
    [err] = errors(text)
    line, col = at(text, "  high:\n    cite", 2)
    assert err.startswith(f"b.yaml:{line}:{col}: error: the runtime cannot build ranking 'high': ")
    assert err.endswith("[at /rankings/high]")


def test_unknown_event_name():
    text = edit(WAR, "event: face_up_card", "event: face_up_cardz")
    one_error(text, "face_up_cardz",
              "unknown event 'face_up_cardz' (did you mean 'face_up_card'?): the runtime raises only the events "
              "listed in docs/rule-language.md", "/irregularities/0/event")


def test_requires_a_wager_that_does_not_exist():
    text = edit(WAR, "requires: [initial]", "requires: [nonexistent]")
    one_error(text, "nonexistent", "unknown wager 'nonexistent': 'requires' names wagers of this spec",
              "/wagers/tie/requires/0")


def test_negative_amount():
    text = edit(HIGH, "bet: {name: Bet, cite: § 999.3, required: true, pays: even}",
                "bet: {name: Bet, cite: § 999.3, required: true, pays: even, amounts: [5, -5]}")
    one_error(text, "-5]", "an amount must be positive, got -5", "/wagers/bet/amounts/1")


def test_amount_in_fractions_of_a_cent():
    text = edit(HIGH, "bet: {name: Bet, cite: § 999.3, required: true, pays: even}",
                "bet: {name: Bet, cite: § 999.3, required: true, pays: even, min: 0.005}")
    one_error(text, "0.005", "the minimum wager 0.005 is not a whole number of cents", "/wagers/bet/min")


def test_option_minimum_above_maximum():
    text = edit(WAR, "    minimum: 0\n    maximum: 2\n", "    minimum: 3\n    maximum: 2\n")
    line, col = at(text, "minimum: 3", 9)
    dline, dcol = at(text, "default: 0\n    cite: § 567.7(e)", 9)
    assert errors(text) == [
        f"b.yaml:{line}:{col}: error: minimum 3 is above the maximum 2 [at /options/adjacent_positions/minimum]",
        f"b.yaml:{dline}:{dcol}: error: the default 0 is below the minimum 3 [at /options/adjacent_positions/default]",
    ]


def test_option_default_out_of_range():
    text = edit(WAR, "    default: 6\n", "    default: 20\n")
    one_error(text, "default: 20", "the default 20 is above the maximum 16", "/options/decks/default", offset=9)


def test_option_default_of_the_wrong_type():
    text = edit(WAR, "    type: boolean\n    default: false\n", "    type: boolean\n    default: maybe\n")
    one_error(text, "default: maybe", "the default of a boolean option must be true or false, got 'maybe'",
              "/options/automated_shuffler/default", offset=9)


def test_wager_settled_twice_in_one_rule():
    text = edit(HIGH, "then: win bet}", "then: win bet; lose bet}")
    one_error(text, "lose bet}", "wager 'bet' is settled twice in this rule: 'lose bet' after 'win bet'",
              "/procedure/2/rules/0/then")


def test_wager_settled_after_all_in_one_rule():
    text = edit(WAR, "then: lose initial; lose tie\n", "then: lose all; win tie\n")
    one_error(text, "win tie\n", "wager 'tie' is settled twice in this rule: 'win tie' after 'lose all'",
              "/procedure/4/rules/0/then")


def test_settling_a_wager_placed_after_all_is_not_twice():
    text = edit(HIGH, "then: win bet}", "then: lose all; place bet = 1; win bet}")
    assert errors(text) == []


def test_no_wager_can_be_placed():
    text = edit(HIGH, "required: true, ", "placed: during_round, ")
    one_error(text, "wagers:", "no wager can be placed before the deal, so no round can be played: a wager the "
                               "player must place has 'required: true' (and no 'placed: during_round' or "
                               "'offered_by')", "/wagers")


def test_paytable_printed_in_the_text_but_absent_from_the_data():
    text = edit(HIGH, "    text: High Card is played", "    tables: [{paytable: bonus}]\n    text: High Card is played")
    one_error(text, "bonus}", "unknown paytable 'bonus': the provision prints a table that is not in 'paytables'",
              "/provisions/0/tables/0/paytable")


def test_decks_option_without_a_minimum_of_one():
    text = edit(WAR, "    minimum: 6\n    maximum: 16\n    default: 6\n", "    minimum: 0\n    maximum: 16\n    default: 0\n")
    one_error(text, "minimum: 0", "the decks option 'decks' needs a minimum of at least 1", "/options/decks/minimum",
              offset=9)


def test_all_errors_at_once():
    text = edit(HIGH, "odds: 1 to 1", "odds: 1 to 0")
    text = edit(text, "order: [A, K, Q,", "order: [A, K, 'Queen',")
    text = edit(text, "then: win bet}", "then: win bet; lose bet}")
    assert [e.split(": error: ")[1] for e in errors(text)] == [
        "unknown rank 'Queen' (ranks are 2 to 9, T (or 10), J, Q, K and A) [at /rankings/high/order/2]",
        "odds '1 to 0' divide by zero [at /payouts/even/odds]",
        "wager 'bet' is settled twice in this rule: 'lose bet' after 'win bet' [at /procedure/2/rules/0/then]",
    ]


# ----------------------------------------------------------------------------- 12.5: validate itself


def test_surrender_zero_over_zero():
    text = edit(WAR, "surrender initial 1/2", "surrender initial 0/0")
    one_error(text, "0/0", "rule syntax: fraction 0/0 has a zero denominator", "/procedure/5/choices/0/then")


def test_five_thousand_digit_integer_in_an_expression():
    text = edit(HIGH, WIN_RULE, 'when: "count(player.up) > ' + "9" * 5000 + '"')
    one_error(text, '"count', "rule syntax: rule longer than 2,000 characters (5,019); split it",
              "/procedure/2/rules/0/when", offset=1)


def test_sixteen_digit_integer_in_an_expression():
    text = edit(HIGH, WIN_RULE, 'when: "count(player.up) > ' + "9" * 16 + '"')
    one_error(text, "9999", "rule syntax: number with more than 15 digits", "/procedure/2/rules/0/when")


def test_eight_hundred_term_and_chain_is_refused_by_length():
    text = edit(HIGH, WIN_RULE, 'when: "' + " and ".join(["active()"] * 800) + '"')
    one_error(text, '"active', "rule syntax: rule longer than 2,000 characters (10,395); split it",
              "/procedure/2/rules/0/when", offset=1)


def test_long_and_chain_within_the_length_limit_is_one_level():
    text = edit(HIGH, WIN_RULE, 'when: "' + " and ".join(["active()"] * 150) + '"')
    assert errors(text) == []


def test_five_thousand_nested_not():
    text = edit(HIGH, WIN_RULE, 'when: "' + "not " * 5000 + 'active()"')
    one_error(text, '"not', "rule syntax: rule longer than 2,000 characters (20,008); split it",
              "/procedure/2/rules/0/when", offset=1)


def test_nesting_within_the_length_limit_is_refused_by_depth():
    text = edit(HIGH, WIN_RULE, 'when: "' + "not " * 300 + 'active()"')
    [err] = errors(text)
    line, _ = at(text, '"not')
    assert err.startswith(f"b.yaml:{line}:")
    assert err.endswith(f"error: rule syntax: rule nested more than {limits.MAX_EXPR_DEPTH} levels deep "
                        f"(simplify it) [at /procedure/2/rules/0/when]")


def test_provision_without_a_label():
    text = edit(HIGH, "  - section: \"999.2\"\n    heading: Table.\n",
                "  - section: \"999.2\"\n    heading: Table.\n    children:\n      - text: no label here\n")
    one_error(text, "- text: no label", "missing one of the fields 'label' or 'elided'", "/provisions/0/children/0", offset=2)


def test_yaml_list_of_millions_of_lines_is_refused_before_parsing(monkeypatch):
    import compiler.spec.loader as loader

    def never(*args):
        raise AssertionError("the YAML parser must not see a file beyond the size limit")

    monkeypatch.setattr(loader, "compose", never)
    text = "items:\n" + "- 1\n" * 8_000_000
    assert errors(text) == [f"b.yaml:1:1: error: file is larger than {limits.MAX_FILE_BYTES:,} bytes, the limit for "
                            f"a rulespec (docs/spec-format.md, Limits)"]


def test_too_many_nodes_stop_at_the_first_one_beyond():
    text = "items:\n" + "- 1\n" * (limits.MAX_NODES + 10)
    # node 1 is the root mapping, node 2 the key, node 3 the list, node k + 3 the item k on line k + 1
    line = (limits.MAX_NODES + 1 - 3) + 1
    assert errors(text) == [f"b.yaml:{line}:3: error: more than {limits.MAX_NODES:,} YAML nodes, the limit for a "
                            f"rulespec (docs/spec-format.md, Limits)"]


def test_huge_yaml_integer_is_refused():
    text = edit(HIGH, "max_positions: 5", "max_positions: " + "9" * 4000)
    one_error(text, "9999", "number with more than 15 digits (quote it if it is text)", "/table/max_positions")


def test_huge_exponent_is_refused():
    text = edit(WAR, "    default: 6\n", "    default: 1.0e+400\n")
    one_error(text, "1.0e+400", "number with more than 15 digits (quote it if it is text)", "/options/decks/default")


def test_file_too_large_is_refused_before_reading_it_all(tmp_path: Path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" + b"#" * (limits.MAX_FILE_BYTES + 1))
    c = compile_spec(big)
    assert [d.format() for d in c.diagnostics] == [
        f"{big}:1:1: error: file is larger than {limits.MAX_FILE_BYTES:,} bytes, the limit for a rulespec "
        f"(docs/spec-format.md, Limits)"]


@pytest.mark.parametrize("doc_name", ["spec-format.md", "security.md"])
@pytest.mark.parametrize("name", sorted(limits.LIMITS))
def test_every_limit_is_documented_with_its_value(name, doc_name):
    doc = (ROOT / "docs" / doc_name).read_text(encoding="utf-8")
    limits_section = doc[doc.index("## Limits"):]
    assert f"`{name}`" in limits_section
    assert f"{limits.LIMITS[name]:,}" in limits_section.split(f"`{name}`")[1].split("\n")[0]


def test_zone_never_dealt_to_that_owner():
    text = edit(HIGH, "  - {id: deal_dealer, do: deal, to: dealer, zone: up,", "  - {id: deal_dealer, do: deal, to: dealer, zone: down,")
    errs = errors(text)
    assert len(errs) == 3  # the three settle rules read dealer.up
    line, col = at(text, "dealer.up)\"")
    assert errs[0] == (f"b.yaml:{line}:{col}: error: no step deals the dealer a zone 'up', so dealer.up would "
                       f"always be empty [at /procedure/2/rules/0/when]")


# ----------------------------------------------------------------------------- the command line


def test_cli_validate_reports_every_later_crash_at_once_and_writes_nothing(capsys):
    from compiler.cli import main

    path = "tests/fixtures/broken/later_crashes.yaml"
    text = (ROOT / path).read_text(encoding="utf-8")
    generated = {p: p.stat().st_mtime_ns for p in (ROOT / "generated").rglob("*") if p.is_file()}
    assert main(["validate", path]) == 1
    out = capsys.readouterr()
    expected = [
        ("'Queen'", "unknown rank 'Queen' (ranks are 2 to 9, T (or 10), J, Q, K and A)", "/rankings/high/order/2"),
        ("nonexistent", "unknown wager 'nonexistent': 'requires' names wagers of this spec", "/wagers/bet/requires/0"),
        ("-5]", "an amount must be positive, got -5", "/wagers/bet/amounts/0"),
        ("1 to 0", "odds '1 to 0' divide by zero", "/payouts/even/odds"),
        ("dealer.up)\"", "no step deals the dealer a zone 'up', so dealer.up would always be empty",
         "/procedure/2/rules/0/when"),
        ("lose bet}", "wager 'bet' is settled twice in this rule: 'lose bet' after 'win bet'",
         "/procedure/2/rules/0/then"),
    ]
    lines = out.err.splitlines()
    for needle, message, pointer in expected:
        line, col = at(text, needle)
        assert f"{path}:{line}:{col}: error: {message} [at {pointer}]" in lines
    assert any(ln.endswith("unknown paytable 'bonus': the provision prints a table that is not in 'paytables' "
                           "[at /provisions/0/tables/0/paytable]") for ln in lines)
    assert len(lines) == 9 and all(ln.startswith(f"{path}:") and ": error: " in ln for ln in lines)
    assert "Traceback" not in out.err + out.out and "valid" not in out.out
    assert generated == {p: p.stat().st_mtime_ns for p in (ROOT / "generated").rglob("*") if p.is_file()}


def test_the_events_validate_accepts_are_those_the_rule_language_documents():
    import re

    from compiler.lint.checks import EVENTS

    doc = (ROOT / "docs" / "rule-language.md").read_text(encoding="utf-8")
    listed = doc[doc.index("Known event names"):doc.index("A chapter answers the events its")]
    assert sorted(set(re.findall(r"`([a-z_]+)`", listed)) - {"events", "before", "after", "seat", "cards", "count",
                                                              "cards.cut.offer"}) == sorted(EVENTS)


def test_win_without_odds_for_a_wager_without_a_payout():
    text = edit(HIGH, "required: true, pays: even}", "required: true}")
    text = edit(text, "    text: High Card is played", "    text: High Card is played")
    line, col = at(text, "win bet}")
    assert errors(text)[0] == (f"b.yaml:{line}:{col}: error: 'win bet' pays the wager's default payout, but wager "
                               f"'bet' has no 'pays': give it one or write 'win bet at PAYOUT' "
                               f"[at /procedure/2/rules/0/then]")
