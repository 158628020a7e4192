"""The rule language's syntax: the grammar (``rules.lark`` beside this file, LALR, strict), the
tree of a parsed condition or outcome (:class:`Node` and its kinds) and the parser with its
positioned :class:`RuleSyntaxError`. The vocabulary is in :mod:`compiler.lang.rules`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from compiler.values.odds import Odds, parse_odds
from compiler.spec.limits import MAX_EXPR_CHARS, MAX_EXPR_DEPTH, MAX_NUMBER_DIGITS


class RuleSyntaxError(ValueError):
    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


_OPTIONS = {"parser": "lalr", "strict": True, "propagate_positions": True, "start": ["start_expr", "start_actions"]}


def build_parser(grammar: str) -> Lark:
    """The rule language's LALR parser built from its grammar, strictly (every terminal collision an
    error): seconds of a process's start-up under load, hence :func:`_parser`'s cache."""
    return Lark(grammar, **_OPTIONS)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The parser, built strictly once per grammar and lark version, then read from the build cache
    (compiler/lang/lark_cache.py; docs/speed.md: start-up)."""
    from compiler.lang.lark_cache import cached_lark

    grammar = resources.files("compiler.lang").joinpath("rules.lark").read_text(encoding="utf-8")
    return cached_lark("rules", grammar, **_OPTIONS)


# ---------------------------------------------------------------------------------------------
# AST
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    line: int = field(default=1, compare=False, kw_only=True)
    column: int = field(default=1, compare=False, kw_only=True)


@dataclass(frozen=True)
class Lit(Node):
    value: Any


@dataclass(frozen=True)
class Ref(Node):
    parts: tuple[str, ...]


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # and | or
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Not(Node):
    item: Node


@dataclass(frozen=True)
class Neg(Node):
    item: Node


# ---------------------------------------------------------------------------------------------
# the one walk over expressions: every reading of the tree is a visitor with a case per node type
# ---------------------------------------------------------------------------------------------

#: node type -> the method of a visitor that reads it; a node type added here makes every visitor that lacks
#: its case fail (at import: :meth:`ExprVisitor.__init_subclass__`; in tests: :func:`missing_cases`)
EXPR_CASES: dict[type, str] = {Lit: "lit", Ref: "ref", Call: "call", BinOp: "binop", BoolOp: "boolop", Not: "not_",
                               Neg: "neg"}

#: an owner of a reference (``player.hand``, ``dice.total``) -> the case of a :class:`RefVisitor` that reads it;
#: the language's owners (``compiler.lang.names.OWNERS``) are exactly these keys (a test checks it)
REF_CASES: dict[str, str] = {"player": "ref_zone", "dealer": "ref_zone", "community": "ref_zone",
                             "setting": "ref_zone", "event": "ref_event", "dice": "ref_dice", "pocket": "ref_pocket",
                             "round": "ref_round", "state": "ref_state"}

#: every concrete visitor class, by name (tests check each against the node types and owners)
VISITORS: dict[str, type] = {}


class ExprVisitor:
    """The base of every reading of an expression tree: :meth:`visit` dispatches on the node's type to the
    method :data:`EXPR_CASES` names. A subclass that lacks a case is refused when it is defined (at import), with
    the visitor and the case named, so a construct added to the language cannot be skipped silently by one
    reader; ``abstract=True`` marks a base that is not itself a reader."""

    def __init_subclass__(cls, abstract: bool = False, **kw):
        super().__init_subclass__(**kw)
        if abstract:
            return
        missing = missing_cases(cls)
        if missing:
            raise TypeError(f"expression visitor {cls.__module__}.{cls.__qualname__} has no case for "
                            + ", ".join(missing))
        VISITORS[f"{cls.__module__}.{cls.__qualname__}"] = cls

    @classmethod
    def required_cases(cls) -> dict[str, str]:
        """method name -> what it reads."""
        return {m: f"node {t.__name__}" for t, m in EXPR_CASES.items()}

    def visit(self, n: Node):
        method = getattr(self, EXPR_CASES.get(type(n), "?"), None)
        if method is None:
            raise TypeError(f"{type(self).__qualname__}: no case for node {type(n).__name__}")
        return method(n)


class RefVisitor(ExprVisitor, abstract=True):
    """A visitor that reads references owner by owner: ``ref`` dispatches to the case :data:`REF_CASES`
    names, with the owner and the attribute (``None`` for a bare owner)."""

    @classmethod
    def required_cases(cls) -> dict[str, str]:
        out = {m: w for m, w in super().required_cases().items() if m != "ref"}
        for owner, m in REF_CASES.items():
            out.setdefault(m, f"references of owner {owner}")
        return out

    def ref(self, n: Ref):
        owner = n.parts[0]
        case = REF_CASES.get(owner)
        if case is None:
            raise ValueError(f"cannot compile reference {n.parts!r}")
        return getattr(self, case)(owner, n.parts[1] if len(n.parts) > 1 else None)


def missing_cases(cls: type) -> list[str]:
    """The cases visitor class ``cls`` lacks (``"binop (node BinOp)"``), none when it reads every construct."""
    return [f"{m} ({what})" for m, what in cls.required_cases().items() if not callable(getattr(cls, m, None))]


class _Source(ExprVisitor):
    """An expression written back in the rule language."""

    def wrap(self, x: Node) -> str:
        return f"({self.visit(x)})" if isinstance(x, (BinOp, BoolOp, Not, Neg)) else self.visit(x)

    def lit(self, n: Lit) -> str:
        v = n.value
        if isinstance(v, bool):
            return "true" if v else "false"
        return repr(v) if isinstance(v, str) else str(v)

    def ref(self, n: Ref) -> str:
        return ".".join(n.parts)

    def call(self, n: Call) -> str:
        return f"{n.name}({', '.join(self.visit(a) for a in n.args)})"

    def binop(self, n: BinOp) -> str:
        return f"{self.wrap(n.left)} {n.op} {self.wrap(n.right)}"

    def boolop(self, n: BoolOp) -> str:
        return f" {n.op} ".join(self.wrap(x) if isinstance(x, BoolOp) else self.visit(x) for x in n.items)

    def not_(self, n: Not) -> str:
        return f"not {self.wrap(n.item)}"

    def neg(self, n: Neg) -> str:
        return f"-{self.wrap(n.item)}"


_SOURCE = _Source()


def source(n: Node) -> str:
    """An expression written back in the rule language (for messages: never a Python repr of the tree);
    a compound operand is put in parentheses, so the text parses to the same tree."""
    return _SOURCE.visit(n)


class Children(ExprVisitor):
    """The sub-expressions of a node, in order (every argument of a call: see ``expr_nodes`` in
    :mod:`compiler.lang.names` for only those of kind expression)."""

    def lit(self, n: Lit) -> tuple:
        return ()

    def ref(self, n: Ref) -> tuple:
        return ()

    def call(self, n: Call) -> tuple:
        return tuple(n.args)

    def binop(self, n: BinOp) -> tuple:
        return (n.left, n.right)

    def boolop(self, n: BoolOp) -> tuple:
        return tuple(n.items)

    def not_(self, n: Not) -> tuple:
        return (n.item,)

    def neg(self, n: Neg) -> tuple:
        return (n.item,)


_CHILDREN = Children()


def nodes(n: Node | None, children: ExprVisitor = _CHILDREN):
    """Every node of an expression, the node itself first, depth first (``None``: none); ``children`` gives a
    node's sub-expressions (by default all of them)."""
    if n is None:
        return
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(children.visit(x)))


@dataclass(frozen=True)
class Action(Node):
    kind: str
    wager: str | None = None  # '*' for all
    payout: str | None = None
    odds: Odds | None = None
    paytable: str | None = None
    value: Node | None = None
    fraction: Fraction | None = None
    name: str | None = None
    text: str | None = None


def _pos(meta) -> dict:
    if getattr(meta, "empty", True):
        return {}
    return {"line": meta.line, "column": meta.column}


def _num(tok: str) -> Fraction:
    return Fraction(tok.replace(",", ""))


@v_args(meta=True)
class _ToAst(Transformer):
    def start_expr(self, meta, c):
        return c[0]

    def start_actions(self, meta, c):
        return tuple(c)

    # expressions
    def or_(self, meta, c):
        items = []
        for x in c:
            items.extend(x.items if isinstance(x, BoolOp) and x.op == "or" else [x])
        return BoolOp("or", tuple(items), **_pos(meta))

    def and_(self, meta, c):
        items = []
        for x in c:
            items.extend(x.items if isinstance(x, BoolOp) and x.op == "and" else [x])
        return BoolOp("and", tuple(items), **_pos(meta))

    def not_(self, meta, c):
        return Not(c[0], **_pos(meta))

    def compare(self, meta, c):
        return BinOp(str(c[1]), c[0], c[2], **_pos(meta))

    def arith(self, meta, c):
        return BinOp(str(c[1]), c[0], c[2], **_pos(meta))

    def neg(self, meta, c):
        return Neg(c[0], **_pos(meta))

    def int_(self, meta, c):
        return Lit(int(c[0]), **_pos(meta))

    def decimal_(self, meta, c):
        return Lit(Decimal(str(c[0])), **_pos(meta))

    def money(self, meta, c):
        return Lit(Decimal(str(c[0])[1:].replace(",", "")), **_pos(meta))

    def string(self, meta, c):
        return Lit(str(c[0])[1:-1], **_pos(meta))

    def true(self, meta, c):
        return Lit(True, **_pos(meta))

    def false(self, meta, c):
        return Lit(False, **_pos(meta))

    def call(self, meta, c):
        name = str(c[0])
        args = tuple(a for a in c[1:] if a is not None)
        return Call(name, args, **_pos(meta))

    def ref(self, meta, c):
        return Ref(tuple(str(t) for t in c), **_pos(meta))

    # odds: the grammar finds them in the rule, the value layer's one parser reads them
    def odds_to(self, meta, c):
        return parse_odds(f"{c[0]} to {c[1]}")

    def odds_for(self, meta, c):
        return parse_odds(f"{c[0]} for {c[1]}")

    def odds_meter(self, meta, c):
        return parse_odds(f"{c[0]} of meter")

    def odds_fixed(self, meta, c):
        return parse_odds(str(c[0]))

    def odds_push(self, meta, c):
        return parse_odds("Push")

    def odds_name(self, meta, c):
        return ("payout", str(c[0]))

    def odds_inline(self, meta, c):
        return ("odds", c[0])

    # actions
    def wager_target(self, meta, c):
        return str(c[0])

    def all_wagers(self, meta, c):
        return "*"

    def win_at(self, meta, c):
        kind, val = c[1]
        if kind == "payout":
            return Action("win", wager=c[0], payout=val, **_pos(meta))
        return Action("win", wager=c[0], odds=val, **_pos(meta))

    def win_by(self, meta, c):
        return Action("win", wager=c[0], paytable=str(c[1]), value=c[2], **_pos(meta))

    def win(self, meta, c):
        return Action("win", wager=c[0], **_pos(meta))

    def bonus_by(self, meta, c):
        return Action("bonus", wager=str(c[0]), paytable=str(c[1]), value=c[2], **_pos(meta))

    def lose(self, meta, c):
        return Action("lose", wager=c[0], **_pos(meta))

    def push(self, meta, c):
        return Action("push", wager=c[0], **_pos(meta))

    def return_(self, meta, c):
        return Action("return", wager=c[0], **_pos(meta))

    def surrender(self, meta, c):
        return Action("surrender", wager=str(c[0]), fraction=Fraction(str(c[1])), **_pos(meta))

    def place(self, meta, c):
        return Action("place", wager=str(c[0]), value=c[1], **_pos(meta))

    def set_state(self, meta, c):
        return Action("set_state", name=str(c[0]), value=c[1], **_pos(meta))

    def set_flag(self, meta, c):
        return Action("set", name=str(c[0]), **_pos(meta))

    def clear_flag(self, meta, c):
        return Action("clear", name=str(c[0]), **_pos(meta))

    def void_round(self, meta, c):
        return Action("void_round", **_pos(meta))

    def discard_card(self, meta, c):
        return Action("discard_card", **_pos(meta))

    def use_card(self, meta, c):
        return Action("use_card", **_pos(meta))

    def reshuffle(self, meta, c):
        return Action("reshuffle", **_pos(meta))

    def remove_deck(self, meta, c):
        return Action("remove_deck", **_pos(meta))

    def end(self, meta, c):
        return Action("end", **_pos(meta))

    def note(self, meta, c):
        return Action("note", text=str(c[0])[1:-1], **_pos(meta))


_NUMBER_TOKENS = frozenset({"INT", "DECIMAL", "MONEY", "NUMBER_COMMA", "PERCENT", "FRACTION"})


def _digits(token: str) -> int:
    return sum(ch.isdigit() for ch in token)


def _check_tree(tree: Tree) -> None:
    """Limits and values the transformer cannot take, checked without recursion: nesting depth,
    digits of numbers, zero denominators (``1/0``, ``1 to 0``)."""
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if node is None:  # an empty optional part ([expr ...])
            continue
        if isinstance(node, Token):
            if node.type in _NUMBER_TOKENS:
                parts = str(node).split("/") if node.type == "FRACTION" else [str(node)]
                if any(_digits(p) > MAX_NUMBER_DIGITS for p in parts):
                    raise RuleSyntaxError(f"number with more than {MAX_NUMBER_DIGITS} digits", node.line, node.column)
                if node.type == "FRACTION" and int(parts[1]) == 0:
                    raise RuleSyntaxError(f"fraction {node} has a zero denominator", node.line, node.column)
            continue
        if depth > MAX_EXPR_DEPTH:
            meta = node.meta
            line, col = (meta.line, meta.column) if not getattr(meta, "empty", True) else (1, 1)
            raise RuleSyntaxError(f"rule nested more than {MAX_EXPR_DEPTH} levels deep (simplify it)", line, col)
        if node.data in ("odds_to", "odds_for"):
            den = node.children[1]
            if isinstance(den, Token) and _digits(den) <= MAX_NUMBER_DIGITS and _num(str(den)) == 0:
                raise RuleSyntaxError(f"odds '{node.children[0]} {node.data[5:]} {den}' divide by zero",
                                      den.line, den.column)
        stack.extend((c, depth + 1) for c in node.children)


@lru_cache(maxsize=4096)
def _parse(text: str, start: str):
    """The tree of ``text`` from rule ``start``. Remembered for the process: a chapter repeats its
    conditions (670a: 180 parses, 117 texts), and the tree is immutable (frozen nodes, tuples), so one
    is shared; an error is raised again each time (never remembered)."""
    if len(text) > MAX_EXPR_CHARS:
        raise RuleSyntaxError(f"rule longer than {MAX_EXPR_CHARS:,} characters ({len(text):,}); split it", 1, 1)
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedCharacters as e:
        raise RuleSyntaxError(f"unexpected character {text[e.pos_in_stream]!r}", e.line, e.column) from None
    except UnexpectedEOF:
        lines = text.splitlines() or [""]
        raise RuleSyntaxError("unexpected end of rule", len(lines), len(lines[-1]) + 1) from None
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            raise RuleSyntaxError("unexpected end of rule; expected " + _expected(e.expected), len(lines),
                                  len(lines[-1]) + 1) from None
        raise RuleSyntaxError(f"unexpected {str(tok)!r}; expected " + _expected(e.expected), tok.line,
                              tok.column) from None
    except UnexpectedInput as e:  # pragma: no cover - other lark errors
        raise RuleSyntaxError(str(e).splitlines()[0], getattr(e, "line", 1), getattr(e, "column", 1)) from None
    _check_tree(tree)
    try:
        return _ToAst().transform(tree)
    except VisitError as e:  # a value the checks above did not foresee: an error, never a traceback
        meta = getattr(e.obj, "meta", None)
        line, col = (meta.line, meta.column) if meta is not None and not getattr(meta, "empty", True) else (1, 1)
        raise RuleSyntaxError(f"cannot read this rule: {e.orig_exc}", line, col) from None


_TERMINAL_NAMES = {"NAME": "a name", "INT": "a number", "DECIMAL": "a number", "MONEY": "an amount",
                   "STRING": "a quoted string", "LPAR": "'('", "RPAR": "')'", "COMMA": "','",
                   "COMPARE": "a comparison", "SEMICOLON": "';'", "FRACTION": "a fraction like 1/2",
                   "NUMBER_COMMA": "a number", "PERCENT": "a percentage"}


def _expected(expected) -> str:
    names = sorted({_TERMINAL_NAMES.get(t, t.lower().strip('"')) for t in expected})
    if len(names) > 6:
        names = names[:6] + ["..."]
    return ", ".join(names)


def parse_expr(text: str) -> Node:
    return _parse(text, "start_expr")


def parse_actions(text: str) -> tuple[Action, ...]:
    return _parse(text, "start_actions")
