"""Each invalid submission of tests/fixtures/submissions is rejected with its exact message,
position and citation."""
from __future__ import annotations

import pytest

from compiler.spec.diagnostics import DiagnosticError
from compiler.submission.document import load_submission
from submission_fixtures import FIX

F = "tests/fixtures/submissions/"

EXPECTED = {
    "decks-below-minimum.yaml": [
        "9:10: error: decks: 4 is below the 6 minimum of § 567.3(a); § 567.3(c) [at /selections/decks]"],
    "adjacent-above-maximum.yaml": [
        "10:23: error: adjacent_positions: 3 is above the 2 maximum of § 567.7(e) [at /selections/adjacent_positions]"],
    "constraint-no-shuffler-decks.yaml": [
        "10:10: error: decks: without an automated card shuffling device War is played with six to eight decks "
        "(§ 567.3(a)) [at /selections/decks]"],
    "constraint-shuffler-decks.yaml": [
        "10:10: error: decks: the decks are separated into two batches with an equal number of decks in each "
        "(§ 567.3(c)(2)) [at /selections/decks]",
        "10:10: error: decks: with an automated card shuffling device War is played with 12 to 16 decks "
        "(§ 567.3(c)) [at /selections/decks]"],
    "constraint-unequal-batches.yaml": [
        "10:10: error: decks: the decks are separated into two batches with an equal number of decks in each "
        "(§ 567.3(c)(2)) [at /selections/decks]"],
    "option-of-another-chapter.yaml": [
        "10:3: error: unknown option 'pair_plus_paytable' for Chapter 567 (its options are 'automated_shuffler', "
        "'decks', 'adjacent_positions') [at /selections/pair_plus_paytable]"],
    "misspelt-option.yaml": [
        "9:3: error: unknown option 'deck' for Chapter 567 (did you mean 'decks'?) [at /selections/deck]"],
    "boolean-not-yes-no.yaml": [
        "9:23: error: automated_shuffler: expected yes or no, got 'maybe' (§ 567.3(c)) [at /selections/automated_shuffler]"],
    "integer-not-a-number.yaml": [
        "9:10: error: decks: expected a whole number, got 'eight' (§ 567.3(a); § 567.3(c)) [at /selections/decks]"],
    "chapter-without-rulespec.yaml": [
        "5:17: error: Chapter 999 has no rulespec; Rules Submissions can be checked for Chapter 567 [at /game/chapter]"],
    "chapter-not-a-string.yaml": [
        "5:17: error: the chapter is a string: write chapter: \"567\" [at /game/chapter]"],
    "missing-facility.yaml": [
        "2:1: error: missing required field 'facility' [at (root)]"],
    "unknown-header-field.yaml": [
        "2:1: error: missing required field 'effective_date' [at (root)]",
        "6:1: error: unknown field 'efective_date' (did you mean 'effective_date'?) [at /efective_date]"],
    "effective-date-not-a-date.yaml": [
        "6:17: error: effective_date: 2025-02-30 is not a calendar date [at /effective_date]"],
    "wrong-game-title.yaml": [
        "5:31: error: game title 'Casino War Deluxe' is not the title of Chapter 567 ('War') [at /game/title]"],
    "wrong-edition.yaml": [
        "5:33: error: edition '52 Pa.B. 7001' is not the text the rulespec of Chapter 567 follows: "
        "40 Pa.B. 1911 (temporary rulemaking, 2010-04-10) [at /game/edition]"],
    "yaml-syntax-error.yaml": [
        "5:11: error: expected ',' or ']', but got ':' (while parsing a flow sequence started at line 4)"],
    # against the War variant (choice, percent, money, paytable and conditional options)
    "variant-percent-below-minimum.yaml": [
        "10:24: error: rate_of_progression: 12% is below the 14% minimum of § 567.10(3) "
        "[at /selections/rate_of_progression]"],
    "variant-money-below-minimum.yaml": [
        "10:17: error: reset_amount: $500 is below the $1,000 minimum of § 567.10(3) [at /selections/reset_amount]"],
    "variant-unknown-paytable-letter.yaml": [
        "10:17: error: tie_paytable: there is no Paytable C in the Tie bonus paytable of § 567.10(2); "
        "choose Paytable A or Paytable B [at /selections/tie_paytable]"],
    "variant-constraint-hand-needs-shuffler.yaml": [
        "9:19: error: dealing_method: hand requires an automated card shuffling device (§ 567.3(c)) "
        "[at /selections/dealing_method]"],
    "variant-missing-required-option.yaml": [
        "8:1: error: missing selection 'dealing_method': Dealing method (§ 567.3(b)) [at /selections]"],
    "variant-missing-option-required-when.yaml": [
        "8:1: error: missing selection 'shuffler_model': Automated card shuffling device model (required when "
        "Automated card shuffling device used: yes) (§ 567.3(c)) [at /selections]"],
    "variant-choice-not-allowed.yaml": [
        "9:19: error: dealing_method: 'hnad' is not allowed by § 567.3(b); choose hand or shoe (did you mean 'hand'?) "
        "[at /selections/dealing_method]"],
}


def test_every_fixture_has_an_expectation():
    # 688a-*.yaml: Chapter 688a house-way submissions, checked by tests/submission/test_house_way.py
    assert sorted(p.name for p in FIX.glob("*.yaml") if not p.name.startswith("688a-")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_rejected_with_exact_message(name, war, variant):
    ch = variant if name.startswith("variant-") else war
    with pytest.raises(DiagnosticError) as e:
        load_submission(F + name, {"567": ch})
    assert [d.format() for d in e.value.diagnostics] == [F + name + ":" + x for x in EXPECTED[name]]


def test_valid_variant_submission_normalises_values(variant):
    text = (FIX / "variant-percent-below-minimum.yaml").read_text().replace("12%", "14.5%") \
        + '  reset_amount: "$1,250.00"\n  tie_paytable: Paytable B\n'
    sub = load_submission("x.yaml", {"567": variant}, text)
    from decimal import Decimal

    assert sub.selections == {"dealing_method": "shoe", "rate_of_progression": Decimal("14.5"),
                              "reset_amount": Decimal("1250.00"), "tie_paytable": "Paytable B"}
    assert sub.effective["decks"] == 6 and sub.effective["tie_offered"] is True


def test_option_that_does_not_apply_is_a_warning(variant):
    text = (FIX / "variant-missing-required-option.yaml").read_text() \
        + "  dealing_method: shoe\n  tie_offered: false\n  tie_paytable: Paytable B\n"
    sub = load_submission("x.yaml", {"567": variant}, text)
    assert [d.format() for d in sub.diagnostics] == [
        "x.yaml:12:17: warning: tie_paytable: applies only when Tie wager offered: yes, which the other selections "
        "do not meet; it has no effect (§ 567.10(2)) [at /selections/tie_paytable]"]
    assert "tie_paytable" not in sub.effective
