"""The required fields of a rulespec, read from its JSON Schema: the table of
``docs/spec-format.md`` that ``python -m compiler.steps --write`` keeps current (a field the
schema requires is never left undocumented, issue 27 item 5)."""
from __future__ import annotations

from typing import Any


def required_fields(schema: dict) -> list[tuple[str, list[str]]]:
    """(place, required keys) for every object of the schema that requires keys, outermost first;
    a place is a path of keys (``cards``, ``wagers.*``, ``procedure[]``); ``$defs`` are followed once."""
    defs = schema.get("$defs", {})
    out: dict[str, list[str]] = {}
    seen: set[str] = set()

    def walk(node: Any, place: str) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.split("/")[-1]
            if name not in seen:  # documented where it is first used
                seen.add(name)
                walk(defs.get(name), place)
            return
        req = node.get("required")
        if isinstance(req, list) and req and all(isinstance(r, str) for r in req) and place:
            out.setdefault(place, [])
            out[place] += [f"`{r}`" for r in req if f"`{r}`" not in out[place]]
        for k, v in (node.get("properties") or {}).items():
            walk(v, f"{place}.{k}" if place else k)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{place}.*")
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{place}[]")
        for key in ("oneOf", "anyOf", "allOf"):
            alts = [a for a in node.get(key) or () if isinstance(a, dict)]
            only_required = [a["required"] for a in alts if set(a) == {"required"} and isinstance(a["required"], list)]
            if key != "allOf" and alts and len(only_required) == len(alts):  # one of these keys
                group = "one of " + " or ".join("+".join(f"`{r}`" for r in req) for req in only_required)
                out.setdefault(place, [])
                if group not in out[place]:
                    out[place].append(group)
                continue
            for alt in alts:
                walk(alt, place)

    walk({k: v for k, v in schema.items() if k != "required"}, "")
    top = [("(top level)", [f"`{r}`" for r in schema.get("required") or ()])]
    return top + sorted(out.items())


def markdown(schema: dict) -> str:
    rows = ["| where | required |", "|---|---|"]
    for place, keys in required_fields(schema):
        where = f"`{place}`" if place != "(top level)" else place
        rows.append(f"| {where} | {', '.join(keys)} |")
    return "\n".join(rows) + "\n"
