"""Rules Submissions (§ 601a.2): the document of a casino's selections for one chapter.

A submission is a YAML file (docs/submissions.md)::

    rules_submission: 1
    certificate_holder: Keystone Riverside Gaming, LLC
    facility: Riverside Casino Pittsburgh
    game: {chapter: "567", title: War, edition: 40 Pa.B. 1911}
    effective_date: "2025-07-01"
    contact: {name: ..., title: ..., phone: ..., email: ...}
    selections: {automated_shuffler: true, decks: 14, adjacent_positions: 2}
    attachments: {A: Layout drawing ...}          # optional

Everything a submission may say is driven by the chapter's rulespec (nothing here names a
chapter).  The work is in rooms of their own:

* compiler/submission/values.py      a selection's value, read and shown;
* compiler/submission/conditions.py  conditions over selections, on the chapter's game;
* compiler/submission/check.py       checking a file (``load_submission``, ``check_submission``);
* compiler/submission/schema.py      the generated submission schema;
* compiler/submission/figures.py     the analysis figures and notes a document shows;
* compiler/submission/plots.py       the SVG plots of a document;
* compiler/submission/formats.py     the one list of document formats (md, html, pdf);
* here: ``document_context`` (what the templates show) and ``render_submission_files``, what
  ``rulespec build`` calls for each file of ``rulespecs/submissions/``.

The names above are re-exported here for the callers that import them from this module.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from compiler.spec.diagnostics import DiagnosticError
from compiler.spec.loader import load_document
from compiler.submission.check import (CRITERIA, Submission, chapter_key, chapter_of_file,  # noqa: F401
                                       chapter_spec_files, check_submission, display_path, edition_of,
                                       find_chapters, glob_escape, is_chapter_id, load_submission)
from compiler.submission.conditions import Conditions, describe_when, options_read  # noqa: F401
from compiler.submission.figures import (_ANALYSES, _report_fields, _report_from, analysis_of,  # noqa: F401
                                         document_plots, figure_notes, figure_rows, paytable_wagers)
from compiler.submission.formats import FORMATS, render_formats, template_envs  # noqa: F401
from compiler.submission.schema import BASE_SCHEMA  # noqa: F401
from compiler.submission.values import check_value, show_money, show_value  # noqa: F401

RULES_SUBMISSION_CITE = "§ 601a.2"


def document_context(sub: Submission, display_path: str | None = None) -> dict:
    """Everything the document templates show (plain strings, lists and dicts)."""
    ch = sub.chapter
    game = sub.game
    conds = Conditions(game, sub.effective)
    table = conds.table
    options = sub.options
    selections, house_ways = _selection_rows(sub)
    wagers = _wager_rows(ch, table, options)
    offered_ids = {w["id"] for w in wagers if w["offered"]}
    paytables = _paytable_rows(sub, table, offered_ids)
    payouts = _payout_rows(ch, table, offered_ids)
    meters = _meter_rows(ch, table, options, offered_ids)
    equipment = _equipment_rows(ch, conds, options)
    constraints = [{"message": c.message, "cite": c.cite} for c in ch.constraints]
    contact = [{"key": k.replace("_", " ").capitalize(), "value": str(v)}
               for k, v in (sub.data.get("contact") or {}).items()]
    attachments = [{"key": str(k), "value": show_attachment(v)} for k, v in (sub.data.get("attachments") or {}).items()]
    gd = sub.data.get("game") or {}
    figures = figure_rows(sub)
    report = analysis_of(sub)
    covered = {w for f in report.figures for w in (*f.stakes, *f.includes)}
    not_analysed = [w["name"] for w in wagers if w["offered"] and w["id"] not in covered]
    return {
        # the file's name as given, never a local absolute path (a document travels)
        "submission_path": _no_local_path(display_path or sub.path),
        "spec_path": ch.spec_path, "chapter": ch.chapter, "title": ch.title, "slug": ch.slug,
        "schema_path": f"generated/schemas/{ch.slug}-submission.schema.json",
        "certificate_holder": str(sub.data["certificate_holder"]), "facility": str(sub.data["facility"]),
        "effective_date": str(sub.data["effective_date"]),
        "edition": edition_of(ch), "edition_given": str(gd.get("edition", "")),
        "source_effective": ch.source.effective,
        "contact": contact, "attachments": attachments,
        "selections": selections, "house_ways": house_ways,
        "paytables": paytables, "payouts": payouts, "meters": meters,
        "wagers": wagers, "figures": figures, "not_analysed": not_analysed,
        # notes for people: what each figure assumes; the analysis's own notes only where it gives
        # no figure at all (they say why)
        "figure_notes": figure_notes(sub, figures),
        "analysis_notes": [] if figures else list(report.notes),
        "plots": document_plots(sub),
        "equipment": equipment, "constraints": constraints,
        "interpretations": [{"id": i.id, "cites": list(i.cites), "text": i.text, "chosen": i.chosen}
                            for i in ch.interpretations],
        "warnings": [w.message for w in sub.diagnostics],
        "rules_submission_cite": RULES_SUBMISSION_CITE,
    }


def _selection_rows(sub: Submission) -> tuple[list[dict], list[dict]]:
    """Each option with its value and whether it was selected, defaulted or does not apply; and the
    house way rules of each house way option that applies."""
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
    return selections, house_ways


def _wager_rows(ch, table, options: dict) -> list[dict]:
    """Each wager of the chapter, whether it is offered, and why (or why not)."""
    wagers = []
    for wid, w in ch.wagers.items():
        offered = table.offered(wid)
        if w.offered_by:
            ob = w.offered_by
            why = f"{options.get(ob, {}).get('title', ob)}: {show_value(options.get(ob, {}), table.options.get(ob))}"
        else:
            why = "required to play" if w.required else (
                "placed during the round" if w.placed == "during_round" else "always offered")
        if w.stays == "until_settled":  # a Come: left open when the round ends (issue 23 item 4)
            kept = f", keeping {', '.join(w.keeps)}" if w.keeps else ""
            why += f"; stays on the layout from round to round until settled{kept}"
        wagers.append({"id": wid, "name": w.name, "cite": w.cite, "offered": offered, "status": why})
    return wagers


def _paytable_rows(sub: Submission, table, offered_ids: set) -> list[dict]:
    """The paytables in force: the column selected of each that pays an offered wager."""
    ch = sub.chapter
    links = paytable_wagers(ch)  # paytable -> the wagers it pays (an Envy schedule: its wager)
    paytables = []
    for pid, p in ch.paytables.items():
        if pid in links and not (links[pid] & offered_ids):
            continue  # the wager it pays is not offered
        cols = list(p.columns)
        col = 0
        if p.option:
            if not sub.applicable.get(p.option, True):
                continue
            chosen = table.options.get(p.option)
            if chosen not in cols:
                continue
            col = cols.index(chosen)
        paytables.append({
            "id": pid, "title": p.title, "cite": p.cite, "header": p.header, "column": cols[col],
            "option": p.option or "", "rows": [{"label": r.label, "pays": r.pays[col]} for r in p.rows],
        })
    return paytables


def _payout_rows(ch, table, offered_ids: set) -> list[dict]:
    """The payout odds of the offered wagers: as the rules state them, as selected, or unpriced."""
    payouts = []
    for pid, p in ch.payouts.items():
        paid = [wid for wid, w in ch.wagers.items() if w.pays == pid]
        if paid and not set(paid) & offered_ids:
            continue  # pays only wagers the casino does not offer
        names = [ch.wagers[wid].name for wid in paid if wid in offered_ids]
        if p.text is not None:
            odds = p.text
        elif p.odds_option and table.options.get(p.odds_option) not in (None, ""):
            odds = f"{table.options[p.odds_option]} (stated in this Rules Submission; {p.cite} is not in the sources)"
        else:
            odds = f"{p.unpriced or 'not in the sources'}: a win is recorded without an amount"
        payouts.append({"id": pid, "wagers": ", ".join(names) or "named in the settlement rules", "odds": odds, "cite": p.cite})
    return payouts


def _meter_rows(ch, table, options: dict, offered_ids: set) -> list[dict]:
    """The progressive meters an offered wager feeds, with their rate and reset as selected."""
    meters = []
    for mid, m in ch.meters.items():
        if not any(w.progressive == mid and wid in offered_ids for wid, w in ch.wagers.items()):
            continue  # no wager the casino offers feeds it
        meters.append({"id": mid, "cite": m.cite,
                       "rate": show_value(options.get(m.rate_option, {}), table.options.get(m.rate_option))
                       if m.rate_option else "—",
                       "reset": show_value(options.get(m.reset_option, {}), table.options.get(m.reset_option))
                       if m.reset_option else "—"})
    return meters


def _equipment_rows(ch, conds: Conditions, options: dict) -> list[dict]:
    """The table's equipment (of the chapter's IR) these selections call for, and the selections that call for it."""
    table = conds.table
    equipment = []
    for e in ch.table.get("equipment") or ():
        if e.get("when") and not conds.holds(e["when"]):
            continue
        because = "; ".join(f"{options[r]['title']}: {show_value(options[r], table.options.get(r))}"
                            for r in options_read(e["when"]) if r in options) if e.get("when") else ""
        equipment.append({"item": e["item"], "location": e.get("location", ""), "cite": e["cite"],
                          "because": because or e.get("when", ""), "when": e.get("when", "")})
    return equipment


def _no_local_path(path: str) -> str:
    """A path relative to the project as it is; anything else (absolute, outside) by its file name only."""
    p = Path(path)
    return p.name if p.is_absolute() or ".." in p.parts else p.as_posix()



def show_attachment(v) -> str:
    if isinstance(v, dict):
        return "; ".join(f"{k}: {x}" for k, x in v.items())
    if isinstance(v, list):
        return "; ".join(str(x) for x in v)
    return str(v)


def render_html(sub: Submission, display_path: str | None = None) -> str:
    return render_formats(document_context(sub, display_path), ("html",))["html"]


def render_documents(sub: Submission, display_path: str | None = None) -> tuple[str, str]:
    """(Markdown, HTML) of one submission."""
    out = render_formats(document_context(sub, display_path), ("md", "html"))
    return out["md"], out["html"]


def render_submission_files(root: Path, path: Path, chapters: Mapping[str, Any]) -> dict[str, str]:
    """``{generated/submissions/<stem>.<ext>: content}`` for one example submission, one file per
    format of compiler/submission/formats.py (``.md``, ``.html``, ``.pdf``).

    A submission of a chapter whose rulespec exists but is not part of this build (``rulespec
    build SPEC``) is skipped; an invalid submission raises DiagnosticError.
    """
    root = Path(root)
    shown = display_path(root, path)
    doc = load_document(shown if (root / shown).exists() and not Path(shown).is_absolute() else str(path),
                        Path(path).read_bytes())
    key = chapter_key(doc.data)
    if key is not None and key not in chapters and chapter_spec_files(root, key):
        return {}
    sub, diags = check_submission(doc, chapters)
    if sub is None:
        raise DiagnosticError(diags)
    stem = Path(path).stem
    return {f"generated/submissions/{stem}.{ext}": content
            for ext, content in render_formats(document_context(sub, shown)).items()}
