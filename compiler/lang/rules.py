"""The rule language: parse conditions and outcomes written in rulespecs, check their names,
and compile them to Python source for the generated game modules.

Grammar: ``rules.lark`` beside this file (LALR, strict). Expressions compile to calls on the
runtime :class:`compiler.runtime.engine.Context` (``ctx``); a spec's names only ever reach the
generated code as ``repr()`` string literals, so no spec text can inject code.

Vocabulary (generic card-game primitives; see docs/rule-language.md):

* card references: ``player.<zone>``, ``player.cards``, ``dealer.<zone>``, ``community``,
  ``community.<zone>``; ``event.<attr>``; ``round.<attr>``;
* functions: ``hand(R, cards)``, ``best(R, cards)``, ``category(v)``,
  ``at_least(R, v, category[, rank])``, ``is_hand(R, cards, hand)``, ``has(W)``, ``placed(W)``,
  ``wager(W)``, ``flag(F)``, ``chose(D, C)``, ``option(O)``, ``offered(W)``, ``active()``,
  ``count(cards)``, ``any_player(expr)``, ``count_players(expr)``; pai gow: ``setting.high``,
  ``setting.low``, ``setting.cards`` (a candidate setting), ``rank(R, cards)`` (comparable across
  hand sizes), ``groups(R, cards, n)``, ``category_rank(v)``, ``can(expr)``;
* outcomes: ``win W [at PAYOUT | at N to M]``, ``win W by PAYTABLE on VALUE``, ``lose W``,
  ``push W``, ``return W`` (void: returned), ``surrender W 1/2``, ``place W = expr``,
  ``set F``, ``clear F``, ``void round``, ``discard card``, ``use card``, ``reshuffle``,
  ``remove deck``, ``end``, ``note 'text'``; ``all`` in place of W means every open wager.
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

from compiler.runtime.money import Odds
from compiler.spec.limits import MAX_EXPR_CHARS, MAX_EXPR_DEPTH, MAX_NUMBER_DIGITS


class RuleSyntaxError(ValueError):
    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("compiler.lang").joinpath("rules.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", strict=True, propagate_positions=True,
                start=["start_expr", "start_actions", "start_odds"])


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

    def start_odds(self, meta, c):
        return c[0]

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

    # odds
    def odds_to(self, meta, c):
        return Odds("to", _num(str(c[0])), _num(str(c[1])))

    def odds_for(self, meta, c):
        return Odds("for", _num(str(c[0])), _num(str(c[1])))

    def odds_meter(self, meta, c):
        return Odds("meter", Fraction(str(c[0]).rstrip("%")))

    def odds_fixed(self, meta, c):
        return Odds("fixed", _num(str(c[0])[1:]))

    def odds_push(self, meta, c):
        return Odds("push")

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


def _parse(text: str, start: str):
    if len(text) > MAX_EXPR_CHARS:
        raise RuleSyntaxError(f"rule longer than {MAX_EXPR_CHARS:,} characters ({len(text):,}); split it", 1, 1)
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedCharacters as e:
        raise RuleSyntaxError(f"unexpected character {text[e.pos_in_stream]!r}", e.line, e.column) from None
    except UnexpectedEOF as e:
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


def parse_odds_text(text: str) -> Odds:
    return _parse(text, "start_odds")


# ---------------------------------------------------------------------------------------------
# Names and checking
# ---------------------------------------------------------------------------------------------

# function name -> kinds of its arguments ('expr', or a namespace whose name it takes)
FUNCTIONS: dict[str, tuple[str, ...]] = {
    "hand": ("ranking", "expr"),
    "best": ("ranking", "expr"),
    "category": ("expr",),
    "at_least": ("ranking", "expr", "category", "rank?"),
    "is_hand": ("ranking", "expr", "hand"),
    "has": ("wager",),
    "placed": ("wager",),
    "wager": ("wager",),
    "flag": ("flag",),
    "chose": ("decision", "choice"),
    "option": ("option",),
    "offered": ("wager",),
    "active": (),
    "count": ("expr",),
    "any_player": ("lambda",),
    "count_players": ("lambda",),
    # pai gow (setting hands, house ways): see docs/rule-language.md "House ways"
    "rank": ("ranking", "expr"),
    "groups": ("ranking", "expr", "expr"),
    "category_rank": ("expr",),
    "can": ("lambda",),
}
OWNERS = ("player", "dealer", "community", "event", "round", "setting")
SETTING_PARTS = ("high", "low", "cards")


@dataclass
class Names:
    """What a spec declares, for resolving the names used in its rules."""

    rankings: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    hands: set[str] = field(default_factory=set)
    wagers: set[str] = field(default_factory=set)
    payouts: set[str] = field(default_factory=set)
    paytables: set[str] = field(default_factory=set)
    options: set[str] = field(default_factory=set)
    decisions: dict[str, set[str]] = field(default_factory=dict)
    zones: set[str] = field(default_factory=set)
    # zones some deal (or set_hands) step gives each owner ('player', 'dealer', 'community');
    # None: not known, every zone of `zones` is accepted for every owner
    owner_zones: dict[str, set[str]] | None = None
    flags: set[str] = field(default_factory=set)
    used: dict[str, set[str]] = field(default_factory=dict)

    def use(self, ns: str, name: str) -> None:
        self.used.setdefault(ns, set()).add(name)


@dataclass(frozen=True)
class NameProblem:
    message: str
    line: int
    column: int


def _suggest(name: str, pool) -> str:
    import difflib

    m = difflib.get_close_matches(name, sorted(pool), n=1, cutoff=0.6)
    return f" (did you mean {m[0]!r}?)" if m else ""


def check_expr(node: Node, names: Names, problems: list[NameProblem]) -> None:
    def bad(msg, n):
        problems.append(NameProblem(msg, n.line, n.column))

    def ident(n: Node, ns: str) -> None:
        if not (isinstance(n, Ref) and len(n.parts) == 1):
            bad(f"expected a {ns} name", n)
            return
        name = n.parts[0]
        pool = {"ranking": names.rankings, "wager": names.wagers, "flag": names.flags, "option": names.options,
                "decision": set(names.decisions), "category": names.categories, "hand": names.hands}.get(ns)
        if ns == "flag":
            names.use("flag", name)
            return  # flags are declared by being set
        if pool is not None and name not in pool:
            bad(f"unknown {ns} {name!r}{_suggest(name, pool)}", n)
        names.use(ns, name)

    def walk(n: Node) -> None:
        if isinstance(n, Lit):
            return
        if isinstance(n, Ref):
            owner = n.parts[0]
            if owner not in OWNERS:
                bad(f"unknown name {owner!r}: card references start with one of {', '.join(OWNERS)}"
                    f"{_suggest(owner, OWNERS)}", n)
                return
            if len(n.parts) > 2:
                bad(f"{'.'.join(n.parts)!r}: only one attribute may follow {owner!r}", n)
            if owner in ("player", "dealer", "community") and len(n.parts) == 2 and n.parts[1] != "cards" \
                    and n.parts[1] not in names.zones:
                bad(f"unknown card zone {n.parts[1]!r}{_suggest(n.parts[1], names.zones)}", n)
            elif owner in ("player", "dealer", "community") and len(n.parts) == 2 and n.parts[1] != "cards" \
                    and names.owner_zones is not None and n.parts[1] not in names.owner_zones.get(owner, ()):
                whom = {"player": "the players", "dealer": "the dealer", "community": "the community cards"}[owner]
                bad(f"no step deals {whom} a zone {n.parts[1]!r}, so {'.'.join(n.parts)} would always be empty", n)
            if owner in ("player", "dealer") and len(n.parts) == 1:
                bad(f"{owner!r} needs a zone, e.g. {owner}.cards", n)
            if owner == "setting" and (len(n.parts) != 2 or n.parts[1] not in SETTING_PARTS):
                bad(f"'setting' is followed by one of {', '.join(SETTING_PARTS)} (the hands of a candidate setting)", n)
            return
        if isinstance(n, Call):
            sig = FUNCTIONS.get(n.name)
            if sig is None:
                bad(f"unknown function {n.name!r}{_suggest(n.name, FUNCTIONS)}", n)
                return
            required = [s for s in sig if not s.endswith("?")]
            if not len(required) <= len(n.args) <= len(sig):
                bad(f"{n.name}() takes {len(required)}" + (f" to {len(sig)}" if len(sig) != len(required) else "")
                    + f" argument{'s' if len(sig) != 1 else ''}, got {len(n.args)}", n)
                return
            for kind, a in zip(sig, n.args):
                kind = kind.rstrip("?")
                if kind in ("expr", "lambda"):
                    walk(a)
                elif kind == "rank":
                    if not isinstance(a, (Lit, Ref)):
                        bad("expected a rank such as '10' or T", a)
                elif kind == "choice":
                    if isinstance(a, Ref) and len(a.parts) == 1:
                        d = n.args[0].parts[0] if isinstance(n.args[0], Ref) else None
                        if d in names.decisions and a.parts[0] not in names.decisions[d]:
                            bad(f"decision {d!r} has no choice {a.parts[0]!r}", a)
                    else:
                        bad("expected a choice name", a)
                else:
                    ident(a, kind)
            return
        if isinstance(n, BinOp):
            walk(n.left)
            walk(n.right)
            return
        if isinstance(n, BoolOp):
            for x in n.items:
                walk(x)
            return
        if isinstance(n, (Not, Neg)):
            walk(n.item)
            return

    walk(node)


def check_actions(actions, names: Names, problems: list[NameProblem]) -> None:
    for a in actions:
        def bad(msg):
            problems.append(NameProblem(msg, a.line, a.column))

        if a.wager is not None and a.wager != "*":
            if a.wager not in names.wagers:
                bad(f"unknown wager {a.wager!r}{_suggest(a.wager, names.wagers)}")
            names.use("wager", a.wager)
        if a.payout is not None:
            if a.payout not in names.payouts:
                bad(f"unknown payout {a.payout!r}{_suggest(a.payout, names.payouts)}")
            names.use("payout", a.payout)
        if a.paytable is not None:
            if a.paytable not in names.paytables:
                bad(f"unknown paytable {a.paytable!r}{_suggest(a.paytable, names.paytables)}")
            names.use("paytable", a.paytable)
        if a.value is not None:
            check_expr(a.value, names, problems)
        if a.kind == "set":
            names.flags.add(a.name)
        if a.kind == "surrender" and not (0 < a.fraction <= 1):
            bad(f"surrender fraction {a.fraction} must be between 0 and 1")


# ---------------------------------------------------------------------------------------------
# Compilation to Python source
# ---------------------------------------------------------------------------------------------


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
        if owner == "round":
            return f"ctx.round_attr({attr!r})"
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


def _odds_lit(o: Odds) -> str:
    return f"Odds({o.kind!r}, {_lit(o.num)}, {_lit(o.den)})"


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
            return f"ctx.win({w}, {c}, odds={_odds_lit(a.odds)})"
        return f"ctx.win({w}, {c})"
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
    if k == "clear":
        return f"ctx.clear_flag({a.name!r}, {c})"
    if k == "note":
        return f"ctx.note({a.text!r}, {c})"
    if k in ("void_round", "discard_card", "use_card", "reshuffle", "remove_deck", "end"):
        return f"ctx.{k}({c})"
    raise ValueError(f"cannot compile action {k!r}")
