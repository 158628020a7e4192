"""The rule language compiled to Python source for the generated game modules: expressions
become calls on the runtime's ``ctx``; a spec's names reach the code only as ``repr()`` literals,
so no spec text can inject code. Odds are written by the value layer (:meth:`Odds.source`)."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from compiler.lang.names import FUNCTIONS
from compiler.lang.syntax import Action, BinOp, BoolOp, Call, Lit, Neg, Node, Not, Ref

def _lit(value: Any) -> str:
    if isinstance(value, Decimal):
        return f"Decimal({str(value)!r})"
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    return repr(value)


def compile_expr(n: Node) -> str:
    """Python expression over ``ctx``; names from the spec appear only inside repr() literals."""
    if isinstance(n, Lit):
        return _lit(n.value)
    if isinstance(n, Ref):
        owner = n.parts[0]
        attr = n.parts[1] if len(n.parts) > 1 else None
        if owner in ("player", "dealer", "community", "setting"):
            return f"ctx.zone({owner!r}, {attr!r})"
        if owner == "event":
            return f"ctx.event_attr({attr!r})"
        if owner == "dice":
            return f"ctx.dice_attr({attr!r})"
        if owner == "pocket":
            return f"ctx.pocket_attr({attr!r})"
        if owner == "round":
            return f"ctx.round_attr({attr!r})"
        if owner == "state":
            return f"ctx.state_attr({attr!r})"
        raise ValueError(f"cannot compile reference {n.parts!r}")
    if isinstance(n, Call):
        sig = FUNCTIONS[n.name]
        args = []
        for kind, a in zip(sig, n.args):
            kind = kind.rstrip("?")
            if kind == "expr":
                args.append(compile_expr(a))
            elif kind == "lambda":
                args.append(f"(lambda ctx: {compile_expr(a)})")
            elif kind == "rank":
                args.append(repr(str(a.value) if isinstance(a, Lit) else a.parts[0]))
            elif kind == "position":
                args.append(repr(int(a.value)))
            else:
                args.append(repr(a.parts[0]))
        return f"ctx.{n.name}({', '.join(args)})"
    if isinstance(n, BinOp):
        return f"({compile_expr(n.left)} {n.op} {compile_expr(n.right)})"
    if isinstance(n, BoolOp):
        return "(" + f" {n.op} ".join(compile_expr(x) for x in n.items) + ")"
    if isinstance(n, Not):
        return f"(not {compile_expr(n.item)})"
    if isinstance(n, Neg):
        return f"(-{compile_expr(n.item)})"
    raise ValueError(f"cannot compile {n!r}")


def compile_action(a: Action, cite: str) -> str:
    c = repr(cite)
    w = repr(a.wager) if a.wager is not None else None
    k = a.kind
    if k == "win":
        if a.paytable is not None:
            return f"ctx.win({w}, {c}, paytable={a.paytable!r}, value={compile_expr(a.value)})"
        if a.payout is not None:
            return f"ctx.win({w}, {c}, payout={a.payout!r})"
        if a.odds is not None:
            return f"ctx.win({w}, {c}, odds={a.odds.source()})"
        return f"ctx.win({w}, {c})"
    if k == "bonus":
        return f"ctx.bonus({w}, {c}, {a.paytable!r}, {compile_expr(a.value)})"
    if k in ("lose", "push"):
        return f"ctx.{k}({w}, {c})"
    if k == "return":
        return f"ctx.void({w}, {c})"
    if k == "surrender":
        return f"ctx.surrender({w}, {_lit(a.fraction)}, {c})"
    if k == "place":
        return f"ctx.place({w}, {compile_expr(a.value)}, {c})"
    if k == "set":
        return f"ctx.set_flag({a.name!r}, {c})"
    if k == "set_state":
        return f"ctx.set_state({a.name!r}, {compile_expr(a.value)}, {c})"
    if k == "clear":
        return f"ctx.clear_flag({a.name!r}, {c})"
    if k == "note":
        return f"ctx.note({a.text!r}, {c})"
    if k in ("void_round", "discard_card", "use_card", "reshuffle", "remove_deck", "end"):
        return f"ctx.{k}({c})"
    raise ValueError(f"cannot compile action {k!r}")
