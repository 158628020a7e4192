"""The intermediate representation: a validated rulespec as frozen dataclasses.

Declarative parts (rankings, paytables, payouts, options, cards...) stay as the plain data
the schema validated (``Chapter.data``); executable parts (procedure, irregularities,
constraints) are parsed into rule-language ASTs. Every executable node keeps its source
position (:class:`Src`) and its citation, so that generated code and logs can name both.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from compiler.lang.rules import Action, Node


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

    @property
    def module_name(self) -> str:
        return "ch" + self.slug.replace("-", "_")

    def all_steps(self):
        def walk(steps):
            for s in steps:
                yield s
                yield from walk(s.steps)

        yield from walk(self.procedure)
