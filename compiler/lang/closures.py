"""Rule-language expressions as Python closures over a context, for expressions given as data when a
table is set up (a casino's house way in its Rules Submission): the same meaning as
:func:`compiler.lang.rules.compile_expr`, which writes a game module's source, built from the AST
without ``eval`` or ``compile``. A name from the data reaches the context only as a string argument.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

from compiler.lang.emit import action_call, call_args
from compiler.lang.rules import FUNCTIONS, Action, BinOp, BoolOp, Call, Lit, Neg, Node, Not
from compiler.lang.syntax import RefVisitor

Fn = Callable[[Any], Any]

_BINARY = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge, "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


class Closure(RefVisitor):
    """``ctx -> value`` of an expression: the same meaning as :class:`compiler.lang.emit.PythonSource`."""

    def lit(self, n: Lit) -> Fn:
        v = n.value
        return lambda ctx: v

    def ref_zone(self, owner: str, attr: str | None) -> Fn:
        return lambda ctx: ctx.zone(owner, attr)

    def ref_event(self, owner: str, attr: str | None) -> Fn:
        return lambda ctx: ctx.event_attr(attr)

    def ref_dice(self, owner: str, attr: str | None) -> Fn:
        return lambda ctx: ctx.dice_attr(attr)

    def ref_pocket(self, owner: str, attr: str | None) -> Fn:
        return lambda ctx: ctx.pocket_attr(attr)

    def ref_round(self, owner: str, attr: str | None) -> Fn:
        return lambda ctx: ctx.round_attr(attr)

    def ref_state(self, owner: str, attr: str | None) -> Fn:
        return lambda ctx: ctx.state_attr(attr)

    def call(self, n: Call) -> Fn:
        live = [kind.rstrip("?") == "expr" for kind in FUNCTIONS[n.name]][:len(n.args)]
        args = tuple(zip(live, call_args(FUNCTIONS[n.name], n.args, self.visit, self.visit)))
        name = n.name

        def call(ctx, name=name, args=args):
            return getattr(ctx, name)(*[f(ctx) if on else f for on, f in args])

        return call

    def binop(self, n: BinOp) -> Fn:
        op, left, right = _BINARY[n.op], self.visit(n.left), self.visit(n.right)
        return lambda ctx: op(left(ctx), right(ctx))

    def boolop(self, n: BoolOp) -> Fn:
        items = [self.visit(x) for x in n.items]
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

    def not_(self, n: Not) -> Fn:
        item = self.visit(n.item)
        return lambda ctx: not item(ctx)

    def neg(self, n: Neg) -> Fn:
        item = self.visit(n.item)
        return lambda ctx: -item(ctx)


_CLOSURE = Closure()


def closure(n: Node) -> Fn:
    """``ctx -> value`` of the expression ``n`` (checked against the game's names before)."""
    return _CLOSURE.visit(n)


def action_closure(a: Action, cite: str) -> Fn:
    """``ctx -> None`` applying the outcome ``a`` of a rule of ``cite``: the call
    :func:`compiler.lang.emit.action_call` names, its expressions evaluated when it runs."""
    method, args, kw = action_call(a, cite)
    live_args = tuple((isinstance(x, Node), closure(x) if isinstance(x, Node) else x) for x in args)
    live_kw = tuple((k, isinstance(v, Node), closure(v) if isinstance(v, Node) else v) for k, v in kw.items())

    def apply(ctx):
        return getattr(ctx, method)(*[f(ctx) if on else f for on, f in live_args],
                                    **{k: f(ctx) if on else f for k, on, f in live_kw})

    return apply
