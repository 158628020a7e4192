"""The compiled chapter as a generated game module builds it: a :class:`GameDefinition` of literals
(rankings, paytables, payouts, wagers, options, cards) and a procedure of :class:`Step` objects whose
conditions and outcomes are compiled functions of a :class:`~compiler.runtime.context.Context`.
House ways (pai gow) are data of the same kind: ordered rules of compiled criteria.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from compiler.runtime.money import Odds

Fn = Callable[["Context"], Any]


@dataclass(frozen=True)
class Rule:
    cite: str
    when: Fn | None
    then: Fn
    source: str = ""  # "rulespecs/x.yaml:12" of the rule
    each: str | None = None  # a wager of several instances: the rule runs once per instance in action (settle)


@dataclass(frozen=True)
class Choice:
    id: str
    cite: str
    then: Fn | None
    when: Fn | None = None
    source: str = ""


@dataclass(frozen=True)
class Step:
    id: str
    kind: str  # a step kind of the registry (compiler/steps/)
    cite: str
    when: Fn | None = None
    players: Fn | None = None
    order: str = "clockwise"
    params: Mapping[str, Any] = field(default_factory=dict)
    rules: tuple[Rule, ...] = ()
    choices: tuple[Choice, ...] = ()
    steps: tuple["Step", ...] = ()
    source: str = ""
    exprs: Mapping[str, Fn] = field(default_factory=dict)  # the kind's further compiled expressions


@dataclass(frozen=True)
class Irregularity:
    id: str
    event: str
    cite: str
    rules: tuple[Rule, ...]
    title: str = ""


@dataclass(frozen=True)
class WagerDef:
    id: str
    name: str
    cite: str
    pays: str | None = None  # default payout id
    required: bool = False
    offered_by: str | None = None  # option id that must be true for the wager to be offered
    requires: tuple[str, ...] = ()  # wagers that must be placed with it
    progressive: str | None = None  # meter id
    placed: str = "before_deal"  # or 'during_round' (War wager, Double Down)
    amounts: tuple[Decimal, ...] = ()  # the only amounts allowed (empty: any)
    choose: Mapping[str, Any] | None = None  # placed on a set the player chooses (runtime/chance.legal_sets)
    stays: str | None = None  # 'until_settled': open when the round ends, it stays on the layout (runtime/carry.py)
    keeps: tuple[str, ...] = ()  # the per-player state kept with it into the next round
    requires_any: tuple[tuple[str, ...], ...] = ()  # groups of wagers of which one at least must be placed with it
    several: bool = False  # a player may have several at once, each placement an instance (Wager.instance)


@dataclass(frozen=True)
class Payout:
    id: str
    odds: Odds | None  # None: the odds are not in the sources (a partial chapter)
    cite: str
    odds_option: str | None = None  # the odds are the casino's selection of this option, when given
    unpriced: str = ""  # why a win at this payout has no amount when no odds are known


@dataclass(frozen=True)
class Paytable:
    id: str
    title: str
    cite: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Odds, ...], str], ...]  # (hand id, odds per column, label)
    option: str | None = None  # option selecting the column
    ranking: str | None = None
    amounts: tuple[Decimal, ...] = ()  # column chosen by the receiving wager's amount (Envy schedules)


@dataclass(frozen=True)
class MeterDef:
    id: str
    cite: str
    rate_option: str | None
    reset_option: str | None


@dataclass(frozen=True)
class CardsDef:
    decks_option: str | None
    decks_default: int
    jokers: int
    cut_min_from_edge: int
    marker_from_bottom: Fraction | None
    reshuffle: str  # 'cover_card' | 'every_round' | 'never' (a chapter without cards: no shoe)
    reshuffle_cite: str
    batches: int = 1
    batches_when: Fn | None = None  # condition (on options) under which decks are split into batches
    cut_cite: str = ""
    shuffle_cite: str = ""
    cut_offer: tuple[tuple[str, str, str], ...] = ()  # (situation, to, cite)
    cut_refused: tuple[str, str] = ("clockwise", "")  # rotation, cite
    marker_cite: str = ""
    without: tuple[int, ...] = ()  # ranks removed from each deck (cards.deck.without: a Spanish 48-card deck)


@dataclass(frozen=True)
class GameDefinition:
    chapter: str
    title: str
    spec_path: str
    max_positions: int
    rankings: Mapping[str, Mapping]
    paytables: Mapping[str, Paytable]
    payouts: Mapping[str, Payout]
    wagers: Mapping[str, WagerDef]
    options: Mapping[str, Mapping]
    cards: CardsDef
    procedure: tuple[Step, ...]
    irregularities: tuple[Irregularity, ...]
    meters: Mapping[str, MeterDef] = field(default_factory=dict)
    constraints: tuple[tuple[str, str, Fn], ...] = ()  # (cite, message, condition on the options)
    requirements: tuple[tuple[str, str, str | None, Fn | None], ...] = ()  # (cite, text, step, condition)
    positions_max: Fn | None = None  # how many positions one player may play (options only)
    positions_adjacent: bool = False
    positions_cite: str = ""
    house_ways: Mapping[str, "HouseWay"] = field(default_factory=dict)
    state: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # round state: name -> {initial, cite}

    def defaults(self) -> dict[str, Any]:
        return {k: v.get("default") for k, v in self.options.items() if "default" in v}

    def one_of(self, group: Sequence[str]) -> str:
        """A group of wagers of which one at least is required, in words: 'an Ante Wager or a Pair Plus Wager'."""
        return " or ".join(f"a {self.wagers[w].name}" for w in group)




# ---------------------------------------------------------------------------------------------
# House ways: how hands are set (pai gow), the first rule whose condition holds chooses
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Criterion:
    kind: str  # keep | max | min
    fn: Fn
    text: str = ""


@dataclass(frozen=True)
class HouseWayRule:
    cite: str
    when: Fn | None
    choose: tuple[Criterion, ...]
    source: str = ""
    note: str = ""


@dataclass(frozen=True)
class HouseWay:
    id: str
    title: str
    cite: str
    rules: tuple[HouseWayRule, ...]
