"""The generic rules of ``rulespec migrate`` over a rulespec's data (no chapter knowledge: what each
rule adds or removes comes from ``schemas/format-changes.yaml`` and the step registry).

* ``add_step_field``: every step of ``kind`` without ``field`` gets ``field: value`` (after the member
  ``after`` when the step has it), when it has every field of ``if_present`` and none of the values
  of ``unless``;
* ``drop_foreign_step_fields``: a field that the step's kind does not take (compiler/steps/) is removed.

:func:`rules` builds the rules of every change, given the rule types of the stages above (the facts
rule is in compiler/lint/untie.py).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from compiler.steps import COMMON, KINDS

from .diagnostics import escape_token
from .loader import Document
from .migrate import Change, Edit, Note, insert_member, load_changes, node_at, remove_members, steps_of, yaml_scalar

__all__ = ["AddStepField", "DropForeignStepFields", "RULE_TYPES", "rules"]


def _pos(doc: Document, pointer: str, key: bool = False) -> tuple[int, int]:
    return doc.key_position(pointer) if key else doc.position(pointer)


class AddStepField:
    def __init__(self, change: Change):
        self.change = change
        p = change.params
        self.kind, self.field, self.value = p["kind"], p["field"], p["value"]
        self.after, self.if_present, self.unless = p.get("after"), tuple(p.get("if_present") or ()), dict(
            p.get("unless") or {})

    def apply(self, doc: Document, root: Any) -> tuple[list[Edit], list[Note]]:
        edits, notes = [], []
        for ptr, s in steps_of(doc.data.get("procedure") if isinstance(doc.data, dict) else None):
            if s.get("do") != self.kind or self.field in s:
                continue
            if not all(k in s for k in self.if_present) or any(s.get(k) == v for k, v in self.unless.items()):
                continue
            node, _ = node_at(root, ptr)
            after = self.after if self.after in s else None
            edits.append(insert_member(doc.text, node, self.field, yaml_scalar(self.value), after))
            line, col = _pos(doc, f"{ptr}/{after}", key=True) if after else _pos(doc, ptr)
            notes.append(Note(line, col, f"{ptr}/{escape_token(self.field)}",
                              f"added '{self.field}: {self.value}' to the {self.kind} step {s.get('id', ptr)!r}: "
                              f"{self.change.why}"))
        return edits, notes


class DropForeignStepFields:
    def __init__(self, change: Change):
        self.change = change

    def apply(self, doc: Document, root: Any) -> tuple[list[Edit], list[Note]]:
        edits, notes = [], []
        for ptr, s in steps_of(doc.data.get("procedure") if isinstance(doc.data, dict) else None):
            kind = KINDS.get(s.get("do"))
            if kind is None:
                continue
            foreign = [k for k in s if k not in COMMON and k not in kind.params and k not in kind.exprs
                       and any(k in other.params or k in other.exprs for other in KINDS.values())]
            if not foreign:
                continue
            node, _ = node_at(root, ptr)
            edits += remove_members(doc.text, node, foreign)
            for k in foreign:
                line, col = _pos(doc, f"{ptr}/{escape_token(k)}", key=True)
                notes.append(Note(line, col, f"{ptr}/{escape_token(k)}",
                                  f"removed '{k}' from the {s['do']} step {s.get('id', ptr)!r}, a field of other kinds of "
                                  f"step: {self.change.why}"))
        return edits, notes


RULE_TYPES: dict[str, Callable[[Change], Any]] = {
    "add_step_field": AddStepField,
    "drop_foreign_step_fields": DropForeignStepFields,
}


def rules(more_types: Mapping[str, Callable[[Change], Any]] | None = None) -> list:
    """A rule for every change of schemas/format-changes.yaml, in order."""
    types = {**RULE_TYPES, **(more_types or {})}
    out = []
    for c in load_changes():
        if c.rule not in types:
            raise ValueError(f"format change {c.id!r}: no migration rule {c.rule!r}")
        out.append(types[c.rule](c))
    return out

