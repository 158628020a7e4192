"""What the rules of a points game read of the cards (for :mod:`compiler.analysis.points_exact`): the maximal
card-reading parts of an expression, and how each zone is read (by count and point sums, at some positions, or
in order). Each reading is a visitor of the rule language's one base (:class:`compiler.lang.syntax.ExprVisitor`).
"""
from __future__ import annotations

from compiler.lang.rules import FUNCTIONS as LANG_FUNCTIONS
from compiler.lang.rules import BinOp, BoolOp, Call, Lit, Node, Not, Ref, expr_nodes
from compiler.lang.syntax import Children, ExprVisitor

CARD_FUNCTIONS = frozenset({"total", "soft", "natural", "bust", "points", "card", "count", "hand", "category"})


class _CardOnly(ExprVisitor):
    """Whether an expression reads nothing but cards (through the card functions) and literals."""

    def lit(self, n: Lit) -> bool:
        return True

    def ref(self, n: Ref) -> bool:
        return True

    def call(self, n: Call) -> bool:
        sig = LANG_FUNCTIONS.get(n.name, ())
        return n.name in CARD_FUNCTIONS and all(self.visit(a) for kind, a in zip(sig, n.args)
                                                if kind.rstrip("?") in ("expr", "lambda"))

    def binop(self, n: BinOp) -> bool:
        return self.visit(n.left) and self.visit(n.right)

    def boolop(self, n: BoolOp) -> bool:
        return all(self.visit(x) for x in n.items)

    def not_(self, n: Not) -> bool:
        return self.visit(n.item)

    neg = not_


_CARD_ONLY = _CardOnly()
_CHILDREN = Children()


def _card_only(n: Node) -> bool:
    return _CARD_ONLY.visit(n)


def _reads_cards(n: Node) -> bool:
    return any(isinstance(x, Ref) for x in expr_nodes(n))


def observations(e: Node, out: list[Node]) -> None:
    """The maximal card-only parts of ``e`` that read a card (the rest reads no card)."""
    if _card_only(e):
        if _reads_cards(e):
            out.append(e)
        return
    for x in _CHILDREN.visit(e):
        observations(x, out)


SUMMARY_FUNCTIONS = frozenset({"total", "soft", "natural", "bust", "points", "count", "hand"})


def _zone_key_of(r: Ref) -> tuple:
    return (r.parts[0], r.parts[1] if len(r.parts) > 1 else None)


class _ZoneReads(ExprVisitor):
    """How every zone reference is read: ``out[(owner, zone)]`` is ``"raw"`` when some read may see more than the
    zone's card count and point sums, else the set of positions read by ``card(zone, n)`` (``under``: inside the
    argument of a function that reads a hand only by its count and point sums, through ``+``)."""

    def __init__(self, out: dict, under: bool = False):
        self.out = out
        self.under = under

    def at(self, under: bool) -> "_ZoneReads":
        return self if under == self.under else _ZoneReads(self.out, under)

    def lit(self, n: Lit) -> None:
        return None

    def ref(self, n: Ref) -> None:
        key = _zone_key_of(n)
        if not self.under:
            self.out[key] = "raw"
        else:
            self.out.setdefault(key, set())

    def call(self, n: Call) -> None:
        if n.name == "card" and len(n.args) == 2 and isinstance(n.args[0], Ref) and isinstance(n.args[1], Lit) \
                and isinstance(n.args[1].value, int):
            key = _zone_key_of(n.args[0])
            if self.out.get(key) != "raw":
                self.out.setdefault(key, set()).add(n.args[1].value)
            return
        sig = LANG_FUNCTIONS.get(n.name, ())
        inner = self.at(n.name in SUMMARY_FUNCTIONS)
        for kind, a in zip(sig, n.args):
            if kind.rstrip("?") in ("expr", "lambda"):
                inner.visit(a)

    def binop(self, n: BinOp) -> None:
        inner = self.at(self.under and n.op == "+")
        inner.visit(n.left)
        inner.visit(n.right)

    def boolop(self, n: BoolOp) -> None:
        for x in n.items:
            self.at(False).visit(x)

    def not_(self, n: Not) -> None:
        self.at(False).visit(n.item)

    neg = not_


def zone_reads(n: Node, under: bool, out: dict) -> None:
    """Record how every zone reference of ``n`` is read (see :class:`_ZoneReads`)."""
    _ZoneReads(out, under).visit(n)
