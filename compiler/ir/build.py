"""From a validated rulespec document to the IR, parsing every rule-language string.

Rule-language errors are positioned inside the YAML file: the position of the YAML scalar
plus the offset of the error inside the expression.
"""
from __future__ import annotations

import hashlib
import re
from decimal import Decimal
from typing import Any

from compiler.ir import several
from compiler.ir.settled import SETTLES, said as _said, settled_by_an_earlier_rule, settled_in_an_earlier_step
from compiler.ir.model import (Chapter, Choice, Constraint, HouseWay, HouseWayRule, Interpretation, Irregularity, Meter,
                               Missing, Option, Payout, Paytable, PaytableRow, Rule, Source, Src, Step, Wager)
from compiler.lang.rules import (Names, NameProblem, RuleSyntaxError, check_actions, check_expr, parse_actions,
                                 parse_expr)
from compiler.spec.checks import data_diagnostics
from compiler.spec.diagnostics import Diagnostic
from compiler.spec.loader import Document
from compiler.values.money import MoneyError, money
from compiler.values.odds import parse_odds

from compiler.steps import EXPRS as STEP_EXPRS, KINDS as STEP_KINDS, PARAMS as STEP_PARAMS  # noqa: E402  the registry


_EVENT_REF = re.compile(r"\bevent\.([A-Za-z_][A-Za-z0-9_]*)")


def _walk_data(steps):
    for s in steps or ():
        if isinstance(s, dict):
            yield s
            yield from _walk_data(s.get("steps"))


def slug_of(chapter: str, title: str) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return f"{chapter}-{words}"


class _Builder:
    def __init__(self, doc: Document):
        self.doc = doc
        self.data = doc.data
        self.diags: list[Diagnostic] = []
        self.names = self._names()
        self.several = several.declared(self.data)  # wagers a player may have several of at once

    # -- names ------------------------------------------------------------------------------
    def _names(self) -> Names:
        d = self.data
        n = Names()
        for rid, r in (d.get("rankings") or {}).items():
            n.rankings.add(rid)
            if isinstance(r, dict) and r.get("kind") == "points":
                n.points_rankings.add(rid)
            for c in r.get("categories") or ():
                n.categories.add(c["id"])
            n.hands.update((r.get("hands") or {}).keys())
            n.categories.update((r.get("thresholds") or {}).keys())
        n.wagers.update((d.get("wagers") or {}).keys())
        n.payouts.update((d.get("payouts") or {}).keys())
        n.paytables.update((d.get("paytables") or {}).keys())
        for pid, pt in (d.get("paytables") or {}).items():
            r = (d.get("rankings") or {}).get(pt.get("ranking")) if isinstance(pt, dict) else None
            named = (r.get("hands") or {}) if isinstance(r, dict) else {}
            row = next((x.get("hand") for x in pt.get("rows") or () if isinstance(x, dict)
                        and isinstance(named.get(x.get("hand")), dict)
                        and ("cards" in named[x.get("hand")] or "any_of" in named[x.get("hand")])), None)
            if row is not None:
                n.card_rows[pid] = row
        n.options.update((d.get("options") or {}).keys())
        n.state.update((d.get("state") or {}).keys())

        n.owner_zones = {"player": set(), "dealer": set(), "community": set()}
        owners = {"players": ("player",), "dealer": ("dealer",), "community": ("community",),
                  "positions": ("player", "dealer")}

        def walk(steps):
            for s in steps or ():
                if s.get("do") in ("decide", "split"):
                    n.decisions[s["id"]] = {c["id"] for c in s.get("choices") or ()}
                if s.get("zone"):
                    n.zones.add(s["zone"])
                if s.get("do") == "deal":
                    for owner in owners.get(s.get("to", "players"), ()):
                        n.owner_zones[owner].add(s.get("zone", "cards"))
                if s.get("do") == "set_hands":
                    n.zones.update(("high", "low"))
                    for owner in owners.get(s.get("to", "players"), ()):
                        n.owner_zones[owner].update(("high", "low"))
                    if s.get("flag"):
                        n.flags.add(s["flag"])
                if s.get("do") == "roll" and s.get("dice"):
                    n.dice = True
                if s.get("do") == "spin" and isinstance(s.get("wheel"), dict):
                    n.pocket_attrs = (n.pocket_attrs or set()) | {"label"}
                    for p in s["wheel"].get("pockets") or ():
                        if isinstance(p, dict):
                            n.pocket_attrs.update(k for k in p if k != "count")
                walk(s.get("steps"))

        walk(d.get("procedure"))
        n.rolls = any(s.get("do") == "roll" for s in _walk_data(d.get("procedure")))
        n.event = ""
        n.event_attrs = {}
        for x in d.get("irregularities") or ():
            read = n.event_attrs.setdefault(str(x.get("event")), {})
            for r in x.get("rules") or ():
                for key in ("when", "then"):
                    for name in _EVENT_REF.findall(str(r.get(key) or "")):
                        read[name] = read.get(name, 0) + 1
        n.dice = bool(n.dice)
        n.pocket_attrs = n.pocket_attrs or set()
        n.choose_wagers = {k for k, w in (d.get("wagers") or {}).items() if isinstance(w, dict) and w.get("choose")}
        return n

    # -- positions --------------------------------------------------------------------------
    def src(self, ptr: str) -> Src:
        line, col = self.doc.position(ptr)
        return Src(self.doc.path, line, col, ptr)

    def _at(self, ptr: str, line: int, col: int) -> tuple[int, int]:
        """Position in the file of (line, col) inside the scalar at ``ptr``."""
        base_line, base_col = self.doc.position(ptr)
        text = self.doc.line_text(base_line) or ""
        start = base_col - 1
        if start < len(text) and text[start] in "\"'":
            start += 1
        elif start < len(text) and text[start] in "|>":
            return base_line + line, col  # block scalar: indentation unknown, point at the column
        if line == 1:
            return base_line, start + col
        return base_line + line - 1, col

    def error(self, ptr: str, message: str, line: int | None = None, col: int | None = None) -> None:
        if line is None:
            l, c = self.doc.position(ptr)
        else:
            l, c = self._at(ptr, line, col)
        self.diags.append(Diagnostic(self.doc.path, l, c, "error", message, ptr))

    # -- parsing ----------------------------------------------------------------------------
    def expr(self, text: str | None, ptr: str):
        if text is None:
            return None
        try:
            node = parse_expr(str(text))
        except RuleSyntaxError as e:
            self.error(ptr, f"rule syntax: {e.message}", e.line, e.column)
            return None
        problems: list[NameProblem] = []
        check_expr(node, self.names, problems)
        for p in problems:
            self.error(ptr, p.message, p.line, p.column)
        return node

    def actions(self, text: str | None, ptr: str):
        if text is None:
            return ()
        try:
            acts = parse_actions(str(text))
        except RuleSyntaxError as e:
            self.error(ptr, f"rule syntax: {e.message}", e.line, e.column)
            return ()
        problems: list[NameProblem] = []
        check_actions(acts, self.names, problems)
        problems.extend(settled_twice(acts))
        wagers = self.data.get("wagers") or {}
        for a in acts:  # `win W` alone pays W's default payout: W must name one
            if a.kind == "win" and a.wager in wagers and a.payout is None and a.odds is None \
                    and a.paytable is None and not (wagers[a.wager] or {}).get("pays"):
                problems.append(NameProblem(f"'win {a.wager}' pays the wager's default payout, but wager "
                                            f"{a.wager!r} has no 'pays': give it one or write "
                                            f"'win {a.wager} at PAYOUT'", a.line, a.column))
        for p in problems:
            self.error(ptr, p.message, p.line, p.column)
        return acts

    def rule(self, r: dict, ptr: str, in_settle: bool = False) -> Rule:
        when, then = self.expr(r.get("when"), ptr + "/when"), self.actions(r["then"], ptr + "/then")
        return Rule(r["cite"], when, r.get("when"), then, r["then"], self.src(ptr),
                    self._each(when, then, ptr, "an irregularity's rule" if not in_settle else None))

    def _each(self, when, then, ptr: str, outside: str | None) -> str | None:
        """The wager of several instances a settle rule runs once per instance for (``outside``: what holds
        a rule or choice that is not a settle step's, where only has() and placed() may read such a wager)."""
        wh, th = several.in_expr(when, self.several), several.in_actions(then, self.several)
        if outside is None:
            each, problems = several.instance_wager(wh, th)
            for msg, line, col, in_then in problems:
                self.error(ptr + ("/then" if in_then else "/when"), msg, line, col)
            return each
        if outside == "a choice":  # `return W` takes every instance in action down (the player's choice)
            th = [h for h in th if not several.returns_every(h)]
        for hits, key in ((wh, "/when"), (th, "/then")):
            for msg, line, col in several.outside(hits, outside):
                self.error(ptr + key, msg, line, col)
        return None

    def step(self, s: dict, ptr: str) -> Step:
        params = tuple((k, s[k]) for k in STEP_PARAMS if k in s)
        rules = tuple(self.rule(r, f"{ptr}/rules/{i}", s["do"] == "settle") for i, r in enumerate(s.get("rules") or ()))
        choices = tuple(
            Choice(c["id"], c["cite"], self.expr(c.get("when"), f"{ptr}/choices/{i}/when"), c.get("when"),
                   self.actions(c.get("then"), f"{ptr}/choices/{i}/then"), c.get("then"), self.src(f"{ptr}/choices/{i}"))
            for i, c in enumerate(s.get("choices") or ()))
        steps = tuple(self.step(x, f"{ptr}/steps/{i}") for i, x in enumerate(s.get("steps") or ()))
        self._settled_earlier(rules, ptr)
        for i, c in enumerate(choices):
            if s.get("each") in self.several:  # a choice per instance: it reads and acts on that one alone
                for msg, line, col, in_then in several.per_instance_choice(
                        several.in_expr(c.when, self.several), several.in_actions(c.then, self.several), s["each"]):
                    self.error(f"{ptr}/choices/{i}" + ("/then" if in_then else "/when"), msg, line, col)
            else:
                self._each(c.when, c.then, f"{ptr}/choices/{i}", "a choice")
        for key, what in (STEP_KINDS[s["do"]].names.items() if s["do"] in STEP_KINDS else ()):
            self._named(s, ptr, key, what)
        if s.get("do") == "set_hands" and s.get("to", "players") == "dealer" and not (
                s.get("house_way") or s.get("house_way_option")):
            self.error(ptr, "the dealer sets his hands by a house way: give house_way or house_way_option")
        kind = STEP_KINDS.get(s["do"])
        if kind is not None:  # a field of another kind of step (the schema lists every kind's fields)
            for k in s:
                if (k in STEP_PARAMS or k in STEP_EXPRS or k in ("rules", "choices", "steps")) \
                        and k not in kind.params and k not in kind.exprs:
                    self.error(f"{ptr}/{k}", f"'{k}' is not a field of a '{s['do']}' step (compiler/steps/{s['do']}.py)")
        exprs = tuple((k, self.expr(s[k], f"{ptr}/{k}"), s[k]) for k in STEP_EXPRS if k in s)
        when, players = self.expr(s.get("when"), ptr + "/when"), self.expr(s.get("players"), ptr + "/players")
        for key, node in (("when", when), ("players", players), *((k, n) for k, n, _ in exprs)):
            for msg, line, col in several.outside(several.in_expr(node, self.several), f"the step's '{key}'"):
                self.error(f"{ptr}/{key}", msg, line, col)
        return Step(s["id"], s["do"], s["cite"], self.src(ptr), when, s.get("when"), players, s.get("players"),
                    s.get("order", "clockwise"), params, rules, choices, steps, s.get("title", ""), exprs)

    def _value_rows(self, d: dict) -> None:
        """Rows keyed by a ``value`` (a paytable the rules index by a number or a text) are a paytable's without a
        ranking, all of them: hands of a ranking are not values."""
        for tid, t in (d.get("paytables") or {}).items():
            keyed = [i for i, r in enumerate(t.get("rows") or ()) if "value" in r]
            if keyed and t.get("ranking"):
                self.error(f"/paytables/{tid}/rows/{keyed[0]}/value", f"paytable {tid!r} pays hands of ranking "
                           f"{t['ranking']!r}: its rows name a 'hand', not a 'value' (a table of values has no ranking)")
            elif keyed and len(keyed) != len(t["rows"]):
                i = next(i for i in range(len(t["rows"])) if i not in keyed)
                self.error(f"/paytables/{tid}/rows/{i}/hand", f"paytable {tid!r} keys its rows by 'value': every row "
                           "gives a value, not a hand")

    def irregularity(self, x: dict, i: int) -> Irregularity:
        self.names.event = str(x["event"])  # `event.NAME` in these rules is an attribute of this event
        try:
            rules = tuple(self.rule(r, f"/irregularities/{i}/rules/{j}") for j, r in enumerate(x["rules"]))
        finally:
            self.names.event = ""
        return Irregularity(x["id"], x["event"], x.get("title", ""), x["cite"], rules, self.src(f"/irregularities/{i}"))

    def _settled_earlier(self, rules, ptr: str) -> None:
        for j, a, earlier in settled_by_an_earlier_rule(rules):
            self.error(f"{ptr}/rules/{j}/then", f"'{_said(a)}': this rule applies only when the rule at "
                       f"{earlier.src.path}:{earlier.src.line}:{earlier.src.col} ({earlier.cite}) has applied, and "
                       f"that rule has settled {a.wager!r} already (a wager is settled once)", a.line, a.column)

    def _named(self, s: dict, ptr: str, key: str, what: str) -> None:
        """A step parameter that names a wager, paytable, house way or option of the spec (compiler/steps/)."""
        v = s.get(key)
        if v is None:
            return
        if what == "wager":
            if key == "each" and v not in self.several:
                if v in self.names.wagers:  # an unknown wager is said below
                    self.error(f"{ptr}/{key}", f"'each: {v}': a decision is taken once for each instance of a wager "
                               f"a player may have several of, and {v!r} is not declared several: true")
            elif v in self.several and not (s.get("do") == "offer" and key == "wager") and key != "each":
                self.error(f"{ptr}/{key}", f"'{key}: {v}' names a wager a player may have several of (several: "
                           "true): it would not say which instance")
            if v not in self.names.wagers:
                self.error(f"{ptr}/{key}", f"unknown wager {v!r}" + ("" if key == "wager" else
                                                                    f": '{key}' names a wager of this spec"))
            self.names.use("wager", v)
        elif what == "paytable":
            if v not in self.names.paytables:
                self.error(f"{ptr}/{key}", f"unknown paytable {v!r}")
            self.names.use("paytable", v)
        elif what == "house_way":
            if v not in (self.data.get("house_ways") or {}):
                self.error(f"{ptr}/{key}", f"unknown house way {v!r} (house ways: {sorted(self.data.get('house_ways') or {})})")
        elif what == "house_way_option":
            o = (self.data.get("options") or {}).get(v)
            if o is None or o.get("type") != "house_way":
                self.error(f"{ptr}/{key}", f"{v!r} is not an option of type house_way")
            self.names.use("option", v)

    def build(self) -> Chapter | None:
        d = self.data
        procedure = tuple(self.step(s, f"/procedure/{i}") for i, s in enumerate(d.get("procedure") or ()))
        seen: dict[str, str] = {}
        for st in _walk(procedure):
            if st.id in seen:
                self.error(st.src.pointer + "/id", f"duplicate step id {st.id!r} (first at {seen[st.id]})")
            seen.setdefault(st.id, str(st.src))
        for ptr, a, earlier in settled_in_an_earlier_step(procedure, tuple(self.names.wagers)):
            self.error(ptr, f"'{_said(a)}': the rule at "
                       f"{earlier.src.path}:{earlier.src.line}:{earlier.src.col} ({earlier.cite}), in an earlier step "
                       f"that always runs, has settled {a.wager!r} already whenever this step runs (a wager is "
                       "settled once; nothing between them places it again)", a.line, a.column)
        irregs = tuple(self.irregularity(x, i) for i, x in enumerate(d.get("irregularities") or ()))
        for i, irr in enumerate(irregs):  # an event's rules apply in order too
            self._settled_earlier(irr.rules, f"/irregularities/{i}")
        constraints = tuple(
            Constraint(self.expr(c["require"], f"/constraints/{i}/require"), c["require"], c["message"], c["cite"],
                       self.src(f"/constraints/{i}"))
            for i, c in enumerate(d.get("constraints") or ()))
        interps = tuple(
            Interpretation(x["id"], tuple(x["cites"]), x["text"], x["chosen"], self.src(f"/interpretations/{i}"),
                           tuple(x.get("acknowledges") or ()))
            for i, x in enumerate(d.get("interpretations") or ()))
        batches = (d.get("cards") or {}).get("batches") or {}
        batches_when = self.expr(batches.get("when"), "/cards/batches/when") if batches.get("when") else None
        for base, items in (("/cards/change_interval", (d.get("cards") or {}).get("change_interval")),
                            ("/change_intervals", d.get("change_intervals"))):
            for i, item in enumerate(items or ()):
                if item.get("when"):
                    self.expr(item["when"], f"{base}/{i}/when")
        for i, item in enumerate((d.get("table") or {}).get("equipment") or ()):
            if item.get("when"):
                self.expr(item["when"], f"/table/equipment/{i}/when")
        for i, item in enumerate((d.get("table") or {}).get("layout") or ()):
            if item.get("when"):
                self.expr(item["when"], f"/table/layout/{i}/when")
        req_whens = []
        for i, r in enumerate(d.get("requirements") or ()):
            req_whens.append(self.expr(r["when"], f"/requirements/{i}/when") if r.get("when") else None)
            if r.get("step") and r["step"] not in {st.id for st in _walk(procedure)}:
                self.error(f"/requirements/{i}/step", f"unknown step {r['step']!r}")
        for oid, o in (d.get("options") or {}).items():
            if o.get("when"):
                self.expr(o["when"], f"/options/{oid}/when")
        for pid, po in (d.get("payouts") or {}).items():
            if po.get("odds_option") is not None:  # the casino's selection gives the odds (partial chapters)
                if po["odds_option"] not in (d.get("options") or {}):
                    self.error(f"/payouts/{pid}/odds_option", f"unknown option {po['odds_option']!r}")
                self.names.use("option", po["odds_option"])
        self._value_rows(d)
        ppp = (d.get("table") or {}).get("positions_per_player") or {}
        positions_max = self.expr(ppp["max"], "/table/positions_per_player/max") if ppp else None
        house_ways = tuple(self.house_way(hid, hw) for hid, hw in (d.get("house_ways") or {}).items())
        self.diags.extend(data_diagnostics(self.doc))
        for ptr, msg in several.data_problems(d):
            self.error(ptr, msg)
        if any(x for x in self.diags if x.is_error):
            return None
        wagers, payouts, paytables = _wagers(d, self.amounts, self.src), _payouts(d), _paytables(d, self.amounts)
        if any(x for x in self.diags if x.is_error):  # an amount the data checks let through (a float)
            return None
        return Chapter(d["chapter"], d["title"], self.doc.path, slug_of(d["chapter"], d["title"]), d, procedure,
                       irregs, constraints, interps, batches_when, positions_max,
                       {ptr: self.doc.position(ptr)[0] for ptr in ("/cards/batches", "/table/positions_per_player")
                        if self.doc.has(ptr)} | {f"/requirements/{i}": self.doc.position(f"/requirements/{i}")[0]
                                                 for i in range(len(d.get("requirements") or ()))},
                       house_ways=house_ways, requirement_whens=tuple(req_whens), wagers=wagers,
                       payouts=payouts, paytables=paytables, **_declared(d))

    def amounts(self, ptr: str, values) -> tuple[Decimal, ...]:
        """The ``amounts`` of a wager or paytable as exact money; one that is not is a positioned error."""
        out = []
        for i, a in enumerate(values or ()):
            try:
                out.append(money(a))
            except MoneyError as e:
                self.error(f"{ptr}/{i}", str(e))
        return tuple(out)

    def house_way(self, hid: str, hw: dict) -> HouseWay:
        ptr = f"/house_ways/{hid}"
        rules = []
        for i, r in enumerate(hw.get("rules") or ()):
            rp = f"{ptr}/rules/{i}"
            choose = tuple((k, self.expr(c[k], f"{rp}/choose/{j}/{k}"), str(c[k]))
                           for j, c in enumerate(r.get("choose") or ()) for k in ("keep", "max", "min") if k in c)
            rules.append(HouseWayRule(r["cite"], self.expr(r.get("when"), rp + "/when"), r.get("when"), choose,
                                      self.src(rp), r.get("note", "")))
        return HouseWay(hid, hw.get("title", hid), hw["cite"], tuple(rules), self.src(ptr), hw)


# -- the chapter's money, typed once (the spec checks have read every odds and amount) -----------


def _wagers(d, amounts, src) -> dict[str, Wager]:
    def every(w) -> tuple[str, ...]:
        return tuple(r for r in w.get("requires") or () if isinstance(r, str))

    def any_of(w) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(r["any_of"]) for r in w.get("requires") or () if isinstance(r, dict))

    return {k: Wager(k, w["name"], w["cite"], w.get("pays"), w.get("paytable"), bool(w.get("required", False)),
                     w.get("offered_by"), every(w), w.get("progressive"),
                     w.get("placed", "before_deal"), amounts(f"/wagers/{k}/amounts", w.get("amounts")),
                     _plain(w.get("choose")), w.get("stays"), tuple(w.get("keeps") or ()), w, src(f"/wagers/{k}"),
                     requires_any=any_of(w), several=w.get("several") is True)
            for k, w in (d.get("wagers") or {}).items()}


def _plain(v):
    """A YAML value as plain dicts, lists and scalars (for a literal of the generated module)."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _payouts(d) -> dict[str, Payout]:
    return {k: Payout(k, p["cite"], parse_odds(p["odds"]) if "odds" in p else None,
                      str(p["odds"]) if "odds" in p else None, p.get("odds_option"), p.get("unpriced", ""), p)
            for k, p in (d.get("payouts") or {}).items()}


def _paytables(d, amounts) -> dict[str, Paytable]:
    out = {}
    for k, t in (d.get("paytables") or {}).items():
        rows = []
        for r in t["rows"]:
            pays = tuple(str(x) for x in (r["pays"] if isinstance(r["pays"], list) else [r["pays"]]))
            key = r["hand"] if "hand" in r else r["value"]  # a hand id, or the value a rule gives (no ranking)
            rows.append(PaytableRow(key, r["label"], tuple(parse_odds(x) for x in pays), pays, t["cite"]))
        out[k] = Paytable(k, t.get("title", k), t["cite"], tuple(str(c) for c in t["columns"]), tuple(rows),
                          t.get("header", "Hand"), t.get("option"), t.get("ranking"),
                          amounts(f"/paytables/{k}/amounts", t.get("amounts")), t)
    return out


def _declared(d) -> dict[str, Any]:
    """The declarative parts of the chapter: options, meters, source, completeness and missing parts
    typed; rankings, cards, table, state, requirements, provisions and change intervals as the
    schema validated them (read-only)."""
    options = {k: Option(k, o["title"], o["type"], o["cite"], o.get("default"), "default" in o,
                         tuple(o["values"]) if "values" in o else None, o.get("minimum"), o.get("maximum"),
                         o.get("when"), o.get("note", ""), o.get("unit", ""), o)
               for k, o in (d.get("options") or {}).items()}
    meters = {k: Meter(k, m["cite"], m.get("rate_option"), m.get("reset_option"))
              for k, m in (d.get("meters") or {}).items()}
    src = d.get("source") or {}
    source = Source(*(str(src.get(k, "")) for k in ("citation", "date", "kind", "file", "effective", "url", "note")))
    return {"completeness": str(d.get("completeness", "")),
            "missing": tuple(Missing(m["cite"], m["what"]) for m in d.get("missing") or ()),
            "options": options, "meters": meters, "source": source,
            "rankings": d.get("rankings") or {}, "cards": d.get("cards") or {}, "table": d.get("table") or {},
            "state": d.get("state") or {}, "requirements": tuple(d.get("requirements") or ()),
            "provisions": tuple(d.get("provisions") or ()), "change_intervals": tuple(change_intervals(d)),
            "digest": hashlib.sha256(repr(d).encode("utf-8", "surrogatepass")).hexdigest()}


def change_intervals(data) -> list[dict]:
    """Every change interval of a rulespec, in file order: ``cards.change_interval`` then the
    top-level ``change_intervals``; each with its JSON pointer."""
    out = []
    for i, e in enumerate((data.get("cards") or {}).get("change_interval") or ()):
        out.append({**e, "pointer": f"/cards/change_interval/{i}"})
    for i, e in enumerate(data.get("change_intervals") or ()):
        out.append({**e, "pointer": f"/change_intervals/{i}"})
    return out


def settled_twice(actions) -> list[NameProblem]:
    """A wager settled twice by one rule (``win bet; lose bet``, ``lose all; win bet``): the second
    outcome could never apply, so the rule says two things at once."""
    problems = []
    settled: dict[str, object] = {}
    every = None  # the `... all` that settled every open wager
    for a in actions:
        if a.kind == "place" and a.wager:
            settled.pop(a.wager, None)
            settled[a.wager] = None  # placed after `all`: open again
            continue
        if a.kind not in SETTLES or a.wager is None:
            continue
        if a.wager == "*":
            if every is None:
                every = a
            continue
        first = settled.get(a.wager)
        if first is None and a.wager not in settled and every is not None:
            first = every
        if first is not None:
            problems.append(NameProblem(f"wager {a.wager!r} is settled twice in this rule: "
                                        f"'{_said(a)}' after '{_said(first)}'", a.line, a.column))
        else:
            settled[a.wager] = a
    return problems


def _walk(steps):
    for s in steps:
        yield s
        yield from _walk(s.steps)


def build_ir(doc: Document) -> tuple[Chapter | None, list[Diagnostic], Names]:
    b = _Builder(doc)
    ch = b.build()
    return ch, b.diags, b.names
