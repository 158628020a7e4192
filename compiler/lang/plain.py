"""Rule-language conditions in plain words, for documents people read (the blank form).

Rendered from the parsed rule AST (compiler/lang/syntax.py), never from the chapter: an option
reads as its title from the rulespec, its values as words.

    option(automated_shuffler)                 -> "Automated card shuffling device used: yes"
    option(starting_position) == 'shaker'      -> "How the starting position is determined: shaker"
    option(adjacent_positions) > 0 and not x   -> "... : more than 0, and ...: no"
    total(community.banker) <= 2               -> "total of community banker: 2 or less"
    not natural(community.player)              -> "not: community player is a natural"
"""
from __future__ import annotations

from typing import Any, Mapping

from compiler.lang.syntax import BinOp, BoolOp, Call, ExprVisitor, Lit, Not, Ref, parse_expr

_CMP = {"==": "{}", "!=": "not {}", ">": "more than {}", ">=": "{} or more", "<": "less than {}", "<=": "{} or less"}


def _titles(options: Any) -> dict[str, str]:
    if isinstance(options, Mapping):
        return {k: (v.get("title", k) if isinstance(v, Mapping) else str(v)) for k, v in options.items()}
    return {o["id"]: o.get("title", o["id"]) for o in options or ()}


def _value(node) -> str:
    if isinstance(node, Lit):
        v = node.value
        if isinstance(v, bool):
            return "yes" if v else "no"
        return str(v).replace("_", " ")
    if isinstance(node, Ref):
        return " ".join(p.replace("_", " ") for p in node.parts)
    return None


def _option(node, titles) -> str | None:
    if isinstance(node, Call) and node.name == "option" and node.args and isinstance(node.args[0], Ref):
        oid = node.args[0].parts[0]
        return titles.get(oid, oid.replace("_", " "))
    return None


# hands valued by points (docs/rule-language.md "Points"): a value of the cards, and a property of them
_POINTS_VALUE = {"total": "total of {}", "points": "points of {}", "count": "number of {}"}
_POINTS_TEST = {"soft": "{} is a soft total", "natural": "{} is a natural", "bust": "{} is bust"}


def _cards(node) -> str | None:
    """Cards in words: ``community.banker`` -> "community banker", ``card(community.player, 3)`` -> "card 3 of
    community player", ``a + b`` -> "a and b"."""
    if isinstance(node, Ref):
        return " ".join(p.replace("_", " ") for p in node.parts if p != "cards") + (
            " cards" if node.parts[-1] == "cards" or len(node.parts) == 1 else "")
    if isinstance(node, Call) and node.name == "card" and len(node.args) == 2 and isinstance(node.args[1], Lit):
        inner = _cards(node.args[0])
        return None if inner is None else f"card {node.args[1].value} of {inner}"
    if isinstance(node, BinOp) and node.op == "+":
        a, b = _cards(node.left), _cards(node.right)
        return None if a is None or b is None else f"{a} and {b}"
    return None


def _points(node) -> tuple[str, bool] | None:
    """(words, whether they are a test) of a points function of cards; None for anything else."""
    if not isinstance(node, Call) or not node.args or node.name not in {**_POINTS_VALUE, **_POINTS_TEST}:
        return None
    cards = _cards(node.args[0])
    if cards is None:
        return None
    if node.name in _POINTS_TEST:
        return _POINTS_TEST[node.name].format(cards), True
    return _POINTS_VALUE[node.name].format(cards), False


class Words(ExprVisitor):
    """A condition in words, or None where a part has no plain reading (the caller keeps the code)."""

    def __init__(self, titles: Mapping[str, str], nested: bool = False):
        self.titles = titles
        self.nested = nested

    def inner(self, node) -> str | None:
        return Words(self.titles, True).visit(node)

    def lit(self, node: Lit) -> None:
        return None

    def ref(self, node: Ref) -> None:
        return None

    def neg(self, node) -> None:
        return None

    def call(self, node: Call) -> str | None:
        pts = _points(node)
        if pts is not None and pts[1]:
            return pts[0]
        title = _option(node, self.titles)
        return None if title is None else f"{title}: yes"

    def binop(self, node: BinOp) -> str | None:
        if node.op not in _CMP:
            return None
        if isinstance(node.right, Lit):
            pts = _points(node.left)
            if pts is not None and not pts[1]:
                return f"{pts[0]}: {_CMP[node.op].format(_value(node.right))}"
        t, v = _option(node.left, self.titles), _value(node.right)
        if t is None or v is None:
            t, v = _option(node.right, self.titles), _value(node.left)
        if t is None or v is None:
            return None
        return f"{t}: {_CMP[node.op].format(v)}"

    def not_(self, node: Not) -> str | None:
        pts = _points(node.item)
        if pts is not None and pts[1]:
            return "not: " + pts[0]
        t = _option(node.item, self.titles)
        if t is not None:
            return f"{t}: no"
        inner = self.inner(node.item)
        return None if inner is None else f"not ({inner})"

    def boolop(self, node: BoolOp) -> str | None:
        parts = [self.inner(x) for x in node.items]
        if any(p is None for p in parts):
            return None
        joined = f"; {node.op} ".join(parts)
        return f"({joined})" if self.nested else joined


def words(node, titles: Mapping[str, str], nested: bool = False) -> str | None:
    """The condition in words, or None where a part has no plain reading (the caller keeps the code)."""
    return Words(titles, nested).visit(node)


def plain_when(expr: str, options: Any = ()) -> str:
    """A ``when`` condition of the rule language in words (the code itself if it has no plain reading)."""
    if not expr or expr == "always":
        return "always"
    try:
        node = parse_expr(expr)
    except Exception:  # not a condition of the rule language: shown as written
        return expr
    return words(node, _titles(options)) or expr
