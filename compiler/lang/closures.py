"""Rule-language expressions as Python closures over a context, for expressions given as data when a
table is set up (a casino's house way in its Rules Submission): the same meaning as
:func:`compiler.lang.rules.compile_expr`, which writes a game module's source, built from the AST
without ``eval`` or ``compile``. A name from the data reaches the context only as a string argument.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

from compiler.lang.rules import FUNCTIONS, BinOp, BoolOp, Call, Lit, Neg, Node, Not, Ref

Fn = Callable[[Any], Any]

_BINARY = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge, "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def closure(n: Node) -> Fn:
    """``ctx -> value`` of the expression ``n`` (checked against the game's names before)."""
    if isinstance(n, Lit):
        v = n.value
        return lambda ctx: v
    if isinstance(n, Ref):
        owner = n.parts[0]
        attr = n.parts[1] if len(n.parts) > 1 else None
        if owner in ("player", "dealer", "community", "setting"):
            return lambda ctx: ctx.zone(owner, attr)
        if owner == "event":
            return lambda ctx: ctx.event_attr(attr)
        if owner == "dice":
            return lambda ctx: ctx.dice_attr(attr)
        if owner == "pocket":
            return lambda ctx: ctx.pocket_attr(attr)
        if owner == "round":
            return lambda ctx: ctx.round_attr(attr)
        if owner == "state":
            return lambda ctx: ctx.state_attr(attr)
        raise ValueError(f"cannot compile reference {n.parts!r}")
    if isinstance(n, Call):
        sig = FUNCTIONS[n.name]
        args: list[tuple[bool, Any]] = []  # (evaluated per call, value or closure)
        for kind, a in zip(sig, n.args):
            kind = kind.rstrip("?")
            if kind == "expr":
                args.append((True, closure(a)))
            elif kind == "lambda":
                args.append((False, closure(a)))
            elif kind == "rank":
                args.append((False, str(a.value) if isinstance(a, Lit) else a.parts[0]))
            elif kind == "position":
                args.append((False, int(a.value)))
            else:
                args.append((False, a.parts[0]))
        name = n.name

        def call(ctx, name=name, args=tuple(args)):
            return getattr(ctx, name)(*[f(ctx) if live else f for live, f in args])

        return call
    if isinstance(n, BinOp):
        op, left, right = _BINARY[n.op], closure(n.left), closure(n.right)
        return lambda ctx: op(left(ctx), right(ctx))
    if isinstance(n, BoolOp):
        items = [closure(x) for x in n.items]
        if n.op == "and":
            def all_of(ctx):
                v = True
                for f in items:
                    v = f(ctx)
                    if not v:
                        return v
                return v
            return all_of

        def any_of(ctx):
            v = False
            for f in items:
                v = f(ctx)
                if v:
                    return v
            return v
        return any_of
    if isinstance(n, Not):
        item = closure(n.item)
        return lambda ctx: not item(ctx)
    if isinstance(n, Neg):
        item = closure(n.item)
        return lambda ctx: -item(ctx)
    raise ValueError(f"cannot compile {n!r}")
