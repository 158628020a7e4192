"""Checking a Rules Submission (§ 601a.2) against its chapter: the generated schema, each option's
type, values and bounds, the chapter's conditions on combinations, house ways and the header.

``load_submission(path, chapters)`` returns a :class:`Submission` or raises
:class:`DiagnosticError` with every error, each positioned (``path:line:col``) and, where the
rule comes from the chapter, ending with its citation.
"""
from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from compiler.lang.rules import RuleSyntaxError, check_expr, parse_expr
from compiler.pipeline import compile_spec
from compiler.runtime.money import MoneyError, parse_odds
from compiler.runtime.paigow import _names_of_game
from compiler.spec.diagnostics import Diagnostic, DiagnosticError, escape_token
from compiler.spec.loader import Document, load_document
from compiler.spec.validate import schema_diagnostics, suggest
from compiler.runtime.from_ir import game_of
from compiler.submission.conditions import Conditions, describe_when, options_read
from compiler.submission.schema import BASE_SCHEMA, submission_schema
from compiler.submission.values import check_value

CRITERIA = ("keep", "max", "min")


def _house_way_diagnostics(doc: Document, ch, oid: str, o: Mapping, rules) -> list[Diagnostic]:
    """Each rule of a house way given in a submission, parsed and name-checked in the rule language
    (the names of the chapter's game: rankings, categories, hands, zones, options), each error placed
    at the rule's expression in the file and ending with the option's citation.  The shape (``rule``,
    ``choose`` ...) is the generated schema's business."""
    names = _names_of_game(game_of(ch))
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
    users = [pid for pid, p in ch.payouts.items() if p.odds_option == oid]
    if not users or value is None or value == "":
        return []
    try:
        parse_odds(str(value))
    except MoneyError as e:
        return [doc.diagnostic(f"/selections/{escape_token(oid)}", f"{oid}: {e} ({o['cite']})")]
    return []





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
        return game_of(self.chapter)

    @property
    def options(self) -> dict:
        """The chapter's options as the rulespec writes them (``Option.spec``), by id."""
        return option_specs(self.chapter)


def option_specs(ch) -> dict:
    """The options of a chapter (its IR) as the rulespec writes them, by id (a new dict)."""
    return {k: o.spec for k, o in ch.options.items()}


def chapter_key(data) -> str | None:
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
    key = chapter_key(data)
    ch = chapters.get(key) if key is not None and is_chapter_id(key) else None
    if ch is None:
        return None, _no_chapter_diagnostics(doc, key, chapters)

    options: dict = option_specs(ch)
    sel = data.get("selections")
    sel = sel if isinstance(sel, dict) else None
    # 1. each selection on its own: known option, type, values, bounds (with its citation)
    normalised, bad, errors = _selection_diagnostics(doc, ch, options, sel)
    # 2. the schema generated from the rulespec
    errors.extend(_schema_errors(doc, ch, options, bad))
    # 3. defaults, `when` of each option, missing selections
    game = game_of(ch)
    effective, applicable, missing, warnings = _applicable_options(doc, game, options, normalised, sel, bad)
    errors.extend(missing)
    # 4. the chapter's conditions on combinations of selections
    if sel is not None:
        errors.extend(_constraint_errors(doc, ch, game, options, effective, sel, bad))
    # 5. the header
    errors.extend(_check_header(doc, ch))
    if errors:
        return None, errors + warnings
    sub = Submission(doc.path, doc, ch, normalised, effective, applicable, warnings)
    return sub, warnings


def _no_chapter_diagnostics(doc: Document, key: str | None, chapters: Mapping[str, Any]) -> list[Diagnostic]:
    """A submission whose chapter has no rulespec here: the base schema's messages, and what is wrong
    with the chapter it names (not a chapter number, or one without a rulespec: those that have one)."""
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
    return diags


def _selection_diagnostics(doc: Document, ch, options: dict, sel: dict | None
                           ) -> tuple[dict[str, Any], set[str], list[Diagnostic]]:
    """Each selection on its own (known option, type, values, bounds, house way rules, odds):
    (the selections that pass, normalised; the options wrongly selected; the errors)."""
    errors: list[Diagnostic] = []
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
        v, msg = check_value(ch, oid, options[oid], value)
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
    return normalised, bad, errors


def _schema_errors(doc: Document, ch, options: dict, bad: set[str]) -> list[Diagnostic]:
    """The messages of the schema generated from the rulespec; a selection already reported keeps
    only its cited message, any other schema message under /selections/<option> gets the cite."""
    errors: list[Diagnostic] = []
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
        elif p == "/game/chapter" and not isinstance(doc.data["game"]["chapter"], str):
            d = doc.diagnostic(p, f"the chapter is a string: write chapter: \"{ch.chapter}\"")
        errors.append(d)
    return errors


def _applicable_options(doc: Document, game, options: dict, normalised: dict[str, Any], sel: dict | None,
                        bad: set[str]) -> tuple[dict[str, Any], dict[str, bool], list[Diagnostic], list[Diagnostic]]:
    """The defaults and the `when` of each option: (the effective values, whether each option applies,
    the errors of missing selections, the warnings of selections that do not apply).  A missing
    selection is added to ``bad``."""
    effective = {**game.defaults(), **normalised}
    applicable: dict[str, bool] = {}
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    for oid, o in options.items():
        applicable[oid] = True
        if o.get("when"):
            try:
                applicable[oid] = Conditions(game, effective).holds(o["when"])
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
    return effective, applicable, errors, warnings


def _constraint_errors(doc: Document, ch, game, options: dict, effective: dict[str, Any], sel: dict,
                       bad: set[str]) -> list[Diagnostic]:
    """The chapter's conditions on combinations of selections that these selections break (one that
    reads a selection already wrong on its own is skipped), each at the selection it is most about."""
    errors: list[Diagnostic] = []
    conds = None
    for c in ch.constraints:
        reads = options_read(c.require)
        if any(r in bad for r in reads):
            continue  # already wrong on its own
        try:
            conds = conds or Conditions(game, effective)
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
    return errors


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
    if isinstance(edition, str) and not " ".join(edition.split()).startswith(ch.source.citation):
        out.append(doc.diagnostic(
            "/game/edition", f"edition {edition!r} is not the text the rulespec of Chapter {ch.chapter} follows: "
                             f"{edition_of(ch)}"))
    return out


def edition_of(ch) -> str:
    src = ch.source
    parts = [src.citation]
    extra = ", ".join(x for x in (src.kind, src.date) if x)
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


def given_chapters(paths) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Compile rulespecs given by path: chapter -> compiled chapter, and the errors of those that fail."""
    out, diags = {}, []
    for p in paths:
        try:
            text = Path(p).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            diags.append(Diagnostic(str(p), 1, 1, "error", f"cannot read the rulespec: {e}"))
            continue
        c = compile_spec(str(p), text)
        if not c.ok:
            diags.extend(c.errors)
            continue
        out[c.chapter.chapter] = c.chapter
    return out, diags


def glob_escape(s: str) -> str:
    return re.sub(r"([*?\[\]])", r"[\1]", s)


def chapter_of_file(path) -> str | None:
    """The game chapter a submission file names (None when unreadable)."""
    try:
        return chapter_key(load_document(str(path)).data)
    except DiagnosticError:
        return None



def display_path(root: Path, path: Path) -> str:
    p = Path(path)
    try:
        return p.resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return p.as_posix()


def check_files(files, root: Path | None = None, rulespecs=()):
    """[(file, Submission | None, [Diagnostic])] for each file, compiling the rulespecs they need: those given
    (``rulespecs``: paths of chapters outside rulespecs/, each for the chapter it declares), then rulespecs/."""
    from compiler.pipeline import ROOT

    root = root or ROOT
    wanted = {k for k in (chapter_of_file(f) for f in files) if k}
    given, spec_diags = given_chapters(rulespecs)
    chapters, found_diags = find_chapters(root, wanted - set(given))
    chapters.update(given)
    spec_diags += found_diags
    out = []
    for f in files:
        try:
            doc = load_document(str(f))
        except DiagnosticError as e:
            out.append((f, None, list(e.diagnostics)))
            continue
        sub, diags = check_submission(doc, chapters)
        out.append((f, sub, diags))
    return out, spec_diags
