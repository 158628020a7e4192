"""Fixtures of the Rules Submission tests: the War rulespec, and a War variant that declares
every kind of option (choice, percent, money, a paytable column, an option with `when`, a
wager with `offered_by`) so that the generic checks are tested before 669a/670a/688a land."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "submissions"
WAR = ROOT / "rulespecs" / "567-war.yaml"
EXAMPLES = sorted((ROOT / "rulespecs" / "submissions").glob("*.yaml"))

VARIANT_OPTIONS = {
    "tie_offered": {"title": "Tie wager offered", "type": "boolean", "default": True, "cite": "§ 567.7(c)"},
    "tie_paytable": {"title": "Tie wager paytable", "type": "choice", "values": ["Paytable A", "Paytable B"],
                     "default": "Paytable A", "when": "option(tie_offered)", "cite": "§ 567.10(2)"},
    "dealing_method": {"title": "Dealing method", "type": "choice", "values": ["hand", "shoe"],
                       "cite": "§ 567.3(b)"},
    "shuffler_model": {"title": "Automated card shuffling device model", "type": "text",
                       "when": "option(automated_shuffler)", "cite": "§ 567.3(c)"},
    "rate_of_progression": {"title": "Rate of progression", "type": "percent", "minimum": 14, "maximum": 100,
                            "default": 15, "cite": "§ 567.10(3)"},
    "reset_amount": {"title": "Initial and reset amount", "type": "money", "minimum": 1000, "default": 1000,
                     "cite": "§ 567.10(3)"},
}
VARIANT_PAYTABLE = {
    "title": "Tie bonus", "cite": "§ 567.10(2)", "ranking": "war", "columns": ["Paytable A", "Paytable B"],
    "option": "tie_paytable", "header": "Hand",
    "rows": [{"hand": "high_card", "label": "Any tie", "pays": ["10 to 1", "11 to 1"]}],
}
VARIANT_CONSTRAINT = {"require": "option(dealing_method) != 'hand' or option(automated_shuffler)",
                      "message": "hand requires an automated card shuffling device", "cite": "§ 567.3(c)"}


def variant_text() -> str:
    d = yaml.safe_load(WAR.read_text(encoding="utf-8"))
    d = copy.deepcopy(d)
    d["options"].update(VARIANT_OPTIONS)
    d["wagers"]["tie"]["offered_by"] = "tie_offered"
    d["wagers"]["tie"]["paytable"] = "tie_bonus"
    d["paytables"] = {"tie_bonus": VARIANT_PAYTABLE}
    d["rankings"]["war"]["categories"] = [{"id": "high_card", "name": "High card", "pattern": {}}]
    d["constraints"].append(VARIANT_CONSTRAINT)
    d["table"]["equipment"].append({"item": "dealing shoe for hand-dealt play", "when": "option(dealing_method) == 'hand'",
                                    "cite": "§ 567.3(b)"})
    # the variant's options are invented for these tests; the provision text they cite does not state them
    why = "an option invented for the submission tests; the cited text does not state it"
    d.setdefault("untied", []).extend({"at": f"/options/{k}/{bound}", "why": why}
                                      for k, o in VARIANT_OPTIONS.items() for bound in ("minimum", "maximum")
                                      if bound in o)
    return yaml.safe_dump(d, sort_keys=False, allow_unicode=True)


@pytest.fixture(scope="session")
def war():
    from compiler.pipeline import compile_spec

    c = compile_spec("rulespecs/567-war.yaml", WAR.read_text(encoding="utf-8"))
    assert c.ok, [d.format() for d in c.errors]
    return c.chapter


@pytest.fixture(scope="session")
def variant():
    from compiler.pipeline import compile_spec

    c = compile_spec("tests/variant/567-war-variant.yaml", variant_text())
    assert c.ok, [d.format() for d in c.errors]
    return c.chapter
