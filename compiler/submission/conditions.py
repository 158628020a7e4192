"""The compiled game of a chapter, and rule-language conditions over a Rules Submission's selections:
evaluated (``Conditions``), read (``options_read``) and said in words (``describe_when``)."""
from __future__ import annotations

from typing import Any, Mapping

from compiler.lang.rules import BinOp, BoolOp, Call, Neg, Not, Ref, compile_expr, parse_expr
from compiler.pipeline import _module
from compiler.runtime.engine import Context, Table


_GAMES: dict[tuple, tuple[Any, Any]] = {}


def game_of(ch):
    """The compiled game module of an IR chapter (the source `rulespec build` writes)."""
    key = (ch.spec_path, ch.chapter, id(ch))
    hit = _GAMES.get(key)
    if hit is None or hit[0] is not ch:
        from compiler.codegen.generate import render_game_module

        hit = _GAMES[key] = (ch, _module(ch.module_name, render_game_module(ch)))
    return hit[1]


class Conditions:
    """Evaluates rule-language conditions (constraints, ``when``) over a set of selections."""

    def __init__(self, game, options: Mapping[str, Any]):
        self.table = Table(game, dict(options), seed=0)
        self.ctx = Context(self.table, None)

    def holds(self, expr) -> bool:
        node = parse_expr(expr) if isinstance(expr, str) else expr
        return bool(eval(compile_expr(node), {"ctx": self.ctx}))  # compiled from the rule language only


def options_read(expr) -> list[str]:
    """Option ids a rule-language condition reads, in order of appearance."""
    node = parse_expr(expr) if isinstance(expr, str) else expr
    out: list[str] = []

    def walk(n):
        if isinstance(n, Call):
            if n.name == "option" and n.args and isinstance(n.args[0], Ref):
                if n.args[0].parts[0] not in out:
                    out.append(n.args[0].parts[0])
            for a in n.args:
                walk(a)
        elif isinstance(n, BinOp):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, BoolOp):
            for x in n.items:
                walk(x)
        elif isinstance(n, (Not, Neg)):
            walk(n.item)

    walk(node)
    return out



def describe_when(expr: str, options: Mapping) -> str:
    """``option(x)`` -> "<title of x>: yes"; ``not option(x)`` -> ": no"; otherwise the condition."""
    if not expr:
        return ""

    n = parse_expr(expr)
    neg = isinstance(n, Not)
    n = n.item if neg else n
    if isinstance(n, Call) and n.name == "option" and isinstance(n.args[0], Ref) and n.args[0].parts[0] in options:
        return f"{options[n.args[0].parts[0]]['title']}: {'no' if neg else 'yes'}"
    return expr

