"""A threshold hand read by ``is_hand`` as the ``at_least`` it stands for, for the card routes.

A ranking's named hand ``{at_least: pair, min_rank: '6'}`` (a pair of 6s or better) is met by cards exactly when
the best hand of the cards is at least that category and rank: ``is_hand(R, cards, sixes_or_better)`` and
``at_least(R, best(R, cards), pair, '6')`` are the same condition (``Ranking.matches_hand`` judges such a hand on
the best hand of the cards, ``Ranking.category_at_least`` with the same category and rank). The card routes'
pattern readers (``stud_model``, ``deal_common``) recognise a qualifier and a hand value written the second way;
:func:`threshold_steps` gives them the procedure with every such ``is_hand`` written so, so that a chapter may say
it either way (Double Down Stud: "a hand below a pair of 6s loses"). Card-set hands and other named hands are
left as they are (and refused by those readers as before)."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Mapping

from compiler.lang.syntax import BinOp, BoolOp, Call, ExprVisitor, Lit, Neg, Node, Not, Ref

__all__ = ["threshold_steps"]


class _Thresholds(ExprVisitor):
    """An expression with each ``is_hand`` of a threshold hand written as ``at_least(R, best(R, cards), ...)``."""

    def __init__(self, hands: Callable[[str, str], Mapping | None]):
        self.hands = hands  # (ranking id, hand id) -> the ranking's reading of that hand, or None

    def lit(self, n: Lit) -> Node:
        return n

    def ref(self, n: Ref) -> Node:
        return n

    def call(self, n: Call) -> Node:
        args = tuple(self.visit(a) for a in n.args)
        if n.name == "is_hand" and len(args) == 3 and isinstance(args[0], Ref) and isinstance(args[2], Ref):
            h = self.hands(args[0].parts[0], args[2].parts[0])
            if h is not None and "at_least" in h:
                rank = (Lit(str(h["min_rank"]), line=n.line, column=n.column),) if h.get("min_rank") is not None else ()
                best = Call("best", (args[0], args[1]), line=n.line, column=n.column)
                return Call("at_least", (args[0], best, Ref((h["at_least"],), line=n.line, column=n.column), *rank),
                            line=n.line, column=n.column)
        return replace(n, args=args)

    def binop(self, n: BinOp) -> Node:
        return replace(n, left=self.visit(n.left), right=self.visit(n.right))

    def boolop(self, n: BoolOp) -> Node:
        return replace(n, items=tuple(self.visit(x) for x in n.items))

    def not_(self, n: Not) -> Node:
        return replace(n, item=self.visit(n.item))

    def neg(self, n: Neg) -> Node:
        return replace(n, item=self.visit(n.item))


def threshold_steps(steps, ranking) -> list:
    """``steps`` (IR steps) with every ``is_hand`` of a threshold hand in their conditions written as the
    ``at_least`` it stands for; ``ranking(rid)``: the chapter's ranking evaluator (``Table.ranking``)."""
    def hands(rid: str, hid: str):
        try:
            return getattr(ranking(rid), "hands", {}).get(hid)
        except Exception:  # not a ranking of the chapter: left for the readers to refuse as before
            return None

    v = _Thresholds(hands)

    def expr(n):
        return None if n is None else v.visit(n)

    def step(s):
        return replace(s, when=expr(s.when), players=expr(s.players),
                       rules=tuple(replace(r, when=expr(r.when)) for r in s.rules),
                       choices=tuple(replace(c, when=expr(c.when)) for c in s.choices),
                       steps=tuple(step(x) for x in s.steps))

    return [step(s) for s in steps]
