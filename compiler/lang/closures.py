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
        return _method_call(n.name, tuple(zip(live, call_args(FUNCTIONS[n.name], n.args, self.visit, self.visit))))

    def binop(self, n: BinOp) -> Fn:
        op, left, right = _BINARY[n.op], self.visit(n.left), self.visit(n.right)
        return lambda ctx: op(left(ctx), right(ctx))

    def boolop(self, n: BoolOp) -> Fn:
        items = [self.visit(x) for x in n.items]
        if len(items) == 2:  # the common case, as Python's own ``and``/``or`` (the value that decides)
            first, second = items
            if n.op == "and":
                return lambda ctx: first(ctx) and second(ctx)
            return lambda ctx: first(ctx) or second(ctx)
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


def _method_call(name: str, args: tuple, kw: tuple = ()) -> Fn:
    """``ctx -> ctx.<name>(*args, **kw)``, each argument ``(live, f)``: ``f(ctx)`` where live, else the value
    ``f``. The common shapes (no live argument; one, after values) are made without a loop per call."""
    if not any(on for on, _ in args) and not any(on for _, on, _ in kw):
        return operator.methodcaller(name, *[f for _, f in args], **{k: v for k, _, v in kw})
    if not kw and [on for on, _ in args] == [False] * (len(args) - 1) + [True]:
        values, last = tuple(f for _, f in args[:-1]), args[-1][1]
        if not values:
            return lambda ctx: getattr(ctx, name)(last(ctx))
        return lambda ctx: getattr(ctx, name)(*values, last(ctx))

    def call(ctx):
        return getattr(ctx, name)(*[f(ctx) if on else f for on, f in args],
                                  **{k: f(ctx) if on else f for k, on, f in kw})

    return call


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
    return _method_call(method, live_args, live_kw)
