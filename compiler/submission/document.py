"""Rules Submissions (§ 601a.2): load, check and render a casino's selections for one chapter.

A submission is a YAML file (docs/submissions.md)::

    rules_submission: 1
    certificate_holder: Keystone Riverside Gaming, LLC
    facility: Riverside Casino Pittsburgh
    game: {chapter: "567", title: War, edition: 40 Pa.B. 1911}
    effective_date: "2025-07-01"
    contact: {name: ..., title: ..., phone: ..., email: ...}
    selections: {automated_shuffler: true, decks: 14, adjacent_positions: 2}
    attachments: {A: Layout drawing ...}          # optional

Everything a submission may say is driven by the chapter's rulespec: its ``options`` (type,
``minimum``/``maximum``/``values``, ``when``, ``cite``), its ``constraints`` (rule-language
conditions over ``option(...)``), its paytables (``option`` selects a column), its wagers
(``offered_by``) and its ``table.equipment`` (``when``).  Nothing here names a chapter.

``load_submission(path, chapters)`` checks a file and returns a :class:`Submission` or raises
:class:`DiagnosticError` with every error, each positioned (``path:line:col``) and, where the
rule comes from the chapter, ending with its citation.
``render_submission_files(root, path, chapters)`` is what ``rulespec build`` calls for each
file of ``rulespecs/submissions/``: ``{generated/submissions/<stem>.md|.html: text}``.
"""
from __future__ import annotations

import dataclasses

import datetime
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

from compiler.spec.diagnostics import Diagnostic, DiagnosticError, escape_token
from compiler.spec.loader import Document, load_document
from compiler.spec.validate import schema_diagnostics, suggest

RULES_SUBMISSION_CITE = "§ 601a.2"

# Header fields: a schema for files whose chapter has no rulespec (mirrors compiler.build).
BASE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["rules_submission", "certificate_holder", "facility", "game", "effective_date", "contact",
                 "selections"],
    "properties": {
        "rules_submission": {"const": 1},
        "certificate_holder": {"type": "string", "minLength": 1},
        "facility": {"type": "string", "minLength": 1},
        "game": {"type": "object", "additionalProperties": False, "required": ["chapter"],
                 "properties": {"chapter": {"type": "string"}, "title": {"type": "string"},
                                "edition": {"type": "string"}}},
        "effective_date": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
        "contact": {"type": "object", "additionalProperties": {"type": "string"}},
        "selections": {"type": "object"},
        "attachments": {"type": "object"},
    },
}


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------


def _dec_text(d: Decimal) -> str:
    """``Decimal('14.50') -> '14.5'``, ``Decimal('14') -> '14'`` (never an exponent)."""
    s = format(d.normalize(), "f")
    return s


def show_money(v) -> str:
    d = Decimal(v)
    return f"${int(d):,}" if d == d.to_integral_value() else f"${d:,.2f}"


def show_value(o: Mapping, v) -> str:
    """A selection as a regulator reads it: yes/no, $1,000, 14%, Paytable A, 14."""
    if v is None:
        return "none"
    t = o.get("type")
    if t == "text" and v == "":
        return "none stated"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if t == "money" and isinstance(v, (int, Decimal)):
        return show_money(v)
    if t == "percent" and isinstance(v, (int, Decimal)):
        return _dec_text(Decimal(v)) + "%"
    if isinstance(v, Decimal):
        return _dec_text(v)
    if isinstance(v, list):
        return f"{len(v)} rule{'s' if len(v) != 1 else ''} (below)"
    return str(v)


def _parse_number(v, unit: str) -> Decimal | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, Decimal)):
        return Decimal(v)
    if isinstance(v, str):
        s = v.strip()
        if unit == "$":
            s = s.removeprefix("$").replace(",", "")
        elif unit == "%":
            s = s.removesuffix("%").strip()
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", s):
            return None
        try:
            return Decimal(s)
        except InvalidOperation:  # pragma: no cover - the pattern excludes it
            return None
    return None


def _paytables_of(data: Mapping, oid: str) -> list[tuple[str, Mapping]]:
    return [(pid, p) for pid, p in (data.get("paytables") or {}).items() if p.get("option") == oid]


def _or_list(items: list[str]) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def check_value(data: Mapping, oid: str, o: Mapping, value) -> tuple[Any, str | None]:
    """(normalised value, None) or (None, error message without the option name)."""
    t = o["type"]
    cite = o["cite"]
    tables = _paytables_of(data, oid)
    if tables and isinstance(value, (str, int)) and not isinstance(value, bool):
        # a paytable column: the value must be one the option allows (the generated schema's enum);
        # the engine is given the column's name
        pid, pt = tables[0]
        cols = [str(c) for c in pt["columns"]]
        vals = [str(v) for v in o.get("values", cols)]
        given = str(value).strip()
        if given in vals:
            if given in cols:
                return given, None
            m = [c for c in cols if c.split()[-1] == given]
            return (m[0] if len(m) == 1 else given), None
        close = [v for v in vals if v.casefold() == given.casefold()] or \
                [v for v in vals if v.split()[-1].casefold() == given.split()[-1].casefold()]
        where = f"the {pt.get('title', pid)} paytable of {pt['cite']}"
        if len(close) == 1:
            return None, f"{given!r} is not a column of {where} (did you mean {close[0]!r}?)"
        prefix = " ".join(cols[0].split()[:-1])
        shown = f"{prefix} {given}" if prefix and len(given.split()) == 1 and \
            all(c.startswith(prefix + " ") for c in cols) else repr(given)
        return None, f"there is no {shown} in {where}; choose {_or_list(vals)}"
    if t == "boolean":
        if isinstance(value, bool):
            return value, None
        return None, f"expected yes or no, got {_show_raw(value)} ({cite})"
    if t == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            return None, f"expected a whole number, got {_show_raw(value)} ({cite})"
        v = value
    elif t in ("money", "percent"):
        unit = "$" if t == "money" else "%"
        v = _parse_number(value, unit)
        if v is None:
            form = "an amount such as $1,000 or 1000.00" if t == "money" else "a percentage such as 14% or 14.5"
            return None, f"expected {form}, got {_show_raw(value)} ({cite})"
        from compiler.runtime.money import MoneyError, money

        try:
            money(v)  # NaN, infinities and amounts beyond the money range are refused
        except MoneyError as e:
            return None, f"{e} ({cite})"
        if t == "money" and v != v.quantize(Decimal("0.01")):
            return None, f"{show_money(v)} is not a whole number of cents ({cite})"
    elif t == "house_way":
        if not isinstance(value, list) or not value:
            return None, f"expected the house way as a list of rules ({cite})"
        v = value
    elif t in ("choice", "text"):
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            return None, f"expected {'one of ' + _or_list(o.get('values', [])) if t == 'choice' else 'text'}, " \
                         f"got {_show_raw(value)} ({cite})"
        v = value
    else:  # pragma: no cover - the rulespec schema lists every type
        v = value
    if "values" in o and t != "house_way":
        vals = list(o["values"])
        if v not in vals and not any(str(v) == str(x) for x in vals):
            hint = suggest(str(v), [str(x) for x in vals]) if isinstance(v, str) else None
            return None, (f"{_show_raw(v) if isinstance(v, str) else show_value(o, v)} is not allowed by {cite}; choose {_or_list([show_value(o, x) for x in vals])}"
                          + (f" (did you mean {hint!r}?)" if hint else ""))
        v = next(x for x in vals if x == v or str(x) == str(v))
    if t in ("integer", "money", "percent"):
        lo, hi = o.get("minimum"), o.get("maximum")
        if lo is not None and v < lo:
            return None, f"{show_value(o, v)} is below the {show_value(o, _num(lo))} minimum of {cite}"
        if hi is not None and v > hi:
            return None, f"{show_value(o, v)} is above the {show_value(o, _num(hi))} maximum of {cite}"
    return v, None


CRITERIA = ("keep", "max", "min")


def _house_way_diagnostics(doc: Document, ch, oid: str, o: Mapping, rules) -> list[Diagnostic]:
    """Each rule of a house way given in a submission, parsed and name-checked in the rule language
    (the names of the chapter's game: rankings, categories, hands, zones, options), each error placed
    at the rule's expression in the file and ending with the option's citation.  The shape (``rule``,
    ``choose`` ...) is the generated schema's business."""
    from compiler.lang.rules import RuleSyntaxError, check_expr, parse_expr
    from compiler.runtime.paigow import _names_of_game

    names = _names_of_game(game_of(ch).GAME)
    out: list[Diagnostic] = []
    base = f"/selections/{escape_token(oid)}"

    def check(text, ptr: str, where: str) -> None:
        if not isinstance(text, str):
            return  # reported by the schema
        try:
            node = parse_expr(text)
        except RuleSyntaxError as e:
            out.append(doc.diagnostic(ptr, f"{oid}: {where}: rule syntax: {e.message} (column {e.column} of "
                                           f"{text!r}) ({o['cite']})"))
            return
        problems: list = []
        check_expr(node, names, problems)
        for pr in problems:
            out.append(doc.diagnostic(ptr, f"{oid}: {where}: {pr.message} (column {pr.column} of {text!r}) "
                                           f"({o['cite']})"))

    for i, r in enumerate(rules):
        if not isinstance(r, Mapping):
            continue
        label = f"rule {i + 1}" + (f" ({r['rule']})" if isinstance(r.get("rule"), str) and len(r["rule"]) <= 40 else "")
        if "when" in r:
            check(r["when"], f"{base}/{i}/when", f"{label}, when")
        for j, c in enumerate(r.get("choose") or () if isinstance(r.get("choose"), list) else ()):
            if isinstance(c, Mapping) and len(c) == 1 and next(iter(c)) in CRITERIA:
                k = next(iter(c))
                check(c[k], f"{base}/{i}/choose/{j}/{k}", f"{label}, {k}")
    return out


def _odds_diagnostics(doc: Document, ch, oid: str, o: Mapping, value) -> list[Diagnostic]:
    """An option that gives a payout's odds (``payouts.*.odds_option``) must read as odds."""
    from compiler.runtime.money import MoneyError, parse_odds

    users = [pid for pid, p in (ch.data.get("payouts") or {}).items() if p.get("odds_option") == oid]
    if not users or value is None or value == "":
        return []
    try:
        parse_odds(str(value))
    except MoneyError as e:
        return [doc.diagnostic(f"/selections/{escape_token(oid)}", f"{oid}: {e} ({o['cite']})")]
    return []


def _num(x):
    return x if isinstance(x, (int, Decimal)) else Decimal(str(x))


def _show_raw(v) -> str:
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "nothing"
    if isinstance(v, (dict, list)):
        return "a mapping" if isinstance(v, dict) else "a list"
    return str(v)


# ---------------------------------------------------------------------------------------------
# The game of a chapter, and evaluating rule-language conditions over selections
# ---------------------------------------------------------------------------------------------

_GAMES: dict[tuple, tuple[Any, Any]] = {}


def game_of(ch):
    """The compiled game module of an IR chapter (the source `rulespec build` writes)."""
    key = (ch.spec_path, ch.chapter, id(ch))
    hit = _GAMES.get(key)
    if hit is None or hit[0] is not ch:
        from compiler.codegen.generate import render_game_module
        from compiler.pipeline import _module

        hit = _GAMES[key] = (ch, _module(ch.module_name, render_game_module(ch)))
    return hit[1]


class _Conditions:
    """Evaluates rule-language conditions (constraints, ``when``) over a set of selections."""

    def __init__(self, game, options: Mapping[str, Any]):
        from compiler.runtime.engine import Context, Table

        self.table = Table(game, dict(options), seed=0)
        self.ctx = Context(self.table, None)

    def holds(self, expr) -> bool:
        from compiler.lang.rules import compile_expr, parse_expr

        node = parse_expr(expr) if isinstance(expr, str) else expr
        return bool(eval(compile_expr(node), {"ctx": self.ctx}))  # compiled from the rule language only


def options_read(expr) -> list[str]:
    """Option ids a rule-language condition reads, in order of appearance."""
    from compiler.lang.rules import BinOp, BoolOp, Call, Neg, Not, Ref, parse_expr

    node = parse_expr(expr) if isinstance(expr, str) else expr
    out: list[str] = []

    def walk(n):
        if isinstance(n, Call):
            if n.name == "option" and n.args and isinstance(n.args[0], Ref):
                if n.args[0].parts[0] not in out:
                    out.append(n.args[0].parts[0])
            for a in n.args:
                walk(a)
        elif isinstance(n, BinOp):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, BoolOp):
            for x in n.items:
                walk(x)
        elif isinstance(n, (Not, Neg)):
            walk(n.item)

    walk(node)
    return out


# ---------------------------------------------------------------------------------------------
# Checking a submission
# ---------------------------------------------------------------------------------------------


@dataclass
class Submission:
    path: str
    doc: Document
    chapter: Any  # compiler.ir.model.Chapter
    selections: dict[str, Any]  # what the file selects, normalised (money/percent as Decimal)
    effective: dict[str, Any]  # every applicable option: the selections over the spec's defaults
    applicable: dict[str, bool]  # option id -> whether its `when` holds
    diagnostics: list[Diagnostic] = field(default_factory=list)  # warnings

    @property
    def data(self) -> dict:
        return self.doc.data

    @property
    def game(self):
        return game_of(self.chapter).GAME

    @property
    def options(self) -> dict:
        return self.chapter.data.get("options") or {}


def _chapter_key(data) -> str | None:
    game = data.get("game") if isinstance(data, dict) else None
    chap = game.get("chapter") if isinstance(game, dict) else None
    if chap is None or isinstance(chap, (bool, dict, list)):
        return None
    return str(chap)


def check_submission(doc: Document, chapters: Mapping[str, Any]) -> tuple[Submission | None, list[Diagnostic]]:
    """Every diagnostic of a loaded submission; the Submission when there is no error."""
    data = doc.data
    if not isinstance(data, dict):
        return None, [doc.diagnostic("", "a Rules Submission is a mapping starting with 'rules_submission: 1'")]
    key = _chapter_key(data)
    ch = chapters.get(key) if key is not None and is_chapter_id(key) else None
    if ch is None:
        diags = schema_diagnostics(doc, BASE_SCHEMA)
        if key is not None and not is_chapter_id(key):
            shown = repr(key[:40] + ("..." if len(key) > 40 else ""))
            diags.append(doc.diagnostic(
                "/game/chapter", f"chapter {shown} is not a chapter number: digits and at most one "
                                 "lowercase letter, like \"567\" or \"669a\""))
        elif key is not None:
            known = sorted(chapters)
            hint = suggest(key, known)
            diags.append(doc.diagnostic(
                "/game/chapter", f"Chapter {key} has no rulespec"
                + (f" (did you mean {hint!r}?)" if hint else "")
                + f"; Rules Submissions can be checked for Chapter{'s' if len(known) != 1 else ''} "
                + (", ".join(known) or "none")))
        return None, diags
    from compiler.build import submission_schema

    options: dict = dict(ch.data.get("options") or {})
    sel = data.get("selections")
    sel = sel if isinstance(sel, dict) else None
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    # 1. each selection on its own: known option, type, values, bounds (with its citation)
    normalised: dict[str, Any] = {}
    bad: set[str] = set()
    for oid, value in (sel or {}).items():
        ptr = f"/selections/{escape_token(oid)}"
        if oid not in options:
            hint = suggest(oid, list(options))
            more = f" (did you mean {hint!r}?)" if hint else \
                f" (its options are {', '.join(repr(k) for k in options) or 'none'})"
            errors.append(doc.diagnostic(ptr, f"unknown option {oid!r} for Chapter {ch.chapter}{more}", at_key=True))
            bad.add(oid)
            continue
        v, msg = check_value(ch.data, oid, options[oid], value)
        if msg is not None:
            errors.append(doc.diagnostic(ptr, f"{oid}: {msg}"))
            bad.add(oid)
            continue
        more = _house_way_diagnostics(doc, ch, oid, options[oid], v) if options[oid]["type"] == "house_way" \
            else _odds_diagnostics(doc, ch, oid, options[oid], v)
        if more:
            errors.extend(more)
            bad.add(oid)
        else:
            normalised[oid] = v
    # 2. the schema generated from the rulespec; a selection already reported above keeps
    #    only its cited message, any other schema message under /selections/<option> gets the cite
    for d in schema_diagnostics(doc, submission_schema(ch)):
        p = d.pointer or ""
        if p.startswith("/selections/"):
            oid = p.split("/")[2].replace("~1", "/").replace("~0", "~")
            if oid in bad:
                continue
            if oid in options:
                d = Diagnostic(d.path, d.line, d.col, d.severity, f"{oid}: {d.message} ({options[oid]['cite']})",
                               d.pointer, d.excerpt)
        elif p == "/selections" and d.message.startswith("missing required field "):
            continue  # decided below, with the option's `when` and citation
        elif p == "/game/chapter" and not isinstance(data["game"]["chapter"], str):
            d = doc.diagnostic(p, f"the chapter is a string: write chapter: \"{ch.chapter}\"")
        errors.append(d)
    # 3. defaults, `when` of each option, missing selections
    game = game_of(ch).GAME
    effective = {**game.defaults(), **normalised}
    applicable: dict[str, bool] = {}
    for oid, o in options.items():
        applicable[oid] = True
        if o.get("when"):
            try:
                applicable[oid] = _Conditions(game, effective).holds(o["when"])
            except Exception:  # noqa: BLE001 - a condition over an invalid selection
                applicable[oid] = True
        if not applicable[oid]:
            effective.pop(oid, None)
            if sel is not None and oid in sel and oid not in bad:
                warnings.append(doc.diagnostic(
                    f"/selections/{escape_token(oid)}",
                    f"{oid}: applies only when {describe_when(o['when'], options)}, which the other selections do not meet; "
                    f"it has no effect ({o['cite']})", "warning"))
            continue
        if sel is not None and oid not in sel and "default" not in o:
            errors.append(doc.diagnostic(
                "/selections", f"missing selection {oid!r}: {o['title']}"
                + (f" (required when {describe_when(o['when'], options)})" if o.get("when") else "")
                + f" ({o['cite']})"))
            bad.add(oid)
    # 4. the chapter's conditions on combinations of selections
    if sel is not None:
        conds = None
        for c in ch.constraints:
            reads = options_read(c.require)
            if any(r in bad for r in reads):
                continue  # already wrong on its own
            try:
                conds = conds or _Conditions(game, effective)
                ok = conds.holds(c.require)
            except Exception as e:  # noqa: BLE001 - report, do not crash
                errors.append(doc.diagnostic("/selections", f"the condition of {c.cite} could not be evaluated "
                                                            f"for these selections: {e}"))
                continue
            if not ok:
                given = [r for r in reads if r in sel]
                pick = next((r for r in given if options.get(r, {}).get("type") != "boolean"), None) \
                    or (given[0] if given else None)
                name = pick or (reads[0] if reads else "selections")
                ptr = f"/selections/{escape_token(pick)}" if pick else "/selections"
                errors.append(doc.diagnostic(ptr, f"{name}: {c.message} ({c.cite})"))
    # 5. the header
    errors.extend(_check_header(doc, ch))
    if errors:
        return None, errors + warnings
    sub = Submission(doc.path, doc, ch, normalised, effective, applicable, warnings)
    return sub, warnings


def _check_header(doc: Document, ch) -> list[Diagnostic]:
    d = doc.data
    out = []
    eff = d.get("effective_date")
    if isinstance(eff, str) and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", eff):
        try:
            datetime.date.fromisoformat(eff)
        except ValueError:
            out.append(doc.diagnostic("/effective_date", f"effective_date: {eff} is not a calendar date"))
    game = d.get("game") if isinstance(d.get("game"), dict) else {}
    title = game.get("title")
    if isinstance(title, str) and " ".join(title.split()).casefold() != ch.title.casefold():
        out.append(doc.diagnostic("/game/title", f"game title {title!r} is not the title of Chapter {ch.chapter} "
                                                 f"({ch.title!r})"))
    edition = game.get("edition")
    src = ch.data.get("source") or {}
    if isinstance(edition, str) and not " ".join(edition.split()).startswith(src.get("citation", "")):
        out.append(doc.diagnostic(
            "/game/edition", f"edition {edition!r} is not the text the rulespec of Chapter {ch.chapter} follows: "
                             f"{edition_of(ch)}"))
    return out


def edition_of(ch) -> str:
    src = ch.data.get("source") or {}
    parts = [src.get("citation", "")]
    extra = ", ".join(x for x in (src.get("kind"), src.get("date")) if x)
    return parts[0] + (f" ({extra})" if extra else "")


def load_submission(path, chapters: Mapping[str, Any], text: str | None = None) -> Submission:
    """Load and check a Rules Submission; raises DiagnosticError listing every error."""
    doc = load_document(str(path), text)
    sub, diags = check_submission(doc, chapters)
    if sub is None:
        raise DiagnosticError(diags)
    return sub


CHAPTER_ID = re.compile(r"^[0-9]{1,6}[a-z]?$")  # as the rulespec schema's `chapter`, bounded


def is_chapter_id(key) -> bool:
    return isinstance(key, str) and CHAPTER_ID.match(key) is not None


def chapter_spec_files(root: Path, key: str) -> list[Path]:
    """The rulespecs that may hold Chapter ``key``: ``rulespecs/<key>-*.yaml``, only for a chapter
    number and only files inside ``rulespecs/`` (no path from a submission reaches the file system)."""
    if not is_chapter_id(key):
        return []
    spec_dir = (Path(root) / "rulespecs").resolve()
    return [p for p in sorted(spec_dir.glob(f"{key}-*.yaml"))
            if p.resolve().parent == spec_dir and p.is_file()]


def find_chapters(root: Path, wanted) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Compile the rulespecs of the wanted chapters (``rulespecs/<chapter>-*.yaml``)."""
    from compiler.pipeline import compile_spec

    out, diags = {}, []
    root = Path(root).resolve()
    for key in sorted(set(wanted)):
        for p in chapter_spec_files(root, key):
            rel = p.relative_to(root).as_posix() if p.is_relative_to(root) else str(p)
            c = compile_spec(rel, p.read_text(encoding="utf-8"))
            if not c.ok:
                diags.extend(c.errors)
                continue
            if c.chapter.chapter == key:
                out[key] = c.chapter
    return out, diags


def glob_escape(s: str) -> str:
    return re.sub(r"([*?\[\]])", r"[\1]", s)


def chapter_of_file(path) -> str | None:
    """The game chapter a submission file names (None when unreadable)."""
    try:
        return _chapter_key(load_document(str(path)).data)
    except DiagnosticError:
        return None


# ---------------------------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------------------------

_ANALYSES: dict[tuple, Any] = {}


def analysis_of(sub: Submission):
    """``compiler.analysis.report.analyze`` under the submission's selections (cached)."""
    from compiler.analysis.report import analyze

    opts = dict(sub.selections)
    key = (id(sub.chapter), tuple(sorted((k, repr(v)) for k, v in opts.items())))
    hit = _ANALYSES.get(key)
    if hit is None or hit[0] is not sub.chapter:
        def compute():
            try:
                report = analyze(sub.game, sub.chapter, opts)
            except (ImportError, NotImplementedError, ValueError) as e:  # a chapter the engine cannot analyse yet
                from compiler.analysis.report import Report

                report = Report(sub.chapter.chapter, sub.chapter.title, dict(opts), [],
                                ["no house edge could be computed for these selections: "
                                 + (str(e) if isinstance(e, ValueError) else
                                    f"the analysis engine does not cover Chapter {sub.chapter.chapter} yet")])
            return _report_fields(report)

        from compiler import cache

        # by content: the chapter's data, the selections, the compiler (compiler/cache.py)
        from compiler.analysis.paigow_exact import record_text

        ckey = cache.key_of("submission-analysis", sub.chapter.data,
                            sorted(opts.items(), key=lambda kv: kv[0]), record_text(sub.chapter))
        try:
            report = _report_from(cache.cached(ckey, compute))
        except (KeyError, TypeError, ValueError):  # a stored value of the wrong shape: recompute
            report = _report_from(compute())
            cache.store(ckey, _report_fields(report))
        hit = _ANALYSES[key] = (sub.chapter, report)
    return hit[1]


def _report_fields(report) -> dict:
    """What a document shows of an analysis report, as plain exact data (compiler/cache.py stores it)."""
    return {"chapter": report.chapter, "title": report.title, "settings": dict(report.settings),
            "notes": list(report.notes),
            # every field of a Figure, so a field added to it can never be lost on the way through the cache
            "figures": [{fl.name: getattr(f, fl.name) for fl in dataclasses.fields(f)} for f in report.figures],
            "not_computed": [{fl.name: getattr(n, fl.name) for fl in dataclasses.fields(n)}
                             for n in report.not_computed]}


def _report_from(fields: dict):
    from compiler.analysis.report import Figure, NotComputed, Report

    return Report(fields["chapter"], fields["title"], fields["settings"],
                  [Figure(**{**f, "includes": tuple(f["includes"])}) for f in fields["figures"]],
                  list(fields["notes"]),
                  not_computed=[NotComputed(**n) for n in fields["not_computed"]])


def _frac(x: Fraction) -> str:
    return str(Fraction(x))


def figure_rows(sub: Submission) -> list[dict]:
    """One row per figure of the analysis; a simulated figure short of its precision target and a
    wager the analysis cannot model are rows that say "not computed" with the reason, never a number."""
    from compiler.analysis.report import dec, pct

    rows = []
    report = analysis_of(sub)
    for f in report.figures:
        exact = f.exact
        hf = f.hit_frequency
        value = getattr(f, "kind", "return") == "value"  # an expected amount (Envy Bonus), not a return
        includes = [sub.game.wagers[w].name if w in sub.game.wagers else w for w in f.includes]
        if not exact and not f.meets_target:
            rows.append(_not_computed_row(
                f.wager, f.name, f.policy,
                f"simulated standard error {f.standard_error * 100:.2f} points is short of the "
                f"{f.target * 100:.2f}-point precision target", includes))
            continue
        rows.append({
            "wager": f.wager, "name": f.name, "policy": f.policy,
            "house_edge_percent": (f"${dec(f.expected_return, 4)} expected" if value else
                                   pct(f.house_edge) if exact else pct(f.house_edge, 2)),
            # a simulated mean is no exact fraction: show its standard error instead
            "house_edge_fraction": (_frac(f.expected_return if value else f.house_edge) if exact else
                                    f"± {f.standard_error * 100:.2f} points (1 s.e.)"),
            "expected_return_fraction": _frac(f.expected_return) if exact else "n/a",
            "hit_frequency_percent": "n/a" if hf is None else pct(hf),
            "hit_frequency_fraction": "n/a" if hf is None else _frac(hf),
            "hit_frequency_decimal": "n/a" if hf is None else dec(hf),
            "kind": "exact" if exact else "simulated", "method": f.method,
            "method_detail": f.method.split(":", 1)[1].strip() if ":" in f.method else f.method,
            "includes": includes,
        })
    for n in report.not_computed:
        rows.append(_not_computed_row(n.wager, n.name, n.policy, n.reason, []))
    return rows


def _not_computed_row(wager, name, policy, reason, includes) -> dict:
    return {"wager": wager, "name": name, "policy": policy, "house_edge_percent": "not computed",
            "house_edge_fraction": "n/a", "expected_return_fraction": "n/a", "hit_frequency_percent": "n/a",
            "hit_frequency_fraction": "n/a", "hit_frequency_decimal": "n/a", "kind": "not computed",
            "method": "not computed: " + reason, "method_detail": reason, "includes": includes}


def document_context(sub: Submission, display_path: str | None = None) -> dict:
    """Everything the document templates show (plain strings, lists and dicts)."""
    ch = sub.chapter
    d = ch.data
    game = sub.game
    conds = _Conditions(game, sub.effective)
    table = conds.table
    options = sub.options
    sel = sub.data.get("selections") or {}
    selections = []
    house_ways = []
    for oid, o in options.items():
        applies = sub.applicable.get(oid, True)
        if not applies:
            status, value = "not applicable", "—"
        elif oid in sel:
            status, value = "selected", show_value(o, sub.effective.get(oid))
        else:
            status, value = "default", show_value(o, sub.effective.get(oid))
        selections.append({"id": oid, "title": o["title"], "value": value, "status": status, "cite": o["cite"],
                           "when": describe_when(o.get("when", ""), options)})
        if o["type"] == "house_way" and applies and isinstance(sub.effective.get(oid), list):
            house_ways.append({"id": oid, "title": o["title"], "cite": o["cite"],
                               "rules": [{"rule": str(r.get("rule", "")), "when": str(r.get("when", "")),
                                          "choose": [{"kind": k, "expr": str(c[k])} for c in r.get("choose") or ()
                                                     for k in CRITERIA if k in c],
                                          "note": str(r.get("note", ""))}
                                         for r in sub.effective[oid] if isinstance(r, dict)]})
    wagers_data = d.get("wagers") or {}
    offered_paytables = set()
    wagers = []
    for wid, w in wagers_data.items():
        offered = table.offered(wid)
        if w.get("offered_by"):
            ob = w["offered_by"]
            why = f"{options.get(ob, {}).get('title', ob)}: {show_value(options.get(ob, {}), table.options.get(ob))}"
        else:
            why = "required to play" if w.get("required") else (
                "placed during the round" if w.get("placed") == "during_round" else "always offered")
        wagers.append({"id": wid, "name": w["name"], "cite": w["cite"], "offered": offered, "status": why})
        if offered and w.get("paytable"):
            offered_paytables.add(w["paytable"])
    used_by_wager = {w.get("paytable") for w in wagers_data.values() if w.get("paytable")}
    paytables = []
    for pid, p in (d.get("paytables") or {}).items():
        if pid in used_by_wager and pid not in offered_paytables:
            continue  # the wager it pays is not offered
        cols = [str(c) for c in p["columns"]]
        col = 0
        if p.get("option"):
            if not sub.applicable.get(p["option"], True):
                continue
            chosen = table.options.get(p["option"])
            if chosen not in cols:
                continue
            col = cols.index(chosen)
        paytables.append({
            "id": pid, "title": p.get("title", pid), "cite": p["cite"], "header": p.get("header", "Hand"),
            "column": cols[col], "option": p.get("option") or "",
            "rows": [{"label": r["label"], "pays": (r["pays"][col] if isinstance(r["pays"], list) else r["pays"])}
                     for r in p["rows"]],
        })
    payouts = []
    for pid, p in (d.get("payouts") or {}).items():
        names = [w["name"] for w in wagers_data.values() if w.get("pays") == pid]
        if "odds" in p:
            odds = str(p["odds"])
        elif p.get("odds_option") and table.options.get(p["odds_option"]) not in (None, ""):
            odds = f"{table.options[p['odds_option']]} (stated in this Rules Submission; {p['cite']} is not in the sources)"
        else:
            odds = f"{p.get('unpriced') or 'not in the sources'}: a win is recorded without an amount"
        payouts.append({"id": pid, "wagers": ", ".join(names) or "named in the settlement rules", "odds": odds, "cite": p["cite"]})
    meters = []
    for mid, m in (d.get("meters") or {}).items():
        meters.append({"id": mid, "cite": m["cite"],
                       "rate": show_value(options.get(m.get("rate_option"), {}), table.options.get(m.get("rate_option")))
                       if m.get("rate_option") else "—",
                       "reset": show_value(options.get(m.get("reset_option"), {}), table.options.get(m.get("reset_option")))
                       if m.get("reset_option") else "—"})
    equipment = []
    for e in (d.get("table") or {}).get("equipment") or ():
        if e.get("when") and not conds.holds(e["when"]):
            continue
        because = "; ".join(f"{options[r]['title']}: {show_value(options[r], table.options.get(r))}"
                            for r in options_read(e["when"]) if r in options) if e.get("when") else ""
        equipment.append({"item": e["item"], "location": e.get("location", ""), "cite": e["cite"],
                          "because": because or e.get("when", ""), "when": e.get("when", "")})
    constraints = [{"message": c.message, "cite": c.cite} for c in ch.constraints]
    src = d.get("source") or {}
    contact = [{"key": k.replace("_", " ").capitalize(), "value": str(v)}
               for k, v in (sub.data.get("contact") or {}).items()]
    attachments = [{"key": str(k), "value": show_attachment(v)} for k, v in (sub.data.get("attachments") or {}).items()]
    gd = sub.data.get("game") or {}
    figures = figure_rows(sub)
    report = analysis_of(sub)
    covered = {w for f in report.figures for w in (*f.wager.split("+"), *f.includes)}
    not_analysed = [w["name"] for w in wagers if w["offered"] and w["id"] not in covered]
    return {
        # the file's name as given, never a local absolute path (a document travels)
        "submission_path": _no_local_path(display_path or sub.path),
        "spec_path": ch.spec_path, "chapter": ch.chapter, "title": ch.title, "slug": ch.slug,
        "schema_path": f"generated/schemas/{ch.slug}-submission.schema.json",
        "certificate_holder": str(sub.data["certificate_holder"]), "facility": str(sub.data["facility"]),
        "effective_date": str(sub.data["effective_date"]),
        "edition": edition_of(ch), "edition_given": str(gd.get("edition", "")),
        "source_effective": str(src.get("effective", "")),
        "contact": contact, "attachments": attachments,
        "selections": selections, "house_ways": house_ways,
        "paytables": paytables, "payouts": payouts, "meters": meters,
        "wagers": wagers, "figures": figures, "not_analysed": not_analysed,
        "analysis_notes": list(report.notes),
        "equipment": equipment, "constraints": constraints,
        "interpretations": [{"id": i.id, "cites": list(i.cites), "text": i.text, "chosen": i.chosen}
                            for i in ch.interpretations],
        "warnings": [w.message for w in sub.diagnostics],
        "rules_submission_cite": RULES_SUBMISSION_CITE,
    }


def _no_local_path(path: str) -> str:
    """A path relative to the project as it is; anything else (absolute, outside) by its file name only."""
    p = Path(path)
    return p.name if p.is_absolute() or ".." in p.parts else p.as_posix()


def describe_when(expr: str, options: Mapping) -> str:
    """``option(x)`` -> "<title of x>: yes"; ``not option(x)`` -> ": no"; otherwise the condition."""
    if not expr:
        return ""
    from compiler.lang.rules import Call, Not, Ref, parse_expr

    n = parse_expr(expr)
    neg = isinstance(n, Not)
    n = n.item if neg else n
    if isinstance(n, Call) and n.name == "option" and isinstance(n.args[0], Ref) and n.args[0].parts[0] in options:
        return f"{options[n.args[0].parts[0]]['title']}: {'no' if neg else 'yes'}"
    return expr


def show_attachment(v) -> str:
    if isinstance(v, dict):
        return "; ".join(f"{k}: {x}" for k, x in v.items())
    if isinstance(v, list):
        return "; ".join(str(x) for x in v)
    return str(v)


def _envs():
    from compiler.build import md  # also registers the `md` filter
    from compiler.codegen.generate import HTML_ENV, PY_ENV

    PY_ENV.filters.setdefault("md", md)
    HTML_ENV.filters.setdefault("md", md)
    return PY_ENV, HTML_ENV


def render_markdown(sub: Submission, display_path: str | None = None) -> str:
    md_env, _ = _envs()
    return md_env.get_template("rules-submission.md.jinja").render(**document_context(sub, display_path))


def render_html(sub: Submission, display_path: str | None = None) -> str:
    _, html_env = _envs()
    return html_env.get_template("rules-submission.html.jinja").render(**document_context(sub, display_path))


def render_documents(sub: Submission, display_path: str | None = None) -> tuple[str, str]:
    ctx = document_context(sub, display_path)
    md_env, html_env = _envs()
    return (md_env.get_template("rules-submission.md.jinja").render(**ctx),
            html_env.get_template("rules-submission.html.jinja").render(**ctx))


def _display(root: Path, path: Path) -> str:
    p = Path(path)
    try:
        return p.resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return p.as_posix()


def render_submission_files(root: Path, path: Path, chapters: Mapping[str, Any]) -> dict[str, str]:
    """``{generated/submissions/<stem>.md: ..., .html: ...}`` for one example submission.

    A submission of a chapter whose rulespec exists but is not part of this build (``rulespec
    build SPEC``) is skipped; an invalid submission raises DiagnosticError.
    """
    root = Path(root)
    shown = _display(root, path)
    doc = load_document(shown if (root / shown).exists() and not Path(shown).is_absolute() else str(path),
                        Path(path).read_bytes())
    key = _chapter_key(doc.data)
    if key is not None and key not in chapters and chapter_spec_files(root, key):
        return {}
    sub, diags = check_submission(doc, chapters)
    if sub is None:
        raise DiagnosticError(diags)
    md_text, html_text = render_documents(sub, shown)
    stem = Path(path).stem
    return {f"generated/submissions/{stem}.md": md_text, f"generated/submissions/{stem}.html": html_text}
