"""`rulespec diff OLD.yaml NEW.yaml` for two Rules Submissions of the same game.

What changed between the two filings: the header (certificate holder, facility, effective
date, edition, contact), each selection added, removed or changed (with its §), the wagers
offered and the equipment required, and how the house edge of each wager moved (exact
fractions; the move in percentage points).  ``compiler/text/commands.py`` dispatches here when
both files have a top-level ``rules_submission`` key.
"""
from __future__ import annotations

import html as _html
import json
import sys
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from compiler.analysis.report import dec, pct
from compiler.spec.diagnostics import Diagnostic, DiagnosticError
from compiler.spec.loader import load_document
from compiler.submission.check import check_files
from compiler.submission.document import analysis_of, document_context, show_value

HEADER = ("certificate_holder", "facility", "effective_date")


def is_submission_file(path) -> bool:
    """Whether ``path`` is a YAML mapping with a top-level ``rules_submission`` key."""
    p = Path(path)
    if p.suffix.lower() not in (".yaml", ".yml") or not p.is_file():
        return False

    try:
        data = load_document(str(p)).data
    except DiagnosticError:
        return False
    return isinstance(data, dict) and "rules_submission" in data


@dataclass
class SelectionChange:
    option: str
    title: str
    cite: str
    change: str  # added | removed | changed
    old: str  # as shown in the document ("yes", "14", "$1,000"), "(default) 6" when not given
    new: str


@dataclass
class EdgeChange:
    wager: str
    name: str
    policy: str
    old_house_edge: str | None  # exact fraction, None when the figure is not in OLD
    new_house_edge: str | None
    old_percent: str | None
    new_percent: str | None
    change_points: str | None  # signed, percentage points
    change_fraction: str | None  # signed exact change of the house edge
    old_hit_frequency: str | None
    new_hit_frequency: str | None
    method: str


@dataclass
class SubmissionDiff:
    old: str
    new: str
    chapter: str
    title: str
    header: list[dict] = field(default_factory=list)
    selections: list[SelectionChange] = field(default_factory=list)
    wagers: list[dict] = field(default_factory=list)
    equipment: list[dict] = field(default_factory=list)
    house_edge: list[EdgeChange] = field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        return not (self.header or self.selections or self.wagers or self.equipment
                    or any(e.change_fraction not in ("0", None) or e.old_house_edge is None
                           or e.new_house_edge is None for e in self.house_edge))

    def to_json(self) -> dict:
        return {"kind": "rules_submission_diff", "old": self.old, "new": self.new, "chapter": self.chapter,
                "title": self.title, "header": self.header,
                "selections": [asdict(s) for s in self.selections], "wagers": self.wagers,
                "equipment": self.equipment, "house_edge": [asdict(e) for e in self.house_edge]}


def _shown(sub, oid) -> str:
    o = sub.options[oid]
    if not sub.applicable.get(oid, True):
        return "not applicable"
    v = sub.effective.get(oid)
    given = oid in (sub.data.get("selections") or {})
    return show_value(o, v) if given else f"{show_value(o, v)} (default)"


def _pct_points(x: Fraction) -> str:
    s = dec(x * 100, 4)
    return ("+" + s if x > 0 else s) + " points"


def compare(old, new) -> SubmissionDiff:
    """The difference between two checked Submissions of the same chapter."""
    d = SubmissionDiff(old.path, new.path, new.chapter.chapter, new.chapter.title)
    for k in HEADER:
        a, b = str(old.data.get(k, "")), str(new.data.get(k, ""))
        if a != b:
            d.header.append({"field": k, "old": a, "new": b})
    ga, gb = old.data.get("game") or {}, new.data.get("game") or {}
    if str(ga.get("edition", "")) != str(gb.get("edition", "")):
        d.header.append({"field": "edition", "old": str(ga.get("edition", "")), "new": str(gb.get("edition", ""))})
    ca, cb = old.data.get("contact") or {}, new.data.get("contact") or {}
    for k in list(ca) + [k for k in cb if k not in ca]:
        if str(ca.get(k, "")) != str(cb.get(k, "")):
            d.header.append({"field": f"contact.{k}", "old": str(ca.get(k, "")), "new": str(cb.get(k, ""))})
    sa, sb = old.data.get("selections") or {}, new.data.get("selections") or {}
    for oid, o in new.options.items():
        a_given, b_given = oid in sa, oid in sb
        va, vb = _shown(old, oid), _shown(new, oid)
        if a_given and not b_given:
            kind = "removed"
        elif b_given and not a_given:
            kind = "added"
        elif old.effective.get(oid) != new.effective.get(oid) or va != vb:
            kind = "changed"
        else:
            continue
        d.selections.append(SelectionChange(oid, o["title"], o["cite"], kind, va, vb))
    xa, xb = document_context(old), document_context(new)
    for wa, wb in zip(xa["wagers"], xb["wagers"]):
        if wa["offered"] != wb["offered"]:
            d.wagers.append({"wager": wb["id"], "name": wb["name"], "cite": wb["cite"],
                             "change": "now offered" if wb["offered"] else "no longer offered", "because": wb["status"]})
    ea = {(e["item"], e["cite"]) for e in xa["equipment"]}
    eb = {(e["item"], e["cite"]) for e in xb["equipment"]}
    for e in xa["equipment"]:
        if (e["item"], e["cite"]) not in eb:
            d.equipment.append({"item": e["item"], "cite": e["cite"], "change": "no longer required"})
    for e in xb["equipment"]:
        if (e["item"], e["cite"]) not in ea:
            d.equipment.append({"item": e["item"], "cite": e["cite"], "change": "now required",
                                "because": e["because"]})
    # exact figures only: a simulated mean is no fraction, and its move is noise within its standard error
    fa = {(f.stakes, f.policy.text): f for f in analysis_of(old).figures if f.exact}
    fb = {(f.stakes, f.policy.text): f for f in analysis_of(new).figures if f.exact}
    for key in list(fa) + [k for k in fb if k not in fa]:
        a, b = fa.get(key), fb.get(key)
        f = b or a
        value = getattr(f, "kind", "return") == "value"  # an expected amount in dollars (Envy Bonus)
        ch = (b.house_edge - a.house_edge) if a and b else None
        d.house_edge.append(EdgeChange(
            f.wager, f.name, f.policy.text,
            str(a.house_edge) if a else None, str(b.house_edge) if b else None,
            _edge_shown(a) if a else None, _edge_shown(b) if b else None,
            (_dollars(-ch) if value else _pct_points(ch)) if ch is not None else None,
            str(ch) if ch is not None else None,
            _hit_shown(a), _hit_shown(b),
            f.status))
    return d


def _edge_shown(f) -> str:
    """The house edge in percent, or for a figure of an expected amount (a fixed bonus), that amount."""
    if getattr(f, "kind", "return") == "value":
        return f"${dec(f.expected_return, 4)} expected"
    return pct(f.house_edge)


def _dollars(x: Fraction) -> str:
    s = dec(x, 4)
    return ("+$" + s if x > 0 else "-$" + s.lstrip("-") if x < 0 else "$" + s) + " expected"


def _hit_shown(f) -> str | None:
    """The hit frequency in percent; None without the figure, 'n/a' when it has none."""
    if f is None:
        return None
    return "n/a" if f.hit_frequency is None else pct(f.hit_frequency)


def diff_submissions(old_path, new_path, root: Path | None = None) -> SubmissionDiff:
    """Check both files (DiagnosticError on any error) and compare them."""
    results, spec_diags = check_files([old_path, new_path], root)
    diags: list[Diagnostic] = list(spec_diags)
    for _, sub, ds in results:
        if sub is None:
            diags.extend(ds)
    if diags:
        raise DiagnosticError(diags)
    (_, a, _), (_, b, _) = results
    if a.chapter.chapter != b.chapter.chapter:
        raise DiagnosticError([b.doc.diagnostic(
            "/game/chapter", f"the submissions are for different games: Chapter {a.chapter.chapter} "
                             f"({old_path}) and Chapter {b.chapter.chapter}")])
    return compare(a, b)


def format_text(d: SubmissionDiff) -> str:
    lines = [f"Rules Submissions, Chapter {d.chapter}. {d.title}: {d.old} -> {d.new}"]
    if d.header:
        lines += ["", "Header:"]
        for h in d.header:
            lines.append(f"  {h['field']}: {h['old'] or '(none)'} -> {h['new'] or '(none)'}")
    lines += ["", "Selections:"]
    if not d.selections:
        lines.append("  no change")
    for s in d.selections:
        lines.append(f"  {s.change:<8} {s.option}: {s.old} -> {s.new}  ({s.title}; {s.cite})")
    if d.wagers:
        lines += ["", "Wagers:"]
        for w in d.wagers:
            lines.append(f"  {w['name']}: {w['change']} ({w['because']}; {w['cite']})")
    if d.equipment:
        lines += ["", "Equipment:"]
        for e in d.equipment:
            lines.append(f"  {e['item']}: {e['change']}" + (f" ({e['because']})" if e.get("because") else "")
                         + f"  {e['cite']}")
    lines += ["", "House edge:"]
    for e in d.house_edge:
        head = f"  {e.name} [{e.policy}]:"
        if e.old_house_edge is None:
            lines.append(f"{head} new: {e.new_percent} ({e.new_house_edge}), {e.method}")
        elif e.new_house_edge is None:
            lines.append(f"{head} withdrawn (was {e.old_percent} ({e.old_house_edge}))")
        elif e.change_fraction == "0":
            lines.append(f"{head} {e.new_percent} ({e.new_house_edge}), unchanged, {e.method}")
        else:
            lines.append(f"{head} {e.old_percent} -> {e.new_percent} ({e.change_points}; "
                         f"{e.old_house_edge} -> {e.new_house_edge}), {e.method}")
    return "\n".join(lines) + "\n"


def format_json(d: SubmissionDiff) -> str:
    return json.dumps(d.to_json(), indent=2, ensure_ascii=False) + "\n"


def format_html(d: SubmissionDiff) -> str:
    esc = _html.escape
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
            f"<title>Rules Submission changes: Chapter {esc(d.chapter)}. {esc(d.title)}</title>\n"
            "<style>body { font-family: Georgia, serif; max-width: 56rem; margin: 2rem auto; }</style>\n"
            f"</head>\n<body>\n<pre>{esc(format_text(d))}</pre>\n</body>\n</html>\n")


def cmd_diff_submissions(args) -> int:
    """The `diff` handler for two Rules Submissions (called by compiler/text/commands.py)."""
    if getattr(args, "amendment", False):
        print("error: --amendment applies to regulation text, not to Rules Submissions", file=sys.stderr)
        return 1
    try:
        d = diff_submissions(args.old, args.new)
    except DiagnosticError as e:
        for x in e.diagnostics:
            print(x.format(), file=sys.stderr)
        return 1
    fmt = getattr(args, "format", "text")
    text = format_json(d) if fmt == "json" else format_html(d) if fmt == "html" else format_text(d)
    out = getattr(args, "output", None)
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
