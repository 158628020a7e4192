"""ROUND.yaml: a hand history from which one round can be settled (docs/round-format.md).

```yaml
rulespec_round: 1
chapter: "567"
options: {decks: 6}              # the casino's selections (defaults from the spec otherwise)
first_after_shuffle: true        # optional: first round after a shuffle (burn card)
new_dealer: false                # optional
positions:
  1: {wagers: {initial: 10, tie: 2}, choices: {tie_hand_option: war}, offers: {war_tie: 5}}
  3: {wagers: {initial: 25}}
dealt:
  1: {original: [7H], war: [KD]}
  3: {original: [2C]}
  dealer: {original: [7S], war: [9C]}
burned: [AS, 2D, 3D, 4D]         # optional
events:
  - {event: face_up_card, before: deal_players, cards: [9H]}
```
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from compiler.runtime.cards import CardError, parse_card
from compiler.runtime.engine import CallbackStrategy, Strategy
from compiler.runtime.money import MoneyError, money
from compiler.runtime.shoe import ScriptedShoe
from compiler.spec.diagnostics import Diagnostic, DiagnosticError
from compiler.spec.loader import Document, load_document
from compiler.spec.validate import schema_diagnostics

ROUND_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["rulespec_round", "chapter", "positions", "dealt"],
    "properties": {
        "rulespec_round": {"const": 1},
        "chapter": {"type": "string"},
        "title": {"type": "string"},
        "note": {"type": "string"},
        "options": {"type": "object"},
        "submission": {"type": "string"},
        "first_after_shuffle": {"type": "boolean"},
        "new_dealer": {"type": "boolean"},
        "meters": {"type": "object", "additionalProperties": {"type": ["integer", "number", "string"]}},
        "positions": {
            "type": "object", "minProperties": 1,
            "propertyNames": {"pattern": "^[0-9]+$"},
            "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["wagers"],
                "properties": {
                    "player": {"type": "string"},
                    "wagers": {"type": "object", "additionalProperties": {"type": ["integer", "number", "string"]}},
                    "choices": {"type": "object", "additionalProperties": {"type": "string"}},
                    "offers": {"type": "object", "additionalProperties": {"type": ["integer", "number", "string"]}},
                    # pai gow: the player's setting (the cards of the low hand, or of the high hand),
                    # or 'house_way': the player had the hands set the way the house requires
                    "setting": {"oneOf": [
                        {"const": "house_way"},
                        {"type": "object", "additionalProperties": False, "minProperties": 1, "properties": {
                            "low": {"type": "array", "items": {"type": "string"}},
                            "high": {"type": "array", "items": {"type": "string"}}}}]},
                },
            },
        },
        "dealt": {
            "type": "object",
            "propertyNames": {"pattern": "^([0-9]+|dealer|community)$"},
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
        },
        "burned": {"type": "array", "items": {"type": "string"}},
        # rolls of the round's `roll` steps: dice faces, or the number a random number generator showed
        "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}, "minItems": 1},
        "random_number": {"type": "integer", "minimum": 1},
        # pai gow: the dealer's setting as the dealer made it (checked against the house way)
        "dealer_setting": {"type": "object", "additionalProperties": False, "minProperties": 1, "properties": {
            "low": {"type": "array", "items": {"type": "string"}},
            "high": {"type": "array", "items": {"type": "string"}}}},
        "events": {"type": "array", "items": {"type": "object", "required": ["event"], "properties": {
            "event": {"type": "string"}, "before": {"type": "string"}, "after": {"type": "string"},
            "seat": {"type": "integer"}, "count": {"type": "integer"}, "cards": {"type": "array", "items": {"type": "string"}},
        }}},
        "expect": {"type": "object"},
    },
}


@dataclass
class RoundSpec:
    doc: Document
    chapter: str
    options: dict
    bets: dict[int, dict[str, Decimal]]
    choices: dict[int, dict[str, str]]
    offers: dict[int, dict[str, Decimal]]
    dealt: dict[tuple, list]
    burned: list
    events: list[dict]
    first_after_shuffle: bool = True
    new_dealer: bool = False
    expect: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)
    meters: dict = field(default_factory=dict)  # meter id -> reading before the round
    settings: dict = field(default_factory=dict)  # seat -> 'house_way' | {'low': cards} | {'high': cards}
    rolls: list = field(default_factory=list)  # dice faces / random numbers, in the order of the roll steps
    dealer_setting: dict | None = None  # {'low': cards} | {'high': cards}

    def strategy(self) -> dict[int, Strategy]:
        out = {}
        for seat in self.bets:
            ch = self.choices.get(seat, {})
            of = self.offers.get(seat, {})

            def choose(decision, options, view, ch=ch, seat=seat):
                if decision in ch:
                    return ch[decision]
                raise DecisionMissing(seat, decision, options)

            def setting(step, candidates, view, seat=seat):
                given = self.settings.get(seat)
                if given is None:
                    raise DecisionMissing(seat, step, ["house_way", "setting: {low: [cards]}"])
                if given == "house_way":
                    return None
                found = _setting_of(candidates, given)
                if found is None:
                    raise SettingError(f"seat {seat}: the setting {given} is not made of the cards dealt to the "
                                       "position (the low hand's cards, or the high hand's)")
                return found

            out[seat] = CallbackStrategy(choose, lambda w, view, of=of: of.get(w, 0), setting)
        return out

    def shoe(self) -> ScriptedShoe:
        return ScriptedShoe(self.dealt, self.burned)


def _setting_of(candidates, given: dict):
    for high, low in candidates:
        if "low" in given and sorted(low) == sorted(given["low"]):
            return high, low
        if "low" not in given and sorted(high) == sorted(given["high"]):
            return high, low
    return None


class SettingError(Exception):
    """A setting in a hand history that is not made of the cards dealt."""


class DecisionMissing(Exception):
    def __init__(self, seat, decision, options):
        super().__init__(f"seat {seat}: the round file gives no choice for {decision!r} (one of {list(options)})")
        self.seat, self.decision, self.options = seat, decision, options


def load_round(path: str) -> RoundSpec:
    doc = load_document(path)
    diags = schema_diagnostics(doc, ROUND_SCHEMA)
    if diags:
        raise DiagnosticError(diags)
    d = doc.data
    errs: list[Diagnostic] = []

    def card(text, ptr):
        try:
            return parse_card(text)
        except CardError as e:
            errs.append(doc.diagnostic(ptr, str(e)))
            return None

    def amt(v, ptr):
        try:
            return money(v)
        except MoneyError as e:
            errs.append(doc.diagnostic(ptr, str(e)))
            return Decimal(0)

    bets, choices, offers = {}, {}, {}
    for k, pos in d["positions"].items():
        s = int(k)
        bets[s] = {w: amt(v, f"/positions/{k}/wagers/{w}") for w, v in pos["wagers"].items()}
        choices[s] = dict(pos.get("choices") or {})
        offers[s] = {w: amt(v, f"/positions/{k}/offers/{w}") for w, v in (pos.get("offers") or {}).items()}
    dealt = {}
    seen: dict[int, str] = {}
    for who, zones in d["dealt"].items():
        for z, cards in zones.items():
            parsed = [card(c, f"/dealt/{who}/{z}/{i}") for i, c in enumerate(cards)]
            key = ("player", int(who), z) if who.isdigit() else (who, None, z)
            dealt[key] = parsed
    burned = [card(c, f"/burned/{i}") for i, c in enumerate(d.get("burned") or ())]
    events = []
    for i, e in enumerate(d.get("events") or ()):
        e = dict(e)
        if "cards" in e:
            e["cards"] = [card(c, f"/events/{i}/cards/{j}") for j, c in enumerate(e["cards"])]
        events.append(e)
    settings_ = {}
    for k, pos in d["positions"].items():
        st = pos.get("setting")
        if isinstance(st, dict):
            st = {h: [card(c, f"/positions/{k}/setting/{h}/{i}") for i, c in enumerate(v)] for h, v in st.items()}
        if st is not None:
            settings_[int(k)] = st
    dealer_setting = None
    if d.get("dealer_setting"):
        dealer_setting = {h: [card(c, f"/dealer_setting/{h}/{i}") for i, c in enumerate(v)]
                          for h, v in d["dealer_setting"].items()}
    rolls = []
    if d.get("dice"):
        rolls.append(list(d["dice"]))
    if d.get("random_number") is not None:
        rolls.append([d["random_number"]])
    if errs:
        raise DiagnosticError(errs)
    rs = RoundSpec(doc, str(d["chapter"]), dict(d.get("options") or {}), bets, choices, offers, dealt, burned,
                     events, bool(d.get("first_after_shuffle", True)), bool(d.get("new_dealer", False)),
                     dict(d.get("expect") or {}),
                     {int(k): v["player"] for k, v in d["positions"].items() if "player" in v},
                     {k: amt(v, f"/meters/{k}") for k, v in (d.get("meters") or {}).items()},
                     settings_, rolls, dealer_setting)
    return rs
