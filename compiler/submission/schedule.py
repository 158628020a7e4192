"""Equipment change schedules: how often each facility must change its decks, tiles, dice ...

Every chapter states its change intervals as data (docs/change-schedules.md), in one form::

    cards:                      # card chapters may keep them with the cards
      change_interval:
        - {hours: 4, items: decks, when: option(dealing_method) == 'hand', cite: § 669a.3(c)(1)}
    change_intervals:           # any chapter (tiles, dice, ...)
        - {hours: 12, items: tiles, cite: § 535.3(e)}

A certificate holder's Rules Submissions (§ 601a.2) fix the selections a ``when`` reads; the
schedule of a facility lists, for each of its games, each item and the interval that applies
under those selections, with its citation.  ``when`` is evaluated as every other condition over
selections is: compiled from the rule language and run against the game module's
``Context(Table(game, selections), None)``.  Nothing here names a chapter.

* ``facility_schedules(subs)``: ``[facility]`` (dicts, the templates' context) from checked
  :class:`~compiler.submission.document.Submission` objects;
* ``schedule_files(root, paths, chapters)``: what ``rulespec build`` writes,
  ``generated/schedules/<facility-slug>-change-schedule.md`` and ``.html``;
* ``rulespec schedule SUBMISSION... [--format text|json]``: the combined schedule.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, Mapping

from compiler.ir.build import change_intervals  # noqa: F401  of a rulespec's data (the IR: Chapter.change_intervals)
from compiler.lang.rules import BinOp, BoolOp, Call, Lit, Not, Ref, parse_expr
from compiler.render.table import text_table
from compiler.spec.diagnostics import Diagnostic, DiagnosticError, error_dicts
from compiler.spec.loader import load_document
from compiler.submission.check import chapter_key as submission_chapter, check_files, check_submission, display_path
from compiler.submission.conditions import Conditions, options_read
from compiler.submission.formats import template_envs
from compiler.submission.values import show_value

SCHEDULE_DIR = "generated/schedules"


# ---------------------------------------------------------------------------------------------
# The intervals of a chapter
# ---------------------------------------------------------------------------------------------


def _spec_error(ch, pointer: str, message: str) -> DiagnosticError:
    line, col = 1, 1
    try:
        line, col = load_document(ch.spec_path).position(pointer)
    except Exception:  # noqa: BLE001 - the position is a courtesy
        pass
    return DiagnosticError([Diagnostic(ch.spec_path, line, col, "error", message, pointer)])


def hours_text(hours: int | None) -> str:
    if hours is None:
        return "none applies"
    return f"{hours} hour{'s' if hours != 1 else ''}"


def describe_condition(expr: str, options: Mapping) -> str:
    """A ``when`` as a regulator reads it: ``option(dealing_method) == 'hand'`` -> "How the cards
    are dealt: hand"; ``!=`` -> "...: not hand"; ``[not] option(flag)`` -> ": yes"/": no";
    conditions of other shapes are shown as written."""
    def opt(n):
        if isinstance(n, Call) and n.name == "option" and n.args and isinstance(n.args[0], Ref) \
                and n.args[0].parts[0] in options:
            return n.args[0].parts[0]
        return None

    def walk(n) -> str | None:
        if isinstance(n, Not) and opt(n.item):
            return f"{options[opt(n.item)]['title']}: no"
        if opt(n):
            return f"{options[opt(n)]['title']}: yes"
        if isinstance(n, BinOp) and n.op in ("==", "!=") and opt(n.left) and isinstance(n.right, Lit):
            o = options[opt(n.left)]
            return f"{o['title']}: {'' if n.op == '==' else 'not '}{show_value(o, n.right.value)}"
        if isinstance(n, BoolOp):
            parts = [walk(x) for x in n.items]
            return f" {n.op} ".join(parts) if all(parts) else None
        return None

    try:
        return walk(parse_expr(str(expr))) or str(expr)
    except Exception:  # noqa: BLE001 - shown as written
        return str(expr)


def game_schedule(sub) -> list[dict]:
    """Rows ``{item, hours, every, cite, because, when, not_applicable}`` for one submission: for
    each item of its chapter, the interval that applies under the submission's selections (the
    shortest, should several apply)."""
    ch = sub.chapter
    options = sub.options
    conds = Conditions(sub.game, sub.effective)
    by_item: dict[str, list[tuple[dict, bool]]] = {}
    for e in ch.change_intervals:
        holds = True
        if e.get("when"):
            try:
                node = parse_expr(str(e["when"]))
                unknown = [r for r in options_read(node) if r not in options]
                if unknown:
                    raise ValueError(f"unknown option {unknown[0]!r}")
                holds = conds.holds(node)
            except Exception as exc:  # noqa: BLE001 - a spec error, positioned in the spec
                raise _spec_error(ch, e["pointer"] + "/when",
                                  f"the change interval condition {e['when']!r} cannot be evaluated for "
                                  f"{sub.path}: {getattr(exc, 'message', exc)} ({e['cite']})") from None
        by_item.setdefault(str(e["items"]), []).append((e, holds))
    rows = []
    for item, entries in by_item.items():
        applying = [e for e, ok in entries if ok]
        best = min(applying, key=lambda e: e["hours"]) if applying else None
        because = "always (no condition)"
        if best is not None and best.get("when"):
            reads = [r for r in options_read(best["when"]) if r in options]
            because = "; ".join(f"{options[r]['title']}: {show_value(options[r], sub.effective.get(r))}"
                                for r in reads) or str(best["when"])
        rows.append({
            "item": item,
            "hours": best["hours"] if best else None,
            "every": hours_text(best["hours"] if best else None),
            "cite": best["cite"] if best else "",
            "because": because if best else "no interval of the chapter applies under the selections",
            "when": str(best.get("when", "")) if best else "",
            "not_applicable": [{"hours": e["hours"], "every": hours_text(e["hours"]), "when": str(e.get("when", "")),
                                "condition": describe_condition(e.get("when", ""), options), "cite": e["cite"]}
                               for e, ok in entries if not ok],
        })
    return rows


# ---------------------------------------------------------------------------------------------
# Facilities
# ---------------------------------------------------------------------------------------------


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-") or "facility"


def chapter_key(chapter: str):
    m = re.match(r"([0-9]+)([a-z]*)", str(chapter))
    return (int(m.group(1)), m.group(2)) if m else (0, str(chapter))


def facility_schedules(subs: list[tuple[str, Any]]) -> list[dict]:
    """``[(display path, Submission)]`` -> one schedule per (certificate holder, facility)."""
    groups: dict[tuple[str, str], list[tuple[str, Any]]] = {}
    for path, sub in subs:
        key = (str(sub.data["certificate_holder"]), str(sub.data["facility"]))
        groups.setdefault(key, []).append((path, sub))
    slugs: dict[str, list[tuple[str, str]]] = {}
    for holder, facility in groups:
        slugs.setdefault(slug(facility), []).append((holder, facility))
    out = []
    for (holder, facility), members in groups.items():
        s = slug(facility)
        if len(slugs[s]) > 1:  # one facility name under two certificate holders
            s = f"{slug(holder)}-{s}"
        games = []
        for path, sub in sorted(members, key=lambda m: (chapter_key(m[1].chapter.chapter), m[0])):
            ch = sub.chapter
            games.append({
                "chapter": ch.chapter, "title": ch.title, "spec_path": ch.spec_path,
                "submission_path": path, "effective_date": str(sub.data["effective_date"]),
                "completeness": ch.completeness,
                "missing": [{"cite": m.cite, "what": " ".join(str(m.what).split())} for m in ch.missing],
                "rows": game_schedule(sub),
            })
        rows = [{**r, "chapter": g["chapter"], "title": g["title"], "submission_path": g["submission_path"]}
                for g in games for r in g["rows"]]
        out.append({"certificate_holder": holder, "facility": facility, "slug": s, "games": games,
                    "rows": rows,
                    "sources": sorted({g["submission_path"] for g in games} | {g["spec_path"] for g in games})})
    return sorted(out, key=lambda f: f["slug"])


def render_schedule(facility: dict) -> tuple[str, str]:
    """(Markdown, HTML) of one facility's schedule."""
    md_env, html_env = template_envs()
    return (md_env.get_template("change-schedule.md.jinja").render(**facility),
            html_env.get_template("change-schedule.html.jinja").render(**facility))


def schedule_files(root: Path, paths: list[Path], chapters: Mapping[str, Any]) -> dict[str, str]:
    """``{generated/schedules/<facility>-change-schedule.md|.html: text}`` for the example
    submissions ``paths``.  A facility one of whose submissions names a chapter left out of this
    build (``rulespec build SPEC``) is skipped rather than written incomplete; an invalid
    submission raises DiagnosticError (``render_submission_files`` reports it first)."""
    root = Path(root)
    loaded, skipped = [], set()
    for p in paths:
        shown = display_path(root, p)
        doc = load_document(shown if (root / shown).exists() and not Path(shown).is_absolute() else str(p),
                            Path(p).read_bytes())
        data = doc.data if isinstance(doc.data, dict) else {}
        key = submission_chapter(data)
        if key is not None and key not in chapters:
            skipped.add((str(data.get("certificate_holder")), str(data.get("facility"))))
            continue
        sub, diags = check_submission(doc, chapters)
        if sub is None:
            raise DiagnosticError(diags)
        loaded.append((shown, sub))
    out: dict[str, str] = {}
    for f in facility_schedules(loaded):
        if (f["certificate_holder"], f["facility"]) in skipped:
            continue
        md_text, html_text = render_schedule(f)
        out[f"{SCHEDULE_DIR}/{f['slug']}-change-schedule.md"] = md_text
        out[f"{SCHEDULE_DIR}/{f['slug']}-change-schedule.html"] = html_text
    return out


# ---------------------------------------------------------------------------------------------
# rulespec schedule SUBMISSION... [--format text|json]
# ---------------------------------------------------------------------------------------------


def format_text(facilities: list[dict]) -> str:
    out = []
    for f in facilities:
        out.append(f"Change schedule: {f['facility']} ({f['certificate_holder']})")
        table = [["GAME", "ITEM", "CHANGE AT LEAST EVERY", "UNDER", "CITE", "RULES SUBMISSION"]]
        for r in f["rows"]:
            table.append([f"{r['chapter']} {r['title']}", r["item"], r["every"], r["because"], r["cite"],
                          r["submission_path"]])
        if len(table) > 1:
            out.append(text_table(table))
        for g in f["games"]:
            if not g["rows"]:
                out.append(f"Chapter {g['chapter']} {g['title']}: no change interval in its rulespec ({g['spec_path']})")
            if g["completeness"] != "complete":
                out.append(f"Chapter {g['chapter']} {g['title']} is encoded from {g['completeness']} text only; "
                           "missing from the sources:")
                out.extend(f"  {m['cite']}: {m['what']}" for m in g["missing"])
        out.append("")
    return "\n".join(out)


def cmd_schedule(args) -> int:
    results, spec_diags = check_files(args.files)
    diags = list(spec_diags) + [d for _, _, ds in results for d in ds]
    ok = not spec_diags and all(sub is not None for _, sub, _ in results)
    facilities: list[dict] = []
    if ok:
        try:
            facilities = facility_schedules([(str(f), sub) for f, sub, _ in results])
        except DiagnosticError as e:
            diags.extend(e.diagnostics)
            ok = False
    if args.format == "json":
        print(json.dumps({"ok": ok, "facilities": facilities, "errors": error_dicts(diags),
                          "diagnostics": [d.to_dict() for d in diags]},
                         indent=2, ensure_ascii=False))
        return 0 if ok else 1
    for d in diags:
        print(d.format(), file=sys.stderr)
    if not ok:
        print("no schedule: fix the errors above", file=sys.stderr)
        return 1
    sys.stdout.write(format_text(facilities))
    return 0
