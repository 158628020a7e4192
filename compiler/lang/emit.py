"""The rule language compiled to Python source for the generated game modules: expressions
become calls on the runtime's ``ctx``; a spec's names reach the code only as ``repr()`` literals,
so no spec text can inject code. Odds are written by the value layer (:meth:`Odds.source`)."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from compiler.lang.names import FUNCTIONS
from compiler.values.odds import Odds
from compiler.lang.syntax import Action, BinOp, BoolOp, Call, Lit, Neg, Node, Not, Ref, RefVisitor

def _lit(value: Any) -> str:
    if isinstance(value, Decimal):
        return f"Decimal({str(value)!r})"
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    return repr(value)


def call_args(sig, args, expr, lam) -> list:
    """A call's arguments by the kinds of its signature: ``expr(a)`` and ``lam(a)`` for its expressions, a
    name's or a number's value for the rest (shared by every visitor that calls the runtime's functions)."""
    out = []
    for kind, a in zip(sig, args):
        kind = kind.rstrip("?")
        if kind == "expr":
            out.append(expr(a))
        elif kind == "lambda":
            out.append(lam(a))
        elif kind == "rank":
            out.append(str(a.value) if isinstance(a, Lit) else a.parts[0])
        elif kind == "position":
            out.append(int(a.value))
        else:
            out.append(a.parts[0])
    return out


class PythonSource(RefVisitor):
    """An expression as Python source over ``ctx`` (a game module's code): names from the spec appear only
    inside ``repr()`` literals."""

    def lit(self, n: Lit) -> str:
        return _lit(n.value)

    def ref_zone(self, owner: str, attr: str | None) -> str:
        return f"ctx.zone({owner!r}, {attr!r})"

    def ref_event(self, owner: str, attr: str | None) -> str:
        return f"ctx.event_attr({attr!r})"

    def ref_dice(self, owner: str, attr: str | None) -> str:
        return f"ctx.dice_attr({attr!r})"

    def ref_pocket(self, owner: str, attr: str | None) -> str:
        return f"ctx.pocket_attr({attr!r})"

    def ref_round(self, owner: str, attr: str | None) -> str:
        return f"ctx.round_attr({attr!r})"

    def ref_state(self, owner: str, attr: str | None) -> str:
        return f"ctx.state_attr({attr!r})"

    def call(self, n: Call) -> str:
        args = call_args(FUNCTIONS[n.name], n.args, lambda a: _Code(self.visit(a)), lambda a: _Code(f"(lambda ctx: {self.visit(a)})"))
        return f"ctx.{n.name}({', '.join(a if isinstance(a, _Code) else repr(a) for a in args)})"

    def binop(self, n: BinOp) -> str:
        return f"({self.visit(n.left)} {n.op} {self.visit(n.right)})"

    def boolop(self, n: BoolOp) -> str:
        return "(" + f" {n.op} ".join(self.visit(x) for x in n.items) + ")"

    def not_(self, n: Not) -> str:
        return f"(not {self.visit(n.item)})"

    def neg(self, n: Neg) -> str:
        return f"(-{self.visit(n.item)})"


class _Code(str):
    """Source already written (not a value to quote)."""


_PYTHON = PythonSource()


def compile_expr(n: Node) -> str:
    """Python expression over ``ctx``; names from the spec appear only inside repr() literals."""
    return _PYTHON.visit(n)


_BARE = ("void_round", "discard_card", "use_card", "reshuffle", "remove_deck", "end")


def action_call(a: Action, cite: str) -> tuple[str, tuple, dict]:
    """The call on the runtime's context an outcome makes: (method, arguments, keyword arguments), each
    argument a value or an expression (a :class:`Node`, evaluated when the outcome is applied). The one
    reading of an outcome: the game module's source (:func:`compile_action`) and the closures
    (:func:`compiler.lang.closures.action_closure`) both write this call."""
    k, w = a.kind, a.wager
    if k == "win":
        if a.paytable is not None:
            return "win", (w, cite), {"paytable": a.paytable, "value": a.value}
        if a.payout is not None:
            return "win", (w, cite), {"payout": a.payout}
        if a.odds is not None:
            return "win", (w, cite), {"odds": a.odds}
        return "win", (w, cite), {}
    calls = {
        "bonus": lambda: ("bonus", (w, cite, a.paytable, a.value), {}),
        "lose": lambda: ("lose", (w, cite), {}),
        "push": lambda: ("push", (w, cite), {}),
        "return": lambda: ("void", (w, cite), {}),
        "surrender": lambda: ("surrender", (w, a.fraction, cite), {}),
        "place": lambda: ("place", (w, a.value, cite), {}),
        "set": lambda: ("set_flag", (a.name, cite), {}),
        "set_state": lambda: ("set_state", (a.name, a.value, cite), {}),
        "clear": lambda: ("clear_flag", (a.name, cite), {}),
        "note": lambda: ("note", (a.text, cite), {}),
        **{b: (lambda b=b: (b, (cite,), {})) for b in _BARE},
    }
    if k not in calls:
        raise ValueError(f"cannot compile action {k!r}")
    return calls[k]()


def divides(node: Node | None) -> bool:
    """Whether the expression divides (``/`` anywhere in it): its evaluation is then guarded, so that a
    division by zero is the engine's error naming the rule (:func:`division_message`), never a traceback."""
    if isinstance(node, BinOp):
        return node.op == "/" or divides(node.left) or divides(node.right)
    if isinstance(node, Call):
        return any(divides(x) for x in node.args)
    if isinstance(node, BoolOp):
        return any(divides(x) for x in node.items)
    if isinstance(node, (Not, Neg)):
        return divides(node.item)
    return False


def actions_divide(actions) -> bool:
    """Whether an outcome's values divide (the only expressions an outcome evaluates are its ``value``s)."""
    return any(getattr(a, "value", None) is not None and divides(a.value) for a in actions)


def division_message(kind: str, cite: str, src, text: str) -> str:
    """The engine's error when the ``kind`` (when, then, ...) of the rule of ``cite`` at ``src`` divides by zero."""
    return f"{src.path}:{src.line}:{src.col}: the {kind} of the rule of {cite} divides by zero: {text}"


def _arg_source(v: Any) -> str:
    if isinstance(v, Node):
        return compile_expr(v)
    if isinstance(v, Odds):
        return v.source()
    return _lit(v)


def compile_action(a: Action, cite: str) -> str:
    method, args, kw = action_call(a, cite)
    parts = [_arg_source(x) for x in args] + [f"{k}={_arg_source(v)}" for k, v in kw.items()]
    return f"ctx.{method}({', '.join(parts)})"
