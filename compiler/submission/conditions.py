"""Rule-language conditions over a Rules Submission's selections: evaluated (``Conditions``, on the chapter's
game as :mod:`compiler.runtime.from_ir` translates it), read (``options_read``) and said in words
(``describe_when``)."""
from __future__ import annotations

from typing import Any, Mapping

from compiler.lang.closures import closure
from compiler.lang.rules import BinOp, BoolOp, Call, Neg, Not, Ref, parse_expr
from compiler.runtime.engine import Context, Table


class Conditions:
    """Evaluates rule-language conditions (constraints, ``when``) over a set of selections."""

    def __init__(self, game, options: Mapping[str, Any]):
        self.table = Table(game, dict(options), seed=0)
        self.ctx = Context(self.table, None)

    def holds(self, expr) -> bool:
        node = parse_expr(expr) if isinstance(expr, str) else expr
        return bool(closure(node)(self.ctx))


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

