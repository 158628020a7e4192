"""Plain-text outline of a parsed document (``rulespec text parse`` default output)."""
from __future__ import annotations

from .model import Document, Provision, section_provisions


def _prov(p: Provision, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    if p.elided:
        out.append(f"{pad}* * * * *")
        return
    text = p.text if len(p.text) <= 70 else p.text[:67] + "..."
    out.append(f"{pad}{p.cite} [{p.level}] {text}")
    for t in p.tables:
        cap = f" {t.caption!r}" if t.caption else ""
        out.append(f"{pad}  table{cap}: {t.header} | " + " | ".join(t.columns) + f" ({len(t.rows)} rows)")
        for r in t.rows:
            out.append(f"{pad}    {r.label} [{r.hand}] | " + " | ".join(r.pays))
    for r in p.refs:
        mark = "" if r.resolved else (" (external)" if r.external else " (unresolved)")
        out.append(f"{pad}  -> {r.text}{mark}")
    for c in p.children:
        _prov(c, depth + 1, out)


def outline(doc: Document) -> str:
    out = [f"{doc.path}: {doc.format} page {doc.source_cite or ''} {doc.date or ''}".rstrip()]
    if doc.preamble:
        out.append(f"preamble: {len(doc.preamble)} lines")
    for ch in doc.chapters:
        n = sum(1 for s in ch.sections for p in section_provisions(s) if not p.elided)
        out.append(f"CHAPTER {ch.number}. {ch.title or ''}  ({len(ch.sections)} sections, "
                   f"{n} numbered provisions, {'complete' if ch.complete else 'partial'})")
        for s in ch.sections:
            out.append(f"  {s.cite}. {s.heading}")
            if s.text:
                out.append(f"    {s.text[:70]}")
            for d in s.definitions:
                out.append(f"    {d.term}\u2014{d.text[:60]}")
                for c in d.children:
                    _prov(c, 3, out)
            for c in s.children:
                _prov(c, 2, out)
    for s in doc.fragments:
        out.append("fragment of an unnamed section:")
        if s.text:
            out.append(f"    {s.text[:70]}")
        for t in s.tables:
            out.append(f"    table: {t.header} | " + " | ".join(t.columns) + f" ({len(t.rows)} rows)")
        for c in s.children:
            _prov(c, 2, out)
    for ev in doc.history:
        out.append(f"history: {ev.scope or 'page'} {ev.action} {ev.date or '?'}"
                   + (f", effective {ev.effective}" if ev.effective else "")
                   + (f", expires {ev.expires}" if ev.expires else "") + (f", {ev.cite}" if ev.cite else ""))
    if doc.affects:
        out.append("affects chapters: " + ", ".join(doc.affects))
    for n in doc.notices:
        out.append(n.format(doc.path))
    notes = [f for f in doc.furniture]
    if notes:
        out.append("furniture and notes:")
        for f in notes:
            out.append(f"  {f.pos.line}:{f.pos.column} {f.kind}: {f.text[:70]}")
    return "\n".join(out) + "\n"
