"""One flat list of provisions from a parsed page or a rulespec dict (for render checks
and diff), plus the typography normalisation both use."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from .errors import TextError
from compiler.text.importer import _paytable_name
from .model import Definition, Document, Provision, Section, Table

MISDECODED_SECTION_SIGN = "\u0e22\u0e07"

_TYPO = [
    (MISDECODED_SECTION_SIGN, "§"),
    ("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'),
    ("''", '"'),
    ("\u2014", "-"), ("\u2013", "-"), ("\u2012", "-"), ("\u2010", "-"),
    ("\u00a0", " "),
]


def normalize(text: str) -> str:
    """Text with typography set aside: quotes, dashes, the mis-decoded section sign,
    whitespace and line wrapping."""
    for a, b in _TYPO:
        text = text.replace(a, b)
    text = re.sub(r"\s*-\s*(?=\()", "-", text)  # "(a) - (c)" / "(a)—(c)"
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class TableData:
    caption: Optional[str]
    header: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]   # (hand label, pays)
    name: Optional[str] = None                     # paytable id when known


@dataclass
class FlatItem:
    key: str                 # matching key: "§ 567.9(c)(2)", "§ 567.1 def:War", "§ 567.1 heading"
    cite: str                # for display
    section: str
    kind: str                # heading | intro | definition | provision | elided
    label: str
    text: str
    tables: list[TableData] = field(default_factory=list)
    after: Optional[str] = None
    parent: Optional[str] = None
    depth: int = 0

    @property
    def full_text(self) -> str:
        return self.text + ("\n" + self.after if self.after else "")


def _table(t: Table, text: str = "") -> TableData:
    return TableData(t.caption, t.header, tuple(t.columns), tuple((r.label, tuple(r.pays)) for r in t.rows),
                     _paytable_name(t, text)[0])


def flatten_section(s: Section) -> list[FlatItem]:
    out = [FlatItem(f"{s.cite} heading", s.cite, s.number, "heading", "", s.heading)]
    if s.text is not None or s.tables:
        out.append(FlatItem(f"{s.cite} intro", s.cite, s.number, "intro", "", s.text or "",
                            [_table(t, s.text or "") for t in s.tables]))
    for d in s.definitions:
        key = f"{s.cite} def:{d.term}"
        out.append(FlatItem(key, f"{s.cite} ({d.term})", s.number, "definition", d.term, d.text))
        for c in d.children:
            _flat_prov(c, s, out, key, 1, key)
    for c in s.children:
        _flat_prov(c, s, out, None, 1, s.cite)
    return out


def _flat_prov(p: Provision, s: Section, out: list, parent: Optional[str], depth: int, prefix: str) -> None:
    if p.elided:
        out.append(FlatItem(f"{prefix} elided@{len(out)}", prefix, s.number, "elided", "", "", parent=parent,
                            depth=depth))
        return
    key = f"{prefix}({p.label})"
    cite = p.cite
    out.append(FlatItem(key, cite, s.number, "provision", p.label, p.text, [_table(t, p.text) for t in p.tables],
                        p.after, parent, depth))
    for c in p.children:
        _flat_prov(c, s, out, key, depth + 1, key)


def flatten_document(doc: Document, chapter: str) -> list[FlatItem]:
    ch = doc.chapter(chapter)
    out: list[FlatItem] = []
    for s in ch.sections:
        out.extend(flatten_section(s))
    return out


# ------------------------------------------------------------------ rulespec dicts

def _spec_table(spec: dict, entry: dict, where: str) -> TableData:
    ident = entry.get("paytable")
    tables = spec.get("paytables") or {}
    if ident not in tables:
        raise TextError(f"{where}: paytable {ident!r} is not in the spec's paytables")
    t = tables[ident]
    rows = tuple((str(r.get("label", r.get("hand", ""))), tuple(str(x) for x in r.get("pays", ())))
                 for r in t.get("rows", ()))
    return TableData(entry.get("caption"), str(t.get("header", "Hand")),
                     tuple(str(c) for c in t.get("columns", ())), rows, ident)


def flatten_spec(spec: dict) -> list[FlatItem]:
    out: list[FlatItem] = []
    for sec in spec.get("provisions") or []:
        number = str(sec["section"])
        cite = f"§ {number}"
        out.append(FlatItem(f"{cite} heading", cite, number, "heading", "", str(sec.get("heading", ""))))
        if "text" in sec or sec.get("tables"):
            out.append(FlatItem(f"{cite} intro", cite, number, "intro", "", str(sec.get("text", "") or ""),
                                [_spec_table(spec, e, cite) for e in sec.get("tables") or []]))
        for d in sec.get("definitions") or []:
            key = f"{cite} def:{d['term']}"
            out.append(FlatItem(key, f"{cite} ({d['term']})", number, "definition", str(d["term"]),
                                str(d.get("text", "") or "")))
            for c in d.get("children") or []:
                _flat_spec_node(spec, c, number, out, key, 1, key, f"{cite} {d['term']}")
        for c in sec.get("children") or []:
            _flat_spec_node(spec, c, number, out, None, 1, cite, cite)
    return out


def _flat_spec_node(spec, node, number, out, parent, depth, prefix, cite_prefix) -> None:
    if node.get("elided"):
        out.append(FlatItem(f"{prefix} elided@{len(out)}", prefix, number, "elided", "", "", parent=parent,
                            depth=depth))
        return
    label = str(node["label"])
    key = f"{prefix}({label})"
    cite = f"{cite_prefix}({label})"
    out.append(FlatItem(key, cite, number, "provision", label, str(node.get("text", "") or ""),
                        [_spec_table(spec, e, cite) for e in node.get("tables") or []],
                        node.get("after"), parent, depth))
    for c in node.get("children") or []:
        _flat_spec_node(spec, c, number, out, key, depth + 1, key, cite)
