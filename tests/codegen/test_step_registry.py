"""The step kinds are one registry (compiler/steps/): the schema, the IR, the docs and the engine derive from it."""
from __future__ import annotations

import json
from pathlib import Path


from compiler.steps import KINDS, step_schema
from compiler.steps.__main__ import doc_text

ROOT = Path(__file__).resolve().parents[2]


def test_schema_step_definition_is_the_registrys():
    schema = json.loads((ROOT / "schemas" / "rulespec.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["step"] == step_schema()
    assert schema["$defs"]["step"]["properties"]["do"]["enum"] == list(KINDS)


def test_docs_table_of_step_kinds_is_the_registrys():
    text = (ROOT / "docs" / "spec-format.md").read_text(encoding="utf-8")
    assert text == doc_text()
    for kind in KINDS:
        assert f"| `{kind}` |" in text


def test_every_kind_has_an_executor_and_no_executor_lacks_a_kind():
    from compiler.runtime.steps import EXECUTORS

    assert set(EXECUTORS) == set(KINDS)


def test_a_field_of_another_kind_of_step_is_an_error_at_its_position(tmp_path):
    from compiler.pipeline import compile_spec

    src = (ROOT / "rulespecs" / "567-war.yaml").read_text(encoding="utf-8")
    bad = src.replace("    to: dealer\n    zone: original\n", "    to: dealer\n    zone: original\n    dice: 2\n", 1)
    assert bad != src
    p = tmp_path / "567-war.yaml"
    p.write_text(bad, encoding="utf-8")
    msgs = [d.format() if hasattr(d, "format") else str(d) for d in compile_spec(str(p), bad).diagnostics]
    assert any("'dice' is not a field of a 'deal' step" in m and "/dice]" in m for m in msgs), msgs


def test_envy_step_names_its_bonus_no_default_name():
    assert "name" in KINDS["envy"].required
    assert "Envy" not in (ROOT / "compiler" / "runtime" / "settlement.py").read_text(encoding="utf-8")


def test_a_step_parameter_naming_a_wager_is_checked_against_the_spec(tmp_path):
    from compiler.pipeline import compile_spec

    src = (ROOT / "rulespecs" / "567-war.yaml").read_text(encoding="utf-8")
    assert "  - id: offer_war_tie\n    do: offer\n    wager: war_tie\n" in src
    bad = src.replace("  - id: offer_war_tie\n    do: offer\n    wager: war_tie\n",
                      "  - id: offer_war_tie\n    do: offer\n    wager: war_tye\n", 1)
    msgs = [d.format() for d in compile_spec(str(tmp_path / "567-war.yaml"), bad).diagnostics]
    assert any("unknown wager 'war_tye'" in m and "/wager]" in m for m in msgs), msgs


def test_docs_list_every_field_the_schema_requires():
    """docs/spec-format.md's table of required fields is the schema's (issue 27: `cards.reshuffle` was required
    but not documented as such)."""
    from compiler.steps.required import required_fields

    schema = json.loads((ROOT / "schemas" / "rulespec.schema.json").read_text(encoding="utf-8"))
    text = (ROOT / "docs" / "spec-format.md").read_text(encoding="utf-8")
    rows = dict(required_fields(schema))
    assert "`reshuffle`" in rows["cards"] and "`cite`" in rows["wagers.*"]
    assert "| `cards` | `deck`, `reshuffle` |" in text
    for place, keys in rows.items():
        for k in keys:
            assert k in text
    # an object the schema requires keys of, found independently of the generator: every required key is listed
    for key, prop in schema["properties"].items():
        for r in prop.get("required", ()):
            assert f"`{r}`" in rows[key]
