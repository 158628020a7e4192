"""``rulespec diff`` output: text, JSON and HTML."""
from __future__ import annotations

import json
from dataclasses import asdict
from fractions import Fraction
from typing import Any, Optional

from .diff_model import ELIDED_NOTE, DiffResult
from compiler.text.render import _env

# ------------------------------------------------------------------------ output

def _words_text(words: list) -> str:
    parts = []
    for op, old, new in words:
        if op == "equal":
            parts.append(old if len(old) < 80 else old[:30] + " ... " + old[-30:])
        elif op == "delete":
            parts.append(f"[-{old}-]")
        elif op == "insert":
            parts.append(f"{{+{new}+}}")
        else:
            parts.append(f"[-{old}-]{{+{new}+}}")
    return " ".join(p for p in parts if p)


def _cell_text(c: dict) -> str:
    if c["change"] == "cell":
        return f"table {c['table']}: {c['hand']} / {c['column']}: {c['old']} -> {c['new']}"
    bits = [f"table {c['table']}"]
    for k in ("hand", "column"):
        if k in c:
            bits.append(str(c[k]))
    return ": ".join(bits) + f": {c['change']}"


def format_text(result: DiffResult) -> str:
    out = [f"diff {result.old} {result.new}"]
    for cd in result.chapters:
        out.append(f"chapter {cd.chapter}")
        if cd.scope:
            out.append(f"scope: {cd.scope}")
        for c in cd.changes:
            if c.kind == "unchanged":
                continue
            if c.kind == "no substantive change":
                out.append(f"  {c.cite}: no substantive change (typography only)")
                continue
            if c.kind == "cut":
                out.append(f"  {c.cite}: {c.note}")
                continue
            if c.kind == "elided":
                if (c.old_text or c.new_text) == "* * * * *":
                    where = " and ".join(w for w, t in (("OLD", c.old_text), ("NEW", c.new_text)) if t)
                    out.append(f"  {c.cite}: {ELIDED_NOTE.replace('* * * * *:', f'* * * * * in {where}:')}")
                else:
                    where = "OLD" if c.new_text else "NEW"
                    out.append(f"  {c.cite}: elided: {where} prints * * * * * here (base text, not compared): "
                               f"{c.new_text or c.old_text}")
                continue
            if c.kind == "added":
                out.append(f"  {c.cite}: added: {c.new_text}")
            elif c.kind == "removed":
                out.append(f"  {c.cite}: removed: {c.old_text}")
            else:
                out.append(f"  {c.cite}: {c.kind}")
                if any(w[0] != "equal" for w in c.words):
                    out.append(f"      {_words_text(c.words)}")
            for cell in c.cells:
                out.append(f"      {_cell_text(cell)}")
        if cd.data:
            out.append("  executable changes, by provision:")
        for cite, items in _by_provision(cd.data):
            out.append(f"    {cite}:")
            for d in items:
                what = d["path"]
                if d.get("wagers"):
                    what += f" ({', '.join(d['wagers'])})"
                if d["change"] == "changed":
                    out.append(f"      {d['part']}: {what}: {_val(d['old'])} -> {_val(d['new'])}")
                elif d["change"] == "added":
                    out.append(f"      {d['part']}: {what}: added {_val(d['new'])}")
                else:
                    out.append(f"      {d['part']}: {what}: removed {_val(d['old'])}")
        for w in getattr(cd, "impact", None) or ():
            if w.get("kind") == "mapping":
                for m in w["mapped"]:
                    out.append(f"  mapped {m['cite']}: {m['at']}: {_val(m['old'])} -> {_val(m['new'])}")
                for m in w["unmapped"]:
                    out.append(f"  not mapped {m['cite']}: {m['old']!r} -> {m['new']!r}: {m['why']}")
                if not w["mapped"]:
                    out.append("  impact: none of the page's changes maps onto the data")
                continue
            if w.get("kind") == "record":
                out.append(f"  impact {w['name']} [{w['policy']}]: {w['note']}")
                continue
            if w.get("kind") == "strategy":
                if w.get("note"):
                    out.append(f"  impact {w['name']} [{w['policy']}]: {w['note']}")
                    continue
                moves = "; ".join(f"{m['old']} -> {m['new']}: {m['holdings']:,}" for m in w["moves"])
                out.append(f"  impact {w['name']} [{w['policy']}]: {w['decisions_changed']:,} of {w['holdings']:,} "
                           "holdings change their decision" + (f" ({moves})" if moves else " (unchanged)"))
                continue
            parts = _impact_parts(w)
            unchanged = " (unchanged)" if w.get("changed") is False else (
                " (simulated: no change seen within the standard errors)" if w.get("changed") is None else "")
            out.append(f"  impact {w['name']} [{w['policy']}]: " + "; ".join(parts) + unchanged)
        s = cd.summary()
        if not cd.substantive:
            out.append("  no substantive change")
        out.append("summary: " + ", ".join(f"{v} {k}" for k, v in s.items()))
    return "\n".join(out) + "\n"


def _impact_parts(w: dict) -> list[str]:
    """The payouts changed and each figure before -> after (a figure neither side has is left out)."""
    parts = [f"{p['old']} -> {p['new']}" for p in w.get("payouts") or ()]
    sim = w.get("simulated") or {}
    return parts + [f"{k.replace('_', ' ')} {_pct(w[k]['old'], sim.get('old'))} -> {_pct(w[k]['new'], sim.get('new'))}"
                    for k in ("house_edge", "hit_frequency")
                    if w.get(k) and (w[k].get("old") is not None or w[k].get("new") is not None)]


def _by_provision(data: list[dict]) -> list[tuple[str, list[dict]]]:
    groups: dict[str, list[dict]] = {}
    for d in data:
        groups.setdefault(d.get("cite") or "(no citation)", []).append(d)
    return list(groups.items())


def _val(v: Any) -> str:
    if isinstance(v, str):
        return v
    return json.dumps(v, ensure_ascii=False, default=str)


def _pct(v: Optional[str], simulated: Optional[dict] = None) -> str:
    if v is None:
        return "none"
    if simulated:  # a simulated figure: its standard error, and whether it reaches the precision target
        short = "" if simulated["meets_target"] else ", short of the precision target"
        return f"{float(v) * 100:.2f}% ± {float(simulated['standard_error']) * 100:.2f} points (simulated{short})"
    f = Fraction(v)
    return f"{float(f * 100):.2f}%"


def to_dict(result: DiffResult) -> dict:
    return {
        "old": result.old,
        "new": result.new,
        "chapters": [{
            "chapter": cd.chapter,
            "scope": cd.scope,
            "substantive": cd.substantive,
            "summary": cd.summary(),
            "changes": [{k: v for k, v in asdict(c).items()} | {"cite": c.cite} for c in cd.changes],
            "data": cd.data,
        } | ({"impact": cd.impact} if getattr(cd, "impact", None) is not None else {})
            for cd in result.chapters],
    }


def format_json(result: DiffResult) -> str:
    return json.dumps(to_dict(result), indent=1, ensure_ascii=False, default=str) + "\n"


def format_html(result: DiffResult) -> str:
    chapters = []
    for cd in result.chapters:
        rows = []
        for c in cd.changes:
            if c.kind == "unchanged":
                continue
            segs = []
            if c.kind == "added":
                segs = [("insert", "", c.new_text or "")]
            elif c.kind == "removed":
                segs = [("delete", c.old_text or "", "")]
            else:
                segs = [tuple(w) for w in c.words] or [("equal", c.new_text or "", "")]
            rows.append({"cite": c.cite, "kind": c.kind, "segments": segs,
                         "cells": [_cell_text(x) for x in c.cells]})
        chapters.append({"chapter": cd.chapter, "scope": cd.scope, "rows": rows,
                         "summary": cd.summary(), "substantive": cd.substantive,
                         "data": [f"{d['path']}: {d['change']}" + (f" {d.get('old')!r} -> {d.get('new')!r}"
                                                                   if d["change"] == "changed" else "")
                                  for d in cd.data]})
    return _env(True).get_template("diff.html.jinja").render(old=result.old, new=result.new, chapters=chapters)
