"""The step kinds of a rulespec's ``procedure``, one module each: the registry.

Each module of this package declares one kind (``KIND = StepKind(...)``): its parameters (each a
JSON Schema fragment with a description), the rule-language expressions it takes, the parameters it
requires, and what the engine does. Everything else derives from these declarations:

* the ``$defs/step`` of ``schemas/rulespec.schema.json`` (:func:`step_schema`; a test checks the file,
  ``python -m compiler.steps --write`` rewrites it);
* the parameters and expressions the IR keeps of a step (:data:`PARAMS`, :data:`EXPRS`);
* the table of steps in ``docs/spec-format.md`` (:func:`markdown_table`, checked by the same test);
* the engine's executors (``compiler.runtime.steps`` has one per kind; a test checks both lists).

This package imports nothing of the compiler: the spec, the IR, codegen and the runtime read it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["StepKind", "KINDS", "PARAMS", "EXPRS", "COMMON", "step_schema", "markdown_table"]


@dataclass(frozen=True)
class StepKind:
    name: str
    does: str  # what the engine does, one sentence or two (docs)
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # name -> JSON Schema (with description)
    exprs: Mapping[str, str] = field(default_factory=dict)  # name -> description (rule-language expressions)
    required: tuple[str, ...] = ()
    then: Mapping[str, Any] | None = None  # a further JSON Schema condition on a step of this kind (e.g. oneOf)
    names: Mapping[str, str] = field(default_factory=dict)  # parameter -> what it names: wager | paytable |
    #                                                          house_way | house_way_option (checked by the IR)
    # parameters that change only what the log says (a chapter's wording), never play or settlement: a
    # record of a long analysis does not key on them (analysis/paigow_exact.py)
    wording: tuple[str, ...] = ()


# Fields every step has (besides its kind's); `when`/`players` are rule-language conditions.
COMMON: dict[str, dict] = {
    "id": {"$ref": "#/$defs/id"},
    "do": None,  # the enum of the kinds, filled in by step_schema()
    "cite": {"$ref": "#/$defs/cite"},
    "title": {"$ref": "#/$defs/line"},  # one line (schemas/rulespec.schema.json)
    "when": {"$ref": "#/$defs/expr"},
    "players": {"$ref": "#/$defs/expr"},
    "order": {"enum": ["clockwise", "counterclockwise"]},
}

# The kinds, in the order the schema and the docs list them (module names).
_ORDER = ("announce", "burn", "deal", "reveal", "decide", "offer", "settle", "block", "envy", "set_hands",
          "roll", "collect_unwagered", "spin", "repeat", "split")

KINDS: dict[str, StepKind] = {}
for _name in _ORDER:
    _kind = importlib.import_module(f"{__name__}.{_name}").KIND
    assert _kind.name == _name, _name
    KINDS[_name] = _kind


def _merged() -> dict[str, dict]:
    """Every parameter and expression of every kind: one schema each, descriptions per kind joined.
    A parameter several kinds take has one type (enums are united, in order of first appearance)."""
    out: dict[str, dict] = {}
    for k in KINDS.values():
        items = list(k.params.items()) + [(n, {"$ref": "#/$defs/expr", "description": d}) for n, d in k.exprs.items()]
        for name, sch in items:
            sch = dict(sch)
            desc = sch.pop("description", "")
            cur = out.get(name)
            if cur is None:
                cur = out[name] = {**sch, "_desc": []}
            else:
                base = {x: y for x, y in cur.items() if x not in ("_desc", "enum")}
                if base != {x: y for x, y in sch.items() if x != "enum"}:
                    raise ValueError(f"step parameter {name!r}: kinds declare different types")
                if "enum" in sch:
                    cur["enum"] = list(cur.get("enum", [])) + [v for v in sch["enum"] if v not in cur.get("enum", [])]
            if desc:
                cur["_desc"].append(f"{k.name}: {desc}")
    for sch in out.values():
        desc = sch.pop("_desc")
        if desc:
            sch["description"] = "; ".join(desc)
    return out


PARAMS: tuple[str, ...] = tuple(n for k in KINDS.values() for n in k.params
                                if n not in ("rules", "choices", "steps"))
PARAMS = tuple(dict.fromkeys(PARAMS))
EXPRS: tuple[str, ...] = tuple(dict.fromkeys(n for k in KINDS.values() for n in k.exprs))


def step_schema() -> dict:
    """The JSON Schema of one procedure step (``$defs/step`` of schemas/rulespec.schema.json)."""
    props = {}
    for name, sch in COMMON.items():
        props[name] = sch if sch is not None else {"enum": list(KINDS), "description": "the step kind (compiler/steps/)"}
    props.update(_merged())
    cond = [{"if": {"properties": {"do": {"const": k.name}}},
             "then": {**({"required": list(k.required)} if k.required else {}), **(k.then or {})}}
            for k in KINDS.values() if k.required or k.then]
    return {"type": "object", "properties": props, "additionalProperties": False,
            "required": ["id", "do", "cite"], "allOf": cond}


def markdown_table() -> str:
    """The table of step kinds for docs/spec-format.md."""
    rows = ["| `do` | parameters | what the engine does |", "|---|---|---|"]
    for k in KINDS.values():
        names = [f"`{n}`" + ("*" if n in k.required else "") for n in list(k.params) + list(k.exprs)]
        rows.append(f"| `{k.name}` | {', '.join(names)} | {k.does} |")
    return "\n".join(rows) + "\n"
