"""The intermediate representation: a validated rulespec as frozen dataclasses.

The money of a chapter is typed: its wagers (:class:`Wager`), payouts (:class:`Payout`) and
paytables (:class:`Paytable`, rows of :class:`PaytableRow`), each with its citation and with its
odds read once by the value layer's parser (:func:`compiler.values.odds.parse_odds`) next to the
text the rulespec writes (documents print that text). Executable parts (procedure,
irregularities, constraints) are parsed into rule-language ASTs. Every executable node keeps its
source position (:class:`Src`) and its citation, so that generated code and logs can name both.
The remaining declarative parts (rankings, options, cards, table, provisions...) stay as the
plain data the schema validated (``Chapter.data``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Mapping

from compiler.lang.rules import Action, Node
from compiler.values.odds import Odds


@dataclass(frozen=True)
class Src:
    path: str
    line: int
    col: int
    pointer: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Rule:
    cite: str
    when: Node | None
    when_text: str | None
    then: tuple[Action, ...]
    then_text: str
    src: Src


@dataclass(frozen=True)
class Choice:
    id: str
    cite: str
    when: Node | None
    when_text: str | None
    then: tuple[Action, ...]
    then_text: str | None
    src: Src


@dataclass(frozen=True)
class Step:
    id: str
    kind: str
    cite: str
    src: Src
    when: Node | None = None
    when_text: str | None = None
    players: Node | None = None
    players_text: str | None = None
    order: str = "clockwise"
    params: tuple[tuple[str, Any], ...] = ()
    rules: tuple[Rule, ...] = ()
    choices: tuple[Choice, ...] = ()
    steps: tuple["Step", ...] = ()
    title: str = ""
    exprs: tuple[tuple[str, Node, str], ...] = ()  # further expressions of the step (envy: qualifying, hand)


@dataclass(frozen=True)
class Irregularity:
    id: str
    event: str
    title: str
    cite: str
    rules: tuple[Rule, ...]
    src: Src


@dataclass(frozen=True)
class Constraint:
    require: Node
    require_text: str
    message: str
    cite: str
    src: Src


@dataclass(frozen=True)
class Interpretation:
    id: str
    cites: tuple[str, ...]
    text: str
    chosen: str
    src: Src
    acknowledges: tuple[str, ...] = ()  # pointers whose lint warnings this reading explains


@dataclass(frozen=True)
class HouseWayRule:
    cite: str
    when: Node | None
    when_text: str | None
    choose: tuple[tuple[str, Node, str], ...]  # (keep | max | min, expression, text)
    src: Src
    note: str = ""


@dataclass(frozen=True)
class HouseWay:
    """A house way: how hands are set (pai gow), an ordered list of rules (compiler.runtime.paigow)."""

    id: str
    title: str
    cite: str
    rules: tuple[HouseWayRule, ...]
    src: Src


@dataclass(frozen=True)
class Wager:
    """A wager of the chapter (``wagers``)."""

    id: str
    name: str
    cite: str
    pays: str | None = None  # its default payout (a payout id)
    paytable: str | None = None  # the paytable that pays it
    required: bool = False
    offered_by: str | None = None  # the option that must be true for the wager to be offered
    requires: tuple[str, ...] = ()  # wagers that must be placed with it
    progressive: str | None = None  # the meter it feeds
    placed: str = "before_deal"  # or 'during_round'
    amounts: tuple[Decimal, ...] = ()  # the only amounts allowed (empty: any)
    choose: Any = None  # placed on numbers the player chooses (runtime/chance.legal_sets), as in the spec
    stays: str | None = None  # 'until_settled': left open when the round ends, it stays on the layout into the next
    keeps: tuple[str, ...] = ()  # the per-player state (`per: player`) kept with it from round to round


@dataclass(frozen=True)
class Payout:
    """A payout of the chapter (``payouts``): fixed odds, or in a partial chapter the option that
    gives them and/or why a win has no amount."""

    id: str
    cite: str
    odds: Odds | None = None  # None: the odds are not in the sources
    text: str | None = None  # the odds as the rulespec writes them
    odds_option: str | None = None
    unpriced: str = ""


@dataclass(frozen=True)
class PaytableRow:
    hand: str  # a hand or category id of the paytable's ranking
    label: str
    odds: tuple[Odds, ...]  # one per column
    pays: tuple[str, ...]  # the same as the rulespec writes them
    cite: str  # the paytable's citation


@dataclass(frozen=True)
class Paytable:
    """A paytable of the chapter (``paytables``): rows highest first, one payout per column."""

    id: str
    title: str
    cite: str
    columns: tuple[str, ...]
    rows: tuple[PaytableRow, ...]
    header: str = "Hand"
    option: str | None = None  # the option selecting the column
    ranking: str | None = None
    amounts: tuple[Decimal, ...] = ()  # column chosen by the receiving wager's amount (Envy schedules)


@dataclass(frozen=True)
class Chapter:
    chapter: str
    title: str
    spec_path: str
    slug: str
    data: Mapping[str, Any] = field(repr=False)
    procedure: tuple[Step, ...] = ()
    irregularities: tuple[Irregularity, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    interpretations: tuple[Interpretation, ...] = ()
    batches_when: Node | None = None
    positions_max: Node | None = None
    lines: Mapping[str, int] = field(default_factory=dict, repr=False)  # source line of a few pointers
    requirement_whens: tuple = ()  # parsed `when` of each requirement (None where absent)
    house_ways: tuple[HouseWay, ...] = ()
    wagers: Mapping[str, Wager] = field(default_factory=dict)
    payouts: Mapping[str, Payout] = field(default_factory=dict)
    paytables: Mapping[str, Paytable] = field(default_factory=dict)

    @property
    def module_name(self) -> str:
        return "ch" + self.slug.replace("-", "_")

    def all_steps(self):
        def walk(steps):
            for s in steps:
                yield s
                yield from walk(s.steps)

        yield from walk(self.procedure)
