"""A round at the table, played by a person: the compiled game module plays, a player decides.

Nothing here knows a chapter. The layout, the wagers, the decisions and the irregularities a
player is offered all come from the compiled game definition (``GAME``): its wagers, its
``decide`` / ``offer`` / ``set_hands`` steps and their choices, its irregularity events. The
round is recorded while it is played (every card drawn by its target, every die, every choice)
and written as a hand history (docs/round-format.md) that ``rulespec settle`` replays exactly.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable, Iterable, Mapping

import yaml

from compiler.runtime.cards import card_str
from compiler.runtime.engine import RoundResult, Step, Strategy

# The engine draws the cards of these irregularity events from the shoe itself when they are not
# given; a recorded history must hold them with the event (compiler/runtime/engine.py::_fire).
CARD_EVENTS = ("face_up_card", "drawn_in_error")


class _DrawRecorder:
    """Wraps a table's ``_draw`` so that every card the round takes (from the shoe, or a card drawn
    in error used as the next card) is remembered with its target, in order."""

    def __init__(self, draw):
        self._draw = draw
        self.draws: list[tuple[tuple, int]] = []

    def __call__(self, rnd, target):
        c = self._draw(rnd, target)
        self.draws.append((target or ("burn", None, None), c))
        return c


def walk_steps(steps: Iterable[Step]) -> Iterable[Step]:
    for s in steps:
        yield s
        yield from walk_steps(s.steps)


@dataclass
class Layout:
    """What a player may see and do at this chapter's table, read from the compiled game."""

    chapter: str
    title: str
    positions: int
    wagers: list[tuple[str, str, str, str, bool]]  # (id, name, cite, placed, offered)
    decisions: list[tuple[str, str, list[tuple[str, str]]]]  # (step id, cite, [(choice, cite)])
    offers: list[tuple[str, str, str]]  # (step id, wager name, cite)
    settings: list[tuple[str, str, int, int]]  # (step id, cite, high, low)
    irregularities: list[tuple[str, str, str]]  # (event, title, cite)
    event_attrs: dict[str, dict[str, list[str]]]  # event -> attribute its rules read -> values compared with
    steps: list[tuple[str, str, str]]  # (step id, kind, cite), in procedure order
    options: dict[str, Any]
    dealer_face_down: set[str] = field(default_factory=set)  # dealer zones dealt face down (never revealed)


def event_attributes(chapter) -> dict[str, dict[str, list[str]]]:
    """The attributes each irregularity event's rules read (``event.NAME`` in the rule language),
    with the values they are compared with (``event.NAME == 'value'``), so a player can give them.
    ``chapter``: the chapter's IR (None: no irregularities)."""
    out: dict[str, dict[str, list[str]]] = {}
    for irr in (chapter.irregularities if chapter is not None else ()):
        attrs = out.setdefault(irr.event, {})
        for rule in irr.rules:
            text = " ".join("" if t is None else str(t) for t in (rule.when_text, rule.then_text))
            for name in re.findall(r"\bevent\.([A-Za-z_][A-Za-z0-9_]*)", text):
                if name not in ("cards", "count", "seat"):
                    attrs.setdefault(name, [])
            for name, val in re.findall(r"\bevent\.([A-Za-z_][A-Za-z0-9_]*)\s*[!=]=\s*'([^']*)'", text):
                if val not in attrs.setdefault(name, []):
                    attrs[name].append(val)
    return out


def layout_of(table, chapter=None) -> Layout:
    """What the table shows a player; ``chapter``: the chapter's IR (the irregularities' attributes)."""
    g = table.game
    wagers = [(w.id, w.name, w.cite, w.placed, table.offered(w.id)) for w in g.wagers.values()]
    decisions, offers, settings = [], [], []
    for s in walk_steps(g.procedure):
        if s.kind in ("decide", "split"):
            decisions.append((s.id, s.cite, [(c.id, c.cite) for c in s.choices]))
        elif s.kind == "offer" and table.offered(s.params["wager"]):
            offers.append((s.id, g.wagers[s.params["wager"]].name, s.cite))
        elif s.kind == "set_hands" and s.params.get("to", "players") == "players":
            settings.append((s.id, s.cite, int(s.params["high"]), int(s.params["low"])))
    seen, irrs = set(), []
    for i in g.irregularities:
        if i.event not in seen:
            seen.add(i.event)
            irrs.append((i.event, i.title or i.event.replace("_", " "), i.cite))
    steps = [(s.id, s.kind, s.cite) for s in walk_steps(g.procedure)]
    down = {s.params.get("zone", "cards") for s in walk_steps(g.procedure) if s.kind == "deal"
            and s.params.get("to") in ("dealer", "positions") and s.params.get("face") == "down"}
    down -= {s.params.get("zone") for s in walk_steps(g.procedure) if s.kind == "reveal"}
    return Layout(g.chapter, g.title, g.max_positions, wagers, decisions, offers, settings, irrs,
                  event_attributes(chapter), steps, dict(table.options), down)


class Player:
    """How a person's answers reach the game: the terminal front end implements these."""

    def choose(self, seat: int, step: Step | None, decision: str, choices: list[str], view) -> str:
        raise NotImplementedError

    def offer(self, seat: int, wager: str, view) -> Decimal:
        raise NotImplementedError

    def setting(self, seat: int, step: str, candidates: list[tuple], view) -> tuple | None:
        raise NotImplementedError


class RecordingStrategy(Strategy):
    """One seat's strategy: asks the player, remembers every answer for the hand history."""

    def __init__(self, seat: int, player: Player, steps: Mapping[str, Step]):
        self.seat, self.player, self.steps = seat, player, steps
        self.choices: dict[str, str] = {}
        self.offers: dict[str, Decimal] = {}
        self.offer_log: dict[str, list[Decimal]] = {}
        self.setting_: Any = None

    def choose(self, decision, choices, view):
        c = self.player.choose(self.seat, self.steps.get(decision), decision, list(choices), view)
        if decision in self.choices:  # taken again (a decide step in a loop): every choice, in order
            prev = self.choices[decision]
            self.choices[decision] = [*(prev if isinstance(prev, list) else [prev]), c]
        else:
            self.choices[decision] = c
        return c

    def offer(self, wager, view):
        a = Decimal(self.player.offer(self.seat, wager, view) or 0)
        self.offer_log.setdefault(wager, []).append(a)  # every answer, declined ones too (an offer in a loop)
        if a:
            self.offers[wager] = a
        return a

    def setting(self, step, candidates, view):
        pick = self.player.setting(self.seat, step, list(candidates), view)
        self.setting_ = "house_way" if pick is None else {"low": [card_str(c) for c in pick[1]]}
        return pick


@dataclass
class PlayedRound:
    result: RoundResult
    history: dict  # the hand history (docs/round-format.md), ready to dump as YAML
    meters_before: dict = field(default_factory=dict)


def _money_out(a: Decimal):
    a = Decimal(a)
    return int(a) if a == a.to_integral_value() else str(a)


def _amount(a) -> Decimal:
    if isinstance(a, (list, tuple)):  # the instances of a wager of several
        return sum((_amount(x) for x in a), Decimal(0))
    return Decimal(a["amount"] if isinstance(a, Mapping) else a)


def _stake_out(a):
    """A wager of a hand history: its amount, or {amount, numbers} for one placed on chosen numbers; a list of
    those for the instances of a wager a player may have several of, in the order placed."""
    if isinstance(a, (list, tuple)):
        return [_stake_out(x) for x in a if _amount(x) != 0]
    if isinstance(a, Mapping):
        return {"amount": _money_out(a["amount"]), "numbers": [int(v) if str(v).isdigit() and str(v) == str(int(v))
                                                          else str(v) for v in a["numbers"]]}
    return _money_out(a)


def play_one(table, bets: Mapping[int, Mapping[str, Any]], player: Player, events: list[dict] | None = None,
             selections: Mapping[str, Any] | None = None, submission: str | None = None,
             title: str | None = None) -> PlayedRound:
    """Play one round on ``table`` (prepared by :func:`prepare_table`) and record it."""
    prepare_table(table)
    g = table.game
    steps = {s.id: s for s in walk_steps(g.procedure)}
    table._draw.draws = []
    first_after_shuffle, new_dealer = table.first_after_shuffle, table.new_dealer
    meters = {k: v for k, v in table.meters.items()}
    events = [dict(e) for e in (events or ())]
    for e in events:  # cards found face up / drawn in error are taken off the shoe now, as they appear
        if e["event"] in CARD_EVENTS and "cards" not in e:
            e["cards"] = [table.shoe.draw(("burn", None, None)) for _ in range(int(e.get("count", 1)))]
    strategies = {s: RecordingStrategy(s, player, steps) for s in {*bets, *table.carried}}  # carried: on the layout
    result = table.play_round(bets, strategies, events)
    history = _history(table, result, bets, strategies, events, first_after_shuffle, new_dealer, meters,
                       selections or {}, submission, title)
    return PlayedRound(result, history, meters)


def prepare_table(table):
    """Record the table's draws and rolls from now on."""
    if not isinstance(table.__dict__.get("_draw"), _DrawRecorder):
        table._draw = _DrawRecorder(table._draw)
    return table


def _history(table, result, bets, strategies, events, first_after_shuffle, new_dealer, meters, selections, submission,
             title) -> dict:
    g = table.game
    h: dict[str, Any] = {"rulespec_round": 1, "chapter": g.chapter}
    h["title"] = title or f"A round of Chapter {g.chapter} played with rulespec play"
    if submission:
        h["submission"] = submission
    if selections:
        h["options"] = {k: (str(v) if isinstance(v, Decimal) else v) for k, v in selections.items()}
    h["first_after_shuffle"] = bool(first_after_shuffle)
    h["new_dealer"] = bool(new_dealer)
    if meters:
        h["meters"] = {k: str(v) for k, v in meters.items()}
    positions: dict[str, Any] = {}
    for seat in sorted({*bets, *result.carried_in}):
        st = strategies[seat]
        pos: dict[str, Any] = {"wagers": {w: _stake_out(a) for w, a in (bets.get(seat) or {}).items()
                                          if _amount(a) != 0}}
        carried = result.carried_in.get(seat)
        if carried:  # the wagers it began the round with on the layout, and the state they keep
            pos["carried"] = {w: _money_out(a) for w, a in carried["wagers"].items()}
            if carried.get("state"):
                pos["state"] = dict(carried["state"])
        if st.choices:
            pos["choices"] = dict(st.choices)
        if st.offers:  # an offer made more than once (in a loop): every answer in order, 0 for declined
            pos["offers"] = {w: (_money_out(a) if len(st.offer_log.get(w, ())) < 2 else
                                 [_money_out(x) for x in st.offer_log[w]]) for w, a in st.offers.items()}
        if st.setting_ is not None:
            pos["setting"] = st.setting_
        positions[str(seat)] = pos
    h["positions"] = positions
    dealt: dict[str, dict[str, list[str]]] = {}
    burned: list[str] = []
    for (owner, seat, zone), c in table._draw.draws:
        if owner == "burn":
            burned.append(card_str(c))
            continue
        who = str(seat) if owner in ("player", "unwagered") else owner
        dealt.setdefault(who, {}).setdefault(zone, []).append(card_str(c))
    h["dealt"] = dealt
    if burned:
        h["burned"] = burned
    if result.rolled:  # every roll of the round, in order (settle gives them back to the roll steps)
        h["rolls"] = [list(r) for r in result.rolled]
    if events:
        h["events"] = [{k: ([card_str(c) for c in v] if k == "cards" else v) for k, v in e.items()
                        if not k.startswith("_")} for e in events]
    return h


def history_yaml(history: dict) -> str:
    class _Dumper(yaml.SafeDumper):
        pass

    def _list(dumper, data):  # card lists on one line, as in docs/round-format.md
        flow = all(isinstance(x, (str, int)) for x in data)
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    _Dumper.add_representer(list, _list)
    return yaml.dump(history, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)
