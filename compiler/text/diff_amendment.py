"""``rulespec diff --amendment``: the changes printed as the Bulletin prints an amendment."""
from __future__ import annotations

import html as _html
import json
import re

from .diff_model import NOT_SUBSTANTIVE, Change, DiffResult, _skey

def _amendment_sections(result: DiffResult, bold, dele, esc, table_out) -> list[dict]:
    """The changed sections as the Bulletin prints an amendment: each a dict with its
    heading and lines (``* * * * *`` only where unchanged text of that section is left out)."""
    out: list[dict] = []
    for cd in result.chapters:
        by_sec: dict[str, list[Change]] = {}
        for c in cd.changes:
            by_sec.setdefault(c.section, []).append(c)
        headings = {it.section: it.text for it in cd.new_items if it.kind == "heading"}
        headings.update({it.section: it.text for it in cd.old_items
                         if it.kind == "heading" and it.section not in headings})
        for sec in sorted(by_sec, key=_skey):
            cs = by_sec[sec]
            if all(c.kind in NOT_SUBSTANTIVE for c in cs):
                continue
            lines: list = []
            gap = False
            for c in cs:
                if c.old_cite == f"§ {sec}" and c.new_cite == f"§ {sec}" and c.kind in NOT_SUBSTANTIVE \
                        and (c.old_text or "") == headings.get(sec):
                    continue  # the heading itself
                if c.kind in NOT_SUBSTANTIVE:
                    gap = True
                    continue
                if gap:
                    lines.append("* * * * *")
                    gap = False
                label = _label_of(c.new_cite or c.old_cite or "")
                if c.kind == "added":
                    lines.append(bold(f"{label} {c.new_text or ''}".strip()))
                    for tb in c.new_tables:
                        lines.extend(table_out(None, tb))
                elif c.kind == "removed":
                    lines.append(dele(f"{label} {c.old_text or ''}".strip()))
                    for tb in c.old_tables:
                        lines.extend(table_out(tb, None))
                else:
                    old_label = _label_of(c.old_cite or "")
                    head = label if old_label == label else f"{dele(old_label)} {bold(label)}"
                    parts = []
                    for op, old, new in c.words or [["equal", c.new_text or "", ""]]:
                        if op == "equal":
                            parts.append(esc(old))
                        if op in ("delete", "replace") and old:
                            parts.append(dele(old))
                        if op in ("insert", "replace") and new:
                            parts.append(bold(new))
                    lines.append(f"{head} {' '.join(p for p in parts if p)}".strip())
                    if c.cells:
                        # the changed table reprinted as the Bulletin prints it, changes marked in its cells
                        for k in range(max(len(c.old_tables), len(c.new_tables))):
                            lines.extend(table_out(c.old_tables[k] if k < len(c.old_tables) else None,
                                                   c.new_tables[k] if k < len(c.new_tables) else None))
            # "* * * * *" after the last change only when unchanged text of the section follows it
            if gap and lines:
                lines.append("* * * * *")
            out.append({"chapter": cd.chapter, "scope": cd.scope, "section": sec,
                        "heading": headings.get(sec, ""), "lines": lines})
    return out


def _table_rows(old, new, bold, dele, esc) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a table with its changes marked cell by cell."""
    t = new or old
    cols_old = list(old.columns) if old else []
    cols_new = list(new.columns) if new else []
    cols = cols_new + [c for c in cols_old if c not in cols_new]
    head = [esc(t.header)]
    for c in cols:
        if old is None or new is None:
            head.append(esc(c))
        elif c not in cols_old:
            head.append(bold(c))
        elif c not in cols_new:
            head.append(dele(c))
        else:
            head.append(esc(c))
    ro = dict(old.rows) if old else {}
    rn = dict(new.rows) if new else {}
    labels = [r for r, _ in (new.rows if new else ())] + [r for r, _ in (old.rows if old else ()) if r not in rn]
    rows = []
    for lab in labels:
        cells = []
        for c in cols:
            x = ro[lab][cols_old.index(c)] if lab in ro and c in cols_old and cols_old.index(c) < len(ro[lab]) else None
            y = rn[lab][cols_new.index(c)] if lab in rn and c in cols_new and cols_new.index(c) < len(rn[lab]) else None
            if old is None:
                cells.append(esc(y or ""))
            elif new is None:
                cells.append(esc(x or ""))
            elif x == y:
                cells.append(esc(y or ""))
            else:
                cells.append(" ".join(p for p in ((dele(x) if x else ""), (bold(y) if y else "")) if p))
        if old is not None and new is not None and lab not in ro:
            rows.append([bold(lab)] + cells)
        elif old is not None and new is not None and lab not in rn:
            rows.append([dele(lab)] + cells)
        else:
            rows.append([esc(lab)] + cells)
    return head, rows


def format_amendment(result: DiffResult, html: bool = False, as_json: bool = False) -> str:
    """The change as a Bulletin amendment: new text in bold, deleted text in bold
    brackets, ``* * * * *`` for unchanged runs of a section, a changed table reprinted
    with its changed cells marked; "no change" when there is none."""
    esc = _html.escape if html else (lambda s: s)
    bold = (lambda s: f"<b>{esc(s)}</b>") if html else (lambda s: f"**{s}**")
    dele = (lambda s: f"<b>[{esc(s)}]</b>") if html else (lambda s: f"**[{s}]**")

    def table_out(old, new):
        head, rows = _table_rows(old, new, bold, dele, esc)
        t = new or old
        cap = [esc(t.caption)] if t.caption else []
        if html:
            body = "".join(f"<th>{h}</th>" for h in head)
            trs = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
            return cap + [{"html": f"<table><tr>{body}</tr>{trs}</table>"}]
        return cap + [" | ".join(head)] + [" | ".join(r) for r in rows]

    sections = _amendment_sections(result, bold, dele, esc, table_out)
    typography = any(c.kind == "no substantive change" for cd in result.chapters for c in cd.changes)
    data = [d for cd in result.chapters for d in cd.data]
    none_msg = (f"no change: {result.old} and {result.new} read the same"
                + (" (typography only: quotes, dashes, spacing)" if typography else "")
                + (f"; {len(data)} data changes (see rulespec diff without --amendment)" if data else ""))
    if as_json:
        return json.dumps({
            "old": result.old, "new": result.new, "change": bool(sections),
            "message": None if sections else none_msg,
            "scope": [cd.scope for cd in result.chapters if cd.scope],
            "sections": [{"chapter": s["chapter"], "section": s["section"], "heading": s["heading"],
                          "lines": s["lines"]} for s in sections],
        }, indent=1, ensure_ascii=False) + "\n"
    lines: list[str] = []
    for cd in result.chapters:
        if cd.scope:
            lines.append(f"({cd.scope})")
    for s in sections:
        lines.append(f"§ {s['section']}. {esc(s['heading'])}")
        lines.extend(s["lines"])
    if not sections:
        lines.append(esc(none_msg))
    if html:
        body = "\n".join(ln["html"] if isinstance(ln, dict) else f"<p>{ln}</p>" for ln in lines)
        return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
                "<title>Amendment</title>\n</head>\n<body>\n" + body + "\n</body>\n</html>\n")
    return "\n".join(lines) + "\n"


def _label_of(cite: str) -> str:
    m = re.search(r"(\([^()]*\))$", cite)
    return m.group(1) if m else ""
