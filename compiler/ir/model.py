"""The intermediate representation: a validated rulespec as frozen dataclasses.

The money of a chapter is typed: its wagers (:class:`Wager`), payouts (:class:`Payout`) and
paytables (:class:`Paytable`, rows of :class:`PaytableRow`), each with its citation and with its
odds read once by the value layer's parser (:func:`compiler.values.odds.parse_odds`) next to the
text the rulespec writes (documents print that text). Executable parts (procedure,
irregularities, constraints) are parsed into rule-language ASTs. Every executable node keeps its
source position (:class:`Src`) and its citation, so that generated code and logs can name both.
The chapter's options (:class:`Option`), meters (:class:`Meter`), source (:class:`Source`), completeness
and missing parts (:class:`Missing`) are typed too. The remaining declarative parts (rankings, cards,
table, state, requirements, provisions, change intervals) are narrowly named read-only fields holding
the plain data the schema validated: read them, never mutate them. ``Chapter.data`` (the whole
validated document) is read only inside ``compiler/ir`` (tests/architecture/test_ir_boundary.py).
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
    each: str | None = None  # a wager of several instances (several: true) the rule runs once per instance for


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
    spec: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)  # as written (read-only)


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
    requires: tuple[str, ...] = ()  # wagers that must be placed with it, every one
    progressive: str | None = None  # the meter it feeds
    placed: str = "before_deal"  # or 'during_round'
    amounts: tuple[Decimal, ...] = ()  # the only amounts allowed (empty: any)
    choose: Any = None  # placed on numbers the player chooses (runtime/chance.legal_sets), as in the spec
    stays: str | None = None  # 'until_settled': left open when the round ends, it stays on the layout into the next
    keeps: tuple[str, ...] = ()  # the per-player state (`per: player`) kept with it from round to round
    spec: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)  # as written (read-only)
    src: Src | None = field(default=None, repr=False, compare=False)  # where the rulespec declares it
    # groups of wagers of which at least one must be placed with it (``requires: [{any_of: [...]}]``)
    requires_any: tuple[tuple[str, ...], ...] = ()
    several: bool = False  # a player may have several of it at once, each with its own kept state (ir/several.py)


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
    spec: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)  # as written (read-only)


@dataclass(frozen=True)
class PaytableRow:
    hand: str | int  # a hand or category id of the paytable's ranking; in a paytable without one, the row's value
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
    spec: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)  # as written (read-only)


@dataclass(frozen=True)
class Option:
    """An option of the chapter (``options``): what a casino selects in its Rules Submission.

    ``default`` is None both when the option has none and when it is null: ``has_default`` tells.
    ``spec`` is the option as the rulespec writes it (read-only), for the generated module's literal
    and for the value checks that take an option mapping (compiler/submission/values.py)."""

    id: str
    title: str
    type: str  # boolean | integer | money | percent | choice | text | house_way
    cite: str
    default: Any = None
    has_default: bool = False
    values: tuple | None = None  # the values it may take, where listed
    minimum: Any = None
    maximum: Any = None
    when: str | None = None  # offered only when this holds (rule-language text)
    note: str = ""
    unit: str = ""
    spec: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Meter:
    """A progressive meter (``meters``): the options giving its rate and its reset amount."""

    id: str
    cite: str
    rate_option: str | None = None
    reset_option: str | None = None


@dataclass(frozen=True)
class Source:
    """The text the rulespec follows (``source``): its citation, date, kind..."""

    citation: str = ""
    date: str = ""
    kind: str = ""
    file: str = ""
    effective: str = ""
    url: str = ""
    note: str = ""


@dataclass(frozen=True)
class Missing:
    """A part of the game the sources do not give (``missing``), not invented."""

    cite: str
    what: str


@dataclass(frozen=True)
class Chapter:
    chapter: str
    title: str
    spec_path: str
    slug: str
    data: Mapping[str, Any] = field(repr=False)  # the validated YAML: read only inside compiler/ir (test_ir_boundary)
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
    completeness: str = ""  # complete | partial | amendment ...
    missing: tuple[Missing, ...] = ()
    options: Mapping[str, Option] = field(default_factory=dict)
    meters: Mapping[str, Meter] = field(default_factory=dict)
    source: Source = field(default_factory=Source)
    # the declarative parts as the schema validated them: read-only plain data, never mutated
    rankings: Mapping[str, Any] = field(default_factory=dict, repr=False)
    cards: Mapping[str, Any] = field(default_factory=dict, repr=False)
    table: Mapping[str, Any] = field(default_factory=dict, repr=False)
    state: Mapping[str, Any] = field(default_factory=dict, repr=False)
    requirements: tuple[Mapping[str, Any], ...] = field(default=(), repr=False)
    provisions: tuple[Mapping[str, Any], ...] = field(default=(), repr=False)
    # every change interval, in file order (``cards.change_interval`` then ``change_intervals``),
    # each a new mapping with its JSON ``pointer``
    change_intervals: tuple[Mapping[str, Any], ...] = field(default=(), repr=False)
    digest: str = ""  # a hash of the validated rulespec's content (for cache keys)

    @property
    def module_name(self) -> str:
        return "ch" + self.slug.replace("-", "_")

    def all_steps(self):
        yield from walk_steps(self.procedure)


def walk_steps(steps, keep=None):
    """The steps of a procedure, a loop's or block's steps after it, those ``keep`` keeps (None: all; a step it
    does not keep is left out with its steps)."""
    for s in steps:
        if keep is None or keep(s):
            yield s
            yield from walk_steps(s.steps, keep)
