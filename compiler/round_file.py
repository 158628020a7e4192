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
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from compiler.round_checks import check_cards, check_carried, check_events, check_meters, check_seats
from compiler.runtime.cards import CardError, card_str, parse_card
from compiler.runtime.engine import CallbackStrategy, Strategy, Table
from compiler.runtime.money import MoneyError, money
from compiler.runtime.shoe import ScriptedShoe
from compiler.spec.diagnostics import Diagnostic, DiagnosticError, escape_token
from compiler.spec.loader import Document, load_document
from compiler.spec.validate import schema_diagnostics
from compiler.submission.document import check_value

ROUND_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["rulespec_round", "chapter", "positions", "dealt"],
    "$defs": {"kept": {"type": "object", "additionalProperties": {"oneOf": [
        {"type": ["integer", "boolean"]},
        {"type": "object", "additionalProperties": {"type": ["integer", "boolean"]}}]}},
              "bet": {"oneOf": [  # an amount, or {amount, numbers} for a wager on chosen numbers
                  {"type": ["integer", "number", "string"]},
                  {"type": "object", "additionalProperties": False, "required": ["amount", "numbers"], "properties": {
                      "amount": {"type": ["integer", "number", "string"]},
                      "numbers": {"type": "array", "minItems": 1, "items": {"type": ["integer", "string"]}}}}]}},
    "properties": {
        "rulespec_round": {"const": 1},
        "chapter": {"type": "string"},
        # the rulespec the round is played under, relative to this file (default: rulespecs/NNN-*.yaml)
        "rulespec": {"type": "string", "minLength": 1},
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
                "type": "object", "additionalProperties": False,
                "anyOf": [{"required": ["wagers"]}, {"required": ["carried"]}],
                "properties": {
                    "player": {"type": "string"},
                    # the wagers the position begins the round with on the layout, carried from the previous
                    # round (`stays: until_settled`), and the per-player state they keep (`keeps`); an instance of
                    # a wager of several (`several: true`) as `come#2`, its own state as `state: {come#2: {...}}`
                    "carried": {"type": "object", "minProperties": 1,
                                "additionalProperties": {"type": ["integer", "number", "string"]}},
                    "state": {"$ref": "#/$defs/kept"},
                    # a wager placed on numbers the player chose (`choose`): {amount: 5, numbers: [17, 20]}; a
                    # list: the instances of a wager a player may have several of (`several: true`), in order
                    "wagers": {"type": "object", "additionalProperties": {"oneOf": [
                        {"$ref": "#/$defs/bet"}, {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/bet"}}]}},
                    # decision step id -> choice; a list: the choices of a decision taken again and again
                    # (a decide step in a `repeat` loop), in order
                    "choices": {"type": "object", "additionalProperties": {"oneOf": [
                        {"type": "string"}, {"type": "array", "minItems": 1, "items": {"type": "string"}}]}},
                    # wager -> amount; a list: the answers to an offer made again and again (in a `repeat`
                    # loop), in order, 0 for one declined
                    "offers": {"type": "object", "additionalProperties": {"oneOf": [
                        {"type": ["integer", "number", "string"]},
                        {"type": "array", "minItems": 1, "items": {"type": ["integer", "number", "string"]}}]}},
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
        # every roll of the round, in the order of its `roll` steps: the dice faces, or [the number a random
        # number generator showed]; `dice:` / `random_number:` are the older form of a round of one roll
        # (a wheel's spin: [the pocket's label])
        "rolls": {"type": "array", "items": {"type": "array", "minItems": 1,
                                             "items": {"oneOf": [{"type": "integer", "minimum": 1},
                                                                 {"type": "string", "minLength": 1}]}}},
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
        # the settlement established from the rules, compared by `rulespec settle --check`
        "expect": {"type": "object", "additionalProperties": False, "properties": {
            "void": {"type": "boolean"},
            "results": {"type": "array", "items": {
                "type": "object", "required": ["seat", "wager", "outcome", "net", "cite"], "additionalProperties": False,
                "properties": {"seat": {"type": "integer"}, "hand": {"type": "integer", "minimum": 1},
                               "wager": {"type": "string"}, "outcome": {"type": "string"},
                               "net": {"type": ["integer", "number", "string", "null"]}, "cite": {"type": "string"},
                               "why": {"type": "string"}}}},
            "net_by_seat": {"type": "object", "additionalProperties": {"type": ["integer", "number", "string"]}},
            # the wagers left on the layout when the round ends (`stays: until_settled`), seat by seat, as the
            # next round's `positions: {N: {carried: ..., state: ...}}` gives them
            "carried": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"}, "additionalProperties": {
                "type": "object", "additionalProperties": False, "properties": {
                    "carried": {"type": "object", "additionalProperties": {"type": ["integer", "number", "string"]}},
                    "state": {"$ref": "#/$defs/kept"}}}},
        }},
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
    chosen: dict = field(default_factory=dict)  # seat -> {wager: the numbers / pockets it is placed on}
    taken: dict = field(default_factory=dict)  # (seat, decision) -> how many of a list of choices were taken
    carried: dict = field(default_factory=dict)  # seat -> {"wagers": {id: amount}, "state": {...}} on the layout

    def placed(self) -> dict[int, dict]:
        """The bets as the table takes them: a wager on chosen numbers as {"amount": A, "numbers": [...]}."""
        def bet(a, numbers):
            return a if numbers is None else {"amount": a, "numbers": numbers}
        return {s: {w: ([bet(x, n) for x, n in zip(a, self.chosen.get(s, {}).get(w) or [None] * len(a))]
                        if isinstance(a, list) else bet(a, self.chosen.get(s, {}).get(w)))
                    for w, a in ws.items()} for s, ws in self.bets.items()}

    def strategy(self) -> dict[int, Strategy]:
        out = {}
        self.taken.clear()
        for seat in self.bets:
            ch = self.choices.get(seat, {})
            of = self.offers.get(seat, {})

            def choose(decision, options, view, ch=ch, seat=seat):
                c = ch.get(decision)
                if isinstance(c, list):  # one choice each time the decision is taken, in order
                    i = self.taken.get((seat, decision), 0)
                    if i >= len(c):
                        raise DecisionMissing(seat, decision, options, given=len(c))
                    self.taken[(seat, decision)] = i + 1
                    return c[i]
                if c is not None:
                    self.taken[(seat, decision)] = self.taken.get((seat, decision), 0) + 1
                    return c
                raise DecisionMissing(seat, decision, options)

            def setting(step, candidates, view, seat=seat):
                given = self.settings.get(seat)
                if given is None:
                    raise DecisionMissing(seat, step, ["house_way", "setting: {low: [cards]}"])
                if given == "house_way":
                    return None
                found = _setting_of(candidates, given)
                if found is None:
                    shown = {h: " ".join(card_str(c) for c in v if c is not None) for h, v in given.items()}
                    raise SettingError(f"seat {seat}: the setting {shown} is not made of the cards dealt to the "
                                       "position (the low hand's cards, or the high hand's)",
                                       f"/positions/{seat}/setting")
                return found

            def offer(w, view, of=of, seat=seat):
                a = of.get(w, 0)
                if isinstance(a, list):  # one answer each time the wager is offered, in order
                    i = self.taken.get((seat, "offer", w), 0)
                    if i >= len(a):
                        raise DecisionMissing(seat, f"offer of {w}", ["an amount", "0"], given=len(a),
                                              pointer=f"/positions/{seat}/offers/{escape_token(w)}")
                    self.taken[(seat, "offer", w)] = i + 1
                    return a[i]
                return a

            out[seat] = CallbackStrategy(choose, offer, setting)
        return out

    def unused_choices(self) -> list[Diagnostic]:
        """A list of choices the round did not take to its end: more choices than the round asked for."""
        out = []
        for seat, ch in self.choices.items():
            for did, c in ch.items():
                n = self.taken.get((seat, did), 0)
                if isinstance(c, list) and n < len(c):
                    out.append(self.doc.diagnostic(f"/positions/{seat}/choices/{escape_token(did)}/{n}",
                                                   f"seat {seat}: the hand history gives {len(c)} choices for {did!r}; "
                                                   f"the round asked for {n}"))

        for seat, of in self.offers.items():
            for w, a in of.items():
                n = self.taken.get((seat, "offer", w), 0)
                if isinstance(a, list) and n < len(a):
                    out.append(self.doc.diagnostic(f"/positions/{seat}/offers/{escape_token(w)}/{n}",
                                                   f"seat {seat}: the hand history gives {len(a)} answers to the offer "
                                                   f"of {w!r}; the round offered it {n} times"))
        return out

    def unasked_choices(self) -> list[str]:
        """The choices given for a decision the round never put to the seat (Red Dog: a Raise recorded on
        consecutive cards, which end the hand before the decision): warnings, as cards never dealt are."""
        return [f"seat {seat}: the hand history gives the choice {c!r} for {did!r}, which the round never asked"
                for seat, ch in self.choices.items() for did, c in ch.items()
                if not isinstance(c, list) and not self.taken.get((seat, did))]

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

    def __init__(self, message: str, pointer: str | None = None):
        super().__init__(message)
        self.pointer = pointer


class DecisionMissing(Exception):
    def __init__(self, seat, decision, options, given: int | None = None, pointer: str | None = None):
        more = "" if given is None else f" after the {given} it lists: the round asks for one more"
        super().__init__(f"seat {seat}: the round file gives no choice for {decision!r}{more} (one of {list(options)})")
        self.seat, self.decision, self.options = seat, decision, options
        self.pointer = pointer or (f"/positions/{seat}" if given is None else
                                   f"/positions/{seat}/choices/{escape_token(decision)}")


def diagnostic_of(rs: "RoundSpec", exc: Exception) -> Diagnostic:
    """A positioned error for an exception raised while a hand history is played: at the pointer the
    exception carries, else at the cards of the target it was dealing to, else at the seat its
    message names, else at the start of the file."""
    doc = rs.doc
    ptr = getattr(exc, "pointer", None)
    target = getattr(exc, "target", None)
    if ptr is None and target is not None:
        owner, seat, zone = target
        who = str(seat) if owner in ("player", "unwagered") else owner
        ptr = f"/dealt/{who}/{escape_token(zone)}" if doc.has(f"/dealt/{who}") else "/dealt"
    if ptr is None:
        m = re.search(r"\bseat (\d+)", str(exc))
        if m and doc.has(f"/positions/{m.group(1)}"):
            ptr = f"/positions/{m.group(1)}"
    return doc.diagnostic(ptr or "", str(exc))


def load_round(path: str) -> RoundSpec:
    doc = load_document(path)
    diags = schema_diagnostics(doc, ROUND_SCHEMA)
    if diags:
        raise DiagnosticError(diags)
    d = doc.data
    rd = _Reader(doc)
    bets, choices, offers, chosen = _positions(d, rd)
    carried = {int(k): {"wagers": {w: rd.stake(v, f"/positions/{k}/carried/{escape_token(w)}")
                                   for w, v in (pos.get("carried") or {}).items()}, "state": dict(pos.get("state") or {})}
               for k, pos in d["positions"].items() if pos.get("carried") or pos.get("state")}
    dealt, burned, events = _cards_dealt(d, rd)
    settings_, dealer_setting = _settings(d, rd)
    rolls = _rolls(d, rd)
    meters = _meters(d, rd)
    if rd.errs:
        raise DiagnosticError(rd.errs)
    rs = RoundSpec(doc, str(d["chapter"]), dict(d.get("options") or {}), bets, choices, offers, dealt, burned,
                     events, bool(d.get("first_after_shuffle", True)), bool(d.get("new_dealer", False)),
                     dict(d.get("expect") or {}),
                     {int(k): v["player"] for k, v in d["positions"].items() if "player" in v},
                     meters, settings=settings_, rolls=rolls, dealer_setting=dealer_setting, chosen=chosen,
                     carried=carried)
    return rs


class _Reader:
    """The cards and amounts of a hand history read one by one: a value that cannot be read is a
    positioned error in ``errs`` (every one at once) and a stand-in (None, 0) in the round."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.errs: list[Diagnostic] = []

    def card(self, text, ptr):
        try:
            return parse_card(text)
        except CardError as e:
            self.errs.append(self.doc.diagnostic(ptr, str(e)))
            return None

    def amount(self, v, ptr):
        try:
            return money(v)
        except MoneyError as e:
            self.errs.append(self.doc.diagnostic(ptr, str(e)))
            return Decimal(0)

    def stake(self, v, ptr):
        a = self.amount(v, ptr)
        if a < 0:
            self.errs.append(self.doc.diagnostic(ptr, f"a wager is not negative: {v}"))
        return a


def _positions(d: dict, rd: _Reader) -> tuple[dict, dict, dict, dict]:
    """Seat by seat: (wagers, choices, answers to offers, the numbers a wager is placed on)."""
    bets, choices, offers, chosen = {}, {}, {}, {}
    for k, pos in d["positions"].items():
        s = int(k)
        bets[s], chosen[s] = {}, {}
        for w, v in (pos.get("wagers") or {}).items():
            ptr = f"/positions/{k}/wagers/{escape_token(w)}"
            if isinstance(v, list):  # the instances of a wager of several, each its amount and any numbers
                bets[s][w] = [rd.stake(x["amount"] if isinstance(x, dict) else x,
                                       f"{ptr}/{i}" + ("/amount" if isinstance(x, dict) else "")) for i, x in enumerate(v)]
                if any(isinstance(x, dict) for x in v):
                    chosen[s][w] = [list(x["numbers"]) if isinstance(x, dict) else None for x in v]
                continue
            bets[s][w] = rd.stake(v["amount"] if isinstance(v, dict) else v, ptr + ("/amount" if isinstance(v, dict) else ""))
            if isinstance(v, dict):
                chosen[s][w] = list(v["numbers"])
        choices[s] = dict(pos.get("choices") or {})
        offers[s] = {w: ([rd.stake(x, f"/positions/{k}/offers/{escape_token(w)}/{i}") for i, x in enumerate(v)]
                         if isinstance(v, list) else rd.stake(v, f"/positions/{k}/offers/{escape_token(w)}"))
                     for w, v in (pos.get("offers") or {}).items()}
    return bets, choices, offers, chosen


def _cards_dealt(d: dict, rd: _Reader) -> tuple[dict, list, list[dict]]:
    """(the cards dealt, by (owner, seat, zone); the cards burned; the events, their cards read)."""
    dealt = {}
    for who, zones in d["dealt"].items():
        for z, cards in zones.items():
            parsed = [rd.card(c, f"/dealt/{who}/{z}/{i}") for i, c in enumerate(cards)]
            key = ("player", int(who), z) if who.isdigit() else (who, None, z)
            dealt[key] = parsed
    burned = [rd.card(c, f"/burned/{i}") for i, c in enumerate(d.get("burned") or ())]
    events = []
    for i, e in enumerate(d.get("events") or ()):
        e = dict(e)
        if "cards" in e:
            e["cards"] = [rd.card(c, f"/events/{i}/cards/{j}") for j, c in enumerate(e["cards"])]
        e["_ptr"] = f"/events/{i}"
        events.append(e)
    return dealt, burned, events


def _settings(d: dict, rd: _Reader) -> tuple[dict, dict | None]:
    """Pai gow: (the players' settings by seat, the dealer's setting), their cards read."""
    settings_ = {}
    for k, pos in d["positions"].items():
        st = pos.get("setting")
        if isinstance(st, dict):
            st = {h: [rd.card(c, f"/positions/{k}/setting/{h}/{i}") for i, c in enumerate(v)] for h, v in st.items()}
        if st is not None:
            settings_[int(k)] = st
    dealer_setting = None
    if d.get("dealer_setting"):
        dealer_setting = {h: [rd.card(c, f"/dealer_setting/{h}/{i}") for i, c in enumerate(v)]
                          for h, v in d["dealer_setting"].items()}
    return settings_, dealer_setting


def _rolls(d: dict, rd: _Reader) -> list:
    """Every roll of the round in order: ``rolls``, or the older ``dice`` / ``random_number``."""
    rolls = [list(r) for r in d.get("rolls") or ()]
    if rolls and (d.get("dice") or d.get("random_number") is not None):
        rd.errs.append(rd.doc.diagnostic("/rolls", "give every roll in `rolls`, or the older `dice` / `random_number`, "
                                                   "not both"))
    if d.get("dice"):
        rolls.append(list(d["dice"]))
    if d.get("random_number") is not None:
        rolls.append([d["random_number"]])
    return rolls


def _meters(d: dict, rd: _Reader) -> dict:
    """Each meter's reading before the round (not negative)."""
    meters = {k: rd.amount(v, f"/meters/{escape_token(k)}") for k, v in (d.get("meters") or {}).items()}
    for k, v in meters.items():
        if v < 0:
            rd.errs.append(rd.doc.diagnostic(f"/meters/{escape_token(k)}", f"meter {k!r}: a reading is not negative"))
    return meters


# ---------------------------------------------------------------------------------------------
# Checking a hand history against the chapter before it is settled
# ---------------------------------------------------------------------------------------------


def check_options(chapter, given: dict) -> tuple[dict, list[tuple[str, str]]]:
    """Each selection checked against the options of the chapter (its IR) (known option, type, values,
    bounds, with its citation): (normalised selections, [(option id, message)])."""
    options = chapter.options
    out, errs = {}, []
    for oid, value in given.items():
        if oid not in options:
            errs.append((oid, f"Chapter {chapter.chapter} has no option {oid!r}; its options are "
                              f"{', '.join(sorted(options)) or 'none'}"))
            continue
        v, msg = check_value(chapter, oid, options[oid].spec, value)
        if msg is not None:
            errs.append((oid, msg))
        else:
            out[oid] = v
    return out, errs


def check_round(rs: RoundSpec, game, chapter, extra: dict | None = None) -> tuple[dict, list[Diagnostic]]:
    """Check a hand history against the chapter before it is played: its options (known, in the
    chapter's bounds, not breaking a Rules Submission condition), seats, wagers, choices, meters,
    events (known, before/after a step of the procedure, at a seat with a wager) and cards (of the
    chapter's deck, no card more often than the shoe holds it).

    ``extra``: selections from a Rules Submission or the command line (already checked; they win
    over the history's ``options:``). Returns (the table's selections, every error at once)."""
    errs: list[Diagnostic] = []
    opts, table = _table_of(rs, game, chapter, extra, errs)
    check_seats(rs, game, table, errs)
    check_carried(rs, game, table, errs)
    check_meters(rs, game, errs)
    check_events(rs, game, table, errs)
    check_cards(rs, game, table, errs)
    return opts, errs


def _table_of(rs: RoundSpec, game, chapter, extra: dict | None, errs: list[Diagnostic]):
    """The history's selections checked (``extra`` winning over them) and the table they make, None
    when a selection is wrong: (the table's selections, the table)."""
    doc = rs.doc
    opts, bad = check_options(chapter, rs.options)  # chapter: the IR
    for oid, msg in bad:
        known = oid in chapter.options
        errs.append(doc.diagnostic(f"/options/{escape_token(oid)}", f"option {oid}: {msg}" if known else msg,
                                   at_key=not known))
    opts = {**opts, **(extra or {})}
    table = None
    if not bad:
        try:
            table = Table(game, opts, seed=0, shoe=rs.shoe())
        except Exception as e:  # pragma: no cover - options already checked
            errs.append(doc.diagnostic("/options" if doc.has("/options") else "", f"options: {e}"))
        if table is not None:
            for cite, message in table.violations():
                errs.append(doc.diagnostic("/options" if doc.has("/options") else "",
                                           f"the selections break {cite}: {message}"))
    return opts, table


def check_expected(rs: "RoundSpec", result) -> list[Diagnostic]:
    """Differences between a round's settlement and the settlement its hand history expects
    (``expect:``), each positioned in the hand history and naming the round, the seat, the wager
    and the provision. A wager settled but not expected is a difference too."""
    doc, path = rs.doc, rs.doc.path
    exp = rs.expect or {}
    out: list[Diagnostic] = []
    if not exp:
        return [doc.diagnostic("", f"{path}: the hand history states no expected settlement ('expect:')")]
    if "void" in exp and bool(exp["void"]) != bool(result.void):
        out.append(doc.diagnostic("/expect/void", f"{path}: the round is {'void' if result.void else 'not void'}, "
                                                  f"expected {'void' if exp['void'] else 'not void'}"))
    actual = list(result.results)
    used: set[int] = set()
    for i, e in enumerate(exp.get("results") or ()):
        seat, wager, hand = e["seat"], e["wager"], e.get("hand", 1)  # hand: one made by a split (2, 3, ...)
        where = f"{path}: seat {seat}{'' if hand == 1 else f' hand {hand}'}, {wager}, {e['cite']}"
        k = next((j for j, r in enumerate(actual) if j not in used and (r.seat, r.label, r.hand) == (seat, wager, hand)), None)
        if k is None:
            out.append(doc.diagnostic(f"/expect/results/{i}", f"{where}: expected {e['outcome']}, but the wager "
                                                              "was not settled"))
            continue
        used.add(k)
        r = actual[k]
        if r.outcome != e["outcome"]:
            out.append(doc.diagnostic(f"/expect/results/{i}/outcome",
                                      f"{where}: outcome {r.outcome} ({'; '.join(r.cites)}), expected {e['outcome']}"))
        want = None if e["net"] is None else Decimal(str(e["net"]))
        got = r.net if r.priced else None
        if want != got:
            out.append(doc.diagnostic(f"/expect/results/{i}/net",
                                      f"{where}: net {got if got is not None else 'not known'}, expected "
                                      f"{want if want is not None else 'not known'}"))
        ruled = {c.strip() for x in r.cites for c in str(x).split(";")}
        missing = [c.strip() for c in e["cite"].split(";") if c.strip() and c.strip() not in ruled]
        if missing:
            out.append(doc.diagnostic(f"/expect/results/{i}/cite",
                                      f"{where}: ruled by {'; '.join(r.cites) or 'no provision'}, expected "
                                      f"{'; '.join(missing)}"))
    for j, r in enumerate(actual):
        if j not in used and "results" in exp:  # without `results:` only the seats' nets are expected
            out.append(doc.diagnostic("/expect/results", f"{path}: seat {r.seat}, {r.label}, {'; '.join(r.cites)}: "
                                                         f"settled {r.outcome} (net {r.net}) but not expected"))
    out += _check_carried_out(rs, result)
    for seat, net in (exp.get("net_by_seat") or {}).items():
        got = result.net_by_seat().get(int(seat), Decimal(0))
        if got != Decimal(str(net)):
            out.append(doc.diagnostic(f"/expect/net_by_seat/{seat}", f"{path}: seat {seat} net {got}, expected {net}"))
    return out


def _check_carried_out(rs: "RoundSpec", result) -> list[Diagnostic]:
    """``expect: carried``: the wagers (and the state they keep) left on the layout when the round ends,
    seat by seat; none expected when it is not given (a wager left there then is a difference)."""
    doc, path = rs.doc, rs.doc.path
    given = (rs.expect or {}).get("carried")
    want = {int(k): ({w: Decimal(str(a)) for w, a in (v.get("carried") or {}).items()}, dict(v.get("state") or {}))
            for k, v in (given or {}).items()}
    got = {int(k): ({w: Decimal(a) for w, a in v["wagers"].items()}, dict(v.get("state") or {}))
           for k, v in getattr(result, "carried_out", {}).items()}
    def kept(st: dict) -> str:
        return f" ({', '.join(f'{k} {v}' for k, v in st.items())})" if st else ""

    def text(c) -> str:  # an instance of several (come#2) with its own state after it
        if c is None:
            return "nothing"
        return ", ".join(f"{w} {a:.2f}{kept(c[1].get(w) or {})}" for w, a in c[0].items()) + kept(
            {k: v for k, v in c[1].items() if k not in c[0]})

    out = []
    for seat in sorted(set(want) | set(got)):
        if want.get(seat) != got.get(seat):
            ptr = f"/expect/carried/{seat}" if seat in want else ("/expect/carried" if given is not None else "/expect")
            out.append(doc.diagnostic(ptr, f"{path}: seat {seat}: the round leaves {text(got.get(seat))} on the "
                                           f"layout, expected {text(want.get(seat))}"))
    return out


_ROUND_KEY = re.compile(rb"^rulespec_round\s*:", re.M)


def is_round(path: Path) -> bool:
    """A hand history: a YAML file with a top-level ``rulespec_round:`` key (read from its first 4 KB)."""
    try:
        if not path.is_file() or path.suffix not in (".yaml", ".yml"):
            return False
        with path.open("rb") as f:
            return bool(_ROUND_KEY.search(f.read(4096)))
    except OSError:
        return False
