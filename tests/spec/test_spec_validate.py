"""compiler.spec.validate: schema errors as positioned, readable diagnostics."""

from __future__ import annotations

import json
import os
from decimal import Decimal

import pytest

from compiler.spec.diagnostics import DiagnosticError
from compiler.spec.loader import load_document
from compiler.spec.validate import (
    check_schema,
    load_schema,
    schema_diagnostics,
    suggest,
    validate_document,
)

# A tiny stand-in for schemas/rulespec.schema.json (written elsewhere).
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["chapter", "paytables"],
    "additionalProperties": False,
    "properties": {
        "chapter": {"type": "string", "pattern": "^[0-9]+a?$", "description": "a chapter number like 567 or 669a"},
        "cite": {"type": "string", "pattern": "^§ ", "x-message": "must be a citation like § 567.9(c)(2)"},
        "legacy": False,
        "minimum_wager": {"type": "number", "minimum": 1, "multipleOf": 0.01},
        "count": {"type": "integer"},
        "tags": {"type": "array", "uniqueItems": True, "items": {"type": "string"}},
        "paytables": {"type": "object", "additionalProperties": {"$ref": "#/$defs/paytable"}},
    },
    "$defs": {
        "odds": {"oneOf": [{"type": "string", "pattern": "^[0-9,]+ (to|for) [0-9]+$"}, {"const": "Push"}]},
        "paytable": {
            "type": "object",
            "required": ["title", "cite", "ranking"],
            "additionalProperties": False,
            "properties": {
                "title": {"type": "string", "minLength": 1},
                "cite": {"type": "string"},
                "ranking": {"enum": ["high_card", "three_card", "five_card"]},
                "odds": {"$ref": "#/$defs/odds"},
                "columns": {"type": "array", "minItems": 1, "items": {"type": "string"}},
            },
        },
    },
}


def diags(text: str, schema: dict = SCHEMA, path: str = "s.yaml") -> list[str]:
    return [d.format() for d in schema_diagnostics(load_document(path, text), schema)]


def test_valid_document_has_no_diagnostics():
    text = 'chapter: "567"\nminimum_wager: 5.25\npaytables:\n  war: {title: War, cite: § 567.9, ranking: high_card, odds: 1 to 1}\n'
    assert diags(text) == []
    doc = load_document("s.yaml", text)
    assert validate_document(doc, SCHEMA) == []


def test_required_missing_field():
    assert diags('chapter: "567"\npaytables:\n  war:\n    title: War\n    ranking: high_card\n') == [
        "s.yaml:3:3: error: missing required field 'cite' [at /paytables/war]",
    ]
    assert diags("{}") == [
        "s.yaml:1:1: error: missing required field 'chapter' [at (root)]",
        "s.yaml:1:1: error: missing required field 'paytables' [at (root)]",
    ]


def test_unknown_field_points_at_key_with_suggestion():
    text = 'chapter: "567"\npaytables:\n  war:\n    title: War\n    cite: x\n    ranking: high_card\n    odz: 3 to 2\n    zzz: 1\nchaptre: 5\n'
    assert diags(text) == [
        "s.yaml:7:5: error: unknown field 'odz' (did you mean 'odds'?) [at /paytables/war/odz]",
        "s.yaml:8:5: error: unknown field 'zzz' [at /paytables/war/zzz]",
        "s.yaml:9:1: error: unknown field 'chaptre' [at /chaptre]",  # 'chapter' is present: no hint
    ]


def test_a_rule_cut_at_a_comma_of_a_flow_mapping_says_to_quote_it():
    """`{cite: ..., when: picked(place, dice.total) and ..., then: ...}`: YAML ends the value at the comma and
    reads the rest as a field; the error says why and what to do (a regulator's slip, found writing Crapless
    Craps)."""
    text = 'chapter: "567"\npaytables: {war: {title: War, cite: x, ranking: picked(place, dice.total) and y}}\n'
    d = diags(text)[-1]
    assert d.startswith("s.yaml:2:63: error: unknown field 'dice.total) and y': a comma inside a {...} mapping ends "
                        "the value, so a rule with a comma, such as 'picked(W, dice.total)', is cut there; put the "
                        "whole rule in quotes [at /paytables/war/dice.total) and y]")


def test_false_property_schema():
    assert diags('chapter: "567"\npaytables: {}\nlegacy:\n  x: 1\n') == [
        "s.yaml:3:1: error: field 'legacy' is not allowed here [at /legacy]",
    ]


def test_type_messages():
    assert diags('chapter: 567\npaytables: []\ncount: true\n') == [
        "s.yaml:1:10: error: expected string, got integer [at /chapter]",
        "s.yaml:2:12: error: expected object, got array [at /paytables]",
        "s.yaml:3:8: error: expected integer, got boolean [at /count]",
    ]
    assert diags("") == ["s.yaml:1:1: error: expected object, got null [at (root)]"]


def test_enum_lists_values_and_suggests():
    text = 'chapter: "567"\npaytables:\n  war: {title: War, cite: x, ranking: hig_card}\n  tie: {title: Tie, cite: x, ranking: 5}\n'
    assert diags(text) == [
        "s.yaml:3:39: error: expected one of 'high_card', 'three_card', 'five_card', got 'hig_card' "
        "(did you mean 'high_card'?) [at /paytables/war/ranking]",
        "s.yaml:4:39: error: expected one of 'high_card', 'three_card', 'five_card', got 5 [at /paytables/tie/ranking]",
    ]


def test_pattern_with_description_and_x_message():
    assert diags('chapter: "56x"\ncite: 567.9\npaytables: {}\n') == [
        "s.yaml:1:10: error: '56x' does not match the expected form: a chapter number like 567 or 669a [at /chapter]",
        "s.yaml:2:7: error: must be a citation like § 567.9(c)(2) (got 567.9) [at /cite]",
    ]
    assert diags('chapter: "567"\ncite: "567.9"\npaytables: {}\n') == [
        "s.yaml:2:7: error: must be a citation like § 567.9(c)(2) (got '567.9') [at /cite]",
    ]
    plain = {"type": "string", "pattern": "^[a-z]+$"}
    assert diags("Abc\n", plain) == ["s.yaml:1:1: error: 'Abc' does not match the pattern '^[a-z]+$' [at (root)]"]


def test_one_of_reports_best_sub_error_only():
    text = 'chapter: "567"\npaytables:\n  war: {title: War, cite: x, ranking: high_card, odds: [1]}\n  tie: {title: Tie, cite: x, ranking: high_card, odds: 3 too 2}\n'
    assert diags(text) == [
        "s.yaml:3:56: error: expected string, got array [at /paytables/war/odds]",
        "s.yaml:4:56: error: '3 too 2' does not match the pattern '^[0-9,]+ (to|for) [0-9]+$' [at /paytables/tie/odds]",
    ]


def test_one_of_with_x_message():
    schema = {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^x"}], "x-message": "must be a count or an x-word"}
    assert diags("[1]\n", schema) == ["s.yaml:1:1: error: must be a count or an x-word [at (root)]"]
    assert diags("y\n", schema) == ["s.yaml:1:1: error: must be a count or an x-word (got 'y') [at (root)]"]
    both = {"oneOf": [{"type": "integer"}, {"type": "number"}]}
    assert diags("3\n", both) == ["s.yaml:1:1: error: value matches more than one alternative (oneOf) [at (root)]"]


def test_numbers_decimal_and_bool():
    # Decimal is a JSON number; bool is neither integer nor number; 2.0 is a number, not an integer.
    number = {"type": "number"}
    integer = {"type": "integer"}
    assert diags("1.50\n", number) == []
    assert diags("true\n", number) == ["s.yaml:1:1: error: expected number, got boolean [at (root)]"]
    assert diags("false\n", integer) == ["s.yaml:1:1: error: expected integer, got boolean [at (root)]"]
    assert diags("2.0\n", integer) == ["s.yaml:1:1: error: expected integer, got number [at (root)]"]
    assert diags("2\n", integer) == []


def test_float_keywords_in_schema_work_exactly_with_decimal():
    assert diags('chapter: "567"\npaytables: {}\nminimum_wager: 2.005\n') == [
        "s.yaml:3:16: error: must be a multiple of 0.01, got 2.005 [at /minimum_wager]",
    ]
    assert diags('chapter: "567"\npaytables: {}\nminimum_wager: 0.10\n') == [
        "s.yaml:3:16: error: must be >= 1, got 0.10 [at /minimum_wager]",
    ]
    assert diags("0.1\n", {"enum": [0.1, 0.2]}) == []
    assert diags("0.3\n", {"const": 0.1}) == ["s.yaml:1:1: error: expected 0.1, got 0.3 [at (root)]"]
    assert SCHEMA["properties"]["minimum_wager"]["multipleOf"] == 0.01  # the caller's schema is untouched


def test_sizes_and_uniqueness():
    text = 'chapter: "567"\npaytables:\n  war: {title: "", cite: x, ranking: high_card, columns: []}\ntags: [a, b, a]\n'
    assert diags(text) == [
        "s.yaml:3:16: error: must not be empty [at /paytables/war/title]",
        "s.yaml:3:58: error: must not be empty [at /paytables/war/columns]",
        "s.yaml:4:14: error: duplicate item 'a' (same as item 0); items must be unique [at /tags/2]",
    ]
    assert diags("abc\n", {"maxLength": 2}) == ["s.yaml:1:1: error: must be at most 2 characters long, got 3 [at (root)]"]
    assert diags("[1]\n", {"minItems": 2}) == ["s.yaml:1:1: error: must have at least 2 items, got 1 [at (root)]"]
    assert diags("5\n", {"exclusiveMaximum": 5}) == ["s.yaml:1:1: error: must be < 5, got 5 [at (root)]"]


def test_property_names_point_at_the_key():
    schema = {"type": "object", "propertyNames": {"pattern": "^[a-z_]+$", "description": "a lowercase id"}}
    assert diags("ok: 1\nBad: 2\n", schema) == [
        "s.yaml:2:1: error: invalid field name 'Bad': a lowercase id [at /Bad]",
    ]


def test_unevaluated_properties_and_dependent_required():
    schema = {
        "type": "object",
        "allOf": [{"properties": {"title": {}}}],
        "properties": {"odds": {}, "cite": {}},
        "unevaluatedProperties": False,
        "dependentRequired": {"odds": ["cite"]},
    }
    assert diags("titel: x\nodds: 1\n", schema) == [
        "s.yaml:1:1: error: missing field 'cite' (required when 'odds' is present) [at (root)]",
        "s.yaml:1:1: error: unknown field 'titel' (did you mean 'title'?) [at /titel]",
    ]


def test_duplicates_removed_and_sorted_by_position():
    schema = {"allOf": [{"required": ["a"]}, {"required": ["a"]}], "properties": {"z": {"type": "string"}, "b": {"type": "string"}}}
    assert diags("z: 1\nb: 2\n", schema) == [
        "s.yaml:1:1: error: missing required field 'a' [at (root)]",
        "s.yaml:1:4: error: expected string, got integer [at /z]",
        "s.yaml:2:4: error: expected string, got integer [at /b]",
    ]


def test_validate_document_raises():
    doc = load_document("s.yaml", "{}\n")
    with pytest.raises(DiagnosticError) as info:
        validate_document(doc, SCHEMA)
    assert len(info.value.diagnostics) == 2


def test_suggest():
    assert suggest("odz", ["odds", "cite"]) == "odds"
    assert suggest("ctie", ["cite"]) == "cite"  # transposition counts once
    assert suggest("titel", ["title", "tile"]) == "title"
    assert suggest("xy", ["id"]) is None  # would rewrite the whole word
    assert suggest("ranking", ["columns"]) is None
    assert suggest("cite", ["cite"]) is None


# --------------------------------------------------------------------------- schema files


def test_check_schema():
    assert check_schema(SCHEMA) == []
    bad_text = '{\n  "type": "strin",\n  "properties": {"a": {"minimum": "x"}}\n}\n'
    assert [d.format() for d in check_schema(json.loads(bad_text), "x.json", bad_text)] == [
        "x.json:2:11: error: invalid schema: 'strin' is not valid under any of the given schemas [at /type]",
        "x.json:3:35: error: invalid schema: 'x' is not of type 'number' [at /properties/a/minimum]",
    ]


def test_load_schema_caches_and_reloads(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"type": "object", "properties": {"m": {"multipleOf": 0.01}}}))
    first = load_schema(path)
    assert first["properties"]["m"]["multipleOf"] == Decimal("0.01")
    assert load_schema(str(path)) is first
    path.write_text(json.dumps({"type": "array"}))
    os.utime(path, ns=(1, 1))  # make the change visible even within the mtime granularity
    assert load_schema(path) == {"type": "array"}


def test_load_schema_errors(tmp_path):
    missing = tmp_path / "none.json"
    with pytest.raises(DiagnosticError) as info:
        load_schema(missing)
    assert str(info.value) == f"{missing}:1:1: error: schema file not found"
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "type": "object",\n  oops\n}\n')
    with pytest.raises(DiagnosticError) as info:
        load_schema(bad)
    assert str(info.value) == f"{bad}:3:3: error: invalid JSON: Expecting property name enclosed in double quotes"
    invalid = tmp_path / "invalid.json"
    invalid.write_text('{"minLength": -1}')
    with pytest.raises(DiagnosticError) as info:
        load_schema(invalid)
    assert str(info.value) == f"{invalid}:1:15: error: invalid schema: -1 is less than the minimum of 0 [at /minLength]"


def test_alternatives_that_differ_by_one_field_name_them_all():
    """A paytable row gives its `hand` or its `value`, a payout its `odds`, `odds_option` or `unpriced`: a
    missing one names every field that would do, not only the first, and two given say to give one."""
    schema = {"type": "object", "properties": {"hand": {}, "value": {}, "label": {}},
              "oneOf": [{"required": ["hand"]}, {"required": ["value"]}]}
    assert diags("label: x\n", schema) == [
        "s.yaml:1:1: error: missing one of the fields 'hand' or 'value' [at (root)]"]
    assert diags("hand: x\nvalue: 9\n", schema) == [
        "s.yaml:1:1: error: give only one of the fields 'hand' or 'value' [at (root)]"]
    assert diags("value: 9\n", schema) == []
