"""Code generation: IR -> Jinja2 templates (named after their output) -> files.

* StrictUndefined: a template that names a missing field fails the build;
* every literal goes through ``pyrepr`` (Python) or autoescaping (HTML), so a spec string
  holding quotes, newlines or ``{{ }}`` comes out inert;
* no timestamps: a rebuild is byte-identical.
"""
from __future__ import annotations

import pprint
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

import jinja2

from compiler.codegen.css import css_string
from compiler.codegen.markdown import code, md
from compiler.ir.model import Chapter, Rule, Src, Step
from compiler.values.cards import ranks_removed
from compiler.lang.plain import plain_when
from compiler.lang.emit import actions_divide, division_message, divides
from compiler.lang.rules import compile_action, compile_expr
from compiler.values.money import money
from compiler.values.odds import Odds, parse_odds


def pyrepr(value: Any, indent: int = 0) -> str:
    """A Python literal for ``value`` (dicts keep their order; strings are repr()-escaped)."""
    if isinstance(value, (dict, list, tuple)) and value:
        text = pprint.pformat(value, width=110 - indent, sort_dicts=False)
        if indent:
            text = text.replace("\n", "\n" + " " * indent)
        return text
    return repr(value)


def comment(value: Any) -> str:
    """Text safe inside a ``#`` comment: one line, control characters escaped."""
    return repr(str(value))[1:-1]


def comment_raw(value: Any) -> str:
    """Already-escaped text (a ``repr``) kept on one comment line: any line break left is escaped."""
    s = str(value)
    return s if s.isprintable() else comment(s)


def docstr(value: Any) -> str:
    """Text safe inside a triple-quoted docstring: escapes, no quote can close it."""
    return repr(str(value))[1:-1].replace('"', '\\"')


def _env(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("compiler.codegen", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=autoescape,
    )
    env.filters["pyrepr"] = pyrepr
    env.filters["comment"] = comment
    env.filters["docstr"] = docstr
    env.filters["comment_raw"] = comment_raw

    env.filters["plain_when"] = plain_when

    env.filters["md"] = md
    env.filters["code"] = code
    env.filters["css_string"] = css_string
    return env


PY_ENV = _env(False)
HTML_ENV = _env(True)


def odds_src(o: Odds) -> str:
    return f"Odds({o.kind!r}, {_frac(o.num)}, {_frac(o.den)})"


def money_src(a) -> str:
    return f"Decimal({str(money(a))!r})"


def _frac(x: Fraction) -> str:
    x = Fraction(x)
    return f"Fraction({x.numerator}, {x.denominator})"


def _ident(*parts: str) -> str:
    """A Python identifier made of the parts: letters, digits and underscores (a citation's first
    provision, e.g. "§ 567.9(a)(2); § 567.10" -> "567_9_a_2")."""
    out = []
    for part in parts:
        text = str(part).split(";")[0].replace("§", "")
        word = re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_").lower()
        if word:
            out.append(word)
    return "_" + "_".join(out)


class _Functions:
    """The rule functions of a game module, each named after where it is (its step, irregularity or
    house way; its rule's provision; its role), so that inserting a rule renames no other. Functions
    with the same body are one function, preceded by the provenance of every rule that uses it."""

    def __init__(self):
        self.items: list[dict] = []
        self._names: set[str] = set()
        self._by_body: dict[tuple, dict] = {}

    def add(self, kind: str, cite: str, src, text: str, body: list[str], where: tuple = ()) -> str:
        prov = {"kind": kind, "cite": cite, "src": f"{src.path}:{src.line}", "text": text}
        key = tuple(body)
        same = self._by_body.get(key)
        if same is not None:
            if prov not in same["also"] and prov != same["first"]:
                same["also"].append(prov)
            return same["name"]
        base = _ident(*where, cite, kind) if where else _ident(cite, kind)
        name, n = base, 1
        while name in self._names:
            n += 1
            name = f"{base}_{n}"
        self._names.add(name)
        item = {"name": name, "kind": kind, "cite": cite, "src": prov["src"], "text": text, "body": body,
                "first": prov, "also": []}
        self._by_body[key] = item
        self.items.append(item)
        return name

    def when(self, node, text, cite, src, where: tuple = (), kind: str = "when") -> str:
        if node is None:
            return "None"
        body = [f"return {compile_expr(node)}"]
        return self.add(kind, cite, src, text, _guard(body, kind, cite, src, text) if divides(node) else body,
                        where)

    def then(self, actions, text, cite, src, where: tuple = ()) -> str:
        if not actions:
            return "None"
        body = [compile_action(a, cite) for a in actions]
        if actions_divide(actions):
            body = _guard(body, "then", cite, src, text)
        return self.add("then", cite, src, text, body, where)


def _guard(body: list[str], kind: str, cite: str, src, text: str) -> list[str]:
    """``body`` run so that a division by zero is the engine's error naming the rule, its § and where it
    is in the rulespec, never a traceback."""
    msg = division_message(kind, cite, src, text)
    return ["try:", *(f"    {line}" for line in body), "except ZeroDivisionError:",
            f"    raise EngineError({msg!r}) from None"]


def game_context(ch: Chapter) -> dict:
    """The context of the game module's template: the chapter's IR, its rules as named functions."""
    fns = _Functions()
    procedure = [_step_context(fns, s) for s in ch.procedure]
    house_ways = [_house_way_context(fns, hw) for hw in ch.house_ways]
    irregularities = [{"id": i.id, "event": i.event, "cite": i.cite, "title": i.title,
                       "rules": [_rule_context(fns, r, i.id) for r in i.rules]} for i in ch.irregularities]
    cards = _cards_context(ch, fns)
    ppp = ch.table.get("positions_per_player") or {}
    positions_max = "None"
    if ch.positions_max is not None:
        positions_max = fns.add("when", ppp["cite"], _src0(ch, "/table/positions_per_player"), ppp["max"],
                                [f"return {compile_expr(ch.positions_max)}"], ("positions",))
    requirements = [{"cite": r["cite"], "text": r["text"], "step": r.get("step"),
                     "when": fns.when(ch.requirement_whens[i], r.get("when"), r["cite"],
                                      _src0(ch, f"/requirements/{i}"), ("requirement", r.get("id", str(i + 1))))
                     if ch.requirement_whens[i] else "None"}
                    for i, r in enumerate(ch.requirements)]
    ctx = {
        "spec_path": ch.spec_path,
        "chapter": ch.chapter,
        "title": ch.title,
        "max_positions": int(ch.table.get("max_positions", 7)),
        "rankings": ch.rankings,
        "payouts": [{"id": p.id, "odds": odds_src(p.odds) if p.odds is not None else "None", "cite": p.cite,
                     "odds_option": p.odds_option, "unpriced": p.unpriced} for p in ch.payouts.values()],
        "paytables": [{
            "id": t.id, "title": t.title, "cite": t.cite, "columns": t.columns, "option": t.option,
            "ranking": t.ranking, "amounts": tuple(money_src(a) for a in t.amounts),
            "rows": [{"hand": r.hand, "label": r.label, "odds": [odds_src(o) for o in r.odds]} for r in t.rows],
        } for t in ch.paytables.values()],
        "wagers": [{"id": w.id, "name": w.name, "cite": w.cite, "pays": w.pays, "required": w.required,
                    "offered_by": w.offered_by, "requires": w.requires, "progressive": w.progressive,
                    "placed": w.placed, "amounts": tuple(money_src(a) for a in w.amounts), "choose": w.choose,
                    "stays": w.stays, "keeps": w.keeps, "requires_any": w.requires_any,
                    "several": w.several}
                   for w in ch.wagers.values()],
        "options": {k: o.spec for k, o in ch.options.items()},  # as written: the module's literal
        "requirements": requirements,
        "meters": [{"id": m.id, "cite": m.cite, "rate_option": m.rate_option,
                    "reset_option": m.reset_option} for m in ch.meters.values()],
        "cards": cards,
        "procedure": procedure,
        "house_ways": house_ways,
        "state": {k: {"initial": v["initial"], "cite": v["cite"], **({"per": v["per"]} if v.get("per") else {})}
                  for k, v in ch.state.items()},
        "irregularities": irregularities,
        "positions": {"max": positions_max, "adjacent": bool(ppp.get("adjacent", False)), "cite": ppp.get("cite", "")},
        "constraints": [{"cite": c.cite, "message": c.message,
                         "fn": fns.when(c.require, c.require_text, c.cite, c.src, ("constraint",), "require")}
                        for c in ch.constraints],
        "functions": fns.items,
    }
    return ctx


def _rule_context(fns: _Functions, r: Rule, where: str) -> dict:
    """A rule of a step or an irregularity (``where``): its citation and its functions."""
    return {"cite": r.cite, "when": fns.when(r.when, r.when_text, r.cite, r.src, (where,)),
            "then": fns.then(r.then, r.then_text, r.cite, r.src, (where,)), "src": f"{r.src.path}:{r.src.line}",
            "each": r.each}


def _step_context(fns: _Functions, s: Step) -> dict:
    """A procedure step, with its rules, choices and the steps of a block."""
    return {
        "id": s.id, "kind": s.kind, "cite": s.cite, "order": s.order, "src": f"{s.src.path}:{s.src.line}",
        "params": dict(s.params),
        "when": fns.when(s.when, s.when_text, s.cite, s.src, (s.id,)),
        "players": fns.when(s.players, s.players_text, s.cite, s.src, (s.id,), "players"),
        "rules": [_rule_context(fns, r, s.id) for r in s.rules],
        "choices": [{"id": c.id, "cite": c.cite, "src": f"{c.src.path}:{c.src.line}",
                     "when": fns.when(c.when, c.when_text, c.cite, c.src, (s.id, c.id)),
                     "then": fns.then(c.then, c.then_text, c.cite, c.src, (s.id, c.id))} for c in s.choices],
        "steps": [_step_context(fns, x) for x in s.steps],
        "exprs": [(k, fns.when(node, text, s.cite, s.src, (s.id,), k)) for k, node, text in s.exprs],
    }


def _house_way_context(fns: _Functions, hw) -> dict:
    """A house way of the spec: its rules, each a ``when`` and the functions of its ``choose`` list."""
    return {
        "id": hw.id, "title": hw.title, "cite": hw.cite,
        "rules": [{"cite": r.cite, "src": f"{r.src.path}:{r.src.line}", "note": r.note,
                   "when": fns.when(r.when, r.when_text, r.cite, r.src, (hw.id,)),
                   "choose": [(kind, fns.add("value", r.cite, r.src, text, [f"return {compile_expr(node)}"],
                                             (hw.id, kind)), text)
                              for kind, node, text in r.choose]} for r in hw.rules],
    }


def _cards_context(ch: Chapter, fns: _Functions) -> dict:
    """The chapter's cards: decks, cut, reshuffle marker, shuffle in batches (its ``when`` a function)."""
    cards = ch.cards
    cut = cards.get("cut") or {}
    marker = cards.get("reshuffle_marker")
    batches = cards.get("batches") or {}
    batches_when = "None"
    if ch.batches_when is not None:
        batches_when = fns.add("when", batches["cite"], _src0(ch, "/cards/batches"), batches["when"],
                               [f"return {compile_expr(ch.batches_when)}"], ("batches",))
    decks_default = int(cards.get("decks", 1))
    if cards.get("decks_option"):
        o = ch.options[cards["decks_option"]]
        decks_default = int(o.default if o.has_default else decks_default)
    return {
        "decks_option": cards.get("decks_option"),
        "decks_default": decks_default,
        "jokers": int((cards.get("deck") or {}).get("jokers", 0)),
        "without": ranks_removed(cards),
        "cut_min_from_edge": int(cut.get("min_from_edge", 0)),
        "marker_from_bottom": _frac(Fraction(marker["from_bottom"])) if marker else "None",
        # a chapter without cards has no shoe: nothing is ever reshuffled (nor logged, nor counted)
        "reshuffle": (cards.get("reshuffle") or {}).get("when", "every_round" if cards or any(
            st.kind in ("deal", "burn") for st in ch.all_steps()) else "never"),
        "reshuffle_cite": (cards.get("reshuffle") or {}).get("cite", ""),
        "batches": int(batches.get("count", 1)),
        "batches_when": batches_when,
        "cut_cite": cut.get("min_from_edge_cite", cut.get("cite", "")),
        "shuffle_cite": (cards.get("shuffle") or {}).get("cite", ""),
        "cut_offer": tuple((o["situation"], o["to"], o["cite"]) for o in cut.get("offer") or ()),
        "cut_refused": ((cut.get("refused") or {}).get("rotate", "clockwise"),
                        (cut.get("refused") or {}).get("cite", "")),
        "marker_cite": marker["cite"] if marker else "",
    }


def _src0(ch: Chapter, pointer: str):
    return Src(ch.spec_path, ch.lines.get(pointer, 1), 1, pointer)


# What a game module may import: name -> module. Only the names its code uses are imported.
_IMPORTS = (
    ("decimal", ("Decimal",)),
    ("fractions", ("Fraction",)),
    ("compiler.runtime.definition", ("CardsDef", "Choice", "Criterion", "GameDefinition", "HouseWay", "HouseWayRule",
                                     "Irregularity", "MeterDef", "Paytable", "Payout", "Rule", "Step", "WagerDef")),
    ("compiler.runtime.errors", ("EngineError",)),
    ("compiler.runtime.money", ("Odds",)),
    ("compiler.runtime.table", ("Table",)),
)


def _imports(body: str) -> str:
    """The import lines of a module whose code (without its imports) is ``body``."""
    code = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith("#"))
    lines, first_party = [], False
    for module, names in _IMPORTS:
        used = [n for n in names if re.search(rf"\b{n}\(", code)]
        if not used:
            continue
        if module.startswith("compiler.") and not first_party:
            first_party = True
            if lines:
                lines.append("")
        head = f"from {module} import "
        text = head + ", ".join(used)
        if len(text) > 120:
            text, width = head + "(", len(head) + 1
            row = ""
            for i, n in enumerate(used):
                piece = n + (", " if i < len(used) - 1 else ")")
                if len(text.split("\n")[-1]) + len(piece) > 119:
                    text = text.rstrip() + "\n" + " " * width
                text += piece
        lines.append(text)
    return "\n".join(lines)


def render_game_module(ch: Chapter) -> str:
    text = PY_ENV.get_template("game.py.jinja").render(**game_context(ch))
    head, marker, body = text.partition("# @imports\n")
    return head + _imports(body) + "\n" + body if marker else text
