"""House ways given as data (a casino's Rules Submission selection of an option of type ``house_way``),
compiled by the rule-language front end into closures (:mod:`compiler.lang.closures`): parsed, checked
against the game's names, never passed to ``eval``. The runtime wraps the result into its HouseWay.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from compiler.lang.closures import closure
from compiler.lang.rules import Names, RuleSyntaxError, check_expr, parse_expr

Fn = Callable[[Any], Any]


class HouseWayError(ValueError):
    """A house way that cannot be compiled, or that chooses no setting for a hand."""


@dataclass(frozen=True)
class CompiledRule:
    cite: str
    when: Fn | None
    choose: tuple[tuple[str, Fn, str], ...]  # (keep | max | min, closure, text)
    where: str
    note: str


def _fn(text: str, where: str, names: Names) -> Fn:
    try:
        node = parse_expr(str(text))
    except RuleSyntaxError as e:
        raise HouseWayError(f"{where}: rule syntax: {e.message} (line {e.line}, column {e.column})") from None
    problems: list = []
    check_expr(node, names, problems)
    if problems:
        raise HouseWayError(f"{where}: " + "; ".join(p.message for p in problems))
    fn = closure(node)

    def guarded(ctx, fn=fn):
        try:
            return fn(ctx)
        except ZeroDivisionError:  # the engine reports it as its error for the step (never a traceback)
            raise HouseWayError(f"{where}: divides by zero: {text}") from None

    return guarded if "/" in str(text) else fn


def compile_house_way(data: Any, names: Names, id: str = "house_way", option_cite: str = ""
                      ) -> tuple[str, str, tuple[CompiledRule, ...]]:
    """(title, cite, rules) of a house way given as data: ``{title, cite, rules: [{cite, when, choose:
    [{keep|max|min: EXPR}]}]}``, or as a Rules Submission writes it (docs/submissions.md): a list
    ``[{rule, when?, choose, note?}]``, each rule cited by the option's § and named by its number and
    its ``rule`` text."""
    if isinstance(data, (list, tuple)):
        data = {"title": f"Rules Submission, option {id!r}", "cite": option_cite,
                "rules": [{**r, "cite": r.get("cite") or option_cite,
                           "note": f"rule {i + 1}: {r.get('rule', '')}" + (f" ({r['note']})" if r.get("note") else "")}
                          if isinstance(r, Mapping) else r for i, r in enumerate(data)]}
    if not isinstance(data, Mapping) or not isinstance(data.get("rules"), (list, tuple)) or not data["rules"]:
        raise HouseWayError(f"house way {id!r}: expected a mapping with a non-empty list 'rules'")
    rules = []
    for i, r in enumerate(data["rules"]):
        where = f"house way {id!r}, rule {i + 1}"
        if not isinstance(r, Mapping) or "cite" not in r or not r.get("choose"):
            raise HouseWayError(f"{where}: each rule needs 'cite' and a non-empty 'choose' list")
        crits = []
        for j, c in enumerate(r["choose"]):
            if not isinstance(c, Mapping) or len(set(c) & {"keep", "max", "min"}) != 1:
                raise HouseWayError(f"{where}, criterion {j + 1}: one of keep, max or min")
            kind = next(k for k in ("keep", "max", "min") if k in c)
            crits.append((kind, _fn(c[kind], f"{where}, {kind}", names), str(c[kind])))
        when = _fn(r["when"], f"{where}, when", names) if r.get("when") is not None else None
        rules.append(CompiledRule(str(r["cite"]), when, tuple(crits), where, str(r.get("note", ""))))
    return str(data.get("title", id)), str(data.get("cite", "")), tuple(rules)
